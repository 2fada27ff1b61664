"""Issue 15's text pipeline, measured side by side for this tree and an earlier revision.

1. **Model seats read the same bytes.** Seeded heuristic games of every preset (several
   table sizes, the Village's buildings and the forum's ghost notes mixed in) are
   played; every seat's history is rendered as a model reads it (``history_entries``),
   in English and in Chinese, and the lines are hashed; so are this tree's sample
   events of every kind (``tests/event_samples.py``: the rare kinds too), told to each
   seat that may read them. The digests must be equal before and after a change of
   the renderers, or name the kinds whose model text moved: a model's prompt (and its
   provider's prompt cache) must not move.
2. **How many places word one kind, and in which languages the narrator speaks.** The
   number of modules holding a renderer of their own for each event kind, and the
   languages whose narration of a played game holds no English sentence.

Every figure runs in a fresh interpreter whose ``sys.path`` starts with the tree
measured, so ``--before REV`` (extracted with ``git archive`` into a temporary folder)
and this tree are measured alike.

    python benchmarks/text_pipeline.py [--before main] [--games 4]

Figures (shared 2-core machine, --games 4, ``--before`` = the tree before issue 15's
text pipeline): every preset's model and person histories hash the same in English;
in Chinese only ``game_end`` moved (two end reasons the zh catalog lacked now read in
Chinese), over 73,318 history entries and 35,654 tellings of the sample events of all
108 kinds.

                                          before    after
    modules wording one kind (most)            4        1   (250 -> 108 renderers)
    zh games' god narration, English lines  2210        0   (of ~3,760 lines, 18 games)
    model history, µs per entry             66.6     50.7   (the machine is shared: read the ratio)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

# Played in the child interpreter: the tree measured is first on sys.path.
CHILD = r'''
import hashlib, io, json, re, sys
sys.path.insert(0, {root!r})
from arena.gamefile import GameSpec, SeatSpec, default_names
from arena.runner import run_sync
from engine.presets import PRESETS, get_preset
from prompts.history import history_entries
from prompts.catalog import catalog
import random
from engine.buildings.handout import box
from engine.options import CHOICES
try:
    from prompts.history import event_body
except ImportError:
    event_body = None

GAMES = {games}
EXTRA = {{"village": [{{"buildings": "box", "building_handout": "choice"}}, {{"buildings": "thirds"}}],
          "forum": [{{"ghost_notes": True}}, {{}}]}}

def tables():
    for preset in sorted(PRESETS):
        p = get_preset(preset)
        for seed in range(GAMES):
            n = min(p.max_players, max(p.min_players, 8 + 2 * seed))
            options = EXTRA.get(preset, [{{}}])[seed % len(EXTRA.get(preset, [{{}}]))]
            yield preset, GameSpec(preset=preset, seed=seed, options=options, roles=p.deck(n), language=("en", "zh")[seed % 2],
                                   seats=[SeatSpec(name=x, agent="heuristic") for x in default_names(n)])
    # varied rules (as tests/transcript_tools.varied_spec): more kinds of event
    for preset in ("millers_hollow", "best_of", "langrensha"):
        p = get_preset(preset)
        for seed in range(GAMES):
            rng = random.Random(f"text:{{preset}}:{{seed}}")
            n = rng.randint(max(p.min_players, 6), min(p.max_players, 14))
            deck = p.deck(n)
            for role in ("witch", "hunter", "cupid", "thief", "little_girl"):
                if "villager" in deck and role not in deck and rng.random() < 0.6:
                    deck.remove("villager"); deck.append(role)
            options = {{key: rng.choice(values) for key, values in CHOICES.items()}}
            options.update(sheriff=rng.random() < 0.7, little_girl_catch_chance=rng.choice([0.0, 0.5, 1.0]))
            if options["buildings"] == "listed":
                options["building_tokens"] = rng.sample(box(), n)
            if options["buildings"] != "none" and "villager" in deck and "arsonist" not in deck:
                deck.remove("villager"); deck.append("arsonist")
            yield "varied-" + preset, GameSpec(preset=preset, seed=seed, options=options, roles=deck, language=("en", "zh")[seed % 2],
                                   seats=[SeatSpec(name=x, agent="heuristic") for x in default_names(n)])

import time
digests, by_kind, games, entries, kinds, spent = {{}}, {{}}, [], 0, set(), 0.0
for preset, spec in tables():
    game, agents = spec.build()
    run_sync(game, agents)
    games.append((preset, game, spec.language))
    kinds |= {{e.kind for e in game.events}}
    for lang in ("en", "zh"):
        h = digests.setdefault(f"{{preset}}/{{lang}}", hashlib.sha256())
        for p in game.players:
            seen = game.observation(p.name)
            t0 = time.perf_counter()
            lines = history_entries(seen, p.name, language=lang)
            spent += time.perf_counter() - t0
            for e, line in zip(seen, lines):
                h.update(line.encode("utf-8") + b"\n")
                by_kind.setdefault(f"{{lang}}:{{e.kind}}", hashlib.sha256()).update(line.encode("utf-8") + b"\n")
                entries += 1
        shown = digests.setdefault(f"{{preset}}/{{lang}} (people)", hashlib.sha256())
        cat = catalog(lang)
        for p in game.players:
            for e in game.observation(p.name):
                shown.update(event_body(cat, e, p.name, display=True).encode("utf-8") + b"\n")

# every kind, rare ones too: the sample events of this tree's tests (played games of
# every preset plus a few by hand), each told to every seat that may read it
sys.path.insert(1, {tests!r})
from event_samples import sample_events
from prompts.history import render_event
samples = 0
for e in sample_events():
    if isinstance(e.audience, frozenset):
        seats = sorted(e.audience)
    elif e.audience == "public":
        seats = sorted({{v for v in e.data.values() if isinstance(v, str)}}) + [""]
    else:
        seats = [""]
    for lang in ("en", "zh"):
        cat = catalog(lang)
        h = by_kind.setdefault(f"{{lang}}:{{e.kind}} (samples)", hashlib.sha256())
        for seat in seats:
            h.update(render_event(cat, e, seat).encode("utf-8") + b"\n")
            samples += 1

# the narrator: which languages it speaks. Each game is narrated (god view) in its own
# language; the English words left in a Chinese game's narration are counted once the
# players' names and their quoted words are taken out (a narrator without a language
# speaks English).
from rich.console import Console
import inspect
from prompts.narrate import Narrator
takes_language = "language" in inspect.signature(Narrator.__init__).parameters
zh = catalog("zh")
narrated = {{"zh games": 0, "zh narration lines": 0, "English words": 0, "lines with English": 0}}
for preset, game, lang in games:
    if lang != "zh":
        continue
    buf = io.StringIO()
    kw = {{"language": lang}} if takes_language else {{}}
    Narrator(Console(file=buf, width=10000, color_system=None), god=True, **kw).feed(game.events)
    narrated["zh games"] += 1
    for line in buf.getvalue().splitlines():
        line = re.sub(r"“[^”]*”|\"[^\"]*\"", " ", line)
        for n in sorted([p.name for p in game.players] + [zh.word("presets", game.preset)], key=len, reverse=True):
            line = line.replace(n, " ")
        if not line.strip():
            continue
        words = re.findall(r"[A-Za-z]{{2,}}", line)
        narrated["zh narration lines"] += 1
        narrated["English words"] += len(words)
        narrated["lines with English"] += bool(words)

print(json.dumps({{"digests": {{k: v.hexdigest()[:16] for k, v in sorted(digests.items())}},
                  "by_kind": {{k: v.hexdigest()[:16] for k, v in sorted(by_kind.items())}},
                  "entries": entries, "samples": samples, "kinds": len(kinds), "us_per_entry": 1e6 * spent / max(1, entries), "narration": narrated}}))
'''

# Which modules word a kind with a renderer of their own (read from the tree's code).
COUNT = r'''
import json, sys
sys.path.insert(0, {root!r})
places = {{}}
def add(kinds, where):
    for k in kinds:
        places.setdefault(k, set()).add(where)
try:
    from prompts.events_text import RENDERERS as ONE
    add(ONE, "prompts/events_text")
except ImportError:  # before issue 15: three renderers, and the export's own words
    from prompts.history import RENDERERS
    add(RENDERERS, "prompts/history.py")
    add(["speech", "vote_result", "sheriff_votes", "game_end"], "transcripts/export_html.py")  # _event_item, _chart_for, _reveal_table
from prompts.narrate import Narrator
add([a[4:] for a in dir(Narrator) if a.startswith("_on_")], "prompts/narrate.py")
try:
    from transcripts.describe import SENTENCES
    add(SENTENCES, "transcripts/describe.py")
except ImportError:
    pass
counts = [len(v) for v in places.values()]
print(json.dumps({{"kinds": len(places), "renderers": sum(counts), "max_per_kind": max(counts),
                  "kinds_with_several": sum(1 for c in counts if c > 1)}}))
'''


def run(code: str, root: str) -> dict:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root)
    if out.returncode != 0:
        raise SystemExit(out.stderr)
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(root: str, games: int) -> dict:
    figures = run(CHILD.format(root=root, games=games, tests=str(ROOT / "tests")), root)
    figures["places"] = run(COUNT.format(root=root), root)
    return figures


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", help="a git revision to measure first (e.g. main)")
    ap.add_argument("--games", type=int, default=4, help="seeded games per preset")
    args = ap.parse_args()
    results = {}
    if args.before:
        with tempfile.TemporaryDirectory(prefix="before-") as tmp:
            tar = subprocess.run(["git", "-C", str(ROOT), "archive", args.before], capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", tmp], input=tar, check=True)
            results[args.before] = measure(tmp, args.games)
    results["this tree"] = measure(str(ROOT), args.games)
    names = list(results)
    print(f"{'':42}" + "".join(f"{n:>20}" for n in names))
    keys = sorted(results[names[-1]]["digests"])
    for k in keys:
        row = [results[n]["digests"].get(k, "-") for n in names]
        same = "" if len(set(row)) == 1 else "   CHANGED"
        print(f"{'history ' + k:42}" + "".join(f"{v:>20}" for v in row) + same)
    if len(names) == 2:
        a, b = (results[n]["by_kind"] for n in names)
        moved = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
        print(f"{'model text changed for (language:kind)':42}" + f"{', '.join(moved) or 'none':>40}")
    print(f"{'event kinds played':42}" + "".join(f"{results[n]['kinds']:>20}" for n in names))
    print(f"{'history entries hashed':42}" + "".join(f"{results[n]['entries']:>20}" for n in names))
    print(f"{'sample events of every kind, told':42}" + "".join(f"{results[n]['samples']:>20}" for n in names))
    print(f"{'model history, µs per entry':42}" + "".join(f"{results[n]['us_per_entry']:>20.1f}" for n in names))
    for field, label in (("renderers", "renderers (module x kind)"), ("kinds_with_several", "kinds worded in several modules"), ("max_per_kind", "most modules wording one kind")):
        print(f"{label:42}" + "".join(f"{results[n]['places'][field]:>20}" for n in names))
    for key in ("zh games", "zh narration lines", "lines with English", "English words"):
        label = f"god narration of zh games: {key}"
        print(f"{label:42}" + "".join(f"{results[n]['narration'][key]:>20}" for n in names))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
