"""The Seer and the other key roles: how soon the truth was found, and who lived.

The Seer is the village's source of hard information, so three moments matter: the
night it first saw a wolf, the day it first said so in public (a check claim naming a
real wolf, backed by its own result), and whether it was still alive then. For the
village as a whole, the day a wolf was first voted out. For every village role with a
power (not plain villagers), whether it survived and how it died: losing the Witch on
night 1 and losing her on day 5 are different games.
"""

from __future__ import annotations

from typing import Any

from arena.metrics.load import GameRecord, camp_of
from engine.flow.voting import Eliminated
from engine.roles.civilian import PLAIN  # the cards without a power: no key role
from engine.roles.seer import SeerResult
from engine.speech import Speech


def seer_metrics(g: GameRecord) -> list[dict[str, Any]]:
    seers = [n for n, r in g.initial_roles.items() if r == "seer"]
    out = []
    for seer in seers:
        checks = [(e, d) for e, d in g.of(SeerResult) if d.seer == seer]
        first_wolf = next((e for e, d in checks if g.is_wolf(d.target)), None)
        claimed_day = None
        revealed_day = None
        for e, speech in g.of(Speech):
            if speech.speaker != seer:
                continue
            claims = speech.claims or {}
            if claims.get("role") == "seer" and claimed_day is None:
                claimed_day = e.day
            if revealed_day is None:
                for c in claims.get("checks") or []:
                    seen = [x for x, xd in checks if x.seq < e.seq and xd.target == c.get("target")]
                    if seen and g.is_wolf(c["target"]) and camp_of(c.get("role", "")) == "werewolves":
                        revealed_day = e.day
                        break
        death = next((d for d in g.deaths() if d.player == seer), None)
        out.append(
            {
                "seer": seer,
                "checks": len(checks),
                "first_wolf_night": first_wolf.day if first_wolf else None,
                "checks_to_first_wolf": ([e for e, _ in checks].index(first_wolf) + 1) if first_wolf else None,
                "claimed_seer_day": claimed_day,
                "revealed_wolf_day": revealed_day,
                "died_day": death.day if death else None,
                "death_cause": death.cause if death else None,
            }
        )
    return out


def first_wolf_voted_out(g: GameRecord) -> int | None:
    for e, gone in g.of(Eliminated):
        if g.is_wolf(gone.player):
            return int(e.day)
    return None


def key_role_survival(g: GameRecord) -> list[dict[str, Any]]:
    deaths = {d.player: d for d in g.deaths()}
    rows = []
    for name, role in g.initial_roles.items():
        if role in PLAIN or camp_of(role) != "village":
            continue
        d = deaths.get(name)
        rows.append(
            {"seat": name, "role": role, "survived": d is None, "died_day": d.day if d else None,
             "death_phase": d.phase if d else None, "death_cause": d.cause if d else None}
        )  # fmt: skip
    return rows


def key_role_metrics(g: GameRecord) -> dict[str, Any]:
    return {"seer": seer_metrics(g), "first_wolf_voted_out_day": first_wolf_voted_out(g), "key_roles": key_role_survival(g)}
