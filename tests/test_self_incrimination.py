"""Self-incrimination (``arena.metrics.self_incrimination``): a werewolf's own claims
that reveal its card or a packmate, on a hand-made transcript."""

from __future__ import annotations

import json

from arena.cli import main
from arena.metrics import load_transcript
from arena.metrics.self_incrimination import WolfSeat, self_incrimination, wolf_seats
from test_metrics import ev, speech

ROLES = {"Ann": "werewolf", "Fay": "werewolf", "Gus": "werewolf", "Ben": "seer", "Cat": "villager", "Dan": "villager"}


def _records() -> list[dict]:
    seats = [{"name": n, "agent": "heuristic", "role": r} for n, r in ROLES.items()]
    seats[1] = {"name": "Fay", "agent": "openai:m1", "role": "werewolf", "options": {"display_name": "Model-1"}}
    return [
        {"type": "header", "format": "werewolf-transcript", "version": 1, "preset": "millers_hollow", "options": {}, "seed": 1,
         "seats": seats, "software": "test"},
        speech(1, "Ann", role="werewolf"),  # says what it is
        speech(2, "Fay", checks=[("Ann", "werewolf")]),  # hands a packmate over by a claimed check
        speech(3, "Gus", role="villager", checks=[("Fay", "villager")], accuses=["Cat"]),  # covers its pack: gives nothing away
        speech(4, "Cat", accuses=["Ann"]),  # a villager naming a wolf is not a wolf's self-incrimination
        ev(5, "game_end", 1, "end", {"winner": "werewolves", "winners": ["Ann", "Fay", "Gus"], "reason": "r", "roles": ROLES,
                                     "initial_roles": ROLES, "lovers": None}),  # fmt: skip
        {"type": "result", "winner": "werewolves", "winners": ["Ann", "Fay", "Gus"], "deaths": [], "players": [], "days": 1},
    ]


def test_a_wolf_that_names_its_card_or_a_packmate_is_counted(tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in _records()), encoding="utf-8")
    seats = wolf_seats(load_transcript(path))
    assert seats == [WolfSeat("heuristic", True, False), WolfSeat("Model-1", False, True), WolfSeat("heuristic", False, False)]
    s = self_incrimination([seats])
    assert s is not None
    by = {r["agent"]: r for r in s["by_agent"]}
    assert by["heuristic"]["wolf_seats"] == 2 and by["heuristic"]["card"]["k"] == 1 and by["heuristic"]["pack"]["k"] == 0
    assert by["Model-1"]["pack"]["rate"] == 1.0 and by["Model-1"]["either"]["low"] > 0
    assert self_incrimination([[]]) is None
    capsys.readouterr()
    assert main(["metrics", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["aggregate"]["self_incrimination"] == s
    assert main(["metrics", str(tmp_path)]) == 0
    assert "Self-incrimination" in capsys.readouterr().out
