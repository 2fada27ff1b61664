"""The Werewolves: the pack wakes, talks privately, and designates a victim (000 "Normal Turn" 2).

Every living wolf answers ``wolf_kill``; ``wolf_pack`` says how the answers resolve
(000: they must agree, else "there will be no death that night"). A Little Girl who
spies reads along without names (see ``engine.roles.little_girl``).

``wolf_pack: first_named`` (004 Article 5-A, the ``forum`` default): "the first Wolf PM
I receive that has a name on it will be the final kill decision for that Night". The
Host's inbox is modelled with the game's clock: the wolves are asked in turn (seat
order, starting one wolf later each night), each may send the name (final: the wolves
after him are not asked) or leave it to the next (null); the last may not, unless the
pack may pass or a silent pack pays for it (below).

``wolves_silent`` says what a pack that names nobody pays, every wolf having passed
(with a victim to name): nothing (``no_kill``); 001 en "If no werewolves open their eyes,
they die of hunger and the villagers win" (``starve``: every living wolf dies at dawn,
cause ``hunger``); 004 Article 5-B "If the Wolves fail to PM me by the deadline, one of
THEM will die instead" (``one_dies``: one wolf drawn by lot, cause ``deadline``). Either
makes passing legal for every wolf: keeping one's eyes shut is the choice.

``wolves_exposed_idle`` (001 zh glossary, 失业狼人, "an unemployed wolf": "某些规则下，狼人在
被村民发现后，无法继续杀害其他玩家"): a werewolf the Seer has seen is found out; from the
next night he still wakes and talks with the pack but has no say in the kill."""

from collections import Counter

from engine.decisions import CHOICE, TEXT, decision
from engine.roles.base import WEREWOLVES, NightStep, RoleSpec, register_role, register_step

WOLF_CHAT = decision("wolf_chat", TEXT, unmeasured="the pack's talk")
WOLF_KILL = decision("wolf_kill", CHOICE, unmeasured="the pack's kill: its options are humans, the wolves know who is who")

WEREWOLF = register_role(
    RoleSpec(
        id="werewolf",
        name="Werewolf",
        camp=WEREWOLVES,
        is_wolf=True,
        summary="Each night you and the other werewolves choose a villager to devour. By day, pass yourself off as a villager.",
        decisions=(WOLF_CHAT, WOLF_KILL),
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


def idle(game) -> tuple:
    """The wolves found out before tonight (``wolves_exposed_idle``): no say in the kill."""
    found = game.memory.get("exposed_wolves")
    return tuple(w for w, night in found.items() if night < game.day) if found else ()


def _together(game, pack: list[str], shelter: tuple, caught, may_pass: bool, pack_audience, spy_audience):
    """Every wolf at once, ``wolf_kill_rounds`` attempts, resolved by ``wolf_pack``.
    Returns (victim, whether every wolf with a say passed)."""
    opts = game.options
    victim, silent = None, False
    out_of_work = idle(game) if opts.wolves_exposed_idle else ()
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
            if w in out_of_work:
                options, context = (), {**context, "idle": True}
            decisions.append(game.ask_with(w, WOLF_KILL, options, context, CHOICE, may_pass or not options))
        answers = yield decisions  # ``ask`` inlined: every night
        picks = [answers[d.id] for d in decisions]
        game.emit_data("wolf_votes", pack_audience, {"votes": dict(zip(pack, picks)), "attempt": attempt})
        if spy_audience is not None:
            game.emit("wolf_votes_overheard", spy_audience, targets=sorted(p for p in picks if p), attempt=attempt)
        # A wolf with nobody he may attack (only his beloved is left outside the pack)
        # has no say: counting his forced pass would stop a unanimous pack forever.
        voting = [pick for d, pick in zip(decisions, picks) if d.options]
        decided, victim = _resolve(game, voting) if voting else (True, None)
        silent = bool(voting) and all(pick is None for pick in voting)
        if decided:
            break
    return victim, silent


def _first_named(game, pack: list[str], shelter: tuple, caught, may_pass: bool, pack_audience, spy_audience):
    """004 5-A: the wolves in turn, the first name final (the later wolves are not
    asked). Returns (victim, whether every wolf with a say passed)."""
    opts = game.options
    start = (game.day - 1) % len(pack)
    out_of_work = idle(game) if opts.wolves_exposed_idle else ()
    order = [w for w in pack[start:] + pack[:start] if w not in out_of_work]
    picks: dict = {}
    victim, had_say = None, False
    for i, w in enumerate(order):
        options = game.targets(w, exclude=shelter if opts.wolves_may_kill_wolf else tuple(pack) + shelter)
        had_say = had_say or bool(options)
        last = i == len(order) - 1
        context = {"attempt": 1, "caught": caught, "turn": i + 1, "order": list(order)}
        d = game.ask_with(w, WOLF_KILL, options, context, CHOICE, may_pass or not last or not options)
        victim = picks[w] = (yield [d])[d.id]
        if victim is not None:
            break
    game.emit_data("wolf_votes", pack_audience, {"votes": picks, "attempt": 1})
    if spy_audience is not None:
        game.emit("wolf_votes_overheard", spy_audience, targets=sorted(p for p in picks.values() if p), attempt=1)
    return victim, victim is None and had_say


def _silence(game, pack: list[str]) -> None:
    """``wolves_silent``: the pack named nobody, every wolf passing."""
    rule = game.options.wolves_silent
    if rule == "starve":
        for w in pack:
            game.night["kills"].append((w, "hunger"))
    elif rule == "one_dies":
        game.night["kills"].append((game.rng.choice(pack), "deadline"))


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
                d = game.ask_with(w, WOLF_CHAT, (), {"round": rnd, "wolves": list(pack)}, TEXT)
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

    # The Village: "The Werewolves do not devour" the Tavernkeeper.
    shelter = tuple(game.sheltered.get("devour", ())) if game.sheltered else ()
    may_pass = opts.wolves_may_pass or opts.wolves_silent != "no_kill"
    pick_victim = _first_named if opts.wolf_pack == "first_named" else _together
    victim, silent = yield from pick_victim(game, pack, shelter, caught, may_pass, pack_audience, spy_audience)
    game.emit_data("wolf_victim", pack_audience, {"target": victim})
    if spy_audience is not None:
        game.emit("wolf_victim_overheard", spy_audience, target=victim)
    if victim is not None:
        game.night["kills"].append((victim, "werewolves"))
        game.night["attacked"].append(victim)
    elif silent and opts.wolves_silent != "no_kill":
        _silence(game, pack)
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
