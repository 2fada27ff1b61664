"""Information isolation in message-board Werewolf (004): "The Host ... sends a Role ID
to each player via Private Message"; each Auxiliary Role's answer goes to its holder
alone (the Psychic's read, the Coroner's reports, the Pack Leader's sniff, the Seer's
count, the Ninja's sighting, the Guardian Angel's save, the Priest's night revival, the
Mad Scientist's dose); the Insomniac's wolf learns her name and nobody else does; a
mutated player alone learns their new card; a private ghost note reaches its author and
one living human; a note hidden for the Coroner is told to its author and found by the
Coroner alone. No public event pairs a living player with a card."""

from __future__ import annotations

import pytest

from agents.base import SeatView
from agents.random_agent import RandomAgent
from engine import Game
from engine.events import PUBLIC
from engine.roles import ROLES
from helpers import random_forum_game
from test_isolation import reveals_living_role

ACTOR = {
    "pack_leader_sniff": "pack_leader",
    "forum_seer_sense": "forum_seer",
    "psychic_result": "psychic",
    "coroner_report": "coroner",
    "insomniac_saw": "insomniac",
    "ninja_saw": "ninja",
    "guardian_angel_saved": "guardian_angel",
    "priest_revive": "priest",
    "mad_scientist_dose": "mad_scientist",
}
WOLF_ONLY = {"wolf_chat", "wolf_votes", "wolf_victim", "wolf_pack"}


def make_game(seed: int) -> Game:
    return random_forum_game("isolation-forum", seed)


def play(game: Game, seed: int) -> Game:
    agents = {p.name: RandomAgent(p.name, seed=seed) for p in game.players}
    while not game.over:
        d = game.waiting[0]
        game.submit(d.id, agents[d.seat].decide(SeatView(d.seat, game.observation(d.seat)), d))
    return game


def check(game: Game, tag: str) -> set[str]:
    names = [p.name for p in game.players]
    role = {}
    alive = set(names)
    seen_kinds = set()
    for e in game.events:
        if e.kind == "role":
            assert e.audience == frozenset({e.data["player"]}), tag
            role[e.data["player"]] = e.data["role"]
        if e.kind == "death":
            alive.discard(e.data["player"])
        elif e.kind == "revived":
            alive.add(e.data["player"])
        if e.audience == PUBLIC:
            if e.kind != "game_end":
                leak = reveals_living_role(e.data, alive)
                assert leak is None, f"{tag}: public {e.kind} reveals {leak}"
            continue
        seen_kinds.add(e.kind)
        who = set(e.audience)
        if e.kind in ACTOR:
            assert len(who) == 1 and role[next(iter(who))] == ACTOR[e.kind], f"{tag}: {e.kind} seen by {who}"
        elif e.kind == "insomniac_seen":
            assert len(who) == 1 and ROLES[role[next(iter(who))]].is_wolf, tag
            assert role[e.data["insomniac"]] == "insomniac", tag
        elif e.kind == "seer_spotted":  # 004: "the Wolves may be informed it's happened (or even who you are)"
            assert who and all(ROLES[role[w]].is_wolf for w in who), f"{tag}: {e.kind} seen by a human"
            assert e.data.get("player") is None or role[e.data["player"]] == e.data["role"], tag
            assert game.options.wolves_told_seers == ("who" if "player" in e.data else "act"), tag
        elif e.kind == "gun_found":  # 004: "another human might find it"
            assert who == {e.data["player"]} and not ROLES[role[e.data["player"]]].is_wolf, tag
            assert role[e.data["previous"]] == "vigilante" and game.options.vigilante_gun_found, tag
        elif e.kind == "mutated":
            assert who == {e.data["player"]}, tag
        elif e.kind == "coroner_note_hidden":  # 004 Article 3: "hidden on your person"
            assert who == {e.data["author"]} and e.data["author"] in alive and game.options.coroner_notes, tag
        elif e.kind == "coroner_note":  # "notes that can only be found by the Coroner"
            assert len(who) == 1 and role[next(iter(who))] == "coroner" and e.data["author"] not in alive, tag
        elif e.kind == "ghost_note":
            reader = e.data["reader"]
            assert who == {e.data["author"], reader} and reader in alive and not ROLES[role[reader]].is_wolf, tag
        elif e.kind in WOLF_ONLY:
            assert all(ROLES[role[w]].is_wolf for w in who), f"{tag}: {e.kind} seen by a human"
        elif e.kind != "role":
            raise AssertionError(f"{tag}: unreviewed private event kind {e.kind}")
    for seat in names:
        seen = {e.seq for e in game.observation(seat)}
        assert {e.seq for e in game.events if e.audience == PUBLIC} <= seen, tag
    return seen_kinds


@pytest.mark.parametrize("start", range(0, 80, 40))
def test_forum_secrets_never_leak(start):
    for seed in range(start, start + 40):
        check(play(make_game(seed), seed), f"seed {seed}")


def test_the_checks_see_every_forum_private_event_kind():
    seen = set()
    for seed in range(0, 60):
        seen |= check(play(make_game(seed), seed), f"seed {seed}")
    missing = (set(ACTOR) | {"insomniac_seen", "mutated", "ghost_note", "coroner_note_hidden", "coroner_note"}) - seen
    assert not missing, f"never produced: {missing}"
