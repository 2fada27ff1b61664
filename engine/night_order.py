"""The order in which the narrator calls the night: one declared sequence per rulebook.

Each book's night is a ``NightOrder``: the names of the night steps
(``engine.roles.base.NightStep``) it calls, in the order the game plays them, with the
book's own call list quoted beside it. Each preset (``engine.presets``) names the
order of its book, and a game plays the steps of its deck in that order
(``engine.roles.base.rules_for``, sorted once per deck, not per night).

A game file may deal any registered role under any preset, so a game can hold a step
its book never calls (a Fox in a Miller's Hollow game). Such a step takes its place
from ``THE_NIGHT``, every book's steps merged into one sequence: it comes right after
the nearest step before it in ``THE_NIGHT`` that the game's order already holds
(``full_order``). A role added without editing this file gives its step an anchor,
``NightStep(after="seer")``: the step then comes right after that step of
``THE_NIGHT``, in every preset (steps sharing an anchor keep their registration
order). A step with neither a place here nor a known anchor is refused when it is
registered (``place``); a book that names a step ``THE_NIGHT`` lacks is refused at
import (``check``).

Where a book calls a step at another moment than the one we play, the book's order
below keeps our moment and its comment says why (docs/RULES.md section 2, "Where the
books' order and ours differ"): the Little Girl is asked just before the Seer, because
the pack's step must know whether she spies; the Protector and the Guardian Angel
guard before the pack, whose kill their guard answers, and every night (000 lists the
Protector in the starting turn); 001's Chinese passage calls the wolves before the
seer, its English part (which we follow) the seer first.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class NightOrder:
    """One rulebook's night: the steps its narrator calls, in the order played.
    ``book`` is the seed's number (``/work/shared/seeds``, docs/RULES.md)."""

    book: str
    steps: tuple[str, ...]


# 000, "Reminder of the Turns of Play" (the base game, expansion #1 "New Moon" and The
# Village): "Starting turn: Village falls asleep; Thief; Cupido; The Lovers; The
# Protector (from expansion #1). Night turn: The Fortune Teller; The Werewolves; The
# Little Girl - the Baker (from The Village, see below); The White Werewolf (from The
# Village); The Arsonist (from The Village); The Witch; The Piper (from expansion #1);
# The charmed players (from expansion #1); The Raven (from The Village)." And "Normal
# Turn": "the characters are always called in the following order: 1. The narrator
# calls the Fortune Teller ... 2. ... the Werewolves ... During this turn, the Little
# Girl may spy on the Werewolves ... 3. ... the Witch".
MILLERS_HOLLOW = NightOrder(
    "000",
    (
        "thief",  # "Thief"
        "cupid",  # "Cupido; The Lovers" (the Lovers' wake-up is Cupid's ``lovers`` events)
        # "The Little Girl - the Baker" comes after the pack in the list, and she "may spy
        # on the Werewolves" during their turn: we ask her choice before the Fortune
        # Teller, because the pack's step must know whether she spies when it starts.
        "little_girl",
        # "The Protector" is in the starting turn; we call him every night (his guard is
        # for the night), before the pack whose kill his guard answers.
        "protector",
        "seer",  # "1. The narrator calls the Fortune Teller"
        "werewolves",  # "2. The narrator calls the Werewolves"
        "baker",  # "the Baker" (The Village), after the pack, with the Little Girl's turn
        "white_werewolf",  # "The White Werewolf"
        "arsonist",  # "The Arsonist"
        "witch",  # "3. The narrator calls the Witch"
        "pied_piper",  # "The Piper; The charmed players" (the charmed: the Piper's events)
        "raven",  # "The Raven", last
    ),
)

# 001 (狼人杀), English part: "(First round only) The game master calls on the thief ...
# (First round only) The game master calls on Cupid ... (First round only) The game
# master calls on the lovers ... (Each rounds) The game master calls on the seer ...
# (Each rounds) The game master calls on the werewolves ... During this round the
# little girl can spy ... (Each rounds) The game master calls on the witch." Its Chinese
# part differs ("3. 狼人行动 ... 4. 预言家行动 ... 5. 女巫行动 ... 6. 白痴行动", the wolves
# first, and elsewhere "依次进行狼人、女巫、预言家"): we follow the English part, the
# Seer's look being independent of the pack's kill.
LANGRENSHA = NightOrder(
    "001",
    (
        "thief",  # "(First round only) ... the thief"
        "cupid",  # "(First round only) ... Cupid", then "the lovers"
        # 守卫/守护者 (001: "每晚可以守护一个人，该人不会被狼人杀害"): the book gives him no
        # turn; before the wolves, whose kill his guard answers, as 狼人杀 tables call him.
        "protector",
        "seer",  # "(Each rounds) ... the seer"
        "werewolves",  # "(Each rounds) ... the werewolves"
        # Lycanthropic Fascination (option ``wolves_hypnotise``): "每一个晚上，狼人睁眼指定
        # 一名玩家，该玩家并不会死掉，而是被催眠": the pack's victim, right after the pack.
        "hypnosis",
        "witch",  # "(Each rounds) ... the witch"
        "pied_piper",  # 乐师: "每个晚上，乐师都被唤醒，指定两名玩家" (no turn given): last, as 000, 003
    ),
)

# 002 (Los hombres lobo de Miller's Hollow): "El moderador dice "El ladrón se despierta"
# ... El Moderador llama a Cupido ... El moderador llama a los amantes ... La ronda de
# preparación ha finalizado ... Turno de juego: El moderador llama al adivino ... El
# moderador llama a los hombres lobo ... Durante esta fase, la Niña puede espiar ... El
# moderador llama a la bruja."
MILLERS_HOLLOW_ES = NightOrder(
    "002",
    (
        "thief",  # "El ladrón se despierta"
        "cupid",  # "llama a Cupido", then "a los amantes"
        # "Durante esta fase [de los hombres lobo], la Niña puede espiar": asked before the
        # adivino, because the pack's step must know whether she spies.
        "little_girl",
        "seer",  # "El moderador llama al adivino"
        "werewolves",  # "El moderador llama a los hombres lobo"
        "witch",  # "El moderador llama a la bruja"
    ),
)

# 003 (Best of Werewolves), "Special Aide-mémoire leader": "Provide the secret choice of
# Dog-Loup before the first pack wakes up. First night, in the order of the booklet,
# omitting the absent: Cupid; Lover; Voyante; Two Sisters; Child Wild; Identification of
# the Bear Showr; pack; Infect Father of the Wolves; Grand-Méchant-Loup; Wizard; Fox;
# Flute player; all the charms. During the group call of the pack, the Little Girl can
# spy." "Early night: remove the wolf condemned by the Sword if its delay arrives."
# "Night: Voyante; pack with new wolves; Wolf-White Garou one night out of two from the
# second; Infect Father of the Wolves if he retains his power; Grand-Méchant-Loup as a
# permit; Wizard; Renard if he can still probe; Flute player; charmed."
BEST_OF = NightOrder(
    "003",
    (
        "rusty_sword",  # "Early night: remove the wolf condemned by the Sword"
        "cupid",  # "Cupid; Lover"
        "angel_love",  # an Angel in love becomes a villager, once the Lovers are known
        "wolf_hound",  # "the secret choice of Dog-Loup before the first pack wakes up"
        # "During the group call of the pack, the Little Girl can spy": asked before the
        # Voyante, because the pack's step must know whether she spies.
        "little_girl",
        "seer",  # "Voyante"
        "sister",  # "Two Sisters"
        "wild_child",  # "Child Wild" (the Bear's identification has no call of its own)
        "werewolves",  # "pack"
        "white_werewolf",  # "Wolf-White Garou one night out of two from the second"
        "infect_father",  # "Infect Father of the Wolves"
        "big_bad_wolf",  # "Grand-Méchant-Loup"
        "witch",  # "Wizard"
        "fox",  # "Fox" / "Renard if he can still probe"
        "pied_piper",  # "Flute player; all the charms"
    ),
)

# 004 (message-board Werewolf): the night's actions are sent to the Host by PM ("Each
# night, you must PM the Host"), so the book calls nobody in turn; the order only
# settles how they resolve (ours, docs/RULES.md section 8): the notes hidden for the
# Coroner "ahead of time", protections first, the informed roles' looks beside the
# pack ("The Wolves PM each other and discuss who the kill will be tonight"), the
# killers' shots, then the vials and the revivals.
FORUM = NightOrder(
    "004",
    (
        "coroner_notes",  # a note "that can only be found by the Coroner", hidden "ahead of time"
        "guardian_angel",  # protections first: before the kills the guard answers
        "insomniac",
        "forum_seer",
        "psychic",
        "pack_leader",  # "sniff" a Human, beside the pack
        "werewolves",
        "ninja",  # "if you're doing any stealthy assassinating tonight"
        "mad_scientist",
        "priest",  # a revival "anytime Day or Night", after the night's kills
    ),
)

BOOKS: tuple[NightOrder, ...] = (MILLERS_HOLLOW, LANGRENSHA, MILLERS_HOLLOW_ES, BEST_OF, FORUM)

# Every book's steps merged into one night: where a step its book does not call takes
# its place in a game (a card dealt outside its book), and where a new role's
# ``after=`` anchor points.
THE_NIGHT: tuple[str, ...] = (
    "rusty_sword",  # 003: early night, the Sword's tetanus takes its wolf
    "coroner_notes",  # 004
    # the starting round (night 1 only)
    "thief",  # 000, 001, 002: first
    "cupid",  # then the Lovers wake (their ``lovers`` events)
    "angel_love",  # 003
    "wolf_hound",  # 003: "before the first pack wakes up"
    # every night
    "little_girl",  # asked before the pack's step, which must know whether she spies
    "protector",  # 000 expansion, 001: the guard before the wolves
    "guardian_angel",  # 004: protections first
    "insomniac",  # 004
    "seer",  # 000 "1. The Fortune Teller"; 003 "Voyante"
    "forum_seer",  # 004
    "psychic",  # 004
    "sister",  # 003 "Two Sisters"
    "wild_child",  # 003 "Child Wild"
    "pack_leader",  # 004, beside the pack
    "werewolves",  # 000 "2. The Werewolves"; 003 "pack"
    "hypnosis",  # 001: the pack's victim hypnotised (an option), right after the pack
    "baker",  # 000 The Village: "The Little Girl - the Baker"
    "white_werewolf",  # 000 The Village, 003: after the pack, every other night
    "arsonist",  # 000 The Village
    "infect_father",  # 003
    "big_bad_wolf",  # 003
    "ninja",  # 004: the killers' shots
    "witch",  # 000 "3. The Witch"; 003 "Wizard"
    "fox",  # 003 "Renard"
    "pied_piper",  # 000, 003: "The Piper", "The charmed players"
    "mad_scientist",  # 004
    "priest",  # 004: revivals after the night's kills
    "raven",  # 000 The Village: last
)


def check(book: NightOrder, night: tuple[str, ...] = THE_NIGHT) -> NightOrder:
    """A book's order names each step once, and only steps of ``THE_NIGHT`` (where a
    card dealt outside its book takes its place): raises ``ValueError`` otherwise."""
    unknown = [s for s in book.steps if s not in night]
    if unknown:
        raise ValueError(f"night order of book {book.book}: {unknown} not in engine/night_order.py THE_NIGHT; add them there")
    if len(set(book.steps)) != len(book.steps):
        raise ValueError(f"night order of book {book.book} names a step twice: {book.steps}")
    return book


for _book in BOOKS:
    check(_book)


def place(step: str, after: str = "") -> tuple[int, int]:
    """A step's place in ``THE_NIGHT`` (a sort key). A step this file does not list (a
    role added without editing it) comes right after the step it names with ``after``.
    Raises ``ValueError`` for a step that has neither."""
    if step in THE_NIGHT:
        return (THE_NIGHT.index(step), 0)
    if after in THE_NIGHT:
        return (THE_NIGHT.index(after), 1)
    where = f"its after={after!r} is not a step of THE_NIGHT" if after else "give its NightStep an after= step"
    raise ValueError(f"night step {step!r} has no place in engine/night_order.py ({where})")


def full_order(book: NightOrder, night: tuple[str, ...]) -> tuple[str, ...]:
    """Every step of ``night`` (all registered steps, in ``THE_NIGHT``'s order) as a game
    under ``book`` plays them: the book's steps in its order, each other step right after
    the nearest step before it in ``night`` already placed (first, when none is)."""
    placed = [s for s in book.steps if s in night]
    for i, step in enumerate(night):
        if step in placed:
            continue
        before = next((s for s in reversed(night[:i]) if s in placed), None)
        placed.insert(0 if before is None else placed.index(before) + 1, step)
    return tuple(placed)
