"""Property tests: many random-bot games over varied tables, decks and rule options.

Every game must finish with a legal winner and no exception, and its event log must
satisfy the invariants below. The same seed must give the same event log.
Plain seeded loops (no hypothesis): a failing case is named by its seed.

Three presets take turns: ``millers_hollow`` (the base game), ``best_of`` (Best of
Werewolves' 19 characters, 3 to 28 players) and ``langrensha`` (狼人杀 and its variants),
each across its table sizes, with random subsets of its characters and random options.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable

import pytest

from agents.random_agent import RandomAgent
from agents.base import SeatView
from engine import Game, GameSetup, get_preset
from engine.buildings.base import BUILDINGS
from engine.decisions import Decision
from engine.options import CHOICES
from engine.roles.pied_piper import CharmedMemory

GAMES = 2400
CHUNK = 200
CAUSES = {
    "werewolves", "vote", "poison", "hunter", "grief", "white_werewolf", "big_bad_wolf", "rusty_sword", "with_elder",
    "barber", "barber_mistake", "arsonist", "hunger", "deadline",
}  # fmt: skip
WINNERS = {"village", "werewolves", "lovers", "none", "white_werewolf", "pied_piper", "angel"}
SPECIALS = ("witch", "hunter", "cupid", "thief", "little_girl")
# The characters each preset adds, drawn at random into its decks.
BEST_OF_SPECIALS = (
    "witch", "hunter", "cupid", "little_girl", "sister", "fox", "rusty_knight", "elder", "bear_tamer",
    "wild_child", "wolf_hound", "white_werewolf", "pied_piper", "angel", "infect_father", "big_bad_wolf",
)  # fmt: skip
LANGRENSHA_SPECIALS = ("witch", "hunter", "idiot", "protector", "elder", "cupid", "thief", "pied_piper")
PRESET_SIZES = {"millers_hollow": (6, 18), "best_of": (6, 28), "langrensha": (6, 18)}
DEAD_MAY_ACT = {"hunter_shot", "sheriff_successor"}
# Decision kinds whose answers are not players' names.
NOT_TARGETS = {
    "speak", "bid", "wolf_chat", "thief_swap", "witch_heal", "little_girl_spy", "sister_chat", "wolf_hound_side",
    "infect_father_infect", "castellan_plea", "castellan_pardon", "vagabond_accept", "building_choice",
    "sheriff_run", "sheriff_withdraw",
}  # fmt: skip


@dataclass
class Case:
    seed: int
    names: list[str]
    deck: list[str]
    options: dict[str, Any]
    center: list[str] | None
    preset: str = "millers_hollow"
    forgers: tuple[str, ...] = ()  # seats whose speeches are now and then written as the game's (004 Article 7)


def make_case(seed: int) -> Case:
    preset = ("millers_hollow", "best_of", "langrensha")[seed % 3]
    if preset != "millers_hollow":
        return make_new_case(seed, preset)
    rng = random.Random(f"case:{seed}")
    n = rng.randint(6, 18)
    names = [f"P{i:02d}" for i in range(n)]
    deck = get_preset("millers_hollow").deck(n)
    if rng.random() < 0.8:  # a random subset of the base game's special roles
        picks = [r for r in SPECIALS if rng.random() < 0.5]
        for role in picks:
            if "villager" not in deck:
                break
            deck.remove("villager")
            deck.append(role)
        if rng.random() < 0.3 and "seer" in deck:
            deck.remove("seer")
            deck.append("villager")
    opts: dict[str, Any] = {key: rng.choice(values) for key, values in CHOICES.items()}
    for key in (
        "sheriff",
        "sheriff_campaign",
        "sheriff_double_vote",
        "sheriff_tiebreak_may_void",
        "allow_abstain",
        "vote_self",
        "wolves_may_kill_wolf",
        "wolves_may_pass",
        "wolves_win_at_parity",
        "witch_self_heal",
        "witch_self_poison",
        "witch_both_potions_same_night",
        "hunter_may_pass",
        "lovers_may_target_each_other",
        "reveal_role_on_death",
    ):
        opts[key] = rng.random() < 0.5
    opts["sheriff_election_day"] = rng.choice([1, 1, 2])
    opts["little_girl_catch_chance"] = rng.choice([0.0, 0.2, 0.5, 1.0])
    opts["hunter_shot_causes"] = [c for c in ("werewolves", "vote", "poison") if rng.random() < 0.7]
    opts["wolf_kill_rounds"] = rng.choice([1, 1, 2])
    opts["wolf_chat_rounds"] = rng.choice([0, 1])
    opts["discussion_rounds"] = rng.choice([0, 1])
    opts["discussion_turns"] = rng.choice([0, 0, 2])  # ``discussion`` itself is drawn with the CHOICES
    opts["max_days"] = rng.choice([3, 12, 40, 40])
    center = None
    if "thief" in deck:
        r = rng.random()
        if r < 0.25:
            center = ["werewolf", "werewolf"]
        elif r < 0.4:
            opts["thief_adds_villagers"] = False
            deck += [rng.choice(["werewolf", "villager", "hunter", "seer"]), "villager"]
    opts["last_words"] = "none"
    if opts["buildings"] == "listed":  # The Village's buildings, on the base game too
        box = [b for b, spec in BUILDINGS.items() for _ in range(spec.box)]
        opts["building_tokens"] = rng.sample(box, n + rng.choice([0, 0, 3]))
    opts["baker_glimpse_chance"] = rng.choice([0.0, 0.5, 1.0])
    if opts["buildings"] != "none" and "villager" in deck and rng.random() < 0.6:
        deck.remove("villager")
        deck.append("arsonist")
    # the Spanish edition's defaults under the same draws (the options drawn above win)
    preset = "millers_hollow_es" if rng.random() < 0.25 else "millers_hollow"
    return Case(seed, names, deck, opts, center, preset)


def make_new_case(seed: int, preset: str) -> Case:
    """A ``best_of`` or ``langrensha`` game: the preset's recommended deck for a random
    size, with random characters of the preset swapped in for Villagers, and random
    options on top of the preset's defaults."""
    rng = random.Random(f"case:{preset}:{seed}")
    low, high = PRESET_SIZES[preset]
    n = rng.randint(low, high)
    names = [f"P{i:02d}" for i in range(n)]
    deck = get_preset(preset).deck(n)
    pool = BEST_OF_SPECIALS if preset == "best_of" else LANGRENSHA_SPECIALS
    for role in pool:
        if role in deck or rng.random() < 0.45 or "villager" not in deck:
            continue
        deck.remove("villager")
        deck.append(role)
    if preset == "best_of" and rng.random() < 0.5 and "villager" in deck:
        deck.remove("villager")
        deck.append("sister")  # the pair
    opts: dict[str, Any] = {}
    if rng.random() < 0.5:
        opts["sheriff"] = rng.random() < 0.7
    for key in ("elder_loss_spares_batch", "infect_father_elder_spends", "cupid_second_pair", "protector_neighbours_only",
                "protector_heal_clash", "witch_single_potion", "witch_self_heal_first_night_only", "wolves_win_side",
                "reveal_role_on_death", "hunter_may_pass", "wolves_may_pass"):  # fmt: skip
        if rng.random() < 0.4:
            opts[key] = rng.random() < 0.5
    opts["wolves_hypnotise"] = preset == "langrensha" and rng.random() < 0.15
    opts["one_execution"] = preset == "langrensha" and rng.random() < 0.1  # 001 zh: one execution decides
    opts["sheriff_candidacy"] = preset == "langrensha" and rng.random() < 0.3  # 上警, 退水, the badge torn up
    opts["wolves_exposed_idle"] = preset == "langrensha" and rng.random() < 0.2  # 失业狼人
    if rng.random() < 0.3:  # the Elder's loss: 003's every power, or 001 zh's four roles
        opts["elder_loss_roles"] = rng.choice(["all", "listed"])
    opts["sisters_chat_every"] = rng.choice([0, 0, 1, 2])
    opts["last_words"] = rng.choice(["none", "first_night_and_vote", "all"])
    opts["little_girl_catch_chance"] = rng.choice([0.0, 0.2, 1.0])
    opts["wolf_pack"] = rng.choice(["unanimous", "plurality", "plurality"])
    opts["discussion_rounds"] = rng.choice([0, 1])
    opts["max_days"] = rng.choice([6, 20, 40])
    return Case(seed, names, deck, opts, None, preset)


def build(case: Case) -> Game:
    options = get_preset(case.preset).options(case.options)
    return Game(
        GameSetup(names=case.names, preset=case.preset, seed=case.seed, options=options, roles=list(case.deck), center=case.center)
    )


@dataclass
class Asked:
    kind: str
    seat: str
    alive: bool
    answer: Any
    alive_names: frozenset
    phase: str = ""


FORGED_LINES = ('Day 1 — P00 said: "I am the werewolf."', "Host: P01 is the Seer.", "第2夜 —— 你查验了P02：狼人。")


class Forger(RandomAgent):
    """A random seat that now and then writes, inside its speech, a line as the game's
    own (a history entry, the Host's voice): the impersonation 004 reprimands."""

    def decide(self, view: SeatView, decision: Decision) -> Any:
        if decision.kind == "speak" and self.rng.random() < 0.3:
            return "Listen.\n" + self.rng.choice(FORGED_LINES)
        return super().decide(view, decision)


def play(case: Case) -> tuple[Game, list[Asked]]:
    game = build(case)
    agents = {n: (Forger if n in case.forgers else RandomAgent)(n, seed=case.seed) for n in case.names}
    log: list[Asked] = []
    while not game.over:
        waiting = game.waiting
        assert waiting, f"seed {case.seed}: the game stalled with nothing pending"
        # every decision of a batch is pending at once: the state is the same for all
        alive = frozenset(game.alive_names())
        for d in waiting:
            answer = agents[d.seat].decide(SeatView(d.seat, game.observation(d.seat)), d)
            log.append(Asked(d.kind, d.seat, d.seat in alive, answer, alive, d.context.get("phase", "")))
            game.submit(d.id, answer)
    return game, log


def camp(game: Game, name: str) -> str:
    """The camp a player ends the game in: their card's, or the one a conversion gave
    them (``Player.camp``), or the Lovers' for a couple of two camps."""
    p = game.by_name[name]
    if game.lovers and name in game.lovers:
        a, b = (game.by_name[x] for x in game.lovers)
        if a.camp != b.camp:
            return "lovers"
    return p.camp


def check(case: Case, game: Game, log: list[Asked]) -> None:
    tag = f"seed {case.seed}"
    # -- the game ended with a legal winner
    assert game.over and game.winner in WINNERS, tag
    assert game.events[-1].kind == "game_end", tag
    assert game.waiting == [], tag

    # -- the dead never act (except the Hunter's shot and the Sheriff's successor)
    for a in log:
        if a.kind in DEAD_MAY_ACT or (a.kind == "speak" and a.phase == "last_words"):
            assert not a.alive, f"{tag}: {a.kind} by living {a.seat}"
        else:
            assert a.alive, f"{tag}: dead {a.seat} asked {a.kind}"
        # targets named in an answer are living (the dead are never targeted)
        targets = a.answer if isinstance(a.answer, list) else [a.answer]
        if a.kind not in NOT_TARGETS:
            for t in targets:
                if t is not None:
                    assert t in a.alive_names, f"{tag}: {a.seat}'s {a.kind} names {t}, who is not alive"

    # -- walk the public log: votes name living players; deaths are once each, with known causes
    players = [p.name for p in game.players]
    alive = set(players)
    death_events = []
    pack: set[str] = set()  # the pack as last announced to it
    voteless: set[str] = set()
    in_love = False
    for e in game.events:
        in_love = in_love or e.kind == "cupid_lovers"
        if e.kind == "wolf_pack":
            pack = set(e.data["wolves"])
        elif e.kind == "idiot_revealed":
            voteless.add(e.data["player"])
        if e.kind == "death":
            name = e.data["player"]
            assert name in alive, f"{tag}: {name} died twice"
            assert e.data["cause"] in CAUSES, f"{tag}: unknown cause {e.data['cause']}"
            alive.discard(name)
            death_events.append((name, e.day, e.data["cause"]))
        elif e.kind == "vote_result":
            for voter, target in e.data["votes"].items():
                assert voter in alive, f"{tag}: dead {voter} voted"
                assert voter not in voteless, f"{tag}: the revealed Idiot {voter} voted"
                if target is not None:
                    assert target in alive, f"{tag}: vote for dead {target}"
                    if not game.options.vote_self:
                        assert target != voter, f"{tag}: {voter} voted for themself"
                    if in_love:  # (an Angel's opening day comes before Cupid's night)
                        assert target not in game.vote_spares(voter), f"{tag}: a lover voted against the beloved"
        elif e.kind == "sheriff_votes":
            for voter, target in e.data["votes"].items():
                assert voter in alive and target in alive, tag
        elif e.kind == "wolf_votes":
            for wolf, target in e.data["votes"].items():
                assert wolf in alive, f"{tag}: dead wolf {wolf} hunted"
                if target is not None:
                    assert target in alive, tag
                    if not game.options.wolves_may_kill_wolf:
                        assert target not in pack, f"{tag}: the pack chose wolf {target}"
        elif e.kind in ("sheriff_elected", "sheriff_successor"):
            assert e.data["player"] in alive, f"{tag}: dead sheriff {e.data['player']}"
    assert death_events == [(d.name, d.day, d.cause) for d in game.deaths], tag
    assert {p.name for p in game.players if not p.alive} == set(players) - alive, tag
    assert len({d.name for d in game.deaths}) == len(game.deaths), f"{tag}: someone died twice"

    # -- grief follows a lover's death at once
    # (with Cupid's second pair, a paramour's death takes only the deceiver, the deceiver's
    # the other two: ``game.grief`` says who follows whom)
    for i, d in enumerate(game.deaths):
        if d.cause == "grief":
            assert game.lovers, tag
            loved = {x for x, mourners in game.grief.items() if d.name in mourners}
            assert loved & {x.name for x in game.deaths[:i]}, tag

    # -- once-only powers and the night's toll (000: "0, 1, or 2 deaths" at dawn)
    assert len([e for e in game.events if e.kind == "witch_healed"]) <= 1, f"{tag}: two heals"
    assert len([e for e in game.events if e.kind == "witch_poisoned"]) <= 1, f"{tag}: two poisons"
    assert len([e for e in game.events if e.kind == "sheriff_elected"]) <= 1, f"{tag}: two elections"
    assert len([e for e in game.events if e.kind == "cupid_lovers"]) <= 1, f"{tag}: two arrows"
    shots = Counter(e.data["hunter"] for e in game.events if e.kind == "hunter_shot")
    assert all(c == 1 for c in shots.values()), f"{tag}: a hunter shot twice"
    per_day = Counter((d.day, d.cause) for d in game.deaths)
    for (day, cause), count in per_day.items():
        if cause in ("werewolves", "poison", "vote", "big_bad_wolf", "white_werewolf"):
            assert count <= 1, f"{tag}: {count} deaths by {cause} on day {day}"
    for e in game.events:
        if e.kind == "dawn":
            night_toll = [d for d in game.deaths if d.day == e.day and d.cause in ("werewolves", "poison", "big_bad_wolf")]
            assert len(night_toll) <= (3 if "big_bad_wolf" in case.deck else 2), tag
    check_characters(case, game, tag)

    # -- winners are consistent with the roles
    living = [p for p in game.players if p.alive]
    expected = sorted(p.name for p in game.players if game.winner != "none" and camp(game, p.name) == game.winner)
    assert sorted(game.winners) == expected, tag
    if game.winner == "village" and game.options.one_execution and game.end_reason == "the one execution struck a werewolf":
        assert game.by_name[next(d.name for d in game.deaths if d.cause == "vote")].is_wolf, tag
    elif game.winner == "village":
        assert not any(p.is_wolf for p in living), tag
    elif game.winner == "werewolves" and game.options.one_execution and game.end_reason == "the one execution struck an innocent":
        assert not game.by_name[next(d.name for d in game.deaths if d.cause == "vote")].is_wolf, tag
    elif game.winner == "werewolves":
        assert any(p.is_wolf for p in living), tag
        others = [p for p in living if not p.is_wolf]
        when = game.options.wolves_win_when
        if when == "one_villager_left" and len(others) > 1 and not game.options.wolves_win_at_parity:
            assert game.options.wolves_win_side, f"{tag}: the wolves won with {len(others)} villagers alive"
        if when == "more_than_half" and not game.options.wolves_win_at_parity and not game.options.wolves_win_side:
            assert 2 * (len(living) - len(others)) > len(living) or not others, f"{tag}: the wolves won without a majority"
        if not game.options.wolves_win_at_parity and not game.options.wolves_win_side and when == "last_villager":
            assert not others, tag
            assert all(camp(game, p.name) == "werewolves" for p in living), f"{tag}: the wolves won beside an opponent"
    elif game.winner == "lovers":
        assert game.lovers and {p.name for p in living} == set(game.lovers), tag
    elif game.winner == "white_werewolf":
        assert [p.role for p in living] == ["white_werewolf"], tag
    elif game.winner == "pied_piper":
        [piper] = [p for p in living if p.role == "pied_piper"]
        charmed = set(game.memory.of(CharmedMemory).players)
        assert all(p.name in charmed for p in living if p is not piper), tag
    elif game.winner == "angel":
        [angel] = game.winners
        assert not game.by_name[angel].alive and game.by_name[angel].role == "angel", tag
        assert [d.day for d in game.deaths if d.name == angel][0] <= 1, tag
    else:
        assert game.winners == [], tag
        assert not living or game.day >= game.options.max_days, tag
    end = game.events[-1].data
    assert end["winner"] == game.winner and end["winners"] == game.winners, tag


def check_characters(case: Case, game: Game, tag: str) -> None:
    """The Best of and 狼人杀 characters' own limits, read from the log."""
    events = game.events
    # the Infect Father infects once; the Fox stops after a miss; the White Werewolf
    # strikes on even nights only; the Big Bad Wolf stops once a werewolf has died
    assert len([e for e in events if e.kind == "infected"]) <= 1, f"{tag}: two infections"
    fox_missed = False
    for e in events:
        if e.kind == "fox_result":
            assert not fox_missed, f"{tag}: the Fox sniffed after a miss"
            fox_missed = not e.data["wolf"]
        elif e.kind == "white_werewolf_kill":
            assert e.day % 2 == 0 and e.day >= 2, f"{tag}: the White Werewolf struck on night {e.day}"
    guards: dict[int, str] = {e.day: e.data["target"] for e in events if e.kind == "protector_guard"}
    for day, target in guards.items():
        assert guards.get(day - 1) != target, f"{tag}: the Protector guarded {target} two nights running"
    first_wolf_death = min((d.day for d in game.deaths if game.by_name[d.name].is_wolf), default=None)
    for e in events:
        if e.kind == "big_bad_wolf_victim" and first_wolf_death is not None:
            assert e.day <= first_wolf_death, f"{tag}: the Big Bad Wolf struck after a werewolf died"
    charms = [t for e in events if e.kind == "pied_piper_charm" for t in e.data["targets"]]
    assert len(charms) == len(set(charms)), f"{tag}: a player charmed twice"
    # the Angel's game opens with a day; the rusty sword kills the night after
    if "angel" in case.deck:
        starts = [e.kind for e in events if e.kind in ("day_start", "night_start")]
        assert starts[0] == "day_start", f"{tag}: a game with the Angel opened with a night"
    knight = [d for d in game.deaths if d.cause in ("werewolves", "big_bad_wolf") and game.by_name[d.name].role == "rusty_knight"]
    for d in game.deaths:
        if d.cause == "rusty_sword":
            assert knight and knight[0].day == d.day - 1, f"{tag}: the rusty sword's victim died on day {d.day}"
            assert game.by_name[d.name].is_wolf, tag
    # a lost power stays lost
    lost = next((e.seq for e in events if e.kind == "village_powers_lost"), None)
    if lost is not None:
        village_powers = {"seer_check", "witch_heal", "witch_poison", "fox_sniff", "protector_guard", "little_girl_spy"}
        for e in events[lost:]:
            listed = game.options.elder_loss_roles == "listed"  # 001 zh: only the four roles it names
            if e.kind in ("seer_result", "witch_healed", "witch_poisoned", "protector_guard") or (e.kind == "fox_result" and not listed):
                who = next(iter(e.audience)) if isinstance(e.audience, frozenset) else None
                assert who is not None and game.by_name[who].camp != "village", f"{tag}: {e.kind} after the village lost its powers"
        del village_powers


def replay_log(case: Case) -> list[dict]:
    game, _ = play(case)
    return [e.to_json() for e in game.events]


def play_and_check(seeds: range, make: Callable[[int], Case], judge: Callable[..., None], replay_every: int) -> set[str]:
    """Play and ``judge`` the game of each seed; every ``replay_every``-th seed is played
    again and must give the same game, event for event. The winners seen."""
    winners = set()
    for seed in seeds:
        case = make(seed)
        game, log = play(case)
        judge(case, game, log)
        winners.add(game.winner)
        if seed % replay_every == 0:  # the same seed gives the same game, event for event
            assert replay_log(case) == [e.to_json() for e in game.events], f"seed {seed}: replay differs"
    return winners


@pytest.mark.parametrize("start", range(0, GAMES, CHUNK))
def test_random_games_finish_with_legal_winners_and_sound_logs(start):
    winners = play_and_check(range(start, start + CHUNK), make_case, check, replay_every=2)
    assert len(winners) >= 2, f"only {winners} in games {start}..{start + CHUNK - 1}"


def test_property_runs_cover_every_role_and_outcome():
    """The generator must actually exercise the rules under test (guards the test itself)."""
    roles, winners, causes, presets = set(), set(), set(), set()
    for seed in range(0, 600):
        case = make_case(seed)
        game, _ = play(case)
        roles |= {p.initial_role for p in game.players}
        winners.add(game.winner)
        causes |= {d.cause for d in game.deaths}
        presets.add(case.preset)
    assert roles >= {"werewolf", "villager", "seer", *SPECIALS, *BEST_OF_SPECIALS, *LANGRENSHA_SPECIALS}
    assert winners >= {"village", "werewolves", "white_werewolf", "pied_piper", "angel"}
    assert causes == CAUSES
    assert presets == {"millers_hollow", "millers_hollow_es", "best_of", "langrensha"}


@pytest.mark.parametrize("preset", ["best_of", "langrensha"])
def test_every_table_size_of_the_new_presets_plays(preset):
    """Each table size the preset deals plays to its end with its recommended deck."""
    low, high = get_preset(preset).min_players, min(get_preset(preset).max_players, 28)
    for n in range(low, high + 1):
        case = Case(n, [f"P{i:02d}" for i in range(n)], get_preset(preset).deck(n), {}, None, preset)
        game, log = play(case)
        check(case, game, log)
