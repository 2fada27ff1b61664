"""What a bench will cost, before a game is played.

A dry run plays one deal of every table and opponent (both ways round, with seeds
other than the run's) with the model's seats sent to the local stand-in of its vendor's API (``arena.standin_server``:
the real wire protocol, usage billed by the vendor's documented prompt-cache rules,
tokens counted as 4 characters). That counts exactly the decisions a game asks of the
model and the tokens each one sends (the prompts are the arena's, not the model's);
the price table (``agents.llm.pricing``) turns them into dollars. What the stand-in
cannot know is how long the real model's replies are: it answers with a short legal
reply, so a model that writes long speeches or reasons aloud costs more output tokens
than the estimate says (docs/BENCH.md says by how much to allow).

The number of games is the protocol's: the games its interval needs to reach the
target for a model as strong as the reference player (``confseq.games_for_half_width``),
rounded up to whole batches, and at most all its deals.
"""

from __future__ import annotations

import math
import os
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from arena.bench.confseq import games_for_half_width
from arena.bench.protocol import MODEL, Protocol
from arena.bench.run import Bench, open_store
from arena.standin_server import StandInServer
import json

DRY_SEED_OFFSET = 7919  # the dry run's deals are drawn with the protocol's seed plus this
DRY_KEY_ENV = "WEREWOLF_BENCH_DRY_RUN_KEY"  # the stand-in takes any key; a real one never goes to it


@dataclass(frozen=True)
class Estimate:
    games_expected: int
    games_max: int
    dry_run_games: int
    decisions_per_game: float
    calls_per_game: float
    input_tokens_per_decision: float
    output_tokens_per_decision: float
    cached_share: float
    usd_per_game: float | None  # None: the price table does not know the model
    usd_expected: float | None
    usd_max: float | None
    seconds_expected: float

    def to_json(self) -> dict[str, Any]:
        return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in asdict(self).items()}

    def lines(self) -> list[str]:
        usd = "unknown (the price table has no price for this model: --prices FILE)" if self.usd_expected is None else (
            f"${self.usd_expected:.2f} expected, ${self.usd_max:.2f} at most (${self.usd_per_game:.4f} a game)"
        )  # fmt: skip
        return [
            f"games: about {self.games_expected} (at most {self.games_max})",
            f"per game: {self.decisions_per_game:.0f} decisions by the model, {self.input_tokens_per_decision:.0f} input and "
            f"{self.output_tokens_per_decision:.0f} output tokens a decision ({self.cached_share:.0%} of input cached)",
            f"cost: {usd}",
            f"time: about {self.seconds_expected / 60:.0f} min",
        ]


def dry_run_target(spec: str) -> str | None:
    """The vendor whose stand-in can count this model's tokens, or None."""
    vendor = spec.split(":", 1)[0]
    return vendor if vendor in ("openai", "anthropic") else None


def dry_run_deals(protocol: Protocol) -> list[int]:
    """A deal of every table and opponent, each both ways round: games against a strong
    field run shorter than against random play, and a game's length sets both its
    decisions and the length of its later prompts (measured on v1: a dry run of one deal
    a table missed the spend by 19%)."""
    return list(range(len(protocol.tables) * len(protocol.opponents)))


def expected_games(protocol: Protocol) -> int:
    pars = [protocol.par(*protocol.deal(d), side) for d in range(protocol.batch) for side in ("werewolves", "village")]
    n = games_for_half_width(protocol.target, pars, alpha=protocol.alpha)
    per_batch = 2 * protocol.batch
    return min(2 * protocol.max_deals, per_batch * math.ceil(n / per_batch))


def estimate(protocol: Protocol, spec: str, options: dict[str, Any] | None, *, prices: str | None = None) -> Estimate:
    """The estimate; a bot (no calls) is measured by the same dry run, at no cost."""
    vendor = dry_run_target(spec)
    if vendor is None and ":" in spec:
        raise ValueError(
            f"the cost of {spec} cannot be measured before the run (the dry run speaks the openai: and anthropic: APIs); pass --yes to run without an estimate"
        )

    deals = dry_run_deals(protocol)
    # other seeds than the run's: the estimate is a forecast, not a replay of the games to come
    dry = protocol.model_copy(update={"seed": protocol.seed + DRY_SEED_OFFSET, "max_deals": max(deals) + 1, "batch": max(deals) + 1})
    with tempfile.TemporaryDirectory(prefix="werewolf-bench-dry-") as tmp, StandInServer(latency=0.0) as api:
        opts = dict(options or {})
        if vendor is not None:
            opts["base_url"] = api.base_url if vendor == "openai" else api.anthropic_url
            opts["api_key_env"] = DRY_KEY_ENV
        before = os.environ.get(DRY_KEY_ENV)
        os.environ[DRY_KEY_ENV] = "sk-dry-run"
        try:
            Bench(dry, spec, opts or None, Path(tmp), prices=prices, only=frozenset(deals)).run_all()
        finally:
            if before is None:
                os.environ.pop(DRY_KEY_ENV, None)
        store = open_store(Path(tmp), dry, spec, opts or None)
        try:
            games = store.games()
            decisions = sum(_decisions(s) for s in store.seats() if s["participant"] == MODEL)
        finally:
            store.close()
    n = max(1, len(games))
    calls = sum(g["calls"] for g in games)
    tin = sum(g["input_tokens"] for g in games)
    tout = sum(g["output_tokens"] for g in games)
    cached = sum(g["cached_tokens"] or 0 for g in games)
    priced = all(g["cost_usd"] is not None for g in games)
    per_game = sum(g["cost_usd"] or 0.0 for g in games) / n if priced else None
    expected, most = expected_games(protocol), 2 * protocol.max_deals
    return Estimate(
        games_expected=expected, games_max=most, dry_run_games=len(games), decisions_per_game=decisions / n,
        calls_per_game=calls / n, input_tokens_per_decision=tin / max(1, decisions), output_tokens_per_decision=tout / max(1, decisions),
        cached_share=cached / tin if tin else 0.0, usd_per_game=per_game,
        usd_expected=None if per_game is None else per_game * expected, usd_max=None if per_game is None else per_game * most,
        seconds_expected=expected * (calls / n) * protocol.seconds_per_call / protocol.concurrency,
    )  # fmt: skip


def _decisions(seat: dict[str, Any]) -> int:

    return int(json.loads(seat["metrics"] or "{}").get("decisions_asked") or 0)
