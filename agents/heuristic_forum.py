"""The heuristic bot's play of message-board Werewolf (004): the forum's powers and
mechanics, each used with intent, and the private facts they bring into memory.

Registered into ``agents.heuristic.POLICIES`` and ``heuristic_memory._HANDLERS``: the
results of a Psychic's read, an Insomniac's sleepless night and a Coroner's report
become known roles, which the suspicion model already treats as certainties."""

from __future__ import annotations

import re
from typing import Any

import agents.heuristic_votes as votes
from agents.heuristic_memory import _HANDLERS, _SEAT_ONLY, Accusation, Memory, is_wolf_role, learn_role
from agents.heuristic_situation import Situation
from agents.heuristic_talk import CHARACTER_SPEECHES, GOOD, WOLF, Speech
from engine.events import Event
from engine.flow.forum import Reprimand, SundownExtended
from engine.flow.ghost_notes import CoronerNote
from engine.roles.coroner import CoronerReport
from engine.roles.forum_seer import SeerSpotted
from engine.roles.guardian_angel import GuardianAngelSaved
from engine.roles.insomniac import InsomniacSaw
from engine.roles.pack_leader import PackLeaderSniff
from engine.roles.priest import Revived
from engine.roles.psychic import PsychicResult

SHOOT_CONFIDENCE = 0.8  # the Vigilante's only bullet goes to a near-certain wolf
NINJA_CONFIDENCE = 0.85  # the Ninja kills only when almost sure: he can wipe out the humans
DOSE_CHANCE = 0.5
# The humans whose night work finds the pack: a wolf who learns who holds one hunts them.
INFORMED = ("forum_seer", "psychic", "insomniac", "coroner", "guardian_angel", "vigilante")
WOLF_WORDS = ("wolf", "wolves", "狼")  # a note naming wolves, in either language of the bot's lines


# ------------------------------------------------------------------ memory
def _psychic(mem: Memory, e: Event, d: PsychicResult) -> None:
    learn_role(mem, d.target, d.role)


def _insomniac(mem: Memory, e: Event, d: InsomniacSaw) -> None:
    learn_role(mem, d.wolf, "werewolf")


def _coroner(mem: Memory, e: Event, d: CoronerReport) -> None:
    name = d.target
    if isinstance(name, str) and isinstance(d.role, str):
        mem.dead[name] = d.role


def _spot(mem: Memory, name: Any, role: Any) -> None:
    if isinstance(name, str) and isinstance(role, str):
        mem.spotted[name] = role


def _seer_spotted(mem: Memory, e: Event, d: SeerSpotted) -> None:
    """004: "the Wolves may be informed ... (or even who you are)": the pack hunts them."""
    _spot(mem, d.player, d.role)


def _sniffed(mem: Memory, e: Event, d: PackLeaderSniff) -> None:
    """Told the exact card ("In really big games"): an informed human is hunted. A bare
    "Auxiliary Role" could be anything (a Civilian-like Unknown Celebrity, a Priest who
    may bring back a wolf), so it changes nothing."""
    if d.role in INFORMED:
        _spot(mem, d.target, d.role)


def _angel_saved(mem: Memory, e: Event, d: GuardianAngelSaved) -> None:
    """A save that blew her cover (004 6-B): a confirmed human to the village, a target
    to the pack."""
    angel = d.angel
    if angel is None or angel == mem.me:
        return
    if mem.is_wolf:
        _spot(mem, angel, "guardian_angel")
    else:
        learn_role(mem, angel, "guardian_angel")


def _revived(mem: Memory, e: Event, d: Revived) -> None:
    name = d.player
    if isinstance(name, str):
        mem.revive(name)


def _reprimand(mem: Memory, e: Event, d: Reprimand) -> None:
    """004 Article 7: the Host proved this player wrote as the game itself. Whatever
    they claimed may be forged too: their public claims no longer count."""
    name = d.player
    if isinstance(name, str) and name != mem.me:
        mem.claims.pop(name, None)


def _coroner_note(mem: Memory, e: Event, d: CoronerNote) -> None:
    """A note the Coroner found on a body (004 Article 3). He was told the author's
    card first (``coroner_report``): a human's note naming players beside a wolf word
    counts as that human's accusation of them; a wolf's note is a plant and counts for
    nothing."""
    author, text = d.author, d.text
    if not isinstance(author, str) or not isinstance(text, str) or is_wolf_role(mem.dead.get(author)):
        return
    if not any(w in text.lower() for w in WOLF_WORDS):
        return
    for name in mem.players:
        if name != author and name != mem.me and re.search(rf"(?<![^\W_]){re.escape(name)}(?![^\W_])", text):
            mem.accusations.append(Accusation(e.day, author, name))


def _sundown_extended(mem: Memory, e: Event, d: SundownExtended) -> None:
    day = d.day
    if isinstance(day, int):
        mem.open_days.add(day)


_HANDLERS.update(
    {
        Reprimand: _reprimand,
        CoronerNote: _coroner_note,
        SundownExtended: _sundown_extended,
        PsychicResult: _psychic,
        InsomniacSaw: _insomniac,
        CoronerReport: _coroner,
        Revived: _revived,
        SeerSpotted: _seer_spotted,
        PackLeaderSniff: _sniffed,
        GuardianAngelSaved: _angel_saved,
    }
)
# the seat's own knowledge only (the others change public facts: the seat then reads alone)
_SEAT_ONLY.update({SundownExtended, PsychicResult, InsomniacSaw, SeerSpotted, PackLeaderSniff, GuardianAngelSaved})


# ------------------------------------------------------------------ talk
def _informed_speech(sit: Situation, sp: Speech, h: float, said: str | None) -> bool:
    """The Unknown Celebrity's extended Sundown is "a valuable opportunity for the other
    players to say whatever they want without fear of getting lynched for it": on such
    a day (or once out) a Psychic, Insomniac or Coroner with a card to tell comes out
    with it, and accuses the wolves it knows. Any other day, it keeps its cover."""
    mem = sit.mem
    role = mem.my_role
    alive = set(mem.alive)
    known = {t: r for t, r in mem.seer_results.items() if t != mem.me}
    if role == "coroner":  # the cards of the dead, which only the Coroner was told
        known.update({t: r for t, r in mem.dead.items() if r is not None and t != mem.me})
    if role is None or not known or not (mem.day in mem.open_days or said == role):
        return False
    sp.role = role
    sp.checks = [(t, WOLF if is_wolf_role(r) else GOOD) for t, r in known.items()]
    found = [t for t, r in known.items() if is_wolf_role(r) and t in alive]
    if found:
        sp.accuses, sp.strong = found, True
    return True


CHARACTER_SPEECHES.update({role: _informed_speech for role in ("psychic", "insomniac", "coroner")})


# ------------------------------------------------------------------ policies
def vote_change(sit: Situation) -> str | None:
    """Re-judge with what the thread now shows; a change only when the mind changed."""
    current = sit.decision.context.get("current")
    pick = votes.vote(sit)
    return None if pick is None or pick == current else pick


def ghost_note(sit: Situation) -> str:
    """A dead human passes on the wolves they know of; a dead wolf stays quiet."""
    mem = sit.mem
    if mem.is_wolf:
        return ""
    wolves = sorted(n for n, r in mem.seer_results.items() if is_wolf_role(r) and n not in mem.dead)
    if not wolves:
        return ""
    return "My note: " + ", ".join(wolves) + (" is a werewolf." if len(wolves) == 1 else " are werewolves.")


def coroner_note(sit: Situation) -> str:
    """The note kept on one's person for the Coroner: what a ghost note would tell (the
    wolves this human knows of), kept up to date each night; a wolf keeps none (the
    Coroner learns his card with the body, so a planted note would only expose it)."""
    return ghost_note(sit)


def ghost_note_delivery(sit: Situation) -> str:
    return "public"


def pack_leader_sniff(sit: Situation) -> str | None:
    options = list(sit.decision.options)
    return sit.best(options, sit.threat) if options else None


def forum_seer_sense(sit: Situation) -> bool:
    return True


def psychic_read(sit: Situation) -> str | None:
    mem, b = sit.mem, sit.beliefs
    options = list(sit.decision.options)
    fresh = [o for o in options if o not in mem.seer_results]
    return sit.best(fresh, b.of) if fresh else None


def insomniac_stay_awake(sit: Situation) -> bool:
    """Awake while no living wolf is known yet: a name is worth being known by one."""
    mem = sit.mem
    return not any(is_wolf_role(r) and n not in mem.dead for n, r in mem.seer_results.items())


def vigilante_shoot(sit: Situation) -> str | None:
    options = list(sit.decision.options)
    if not options or sit.mem.is_wolf:
        return None
    b = sit.beliefs
    target = sit.best(options, b.of)
    return target if target is not None and b.of(target) >= SHOOT_CONFIDENCE else None


def ninja_kill(sit: Situation) -> str | None:
    options = [o for o in sit.decision.options if o not in sit.mem.pack]
    if not options:
        return None
    b = sit.beliefs
    target = sit.best(options, b.of)
    return target if target is not None and b.of(target) >= NINJA_CONFIDENCE else None


def guardian_angel_protect(sit: Situation) -> str | None:
    """The human the wolves would want most, never a suspect."""
    options = list(sit.decision.options)
    if not options:
        return None
    b = sit.beliefs
    return sit.best(options, lambda n: sit.threat(n) - 2.0 * b.of(n))


def priest_revive(sit: Situation) -> str | None:
    """A known human, the informed ones first; else the latest victim of the pack."""
    mem = sit.mem
    options = list(sit.decision.options)
    if not options or mem.day < 2 or mem.is_wolf:
        return None
    humans = [o for o in options if mem.dead.get(o) is not None and not is_wolf_role(mem.dead[o])]
    informed = [o for o in humans if mem.dead[o] in ("psychic", "coroner", "insomniac", "forum_seer")]
    if informed:
        return informed[-1]
    if humans:
        return humans[-1]
    for name in reversed(mem.night_victims):
        if name in options and not is_wolf_role(mem.seer_results.get(name)):
            return name
    return None


def mad_scientist_dose(sit: Situation) -> str | None:
    """On a likely wolf the vial only makes a Pack Leader; on a trusted human it may
    give a power or a fang: the bot doses its top suspect, from the second night."""
    options = list(sit.decision.options)
    if not options or sit.mem.day < 2 or sit.rng.random() >= DOSE_CHANCE:
        return None
    return sit.best(options, sit.beliefs.of)


POLICIES = {
    "vote_change": vote_change,
    "ghost_note": ghost_note,
    "ghost_note_delivery": ghost_note_delivery,
    "coroner_note": coroner_note,
    "pack_leader_sniff": pack_leader_sniff,
    "forum_seer_sense": forum_seer_sense,
    "psychic_read": psychic_read,
    "insomniac_stay_awake": insomniac_stay_awake,
    "vigilante_shoot": vigilante_shoot,
    "ninja_kill": ninja_kill,
    "guardian_angel_protect": guardian_angel_protect,
    "priest_revive": priest_revive,
    "mad_scientist_dose": mad_scientist_dose,
}
