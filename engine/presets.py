"""Presets: a rulebook's defaults and its recommended tables.

A preset is data: its option overrides on top of ``RuleOptions`` and a function of
the table size giving the recommended deck. Sources are in docs/RULES.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable

import engine.night_order as night_order
from engine.night_order import NightOrder
from engine.options import RuleOptions


def _millers_hollow_deck(n: int) -> list[str]:
    """000 "Simplified Setup" table: 2 wolves for 8-11 players, 3 for 12-18, one
    Fortune Teller, the rest Ordinary Villagers. Outside 8-18 the book is silent; we
    extrapolate one wolf per four players (at least 1, at most 6), marked as ours."""
    if n < 3:
        raise ValueError("a game needs at least 3 players")
    if 8 <= n <= 11:
        wolves = 2
    elif 12 <= n <= 18:
        wolves = 3
    else:
        wolves = max(1, min(6, n // 4))
    return ["werewolf"] * wolves + ["seer"] + ["villager"] * (n - wolves - 1)


@dataclass(frozen=True)
class Preset:
    id: str
    title: str
    seed_file: str
    night: NightOrder  # its book's night (``engine.night_order``): the order its games call the steps
    overrides: dict[str, Any] = field(default_factory=dict)
    deck: Callable[[int], list[str]] = _millers_hollow_deck
    min_players: int = 3
    max_players: int = 30
    # The recommended deck under other options than the preset's own (The Village's
    # Arsonist needs buildings): fn(deck, options) -> deck.
    adapt: Callable[[list[str], RuleOptions], list[str]] | None = None

    def deck_for(self, n: int, options: RuleOptions) -> list[str]:
        deck = self.deck(n)
        return self.adapt(deck, options) if self.adapt is not None else deck

    def options(self, extra: dict[str, Any] | None = None) -> RuleOptions:
        opts = _defaults(self.id, tuple(sorted(self.overrides.items())))
        return opts.updated(extra) if extra else opts


@lru_cache(maxsize=None)
def _defaults(preset_id: str, overrides: tuple[tuple[str, Any], ...]) -> RuleOptions:
    """Options are immutable, so each preset's defaults are built once."""
    return RuleOptions().updated(dict(overrides))


PRESETS: dict[str, Preset] = {}


def register_preset(p: Preset) -> Preset:
    night_order.check(p.night)  # its night names only steps with a place (raises otherwise)
    PRESETS[p.id] = p
    return p


MILLERS_HOLLOW = register_preset(
    Preset(
        id="millers_hollow",
        title="The Werewolves of Miller's Hollow (base game)",
        seed_file="000_a61e3271ac00f591.txt",
        night=night_order.MILLERS_HOLLOW,
        overrides={},
        deck=_millers_hollow_deck,
    )
)


# ------------------------------------------------------------- millers_hollow_es (002)
# The Spanish edition, "Los hombres lobo de Miller's Hollow", where it differs from 000
# (each passage in docs/RULES.md 1, "The Spanish edition"). Its deck table ("según la
# tabla siguiente") is not in the seed: the base game's.
MILLERS_HOLLOW_ES = register_preset(
    Preset(
        id="millers_hollow_es",
        title="Los hombres lobo de Miller's Hollow (Spanish edition)",
        seed_file="002_7426ddfa04c24d3a.txt",
        night=night_order.MILLERS_HOLLOW_ES,
        overrides={
            "tie": "no_elimination",  # "Si hay empate entre los imputados, nadie es eliminado"
            "sheriff_tiebreak": "none",  # the Sheriff's vote "vale dos", no word of a tie
            "witch_self_poison": True,  # "puede usar cualquiera de las dos pociones sobre sí misma"
            "lovers_restraint": "vote",  # "no puede, ni siquiera como un farol, votar para linchar a su amante"
            "hunter_may_pass": True,  # "puede tomar represalias" (may)
            "little_girl_caught": "dies",  # "muere de miedo ... en lugar de la víctima designada"
        },
        deck=_millers_hollow_deck,
    )
)


# ------------------------------------------------------------------------- best_of (003)
# 003 "Learning compositions", players excluding the leader.
BEST_OF_BOOK: dict[int, dict[str, int]] = {
    8: {"werewolf": 2, "seer": 1, "witch": 1, "villager": 4},
    10: {"werewolf": 2, "seer": 1, "witch": 1, "hunter": 1, "villager": 5},
    12: {"werewolf": 3, "seer": 1, "witch": 1, "hunter": 1, "villager": 6},
    16: {"werewolf": 3, "seer": 1, "witch": 1, "hunter": 1, "sister": 2, "fox": 1, "villager": 7},
    20: {
        "werewolf": 3, "infect_father": 1, "seer": 1, "witch": 1, "hunter": 1, "sister": 2, "fox": 1,
        "bear_tamer": 1, "rusty_knight": 1, "elder": 1, "villager": 7,
    },
}  # fmt: skip
# The box's other cards (003 "Equipment": 28 cards), added one by one past 20 players
# (003: "For the very large groups, it takes more special roles: add them gradually").
# The order is ours: the gentlest first, the solitary goals last.
BEST_OF_EXTRAS = ("little_girl", "cupid", "big_bad_wolf", "wild_child", "wolf_hound", "white_werewolf", "pied_piper", "angel")
BOX_VILLAGERS = 7


def _expand(comp: dict[str, int]) -> list[str]:
    return [r for r, k in comp.items() for _ in range(k)]


def _best_of_deck(n: int) -> list[str]:
    """003's learning compositions for 8, 10, 12, 16 and 20 players. Other sizes: "start
    from a nearby composition and adjust especially the simple Villagers, without
    exceeding the seven of the box" -- the nearest composition (the smaller on a tie)
    whose Villagers stay within 0..7. Past 20, the box's other cards one by one. Under
    8 (the box announces 8 to 28 players) ours: one wolf per four players, the Seer,
    the Witch from 4 players, Villagers."""
    if n < 3:
        raise ValueError("a game needs at least 3 players")
    if n > 28:
        raise ValueError("Best of Werewolves has 28 cards: at most 28 players")
    if n < 8:
        wolves = max(1, n // 4)
        powers = ["seer"] + (["witch"] if n >= 4 else [])
        return ["werewolf"] * wolves + powers + ["villager"] * (n - wolves - len(powers))
    if n > 20:
        return _expand(BEST_OF_BOOK[20]) + list(BEST_OF_EXTRAS[: n - 20])
    for size in sorted(BEST_OF_BOOK, key=lambda k: (abs(k - n), k)):
        comp = dict(BEST_OF_BOOK[size])
        villagers = comp["villager"] + n - size
        if 0 <= villagers <= BOX_VILLAGERS:
            comp["villager"] = villagers
            return _expand(comp)
    raise ValueError(f"no Best of Werewolves composition for {n} players")  # pragma: no cover


# 003 "Hunter": "When he dies, whatever the cause, he immediately designates another player".
ALL_CAUSES = ("werewolves", "vote", "poison", "hunter", "grief", "white_werewolf", "big_bad_wolf", "rusty_sword")

BEST_OF = register_preset(
    Preset(
        id="best_of",
        title="Best of Werewolves (19 characters)",
        seed_file="003_90750a89ec6c2e32.txt",
        night=night_order.BEST_OF,
        overrides={
            # "His voice is worth two; he slices the equities": the Captain names the
            # eliminated player among the tied.
            "sheriff_tiebreak": "choose",
            "hunter_shot_causes": ALL_CAUSES,
        },
        deck=_best_of_deck,
        min_players=3,
        max_players=28,
    )
)


# ---------------------------------------------------------------------- langrensha (001)
def _langrensha_deck(n: int) -> list[str]:
    """The table most played today: 12 players, 4 werewolves, the Seer, the Witch, the
    Hunter and the Idiot, 4 villagers (common practice, the seed names these roles but
    no table). Other sizes, ours along the same lines: a third of the table werewolves,
    the Seer, the Witch from 5 players, the Hunter from 7, the Idiot from 10, the
    Protector from 14, the rest villagers (9 players: 3 wolves, Seer, Witch, Hunter,
    3 villagers, also a common table)."""
    if n < 3:
        raise ValueError("a game needs at least 3 players")
    wolves = max(1, n // 3)
    gods = ["seer"] + (["witch"] if n >= 5 else []) + (["hunter"] if n >= 7 else [])
    gods += (["idiot"] if n >= 10 else []) + (["protector"] if n >= 14 else [])
    return ["werewolf"] * wolves + gods + ["villager"] * (n - wolves - len(gods))


LANGRENSHA = register_preset(
    Preset(
        id="langrensha",
        title="狼人杀 (Chinese Werewolf)",
        seed_file="001_f8a3b4781b203721.txt",
        night=night_order.LANGRENSHA,
        overrides={
            # 001 zh, the Sheriff: "在平票时由他决定选哪一个，也可以决定废票".
            "sheriff_tiebreak": "choose",
            "sheriff_tiebreak_may_void": True,
            # Hidden cards: the glossary's "揭示身份：某些规则下…" (revealed only under some
            # rules). Last words: a house rule over the English part's "will not be able to
            # communicate", docs/RULES.md 7.2 says why. The Hunter "可以" (may) shoot.
            "reveal_role_on_death": False,
            "last_words": "first_night_and_vote",
            "hunter_may_pass": True,
            # 001's English part: the pack "can eventually decide not to open their eyes
            # and not to select a victim", but "If no werewolves open their eyes, they die
            # of hunger and the villagers win" (its Chinese sheets: "每晚吞食一个村民").
            "wolves_may_pass": True,
            "wolves_silent": "starve",
            # 001 zh, the Elder: only "猎人，守护者，女巫，先知" lose their powers.
            "elder_loss_roles": "listed",
            # 001 zh, the Witch's poison: "可以杀死任意一个活着的人" (any living person).
            "witch_self_poison": True,
            # 001's English part, the only one to deal the Little Girl: "If she gets
            # caught, she will be killed immediately instead of the selected victim."
            "little_girl_caught": "dies",
        },
        deck=_langrensha_deck,
        min_players=3,
        max_players=30,
    )
)


# ------------------------------------------------------------------------- village (000)
# 000 "Rules of Expansion #2: The Village": "Using the "Village" expansion changes neither
# the rules of the base game ... Add the new characters and buildings you like, gradually,
# without using too many at once." The box adds the White Werewolf, the Raven and the
# Arsonist. Ours: the base game's table (2 wolves for 8-11, 3 for 12-18, the Fortune
# Teller), with the Raven from 9 players, the Arsonist from 10 (he needs buildings) and
# the White Werewolf in place of a wolf from 12; the buildings as the book recommends
# after the first game ("1/3 Farmers, 1/3 Vagabonds, and 1/3 special buildings").
def _village_deck(n: int) -> list[str]:
    deck = _millers_hollow_deck(n)
    for size, role in ((9, "raven"), (10, "arsonist")):
        if n >= size and "villager" in deck:
            deck.remove("villager")
            deck.append(role)
    if n >= 12:
        deck[deck.index("werewolf")] = "white_werewolf"
    return deck


def _village_adapt(deck: list[str], options: RuleOptions) -> list[str]:
    """Without buildings the Arsonist has nothing to burn: a villager takes his card."""
    if options.buildings == "none":
        return ["villager" if r == "arsonist" else r for r in deck]
    return deck


VILLAGE = register_preset(
    Preset(
        id="village",
        title="The Werewolves of Miller's Hollow: The Village",
        seed_file="000_a61e3271ac00f591.txt",
        night=night_order.MILLERS_HOLLOW,
        overrides={"buildings": "thirds"},
        deck=_village_deck,
        adapt=_village_adapt,
        max_players=29,  # the box's 29 building tokens, one per player
    )
)


# --------------------------------------------------------------------------- forum (004)
# 004 "The more people that sign up: The more Wolves there will be; The more Auxiliary
# Roles will be used." The seed gives no table; ours: one wolf per four players (at
# least 1), the Pack Leader in place of a wolf from 3 wolves ("In some larger games");
# Auxiliary Roles for half the humans, in this order, the rest Civilians.
FORUM_AUX = (
    "forum_seer", "coroner", "guardian_angel", "psychic", "vigilante", "insomniac",
    "unknown_celebrity", "priest", "ninja", "mad_scientist",
)  # fmt: skip


def _forum_deck(n: int) -> list[str]:
    if n < 3:
        raise ValueError("a game needs at least 3 players")
    wolves = max(1, n // 4)
    pack = ["werewolf"] * wolves
    if wolves >= 3:
        pack[0] = "pack_leader"
    aux = list(FORUM_AUX[: min(len(FORUM_AUX), max(1, (n - wolves) // 2))])
    return pack + aux + ["civilian"] * (n - wolves - len(aux))


FORUM = register_preset(
    Preset(
        id="forum",
        title="Message-board Werewolf",
        seed_file="004_c671068a23045450.txt",
        night=night_order.FORUM,
        overrides={
            "sheriff": False,  # 004 has no Sheriff
            "opening_day": True,  # "Dawn of Day 1 is the introduction of the scenario"
            "vote_self": True,  # Article 4: "players are allowed to vote for themselves"
            "allow_abstain": True,  # Article 5: "players are allowed to refuse to vote"
            "phantom_votes": True,  # ... "a refusal to vote will earn them a Phantom vote"
            "impersonation_phantoms": 3,  # Article 7: "THREE Phantom Votes shall be placed on their head"
            "vote_changes": 2,  # Article 3: "you may change your vote before Sundown"
            "reveal_role_on_death": False,  # "The Host informs the players who died"; the Coroner learns roles
            "last_words": "vote",  # Subsection 4, Article 1: "ONE POST after I post your lynching"
            "ghost_notes": True,  # Subsection 5: notes passed by the host
            "village_wins_at_quiet_dawn": True,  # "waking up in the morning to find nobody died"
            "wolf_pack": "first_named",  # Article 5-A: "the first Wolf PM I receive that has a name on it will be the final kill decision"
            "tie": "random",  # the seed is silent on a tied lynch: ours, the host draws lots
            "discussion_rounds": 2,
            "speaking_order": "rotate",
        },
        deck=_forum_deck,
        min_players=3,
        max_players=30,
    )
)


def get_preset(name: str) -> Preset:
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown preset '{name}' (known: {', '.join(sorted(PRESETS))})") from None
