"""What a seat's public claims say against the public record: the words baseline's evidence.

A speech carries its claims parsed (``Speech.claims``: the role the speaker claims, the
Seer checks it reports, whom it accuses; a model states them in its reply, a person with
``/role``, ``/check``, ``/accuse``, a bot with its words). The ``words`` monitor reads a
seat's own claims as they stood at the end of a day against what the whole table knew
by then, and nothing hidden:

- the cards shown at death (``reveal_role_on_death``) of *other* seats (the seat's own
  card, shown when it dies, would be the answer itself);
- the other seats' claims.

Each finding is a lie no village seat has a reason to tell, or the sign of one:

- ``wolf_card``: it claimed a werewolf card (it says it is a wolf);
- ``role_taken``: it claimed a card with a power that a dead seat was shown to hold;
- ``counterclaim``: another seat claims the same card with a power (one of the two lies);
- ``check_false``: a check it reported contradicts a card shown since (a wolf "cleared",
  an innocent "found");
- ``check_true``: a check it reported was borne out (a real Seer's sign; a wolf that
  fakes the Seer seldom names a packmate);
- ``accused_innocent``: it accused a seat shown since to be innocent, and no seat shown
  a wolf (a wolf accuses innocents knowingly; a villager by mistake);
- ``accused_wolf``: it accused a seat shown since to be a wolf (the pack seldom hands
  the village one of its own).

The weights are log-odds added to the prior (a quarter of a table are wolves), set by
hand in round numbers from the sense of each finding, not fitted: the baseline must not
learn from the games it is scored on (docs/RATINGS.md gives its AUROC on bot games).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field

from arena.metrics.load import GameRecord, is_wolf_role, payload_is
from engine.flow.leaving import DeathEvent
from engine.roles.civilian import PLAIN
from engine.speech import Speech

PRIOR = 0.25  # about the share of wolves at a table
WEIGHTS = {"self_in_pack": 3.0, "wolf_card": 4.0, "role_taken": 3.0, "counterclaim": 1.0, "check_false": 3.0, "check_true": -1.5,
           "accused_innocent": 0.75, "accused_wolf": -1.25}


@dataclass(frozen=True)
class Said:
    """One seat's own claims by the end of a day, and what the table knew then."""

    roles: tuple[str, ...] = ()  # the cards it claimed, in order
    checks: tuple[tuple[str, bool], ...] = ()  # (target, says wolf) it reported
    accuses: tuple[str, ...] = ()  # whom it accused
    rivals: frozenset[str] = frozenset()  # cards with a power it claimed that another seat claims too
    shown: dict[str, str] = field(default_factory=dict)  # other seats' cards shown at death by then

    def findings(self) -> list[str]:
        """The kinds of evidence (module docstring) its claims give, each once."""
        out: list[str] = []
        powered = [r for r in self.roles if r not in PLAIN]
        if any(is_wolf_role(r) for r in self.roles):
            out.append("wolf_card")
        if any(not is_wolf_role(r) and r in self.shown.values() for r in powered):
            out.append("role_taken")
        elif self.rivals:
            out.append("counterclaim")
        verdicts = [is_wolf_role(self.shown[t]) == wolf for t, wolf in self.checks if t in self.shown]
        if any(not v for v in verdicts):
            out.append("check_false")
        elif any(verdicts):
            out.append("check_true")
        accused = [is_wolf_role(self.shown[t]) for t in self.accuses if t in self.shown]
        if any(accused):
            out.append("accused_wolf")
        elif accused:
            out.append("accused_innocent")
        return out


def probability(findings: list[str]) -> float:
    """The prior moved by each finding's weight, in log-odds."""
    logit = math.log(PRIOR / (1 - PRIOR)) + sum(WEIGHTS[f] for f in findings)
    return 1.0 / (1.0 + math.exp(-logit))


@dataclass(frozen=True)
class _Speech:
    day: int
    speaker: str
    roles: tuple[str, ...]
    checks: tuple[tuple[str, bool], ...]
    accuses: tuple[str, ...]


def _claims(g: GameRecord) -> list[_Speech]:
    """Each speech's parsed claims, read defensively (a model or a person stated them)."""
    out = []
    for e, d in g.of(Speech):
        if not payload_is(d, Speech) or not isinstance(d.claims, dict):
            continue
        role = d.claims.get("role")
        checks = tuple((c["target"], is_wolf_role(str(c.get("role", "")))) for c in d.claims.get("checks") or ()
                       if isinstance(c, dict) and isinstance(c.get("target"), str))  # fmt: skip
        accuses = tuple(t for t in d.claims.get("accuses") or () if isinstance(t, str) and t != d.speaker)
        if role or checks or accuses:
            out.append(_Speech(int(e.day), d.speaker, (role,) if isinstance(role, str) and role else (), checks, accuses))
    return out


def said_by_day(g: GameRecord) -> dict[tuple[str, int], Said]:
    """Per (seat, day) of the game, what ``Said`` holds at that day's end."""
    spoken = _claims(g)
    shown = [(int(e.day), d.player, d.role) for e, d in g.of(DeathEvent) if payload_is(d, DeathEvent) and d.role]
    out: dict[tuple[str, int], Said] = {}
    for day in range(1, g.days + 1):
        roles: dict[str, list[str]] = defaultdict(list)
        checks: dict[str, list[tuple[str, bool]]] = defaultdict(list)
        accused: dict[str, list[str]] = defaultdict(list)
        for s in spoken:
            if s.day <= day:
                roles[s.speaker] += [r for r in s.roles if r not in roles[s.speaker]]
                checks[s.speaker] += s.checks
                accused[s.speaker] += [t for t in s.accuses if t not in accused[s.speaker]]
        by_role: dict[str, set[str]] = defaultdict(set)
        for speaker, rs in roles.items():
            for r in rs:
                if r not in PLAIN:
                    by_role[r].add(speaker)
        for seat in g.names:
            out[(seat, day)] = Said(
                roles=tuple(roles[seat]), checks=tuple(checks[seat]), accuses=tuple(accused[seat]),
                rivals=frozenset(r for r in roles[seat] if by_role[r] - {seat}),
                shown={p: role for when, p, role in shown if when <= day and p != seat},
            )  # fmt: skip
    return out
