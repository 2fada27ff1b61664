"""The discussion protocols (rule option ``discussion``, not from the seeds):
``bidding`` (werewolf_arena) and ``parallel`` (Kaggle), against hand-worked scripts;
and ``round_robin``, the default, left exactly as it was.

Scripts: Ann is the werewolf, Ben the Seer, Cal, Dee and Eve villagers, seated in that
order; the pack devours Eve on the first night, so four players debate on day 1.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from engine import Game, GameSetup, get_preset
from engine.flow.discussion import speaking_order
from engine.flow.protocols import BIDS, bidders, winner
from engine.options import RuleOptions, WRITTEN_WHEN_SET, coerce_options
from helpers import agents_for, bots, data, drive, new_game, pending, start
from transcript_tools import lines, play_to_file, varied_spec

ROLES = {"Ann": "werewolf", "Ben": "seer", "Cal": "villager", "Dee": "villager", "Eve": "villager"}
NIGHT = {"Ann": {"wolf_kill": ["Eve"]}, "Ben": {"seer_check": ["Ann"]}}


def script(extra: dict[str, dict[str, list]]) -> dict[str, dict[str, list]]:
    out = {name: dict(kinds) for name, kinds in NIGHT.items()}
    for name, kinds in extra.items():
        out.setdefault(name, {}).update(kinds)
    return out


def speakers(game: Game) -> list[str]:
    """Who spoke in the debates, in order."""
    return [e.data["speaker"] for e in game.events if e.kind == "speech" and e.phase == "discussion"]


# ------------------------------------------------------------------------------ bidding
BIDDING = {"discussion": "bidding", "speaking_order": "seat"}


def test_highest_bid_speaks_and_ties_go_clockwise_from_the_last_speaker():
    # turn 1: Ben and Cal bid 3; nobody has spoken, so the speaking order (from Ann's
    #         seat) decides: Ben. Turn 2: Ben does not bid; Cal, Dee and Ann tie at 2,
    #         the first clockwise after Ben is Cal. Turn 3: Dee, Ann, Ben; Ann and Ben
    #         tie at 4, the first after Cal is Ann (Dee bid 0). Three turns: the vote.
    answers = script(
        {
            "Ann": {"bid": [1, 2, 4], "speak": ["Ann speaks."]},
            "Ben": {"bid": [3, 4], "speak": ["Ben speaks."]},
            "Cal": {"bid": [3, 2], "speak": ["Cal speaks."]},
            "Dee": {"bid": [0, 2, 0]},
        }
    )
    game, _, vote = start(ROLES, answers, {**BIDDING, "discussion_turns": 3}, until=pending("vote"))
    assert speakers(game) == ["Ben", "Cal", "Ann"]
    bids = data(game, "bids")
    assert [b["turn"] for b in bids] == [1, 2, 3]
    assert bids[0] == {"turn": 1, "bids": {"Ann": 1, "Ben": 3, "Cal": 3, "Dee": 0}, "speaker": "Ben"}
    assert list(bids[1]["bids"]) == ["Cal", "Dee", "Ann"] and bids[1]["speaker"] == "Cal"
    assert list(bids[2]["bids"]) == ["Dee", "Ann", "Ben"] and bids[2]["speaker"] == "Ann"
    # each turn's bids were one batch: every bidder pending at once, before any speech
    assert vote.kind == "vote"


def test_the_bids_are_one_simultaneous_batch_and_nobody_sees_another_bid_first():
    game = new_game(ROLES, BIDDING)
    agents = agents_for(game, script({}))
    first = drive(game, agents, until=pending("bid"))
    assert first is not None
    batch = game.waiting
    assert [d.kind for d in batch] == ["bid"] * 4 and [d.seat for d in batch] == ["Ann", "Ben", "Cal", "Dee"]
    assert all(d.options == BIDS and not d.allow_pass for d in batch)
    game.submit(batch[0].id, 4)
    # Ann's bid is in, the batch is not: nothing of it is an event any seat could read
    assert not [e for e in game.events if e.kind == "bids"]
    for d in batch[1:]:
        game.submit(d.id, 0)
    assert data(game, "bids")[-1]["speaker"] == "Ann"


def test_every_bid_zero_ends_the_debate():
    answers = script({n: {"bid": [0]} for n in ("Ann", "Ben", "Cal", "Dee")})
    game, _, vote = start(ROLES, answers, BIDDING, until=pending("vote"))
    assert speakers(game) == []
    assert data(game, "bids") == [{"turn": 1, "bids": {"Ann": 0, "Ben": 0, "Cal": 0, "Dee": 0}, "speaker": None}]
    assert vote.kind == "vote"


def test_the_default_bound_is_one_turn_per_living_player_and_round():
    # Everyone always bids 1: each turn's tie goes to the seat after the last speaker,
    # so the four living players speak once each, clockwise, and the debate stops there.
    answers = script({n: {"bid": [1] * 4, "speak": [f"{n} speaks."]} for n in ("Ann", "Ben", "Cal", "Dee")})
    game, _, _ = start(ROLES, answers, BIDDING, until=pending("vote"))
    assert speakers(game) == ["Ann", "Ben", "Cal", "Dee"]
    assert len(data(game, "bids")) == 4
    two = script({n: {"bid": [1] * 8, "speak": [f"{n} speaks."] * 2} for n in ("Ann", "Ben", "Cal", "Dee")})
    game, _, _ = start(ROLES, two, {**BIDDING, "discussion_rounds": 2}, until=pending("vote"))
    assert speakers(game) == ["Ann", "Ben", "Cal", "Dee"] * 2


def test_a_fixed_number_of_turns_bounds_the_debate():
    answers = script({n: {"bid": [4] * 2, "speak": [f"{n} speaks."]} for n in ("Ann", "Ben", "Cal", "Dee")})
    game, _, _ = start(ROLES, answers, {**BIDDING, "discussion_turns": 2}, until=pending("vote"))
    assert speakers(game) == ["Ann", "Ben"]


def test_the_first_turn_breaks_ties_from_the_sheriffs_left():
    game = new_game(ROLES, {"discussion": "bidding", "speaking_order": "sheriff_left"})
    game.sheriff = "Cal"  # the Sheriff's badge moves the opening seat, hence the first tie
    assert bidders(game, None, speaking_order) == ["Dee", "Eve", "Ann", "Ben", "Cal"]
    assert winner({"Dee": 1, "Eve": 2, "Ann": 2, "Ben": 0, "Cal": 2}, bidders(game, None, speaking_order)) == "Eve"
    # after a speech the order runs from the seat after the speaker, who does not bid
    assert bidders(game, "Ann", speaking_order) == ["Ben", "Cal", "Dee", "Eve"]
    game.by_name["Ben"].alive = False
    assert bidders(game, "Ann", speaking_order) == ["Cal", "Dee", "Eve"]


def test_a_bid_outside_the_scale_is_refused_with_its_reason():
    game = new_game(ROLES, BIDDING)
    d = drive(game, agents_for(game, script({})), until=pending("bid"))
    from engine.decisions import IllegalAnswer

    for bad in (5, -1, "loud", True, None):
        with pytest.raises(IllegalAnswer, match="legal|must choose"):
            game.submit(d.id, bad)


def test_the_campaign_still_goes_round_under_bidding():
    answers = script(
        {n: {"speak": [f"{n} campaigns."], "sheriff_vote": ["Ben" if n != "Ben" else "Cal"]} for n in ("Ann", "Ben", "Cal", "Dee")}
    )
    game, _, d = start(ROLES, answers, {**BIDDING, "sheriff": True}, until=pending("bid"))
    campaign = [e.data["speaker"] for e in game.events if e.kind == "speech" and e.phase == "campaign"]
    assert campaign == ["Ann", "Ben", "Cal", "Dee"]
    assert d.kind == "bid"


# ------------------------------------------------------------------------------ parallel
PARALLEL = {"discussion": "parallel", "speaking_order": "seat"}


def test_a_parallel_round_is_one_batch_heard_together_in_the_speaking_order():
    game = new_game(ROLES, {**PARALLEL, "discussion_rounds": 2})
    agents = agents_for(game, script({n: {"speak": [f"{n} round 1.", f"{n} round 2."]} for n in ("Ann", "Ben", "Cal", "Dee")}))
    first = drive(game, agents, until=pending("speak"))
    assert first is not None
    batch = game.waiting
    assert [(d.seat, d.kind, d.context["round"]) for d in batch] == [(n, "speak", 1) for n in ("Ann", "Ben", "Cal", "Dee")]
    assert data(game, "discussion_round")[-1] == {"round": 1, "speakers": ["Ann", "Ben", "Cal", "Dee"]}
    # answered out of order: the speeches still come in the speaking order, after the last
    for d in reversed(batch[1:]):
        game.submit(d.id, agents[d.seat].decide(None, d))
        assert not data(game, "speech")
    game.submit(batch[0].id, agents["Ann"].decide(None, batch[0]))
    assert [(s["speaker"], s["round"]) for s in data(game, "speech")] == [(n, 1) for n in ("Ann", "Ben", "Cal", "Dee")]
    assert [d.context["round"] for d in game.waiting] == [2, 2, 2, 2]


def test_no_speaker_of_a_round_sees_another_speech_of_that_round():
    """Round isolation: at every speech question of round k, the seat's observation
    (all any agent is given) holds no speech of round k, and all of round k - 1."""
    game = new_game(ROLES, {**PARALLEL, "discussion_rounds": 3, "sheriff": True})
    agents = bots(game, seed=3)
    checked = 0
    from agents.base import SeatView

    while not game.over:
        batch = list(game.waiting)
        for d in batch:
            seen = game.observation(d.seat)
            if d.kind == "speak" and d.context.get("protocol") == "parallel":
                same = [e for e in seen if e.kind == "speech" and e.day == game.day and e.phase == game.phase]
                assert all(e.data["round"] < d.context["round"] for e in same), (d.seat, d.context)
                before = [e for e in same if e.data["round"] == d.context["round"] - 1]
                assert d.context["round"] == 1 or len(before) == d.context["speakers"]
                checked += 1
            game.submit(d.id, agents[d.seat].decide(SeatView(d.seat, seen), d))
    assert checked >= 12


def test_the_campaign_is_one_parallel_round_among_the_candidates():
    answers = script(
        {n: {"speak": [f"{n} campaigns.", f"{n} debates."], "sheriff_vote": ["Ben" if n != "Ben" else "Cal"]} for n in ("Ann", "Ben", "Cal", "Dee")}
    )
    game, _, d = start(ROLES, answers, {**PARALLEL, "sheriff": True}, until=pending("sheriff_vote"))
    assert [(r["round"], r["speakers"]) for r in data(game, "discussion_round")] == [(1, ["Ann", "Ben", "Cal", "Dee"])]
    assert game.events[-1].kind == "speech" and game.events[-1].phase == "campaign"


# ------------------------------------------------------------------------------ all protocols
@pytest.mark.parametrize("protocol", ["round_robin", "bidding", "parallel"])
def test_the_same_answers_give_the_same_game(protocol):
    def play() -> list:
        game = Game(GameSetup(names=[f"P{i}" for i in range(9)], seed=11, options=get_preset("millers_hollow").options({"discussion": protocol})))
        drive(game, bots(game, seed=5))
        return [e.to_json() for e in game.events]

    first = play()
    assert first == play()
    kinds = {e["kind"] for e in first}
    assert ("bids" in kinds) == (protocol == "bidding") and ("discussion_round" in kinds) == (protocol == "parallel")


def test_random_tables_under_every_protocol_replay_and_keep_their_shape():
    """Property test: random tables, random options with the protocol and its bound
    drawn, random and heuristic seats; every speech of a bidding debate was won by
    the bid just before it, every parallel round holds one speech per named speaker."""
    rng = random.Random("discussion-protocols")
    for seed in range(24):
        n = rng.randint(5, 12)
        opts = {
            "discussion": rng.choice(["round_robin", "bidding", "parallel"]),
            "discussion_turns": rng.choice([0, 0, 1, 5]),
            "discussion_rounds": rng.choice([0, 1, 2]),
            "speaking_order": rng.choice(["sheriff_left", "seat", "rotate"]),
            "sheriff": rng.random() < 0.6,
            "sheriff_campaign": rng.random() < 0.7,
        }
        game = Game(GameSetup(names=[f"P{i}" for i in range(n)], seed=seed, options=get_preset("millers_hollow").options(opts)))
        drive(game, bots(game, seed, village=rng.choice(["heuristic", "random"])))
        assert game.over, (seed, opts)
        debate = [e for e in game.events if e.phase == "discussion" and e.kind in ("bids", "speech", "discussion_round")]
        if opts["discussion"] == "bidding":
            per_day: dict[int, int] = {}
            for prev, e in zip(debate, debate[1:]):
                if e.kind == "speech":
                    assert prev.kind == "bids" and prev.data["speaker"] == e.data["speaker"], (seed, e.data)
                    amounts = prev.data["bids"]
                    assert amounts[e.data["speaker"]] == max(amounts.values()) > 0
                    per_day[e.day] = per_day.get(e.day, 0) + 1
            bound = opts["discussion_turns"]
            for day, count in per_day.items():
                alive = next(x for x in game.events if x.kind == "day_start" and x.day == day).data["alive"]
                assert count <= (bound or opts["discussion_rounds"] * len(alive)), (seed, day)
        elif opts["discussion"] == "parallel":
            for i, e in enumerate(debate):
                if e.kind == "discussion_round":
                    heard = [x.data["speaker"] for x in debate[i + 1 : i + 1 + len(e.data["speakers"])]]
                    assert heard == e.data["speakers"], (seed, e.data)
        else:
            assert not [e for e in debate if e.kind != "speech"]


@pytest.mark.parametrize("protocol", ["bidding", "parallel"])
def test_a_protocol_game_writes_a_transcript_that_verifies(tmp_path: Path, protocol):
    from transcripts.verify import verify_file

    spec = varied_spec(31, agent="heuristic", players=8)
    spec.options.update(discussion=protocol, discussion_turns=3 if protocol == "bidding" else 0)
    path = tmp_path / "game.jsonl"
    play_to_file(spec, path)
    header = lines(path)[0]
    assert header["options"]["discussion"] == protocol
    report = verify_file(path)
    assert report.ok, report


# ------------------------------------------------------------------------------ the default
def test_the_default_records_the_header_it_recorded_before_the_protocols():
    """``round_robin`` and the turn bound at their defaults are left out of the header,
    which then holds exactly the options that existed before them; a header without
    them reads back as the default."""
    recorded = RuleOptions().recorded_json()
    assert set(recorded) == set(RuleOptions().to_json()) - WRITTEN_WHEN_SET
    assert RuleOptions().updated(coerce_options(recorded)) == RuleOptions()
    assert RuleOptions(discussion="parallel").recorded_json()["discussion"] == "parallel"


@pytest.mark.parametrize("seed", [3, 17, 40])
def test_a_default_game_is_byte_identical_to_one_that_names_round_robin(tmp_path: Path, seed: int):
    """Seeded games played under the default and under ``discussion: round_robin``
    written out: the same file, byte for byte, and no trace of the option in it."""
    plain = varied_spec(seed, agent="heuristic")
    plain.options.pop("discussion", None)
    named = varied_spec(seed, agent="heuristic")
    named.options.update(discussion="round_robin", discussion_turns=0)
    a, b = tmp_path / "plain.jsonl", tmp_path / "named.jsonl"
    play_to_file(plain, a)
    play_to_file(named, b)
    assert a.read_bytes() == b.read_bytes()
    text = a.read_text(encoding="utf-8")
    assert '"discussion":' not in text and "discussion_turns" not in text and '"bids"' not in text
    assert json.loads(text.splitlines()[0])["options"] == plain.build()[0].options.recorded_json()


# ------------------------------------------------------------------------------ the game file
def test_a_game_file_sets_the_protocol_and_scripts_the_bids():
    from arena.gamefile import GameFileError, spec_from_data

    seats = [{"name": n, "agent": "scripted", "role": r, "answers": {"bid": [1]}} for n, r in ROLES.items()]
    spec = spec_from_data({"preset": "millers_hollow", "options": {"discussion": "bidding", "discussion_turns": 4}, "seats": seats})
    game, _ = spec.build()
    assert game.options.discussion == "bidding" and game.options.discussion_turns == 4
    with pytest.raises(GameFileError, match="'discussion' must be one of round_robin, bidding, parallel"):
        spec_from_data({"preset": "millers_hollow", "options": {"discussion": "chatty"}, "seats": seats})
    with pytest.raises(GameFileError, match="'discussion_turns' must be between 0 and"):
        spec_from_data({"preset": "millers_hollow", "options": {"discussion_turns": -1}, "seats": seats})
    misspelt = [{**s, "answers": {"bids": [1]}} for s in seats]
    with pytest.raises(GameFileError, match="bids"):
        spec_from_data({"preset": "millers_hollow", "seats": misspelt})
