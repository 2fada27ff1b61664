"""The Witch: one healing and one poisoning potion per game (000 "The Witch").

She is shown the wolves' victim, then may heal it and may poison someone. Whether she
may heal herself (``witch_self_heal``) and use both potions the same night
(``witch_both_potions_same_night``) are options. A potion already spent is still
offered as a decision with only "no" legal, so an attempt at a second heal is refused
with its reason instead of being silently skipped."""

from engine.flow.common import ask_one
from engine.roles.base import VILLAGE, NightStep, RoleSpec, register_role, register_step

WITCH = register_role(
    RoleSpec(
        id="witch",
        name="Witch",
        camp=VILLAGE,
        summary="You have one healing potion (save the werewolves' victim) and one poison (kill a player), each usable once per game.",
        decisions=("witch_heal", "witch_poison"),
    )
)


def _active(game) -> bool:
    return game.has_alive("witch")


def _run(game):
    opts = game.options
    for witch in game.with_role("witch"):
        st = witch.state
        st.setdefault("heal", True)
        st.setdefault("poison", True)
        kills = game.night["kills"]
        victim = next((n for n, c in kills if c == "werewolves"), None)
        game.emit("witch_victim", game.private(witch.name), victim=victim)
        reason = ""
        if not st["heal"]:
            reason = "the healing potion is already used"
        elif victim is None:
            reason = "nobody was attacked tonight"
        elif victim == witch.name and not opts.witch_self_heal:
            reason = "the Witch may not heal herself under these rules"
        healed = yield from ask_one(
            game.ask_bool(witch.name, "witch_heal", not reason, victim=victim, **({"unavailable": reason} if reason else {}))
        )
        if healed:
            st["heal"] = False
            game.night["kills"] = [(n, c) for n, c in kills if not (n == victim and c == "werewolves")]
            game.emit("witch_healed", game.private(witch.name), target=victim)
        reason = ""
        if not st["poison"]:
            reason = "the poison is already used"
        elif healed and not opts.witch_both_potions_same_night:
            reason = "only one potion a night under these rules"
        options = () if reason else game.targets(witch.name)
        target = yield from ask_one(
            game.ask(witch.name, "witch_poison", options, allow_pass=True, **({"unavailable": reason} if reason else {}))
        )
        if target is not None:
            st["poison"] = False
            game.night["kills"].append((target, "poison"))
            game.emit("witch_poisoned", game.private(witch.name), target=target)


register_step(NightStep(name="witch", order=300, run=_run, active=_active))
