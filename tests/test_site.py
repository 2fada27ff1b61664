"""``werewolf leaderboard --html``: the static site is built from ``--json``'s own numbers,
links every game to its replay, shows side figures only where identified, escapes
names, needs no network, and survives a missing transcript."""

from __future__ import annotations

import contextlib
import io
import json
import re
import sqlite3
from pathlib import Path

import pytest
import yaml

from arena.cli import main
from arena.monitor.run import monitor_path
from arena.site.frame import num, pct
from arena.tournament.cli import participants_by_file
from arena.tournament.config import config_from_data
from arena.tournament.run import run_tournament

BOTS = Path(__file__).resolve().parent.parent / "examples" / "tournaments" / "bots.yaml"


def make_site(folder: Path, *, games: int = 10, seating: str = "mixed", participants: list | None = None,
              language: str = "en", beliefs: bool = False, monitor: str | None = None) -> tuple[dict, Path, Path]:
    """A tiny bot tournament from examples/tournaments/bots.yaml, its ``--json`` and its
    site: (the JSON, the database, the site's folder)."""
    raw = yaml.safe_load(BOTS.read_text(encoding="utf-8"))
    raw.update(games=games, seating=seating, beliefs=beliefs, monitor=monitor)
    if participants is not None:
        raw["participants"] = participants
    db = folder / "t.sqlite"
    run_tournament(config_from_data(raw), db, progress=False)
    out = folder / "site"
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["leaderboard", "--db", str(db), "--json", "--bootstrap", "40", "--html", str(out), "--language", language]) == 0
    return json.loads(buf.getvalue()), db, out


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    return make_site(tmp_path_factory.mktemp("site-mixed"), games=10)


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def test_the_page_shows_the_json_numbers(mixed):
    data, db, out = mixed
    assert json.loads((out / "leaderboard.json").read_text(encoding="utf-8")) == data
    page = (out / "index.html").read_text(encoding="utf-8")
    ranking = page.split('class="ranking"')[1].split("</table>")[0]
    shown = re.findall(r'data-participant="([^"]+)">(\d+)\.', ranking)
    assert [n for n, _ in shown] == [r["participant"] for r in data["participants"]]  # best first, as in --json
    elos = re.findall(r'<span class="elo">([^<]+)</span>', ranking)
    assert elos == [num(r["rating"]) for r in data["participants"]]
    for r in data["participants"]:
        assert pct(r["win_rate"]) in ranking
    pairs = page.split('class="pairs"')[1].split("</table>")[0]
    for q in data["pairs"]:
        assert f"{100 * q['p_better']:.1f}%" in pairs
    grid = page.split('class="chart grid"')[1].split("</svg>")[0]
    for q in data["pairs"]:  # both halves of the grid: P and 1 - P
        assert f"{100 * q['p_better']:.0f}%" in grid and f"{100 * (1 - q['p_better']):.0f}%" in grid
    roles = page.split('class="roles"')[1].split("</table>")[0]
    for r in data["participants"]:
        for e in r["win_rate_by_role"].values():
            assert pct(e) in roles


def test_no_monitor_section_without_ratings(mixed):
    data, _, out = mixed
    assert data["monitor"] is None and 'id="monitor"' not in (out / "index.html").read_text(encoding="utf-8")


def test_the_page_shows_each_monitors_auroc_and_self_incrimination(tmp_path):
    """A tournament monitored by ``words``: a table per monitor, each participant's two
    AUROCs and the gap as ``werewolf monitor`` gives them, and self-incrimination; what
    each number assumes is said on the page, in both languages."""
    data, db, out = make_site(tmp_path, games=12, monitor="words")
    m = data["monitor"]
    assert [x["monitor"] for x in m["monitors"]] == ["words"] and m["monitors"][0]["games"] == 12
    by_file = participants_by_file(str(db))
    direct = monitor_path(db.parent / "t_transcripts", "words", who=by_file, read_only=True, seed=0)
    assert m["monitors"][0]["by_agent"] == direct["by_agent"]  # the page's numbers are the command's
    page = (out / "index.html").read_text(encoding="utf-8")
    section = _text(page.split('id="monitor"')[1].split("<h2")[0])
    for r in m["monitors"][0]["by_agent"]:
        assert r["agent"] in section and num(r["public_auroc"], 3) in section and num(r["gap"], 3, signed=True) in section
    assert "ties count half" in section and "not its hidden chain of thought" in section
    si = m["self_incrimination"]["by_agent"]
    assert {r["agent"] for r in si} <= {p["participant"] for p in data["participants"]} and all(r["wolf_seats"] > 0 for r in si)
    assert "Self-incrimination" in section and pct(si[0]["either"]) in section
    zh = _text((out / "index.zh.html").read_text(encoding="utf-8"))
    assert "可监控性" in zh and "自我暴露" in zh


def test_cost_and_games_match_the_database(mixed):
    data, db, out = mixed
    con = sqlite3.connect(db)
    for p, calls, seats, fallbacks in con.execute("SELECT participant, SUM(calls), COUNT(*), SUM(fallbacks) FROM seats GROUP BY participant"):
        e = data["efficiency"][p]
        assert (e["calls"], e["seats"], e["fallbacks"]) == (calls, seats, fallbacks)
        assert e["games"] == next(r["games"] for r in data["participants"] if r["participant"] == p)
    ids = [r[0] for r in con.execute("SELECT id FROM games ORDER BY idx")]
    assert [g["id"] for g in data["game_list"]] == ids and len(ids) == 10
    games = (out / "games.html").read_text(encoding="utf-8")
    links = re.findall(r'class="replay" href="games/([^"]+)\.html"', games)
    assert sorted(links) == sorted(ids)
    for gid in ids:
        replay = (out / "games" / f"{gid}.html").read_text(encoding="utf-8")
        assert "view-full" in replay and "../index.html" in replay  # the export's views, and the way back
        assert str(db.parent) not in replay  # the verdict names the file, not where it lay
    assert "werewolf-arena" in _text(games) and data["tournament"]["software"]
    assert data["tournament"]["config"]["name"] == "bots"


def test_mixed_seating_says_sides_are_not_identified(mixed):
    data, _, out = mixed
    assert data["side_ratings"]["identified"] is False
    page = (out / "index.html").read_text(encoding="utf-8")
    sides = page.split('id="sides"')[1].split("<h2")[0]
    skills, whole = sides.split("<h3", 1)
    assert "not identified" in whole
    if not any(r["win_rate_vs_field"]["village"]["value"] is not None for r in data["participants"]):
        assert "nothing" in whole and "chart scatter" not in whole
    # Deceiver against detector is drawn under mixed seating too, when the seats identify it.
    identified = data["side_skills"]["identified"] and any(r["detector"]["value"] is not None for r in data["participants"])
    assert ("chart scatter" in skills) == identified
    assert "cross-validation" in skills or "Not cross-validated" in skills


def test_identical_participants_are_named(mixed):
    data, _, out = mixed
    assert data["identical_participants"] == [["Heuristic", "Heuristic-B"]]
    page = _text((out / "index.html").read_text(encoding="utf-8"))
    assert "Heuristic, Heuristic-B are the same agent" in page


def test_no_network_and_both_languages(mixed):
    _, _, out = mixed
    for name in ("index.html", "games.html", "index.zh.html", "games.zh.html"):
        html = (out / name).read_text(encoding="utf-8")
        assert not re.search(r'(src|href)="(https?:)?//', html), name  # nothing fetched from anywhere
        assert "<script" not in html
    zh = (out / "index.zh.html").read_text(encoding="utf-8")
    assert 'lang="zh-Hans"' in zh and "排名" in zh and "预言家" in zh  # the prompts' role name
    assert 'href="index.html"' in zh and 'href="index.zh.html"' in (out / "index.html").read_text(encoding="utf-8")


def test_the_language_switch_reads_without_chinese_fonts(mixed):
    """The English page's switch read "中文" alone: two empty boxes on a machine
    without Chinese fonts. It names the language in Latin letters too, marked as Chinese."""
    _, _, out = mixed
    switch = re.search(r'<a class="lang"[^>]*>([^<]*)</a>', (out / "index.html").read_text(encoding="utf-8"))
    assert switch and "Chinese" in switch.group(1) and "中文" in switch.group(1)
    assert re.search(r'<a class="lang"[^>]*>English</a>', (out / "index.zh.html").read_text(encoding="utf-8"))


def test_teams_seating_draws_deceiver_against_detector(tmp_path):
    data, _, out = make_site(tmp_path, games=12, seating="teams", beliefs=True)
    assert data["side_ratings"]["identified"] is True
    sides = (out / "index.html").read_text(encoding="utf-8").split('id="sides"')[1].split("<h2")[0]
    assert "chart scatter" in sides
    for r in data["participants"]:
        bt = r["bradley_terry_by_side"]
        if bt["village"]["value"] is not None and bt["werewolves"]["value"] is not None:
            assert f"<title>{r['participant']}: {bt['village']['value']:.0f}, {bt['werewolves']['value']:.0f}</title>" in sides
            assert num(bt["village"]) in sides and num(bt["werewolves"]) in sides
    page = (out / "index.html").read_text(encoding="utf-8")
    behaviour = page.split('id="behaviour"')[1].split("<h2")[0]
    assert "Belief skill as village" in behaviour  # the beliefs chart, drawn when seats gave beliefs
    rated = [r["behaviour"]["by_side"]["village"] for r in data["participants"] if r["behaviour"]["by_side"]["village"]["belief_ratings"]]
    assert rated  # the heuristic bots state beliefs (the random bot does not)
    for v in rated:
        assert f"n={v['belief_ratings']}" in behaviour and f"{v['brier']:.3f} / {v['baseline_brier']:.3f}" in behaviour
    for r in data["participants"]:
        assert num(r["behaviour"]["by_side"]["village"]["ratio_to_chance"], 2) in behaviour


def test_names_are_escaped_and_a_missing_transcript_is_listed(tmp_path):
    evil = [{"name": "<i>Evil</i>", "agent": "heuristic"}, {"name": "R&D", "agent": "random"}]
    data, db, out = make_site(tmp_path, games=4, participants=evil, language="zh")
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "<i>Evil</i>" not in page and "&lt;i&gt;Evil&lt;/i&gt;" in page and 'lang="zh-Hans"' in page
    first = data["game_list"][0]
    (db.parent / first["transcript"]).unlink()
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        assert main(["leaderboard", "--db", str(db), "--json", "--bootstrap", "20", "--html", str(out)]) == 0
    again = json.loads(buf.getvalue())
    assert next(g for g in again["game_list"] if g["id"] == first["id"])["transcript_found"] is False
    games = (out / "games.html").read_text(encoding="utf-8")
    assert f'href="games/{first["id"]}.html"' not in games and "transcript missing" in games
    assert len(re.findall(r'class="replay"', games)) == len(data["game_list"]) - 1


def test_a_rebuild_exports_only_changed_transcripts(tmp_path):
    import os

    data, db, out = make_site(tmp_path, games=3)
    pages = {g["id"]: out / "games" / f"{g['id']}.html" for g in data["game_list"]}
    for p in pages.values():
        p.write_text(p.read_text(encoding="utf-8") + "<!-- kept -->", encoding="utf-8")
    changed = data["game_list"][1]
    src = db.parent / changed["transcript"]
    st = src.stat()
    os.utime(src, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["leaderboard", "--db", str(db), "--bootstrap", "20", "--html", str(out)]) == 0
    kept = {gid for gid, p in pages.items() if p.read_text(encoding="utf-8").endswith("<!-- kept -->")}
    assert kept == set(pages) - {changed["id"]}


def test_a_computed_leaderboard_hands_the_site_the_same_seat_counts_it_would_read(mixed, tmp_path):
    """Computing the leaderboard parses every seat's metrics and hands the site's
    efficiency what it reads of them; a cached one leaves the site to read them. Both
    give the same figures, seat for seat (distinct counts per seat, so a seat paired
    with another's counts would show)."""
    _, db, _ = mixed
    copy = tmp_path / "copy.sqlite"
    copy.write_bytes(db.read_bytes())
    con = sqlite3.connect(copy)
    con.execute("UPDATE seats SET metrics = json_set(metrics, '$.cached_tokens', rowid * 7, '$.latency_s', rowid * 0.37,"
                " '$.decisions_asked', rowid % 5 + 3, '$.errors', rowid % 3)")  # fmt: skip
    con.execute("DELETE FROM cache")
    con.commit()
    con.close()

    def site_json() -> dict:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            assert main(["leaderboard", "--db", str(copy), "--json", "--bootstrap", "40"]) == 0
        return json.loads(buf.getvalue())

    computed, cached = site_json(), site_json()
    assert computed["efficiency"] == cached["efficiency"]
    assert computed == cached
    assert len({e["cached_input_tokens"] for e in computed["efficiency"].values()}) > 1
