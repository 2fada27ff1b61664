"""Events of message-board Werewolf (004, the forum): the open lynch vote and its
changes, sundown, phantom votes, ghost notes, and the forum's roles (the Vigilante,
the Priest, the Coroner, the Pack Leader, the forum's Seer, the Psychic, the
Insomniac, the Ninja, the Guardian Angel, the Mad Scientist, the Unknown Celebrity)."""

from __future__ import annotations

from typing import Any

from engine.events import Event
from prompts.events_text.reader import Reader
from prompts.events_text.registry import renders, sentence, sided

# Told in one sentence
sentence("sundown")
sided("vigilante_shot", "shooter", "target")
sentence("gun_found", "previous", "player")
sentence("priest_revive", "target")
sided("psychic_result", "target", roles=("role",))
sentence("insomniac_seen", "insomniac")
sentence("mad_scientist_dose", "target")
sentence("mutated", roles=("role",))
sentence("sundown_extended", numbers=("day", "rounds"))


@renders("votes_cast")
def votes_cast(r: Reader, e: Event) -> str:
    return r.t("votes_cast", votes=r.votes(e.data.get("votes")))


@renders("vote_change")
def vote_change(r: Reader, e: Event) -> str:
    d = e.data
    voter, previous, target = d.get("voter"), d.get("previous"), d.get("target")
    side = r.side(voter)

    def pick(name: Any) -> str:  # a vote for oneself reads "yourself" / "themself"
        if name is not None and name == voter:
            return r.t("vote_change.yourself" if side == "self" else "vote_change.themself")
        return r.who(name)

    key = f"vote_change.fresh.{side}" if previous is None else f"vote_change.{side}"
    return r.t(key, voter=r.who(voter), previous=pick(previous), target=pick(target), round=d.get("round", 1))


@renders("phantom_votes")
def phantom_votes(r: Reader, e: Event) -> str:
    players = list(e.data.get("players") or [])
    if r.seat in players:
        others = [p for p in players if p != r.seat]
        more = r.t("phantom_votes.others", players=r.names(others)) if others else ""
        return r.t("phantom_votes.self", others=more)
    return r.t(f"phantom_votes.{'one' if len(players) == 1 else 'many'}", players=r.names(players))


@renders("lynch_cancelled")
def lynch_cancelled(r: Reader, e: Event) -> str:
    carried = e.data.get("carried") or {}
    more = r.t("lynch_cancelled_carried", phantoms=r.added(carried)) if carried else ""
    return r.t("lynch_cancelled", n=e.data.get("day", e.day), carried=more)


@renders("reprimand")
def reprimand(r: Reader, e: Event) -> str:
    """The Host's phantom votes for impersonation, with the forged line quoted as the
    player's own words (it must never read as the game's line it imitates)."""
    d = e.data
    player = d.get("player")
    return r.t(f"reprimand.{r.side(player)}", player=r.who(player), votes=d.get("votes"), line=r.said(d.get("line")))


@renders("coroner_note_hidden")
def coroner_note_hidden(r: Reader, e: Event) -> str:
    text = e.data.get("text") or ""
    return r.t(f"coroner_note_hidden.{'some' if text else 'none'}", author=r.who(e.data.get("author")), text=r.said(text))


@renders("coroner_note")
def coroner_note(r: Reader, e: Event) -> str:
    return r.t("coroner_note", author=r.who(e.data.get("author")), text=r.said(e.data.get("text")))


@renders("celebrity_news")
def celebrity_news(r: Reader, e: Event) -> str:
    player = e.data.get("player")
    return r.t(f"celebrity_news.{r.side(player)}", player=r.who(player), n=e.data.get("day", e.day))


@renders("revived")
def revived(r: Reader, e: Event) -> str:
    player, priest = e.data.get("player"), e.data.get("priest")
    if priest is None:  # by night: the table is not told who brought them back
        return r.t(f"revived.night.{r.side(player)}", player=r.who(player))
    key = "priest_self" if priest == r.seat else r.side(player)
    return r.t(f"revived.day.{key}", player=r.who(player), priest=r.who(priest))


@renders("ghost_note")
def ghost_note(r: Reader, e: Event) -> str:
    d = e.data
    author, reader = d.get("author"), d.get("reader")
    text = r.said(d.get("text") or "")
    if "reader" not in d:
        return r.t(f"ghost_note.public.{r.side(author)}", author=r.who(author), text=text)
    key = "author" if author == r.seat else "reader" if reader == r.seat else "other"
    return r.t(f"ghost_note.private.{key}", author=r.who(author), reader=r.who(reader), text=text)


@renders("coroner_report")
def coroner_report(r: Reader, e: Event) -> str:
    d = e.data
    return r.t("coroner_report", target=r.who(d.get("target")), cause=r.word("causes", d.get("cause")), role=r.role(d.get("role")))


@renders("pack_leader_sniff")
def pack_leader_sniff(r: Reader, e: Event) -> str:
    target = r.who(e.data.get("target"))
    if e.data.get("role"):  # "In really big games, he might even be told what it is"
        return r.t("pack_leader_sniff.exact", target=target, role=r.role(e.data["role"]))
    return r.t(f"pack_leader_sniff.{'true' if e.data.get('auxiliary') else 'false'}", target=target)


@renders("seer_spotted")
def seer_spotted(r: Reader, e: Event) -> str:
    return r.t(
        "seer_spotted.who" if e.data.get("player") else "seer_spotted.act",
        role=r.role(e.data.get("role")),
        player=r.who(e.data.get("player")),
    )


@renders("forum_seer_sense")
def forum_seer_sense(r: Reader, e: Event) -> str:
    count = int(e.data.get("wolves") or 0)
    key = "none" if count == 0 else "one" if count == 1 else "many"
    return r.t(f"forum_seer_sense.{key}", count=count)


@renders("insomniac_saw")
def insomniac_saw(r: Reader, e: Event) -> str:
    wolf = e.data.get("wolf")
    return r.t("insomniac_saw.none") if wolf is None else r.t("insomniac_saw.some", wolf=r.who(wolf))


@renders("ninja_saw")
def ninja_saw(r: Reader, e: Event) -> str:
    seen = e.data.get("seen") or {}
    target = r.who(e.data.get("target"))
    if not seen:
        return r.t("ninja_saw.none", target=target)
    items = [r.t("ninja_saw.item", player=r.who(n), role=r.role(role)) for n, role in seen.items()]
    return r.t("ninja_saw.some", target=target, seen=r.join(items))


@renders("guardian_angel_saved")
def guardian_angel_saved(r: Reader, e: Event) -> str:
    target, angel = e.data.get("target"), e.data.get("angel")
    if angel is not None and angel != r.seat:  # a save that blew her cover (004)
        return r.t("guardian_angel_saved.public", angel=r.who(angel), target=r.who(target))
    return r.t(f"guardian_angel_saved.{r.side(target)}", target=r.who(target))


