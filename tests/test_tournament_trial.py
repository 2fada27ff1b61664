"""A model participant that falls back: judged on its first games, paused, said so, resumed.

The rule itself (``arena.tournament.trial``) on made-up tallies; the run, the rerun and
the leaderboard against the OpenAI stand-in (``llm_standins``): a server that drops
every connection is what a dead endpoint looks like to the SDK (httpx's ``ConnectError``,
https://www.python-httpx.org/exceptions/), one that drops one in N is a flaky one.
"""

from __future__ import annotations

import itertools
import json
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from arena.cli import main
from arena.tournament.config import config_from_data
from arena.tournament.run import run_tournament
from arena.tournament.trial import EVIDENCE, FIRST_LOOK, TRIAL_DECISIONS, Admission, Tally, Trials, binomial_tail, judge
from arena.tournament.watch import PASSED_OVER_KEY
from llm_standins import OpenAIStandIn, reset_llm_state, set_fake_keys, standin_router

FAST = {"max_retries": 0, "retry_initial": 0, "timeout": 5}


# ---------------------------------------------------------------------- the rule
def games(*tallies: tuple[int, int]) -> list[tuple[str, Tally]]:
    return [(f"g{i}", Tally(asked, fell)) for i, (asked, fell) in enumerate(tallies)]


def test_binomial_tail_is_exact():
    assert binomial_tail(0, 4, 0.9) == pytest.approx(1e-4)
    assert binomial_tail(2, 3, 0.5) == pytest.approx(7 / 8)
    assert binomial_tail(5, 5, 0.3) == 1.0


def test_a_participant_that_decides_nothing_is_paused_after_its_first_game():
    v = judge(games((7, 7), (9, 0)), 0.9)
    assert (v.phase, v.games, v.asked, v.decided, v.early, v.last_game) == ("paused", 1, 7, 0, True, "g0")


def test_too_few_decisions_are_no_evidence():
    """Nothing decided of 3 is what a 90% participant does once in 1,000: not enough."""
    assert binomial_tail(0, 3, 0.9) >= EVIDENCE
    v = judge(games((3, 3)), 0.9)
    assert v.phase == "first_look" and v.asked == 3


def test_one_that_sometimes_falls_back_passes_its_trial():
    """One fallback in 20 decisions (95% its own) is above the bar: never paused,
    even when a single game of it falls below 90% (the leaderboard drops that game)."""
    v = judge(games((10, 2), (10, 0), (10, 0), (10, 0), (10, 0), (10, 0)), 0.9)
    assert (v.phase, v.games, v.asked, v.decided) == ("passed", 5, 50, 48)


def test_one_below_the_bar_is_paused_at_the_end_of_its_trial():
    """80% its own: no single game is damning, the trial's 50 decisions are."""
    v = judge(games(*[(10, 2)] * 6), 0.9)
    assert (v.phase, v.games, v.early) == ("paused", 5, False)
    assert judge(games(*[(10, 2)] * 4), 0.9).phase == "trial"


def test_a_bar_of_zero_pauses_nobody():
    assert judge(games((20, 20), (40, 40)), 0.0).phase == "passed"
    assert Trials(["M"], 0.0).watched == set()


def test_trial_decisions_hold_the_promised_error_rates():
    """The figures TRIAL_DECISIONS is chosen by (docs/TOURNAMENTS.md): judged on 50
    decisions, a 95% participant is paused by chance under 4% of the time, a 98% one
    under 0.1%, an 80% one 95% of the time."""
    bar = 0.9
    most_decided_when_paused = next(k for k in range(TRIAL_DECISIONS, -1, -1) if k / TRIAL_DECISIONS < bar)
    assert binomial_tail(most_decided_when_paused, TRIAL_DECISIONS, 0.95) < 0.04
    assert binomial_tail(most_decided_when_paused, TRIAL_DECISIONS, 0.98) < 0.001
    assert binomial_tail(most_decided_when_paused, TRIAL_DECISIONS, 0.80) > 0.95
    assert 0.5**FIRST_LOOK < EVIDENCE  # nothing decided of the first look pauses at any bar from 0.5


def test_the_first_look_plays_one_game_at_a_time_in_plan_order():
    t = Trials(["M"], 0.9)
    for i, g in enumerate(["a", "b", "c"]):
        t.add(i, g, ["M", "H"])
    t.add(3, "bots", ["H"])
    assert t.admits("b", ["M", "H"]) is Admission.WAIT  # "a" comes first
    assert t.admits("bots", ["H"]) is Admission.START  # games without it never wait
    assert t.admits("a", ["M", "H"]) is Admission.START
    t.started("a", ["M", "H"])
    assert t.admits("b", ["M", "H"]) is Admission.WAIT  # "a" is in flight
    assert t.landed("a", {"M": Tally(6, 0), "H": Tally(0, 0)}) == []
    assert t.verdicts["M"].phase == "first_look"
    assert t.admits("b", ["M", "H"]) is Admission.START
    t.started("b", ["M", "H"])
    assert t.landed("b", {"M": Tally(6, 1)}) == []
    assert t.verdicts["M"].phase == "trial"  # 12 decisions seen: its games run at once now
    assert t.admits("c", ["M", "H"]) is Admission.START


def test_a_failed_game_does_not_hold_the_first_look():
    t = Trials(["M"], 0.9)
    t.add(0, "a", ["M"])
    t.add(1, "b", ["M"])
    t.started("a", ["M"])
    t.dropped("a", ["M"])
    assert t.admits("b", ["M"]) is Admission.START


def test_a_paused_participants_games_are_skipped_and_the_others_play():
    t = Trials(["M", "N"], 0.9)
    t.add(0, "m1", ["M"])
    t.add(1, "mn", ["M", "N"])
    t.add(2, "n1", ["N"])
    assert t.landed("m1", {"M": Tally(8, 8)}) == ["M"]
    assert t.admits("mn", ["M", "N"]) is Admission.SKIP
    assert t.admits("n1", ["N"]) is Admission.WAIT  # "mn" came first for N
    t.dropped("mn", ["M", "N"])  # skipped: N no longer waits for it
    assert t.admits("n1", ["N"]) is Admission.START


def test_the_verdict_does_not_depend_on_the_order_games_land():
    tallies = {"a": Tally(6, 6), "b": Tally(6, 0), "c": Tally(6, 0), "d": Tally(6, 6)}
    seen = set()
    for order in itertools.permutations(tallies):
        t = Trials(["M"], 0.9)
        for i, g in enumerate(tallies):
            t.add(i, g, ["M"])
        for g in order:
            t.landed(g, {"M": tallies[g]})
        v = t.verdicts["M"]
        seen.add((v.phase, v.games, v.asked, v.decided))
    assert seen == {("paused", 1, 6, 0)}


def test_passed_over_games_are_not_judged_again():
    t = Trials(["M"], 0.9, passed_over={"M": ["a"]})
    t.add(0, "a", ["M"])
    t.add(1, "b", ["M"])
    t.landed("a", {"M": Tally(8, 8)})
    assert t.verdicts["M"].phase == "first_look" and t.admits("b", ["M"]) is Admission.START


# ---------------------------------------------------------------------- the run
class Dropping(OpenAIStandIn):
    """The OpenAI stand-in with every ``every``-th connection dropped (1: all of them)."""

    def __init__(self, router: Any, every: int, **kw: Any):
        super().__init__(router, **kw)
        self.every = every
        self.seen = 0

    async def _handle(self, request: httpx.Request) -> httpx.Response:
        self.seen += 1
        if self.seen % self.every == 0:
            raise httpx.ConnectError("stand-in: connection refused", request=request)
        return await super()._handle(request)


def cfg_data(games: int = 12, dead_options: dict | None = None, **over: Any) -> dict:
    data = {
        "name": "trial", "seed": 5, "games": games, "seating": "teams",
        "tables": [{"players": 5, "options": {"sheriff": False}}],
        "participants": [
            {"name": "Dead", "agent": "openai:gpt-5.4-mini", "options": {**FAST, **(dead_options or {})}},
            {"name": "H", "agent": "heuristic"},
            {"name": "R", "agent": "random"},
        ],
        "concurrency": {"games": 3},
    }  # fmt: skip
    data.update(over)
    return data


def write_cfg(tmp_path: Path, data: dict) -> Path:
    p = tmp_path / "t.yaml"
    p.write_text(yaml.safe_dump(data), encoding="utf-8")
    return p


def stored(db: Path) -> list[tuple[str, str]]:
    """(game id, participants) of every stored game, in plan order."""
    con = sqlite3.connect(db)
    rows = con.execute("SELECT g.id, GROUP_CONCAT(DISTINCT s.participant) FROM games g JOIN seats s ON s.game_id = g.id GROUP BY g.id ORDER BY g.idx")
    return [(gid, ",".join(sorted(who.split(",")))) for gid, who in rows]


@pytest.fixture
def keys(monkeypatch):
    set_fake_keys(monkeypatch)
    reset_llm_state()
    yield
    reset_llm_state()


def test_a_dead_participant_is_paused_after_one_game_and_the_others_play_on(tmp_path, keys, capsys):
    """Three participants, each ordered pair in turn, three games at once: the dead one
    plays one game (its first look is one game at a time), then every game seating it
    is left unplayed while the heuristic and random bots finish theirs. A rerun plays
    nothing, repeats nothing and says why again; so does it in JSON."""
    cfg = write_cfg(tmp_path, cfg_data())
    db = tmp_path / "t.sqlite"
    with standin_router() as router:
        dead = Dropping(router, every=1)
        assert main(["tournament", str(cfg), "--db", str(db), "--quiet"]) == 3
        out, err = (" ".join(x.split()) for x in capsys.readouterr())  # as one line: the console wraps
        first = stored(db)
        dead_games = [g for g, who in first if "Dead" in who]
        assert len(dead_games) == 1 and dead.seen > 0
        assert len(first) == 1 + 4  # the bots' pairs (H-R, R-H), 2 each of 12 games: 4
        assert "(1 with fallback moves: Dead 1; 1 below --min-decided 0.9, left out by the leaderboard: Dead 1)" in out
        assert "paused Dead (openai:gpt-5.4-mini): its own agent decided 0 of its" in out
        assert "Last error: gave up" in out or "Last error: connection error" in out
        assert "7 games seating it left unplayed" in out and "--retry-paused" in out and "--min-decided 0" in out
        assert "paused Dead" in err  # said at once, while the run went on

        requests = dead.seen
        assert main(["tournament", str(cfg), "--db", str(db), "--quiet", "--json"]) == 3
        report = json.loads(capsys.readouterr().out)
        assert dead.seen == requests and stored(db) == first  # nothing played, nothing repeated
    assert (report["played"], report["stopped"], report["remaining"]) == (0, "paused", 7)
    (p,) = report["paused"]
    assert (p["participant"], p["decided"], p["games"], p["early"], p["unplayed"]) == ("Dead", 0, 1, True, 7)
    assert p["asked"] >= 4 and p["last_error"]
    assert report["fallbacks"]["games"] == 0  # none played now


def test_retry_paused_gives_a_new_trial_and_the_leaderboard_still_leaves_the_first_out(tmp_path, keys, capsys):
    cfg = write_cfg(tmp_path, cfg_data(games=4, participants=cfg_data()["participants"][:2]))
    db = tmp_path / "t.sqlite"
    with standin_router() as router:
        Dropping(router, every=1)
        assert main(["tournament", str(cfg), "--db", str(db), "--quiet"]) == 3
    capsys.readouterr()
    (paused_game,) = stored(db)
    with standin_router() as router:  # the server is back
        OpenAIStandIn(router)
        assert main(["tournament", str(cfg), "--db", str(db), "--quiet"]) == 3  # no flag: paused still
        assert "paused Dead" in capsys.readouterr().out and len(stored(db)) == 1
        assert main(["tournament", str(cfg), "--db", str(db), "--quiet", "--retry-paused", "--json"]) == 0
        captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert "a new trial from its next game" in captured.err
    assert (report["played"], report["remaining"], report["paused"]) == (3, 0, [])
    assert json.loads(sqlite3.connect(db).execute("SELECT value FROM meta WHERE key = ?", (PASSED_OVER_KEY,)).fetchone()[0]) == {
        "Dead": [paused_game[0]]
    }
    assert main(["leaderboard", "--db", str(db), "--bootstrap", "20"]) == 0
    text = capsys.readouterr().out
    assert "1 game left out (Dead 1)" in " ".join(text.split()) and "--min-decided 0 includes them" in " ".join(text.split())


def test_a_participant_that_sometimes_falls_back_plays_every_game(tmp_path, keys, capsys):
    """One request in 40 dropped: a few decisions go to the fallback bot, its own agent
    still decides well above 90%, so it passes its trial and plays all its games; the
    summary counts the games with fallback moves."""
    data = cfg_data(games=8, participants=cfg_data()["participants"][:2])
    db = tmp_path / "t.sqlite"
    with standin_router() as router:
        Dropping(router, every=40)
        report = run_tournament(config_from_data(data), db, progress=False)
    assert report.paused == [] and report.stopped is None and report.played == 8
    f = report.fallbacks
    assert f["games"] >= 1 and f["by_participant"] == {"Dead": f["games"]}
    con = sqlite3.connect(db)
    asked, fell = con.execute(
        "SELECT SUM(json_extract(metrics, '$.decisions_asked')), SUM(fallbacks) FROM seats WHERE participant = 'Dead'"
    ).fetchone()
    assert asked >= TRIAL_DECISIONS and 0 < fell and (asked - fell) / asked >= 0.9


def test_min_decided_zero_plays_every_game_with_fallback_moves(tmp_path, keys, capsys):
    cfg = write_cfg(tmp_path, cfg_data(games=3, participants=cfg_data()["participants"][:2]))
    db = tmp_path / "t.sqlite"
    with standin_router() as router:
        Dropping(router, every=1)
        assert main(["tournament", str(cfg), "--db", str(db), "--quiet", "--min-decided", "0"]) == 0
    out = capsys.readouterr().out
    assert "3 played now (3 with fallback moves: Dead 3)" in " ".join(out.split()) and "paused" not in out
    # The leaderboard's default bar leaves all three out and says so, never "no finished game".
    assert main(["leaderboard", "--db", str(db), "--bootstrap", "20"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert text.startswith("no game rated: 3 of 3 finished games left out (Dead 3)") and "--min-decided 0 includes them" in text
    assert "no finished game" not in text
    assert main(["leaderboard", "--db", str(db), "--bootstrap", "20", "--plot", str(tmp_path / "plots")]) == 2
    assert "no game rated: 3 of 3 finished games left out" in capsys.readouterr().err
    assert main(["leaderboard", "--db", str(db), "--bootstrap", "20", "--html", str(tmp_path / "site")]) == 0
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "3 games left out (Dead 3)" in page and "--min-decided 0 includes them." in page
    assert "--min-decided 0" in (tmp_path / "site" / "index.zh.html").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["leaderboard", "--db", str(db), "--bootstrap", "20", "--min-decided", "0", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 3


def test_bad_min_decided_is_refused(tmp_path, capsys):
    cfg = write_cfg(tmp_path, cfg_data())
    assert main(["tournament", str(cfg), "--db", str(tmp_path / "x.sqlite"), "--min-decided", "1.5"]) == 2
    assert "--min-decided must be a share between 0 and 1" in capsys.readouterr().err


def test_the_progress_bar_counts_games_with_fallback_moves_as_they_land(tmp_path, keys):
    import io

    from rich.console import Console

    buf = io.StringIO()
    data = cfg_data(games=2, participants=cfg_data()["participants"][:2])
    with standin_router() as router:
        Dropping(router, every=1)
        report = run_tournament(config_from_data(data), tmp_path / "t.sqlite", console=Console(file=buf, width=200), min_decided=0)
    assert report.played == 2 and report.fallbacks["games"] == 2
    assert "2 with fallback moves" in buf.getvalue()


def test_a_retried_participant_still_failing_is_paused_again_after_one_game(tmp_path, keys, capsys):
    cfg = write_cfg(tmp_path, cfg_data(games=4, participants=cfg_data()["participants"][:2]))
    db = tmp_path / "t.sqlite"
    with standin_router() as router:
        Dropping(router, every=1)
        assert main(["tournament", str(cfg), "--db", str(db), "--quiet"]) == 3
        capsys.readouterr()
        assert main(["tournament", str(cfg), "--db", str(db), "--quiet", "--retry-paused", "--json"]) == 3
        report = json.loads(capsys.readouterr().out)
        assert len(stored(db)) == 2
        assert main(["tournament", str(cfg), "--db", str(db), "--quiet"]) == 3  # and says it again
        out = " ".join(capsys.readouterr().out.split())
    (p,) = report["paused"]
    assert (report["played"], p["games"], p["retried"], p["unplayed"]) == (1, 1, True, 2)
    assert "decisions in the first game of its new trial" in out and len(stored(db)) == 2
