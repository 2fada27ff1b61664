"""Events of message-board Werewolf (004, the forum): the open lynch vote and its
changes, sundown, phantom votes, ghost notes, and the forum's roles (the Vigilante,
the Priest, the Coroner, the Pack Leader, the forum's Seer, the Psychic, the
Insomniac, the Ninja, the Guardian Angel, the Mad Scientist, the Unknown Celebrity)."""

from __future__ import annotations

from typing import Any

from engine.events import Event
from engine.flow.forum import LynchCancelled, PhantomVotes, Reprimand, Sundown, SundownExtended, VoteChanged, VotesCast
from engine.flow.ghost_notes import CoronerNote, CoronerNoteHidden, GhostNote
from engine.roles.coroner import CoronerReport
from engine.roles.forum_seer import ForumSeerSense, SeerSpotted
from engine.roles.guardian_angel import GuardianAngelSaved
from engine.roles.insomniac import InsomniacSaw, InsomniacSeen
from engine.roles.mad_scientist import MadScientistDose, Mutated
from engine.roles.ninja import NinjaSaw
from engine.roles.pack_leader import PackLeaderSniff
from engine.roles.priest import PriestRevive, Revived
from engine.roles.psychic import PsychicResult
from engine.roles.unknown_celebrity import CelebrityNews
from engine.roles.vigilante import GunFound, VigilanteShot
from prompts.events_text.reader import Reader
from prompts.events_text.registry import renders, sentence, sided

# Told in one sentence
sentence(Sundown)
sided(VigilanteShot, "shooter", "target")
sentence(GunFound, "previous", "player")
sentence(PriestRevive, "target")
sided(PsychicResult, "target", roles=("role",))
sentence(InsomniacSeen, "insomniac")
sentence(MadScientistDose, "target")
sentence(Mutated, roles=("role",))
sentence(SundownExtended, numbers=("day", "rounds"))


@renders(VotesCast)
def votes_cast(r: Reader, e: Event, d: VotesCast) -> str:
    return r.t("votes_cast", votes=r.votes(d.votes))


@renders(VoteChanged)
def vote_change(r: Reader, e: Event, d: VoteChanged) -> str:
    voter, previous, target = d.voter, d.previous, d.target
    side = r.side(voter)

    def pick(name: Any) -> str:  # a vote for oneself reads "yourself" / "themself"
        if name is not None and name == voter:
            return r.t("vote_change.yourself" if side == "self" else "vote_change.themself")
        return r.who(name)

    key = f"vote_change.fresh.{side}" if previous is None else f"vote_change.{side}"
    return r.t(key, voter=r.who(voter), previous=pick(previous), target=pick(target), round=d.round)


@renders(PhantomVotes)
def phantom_votes(r: Reader, e: Event, d: PhantomVotes) -> str:
    players = list(d.players or [])
    if r.seat in players:
        others = [p for p in players if p != r.seat]
        more = r.t("phantom_votes.others", players=r.names(others)) if others else ""
        return r.t("phantom_votes.self", others=more)
    return r.t(f"phantom_votes.{'one' if len(players) == 1 else 'many'}", players=r.names(players))


@renders(LynchCancelled)
def lynch_cancelled(r: Reader, e: Event, d: LynchCancelled) -> str:
    carried = d.carried or {}
    more = r.t("lynch_cancelled_carried", phantoms=r.added(carried)) if carried else ""
    return r.t("lynch_cancelled", n=d.day, carried=more)


@renders(Reprimand)
def reprimand(r: Reader, e: Event, d: Reprimand) -> str:
    """The Host's phantom votes for impersonation, with the forged line quoted as the
    player's own words (it must never read as the game's line it imitates)."""
    player = d.player
    return r.t(f"reprimand.{r.side(player)}", player=r.who(player), votes=d.votes, line=r.said(d.line))


@renders(CoronerNoteHidden)
def coroner_note_hidden(r: Reader, e: Event, d: CoronerNoteHidden) -> str:
    text = d.text or ""
    return r.t(f"coroner_note_hidden.{'some' if text else 'none'}", author=r.who(d.author), text=r.said(text))


@renders(CoronerNote)
def coroner_note(r: Reader, e: Event, d: CoronerNote) -> str:
    return r.t("coroner_note", author=r.who(d.author), text=r.said(d.text))


@renders(CelebrityNews)
def celebrity_news(r: Reader, e: Event, d: CelebrityNews) -> str:
    player = d.player
    return r.t(f"celebrity_news.{r.side(player)}", player=r.who(player), n=d.day)


@renders(Revived)
def revived(r: Reader, e: Event, d: Revived) -> str:
    player, priest = d.player, d.priest
    if priest is None:  # by night: the table is not told who brought them back
        return r.t(f"revived.night.{r.side(player)}", player=r.who(player))
    key = "priest_self" if priest == r.seat else r.side(player)
    return r.t(f"revived.day.{key}", player=r.who(player), priest=r.who(priest))


@renders(GhostNote)
def ghost_note(r: Reader, e: Event, d: GhostNote) -> str:
    author, reader = d.author, d.reader
    text = r.said(d.text or "")
    if reader is None:  # a public note (an omitted field: not recorded then)
        return r.t(f"ghost_note.public.{r.side(author)}", author=r.who(author), text=text)
    key = "author" if author == r.seat else "reader" if reader == r.seat else "other"
    return r.t(f"ghost_note.private.{key}", author=r.who(author), reader=r.who(reader), text=text)


@renders(CoronerReport)
def coroner_report(r: Reader, e: Event, d: CoronerReport) -> str:
    return r.t("coroner_report", target=r.who(d.target), cause=r.word("causes", d.cause), role=r.role(d.role))


@renders(PackLeaderSniff)
def pack_leader_sniff(r: Reader, e: Event, d: PackLeaderSniff) -> str:
    target = r.who(d.target)
    if d.role:  # "In really big games, he might even be told what it is"
        return r.t("pack_leader_sniff.exact", target=target, role=r.role(d.role))
    return r.t(f"pack_leader_sniff.{'true' if d.auxiliary else 'false'}", target=target)


@renders(SeerSpotted)
def seer_spotted(r: Reader, e: Event, d: SeerSpotted) -> str:
    return r.t(
        "seer_spotted.who" if d.player else "seer_spotted.act",
        role=r.role(d.role),
        player=r.who(d.player),
    )


@renders(ForumSeerSense)
def forum_seer_sense(r: Reader, e: Event, d: ForumSeerSense) -> str:
    count = int(d.wolves or 0)
    key = "none" if count == 0 else "one" if count == 1 else "many"
    return r.t(f"forum_seer_sense.{key}", count=count)


@renders(InsomniacSaw)
def insomniac_saw(r: Reader, e: Event, d: InsomniacSaw) -> str:
    wolf = d.wolf
    return r.t("insomniac_saw.none") if wolf is None else r.t("insomniac_saw.some", wolf=r.who(wolf))


@renders(NinjaSaw)
def ninja_saw(r: Reader, e: Event, d: NinjaSaw) -> str:
    seen = d.seen or {}
    target = r.who(d.target)
    if not seen:
        return r.t("ninja_saw.none", target=target)
    items = [r.t("ninja_saw.item", player=r.who(n), role=r.role(role)) for n, role in seen.items()]
    return r.t("ninja_saw.some", target=target, seen=r.join(items))


@renders(GuardianAngelSaved)
def guardian_angel_saved(r: Reader, e: Event, d: GuardianAngelSaved) -> str:
    target, angel = d.target, d.angel
    if angel is not None and angel != r.seat:  # a save that blew her cover (004)
        return r.t("guardian_angel_saved.public", angel=r.who(angel), target=r.who(target))
    return r.t(f"guardian_angel_saved.{r.side(target)}", target=r.who(target))


