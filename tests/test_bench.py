"""``werewolf bench`` end to end, offline: the estimate on the stand-in, a budget stop,
the resume, the card, ``--verify CARD`` and the board of cards.

The "model" is ``openai:gpt-5.4-mini`` served by the local stand-in of the OpenAI API
(``arena/standin_server.py``: the real wire protocol, usage billed by OpenAI's documented
prompt-cache rules), so its games are priced as the real model's would be. The protocol
is a tiny one (one table, one opponent, two deals) so the test plays few games.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from arena.bench.confseq import rating_interval
from arena.bench.protocol import ProtocolError, load_protocol, shipped
from arena.bench.run import DB_NAME, Bench
from arena.cli import main
from arena.standin_server import StandInServer
from arena.tournament.store import Store

MODEL = "openai:gpt-5.4-mini"


def tiny_protocol(tmp_path: Path) -> Path:
    data = {
        "name": "tiny", "version": 1, "seed": 5, "target": 1.0, "batch": 1, "max_deals": 2, "concurrency": 2, "comparable": False,
        "tables": [{"preset": "millers_hollow", "players": 6}],
        "opponents": [{"name": "Heuristic", "agent": "heuristic", "rating": 0.0}],
        "pars": [{"table": 0, "opponent": "Heuristic", "side": "werewolves", "elo": 100.0, "games": 0},
                 {"table": 0, "opponent": "Heuristic", "side": "village", "elo": -100.0, "games": 0}],
    }  # fmt: skip
    path = tmp_path / "tiny.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


@pytest.fixture
def api(monkeypatch):
    with StandInServer(latency=0.0) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        monkeypatch.delenv("WEREWOLF_SIGNING_KEY", raising=False)
        yield server


def bench(capsys, *args: str) -> tuple[int, dict]:
    code = main(["bench", *args, "--yes", "--json"])
    out = capsys.readouterr().out.strip()
    return code, (json.loads(out) if out else {})


def test_whole_path_offline(api, tmp_path, capsys):
    proto = tiny_protocol(tmp_path)
    out = tmp_path / "run"
    # a budget for one batch (two games) only: the dry run's cost a game, times two and a bit
    code, first = bench(capsys, MODEL, "--protocol", str(proto), "--out", str(out), "--budget-usd", "0.000001")
    assert code == 0 and first["games"] == 0  # not even one batch fits: nothing played, a card saying so
    card = json.loads(Path(first["card"]).read_text())
    per_game = card["estimate"]["usd_per_game"]
    assert per_game > 0 and card["stopped"] == "budget"

    code, second = bench(capsys, MODEL, "--protocol", str(proto), "--out", str(out), "--budget-usd", str(per_game * 2.5))
    assert code == 0 and second["games"] == 2 and second["cost_usd"] > 0
    code, third = bench(capsys, MODEL, "--protocol", str(proto), "--out", str(out))
    assert code == 0 and third["games"] == 4 and third["protocol"] == "tiny@1" and third["model"] == MODEL
    assert set(third["rating"]) == {"value", "low", "high"}
    store = Store.open_existing(out / DB_NAME)
    try:
        assert len(store.games()) == 4  # resumed: the first two were not played again
    finally:
        store.close()
    card = json.loads(Path(third["card"]).read_text())
    assert card["cost"]["usd"] == pytest.approx(third["cost_usd"]) and card["rule_following"]["decisions"] > 0
    assert set(card["sides"]) == {"deceiver", "detector"} and card["signer"]
    assert (out / "card.html").read_text().count("transcript</a>") == 4

    assert main(["bench", "--verify", third["card"]]) == 0
    # a changed transcript no longer matches its signature and its hash
    t = out / card["transcripts"][1]["path"]
    t.write_text(t.read_text().replace('"Heuristic"', '"Heuristik"', 1) + "\n")
    capsys.readouterr()
    assert main(["bench", "--verify", third["card"]]) != 0
    assert "SHA-256" in capsys.readouterr().err


def test_board_of_cards(api, tmp_path, capsys):
    proto = tiny_protocol(tmp_path)
    for lab in ("a", "b"):
        code, _ = bench(capsys, "heuristic", "--protocol", str(proto), "--out", str(tmp_path / "cards" / lab))
        assert code == 0
    # one lab's card claims a better number than its games give
    bad = tmp_path / "cards" / "b" / "card.json"
    card = json.loads(bad.read_text())
    card["rating"]["value"] += 50
    bad.write_text(json.dumps(card))
    assert main(["leaderboard", "--cards", str(tmp_path / "cards"), "--html", str(tmp_path / "site"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (group,) = data["protocols"]
    assert [r["card"] for r in group["cards"]] == [str(tmp_path / "cards" / "a" / "card.json")]
    assert "recomputed" in group["rejected"][0]["problems"][0]
    assert "heuristic" in (tmp_path / "site" / "index.html").read_text()


def test_asks_before_playing(api, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin.isatty", lambda: False)
    code = main(["bench", "heuristic", "--protocol", str(tiny_protocol(tmp_path)), "--out", str(tmp_path / "r")])
    assert code == 2 and "--yes" in capsys.readouterr().err
    assert not (tmp_path / "r" / DB_NAME).exists()


def test_unreachable_endpoint_stops_before_anything(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    code = main(["bench", MODEL, "--protocol", str(tiny_protocol(tmp_path)), "--out", str(tmp_path / "r"), "--yes"])
    assert code == 2
    assert "127.0.0.1:9" in capsys.readouterr().err
    assert not (tmp_path / "r" / DB_NAME).exists()


def test_shipped_protocols_load_and_a_bad_name_is_named():
    assert {"v1", "smoke"} <= set(shipped())
    v1 = load_protocol("v1")
    assert {t.preset for t in v1.tables} == {"millers_hollow", "langrensha"} and {t.players for t in v1.tables} == {8, 12}
    assert [o.agent for o in v1.opponents] == ["reasoner", "heuristic", "random"]
    with pytest.raises(ProtocolError, match="no bench protocol 'v9'"):
        load_protocol("v9")


def test_a_protocol_with_a_missing_par_or_an_unknown_key_is_refused(tmp_path):
    path = tiny_protocol(tmp_path)
    data = yaml.safe_load(path.read_text())
    data["pars"] = data["pars"][:1]
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(ProtocolError, match="pars must cover every table, opponent and side"):
        load_protocol(str(path))
    data = yaml.safe_load(tiny_protocol(tmp_path).read_text())
    data["stop_when"] = "separated"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(ProtocolError, match="stop_when"):
        load_protocol(str(path))


def test_a_bad_spec_makes_nothing(tmp_path, capsys):
    out = tmp_path / "r"
    assert main(["bench", "heuristic", "--model-option", "noise=7", "--protocol", "smoke", "--out", str(out), "--yes"]) == 2
    assert "noise" in capsys.readouterr().err and not out.exists()
    assert main(["bench", "--verify", str(tmp_path / "none.json")]) == 1
    assert "not a readable card" in capsys.readouterr().err
    assert main(["leaderboard"]) == 2 and "--cards DIR" in capsys.readouterr().err


def test_stops_once_the_interval_is_narrower_than_the_target(tmp_path):
    proto = load_protocol(str(tiny_protocol(tmp_path))).model_copy(update={"target": 1500.0, "batch": 5, "max_deals": 40})
    state = Bench(proto, "heuristic", {"noise": 0.3}, tmp_path / "r").run()
    assert state.stopped == "target"
    assert len(state.outcomes) < 2 * proto.max_deals and len(state.outcomes) % (2 * proto.batch) == 0
    assert state.interval(proto).half_width < 1500
    shorter = [o.won for o in state.outcomes[: -2 * proto.batch]]
    assert rating_interval(shorter, [o.par for o in state.outcomes[: len(shorter)]]).half_width >= 1500  # not one look too late
