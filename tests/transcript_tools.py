"""Shared by the transcript tests: varied tables, games written to files, and the
edits a forger would make (with or without re-computing the digest chain)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any, Callable

from arena.gamefile import GameSpec, SeatSpec, default_names, header_for
from arena.runner import run_sync
from engine.buildings.handout import box
from engine.options import CHOICES
from engine.presets import PRESETS, get_preset
from engine.roles import ROLES
from transcripts.chain import link
from transcripts.schema import parse_record
from transcripts.writer import TranscriptWriter

EXTRA_ROLES = ("witch", "hunter", "cupid", "thief", "little_girl")


def varied_spec(seed: int, agent: str = "random", preset: str = "millers_hollow", players: int | None = None) -> GameSpec:
    """A table with the base game's special roles mixed in and random rule options,
    so that every kind of event and decision gets written and re-played."""
    rng = random.Random(f"transcripts:{preset}:{seed}")
    p = get_preset(preset)
    low = max(p.min_players, 6)
    n = players or rng.randint(low, max(low, min(p.max_players, 14)))
    deck = p.deck(n)
    for role in EXTRA_ROLES:
        if role in ROLES and "villager" in deck and role not in deck and rng.random() < 0.6:
            deck.remove("villager")
            deck.append(role)
    options: dict[str, Any] = {key: rng.choice(values) for key, values in CHOICES.items()}
    options.update(sheriff=rng.random() < 0.7, little_girl_catch_chance=rng.choice([0.0, 0.5, 1.0]), wolf_chat_rounds=rng.choice([1, 2]))
    if options["buildings"] == "listed":  # The Village's buildings, on every preset
        options["building_tokens"] = rng.sample(box(), n)
    if options["buildings"] != "none" and "villager" in deck and "arsonist" not in deck:
        deck.remove("villager")
        deck.append("arsonist")
    names = default_names(n)
    return GameSpec(preset=preset, seed=seed, options=options, roles=deck, seats=[SeatSpec(name=x, agent=agent) for x in names])


def play_to_file(spec: GameSpec, path: Path) -> Any:
    """Play ``spec`` with the sync runner, writing its transcript as ``werewolf play`` does."""
    game, agents = spec.build()
    with TranscriptWriter(path, header_for(spec, game)) as writer:
        writer.sync_events(game)
        run_sync(game, agents, on_answer=writer.on_answer)
        writer.result(game)
    return game


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_lines(path: Path, rows: list[dict[str, Any]], *, rechain: bool = False) -> Path:
    """Write ``rows`` as a transcript; ``rechain`` re-computes every digest, as a
    forger who knows the chain would, so only the re-play can catch the edit."""
    previous = None
    out = []
    for row in rows:
        row = dict(row)
        if rechain:
            row.pop("digest", None)
            previous = row["digest"] = link(previous, parse_record(json.dumps(row)))
        out.append(json.dumps(row, ensure_ascii=False))
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


def edit(src: Path, dst: Path, change: Callable[[list[dict[str, Any]]], None], *, rechain: bool = False) -> Path:
    rows = lines(src)
    change(rows)
    return write_lines(dst, rows, rechain=rechain)


def index_of(rows: list[dict[str, Any]], pred: Callable[[dict[str, Any]], bool], nth: int = 0) -> int:
    hits = [i for i, r in enumerate(rows) if pred(r)]
    return hits[nth]


ALL_PRESETS = sorted(PRESETS)
