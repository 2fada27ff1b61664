"""Events of the Best of Werewolves roles and of 狼人杀 (Chinese Werewolf): the
Protector, the Sisters, the Fox, the Wild Child, the Wolf-Hound, the solitary
wolves, the Pied Piper, the Angel, the Bear Tamer, the Idiot, the Elder, the Rusty
Knight."""

from __future__ import annotations

from engine.events import Event
from prompts.events_text.reader import Reader
from prompts.events_text.registry import renders, sentence, sided

# Told in one sentence (``paramours``' lover, ``infected``'s player... are the narrator's)
sided("protector_guard", "target")
sentence("wild_child_model", "model")
sentence("wild_child_turned", "model", "player")
sentence("infect_father", "target")
sentence("infected", "player")
sentence("infection_failed", "target", "father")
sentence("big_bad_wolf_victim", "target")
sentence("pied_piper_charm", lists=("targets",))
sentence("charmed", "player")
sentence("charmed_players", lists=("players",))
sentence("hypnotised", "player")
sentence("cupid_paramours", "deceiver", "paramour", "abandoned")
sentence("paramours", "paramour", "lover")
sentence("elder_life", "player", numbers=("lives",))
sentence("rusty_sword", "knight", "wolf")


@renders("sisters")
def sisters(r: Reader, e: Event) -> str:
    everyone = list(e.data.get("sisters") or [])
    others = [n for n in everyone if n != r.seat]
    return r.t("sisters", others=r.names(others), sisters=r.names(everyone))


@renders("sister_chat")
def sister_chat(r: Reader, e: Event) -> str:
    speaker = e.data.get("speaker")
    return r.t(f"sister_chat.{r.side(speaker)}", speaker=r.who(speaker), text=r.said(e.data.get("text", "")))


@renders("fox_result")
def fox_result(r: Reader, e: Event) -> str:
    d = e.data
    key = "wolf" if d.get("wolf") else "clear"
    return r.t(f"fox_result.{key}", target=r.who(d.get("target")), group=r.names(d.get("group")))


@renders("wolf_hound_side")
def wolf_hound_side(r: Reader, e: Event) -> str:
    return r.t(f"wolf_hound_side.{'werewolves' if e.data.get('side') == 'werewolves' else 'village'}")


@renders("white_werewolf_kill")
def white_werewolf_kill(r: Reader, e: Event) -> str:
    target = e.data.get("target")
    return r.t("white_werewolf_kill.none") if target is None else r.t("white_werewolf_kill.some", target=r.who(target))


@renders("angel_villager")
def angel_villager(r: Reader, e: Event) -> str:
    reason = e.data.get("reason")
    return r.t(f"angel_villager.{'love' if reason == 'love' else 'first_round'}")


@renders("bear_growl")
def bear_growl(r: Reader, e: Event) -> str:
    return r.t(f"bear_growl.{'true' if e.data.get('growl') else 'false'}")


@renders("idiot_revealed")
def idiot_revealed(r: Reader, e: Event) -> str:
    player = e.data.get("player")
    return r.t(f"idiot_revealed.{r.side(player)}", player=r.who(player), role=r.role(e.data.get("role", "idiot")))


@renders("village_powers_lost")
def village_powers_lost(r: Reader, e: Event) -> str:
    d = e.data
    return r.t(
        "village_powers_lost_listed" if d.get("roles") else "village_powers_lost",
        elder=r.who(d.get("elder")),
        cause=r.word("causes", d.get("cause")),
        roles=r.join(r.role(x) for x in d.get("roles") or ()),
    )


