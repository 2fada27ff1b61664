"""From asks to swings: each speech's, then per seat, agent, side and listener agent.

A listener's swing for one speech is the share of its answers in the arm that
differs (the speech as said; in the control, the second neutral line) that vote for
a player the speech accuses, minus that share in the neutral arm, over the repeats
whose two asks both gave the listener's own answer (a model seat's fallback move is
not the model's, and a failed ask is missing). The same difference for votes against
the speaker says whether the speech backfired; with the game's beliefs on, the
change in the listener's P(wolf) for the accused is kept beside it. A speech's swing
is the mean over its listeners (``stats.speech_estimate``); a group's, the mean over
its speeches (``stats.group_estimate``, the bootstrap over speeches).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from arena.persuasion.records import PersuasionFileError, Recorded, RunRecord, read_records, sidecar_for
from arena.persuasion.stats import Estimate, group_estimate, speech_estimate


@dataclass(frozen=True)
class ListenerOutcome:
    seat: str
    agent: str
    side: str
    swing: float  # toward the accused
    against: float  # toward the speaker
    belief: float | None  # P(wolf) of the accused, the arm that differs minus the neutral one
    pairs: int


@dataclass
class SpeechOutcome:
    game: str
    seq: int
    day: int
    speaker: str
    agent: str
    side: str
    wolf: bool
    accused: tuple[str, ...]
    accused_wolf: bool | None  # every accused a wolf / none / a mix (None)
    listeners: list[ListenerOutcome] = field(default_factory=list)

    @property
    def swing(self) -> float:
        return sum(x.swing for x in self.listeners) / len(self.listeners)

    @property
    def against(self) -> float:
        return sum(x.against for x in self.listeners) / len(self.listeners)

    def estimate(self) -> Estimate:
        return speech_estimate([x.swing for x in self.listeners])

    def to_json(self) -> dict[str, Any]:
        beliefs = [x.belief for x in self.listeners if x.belief is not None]
        return {
            "game": self.game, "seq": self.seq, "day": self.day, "speaker": self.speaker, "agent": self.agent,
            "side": self.side, "speaker_wolf": self.wolf, "accused": list(self.accused), "accused_wolf": self.accused_wolf,
            "listeners": len(self.listeners), "swing": self.estimate().to_json(),
            "against_speaker": speech_estimate([x.against for x in self.listeners]).to_json(),
            "belief_shift": round(sum(beliefs) / len(beliefs), 6) if beliefs else None,
        }  # fmt: skip


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs)


def outcomes(recorded: Recorded, run: RunRecord, game: str) -> list[SpeechOutcome]:
    """The measured speeches of ``run`` (its sample, repeats and arms) from what the
    record holds. A speech is measured once every ask of every listener was made (a
    run stopped by its budget leaves some unmade: the speech waits for the next run)
    and at least one listener has a pair of usable answers."""
    arm, base = ("control", "neutral") if run.control else ("said", "neutral")
    out = []
    for seq in run.sampled:
        s = recorded.speeches.get(seq)
        if s is None:
            continue
        accused = set(s.accused)
        wolves = set(s.accused_wolf)
        o = SpeechOutcome(
            game=game, seq=s.seq, day=s.day, speaker=s.speaker, agent=s.agent, side=s.side, wolf=s.wolf,
            accused=tuple(s.accused), accused_wolf=wolves.pop() if len(wolves) == 1 else None,
        )  # fmt: skip
        reps = {x.seat: 1 if x.once else run.repeats for x in s.listeners}
        if any((seq, x.seat, a, rep) not in recorded.asks for x in s.listeners for a in (arm, base) for rep in range(reps[x.seat])):
            continue
        for x in s.listeners:
            f, c, fa, ca, fb, cb = [], [], [], [], [], []
            for rep in range(reps[x.seat]):
                a = recorded.asks.get((seq, x.seat, arm, rep))
                b = recorded.asks.get((seq, x.seat, base, rep))
                if a is None or b is None or not a.usable or not b.usable:
                    continue
                f.append(float(a.vote in accused))
                c.append(float(b.vote in accused))
                fa.append(float(a.vote == s.speaker))
                ca.append(float(b.vote == s.speaker))
                if a.beliefs is not None and b.beliefs is not None:
                    pa = [a.beliefs[n] for n in s.accused if n in a.beliefs]
                    pb = [b.beliefs[n] for n in s.accused if n in b.beliefs]
                    if pa and pb:
                        fb.append(_mean(pa))
                        cb.append(_mean(pb))
            if f:
                belief = _mean(fb) - _mean(cb) if fb else None
                o.listeners.append(ListenerOutcome(x.seat, x.agent, x.side, _mean(f) - _mean(c), _mean(fa) - _mean(ca), belief, len(f)))
        if o.listeners:
            out.append(o)
    return out


def recorded_outcomes(transcript: str, game: str) -> list[SpeechOutcome]:
    """The measured speeches of the last ``werewolf persuasion`` run on a transcript, read
    from the record beside it (nothing is asked); none when it has no (readable) record."""
    path = sidecar_for(transcript)
    if not path.exists():
        return []
    try:
        held = read_records(path)
    except PersuasionFileError:
        return []
    return outcomes(held, held.last, game) if held.last is not None else []


# ---------------------------------------------------------------------- groups
def _group(items: Iterable[SpeechOutcome], seed: int) -> dict[str, Any]:
    items = list(items)
    swings = [o.swing for o in items]
    return {"swing": group_estimate(swings, seed=seed).to_json(), "n": len(items)}


def _split(items: list[SpeechOutcome], seed: int) -> dict[str, Any]:
    """A group's figures: its swing, the split by whether the accused was a wolf
    (a true accusation) or an innocent, and the swing against its speakers."""
    out = _group(items, seed)
    out["toward_wolf"] = _group((o for o in items if o.accused_wolf is True), seed)
    out["toward_innocent"] = _group((o for o in items if o.accused_wolf is False), seed)
    out["against_speaker"] = group_estimate([o.against for o in items], seed=seed).to_json()
    return out


def _by(items: Sequence[SpeechOutcome], key: Callable[[SpeechOutcome], Any]) -> dict[Any, list[SpeechOutcome]]:
    groups: dict[Any, list[SpeechOutcome]] = defaultdict(list)
    for o in items:
        groups[key(o)].append(o)
    return dict(sorted(groups.items(), key=lambda kv: str(kv[0])))


def susceptibility(items: Sequence[SpeechOutcome], seed: int) -> list[dict[str, Any]]:
    """Per listener agent: how far its seats are moved by wolves' speeches and by the
    others', each a mean over speeches of its listeners' swing in that speech."""
    per: dict[str, dict[bool, list[float]]] = defaultdict(lambda: {True: [], False: []})
    for o in items:
        mine: dict[str, list[float]] = defaultdict(list)
        for x in o.listeners:
            mine[x.agent].append(x.swing)
        for agent, swings in mine.items():
            per[agent][o.wolf].append(_mean(swings))
    return [
        {
            "agent": agent,
            "from_wolves": {"swing": group_estimate(v[True], seed=seed).to_json(), "n": len(v[True])},
            "from_village": {"swing": group_estimate(v[False], seed=seed).to_json(), "n": len(v[False])},
        }
        for agent, v in sorted(per.items())
    ]


def summary(items: Sequence[SpeechOutcome], *, seed: int = 0, per_speech: bool = True) -> dict[str, Any]:
    """The figures of ``werewolf persuasion --json`` (docs/PERSUASION.md): the contract's
    ``speeches``, ``by_agent`` and ``by_seat``, and beside them the sides, the listeners'
    susceptibility and, with ``per_speech``, every speech."""
    items = list(items)
    by_agent = [{"agent": agent, **_split(group, seed)} for agent, group in _by(items, lambda o: o.agent).items()]
    by_seat = [{"name": name, "agent": agent, **_split(group, seed)} for (name, agent), group in _by(items, lambda o: (o.speaker, o.agent)).items()]
    by_side = [{"side": side, **_split(group, seed)} for side, group in _by(items, lambda o: o.side).items()]
    out: dict[str, Any] = {
        "speeches": len(items),
        "listeners": sum(len(o.listeners) for o in items),
        "swing": _split(items, seed),
        "by_agent": by_agent,
        "by_seat": by_seat,
        "by_side": by_side,
        "susceptibility": susceptibility(items, seed),
    }
    if per_speech:
        out["per_speech"] = [o.to_json() for o in items]
    return out
