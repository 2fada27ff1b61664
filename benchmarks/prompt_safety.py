"""What players' words and cut replies can do to model prompts: figures, before and after.

    python benchmarks/prompt_safety.py                 # this checkout
    python benchmarks/prompt_safety.py --code DIR      # another checkout (an older commit)

``--code`` measures the engine, prompts and agents of DIR with this checkout's test
helpers (the payload games of ``tests/injection_games.py``, the audit of
``tests/prompt_lines.py``, the stand-ins of ``tests/llm_standins.py``), so an older
commit is measured by exactly the same games and the same check. Printed:

- forged lines: lines shaped like the game's own (a history entry, a question line, a
  heading) that the renderer did not write whole, over every request of the payload
  games (occurrences, and distinct lines); plus the table with names that forge;
- private text published: speeches (and night talk, notes) holding a stand-in's
  private reasoning, requests carrying it to other seats, narration lines, when the
  server cuts replies at a 16-token budget, for each wire format.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--code", type=Path, default=HERE, help="the checkout whose engine, prompts and agents are measured")
    args = ap.parse_args()
    sys.path[:0] = [str(args.code.resolve()), str(HERE / "tests")]
    os.environ.setdefault("OPENAI_API_KEY", "sk-benchmark-standin")
    os.environ.setdefault("ANTHROPIC_API_KEY", "sk-ant-benchmark-standin")
    for var in ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"):
        os.environ.pop(var, None)

    import engine

    print(f"code measured: {Path(engine.__file__).resolve().parents[1]}")
    forged_lines()
    private_text()


def forged_lines() -> None:
    from injection_games import BAD_NAME_TABLE, TABLES, play

    from llm_standins import reset_llm_state

    total = distinct = 0
    print("\nforged lines in the prompts of the payload games (occurrences / distinct):")
    for table in TABLES + [BAD_NAME_TABLE]:
        reset_llm_state()
        label = f"{table.preset}-{table.language}-{table.vendor}" + (" (names that forge)" if table is BAD_NAME_TABLE else "")
        try:
            _, audit, _ = asyncio.run(play(table))
        except Exception as e:  # a table the code refuses to set up forges nothing
            print(f"  {label:48} refused at setup: {str(e).splitlines()[0][:90]}")
            continue
        lines = {f.line for f in audit.forged}
        total += len(audit.forged)
        distinct += len(lines)
        print(f"  {label:48} {len(audit.forged):6d} / {len(lines):4d}   ({audit.requests} requests, {audit.lines} lines)")
    print(f"  {'total':48} {total:6d} / {distinct:4d}")


def private_text() -> None:
    from llm_standins import AnthropicStandIn, OpenAIStandIn, reset_llm_state
    from test_llm_cut_replies import leaks, play_cut_game

    print("\nprivate text published with a server cutting replies at 16 tokens (speeches / prompts / narration):")
    for standin, spec, mode in (
        (OpenAIStandIn, "openai:stand-in", None),
        (OpenAIStandIn, "openai:stand-in", "tool"),
        (OpenAIStandIn, "openai:stand-in", "text"),
        (AnthropicStandIn, "anthropic:stand-in", None),
    ):
        reset_llm_state()
        game, log, api = asyncio.run(play_cut_game(standin, spec, mode, honour_max_tokens=True, seat={"max_tokens": 16}))
        found = leaks(game, api)
        fallbacks = sum(1 for r in log.records if r.fallback)
        label = f"{spec} {mode or 'default'}"
        print(
            f"  {label:32} {found['speeches']:4d} / {found['prompts']:4d} / {found['narration']:4d}"
            f"   ({api.cuts} replies cut, {len(api.requests)} requests, {fallbacks} fallbacks)"
        )


if __name__ == "__main__":
    main()
