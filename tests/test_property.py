"""Property tests: many random-bot games over varied tables, decks and rule options.

Every game must finish with a legal winner and no exception, and its event log must
satisfy the invariants below. The same seed must give the same event log.
Plain seeded loops (no hypothesis): a failing case is named by its seed.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest

from agents.random_agent import RandomAgent
from agents.base import SeatView
from engine import Game, GameSetup, get_preset
from engine.options import CHOICES
from engine.roles import ROLES

GAMES = 2000
CHUNK = 200
CAUSES = {"werewolves", "vote", "poison", "hunter", "grief"}
WINNERS = {"village", "werewolves", "lovers", "none"}
SPECIALS = ("witch", "hunter", "cupid", "thief", "little_girl")
DEAD_MAY_ACT = {"hunter_shot", "sheriff_successor"}


@dataclass
class Case:
    seed: int
    names: list[str]
    deck: list[str]
    options: dict[str, Any]
    center: list[str] | None


def make_case(seed: int) -> Case:
    rng = random.Random(f"case:{seed}")
    n = rng.randint(6, 18)
    names = [f"P{i:02d}" for i in range(n)]
    deck = get_preset("millers_hollow").deck(n)
    if rng.random() < 0.8:  # a random subset of the base game's special roles
        picks = [r for r in SPECIALS if rng.random() < 0.5]
        for role in picks:
            if "villager" not in deck:
                break
            deck.remove("villager")
            deck.append(role)
        if rng.random() < 0.3 and "seer" in deck:
            deck.remove("seer")
            deck.append("villager")
    opts: dict[str, Any] = {key: rng.choice(values) for key, values in CHOICES.items()}
    for key in (
        "sheriff",
        "sheriff_campaign",
        "sheriff_double_vote",
        "sheriff_tiebreak_may_void",
        "allow_abstain",
        "vote_self",
        "wolves_may_kill_wolf",
        "wolves_may_pass",
        "wolves_win_at_parity",
        "witch_self_heal",
        "witch_both_potions_same_night",
        "hunter_may_pass",
        "lovers_may_target_each_other",
        "reveal_role_on_death",
    ):
        opts[key] = rng.random() < 0.5
    opts["sheriff_election_day"] = rng.choice([1, 1, 2])
    opts["little_girl_catch_chance"] = rng.choice([0.0, 0.2, 0.5, 1.0])
    opts["hunter_shot_causes"] = [c for c in ("werewolves", "vote", "poison") if rng.random() < 0.7]
    opts["wolf_kill_rounds"] = rng.choice([1, 1, 2])
    opts["wolf_chat_rounds"] = rng.choice([0, 1])
    opts["discussion_rounds"] = rng.choice([0, 1])
    opts["max_days"] = rng.choice([3, 12, 40, 40])
    center = None
    if "thief" in deck:
        r = rng.random()
        if r < 0.25:
            center = ["werewolf", "werewolf"]
        elif r < 0.4:
            opts["thief_adds_villagers"] = False
            deck += [rng.choice(["werewolf", "villager", "hunter", "seer"]), "villager"]
    return Case(seed, names, deck, opts, center)


def build(case: Case) -> Game:
    options = get_preset("millers_hollow").options(case.options)
    return Game(GameSetup(names=case.names, seed=case.seed, options=options, roles=list(case.deck), center=case.center))


@dataclass
class Asked:
    kind: str
    seat: str
    alive: bool
    answer: Any
    alive_names: frozenset


def play(case: Case) -> tuple[Game, list[Asked]]:
    game = build(case)
    agents = {n: RandomAgent(n, seed=case.seed) for n in case.names}
    log: list[Asked] = []
    while not game.over:
        waiting = game.waiting
        assert waiting, f"seed {case.seed}: the game stalled with nothing pending"
        # every decision of a batch is pending at once: the state is the same for all
        alive = frozenset(game.alive_names())
        for d in waiting:
            answer = agents[d.seat].decide(SeatView(d.seat, game.observation(d.seat)), d)
            log.append(Asked(d.kind, d.seat, d.seat in alive, answer, alive))
            game.submit(d.id, answer)
    return game, log


def camp(game: Game, name: str) -> str:
    p = game.by_name[name]
    if game.lovers and name in game.lovers:
        a, b = (game.by_name[x] for x in game.lovers)
        if a.is_wolf != b.is_wolf:
            return "lovers"
    return ROLES[p.role].camp


def check(case: Case, game: Game, log: list[Asked]) -> None:
    tag = f"seed {case.seed}"
    # -- the game ended with a legal winner
    assert game.over and game.winner in WINNERS, tag
    assert game.events[-1].kind == "game_end", tag
    assert game.waiting == [], tag

    # -- the dead never act (except the Hunter's shot and the Sheriff's successor)
    for a in log:
        if a.kind in DEAD_MAY_ACT:
            assert not a.alive, f"{tag}: {a.kind} by living {a.seat}"
        else:
            assert a.alive, f"{tag}: dead {a.seat} asked {a.kind}"
        # targets named in an answer are living (the dead are never targeted)
        targets = a.answer if isinstance(a.answer, list) else [a.answer]
        if a.kind not in ("speak", "wolf_chat", "thief_swap", "witch_heal", "little_girl_spy"):
            for t in targets:
                if t is not None:
                    assert t in a.alive_names, f"{tag}: {a.seat}'s {a.kind} names {t}, who is not alive"

    # -- walk the public log: votes name living players; deaths are once each, with known causes
    players = [p.name for p in game.players]
    alive = set(players)
    death_events = []
    for e in game.events:
        if e.kind == "death":
            name = e.data["player"]
            assert name in alive, f"{tag}: {name} died twice"
            assert e.data["cause"] in CAUSES, f"{tag}: unknown cause {e.data['cause']}"
            alive.discard(name)
            death_events.append((name, e.day, e.data["cause"]))
        elif e.kind == "vote_result":
            for voter, target in e.data["votes"].items():
                assert voter in alive, f"{tag}: dead {voter} voted"
                if target is not None:
                    assert target in alive, f"{tag}: vote for dead {target}"
                    if not game.options.vote_self:
                        assert target != voter, f"{tag}: {voter} voted for themself"
                    if game.lovers and not game.options.lovers_may_target_each_other and voter in game.lovers:
                        assert target != game.beloved(voter), f"{tag}: a lover voted against the beloved"
        elif e.kind == "sheriff_votes":
            for voter, target in e.data["votes"].items():
                assert voter in alive and target in alive, tag
        elif e.kind == "wolf_votes":
            for wolf, target in e.data["votes"].items():
                assert wolf in alive, f"{tag}: dead wolf {wolf} hunted"
                if target is not None:
                    assert target in alive, tag
                    if not game.options.wolves_may_kill_wolf:
                        # roles change only in the Thief's step, before the pack wakes
                        assert not game.by_name[target].is_wolf, f"{tag}: the pack chose wolf {target}"
        elif e.kind in ("sheriff_elected", "sheriff_successor"):
            assert e.data["player"] in alive, f"{tag}: dead sheriff {e.data['player']}"
    assert death_events == [(d.name, d.day, d.cause) for d in game.deaths], tag
    assert {p.name for p in game.players if not p.alive} == set(players) - alive, tag
    assert len({d.name for d in game.deaths}) == len(game.deaths), f"{tag}: someone died twice"

    # -- grief follows a lover's death at once
    for i, d in enumerate(game.deaths):
        if d.cause == "grief":
            assert game.lovers and d.name in game.lovers, tag
            beloved = game.lovers[0] if game.lovers[1] == d.name else game.lovers[1]
            assert beloved in {x.name for x in game.deaths[:i]}, tag

    # -- once-only powers and the night's toll (000: "0, 1, or 2 deaths" at dawn)
    assert len([e for e in game.events if e.kind == "witch_healed"]) <= 1, f"{tag}: two heals"
    assert len([e for e in game.events if e.kind == "witch_poisoned"]) <= 1, f"{tag}: two poisons"
    assert len([e for e in game.events if e.kind == "sheriff_elected"]) <= 1, f"{tag}: two elections"
    assert len([e for e in game.events if e.kind == "cupid_lovers"]) <= 1, f"{tag}: two arrows"
    shots = Counter(e.data["hunter"] for e in game.events if e.kind == "hunter_shot")
    assert all(c == 1 for c in shots.values()), f"{tag}: a hunter shot twice"
    per_day = Counter((d.day, d.cause) for d in game.deaths)
    for (day, cause), count in per_day.items():
        if cause in ("werewolves", "poison", "vote"):
            assert count <= 1, f"{tag}: {count} deaths by {cause} on day {day}"
    for e in game.events:
        if e.kind == "dawn":
            night_toll = [d for d in game.deaths if d.day == e.day and d.cause in ("werewolves", "poison")]
            assert len(night_toll) <= 2, tag

    # -- winners are consistent with the roles
    living = [p for p in game.players if p.alive]
    expected = sorted(p.name for p in game.players if game.winner != "none" and camp(game, p.name) == game.winner)
    assert sorted(game.winners) == expected, tag
    if game.winner == "village":
        assert not any(p.is_wolf for p in living), tag
    elif game.winner == "werewolves":
        assert any(p.is_wolf for p in living), tag
        others = [p for p in living if not p.is_wolf]
        if not game.options.wolves_win_at_parity:
            assert not others, tag
    elif game.winner == "lovers":
        assert game.lovers and {p.name for p in living} == set(game.lovers), tag
    else:
        assert game.winners == [], tag
        assert not living or game.day >= game.options.max_days, tag
    end = game.events[-1].data
    assert end["winner"] == game.winner and end["winners"] == game.winners, tag


def replay_log(case: Case) -> list[dict]:
    game, _ = play(case)
    return [e.to_json() for e in game.events]


@pytest.mark.parametrize("start", range(0, GAMES, CHUNK))
def test_random_games_finish_with_legal_winners_and_sound_logs(start):
    winners = set()
    for seed in range(start, start + CHUNK):
        case = make_case(seed)
        game, log = play(case)
        check(case, game, log)
        winners.add(game.winner)
        if seed % 2 == 0:  # the same seed gives the same game, event for event
            assert replay_log(case) == [e.to_json() for e in game.events], f"seed {seed}: replay differs"
    assert len(winners) >= 2, f"only {winners} in games {start}..{start + CHUNK - 1}"


def test_property_runs_cover_every_role_and_outcome():
    """The generator must actually exercise the rules under test (guards the test itself)."""
    roles, winners, causes = set(), set(), set()
    for seed in range(0, 300):
        case = make_case(seed)
        game, _ = play(case)
        roles |= {p.initial_role for p in game.players}
        winners.add(game.winner)
        causes |= {d.cause for d in game.deaths}
    assert roles >= {"werewolf", "villager", "seer", *SPECIALS}
    assert winners >= {"village", "werewolves"}
    assert causes == CAUSES
