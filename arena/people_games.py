"""A person's games in the tournament store, rated with the models' on one scale.

Why the tournament's own store: ``werewolf leaderboard --db`` and the static site
already rate what is in it, with intervals, per participant and per side; a person's
game stored the same way (a ``games`` row and its ``seats``, in one transaction, the
transcript kept beside the database) is rated by the same code, so people and models
are compared on one scale with nothing to reconcile.

Who is who: a person's seat is the participant of the person's chosen name (the
seat's name); a model or bot seat is the participant of its agent spec, so every game
a model plays against people, whatever seat it sat in, counts for that one spec.

Why an abandoned game is never rated: a person who leaves a lost game would otherwise
choose which games count. It is recorded apart (``abandoned``: its transcript, when
and why) where no rating reads it; nothing played is lost.

Why roles are rotated: the cards decide much of a game (a Werewolf's and a
Villager's chances differ), so a person's n-th game on a server deals them the n-th
card of the deck, as a tournament plan rotates every seat through every role; over a
few rotations their rating is not decided by the cards they drew.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any, Mapping

from arena.gamefile import HUMAN, GameSpec, spec_from_data
from arena.tournament.store import FinishedGame, FinishedSeat, Store, now
from agents.registry import KNOWN
from arena.metrics.game import game_metrics
from arena.metrics.load import load_transcript
from arena.tournament.schedule import side_of

ABANDONED = """
CREATE TABLE IF NOT EXISTS abandoned (
    id TEXT PRIMARY KEY,
    transcript TEXT NOT NULL,
    at TEXT NOT NULL,
    reason TEXT NOT NULL,
    people TEXT NOT NULL
);
"""
PERSON_PREFIX = "person:"  # a person whose chosen name is also an agent spec's


def participant(seat_name: str, agent: str) -> str:
    """The participant a seat's game counts for: the person's name, else the spec."""

    if agent != HUMAN:
        return agent
    return PERSON_PREFIX + seat_name if seat_name in KNOWN or ":" in seat_name else seat_name


def open_store(db: str | Path) -> Store:
    store = Store(db)
    with store.db:
        store.db.executescript(ABANDONED)
    return store


def _relative(store: Store, transcript: Path) -> str:
    """The transcript as the store names its games' files: relative to its folder."""
    return os.path.relpath(Path(transcript).resolve(), store.folder.resolve())


def record_finished(db: str | Path, spec: GameSpec, game: Any, transcript: Path, *, started: str, seconds: float) -> str:
    """Store a finished game of ``spec`` (its transcript already whole at
    ``transcript``); the game's id in the store."""

    store = open_store(db)
    try:
        m = game_metrics(load_transcript(str(transcript), played=game.events))
        winners = set(game.winners)
        seats: list[FinishedSeat] = []
        people: list[tuple[str, str, dict | None]] = []
        for position, s in enumerate(spec.seats):
            p = game.by_name[s.name]
            sm = m["seats"][s.name]
            who = participant(s.name, s.agent)
            if s.agent == HUMAN:
                people.append((who, HUMAN, None))
            seats.append(
                FinishedSeat(
                    position=position, name=s.name, participant=who, agent=s.agent, initial_role=p.initial_role, role=p.role,
                    side=side_of(p.role), won=s.name in winners, alive=p.alive, calls=sm["calls"], input_tokens=sm["input_tokens"],
                    output_tokens=sm["output_tokens"], cost_usd=sm["cost_usd"], violations=sm["violations"],
                    fallbacks=sm["fallbacks"], metrics=sm,
                )
            )  # fmt: skip
        known = store.participants()
        store.set_participants(people + [(x.participant, x.agent, None) for x in seats if x.participant not in known and x.agent != HUMAN])
        idx = (store.db.execute("SELECT COALESCE(MAX(idx), -1) FROM games").fetchone()[0] or 0) + 1
        total = m["cost"]["total"]
        gid = f"people-{secrets.token_hex(6)}"
        store.record(
            FinishedGame(
                id=gid, idx=idx, deal=idx, rotation=0, table_idx=0, preset=spec.preset, players=len(spec.seats), seed=spec.seed,
                digest="people", winner=game.winner, days=game.day, reason=game.end_reason, transcript=_relative(store, transcript),
                started=started, finished=now(), seconds=round(seconds, 4), seats=seats, calls=total["calls"],
                input_tokens=total["input_tokens"], output_tokens=total["output_tokens"], cached_tokens=total["cached_tokens"],
                cost_usd=total["cost_usd"],
                metrics={"votes": m["votes"], "key_roles": m["key_roles"], "deception_by_role": m["deception"]["roles"]},
            )
        )  # fmt: skip
        return gid
    finally:
        store.close()


def record_abandoned(db: str | Path, spec: GameSpec, transcript: Path, reason: str) -> None:
    """Keep an abandoned game where no rating reads it: its transcript, when, why."""
    store = open_store(db)
    try:
        people = ",".join(participant(s.name, s.agent) for s in spec.seats if s.agent == HUMAN)
        with store.db:
            store.db.execute(
                "INSERT OR REPLACE INTO abandoned (id, transcript, at, reason, people) VALUES (?, ?, ?, ?, ?)",
                (Path(transcript).stem, _relative(store, transcript), now(), reason, people),
            )
    finally:
        store.close()


def abandoned(db: str | Path) -> list[dict[str, Any]]:
    store = open_store(db)
    try:
        rows = store.db.execute("SELECT id, transcript, at, reason, people FROM abandoned ORDER BY at").fetchall()
        return [dict(zip(("id", "transcript", "at", "reason", "people"), r)) for r in rows]
    finally:
        store.close()


def games_of(store: Store, person: str) -> int:
    """The games (finished and abandoned) a person has played on this store."""
    done = store.db.execute("SELECT COUNT(*) FROM seats WHERE participant = ? AND agent = ?", (person, HUMAN)).fetchone()[0]
    left = store.db.execute("SELECT people FROM abandoned").fetchall()
    return int(done) + sum(1 for (p,) in left if person in p.split(","))


def rotate_roles(db: str | Path, spec: GameSpec, deck: list[str]) -> GameSpec:
    """``spec`` with each person who chose no card dealt the next card of ``deck`` in
    their rotation (their n-th game: card n of the sorted deck, counting every game
    they began here, so a rotation of ``len(deck)`` games deals each card once, as
    often as the deck holds it); the other seats are dealt the rest at random."""
    data = spec.model_dump(exclude_unset=True)
    taken = [s["role"] for s in data["seats"] if s.get("role")]
    left = list(deck)
    for r in taken:
        if r in left:
            left.remove(r)
    store = open_store(db)
    try:
        for seat in data["seats"]:
            if seat.get("agent") != HUMAN or seat.get("role") or not left:
                continue
            n = games_of(store, participant(seat["name"], HUMAN))
            order = sorted(deck)  # every card once per rotation, as a tournament plan deals a seat
            role = next((r for r in order[n % len(order) :] + order[: n % len(order)] if r in left), left[0])
            seat["role"] = role
            left.remove(role)
    finally:
        store.close()
    return spec_from_data(data)


def people(store: Store) -> Mapping[str, str]:
    """The participants that are people."""
    return {n: a for n, a in store.participants().items() if a == HUMAN}
