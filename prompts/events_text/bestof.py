"""Events of the Best of Werewolves roles and of 狼人杀 (Chinese Werewolf): the
Protector, the Sisters, the Fox, the Wild Child, the Wolf-Hound, the solitary
wolves, the Pied Piper, the Angel, the Bear Tamer, the Idiot, the Elder, the Rusty
Knight."""

from __future__ import annotations

from engine.events import Event
from engine.roles.angel import AngelVillager
from engine.roles.bear_tamer import BearGrowl
from engine.roles.big_bad_wolf import BigBadWolfVictim
from engine.roles.cupid import CupidParamours, Paramours
from engine.roles.elder import ElderLife, VillagePowersLost
from engine.roles.fox import FoxResult
from engine.roles.idiot import IdiotRevealed
from engine.roles.infect_father import InfectFatherInfected, Infected, InfectionFailed
from engine.roles.pied_piper import Charmed, CharmedPlayers, PiedPiperCharm
from engine.roles.protector import ProtectorGuard
from engine.roles.rusty_knight import RustySword
from engine.roles.sister import SisterChat, Sisters
from engine.roles.werewolf import Hypnotised
from engine.roles.white_werewolf import WhiteWerewolfKill
from engine.roles.wild_child import WildChildModel, WildChildTurned
from engine.roles.wolf_hound import WolfHoundSide
from prompts.events_text.reader import Reader
from prompts.events_text.registry import renders, sentence, sided

# Told in one sentence (``paramours``' lover, ``infected``'s player... are the narrator's)
sided(ProtectorGuard, "target")
sided(IdiotRevealed, "player", roles=("role",))
sentence(WildChildModel, "model")
sentence(WildChildTurned, "model", "player")
sentence(InfectFatherInfected, "target")
sentence(Infected, "player")
sentence(InfectionFailed, "target", "father")
sentence(BigBadWolfVictim, "target")
sentence(PiedPiperCharm, lists=("targets",))
sentence(Charmed, "player")
sentence(CharmedPlayers, lists=("players",))
sentence(Hypnotised, "player")
sentence(CupidParamours, "deceiver", "paramour", "abandoned")
sentence(Paramours, "paramour", "lover")
sentence(ElderLife, "player", numbers=("lives",))
sentence(RustySword, "knight", "wolf")


@renders(Sisters)
def sisters(r: Reader, e: Event, d: Sisters) -> str:
    everyone = list(d.sisters or [])
    others = [n for n in everyone if n != r.seat]
    return r.t("sisters", others=r.names(others), sisters=r.names(everyone))


@renders(SisterChat)
def sister_chat(r: Reader, e: Event, d: SisterChat) -> str:
    speaker = d.speaker
    if not str(d.text or "").strip():  # a silent turn reads as silence (speech.silent)
        return r.t(f"sister_chat.silent.{r.side(speaker)}", speaker=r.who(speaker))
    return r.t(f"sister_chat.{r.side(speaker)}", speaker=r.who(speaker), text=r.said(d.text))


@renders(FoxResult)
def fox_result(r: Reader, e: Event, d: FoxResult) -> str:
    key = "wolf" if d.wolf else "clear"
    return r.t(f"fox_result.{key}", target=r.who(d.target), group=r.names(d.group))


@renders(WolfHoundSide)
def wolf_hound_side(r: Reader, e: Event, d: WolfHoundSide) -> str:
    return r.t(f"wolf_hound_side.{'werewolves' if d.side == 'werewolves' else 'village'}")


@renders(WhiteWerewolfKill)
def white_werewolf_kill(r: Reader, e: Event, d: WhiteWerewolfKill) -> str:
    target = d.target
    return r.t("white_werewolf_kill.none") if target is None else r.t("white_werewolf_kill.some", target=r.who(target))


@renders(AngelVillager)
def angel_villager(r: Reader, e: Event, d: AngelVillager) -> str:
    return r.t(f"angel_villager.{'love' if d.reason == 'love' else 'first_round'}")


@renders(BearGrowl)
def bear_growl(r: Reader, e: Event, d: BearGrowl) -> str:
    return r.t(f"bear_growl.{'true' if d.growl else 'false'}")


@renders(VillagePowersLost)
def village_powers_lost(r: Reader, e: Event, d: VillagePowersLost) -> str:
    return r.t(
        "village_powers_lost_listed" if d.roles else "village_powers_lost",
        elder=r.who(d.elder),
        cause=r.word("causes", d.cause),
        roles=r.join(r.role(x) for x in d.roles or ()),
    )


