"""The Werewolves: the pack wakes, talks privately, and designates a victim (000 "Normal Turn" 2).

Every living wolf answers ``wolf_kill``; ``wolf_pack`` says how the answers resolve
(000: they must agree, else "there will be no death that night"). A Little Girl who
spies reads along without names (see ``engine.roles.little_girl``)."""

from collections import Counter

from engine.decisions import CHOICE, TEXT
from engine.roles.base import WEREWOLVES, NightStep, RoleSpec, register_role, register_step

WEREWOLF = register_role(
    RoleSpec(
        id="werewolf",
        name="Werewolf",
        camp=WEREWOLVES,
        is_wolf=True,
        summary="Each night you and the other werewolves choose a villager to devour. By day, pass yourself off as a villager.",
        decisions=("wolf_chat", "wolf_kill"),
        presets=("millers_hollow", "millers_hollow_es", "best_of", "langrensha"),
    )
)


def _active(game) -> bool:
    for p in game.players:  # ``bool(game.wolves())`` without building the list, every night
        if p.alive and p.is_wolf:
            return True
    return False


def _resolve(game, picks: list) -> tuple[bool, str | None]:
    """(decided, victim). ``None`` picks are a wolf declining to kill."""
    rule = game.options.wolf_pack
    n = len(picks)
    if rule == "unanimous":
        return (True, picks[0]) if len(set(picks)) == 1 else (False, None)
    if rule == "majority":
        for target, c in Counter(picks).items():
            if c * 2 > n:
                return True, target
        return False, None
    real = Counter(p for p in picks if p is not None)
    if not real:
        return True, None
    top = max(real.values())
    leaders = sorted(t for t, c in real.items() if c == top)
    return True, (leaders[0] if len(leaders) == 1 else game.rng.choice(leaders))


def _run(game):
    # Run every night: the pack's calls use the positional forms (``Game.emit_data``).
    opts = game.options
    pack = [p.name for p in game.players if p.alive and p.is_wolf]  # ``game.wolves()``' names
    pack_audience = frozenset(pack)  # ``game.private(*pack)``
    if game.memory.get("pack") != pack:
        game.memory["pack"] = pack
        for w in pack:
            game.emit_data("wolf_pack", game.private_to(w), {"wolves": list(pack)})
    spies = game.night.get("spies", [])
    spy_audience = game.private(*spies) if spies else None

    if len(pack) >= 2:
        for rnd in range(1, opts.wolf_chat_rounds + 1):
            for w in pack:
                d = game.ask_with(w, "wolf_chat", (), {"round": rnd, "wolves": list(pack)}, TEXT)
                said = (yield [d])[d.id]  # ``ask_one`` inlined: one round trip per wolf and night
                text = said.get("text", "") if isinstance(said, dict) else said
                data = {"speaker": w, "text": text, "round": rnd}
                if isinstance(said, dict) and said.get("target"):
                    data["target"] = said["target"]
                game.emit_data("wolf_chat", pack_audience, data)
                if spies:
                    game.emit("wolf_chat_overheard", spy_audience, text=text, round=rnd)

    caught = None
    if spies and game.rng.random() < opts.little_girl_catch_chance:
        caught = spies[0]
        game.emit("little_girl_caught", game.private(*pack, caught), player=caught)
        if opts.little_girl_caught == "dies":
            game.night["kills"].append((caught, "werewolves"))
            game.night["attacked"].append(caught)
            game.night["wolf_victim"] = caught
            game.emit("wolf_victim", pack_audience, target=caught)
            return

    victim = None
    # The Village: "The Werewolves do not devour" the Tavernkeeper.
    shelter = tuple(game.sheltered.get("devour", ())) if game.sheltered else ()
    for attempt in range(1, max(1, opts.wolf_kill_rounds) + 1):
        decisions = []
        # Without Lovers (``game.spared``) and with the pack off limits, every wolf has
        # the same choice: it is worked out once for the pack.
        shared = None
        if pack and not opts.wolves_may_kill_wolf and not game.spared:
            shared = game.targets(pack[0], False, tuple(pack) + shelter)  # positional: see ``Game.emit_data``
        for w in pack:
            if shared is not None:
                options = shared
            elif opts.wolves_may_kill_wolf:
                options = game.targets(w, exclude=shelter)
            else:
                options = game.targets(w, exclude=tuple(pack) + shelter)
            context = {"attempt": attempt, "caught": caught}
            decisions.append(game.ask_with(w, "wolf_kill", options, context, CHOICE, opts.wolves_may_pass or not options))
        answers = yield decisions  # ``ask`` inlined: every night
        picks = [answers[d.id] for d in decisions]
        game.emit_data("wolf_votes", pack_audience, {"votes": dict(zip(pack, picks)), "attempt": attempt})
        if spies:
            game.emit("wolf_votes_overheard", spy_audience, targets=sorted(p for p in picks if p), attempt=attempt)
        # A wolf with nobody he may attack (only his beloved is left outside the pack)
        # has no say: counting his forced pass would stop a unanimous pack forever.
        voting = [pick for d, pick in zip(decisions, picks) if d.options]
        decided, victim = _resolve(game, voting) if voting else (True, None)
        if decided:
            break
    game.emit_data("wolf_victim", pack_audience, {"target": victim})
    if spies:
        game.emit("wolf_victim_overheard", spy_audience, target=victim)
    if victim is not None:
        game.night["kills"].append((victim, "werewolves"))
        game.night["attacked"].append(victim)
    game.night["wolf_victim"] = victim


register_step(NightStep(name="werewolves", order=200, run=_run, active=_active, group="night_main"))


# ---------------------------------------------------------------------- a 狼人杀 variant
def _hypnotise(game):
    """Lycanthropic Fascination (001 zh, option ``wolves_hypnotise``): "每一个晚上，狼人
    睁眼指定一名玩家，该玩家并不会死掉，而是被催眠，失去他原有的能力（和普通村民无异）…法官用手
    轻碰该玩家的头，告诉这名玩家，他被催眠了" -- the pack's victim does not die but loses
    the power of their card for good, and is told so."""
    night = game.night
    victim = night.get("wolf_victim")
    if victim is None:
        return
    night["kills"] = [(n, c) for n, c in night["kills"] if not (n == victim and c == "werewolves")]
    night["attacked"] = [n for n in night["attacked"] if n != victim]
    game.by_name[victim].powerless = True
    game.emit("hypnotised", game.private(victim), player=victim)
    return
    yield


register_step(
    NightStep(
        name="hypnosis",
        order=205,
        run=_hypnotise,
        active=lambda game: game.night.get("wolf_victim") is not None,
        when=lambda o: o.wolves_hypnotise,
    )
)
