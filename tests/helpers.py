"""Helpers for the rules tests: short scripted games with forced roles.

``scripted_game(roles, answers, options=...)`` deals exactly ``roles`` (seat order is
the dict's order), gives every seat a ``ScriptedAgent`` with its queues, and plays
until the game ends (or until ``until(decision)`` is true for a pending decision, which
is then returned by ``drive`` so a test can submit an answer of its own).

Options are the ``millers_hollow`` preset's, with the Sheriff off unless a test turns
it on, so that a test only scripts the decisions its rule needs.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Iterable, Iterator, Mapping

from agents.base import Agent, SeatView
from agents.scripted import ScriptedAgent
from engine import Game, GameSetup, get_preset
from engine.decisions import Decision
from engine.events import PUBLIC, Event
from engine.options import CHOICES

BASE_OPTIONS: dict[str, Any] = {"sheriff": False}

CAUSES = {"werewolves", "vote", "poison", "hunter", "grief"}
WINNERS = {"village", "werewolves", "lovers", "none"}


def options(extra: Mapping[str, Any] | None = None, preset: str = "millers_hollow"):
    """The preset's options with the Sheriff off, then ``extra`` on top."""
    merged = dict(BASE_OPTIONS)
    merged.update(extra or {})
    return get_preset(preset).options(merged)


def new_game(
    roles: Mapping[str, str],
    options_: Mapping[str, Any] | None = None,
    *,
    center: list[str] | None = None,
    seed: int = 0,
    preset: str = "millers_hollow",
) -> Game:
    """A game whose seats are ``roles`` (name -> role id) in order, every role forced."""
    setup = GameSetup(
        names=list(roles),
        preset=preset,
        seed=seed,
        options=options(options_, preset),
        forced=dict(roles),
        center=list(center) if center is not None else None,
    )
    return Game(setup)


def agents_for(game: Game, answers: Mapping[str, Mapping[str, Iterable[Any]]] | None) -> dict[str, Agent]:
    answers = answers or {}
    unknown = set(answers) - {p.name for p in game.players}
    assert not unknown, f"answers for unknown seats: {unknown}"
    return {p.name: ScriptedAgent(p.name, {k: list(v) for k, v in answers.get(p.name, {}).items()}) for p in game.players}


def drive(game: Game, agents: Mapping[str, Agent], until: Callable[[Decision], bool] | None = None) -> Decision | None:
    """Answer pending decisions one at a time with ``agents``. Stop at the first pending
    decision for which ``until`` is true and return it (unanswered); else play to the end."""
    while not game.over:
        waiting = game.waiting
        if not waiting:
            break
        d = waiting[0]
        if until is not None and until(d):
            return d
        view = SeatView(d.seat, game.observation(d.seat))
        game.submit(d.id, agents[d.seat].decide(view, d))
    return None


def scripted_game(
    roles: Mapping[str, str],
    answers: Mapping[str, Mapping[str, Iterable[Any]]] | None = None,
    options: Mapping[str, Any] | None = None,
    *,
    center: list[str] | None = None,
    seed: int = 0,
    preset: str = "millers_hollow",
) -> Game:
    """Build the game, run it to its end with scripted seats, return it."""
    game = new_game(roles, options, center=center, seed=seed, preset=preset)
    drive(game, agents_for(game, answers))
    return game


def best_of_game(roles: Mapping[str, str], answers=None, options: Mapping[str, Any] | None = None, *, preset: str = "best_of") -> Game:
    """``scripted_game`` in ``best_of`` (or ``preset``): wolves without a scripted victim
    pass (``wolves_may_pass``), so a script names only what its rule needs."""
    return scripted_game(roles, answers, {"wolves_may_pass": True, **(options or {})}, preset=preset)


def start(
    roles: Mapping[str, str],
    answers: Mapping[str, Mapping[str, Iterable[Any]]] | None = None,
    options: Mapping[str, Any] | None = None,
    *,
    until: Callable[[Decision], bool],
    center: list[str] | None = None,
    seed: int = 0,
) -> tuple[Game, dict[str, Agent], Decision]:
    """Play scripted until ``until`` matches a pending decision; return (game, agents, it)."""
    game = new_game(roles, options, center=center, seed=seed)
    agents = agents_for(game, answers)
    d = drive(game, agents, until)
    assert d is not None, "the game ended before the awaited decision was asked"
    return game, agents, d


def pending(kind: str, seat: str | None = None, **context: Any) -> Callable[[Decision], bool]:
    """A predicate for ``start``/``drive``: a decision of ``kind`` (for ``seat``)."""

    def match(d: Decision) -> bool:
        return d.kind == kind and (seat is None or d.seat == seat) and all(d.context.get(k) == v for k, v in context.items())

    return match


# --------------------------------------------------------------------------- random games
CENTERS = (None, None, ["werewolf", "werewolf"], ["werewolf", "villager"], ["seer", "villager"])


def random_classic_game(
    rng: random.Random, seed: int, n: int, roles: Iterable[str], names: list[str], varied: Callable[[], Mapping[str, Any]]
) -> Game:
    """A ``millers_hollow`` game of ``n`` seats holding each of ``roles`` (in place of a
    villager), every option of ``CHOICES`` drawn from ``rng``, then ``varied()`` (drawn
    after them) on top, and the Thief's center cards drawn last (``CENTERS``)."""
    deck = get_preset("millers_hollow").deck(n)
    for role in roles:
        if role not in deck:
            deck.remove("villager")
            deck.append(role)
    # The classic game: The Village's buildings layer stays off (its own tests vary it).
    opts = {key: rng.choice(values) for key, values in CHOICES.items() if not key.startswith("building")}
    opts.update(varied())
    center = rng.choice(CENTERS)
    if center is not None:
        center = list(center)
        # the named center cards replace two of the extra villagers the Thief adds
        deck += center
    options = get_preset("millers_hollow").options(opts)
    return Game(GameSetup(names=names, seed=seed, options=options, roles=deck, center=center))


def bots(game: Game, seed: int, village: str = "heuristic") -> dict[str, Agent]:
    """Heuristic seats; with ``village="random"`` every seat outside the pack plays at random."""
    from agents.heuristic import HeuristicAgent
    from agents.random_agent import RandomAgent

    return {
        p.name: (RandomAgent if (village == "random" and not p.is_wolf) else HeuristicAgent)(p.name, seed=seed) for p in game.players
    }


# --------------------------------------------------------------------------- reading a game
def strings(value: Any) -> Iterator[str]:
    """Every string in ``value``, a nest of dicts (keys included), lists and tuples."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from strings(k)
            yield from strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from strings(v)


def events(game: Game, kind: str, **match: Any) -> list[Event]:
    return [e for e in game.events if e.kind == kind and all(e.data.get(k) == v for k, v in match.items())]


def data(game: Game, kind: str, **match: Any) -> list[dict]:
    return [e.data for e in events(game, kind, **match)]


def kinds(game: Game) -> list[str]:
    return [e.kind for e in game.events]


def deaths(game: Game) -> list[tuple[str, int, str]]:
    """(name, day, cause) in the order they happened."""
    return [(d.name, d.day, d.cause) for d in game.deaths]


def dead(game: Game) -> set[str]:
    return {d.name for d in game.deaths}


def asked(game: Game, kind: str | None = None, seat: str | None = None) -> list[tuple[str, str, Any]]:
    """Answered decisions as (seat, kind, answer), in order."""
    return [
        (s, k, a) for (_id, s, k, a) in game.answer_log if (kind is None or k == kind) and (seat is None or s == seat)
    ]


def public(game: Game) -> list[Event]:
    return [e for e in game.events if e.audience == PUBLIC]


def role_of(game: Game, name: str) -> str:
    return game.by_name[name].role


def random_forum_game(tag: str, seed: int) -> Game:
    """A ``forum`` game of 8-20 seats with every Auxiliary Role that fits, a Pack Leader,
    ghost notes and vote changes, drawn from ``tag`` and ``seed``: each test family
    keeps its own tables."""
    from engine.presets import FORUM_AUX

    rng = random.Random(f"{tag}:{seed}")
    n = rng.randint(8, 20)
    wolves = max(2, n // 5)
    specials = list(FORUM_AUX)
    while wolves + len(specials) > n - 1:
        specials.remove(rng.choice(specials))
    deck = ["pack_leader"] + ["werewolf"] * (wolves - 1) + specials + ["civilian"] * (n - wolves - len(specials))
    opts = {"ghost_notes": True, "discussion_rounds": 1, "vote_changes": rng.choice([1, 2])}
    # the Host's procedures "in some games" (004): the pack told of the seers, the
    # Pack Leader's exact card, the Guardian Angel's cover blown
    opts.update(
        wolves_told_seers=rng.choice(["never", "act", "who"]),
        pack_leader_exact_from=rng.choice([0, 12]),
        guardian_angel_reveal=rng.random() < 0.5,
        vigilante_gun_found=rng.random() < 0.7,
    )
    opts["coroner_notes"] = rng.random() < 0.5  # drawn last: the earlier draws stay as they were
    options = get_preset("forum").options(opts)
    return Game(GameSetup(names=[f"S{i:02d}" for i in range(n)], preset="forum", seed=seed, options=options, roles=deck))
