"""The base game's events (000, The Werewolves of Miller's Hollow): the deal, the
night's roles, deaths, the debate, the votes, the Sheriff and the end of the game.

Each renderer reads one event alone (a history is append-only: an entry must never
change once written) and chooses its sentence from ``prompts/<lang>/events.yaml``;
the narrator's third-person sentences for what a seat reads in the second person are
in ``prompts/<lang>/narration.yaml``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.events import Event
from engine.flow.day import Dawn, DayStart, NoDeath
from engine.flow.leaving import DeathEvent
from engine.flow.main import Center, GameStart, Role
from engine.flow.night import NightStart
from engine.flow.protocols import Bids, DiscussionRound
from engine.flow.sheriff import SheriffCandidates, SheriffElected, SheriffGone, SheriffLost, SheriffSuccessor, SheriffWithdrawn
from engine.flow.victory import GameEnd
from engine.flow.voting import Eliminated, NoElimination, SheriffVotes, TieBroken, VoteResult
from engine.roles.cupid import CupidLovers, Lovers
from engine.roles.hunter import HunterShot
from engine.roles.seer import SeerResult
from engine.roles.thief import ThiefCards, ThiefSwap
from engine.roles.werewolf import (
    LittleGirlCaught, WolfChat, WolfChatOverheard, WolfPack, WolfVictim, WolfVictimOverheard, WolfVotes, WolfVotesOverheard,
)  # fmt: skip
from engine.roles.witch import WitchHealed, WitchPoisoned, WitchVictim
from engine.speech import Speech
from prompts.events_text.reader import Reader
from prompts.events_text.registry import plain, renders, sentence, sided


# ---------------------------------------------------------------------------- told in one sentence
sentence(NightStart)
sentence(Dawn)
sentence(NoDeath)
sentence(WitchPoisoned, "target")
sided(Lovers, "lover", "beloved")
sided(SeerResult, "seer", "target", roles=("role",))
sided(LittleGirlCaught, "player")
sided(WitchHealed, "target")
sided(Eliminated, "player")


# ---------------------------------------------------------------------------- the deal
@renders(GameStart)
def game_start(r: Reader, e: Event, d: GameStart) -> str:
    counts = Counter(d.roles_in_play or [])
    cards = []
    for role, n in counts.items():
        key = "card_one" if n == 1 else "card_many"
        cards.append(r.t(key, name=r.role(role), count=n))
    set_aside = d.set_aside or 0
    extra = r.t("game_start_set_aside", n=set_aside) if set_aside else ""
    players = d.players or []
    # ``players`` is the narrator's: a seat's prompt lists the table elsewhere
    return r.t("game_start", count=len(players), cards=r.join(cards), set_aside=extra, players=r.names(players))


@renders(Role)
def role(r: Reader, e: Event, d: Role) -> str:
    which = "initial" if e.phase == "setup" else "changed"
    player = d.player
    return r.t(f"role.{which}.{r.side(player)}", player=r.who(player), role=r.role(d.role))


@renders(Center)
def center(r: Reader, e: Event, d: Center) -> str:
    return r.t("center", cards=r.join(r.role(c) for c in d.cards or []))


@renders(ThiefCards)
def thief_cards(r: Reader, e: Event, d: ThiefCards) -> str:
    return r.t("thief_cards", cards=r.join(r.role(c) for c in d.cards or []))


@renders(ThiefSwap)
def thief_swap(r: Reader, e: Event, d: ThiefSwap) -> str:
    player, took = d.player, d.took
    which = "kept" if took is None else "took"
    return r.t(f"thief_swap.{which}.{r.side(player)}", player=r.who(player), role=r.role(took))


@renders(CupidLovers)
def cupid_lovers(r: Reader, e: Event, d: CupidLovers) -> str:
    a, b = (list[str | None](d.lovers or []) + [None, None])[:2]
    if r.seat in (a, b):
        return r.t("cupid_lovers.self", other=r.who(b if a == r.seat else a))
    return r.t("cupid_lovers.other", a=r.who(a), b=r.who(b))


# ---------------------------------------------------------------------------- the night


@renders(WolfPack)
def wolf_pack(r: Reader, e: Event, d: WolfPack) -> str:
    wolves = list(d.wolves or [])
    if r.seat in wolves:
        others = [w for w in wolves if w != r.seat]
        # ``wolves``: the narrator names the whole pack
        if others:
            return r.t("wolf_pack.self", others=r.names(others), wolves=r.names(wolves))
        return r.t("wolf_pack.alone")
    return r.t("wolf_pack.other", wolves=r.names(wolves))


@renders(WolfChat)
def wolf_chat(r: Reader, e: Event, d: WolfChat) -> str:
    target = r.t("wolf_chat.target", target=r.who(d.target)) if d.target else ""
    speaker = d.speaker
    if not str(d.text or "").strip():  # a silent turn reads as silence, as a day's does (speech.silent)
        return r.t(f"wolf_chat.silent.{r.side(speaker)}", speaker=r.who(speaker), target=target)
    return r.t(f"wolf_chat.{r.side(speaker)}", speaker=r.who(speaker), text=r.said(d.text), target=target)


@renders(WolfChatOverheard)
def wolf_chat_overheard(r: Reader, e: Event, d: WolfChatOverheard) -> str:
    return r.t("wolf_chat_overheard", text=r.said(d.text))


@renders(WolfVotes)
def wolf_votes(r: Reader, e: Event, d: WolfVotes) -> str:
    return r.t("wolf_votes", votes=r.votes(d.votes or {}), attempt=d.attempt)


@renders(WolfVotesOverheard)
def wolf_votes_overheard(r: Reader, e: Event, d: WolfVotesOverheard) -> str:
    targets = [t for t in d.targets or [] if t is not None]
    attempt = d.attempt
    if not targets:
        return r.t("wolf_votes_overheard.none", attempt=attempt)
    return r.t("wolf_votes_overheard.some", targets=r.names(targets), attempt=attempt)


@renders(WolfVictim, WolfVictimOverheard)
def wolf_victim(r: Reader, e: Event, d: WolfVictim | WolfVictimOverheard) -> str:
    target = d.target
    if target is None:
        return r.t(f"{e.kind}.none")
    return r.t(f"{e.kind}.some", target=r.who(target))


@renders(WitchVictim)
def witch_victim(r: Reader, e: Event, d: WitchVictim) -> str:
    victim = d.victim
    if victim is None:
        return r.t("witch_victim.none")
    if victim == r.seat:
        return r.t("witch_victim.self")
    return r.t("witch_victim.some", target=r.who(victim))


# ---------------------------------------------------------------------------- deaths


@renders(DeathEvent)
def death(r: Reader, e: Event, d: DeathEvent) -> str:
    player = d.player
    side = r.side(player)
    if d.role is not None:  # the card is shown (an omitted field: not recorded when hidden)
        card = r.t(f"death.card.{side}", player=r.who(player), role=r.role(d.role))
    else:
        card = r.t("death.card.hidden")
    return r.t(f"death.{side}", player=r.who(player), cause=r.word("causes", d.cause), card=card)


@renders(DayStart)
def day_start(r: Reader, e: Event, d: DayStart) -> str:
    sheriff = d.sheriff
    key = "none" if sheriff is None else r.side(sheriff)
    alive = list(d.alive or [])
    return r.t(
        "day_start",
        n=d.day,
        count=len(alive),
        alive=r.names(alive),
        sheriff=r.t(f"day_start_sheriff.{key}", sheriff=r.who(sheriff)),
    )


# ---------------------------------------------------------------------------- the debate
def _claims(r: Reader, claims: Any) -> str:
    """Public claims travel beside a speech; shown so lies can be weighed against them.
    Known keys get words; anything else (another agent's extra keys) shows as it is."""
    if not claims:
        return ""
    items: list[str] = []
    if isinstance(claims, dict):
        for key, value in claims.items():
            if value in (None, "", [], {}):
                continue
            if key == "role":
                items.append(r.t("claims.role", role=r.role(value)))
            elif key == "checks" and isinstance(value, list):
                checks = []
                for c in value:
                    if isinstance(c, dict):
                        checks.append(r.t("claims.check", target=r.who(c.get("target")), role=r.role(c.get("role"))))
                    else:
                        checks.append(r.free(plain(c)))
                items.append(r.t("claims.checks", checks=r.join(checks)))
            elif key == "accuses" and isinstance(value, list):
                items.append(r.t("claims.accuses", names=r.names(value)))
            else:
                items.append(r.t("claims.item", key=r.free(key), value=r.free(plain(value))))
    else:
        items.append(r.free(plain(claims)))
    if not items:
        return ""
    return r.t("claims.wrap", items=r.joined("claims.sep", items))


@renders(Speech)
def speech(r: Reader, e: Event, d: Speech) -> str:
    speaker = d.speaker
    text = str(d.text or "")
    claims = _claims(r, d.claims)
    if d.last_words:
        return r.t(f"last_words.{r.side(speaker)}", speaker=r.who(speaker), text=r.said(text), claims=claims)
    if not text.strip():
        return r.t(f"speech.silent.{r.side(speaker)}", speaker=r.who(speaker), claims=claims)
    return r.t(f"speech.{r.side(speaker)}", speaker=r.who(speaker), text=r.said(text), claims=claims)


@renders(DiscussionRound)
def discussion_round(r: Reader, e: Event, d: DiscussionRound) -> str:
    return r.t("discussion_round", round=d.round, speakers=r.names(d.speakers))


@renders(Bids)
def bids(r: Reader, e: Event, d: Bids) -> str:
    """The bids for the floor (``discussion: bidding``), in the order that broke a tie."""
    items = r.table(r.t("bid_item", name=r.who(n), amount=a) for n, a in (d.bids or {}).items())
    speaker = d.speaker
    tail = r.t("bids.none") if speaker is None else r.t(f"bids.{r.side(speaker)}", speaker=r.who(speaker))
    return r.t("bids.heading", turn=d.turn, bids=items) + tail


# ---------------------------------------------------------------------------- the votes
def doubled(d: VoteResult) -> bool:
    """Did the Sheriff's vote count twice? Read from the tally itself, so the words
    need no rule options and show exactly what was counted."""
    sheriff = d.sheriff
    votes = d.votes or {}
    pick = votes.get(sheriff) if sheriff else None
    if pick is None:
        return False
    plain_count = sum(1 for t in votes.values() if t == pick)
    return (d.tally or {}).get(pick, plain_count) > plain_count


@renders(VoteResult)
def vote_result(r: Reader, e: Event, d: VoteResult) -> str:
    double = r.t("vote_double") if doubled(d) else ""
    phantoms = r.t("vote_phantoms", phantoms=r.added(d.phantoms)) if d.phantoms else ""
    return r.t(
        "vote_result",
        round=d.round,
        votes=r.votes(d.votes),
        tally=r.tally(d.tally),
        double=double,
        phantoms=phantoms,
    )


@renders(SheriffVotes)
def sheriff_votes(r: Reader, e: Event, d: SheriffVotes) -> str:
    return r.t("sheriff_votes", round=d.round, votes=r.votes(d.votes), tally=r.tally(d.tally))


@renders(TieBroken)
def tie_broken(r: Reader, e: Event, d: TieBroken) -> str:
    rule, target, by = d.rule, d.target, d.by
    key = rule if r.cat.has(f"events.tie_broken.{rule}") else "other"
    if rule == "choose" and target is None:
        key = "choose_void"
    return r.t(f"tie_broken.{key}", by=r.who(by), target=r.who(target))


@renders(NoElimination)
def no_elimination(r: Reader, e: Event, d: NoElimination) -> str:
    reason = d.reason
    key = reason if r.cat.has(f"events.no_elimination.{reason}") else "other"
    return r.t(f"no_elimination.{key}")


@renders(HunterShot)
def hunter_shot(r: Reader, e: Event, d: HunterShot) -> str:
    hunter, target = d.hunter, d.target
    key = r.side(hunter)
    if target is None:
        key = "self_none" if key == "self" else "none"
    return r.t(f"hunter_shot.{key}", hunter=r.who(hunter), target=r.who(target))


# ---------------------------------------------------------------------------- the Sheriff
@renders(SheriffElected)
def sheriff_elected(r: Reader, e: Event, d: SheriffElected) -> str:
    player = d.player
    lot = r.t("sheriff_elected.lot") if d.by_lot else ""
    if d.unopposed:  # 狼人杀 candidacy: the last candidate standing
        lot = r.t("sheriff_elected.unopposed")
    return r.t(f"sheriff_elected.{r.side(player)}", player=r.who(player), lot=lot)


@renders(SheriffGone)
def sheriff_gone(r: Reader, e: Event, d: SheriffGone) -> str:
    previous = d.previous
    if d.torn:  # 撕警徽
        return r.t("sheriff_gone.torn_self" if previous == r.seat else "sheriff_gone.torn", previous=r.who(previous))
    return r.t("sheriff_gone.other", previous=r.who(previous))


@renders(SheriffSuccessor)
def sheriff_successor(r: Reader, e: Event, d: SheriffSuccessor) -> str:
    previous, player = d.previous, d.player
    key = "previous_self" if previous == r.seat else r.side(player)
    return r.t(f"sheriff_successor.{key}", previous=r.who(previous), player=r.who(player))


@renders(SheriffCandidates)
def sheriff_candidates(r: Reader, e: Event, d: SheriffCandidates) -> str:
    if d.candidates:
        return r.t("sheriff_candidates.some", players=r.names(d.candidates))
    return r.t("sheriff_candidates.none")


@renders(SheriffWithdrawn)
def sheriff_withdrawn(r: Reader, e: Event, d: SheriffWithdrawn) -> str:
    return r.t("sheriff_withdrawn", players=r.names(d.players), candidates=r.names(d.candidates))


@renders(SheriffLost)
def sheriff_lost(r: Reader, e: Event, d: SheriffLost) -> str:
    return r.t("sheriff_lost.no_candidate" if d.reason == "no candidate" else "sheriff_lost.no_voter")


# ---------------------------------------------------------------------------- the end
def end_reason(r: Reader, reason: Any) -> str:
    """The engine states its reason in English; read it in the reader's language.
    The day limit carries a number, matched as ``N``; a reason not listed is shown
    as the engine wrote it."""
    reason = str(reason)
    digits = "".join(ch for ch in reason if ch.isdigit())
    key = reason.replace(digits, "N") if digits else reason
    found = r.cat.get("terms.end_reasons")
    if isinstance(found, dict) and key in found:
        return r.text(r.cat.fill(found[key], n=digits))
    return r.text(reason)


def winner_line(r: Reader, winner: Any) -> str:
    """"The village wins." (``terms.winners``), for any winner the engine names."""
    path = f"terms.winners.{winner}"
    return r.term(path if r.cat.has(path) else "terms.winners.other", winner=winner)


@renders(GameEnd)
def game_end(r: Reader, e: Event, d: GameEnd) -> str:
    initial = d.initial_roles or {}
    cards = []
    for player, card in (d.roles or {}).items():
        first = initial.get(player, card)
        if first != card:
            cards.append(r.t("game_end_card_changed", player=r.who(player), role=r.role(card), initial=r.role(first)))
        else:
            cards.append(r.t("game_end_card", player=r.who(player), role=r.role(card)))
    pair = d.lovers
    lovers_text = r.t("game_end_lovers", a=r.who(pair[0]), b=r.who(pair[1])) if pair and len(pair) == 2 else ""
    return r.t(
        "game_end",
        winner=winner_line(r, d.winner),
        reason=end_reason(r, d.reason),
        winners=r.names(d.winners or []),
        cards=r.table(cards),
        lovers=lovers_text,
    )
