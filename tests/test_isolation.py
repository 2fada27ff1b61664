"""Information isolation: a seat's observation holds only what that seat may know.

000: the Werewolves "(and only they)" wake; the narrator shows the Fortune Teller alone
the card she designated, shows the Witch alone the victim, touches the Lovers discreetly;
the Thief "discreetly looks at the 2 hidden cards"; the Little Girl half-opens her eyes
but "does not have the right to pass herself off as a Werewolf" (she sees what they do,
not who they are). Only the dead reveal their card.

Across many random games with every base role, for every seat, ``game.observation(seat)``
is checked against these rules, walking the log with the narrator's full knowledge
(role and life of every seat at each event).

The same check runs on ``best_of`` (003) and ``langrensha`` (001) games holding their
characters: each one's night secrets go to that character alone (the Fox's answer, the
Wild Child's model, the White Werewolf's kill...), an infected player, a Wild Child who
turned and a Wolf-Hound who chose the wolves join the pack's audience from then on, the
Sisters and the charmed see each other, and the narrator alone knows the Elder's lives
and whom the rusty sword struck. The one public card of a living player is the Idiot's,
revealed by the vote.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from agents.base import SeatView
from agents.random_agent import RandomAgent
from engine import Game, GameSetup, get_preset
from engine.events import NARRATOR, PUBLIC, Event
from engine.roles import ROLES
from helpers import random_classic_game, scripted_game, strings

GAMES = 240
CHUNK = 60
ALL_ROLES = ("seer", "witch", "hunter", "cupid", "thief", "little_girl")
WOLF_ONLY = {"wolf_chat", "wolf_votes", "wolf_victim", "wolf_pack"}
OVERHEARD = {"wolf_chat_overheard", "wolf_votes_overheard", "wolf_victim_overheard"}
NEW_PRIVATE = {
    "protector_guard", "sisters", "sister_chat", "fox_result", "wild_child_model", "wild_child_turned",
    "wolf_hound_side", "white_werewolf_kill", "infect_father", "infected", "big_bad_wolf_victim",
    "pied_piper_charm", "charmed", "charmed_players", "hypnotised", "cupid_paramours", "paramours", "angel_villager",
}  # fmt: skip
NARRATOR_ONLY = {"center", "elder_life", "rusty_sword", "infection_failed"}
# Public events allowed to name a living player's card.
PUBLIC_REVEALS = {"idiot_revealed"}
# every private kind the engine emits, and who may see it; a new one must be added here
PRIVATE_KINDS = {
    *NEW_PRIVATE,
    *NARRATOR_ONLY,
    "role",
    "seer_result",
    "witch_victim",
    "witch_healed",
    "witch_poisoned",
    "cupid_lovers",
    "lovers",
    "thief_cards",
    "thief_swap",
    "little_girl_caught",
    "center",
    *WOLF_ONLY,
    *OVERHEARD,
}


def make_game(seed: int) -> Game:
    rng = random.Random(f"isolation:{seed}")
    n = rng.randint(8, 18)

    def varied() -> dict[str, Any]:
        return dict(
            sheriff=rng.random() < 0.7,
            little_girl_catch_chance=rng.choice([0.0, 0.3, 1.0]),
            wolves_may_kill_wolf=rng.random() < 0.3,
            wolves_may_pass=rng.random() < 0.3,
            reveal_role_on_death=rng.random() < 0.8,
            lovers_may_target_each_other=rng.random() < 0.3,
            wolf_chat_rounds=rng.choice([1, 2]),
        )

    return random_classic_game(rng, seed, n, ALL_ROLES, [f"S{i:02d}" for i in range(n)], varied)


def play(game: Game, seed: int) -> Game:
    agents = {p.name: RandomAgent(p.name, seed=seed) for p in game.players}
    while not game.over:
        for d in game.waiting:
            game.submit(d.id, agents[d.seat].decide(SeatView(d.seat, game.observation(d.seat)), d))
    return game


def _dicts(value):
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from _dicts(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _dicts(v)


def reveals_living_role(data: dict, living: set[str]) -> str | None:
    """A public event's data pairs a living player with a role id?"""
    for d in _dicts(data):
        names = [v for v in d.values() if isinstance(v, str) and v in living]
        roles = [v for v in d.values() if isinstance(v, str) and v in ROLES]
        if names and roles:
            return f"{names[0]} -> {roles[0]}"
        for k, v in d.items():
            if k in living and isinstance(v, str) and v in ROLES:
                return f"{k} -> {v}"
    return None


def may_see(
    event, seat: str, role: dict[str, str], alive: set[str], initial: dict[str, str], wolves: set[str], charmed: set[str] = frozenset()
) -> tuple[bool, str]:
    """The rule: may ``seat`` see ``event``, given every seat's role and life at that moment?"""
    k, data = event.kind, event.data
    if event.audience == PUBLIC:
        return True, ""
    if k == "role":
        return data["player"] == seat, "another seat's card"
    if k == "seer_result":
        return seat == data["seer"] and role[seat] == "seer", "the Seer's vision"
    if k.startswith("witch_"):
        return role[seat] == "witch", "the Witch's night"
    if k in WOLF_ONLY:
        return seat in wolves and seat in alive, "the pack's secrets"
    if k == "little_girl_caught":
        return (seat in wolves and seat in alive) or seat == data["player"], "the catch"
    if k in OVERHEARD:
        return role[seat] == "little_girl" and seat in alive, "the pack's talk"
    if k == "lovers":
        return seat == data["lover"], "the Lovers' secret"
    if k == "cupid_lovers":
        return role[seat] == "cupid", "Cupid's arrows"
    if k in ("thief_cards", "thief_swap"):
        return initial[seat] == "thief", "the set-aside cards"
    if k in NARRATOR_ONLY:
        return False, f"{k} (narrator only)"
    own = {
        "protector_guard": "protector", "sisters": "sister", "sister_chat": "sister", "fox_result": "fox",
        "wild_child_model": "wild_child", "wild_child_turned": "wild_child", "wolf_hound_side": "wolf_hound",
        "white_werewolf_kill": "white_werewolf", "infect_father": "infect_father", "big_bad_wolf_victim": "big_bad_wolf",
        "pied_piper_charm": "pied_piper", "cupid_paramours": "cupid", "angel_villager": "angel",
    }  # fmt: skip
    if k in own:
        if k == "sister_chat" and seat not in alive:
            return False, "the Sisters' talk"
        return role[seat] == own[k], f"{own[k]}'s secret"
    if k in ("infected", "charmed", "hypnotised"):
        return data["player"] == seat, f"{k} is told to its player only"
    if k == "charmed_players":
        return seat in data["players"] and seat in charmed, "the charmed see each other"
    if k == "paramours":
        return seat == data["lover"], "the paramours' secret"
    return False, f"unknown private event {k}"


def check_game(game: Game, seed: int) -> None:
    tag = f"seed {seed}"
    names = [p.name for p in game.players]
    initial = {p.name: p.initial_role for p in game.players}
    wolf_names = {p.name for p in game.players if p.is_wolf}
    role: dict[str, str] = {}
    alive = set(names)
    turned: set[str] = set()  # joined the pack: infected, a Wild Child who turned, a Wolf-Hound's choice
    charmed: set[str] = set()
    out: set[str] = set()  # taken out of play at the start of a night (the rusty sword)
    allowed: dict[str, list[int]] = {n: [] for n in names}
    for e in game.events:
        if e.kind == "role":
            role[e.data["player"]] = e.data["role"]
        elif e.kind in ("infected", "wild_child_turned"):
            turned.add(e.data["player"])
        elif e.kind == "wolf_hound_side" and e.data["side"] == "werewolves":
            turned.add(e.data["player"])
        elif e.kind == "charmed":
            charmed.add(e.data["player"])
        elif e.kind == "rusty_sword":
            out.add(e.data["wolf"])
        elif e.kind == "night_start":
            alive -= {w for w in out if w in alive and _dies_tonight(game, w, e.day)}
        wolves = {n for n in alive if n in role and (ROLES[role[n]].is_wolf or n in turned)}
        if e.kind == "death":
            alive.discard(e.data["player"])
        if e.audience == NARRATOR:
            assert e.kind in NARRATOR_ONLY, f"{tag}: narrator-only {e.kind}"
        if e.audience != PUBLIC:
            assert e.kind in PRIVATE_KINDS, f"{tag}: unreviewed private event kind {e.kind}"
        else:
            assert e.kind not in PRIVATE_KINDS - {"center"}, f"{tag}: {e.kind} made public"
            if e.kind not in ("game_end", *PUBLIC_REVEALS):
                leak = reveals_living_role(e.data, alive)
                assert leak is None, f"{tag}: public {e.kind} reveals a living player's card ({leak}): {e.data}"
        if e.kind in OVERHEARD:
            # who spoke and who voted stay hidden; the victims pointed at may be named
            # (with wolves_may_kill_wolf a victim can be a wolf: she sees a target, not a pack)
            hidden = {k: v for k, v in e.data.items() if k not in ("target", "targets")}
            named = wolf_names & set(strings(hidden))
            assert not named, f"{tag}: the Little Girl overheard a wolf's name {named}: {e.data}"
        for seat in names:
            ok, why = may_see(e, seat, role, alive, initial, wolves, charmed)
            if ok:
                allowed[seat].append(e.seq)
            else:
                assert not e.visible_to(seat), f"{tag}: {seat} ({role.get(seat)}) sees {e.kind} ({why}): {e.data}"
    for seat in names:
        seen = [e.seq for e in game.observation(seat)]
        assert set(seen) <= set(allowed[seat]), tag
        # and the seat does see its own card and every public event
        own = [e for e in game.observation(seat) if e.kind == "role"]
        assert own and all(e.data["player"] == seat for e in own), tag
        assert {e.seq for e in game.events if e.audience == PUBLIC} <= set(seen), tag


def _dies_tonight(game: Game, wolf: str, night: int) -> bool:
    """The rusty sword's wolf leaves play at the start of the night whose dawn records
    his death."""
    return any(d.name == wolf and d.cause == "rusty_sword" and d.day == night for d in game.deaths)


BEST_OF_ALL = (
    "seer", "witch", "hunter", "cupid", "little_girl", "sister", "sister", "fox", "rusty_knight", "elder", "bear_tamer",
    "wild_child", "wolf_hound", "white_werewolf", "pied_piper", "angel", "infect_father", "big_bad_wolf",
)  # fmt: skip
LANGRENSHA_ALL = ("seer", "witch", "hunter", "idiot", "protector", "elder", "cupid", "thief", "pied_piper")


def make_new_game(seed: int) -> Game:
    """A best_of or langrensha game holding (nearly) all of its characters."""
    rng = random.Random(f"isolation-new:{seed}")
    preset = "best_of" if seed % 2 == 0 else "langrensha"
    pool = BEST_OF_ALL if preset == "best_of" else LANGRENSHA_ALL
    n = rng.randint(len(pool) // 2 + 6, len(pool) + 8)
    wolves = max(2, n // 5)
    specials = list(pool)
    while wolves + len(specials) > n:
        specials.remove(rng.choice([r for r in specials if r != "sister"]))
    deck = ["werewolf"] * wolves + specials + ["villager"] * (n - wolves - len(specials))
    opts = {
        "sheriff": rng.random() < 0.7,
        "little_girl_catch_chance": rng.choice([0.0, 0.3, 1.0]),
        "sisters_chat_every": rng.choice([0, 1, 2]),
        "reveal_role_on_death": rng.random() < 0.7,
        "cupid_second_pair": preset == "langrensha" and rng.random() < 0.5,
        "wolves_hypnotise": preset == "langrensha" and rng.random() < 0.2,
        "wolf_chat_rounds": rng.choice([1, 2]),
        "last_words": rng.choice(["none", "all"]),
        "wolf_pack": "plurality",
    }
    options = get_preset(preset).options(opts)
    names = [f"S{i:02d}" for i in range(n)]
    return Game(GameSetup(names=names, preset=preset, seed=seed, options=options, roles=deck))


def private_kinds(make, seeds) -> set[str]:
    """The kinds of the private events of the games ``make(seed)`` plays."""
    seen = set()
    for seed in seeds:
        game = play(make(seed), seed)
        seen |= {e.kind for e in game.events if e.audience != PUBLIC}
    return seen


@pytest.mark.parametrize(
    "make,start,chunk",
    [(make_new_game, start, 40) for start in range(0, 120, 40)] + [(make_game, start, CHUNK) for start in range(0, GAMES, CHUNK)],
    ids=[f"new-{start}" for start in range(0, 120, 40)] + [f"base-{start}" for start in range(0, GAMES, CHUNK)],
)
def test_observations_never_leak(make, start, chunk):
    for seed in range(start, start + chunk):
        game = play(make(seed), seed)
        check_game(game, seed)


def test_the_checks_see_every_new_private_event_kind():
    missing = (NEW_PRIVATE | NARRATOR_ONLY) - {"center"} - private_kinds(make_new_game, range(0, 160))
    assert not missing, f"never produced: {missing}"


def test_the_checks_see_every_private_event_kind():
    """Guard: the random games actually produce the secrets being checked."""
    missing = PRIVATE_KINDS - NEW_PRIVATE - (NARRATOR_ONLY - {"center"}) - private_kinds(make_game, range(0, 120))
    assert not missing, f"never produced: {missing}"


def test_the_wolves_see_their_pack_and_the_thief_turned_wolf_joins_it():
    roles = {"T": "thief", "W": "werewolf", "A": "villager", "B": "villager", "C": "villager"}

    game = scripted_game(
        roles,
        {"T": {"thief_swap": ["werewolf"], "wolf_kill": ["A"]}, "W": {"wolf_kill": ["A"]}},
        {"max_days": 1},
        center=["werewolf", "werewolf"],
    )
    for wolf in ("T", "W"):
        packs = [e for e in game.observation(wolf) if e.kind == "wolf_pack"]
        assert packs and sorted(packs[-1].data["wolves"]) == ["T", "W"]
    for villager in ("A", "B", "C"):
        assert not [e for e in game.observation(villager) if e.kind in WOLF_ONLY]
    assert [e for e in game.observation("T") if e.kind == "thief_cards"]
    assert not [e for e in game.observation("W") if e.kind in ("thief_cards", "thief_swap", "center")]


def test_checker_catches_a_leak():
    """The checker must fail on a leaked event (guards the test against passing vacuously)."""
    game = play(make_game(3), 3)
    victim = next(p.name for p in game.players if not p.is_wolf)
    wolf = next(p.name for p in game.players if p.is_wolf)
    game.events.append(
        Event.recorded(len(game.events), "wolf_chat", game.day, "night", frozenset({victim}), {"speaker": wolf, "text": "", "round": 1})
    )
    with pytest.raises(AssertionError, match="pack's secrets"):
        check_game(game, 3)
