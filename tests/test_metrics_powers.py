"""Power accuracy (arena/metrics/powers.py) on transcripts of scripted games, against
values known by construction: who used which power on whom, whether that target was a
werewolf at that moment, and the share of good targets among the recorded options."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from transcript_tools import edit, play_to_file

from arena.cli import main
from arena.gamefile import GameSpec, SeatSpec
from arena.metrics import aggregate, game_metrics, load_transcript
from arena.metrics.load import Truth
from arena.metrics.powers import NOT_MEASURED, POWERS, power_uses
from engine.decisions import CHOICE, DECISION_KINDS, WOLF, Power, decision

# The Village with buildings: two wolves and a Wild Child whose model (F) dies on the
# first night, so the Bonesetter is a werewolf from the first dawn on (his card stays
# ``wild_child``). Night 1: the Seer sees W1, the Raven posts on W2, the pack eats F.
# Dawn: the Bailiff gives F's farm to the Vagabond V. Day 1: the Confessor hears K,
# K (a wolf now) gives the Confessor his token back, the Barber shaves W1, the
# Schoolmistress bars C; the vote condemns W2, the Castellan refuses his plea. Night 2:
# the Seer sees C, the Arsonist burns K's hovel, K eats B. Day 2: K is voted out, the
# Castellan refuses again; the village wins.
VILLAGE = [  # name, card, building, scripted answers
    ("W1", "werewolf", "farmer", {"wolf_kill": ["F"], "vote": ["W2"]}),
    ("W2", "werewolf", "farmer", {"wolf_kill": ["F"], "vote": ["S"], "castellan_plea": [True]}),
    ("S", "seer", "schoolmistress", {"seer_check": ["W1", "C"], "schoolmistress_forbid": ["C", None]}),
    ("R", "raven", "confessor", {"raven_mark": ["W2", None], "confessor_hear": ["K"], "vote": ["W2", "K"]}),
    ("X", "arsonist", "barber", {"arsonist_burn": [None, "K"], "barber_shave": ["W1"], "vote": ["W2", "K"]}),
    ("C", "villager", "castellan", {"castellan_pardon": [False, False], "vote": ["K"]}),
    ("K", "wild_child", "bonesetter", {"wild_child_model": ["F"], "wolf_kill": ["B"], "bonesetter_restore": ["R"], "vote": ["W2", "C"],
                                       "castellan_plea": [True]}),  # fmt: skip
    ("V", "villager", "vagabond", {"vagabond_accept": [True], "vote": ["W2", "K"]}),
    ("B", "villager", "bailiff", {"bailiff_assign": ["V"], "vote": ["W2", "K"]}),
    ("F", "villager", "farmer", {}),
]

# (day, seat, kind, side, target, target a wolf, good, chance), in the order of use
VILLAGE_USES = [
    (1, "S", "seer_check", "village", "W1", True, True, 2 / 9),  # W1, W2 among the 9 others
    (1, "R", "raven_mark", "village", "W2", True, True, 2 / 8),  # never the Vagabond V, nor himself
    (1, "B", "bailiff_assign", "village", "V", False, True, 1.0),  # the only Vagabond
    (1, "R", "confessor_hear", "village", "K", True, True, 3 / 8),  # K turned at dawn: W1, W2, K among 8
    (1, "K", "bonesetter_restore", "werewolves", "R", False, False, 0.0),  # for the pack, only a wolf's token is worth restoring
    (1, "X", "barber_shave", "village", "W1", True, True, 3 / 8),
    (1, "S", "schoolmistress_forbid", "village", "C", False, False, 2 / 7),  # W1 shaved: W2, K among 7
    (1, "C", "castellan_pardon", "village", "W2", True, True, 1 / 2),  # a wolf refused
    (2, "S", "seer_check", "village", "C", False, False, 1 / 6),  # K the last wolf among 6
    (2, "X", "arsonist_burn", "village", "K", True, True, 1 / 7),  # his own home allowed, V's farm stands
    (2, "C", "castellan_pardon", "village", "K", True, True, 1 / 2),
]

# The forum: the Vigilante shoots a Civilian on the opening day, the wolf W is lynched;
# night 1: the Guardian Angel guards the Psychic, who reads the Pack Leader, who sniffs
# the Psychic; the Ninja kills the Pack Leader, the Priest brings W back; day 1 W is
# lynched again, and the quiet dawn after it gives the humans the game.
FORUM = [
    ("P", "pack_leader", {"pack_leader_sniff": ["Y"], "wolf_kill": ["C2"]}),
    ("W", "werewolf", {"wolf_kill": ["C2"], "vote": ["C2"]}),
    ("Y", "psychic", {"psychic_read": ["P"], "vote": ["W", "W"]}),
    ("G", "guardian_angel", {"guardian_angel_protect": ["Y"], "vote": ["W", "W"]}),
    ("V", "vigilante", {"vigilante_shoot": ["C1"], "vote": ["W", "W"]}),
    ("N", "ninja", {"ninja_kill": ["P"], "vote": ["W", "W"]}),
    ("Q", "priest", {"priest_revive": [None, "W"], "vote": ["W", "W"]}),
    ("C1", "civilian", {}),
    ("C2", "civilian", {"vote": ["W"]}),
]

FORUM_USES = [
    (0, "V", "vigilante_shoot", "village", "C1", False, False, 2 / 8),
    (1, "G", "guardian_angel_protect", "village", "Y", False, True, 6 / 7),  # herself allowed; P the only wolf alive
    (1, "Y", "psychic_read", "village", "P", True, True, 1 / 6),
    (1, "P", "pack_leader_sniff", "werewolves", "Y", False, True, 5 / 6),  # every human but the Civilian C2 holds an Auxiliary Role
    (1, "N", "ninja_kill", "village", "P", True, True, 1 / 6),
    (1, "Q", "priest_revive", "village", "W", True, False, 1 / 2),  # the dead: C1, W
]


def village_spec(seats=VILLAGE, seed: int = 1) -> GameSpec:
    options = {"sheriff": False, "wolves_may_pass": True, "buildings": "listed", "building_tokens": [s[2] for s in seats]}
    return GameSpec(preset="village", seed=seed, options=options,
                    seats=[SeatSpec(name=n, role=r, building=b, agent="scripted", answers=a) for n, r, b, a in seats])  # fmt: skip


def forum_spec() -> GameSpec:
    return GameSpec(preset="forum", seed=1, seats=[SeatSpec(name=n, role=r, agent="scripted", answers=a) for n, r, a in FORUM])


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("powers")
    out = {}
    for name, spec in (("village", village_spec()), ("forum", forum_spec())):
        out[name] = folder / f"{name}.jsonl"
        game = play_to_file(spec, out[name])
        assert game.over and game.winner == "village"
    return out


def as_rows(uses):
    return [(u["day"], u["seat"], u["kind"], u["side"], u["target"], u["target_wolf"], u["good"], u["chance"]) for u in uses]


def check_uses(uses, expected):
    rows = as_rows(uses)
    assert [r[:7] for r in rows] == [e[:7] for e in expected]
    assert [r[7] for r in rows] == pytest.approx([e[7] for e in expected])


def test_every_engine_decision_kind_is_placed_in_one_table():
    assert not set(POWERS) & set(NOT_MEASURED)
    assert set(POWERS) | set(NOT_MEASURED) == set(DECISION_KINDS)
    assert all(NOT_MEASURED.values())
    with pytest.raises(ValueError, match="neither"):
        decision("a_kind_nobody_placed", CHOICE)
    with pytest.raises(ValueError, match="both"):
        decision("a_kind_placed_twice", CHOICE, power=Power(WOLF), unmeasured="and not measured")


def test_the_village_with_buildings(games):
    g = load_transcript(games["village"])
    assert g.roles["K"] == "wild_child" and not g.is_wolf("K")  # the card stays: only the replay knows he turned
    check_uses(power_uses(g), VILLAGE_USES)
    m = game_metrics(g)
    s = m["seats"]
    assert (s["S"]["power_uses"], s["S"]["power_good"], s["S"]["power_wolf_targets"]) == (3, 1, 1)
    assert s["S"]["power_expected_good"] == pytest.approx(2 / 9 + 2 / 7 + 1 / 6, abs=1e-6)
    assert (s["R"]["power_uses"], s["R"]["power_good"]) == (2, 2)
    assert s["R"]["power_expected_good"] == pytest.approx(2 / 8 + 3 / 8)
    assert (s["X"]["power_uses"], s["X"]["power_good"]) == (2, 2)
    assert (s["C"]["power_uses"], s["C"]["power_good"], s["C"]["power_expected_good"]) == (2, 2, 1.0)
    assert (s["K"]["power_uses"], s["K"]["power_good"], s["K"]["power_expected_good"]) == (1, 0, 0.0)
    assert (s["W1"]["power_uses"], s["F"]["power_uses"]) == (0, 0)  # the pack's kills are not powers measured here
    kinds = m["powers"]["kinds"]
    assert set(kinds["bonesetter_restore"]) == {"werewolves"} and kinds["bonesetter_restore"]["werewolves"]["ratio"] is None
    seer = kinds["seer_check"]["village"]
    assert (seer["uses"], seer["good"], seer["wolf_targets"]) == (2, 1, 1)
    assert seer["chance_rate"] == pytest.approx((2 / 9 + 1 / 6) / 2)
    assert seer["ratio"] == pytest.approx(1 / (2 / 9 + 1 / 6))


def test_the_forum(games):
    g = load_transcript(games["forum"])
    check_uses(power_uses(g), FORUM_USES)
    s = game_metrics(g)["seats"]
    assert (s["P"]["power_uses"], s["P"]["power_good"], s["P"]["power_wolf_targets"]) == (1, 1, 0)
    assert (s["Q"]["power_uses"], s["Q"]["power_good"], s["Q"]["power_wolf_targets"]) == (1, 0, 1)


def test_a_wolf_castellan_is_measured_from_the_wolves_side(tmp_path):
    """A wolf in the manor, condemned, pardons himself: good for the pack."""
    seats = [
        ("W", "werewolf", "castellan", {"wolf_kill": [None], "castellan_pardon": [True]}),
        ("A", "villager", "farmer", {"vote": ["W", "W"]}),
        ("B", "villager", "farmer", {"vote": ["W", "W"]}),
        ("D", "villager", "farmer", {"vote": ["W", "W"]}),
    ]
    path = tmp_path / "castle.jsonl"
    play_to_file(village_spec(seats), path)
    assert as_rows(power_uses(load_transcript(path))) == [(1, "W", "castellan_pardon", "werewolves", "W", True, True, 0.5)]


def test_without_recorded_options_chance_is_among_the_living_others_or_the_dead(games, tmp_path):
    def strip(rows):
        for r in rows:
            if r.get("type") == "answer" and r["kind"] in ("psychic_read", "priest_revive", "vigilante_shoot"):
                r.pop("options", None)

    g = load_transcript(edit(games["forum"], tmp_path / "old.jsonl", strip))
    chances = {u["kind"]: u["chance"] for u in power_uses(g)}
    assert chances["vigilante_shoot"] == pytest.approx(2 / 8)  # the 8 living others, the same as the options
    assert chances["psychic_read"] == pytest.approx(1 / 6)  # P, G, V, N, Q, C2 alive (C1, W dead)
    assert chances["priest_revive"] == pytest.approx(1 / 2)  # the dead before the dawn: C1, W


def test_truth_follows_conversions_deaths_and_revivals(games):
    g = load_transcript(games["forum"])
    t = Truth(g)
    seen = []
    for e in g.timeline:
        t.see(e)
        if e.kind in ("revived", "death") and e.data.get("player") == "W":
            seen.append((e.kind, "W" in t.living(), t.is_wolf("W")))
    assert seen == [("death", False, True), ("revived", True, True), ("death", False, True)]
    v = load_transcript(games["village"])
    t = Truth(v)
    before = t.is_wolf("K")
    for e in v.timeline:
        t.see(e)
    assert (before, t.is_wolf("K"), t.role_of("K")) == (False, True, "wild_child")


def test_aggregate_per_agent_side_and_kind(games):
    gs = [load_transcript(games["village"]), load_transcript(games["forum"])]
    agg = aggregate(gs)
    uses = VILLAGE_USES + FORUM_USES
    by_kind = agg["powers_by_kind"]
    assert set(by_kind) == {f"{u[2]} / {u[3]}" for u in uses}
    seer = by_kind["seer_check / village"]
    assert seer["uses"] == 2 and seer["good_rate"]["k"] == 1 and seer["good_rate"]["low"] < 0.5 < seer["good_rate"]["high"]
    assert seer["ratio_to_chance"]["value"] == pytest.approx(1 / (2 / 9 + 1 / 6))
    scripted = agg["powers_by_label"]["scripted"]
    assert scripted["uses"] == len(uses) == 17
    assert scripted["good_rate"]["k"] == sum(u[6] for u in uses) == 12
    assert scripted["chance_rate"] == pytest.approx(sum(u[7] for u in uses) / 17)
    assert scripted["wolf_target_rate"]["k"] == sum(u[5] for u in uses)
    sides = agg["powers_by_label_side"]
    assert (sides["scripted / werewolves"]["uses"], sides["scripted / werewolves"]["good_rate"]["k"]) == (2, 1)
    assert agg["powers_by_label_kind"]["scripted / castellan_pardon / village"]["uses"] == 2
    # the seat summaries add up to the same per agent (the tournament's stored counts)
    beh = agg["by_label"]["scripted"]["powers"]
    assert beh["uses"] == 17 and beh["good_rate"]["k"] == 12
    assert beh["ratio_to_chance"]["value"] == pytest.approx(scripted["ratio_to_chance"]["value"], rel=1e-5)
    r = beh["ratio_to_chance"]
    assert r["low"] == pytest.approx(beh["good_rate"]["low"] / beh["chance_rate"])


def test_metrics_command_reports_powers(games, capsys):
    folder = games["village"].parent
    assert main(["metrics", str(folder), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["aggregate"]["powers_by_kind"]["arsonist_burn / village"]["good_rate"]["k"] == 1
    assert {g["transcript"].rsplit("/", 1)[-1]: len(g["powers"]["uses"]) for g in doc["games"]} == {"forum.jsonl": 6, "village.jsonl": 11}
    assert main(["metrics", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "Targeted powers by kind and side" in out and "pack_leader_sniff" in out and "bonesetter_restore" in out
    assert main(["metrics", str(games["village"]), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert len(doc["powers"]["uses"]) == 11 and doc["powers"]["kinds"]["confessor_hear"]["village"]["good"] == 1
    assert main(["metrics", str(games["village"])]) == 0
    out = capsys.readouterr().out
    assert "Targeted powers" in out and "castellan_pardon" in out and "K: refused" in out and "K (wolf)" in out


def test_votes_are_scored_with_the_sides_of_their_moment(games):
    """The vote metric replays conversions too: the day-2 votes against K (a wolf since
    his model died, card unchanged) are hits, and K's own votes are a wolf's."""
    from arena.metrics.votes import ballots

    day2 = [b for b in ballots(load_transcript(games["village"])) if b["day"] == 2]
    against_k = [b for b in day2 if b["target"] == "K"]
    assert against_k and all(b["hit"] for b in against_k)
    assert all(b["voter_wolf"] for b in day2 if b["voter"] == "K")
