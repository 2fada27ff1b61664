"""A person's games on the leaderboard, seen in real Chromium.

The store is filled as ``werewolf serve --db`` fills it (``tests/test_people_games.py``
checks the rows): seven finished web games of Alice's and one the host stopped before
its end. The static site ``werewolf leaderboard --db --html`` builds from it is then
opened in the browser, and what a person reads there is checked: Alice's row, with
her rating and its interval, counting the seven finished games only; the game list
without the abandoned game; the note on how many games a person needs.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from test_people_games import over, table
from test_web_browser import browser, page  # noqa: F401  (the browser fixtures, used by name)
from web_tools import web_client

from arena.cli import main
from arena.people_games import abandoned
from arena.web.app import create_app

ELO = re.compile(r"^([-+]?\d+) \[([-+]?\d+), ([-+]?\d+)\]$")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> tuple[Path, str]:
    """The site built from a store of seven finished games and an abandoned one: its
    folder and the abandoned game's id."""
    tmp = tmp_path_factory.mktemp("people-site")
    db = tmp / "people.sqlite"
    with web_client(create_app(tmp / "games", people_db=db)) as client:
        for seed in range(1, 8):
            r = client.post("/api/games", json=table(seed))
            assert r.status_code == 201, r.text
            assert over(client, r.json())["status"] == "over"
        links = client.post("/api/games", json=table(99, timeout=600)).json()
        time.sleep(0.3)
        assert client.post("/api" + links["host"] + "/stop", json={}).json() == {"stopped": True}
        assert over(client, links)["status"] == "stopped"
    (left,) = abandoned(db)
    assert main(["leaderboard", "--db", str(db), "--bootstrap", "40", "--html", str(tmp / "site")]) == 0
    return tmp / "site", str(left["id"])


def test_the_leaderboard_lists_the_person_with_an_interval(site, page):  # noqa: F811
    folder, _ = site
    page.goto((folder / "index.html").as_uri())
    row = page.locator("table.ranking tbody tr", has=page.locator('[data-participant="Alice"]'))
    assert row.count() == 1 and row.is_visible()
    cells = row.locator("td").all_inner_texts()
    assert cells[1] == "human"
    found = ELO.match(row.locator(".elo").inner_text().strip())
    assert found, cells
    value, low, high = (int(x) for x in found.groups())
    assert low <= value <= high and low < high
    # The games she finished, not the one she left.
    header = page.locator("table.ranking thead th").all_inner_texts()
    assert cells[header.index("Games")] == "7"
    note = page.locator("p.note.people")
    assert note.is_visible() and "Alice (a person) has played 7 games" in note.inner_text()


def test_an_abandoned_game_is_not_rated(site, page):  # noqa: F811
    folder, left = site
    page.goto((folder / "games.html").as_uri())
    replays = page.locator("a.replay").evaluate_all("links => links.map((a) => a.href)")
    assert len(replays) == 7
    # Each listed game's replay names the transcript it was built from: the seven
    # finished games, never the one the host stopped.
    played = set()
    for href in replays:
        page.goto(href)
        played |= set(re.findall(r"web-[0-9-]+-[0-9a-f]+(?=\.jsonl)", page.locator("body").inner_text()))
    assert len(played) == 7 and left not in played
    # The person's rated games are the listed ones.
    page.goto((folder / "index.html").as_uri())
    row = page.locator("table.ranking tbody tr", has=page.locator('[data-participant="Alice"]'))
    header = page.locator("table.ranking thead th").all_inner_texts()
    assert row.locator("td").all_inner_texts()[header.index("Games")] == str(len(replays))
    assert left not in page.locator("body").inner_text()
