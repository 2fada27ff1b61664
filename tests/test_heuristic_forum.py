"""The heuristic bot at the forum (004): every forum decision kind is asked and answered
by its own policy, legally (strict mode surfaces a policy's error instead of covering
it), and the powers are played with intent: the Vigilante's bullet and the Ninja's
blade mostly find wolves, the Guardian Angel and the Priest serve humans, refusals to
vote are rare."""

from __future__ import annotations

from functools import lru_cache

from agents.base import SeatView
from agents.heuristic import HeuristicAgent
from agents.heuristic_forum import POLICIES
from arena.ratings.wilson import wilson
from engine import Game, GameSetup, get_preset
from engine.presets import FORUM_AUX


@lru_cache(maxsize=None)
def corpus() -> tuple[Game, ...]:
    games = []
    for seed in range(120):
        n = 8 + seed % 11
        deck = get_preset("forum").deck(n)
        missing = [r for r in FORUM_AUX if r not in deck]
        for r in missing[: deck.count("civilian") - 1]:
            deck.remove("civilian")
            deck.append(r)
        if "pack_leader" not in deck:
            deck[deck.index("werewolf")] = "pack_leader"
        # every other table with the notes kept for the Coroner (004 Subsection 5, Article 3)
        options = get_preset("forum").options({"discussion_rounds": 1, "coroner_notes": seed % 2 == 0})
        game = Game(GameSetup(names=[f"P{i:02d}" for i in range(n)], preset="forum", seed=seed, options=options, roles=deck))
        agents = {p.name: HeuristicAgent(p.name, seed) for p in game.players}
        for a in agents.values():
            a.strict = True
        while not game.over:
            d = game.waiting[0]
            game.submit(d.id, agents[d.seat].decide(SeatView(d.seat, game.observation(d.seat)), d))
        games.append(game)
    return tuple(games)


def test_every_forum_kind_is_asked_and_both_sides_win():
    asked = {kind for g in corpus() for (_i, _s, kind, _a) in g.answer_log}
    assert set(POLICIES) <= asked, f"never asked: {set(POLICIES) - asked}"
    assert {g.winner for g in corpus()} >= {"village", "werewolves"}


def test_the_powers_are_used_with_intent():
    # Wolves are about a fifth of each table: a random shot would hit one that often.
    # The bullet's hit rate is judged by its 95% interval against that chance: about a
    # hundred shots in the corpus, so a point threshold near the bot's rate would flip
    # with the wording of a speech (the suspicion model it shoots by is uncalibrated).
    shots = [(g, e.data["target"]) for g in corpus() for e in g.events if e.kind == "vigilante_shot"]
    assert shots and wilson(sum(g.by_name[t].is_wolf for g, t in shots), len(shots))[0] > 0.2
    blades = [(g, d.name) for g in corpus() for d in g.deaths if d.cause == "ninja"]
    assert blades and sum(g.by_name[n].is_wolf for g, n in blades) / len(blades) > 0.35
    revived = [(g, e.data["player"]) for g in corpus() for e in g.events if e.kind == "revived"]
    assert revived and sum(not g.by_name[n].is_wolf for g, n in revived) / len(revived) > 0.8
    saves = sum(1 for g in corpus() for e in g.events if e.kind == "guardian_angel_saved")
    assert saves > 0
    votes = [a for g in corpus() for (_i, _s, kind, a) in g.answer_log if kind == "vote"]
    assert sum(a is None for a in votes) / len(votes) < 0.2


def test_psychic_and_insomniac_findings_reach_the_votes():
    """A Psychic who read a wolf votes for that wolf the next day."""
    hits = total = 0
    for g in corpus():
        for e in g.events:
            if e.kind == "psychic_result" and get_wolf(g, e.data["role"]):
                psychic = next(iter(e.audience))
                for r in g.events:
                    if r.kind == "vote_result" and r.day == e.day and psychic in r.data["votes"] and g.by_name[e.data["target"]].alive is not None:
                        total += 1
                        hits += r.data["votes"][psychic] == e.data["target"]
                        break
    assert total and hits / total > 0.5


def get_wolf(g, role) -> bool:
    from engine.roles import ROLES

    return ROLES[role].is_wolf


def test_the_first_wolf_pm_carries_the_packs_proposal():
    """004 5-A (``wolf_pack: first_named``): the wolf whose PM comes first sends a name
    at once -- no night is lost to a deadline -- and it is the victim the pack proposed
    in its PMs to each other, when one was proposed."""
    nights = followed = proposed = 0
    for game in corpus():
        for e in game.events:
            if e.kind != "wolf_votes":
                continue
            nights += 1
            assert len(e.data["votes"]) == 1 and None not in e.data["votes"].values(), e.data
            [victim] = e.data["votes"].values()
            chat = [c.data["target"] for c in game.events if c.kind == "wolf_chat" and c.day == e.day and c.data.get("target")]
            if chat:
                proposed += 1
                followed += chat[-1] == victim
    assert nights > 100 and proposed > 30
    assert followed >= 0.8 * proposed, (followed, proposed)


def test_the_pack_hunts_the_seer_the_host_gave_away():
    """004: "the Wolves may be informed it's happened (or even who you are)"
    (``wolves_told_seers: who``): told who the Psychic is, the pack devours her -- the
    same night when the news comes before the pack's choice (the Psychic and the pack are
    asked together), else the next."""
    roles = {"W1": "werewolf", "W2": "werewolf", "Ps": "psychic", "A": "civilian", "B": "civilian", "C": "civilian", "D": "civilian"}
    hunted = 0
    for seed in range(12):
        options = get_preset("forum").options({"wolves_told_seers": "who", "discussion_rounds": 1, "opening_day": False})
        game = Game(GameSetup(names=list(roles), preset="forum", seed=seed, options=options, forced=dict(roles)))
        agents = {p.name: HeuristicAgent(p.name, seed) for p in game.players}
        while not game.over and game.day < 3:
            d = game.waiting[0]
            if d.kind == "psychic_read":
                game.submit(d.id, d.options[-1])  # she reads every night: the pack is told each time
                continue
            game.submit(d.id, agents[d.seat].decide(SeatView(d.seat, game.observation(d.seat)), d))
        told = [e for e in game.events if e.kind == "seer_spotted"]
        assert told and told[0].data == {"role": "psychic", "player": "Ps"}
        hunted += any(d.name == "Ps" and d.cause == "werewolves" and d.day <= 2 for d in game.deaths)
    assert hunted >= 10, hunted
