"""The rules as sentences, generated from the options the engine is running.

Why generated: a model told the book's rules while the engine plays a variant
(another tie rule, no Sheriff, a Witch who may not heal herself) would play a game
that does not exist. Here every option the engine reads picks its own sentence from
``prompts/<lang>/rules.yaml``, so changing an option changes the text, and the two
cannot drift apart.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from engine.buildings.base import BUILDINGS, UNIQUE, VAGABOND
from engine.buildings.handout import FARMER, FIRST_GAME
from engine.options import RuleOptions
from engine.presets import PRESETS, get_preset
from engine.roles import ROLES, night_steps
from prompts.catalog import Catalog

# Which options only matter when a role is in play; the rest always apply.
ROLE_OPTIONS: dict[str, tuple[str, ...]] = {
    "witch": ("witch_self_heal", "witch_self_heal_first_night_only", "witch_self_poison", "witch_both_potions_same_night", "witch_single_potion"),
    "hunter": ("hunter_shot_causes", "hunter_may_pass"),
    "little_girl": ("little_girl_catch_chance", "little_girl_caught"),
    "cupid": ("lovers_may_target_each_other", "lovers_restraint", "cupid_second_pair"),
    "thief": ("thief_adds_villagers",),
    "protector": ("protector_neighbours_only", "protector_heal_clash"),
    "sister": ("sisters_chat_every",),
    "elder": ("elder_loss_roles", "elder_loss_spares_batch"),
    "mad_scientist": ("mad_scientist_vials",),
    "pack_leader": ("pack_leader_exact_from",),
    "guardian_angel": ("guardian_angel_reveal",),
    "vigilante": ("vigilante_gun_found",),
    "unknown_celebrity": ("celebrity_sundown_rounds",),
    "coroner": ("coroner_notes",),
    "infect_father": ("infect_father_elder_spends",),
}
# Options told only when another option makes them matter.
REQUIRES: dict[str, Any] = {
    "witch_self_heal_first_night_only": lambda o: o.witch_self_heal,
    "witch_both_potions_same_night": lambda o: not o.witch_single_potion,
    "lovers_restraint": lambda o: not o.lovers_may_target_each_other,
}
# Options told only when the deck holds every role they speak of (beyond ROLE_OPTIONS').
DECK_REQUIRES: dict[str, tuple[str, ...]] = {
    "protector_heal_clash": ("witch",),
    "infect_father_elder_spends": ("elder",),
}
# A death's cause and the role or building that can bring it (the Hunter's causes are
# told only as far as this game can hold them); the others can always happen.
CAUSE_SOURCES: dict[str, str] = {
    "poison": "witch",
    "grief": "cupid",
    "white_werewolf": "white_werewolf",
    "big_bad_wolf": "big_bad_wolf",
    "rusty_sword": "rusty_knight",
    "with_elder": "elder",
    "vigilante": "vigilante",
    "ninja": "ninja",
    "barber": "barber",
    "barber_mistake": "barber",
    "arsonist": "arsonist",
}
# The roles the ``elder_loss_roles: listed`` rule strips (001 zh: 猎人，守护者，女巫，先知).
ELDER_LISTED = ("hunter", "protector", "witch", "seer")
# Options whose value, as told, is narrowed to what this game holds.
HELD_VALUES: dict[str, Any] = {
    "hunter_shot_causes": lambda causes, held: tuple(c for c in causes if CAUSE_SOURCES.get(c, "") in held or c not in CAUSE_SOURCES),
    "elder_loss_roles": lambda rule, held: tuple(r for r in ELDER_LISTED if r in held) if rule == "listed" else rule,
}
# Roles whose own rules (beyond their card) are told in the rules, in this order.
ROLE_RULES = ("rusty_knight", "bear_tamer", "fox", "elder", "idiot", "infect_father", "big_bad_wolf", "wild_child", "wolf_hound")
SOLITARY = ("white_werewolf", "pied_piper", "angel")


def roles_in_play(preset: str, deck: Iterable[str] | None) -> list[str]:
    """The deck's distinct roles in registry order; without a deck, every role (a game
    file may give any role in any preset, so the text must then cover whatever the
    deal turns out to be)."""
    if deck is not None:
        wanted = set(deck)
    else:
        wanted = set(ROLES)
    known = [r for r in ROLES if r in wanted]
    return known + sorted(wanted - set(known))


def _option(cat: Catalog, key: str, value: Any) -> str:
    """The sentence for one option value, with the few values a sentence quotes."""
    extra: dict[str, Any] = {"n": value}
    if key == "sheriff_election_day":
        extra = {"n": max(1, value)}  # day 0 is the deal: the first possible election is day 1
    elif key == "little_girl_catch_chance":
        value = float(value)
        extra = {"percent": f"{value * 100:g}"}
    elif key == "baker_glimpse_chance":
        value = float(value)
        extra = {"percent": f"{value * 100:g}"}
    elif key == "building_tokens":
        counts = Counter(value)
        extra = {"tokens": cat.join(f"{cat.word('buildings', b)} × {k}" for b, k in sorted(counts.items()))}
        value = "other"
    elif key == "elder_loss_roles" and isinstance(value, tuple):  # the listed roles this game holds
        extra = {"roles": cat.join(cat.role_name(r) for r in value)}
        value = "listed" if value else "listed_none"
    elif key == "hunter_shot_causes":
        extra = {"causes": cat.join((cat.word("causes", c) for c in value), last="or")}
        value = "other" if value else "none"  # none of his causes can happen in this game
    return cat.option(f"rules.options.{key}", value, **extra)


def also(cat: Catalog, sentence: str, extras: Any, held: Iterable[str]) -> str:
    """``sentence`` followed by each of ``extras``' sentences (a mapping from a role or
    building id to the words about it) whose id this game holds. Why: a rule that
    names a role is true of every game, but told where that role cannot be dealt it
    speaks of a card nobody holds; each such clause lives apart and is told only then."""
    if not isinstance(extras, dict):
        return sentence
    wanted = set(held)
    added = [text for key, text in extras.items() if key in wanted]
    return cat.get("terms.sentence_sep").join([sentence, *added]) if added and sentence else sentence


class _Builder:
    """Accumulates headed, bulleted sections (a small helper, kept for readability).
    ``held``: the role and building ids this game can hold, which pick the clauses
    of ``rules.also`` (``also``)."""

    def __init__(self, cat: Catalog, held: Iterable[str] = ()):
        self.cat = cat
        self.lines: list[str] = []
        self.held = frozenset(held)
        self.extras: dict[str, Any] = cat.get("rules.also") or {}

    def heading(self, key: str) -> None:
        self.lines.append("")
        self.lines.append(self.cat.text(f"rules.headings.{key}"))

    def say(self, sentence: str, origin: str = "") -> None:
        """One bullet; ``origin`` (the sentence's key under ``rules``) finds its clauses."""
        if origin:
            sentence = also(self.cat, sentence, self.extras.get(origin), self.held)
        self.lines.append(self.cat.text("system.bullet", text=sentence))

    def text(self, path: str, **values: Any) -> None:
        self.say(self.cat.text(path, **values), path.removeprefix("rules."))

    def option(self, opts: RuleOptions, *keys: str) -> None:
        """The sentence of each option in ``keys``, in that order."""
        for key in keys:
            value = getattr(opts, key)
            if key in HELD_VALUES:
                value = HELD_VALUES[key](value, self.held)
            sentence = _option(self.cat, key, value)
            if sentence:  # some values need no words (a variant that is off)
                self.say(sentence, f"options.{key}.{value if isinstance(value, str) else 'other'}")


def _preset_title(cat: Catalog, preset: str) -> str:
    title = cat.get(f"terms.presets.{preset}")
    if title:
        return title
    p = PRESETS.get(preset)
    return p.title if p else preset


def _night_order(cat: Catalog, preset: str, in_play: list[str], options: RuleOptions) -> str:
    """The calls of the night in the order of the preset's book (``engine.night_order``)."""
    steps = []
    for step in night_steps(get_preset(preset).night):
        if step.name in ROLES and step.name not in in_play:
            continue
        if step.name in BUILDINGS and (options.buildings == "none" or step.name not in buildings_possible(options)):
            continue
        if step.roles and not any(r in in_play for r in step.roles):
            continue
        if step.when is not None and not step.when(options):
            continue
        label = cat.get(f"rules.night.steps.{step.name}")
        if label is None:
            if step.name not in ROLES:
                continue  # the narrator's own bookkeeping, not a call
            label = cat.role_name(step.name)
        if step.first_night_only:
            label = cat.text("rules.night.first_night_only", step=label)
        elif step.later_nights_only:
            label = cat.text("rules.night.later_nights_only", step=label)
        steps.append(label)
    return cat.join(steps)


def buildings_possible(options: RuleOptions) -> list[str]:
    """The building tokens this game may hand out, in the registry's order."""
    if options.buildings == "first_game":
        wanted = {*FIRST_GAME, FARMER, VAGABOND}
    elif options.buildings == "listed":
        wanted = set(options.building_tokens)
    else:
        wanted = set(BUILDINGS)
    return [b for b in BUILDINGS if b in wanted]


def _buildings(b: "_Builder", o: RuleOptions) -> None:
    """000 The Village: the public layer of buildings, as far as this game can hold it."""
    b.heading("buildings")
    b.option(o, "buildings")
    if o.buildings == "listed":
        b.option(o, "building_tokens")
    b.option(o, "building_handout")
    possible = buildings_possible(o)
    unique = [b.cat.word("buildings", x) for x in possible if BUILDINGS[x].power == UNIQUE]
    b.text("rules.buildings.public")
    if unique:
        b.text("rules.buildings.tokens", buildings=b.cat.join(unique))
    for key in ("freed", "day_powers"):
        b.text(f"rules.buildings.{key}")
    for building in possible:
        b.text(f"rules.buildings.{building}")
        if building == "baker":
            b.option(o, "baker_glimpse_chance")


def _debate(b: "_Builder", o: RuleOptions) -> None:
    """How the day's speeches go: in turn as in the books, or by a benchmark's protocol
    (``engine.flow.protocols``)."""
    cat = b.cat
    if o.discussion == "round_robin" or o.discussion_rounds == 0 and not (o.discussion == "bidding" and o.discussion_turns):
        b.option(o, "discussion_rounds", "speaking_order")
        return
    b.option(o, "discussion")
    if o.discussion == "bidding":
        b.say(cat.option("rules.options.discussion_turns", o.discussion_turns, n=o.discussion_turns, rounds=o.discussion_rounds))
        b.text(f"rules.day.first_bid.{o.speaking_order}")
    else:
        b.say(cat.option("rules.day.parallel_rounds", o.discussion_rounds, n=o.discussion_rounds))
        b.option(o, "speaking_order")


def rules_lines(cat: Catalog, *, preset: str, options: RuleOptions, players: list[str], deck: Iterable[str] | None) -> list[str]:
    """Every rule of this game, as headed bullet lines."""
    o = options
    in_play = roles_in_play(preset, deck)
    b = _Builder(cat, [*in_play, *(buildings_possible(o) if o.buildings != "none" else ())])
    b.lines.append(cat.text("rules.headings.rules"))

    b.heading("table")
    b.text("rules.table.preset", title=_preset_title(cat, preset))
    b.text("rules.table.players", count=len(players))
    b.text("rules.table.deck")
    if "angel" in in_play:
        b.text("rules.table.opening_day")
    b.option(o, "reveal_role_on_death")
    b.text("rules.table.dead")
    b.option(o, "opening_day", "last_words", "ghost_notes", "max_days")

    b.heading("night")
    b.text("rules.night.order", steps=_night_order(cat, preset, in_play, o))
    b.text("rules.night.dawn")

    b.heading("sheriff")
    if not o.sheriff:
        b.option(o, "sheriff")
    else:
        b.option(o, "sheriff_election_day")
        if o.sheriff_candidacy:
            b.option(o, "sheriff_candidacy")
        else:
            b.option(o, "sheriff_campaign", "sheriff_vote_self")
        b.text("rules.sheriff.majority")
        b.option(o, "sheriff_election_tie", "sheriff_double_vote", "sheriff_tiebreak")
        if o.sheriff_tiebreak == "choose":
            b.option(o, "sheriff_tiebreak_may_void")
        b.text("rules.sheriff.succession")

    if o.buildings != "none":
        _buildings(b, o)

    b.heading("day")
    _debate(b, o)
    b.text("rules.day.vote")
    b.option(o, "vote_self", "allow_abstain", "vote_changes", "phantom_votes", "impersonation_phantoms")
    b.text("rules.day.majority")
    intro_key = "sheriff" if o.sheriff and o.sheriff_tiebreak != "none" else "plain"
    b.say(cat.option("rules.options.tie", o.tie, intro=cat.text(f"rules.day.tie_intro.{intro_key}")))

    b.heading("wolves")
    b.text("rules.wolves.intro")
    b.option(o, "wolf_chat_rounds", "wolf_pack")
    if o.wolf_pack not in ("plurality", "first_named"):
        b.option(o, "wolf_kill_rounds")
    # A silent pack that pays (``wolves_silent``: starve, one_dies) may always pass, and its
    # sentence says so and at what price: ``wolves_may_pass``'s ("may devour nobody", "must
    # name a victim") would then be wrong or contradict it.
    passing = ("wolves_may_pass",) if o.wolves_silent == "no_kill" else ()
    b.option(o, *passing, "wolves_silent", "wolves_may_kill_wolf", "wolves_hypnotise", "wolves_exposed_idle")
    seers = [r for r in ("forum_seer", "psychic") if r in in_play]
    if seers:
        named = cat.join((cat.text(f"rules.seers.{r}") for r in seers), last="or")
        b.say(cat.option("rules.options.wolves_told_seers", o.wolves_told_seers, seers=named))

    specials = [r for r in in_play if r in ROLE_OPTIONS or r in ROLE_RULES]
    if specials:
        b.heading("roles")
        for role in specials:
            if role in ROLE_RULES:
                b.text(f"rules.roles.{role}")
            for key in ROLE_OPTIONS.get(role, ()):
                if key in REQUIRES and not REQUIRES[key](o):
                    continue
                if not all(r in in_play for r in DECK_REQUIRES.get(key, ())):
                    continue
                b.option(o, key)
        if any(r in in_play for r in ("elder", "fox", "infect_father")):
            b.text("rules.roles.powerless")

    b.heading("victory")
    b.text("rules.victory.checked")
    b.text("rules.victory.village")
    b.option(o, "one_execution", "village_wins_at_quiet_dawn", "wolves_win_at_parity", "wolves_win_when", "wolves_win_side")
    for role in SOLITARY:
        if role in in_play:
            b.text(f"rules.victory.{role}")
    if any(r in in_play for r in ("wild_child", "wolf_hound", "infect_father")):
        b.text("rules.victory.conversions")
    if "cupid" in in_play:
        b.text("rules.victory.lovers")
    b.text("rules.victory.together")
    b.text("rules.victory.nobody")
    return b.lines
