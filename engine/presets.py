"""Presets: a rulebook's defaults and its recommended tables.

A preset is data: its option overrides on top of ``RuleOptions`` and a function of
the table size giving the recommended deck. Sources are in docs/RULES.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable

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
    overrides: dict[str, Any] = field(default_factory=dict)
    deck: Callable[[int], list[str]] = _millers_hollow_deck
    min_players: int = 3
    max_players: int = 30

    def options(self, extra: dict[str, Any] | None = None) -> RuleOptions:
        opts = _defaults(self.id, tuple(sorted(self.overrides.items())))
        return opts.updated(extra) if extra else opts


@lru_cache(maxsize=None)
def _defaults(preset_id: str, overrides: tuple) -> RuleOptions:
    """Options are immutable, so each preset's defaults are built once."""
    return RuleOptions().updated(dict(overrides))


PRESETS: dict[str, Preset] = {}


def register_preset(p: Preset) -> Preset:
    PRESETS[p.id] = p
    return p


MILLERS_HOLLOW = register_preset(
    Preset(
        id="millers_hollow",
        title="The Werewolves of Miller's Hollow (base game)",
        seed_file="000_a61e3271ac00f591.txt",
        overrides={},
        deck=_millers_hollow_deck,
    )
)


def get_preset(name: str) -> Preset:
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown preset '{name}' (known: {', '.join(sorted(PRESETS))})") from None
