"""Reading a transcript for measurement, tolerantly.

``transcripts.schema.read_transcript`` validates every line against version 1 and
refuses unknown record types; measurement must also read records that a later game
option adds (``belief``) and should not pay pydantic's price on thousands of files.
So this reader takes plain JSON lines, keeps every record in file order, drops a last
line cut off by a killed writer, and leaves the judging of each record to the metric
that uses it. Event records are the exception: each becomes its kind's declared
payload (``transcripts.schema.declared_payload``, as ``read_transcript`` reads them),
so the metrics read typed fields, and an event of a kind this version does not
declare, or with other fields, is a ``MetricsError`` naming the file and the event
rather than a miscount.
"""

from __future__ import annotations

import json
from dataclasses import InitVar, dataclass, field
from pathlib import Path
from typing import Any, Hashable, Iterable, Iterator, NamedTuple, Sequence, TypeGuard, TypeVar, overload

from arena.fastjson import loads as _loads
from engine.events import Event, audience_from_json
from engine.flow.leaving import DeathEvent
from engine.flow.main import Role
from engine.flow.victory import GameEnd
from engine.roles import ROLES
from engine.roles.infect_father import Infected
from engine.roles.priest import Revived
from engine.roles.wild_child import WildChildTurned
from engine.roles.wolf_hound import WolfHoundSide
from transcripts.payloads import declared_payload


class MetricsError(ValueError):
    """A file that cannot be measured; the message says which and why."""


_IS: dict[tuple[type, Any], bool] = {}
P = TypeVar("P")


@overload
def payload_is(data: Any, kinds: type[P]) -> TypeGuard[P]: ...
@overload
def payload_is(data: Any, kinds: tuple[type[P], ...]) -> TypeGuard[P]: ...
def payload_is(data: Any, kinds: Any) -> bool:
    """``isinstance(data, kinds)``, remembered per payload class. A payload is a
    ``Mapping``, so every ``isinstance`` that fails goes through ``ABCMeta``'s
    Python-level check (about a microsecond); the measures ask it of every event
    several times (measured: a quarter of ``werewolf metrics``)."""
    key = (type(data), kinds)
    hit = _IS.get(key)
    if hit is None:
        hit = _IS[key] = isinstance(data, kinds)
    return hit


def event_of(record: dict[str, Any], where: str = "transcript") -> Event:
    """An event record as the engine's ``Event`` with its kind's declared payload;
    ``MetricsError`` for an undeclared kind or data that is not the kind's fields."""
    try:
        audience = audience_from_json(record.get("audience", "public"))
        data = declared_payload(str(record.get("kind")), record.get("data") or {})
        return Event(record["seq"], record.get("day", 0), str(record.get("phase", "")), audience, data)
    except (KeyError, TypeError, ValueError) as e:
        raise MetricsError(f"{where}: event {record.get('seq', '?')}: {e}") from None


def _played(e: Event | None, record: dict[str, Any], where: str) -> Event:
    """The game's own event for the file's next event record: the two must be the
    same event (its number and kind), or the file is not the game's."""
    if e is None or e.seq != record.get("seq") or e.data.kind != record.get("kind"):
        raise MetricsError(f"{where}: event {record.get('seq', '?')} is not the game's event {e.seq if e else 'past its end'}")
    return e


class Step(NamedTuple):
    """A record that a forward reading with ``Truth`` stops at (``GameRecord.walk``)."""

    at: int  # its position in ``GameRecord.records``
    day: int  # the day of the last event before it (0 before the first)
    record: dict[str, Any]
    event: Event | None  # the typed event of an event record; None for an answer


class Death(NamedTuple):
    """A ``death`` event's facts with when it happened."""

    player: str
    cause: str
    role: str | None  # the card, when the rules showed it
    day: int
    phase: str
    seq: int


@dataclass
class GameRecord:
    """One game's records, split by type, with the hidden truth at hand."""

    header: dict[str, Any]
    records: list[dict[str, Any]]  # every record after the header, in file order
    path: str | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    timeline: list[Event] = field(default_factory=list)  # the event records as typed events, in file order
    answers: list[dict[str, Any]] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    beliefs: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, Any] | None = None
    measured: dict[str, Any] | None = None  # the game's measures, once computed (``arena.metrics.cli``)
    pairs: Any = None  # ``beliefs.belief_pairs(self)``, once computed
    contribution: Any = None  # what it adds to ``game.Aggregate``, once worked out (the CLI's check)
    # The game's own typed events, when the file was just written from them (a
    # tournament's finished game): taken for its event records instead of reading
    # each again from its ``data``, which gives equal events (``tests/test_metrics_handover.py``).
    played: InitVar[Sequence[Event] | None] = None

    def __post_init__(self, played: Sequence[Event] | None) -> None:
        self._typed: dict[int, Event] = {}
        self._deaths: tuple[Death, ...] | None = None
        self._of: dict[Any, list[Any]] = {}
        self._steps: tuple[list[Step], Exception | None] | None = None
        self._walks: dict[Hashable, list[Step]] = {}
        where = self.path or "transcript"
        given = iter(played) if played is not None else None
        for r in self.records:
            t = r.get("type")
            if t == "event":
                self.events.append(r)
                e = event_of(r, where) if given is None else _played(next(given, None), r, where)
                self._typed[id(r)] = e
                self.timeline.append(e)
            elif t == "answer":
                self.answers.append(r)
            elif t == "call":
                self.calls.append(r)
            elif t == "belief":
                self.beliefs.append(r)
            elif t == "result" and self.result is None:
                self.result = r
        if given is not None and next(given, None) is not None:
            raise MetricsError(f"{where}: the game has events the file does not hold")
        end = self.game_end
        self.roles: dict[str, str] = dict(end.roles or {}) if end else {}
        self.initial_roles: dict[str, str] = dict(end.initial_roles or self.roles) if end else {}
        if not self.roles and self.result:
            self.roles = {p["name"]: p["role"] for p in self.result.get("players", [])}
            self.initial_roles = {p["name"]: p["initial_role"] for p in self.result.get("players", [])}

    def of(self, kinds: type[P] | tuple[type[P], ...]) -> list[tuple[Event, P]]:
        """(event, payload) of the timeline's events whose payload is one of ``kinds``,
        in file order: read once per game and kinds (several measures look for the same
        few kinds, some once per claim)."""
        hit = self._of.get(kinds)
        if hit is None:
            hit = self._of[kinds] = [(e, e.data) for e in self.timeline if payload_is(e.data, kinds)]
        return hit

    def walk(self, kinds: tuple[str, ...] | frozenset[str]) -> Iterator[Step]:
        """The records a measure of answers reads forward, in file order: every event
        that changes what ``Truth`` knows, and every answer of one of ``kinds``, each
        with the day as ``int(day)`` of the events so far. The votes and the powers
        measures each replay the truth through the whole file; the events that change it
        are a tenth of them, so the list is made once per game (and per ``kinds``).
        What the full reading raises (a day that is no number) is raised where it
        stood, after the steps before it."""
        if self._steps is None:
            self._steps = self._all_steps()
        steps, error = self._steps
        hit = self._walks.get(kinds)
        if hit is None:
            hit = self._walks[kinds] = [s for s in steps if s.event is not None or s.record.get("kind") in kinds]
        yield from hit
        if error is not None:
            raise error

    def _all_steps(self) -> tuple[list[Step], Exception | None]:
        steps: list[Step] = []
        day = 0
        try:
            for i, r in enumerate(self.records):
                t = r.get("type")
                if t == "event":
                    day = int(r.get("day", day))
                    e = self._typed[id(r)]
                    if truth_kind(e.data):
                        steps.append(Step(i, day, r, e))
                elif t == "answer":
                    steps.append(Step(i, day, r, None))
        except (TypeError, ValueError) as e:
            return steps, e
        return steps, None

    # ------------------------------------------------------------------ who is who
    def typed(self, record: dict[str, Any]) -> Event:
        """The typed event of one of this game's event records."""
        return self._typed[id(record)]

    @property
    def game_end(self) -> GameEnd | None:
        for e in reversed(self.timeline):
            if payload_is(e.data, GameEnd):
                return e.data
        return None

    @property
    def complete(self) -> bool:
        """The truth is known: the game reached its end."""
        return bool(self.roles)

    @property
    def names(self) -> list[str]:
        return [s["name"] for s in self.header.get("seats", [])]

    def label(self, name: str) -> str:
        """Who played the seat: a model seat's display name, else its agent spec."""
        for s in self.header.get("seats", []):
            if s["name"] == name:
                opts = s.get("options") or {}
                return str(opts.get("display_name") or s.get("agent") or "?")
        return "?"

    def is_wolf(self, name: str) -> bool:
        return is_wolf_role(self.roles.get(name, ""))

    def camp(self, name: str) -> str:
        return camp_of(self.roles.get(name, ""))

    @property
    def wolves(self) -> set[str]:
        return {n for n in self.roles if self.is_wolf(n)}

    @property
    def winner(self) -> str | None:
        if self.result:
            return self.result.get("winner")
        end = self.game_end
        return end.winner if end else None

    @property
    def days(self) -> int:
        if self.result:
            return int(self.result.get("days", 0))
        return max((int(e.get("day", 0)) for e in self.events), default=0)

    def deaths(self) -> list[Death]:
        """``death`` events with their day, phase and sequence number (read once per
        game: every seat's summary and every lie's effects ask)."""
        if self._deaths is None:
            self._deaths = tuple(Death(d.player, d.cause, d.role, e.day, e.phase, e.seq) for e, d in self.of(DeathEvent))
        return list(self._deaths)


class Truth:
    """Who holds which card, who is a werewolf and who is alive *at a moment* of the
    game, read forward.

    ``GameRecord.roles`` is the cards at the end; a measure of a decision needs the
    truth when it was taken. Start from the cards dealt and feed every event in file
    order (``see``): a new card (``role``: the deal, the Thief's swap, the Mad
    Scientist's dose) sets the card and the side from it, as ``Player.set_role`` does; a
    conversion that keeps the card (``infected``, ``wild_child_turned``, the
    Wolf-Hound's ``wolf_hound_side``) makes the player a werewolf, as
    ``Player.convert`` does (the Angel's change to the village never makes a wolf);
    ``death`` and ``revived`` (the forum's Priest) move players between the living and
    the dead. An answer record sits before the events it caused, so the state when it is
    read is the state the seat decided in.
    """

    def __init__(self, g: "GameRecord") -> None:
        names = g.names or list(g.initial_roles)
        self.order = list(names)
        self.role: dict[str, str] = {n: g.initial_roles.get(n, "") for n in names}
        self.wolf: dict[str, bool] = {n: is_wolf_role(r) for n, r in self.role.items()}
        self.alive: dict[str, bool] = {n: True for n in names}

    def see(self, event: Event) -> None:
        d: Any = event.data  # its class is what _truth_kind says
        what = truth_kind(d)
        if what == "role":
            self.role[d.player] = d.role
            self.wolf[d.player] = is_wolf_role(d.role)
        elif what == "wolf" or (what == "hound" and d.side == "werewolves"):
            self.wolf[d.player] = True
        elif what == "death":
            self.alive[d.player] = False
        elif what == "revived":
            self.alive[d.player] = True

    def is_wolf(self, name: str) -> bool:
        return self.wolf.get(name, False)

    def role_of(self, name: str) -> str:
        return self.role.get(name, "")

    def living(self) -> list[str]:
        return [n for n in self.order if self.alive.get(n)]

    def dead(self) -> list[str]:
        return [n for n in self.order if not self.alive.get(n)]


def _truth_kind(d: Any) -> str:
    """What a payload of this class tells ``Truth``: a new card, a conversion to the
    pack, the Wolf-Hound's choice, a death, a return to life, or nothing."""
    if isinstance(d, Role):
        return "role"
    if isinstance(d, (Infected, WildChildTurned)):
        return "wolf"
    if isinstance(d, WolfHoundSide):
        return "hound"
    if isinstance(d, DeathEvent):
        return "death"
    if isinstance(d, Revived):
        return "revived"
    return ""


_TRUTH_KIND: dict[type, str] = {}  # payload class -> _truth_kind (Truth.see reads every event)


def truth_kind(d: Any) -> str:
    """``_truth_kind(d)``, remembered per payload class; "" for a payload that tells
    ``Truth`` nothing."""
    what = _TRUTH_KIND.get(type(d))
    if what is None:
        what = _TRUTH_KIND[type(d)] = _truth_kind(d)
    return what


def is_wolf_role(role: str) -> bool:
    r = ROLES.get(role)
    return bool(r.is_wolf) if r is not None else "wolf" in role


def camp_of(role: str) -> str:
    r = ROLES.get(role)
    if r is not None:
        return r.camp
    return "werewolves" if "wolf" in role else "village"


def records_from_lines(lines: Iterable[str], where: str = "transcript") -> list[dict[str, Any]]:
    """Parse JSON lines; a last line that does not parse is a cut-off write and is dropped."""
    lines = list(lines)
    out: list[dict[str, Any]] = []
    for i, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            rec = _loads(line)
        except json.JSONDecodeError as e:
            if i == len(lines):
                break
            raise MetricsError(f"{where}: line {i}: not JSON: {e.msg}") from None
        if not isinstance(rec, dict):
            raise MetricsError(f"{where}: line {i}: not a JSON object")
        out.append(rec)
    return out


def from_records(records: list[dict[str, Any]], path: str | None = None, played: Sequence[Event] | None = None) -> GameRecord:
    """``played``: see ``GameRecord.played``."""
    where = path or "transcript"
    if not records or records[0].get("type") != "header":
        raise MetricsError(f"{where}: the first line must be a header record")
    return GameRecord(header=records[0], records=records[1:], path=path, played=played)


def load_transcript(path: str | Path, played: Sequence[Event] | None = None) -> GameRecord:
    """The file's records; its events typed, or ``played`` (the game's own events,
    the file just written from them: ``GameRecord.played``)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise MetricsError(f"cannot read {p}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise MetricsError(f"cannot read {p}: not a transcript (not UTF-8 text at byte {e.start})") from None
    return from_records(records_from_lines(text.split("\n"), str(p)), str(p), played)
