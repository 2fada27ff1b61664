"""The night order: one declared sequence per rulebook (``engine.night_order``).

Each preset names its book's order and a game plays its deck's steps in it; a step its
book does not call takes its place from ``THE_NIGHT``; a step with no place is refused.
The books' own call lists are quoted here as the step ids they name, so a change to a
book's order that contradicts its book fails, except where docs/RULES.md says why we
play a step at another moment (``MOVED``).
"""

from __future__ import annotations

import pytest

from engine import Game, GameSetup
from engine.night_order import BEST_OF, BOOKS, FORUM, LANGRENSHA, MILLERS_HOLLOW, MILLERS_HOLLOW_ES, THE_NIGHT, NightOrder, check, full_order
from engine.presets import PRESETS, Preset, register_preset
from engine.roles import NIGHT_STEPS, NightStep, night_steps, register_step, rules_for

# What each book's call list says, as step ids, in its order (the passages are quoted
# beside each order in engine/night_order.py).
QUOTED: dict[str, list[tuple[str, ...]]] = {
    # 000 "Reminder of the Turns of Play": starting turn, then night turn.
    "000": [
        ("thief", "cupid", "protector", "seer", "werewolves", "little_girl", "baker", "white_werewolf", "arsonist", "witch", "pied_piper", "raven"),
        # "Normal Turn": "1. ... the Fortune Teller ... 2. ... the Werewolves ... 3. ... the Witch"
        ("seer", "werewolves", "witch"),
    ],
    # 001, English part: "(First round only) ... the thief ... Cupid ... (Each rounds) ...
    # the seer ... the werewolves ... the witch".
    "001": [("thief", "cupid", "seer", "werewolves", "witch")],
    # 002: "El ladrón ... Cupido ... Turno de juego ... el adivino ... los hombres lobo ... la bruja".
    "002": [("thief", "cupid", "seer", "werewolves", "witch")],
    # 003 "Special Aide-mémoire leader": the first night, the next nights, the early night.
    "003": [
        ("cupid", "seer", "sister", "wild_child", "werewolves", "infect_father", "big_bad_wolf", "witch", "fox", "pied_piper"),
        ("seer", "werewolves", "white_werewolf", "infect_father", "big_bad_wolf", "witch", "fox", "pied_piper"),
        ("wolf_hound", "werewolves"),  # "the secret choice of Dog-Loup before the first pack wakes up"
        ("rusty_sword", "cupid", "seer"),  # "Early night: remove the wolf condemned by the Sword"
    ],
    # 004: actions are PMed to the Host; the book gives no order to quote.
    "004": [],
}
# Steps we play at another moment than the book's, each explained in its comment in
# engine/night_order.py and in docs/RULES.md section 2: the Little Girl's choice is asked
# before the Seer (the pack's step must know whether she spies).
MOVED: dict[str, set[str]] = {"000": {"little_girl"}, "001": set(), "002": set(), "003": set(), "004": set()}

# Options under which a book's own steps exist (001's Lycanthropic Fascination, 004's
# notes for the Coroner), besides each preset's defaults.
SWITCHED: dict[str, list[dict[str, object]]] = {
    "langrensha": [{"wolves_hypnotise": True}],
    "forum": [{"coroner_notes": True}],
}


def _in_order(order: tuple[str, ...], quoted: tuple[str, ...], moved: set[str]) -> list[str]:
    return [s for s in order if s in quoted and s not in moved]


@pytest.mark.parametrize("book", BOOKS, ids=lambda b: b.book)
def test_each_book_follows_its_quoted_call_list(book: NightOrder) -> None:
    for quoted in QUOTED[book.book]:
        kept = [s for s in quoted if s not in MOVED[book.book]]
        assert _in_order(book.steps, quoted, MOVED[book.book]) == kept, (book.book, quoted)


def test_the_little_girl_is_asked_just_before_the_seer() -> None:
    """Where we depart from 000's list, the step sits where docs/RULES.md says."""
    for book in (MILLERS_HOLLOW, MILLERS_HOLLOW_ES, BEST_OF):
        steps = [s for s in book.steps if s != "protector"]
        assert steps[steps.index("little_girl") + 1] == "seer", book.book
    for book in (MILLERS_HOLLOW, LANGRENSHA):
        assert book.steps.index("protector") < book.steps.index("werewolves"), book.book
    assert FORUM.steps.index("guardian_angel") < FORUM.steps.index("werewolves")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_each_preset_order_lists_every_step_its_recommended_decks_produce(preset: str) -> None:
    p = PRESETS[preset]
    assert p.night.book == p.seed_file[:3]  # the order of its own book
    for extra in [{}, *SWITCHED.get(preset, [])]:
        options = p.options(extra)
        for n in range(p.min_players, p.max_players + 1):
            rules = rules_for(tuple(sorted(p.deck_for(n, options))), options, p.night)
            played = [s.name for plan in (rules.first_night, rules.later_nights) for group in plan for s in group]
            missing = sorted(set(played) - set(p.night.steps))
            assert not missing, f"{preset} with {n} players{extra and f' and {extra}'}: {missing} not in book {p.night.book}'s order"


def test_every_book_step_is_a_registered_step() -> None:
    registered = {s.name for s in NIGHT_STEPS}
    for book in BOOKS:
        assert set(book.steps) <= registered, (book.book, set(book.steps) - registered)
    assert set(THE_NIGHT) <= registered


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_game_plays_its_deck_in_its_book_order_and_foreign_cards_where_the_night_puts_them(preset: str) -> None:
    # A deck mixing every book's night cards: each preset must still place every step.
    deck = ["werewolf", "werewolf", "seer", "witch", "fox", "little_girl", "protector", "guardian_angel", "pied_piper", "raven", "villager"]
    names = [f"P{i}" for i in range(len(deck))]
    game = Game(GameSetup(names=names, seed=3, roles=deck, preset=preset))
    order = full_order(PRESETS[preset].night, tuple(s.name for s in NIGHT_STEPS))
    for plan in (game.rules.first_night, game.rules.later_nights):
        played = [s.name for group in plan for s in group]
        assert played == sorted(played, key=order.index)
        assert {"fox", "raven", "guardian_angel", "witch", "werewolves"} <= set(played)
    assert [s.name for s in night_steps(PRESETS[preset].night)] == list(order)


def test_a_step_outside_its_book_follows_its_predecessor_in_the_night() -> None:
    """A book may order its own steps otherwise than ``THE_NIGHT``: the others keep the
    step before them in ``THE_NIGHT`` (first when none is placed yet)."""
    book = NightOrder("999", ("witch", "seer"))
    night = ("thief", "seer", "werewolves", "witch", "fox")
    assert full_order(book, night) == ("thief", "witch", "fox", "seer", "werewolves")
    assert full_order(MILLERS_HOLLOW, THE_NIGHT) == THE_NIGHT  # every book agrees with the night today


def _run(game: Game):  # a night step's script
    yield from ()


def test_a_step_without_a_place_is_refused_with_a_clear_error() -> None:
    before = list(NIGHT_STEPS)
    with pytest.raises(ValueError, match=r"'lantern' has no place in engine/night_order.py \(give its NightStep an after= step\)"):
        register_step(NightStep(name="lantern", run=_run, active=lambda g: False, roles=("lantern",)))
    with pytest.raises(ValueError, match=r"its after='lamp' is not a step of THE_NIGHT"):
        register_step(NightStep(name="lantern", run=_run, active=lambda g: False, roles=("lantern",), after="lamp"))
    assert NIGHT_STEPS == before


def test_a_book_naming_an_unknown_step_is_refused() -> None:
    with pytest.raises(ValueError, match=r"book 998: \['lantern'\] not in engine/night_order.py THE_NIGHT"):
        check(NightOrder("998", ("seer", "lantern")))
    with pytest.raises(ValueError, match="names a step twice"):
        check(NightOrder("997", ("seer", "seer")))


def test_a_preset_whose_night_names_an_unknown_step_is_refused() -> None:
    bad = Preset(id="lantern_night", title="x", seed_file="996_x.txt", night=NightOrder("996", ("seer", "lantern")))
    with pytest.raises(ValueError, match="not in engine/night_order.py THE_NIGHT"):
        register_preset(bad)
    assert "lantern_night" not in PRESETS
