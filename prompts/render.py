"""What a language-model seat reads: the system prompt, its history, the question.

The three parts are built for provider prompt caching: the system prompt never
changes during a game, the history only grows at its end, and only the question
differs from call to call. Every word comes from ``prompts/<language>/*.yaml``;
this module and its helpers only choose and fill templates.

    system_prompt(...)            once per seat and game (send it first in every call)
    system_parts(...)             the same text cut where the seats' shared part ends
    history_entries(events, seat) one entry per event the seat was shown (join non-empty ones)
    decision_prompt(decision)     the question, with its legal answers
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from engine.options import RuleOptions
from engine.roles import ROLES, WEREWOLVES
from prompts.catalog import LANGUAGES, Catalog, catalog
from prompts.decisions_text import decision_prompt
from prompts.history import history_entries
from prompts.rules_text import also, roles_in_play, rules_lines

__all__ = ["LANGUAGES", "system_prompt", "system_parts", "history_entries", "decision_prompt"]


# A card's ``also`` sentences and when this game holds what each speaks of: a role id
# is held when it is in the deck; the others name the option that brings them in.
CARD_ALSO: dict[str, Any] = {
    "wolf_chat": lambda in_play, o: o.wolf_chat_rounds > 0,
}


def _card(cat: Catalog, role: str, options: RuleOptions, in_play: list[str]) -> str:
    """The role's card, with each ``also`` sentence this game's deck and options call for."""
    card = cat.get(f"roles.roles.{role}.card") or cat.role_summary(role)
    held = [*in_play, *(key for key, holds in CARD_ALSO.items() if holds(in_play, options))]
    return also(cat, card, cat.get(f"roles.roles.{role}.also"), held)


def _role_card(cat: Catalog, role: str, options: RuleOptions, in_play: list[str]) -> list[str]:
    card = _card(cat, role, options, in_play)
    lines = [cat.text("roles.headings.role", name=cat.role_name(role)), cat.text("roles.you_are", name=cat.role_name(role)), card]
    lines.append(cat.text("roles.common"))
    if options.sheriff:
        lines.append(cat.text("roles.common_sheriff"))
    return lines


def _win(cat: Catalog, role: str, options: RuleOptions, in_play: list[str]) -> list[str]:
    spec = ROLES.get(role)
    camp = spec.camp if spec else "village"
    if camp == WEREWOLVES:
        early = options.wolves_win_when
        text = cat.option("roles.win.werewolves", True if options.wolves_win_at_parity else (early if early != "last_villager" else False))
    elif cat.has(f"roles.win.{camp}") and isinstance(cat.get(f"roles.win.{camp}"), str):
        text = cat.text(f"roles.win.{camp}")
    else:
        text = cat.text("roles.win.other", camp=cat.word("camps", camp))
    lines = [cat.text("roles.headings.win"), text]
    if "cupid" in in_play:
        lines.append(cat.text("roles.win.lovers"))
    return lines


def _glossary(cat: Catalog, in_play: list[str], options: RuleOptions) -> list[str]:
    lines = [cat.text("roles.headings.glossary")]
    for role in in_play:
        lines.append(cat.text("roles.glossary_item", name=cat.role_name(role), summary=cat.role_summary(role)))
    if options.sheriff:
        lines.append(cat.text("roles.sheriff_item"))
    return lines


def _limits(cat: Catalog, limits: Mapping[str, int]) -> list[str]:
    """What one reply may spend: the longest reasoning and words, the token budgets."""
    lines = []
    if limits.get("reasoning"):
        lines.append(cat.text("system.limits.reasoning", chars=limits["reasoning"]))
    if limits.get("text"):
        lines.append(cat.text("system.limits.text", chars=limits["text"]))
    if limits.get("choice") and limits.get("words"):
        lines.append(cat.text("system.limits.tokens", choice=limits["choice"], words=limits["words"]))
    return [cat.text("system.limits.heading"), *(cat.text("system.bullet", text=line) for line in lines)] if lines else []


def system_prompt(**kwargs: Any) -> str:
    """The part of every call that stays the same for the whole game: ``system_parts``
    (same keywords) joined.

    ``role`` is the seat's role at the deal: a Thief's later change is told in the
    history, so this text (and the provider's cache of it) never has to change.
    ``deck`` (optional) is the public list of cards in play, ``game_start``'s
    ``roles_in_play``; without it the text covers every role the preset can deal.
    """
    return "".join(system_parts(**kwargs))


def system_parts(
    *,
    preset: str,
    options: RuleOptions,
    seat: str,
    role: str,
    players: list[str],
    language: str = "en",
    deck: Iterable[str] | None = None,
    layout: str = "grammar",
    limits: Mapping[str, int] | None = None,
) -> tuple[str, str]:
    """``system_prompt`` in two parts: what every seat of the game reads (the game,
    its rules, the roles in play, how to answer), then the seat's own (its place,
    its card, its win). Shared parts first, so a prompt cache common to the seats
    (Anthropic's, per workspace) serves the first part to every seat. ``layout``
    ``cache`` (one answer schema for the game, ``agents.llm.schema.game_schema``)
    adds how its questions name the fields they fill, said once here rather than in
    every question. ``limits`` (``reasoning`` and ``text`` in characters, ``choice``
    and ``words`` in tokens; a 0 or missing one is not said) are the seat's own."""
    if seat not in players:
        raise ValueError(f"seat '{seat}' is not among the players")
    cat = catalog(language)
    in_play = roles_in_play(preset, deck)
    shared: list[list[str]] = [
        [cat.text("system.intro")],
        rules_lines(cat, preset=preset, options=options, players=players, deck=deck),
        _glossary(cat, in_play, options),
        [cat.text("system.answer_heading")]
        + [cat.text("system.bullet", text=line) for line in cat.get("system.answer")]
        + ([cat.text("system.bullet", text=cat.text("system.answer_fields"))] if layout == "cache" else [])
        + [cat.text("system.bullet", text=cat.text("system.language"))],
    ]
    own: list[list[str]] = [
        [
            cat.text("system.seat_heading"),
            cat.text("system.seat", seat=seat, number=players.index(seat) + 1, count=len(players)),
            cat.text("system.seating", players=cat.join(players)),
            cat.text("system.history_note"),
            cat.text("system.quoting_note"),
        ],
        _role_card(cat, role, options, in_play),
        _win(cat, role, options, in_play),
        _limits(cat, limits or {}),
    ]

    def text(parts: list[list[str]]) -> str:
        return "\n\n".join("\n".join(p).strip("\n") for p in parts if p)

    return text(shared) + "\n\n", text(own) + "\n"
