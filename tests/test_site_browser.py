"""The leaderboard site in a real browser (Debian's Chromium, headless, Playwright),
opened from the disk: the ranking shows ``--json``'s numbers, the charts are drawn, a
game link opens its replay, and at a phone's width nothing scrolls sideways.
Screenshots (wide and phone, English and Chinese, a replay) go to artifacts/screenshots/.

Skipped without Chromium or Playwright on a developer's machine, failed under CI
(the rule of ``test_web_browser``)."""

from __future__ import annotations

import pytest

from test_site import make_site
from test_web_browser import ARGS, CHROMIUM, SHOTS, _browser_or_skip
from arena.site.frame import num


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return make_site(tmp_path_factory.mktemp("site-browser"), games=12, seating="teams", beliefs=True)


@pytest.fixture(scope="module")
def monitored(tmp_path_factory):
    return make_site(tmp_path_factory.mktemp("site-monitor"), games=8, monitor="words")


@pytest.fixture(scope="module")
def browser(site, monitored):
    """After the sites: a tournament runs its own event loop, which Playwright's would block."""
    sync_playwright = _browser_or_skip()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


def _open(browser, path, width):
    ctx = browser.new_context(viewport={"width": width, "height": 900})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    requests: list[str] = []
    pg.on("request", lambda r: requests.append(r.url) if not r.url.startswith("file://") else None)
    pg.goto(path.as_uri())
    return ctx, pg, errors, requests


def test_the_page_opens_from_disk_draws_its_charts_and_links_a_replay(browser, site):
    data, _, out = site
    SHOTS.mkdir(parents=True, exist_ok=True)
    ctx, pg, errors, requests = _open(browser, out / "index.html", 1280)
    elos = pg.locator("table.ranking span.elo").all_inner_texts()
    assert elos == [num(r["rating"]) for r in data["participants"]]
    names = pg.locator("table.ranking [data-participant]").evaluate_all("els => els.map(e => e.dataset.participant)")
    assert names == [r["participant"] for r in data["participants"]]
    for chart in ("svg.rating", "svg.grid", "svg.scatter", "svg.behaviour"):
        box = pg.locator(chart).first.bounding_box()
        assert box and box["width"] > 200 and box["height"] > 60, chart
    assert pg.locator("svg.rating circle.dot").count() == len(data["participants"])
    assert pg.locator("svg.grid g.cell").count() == len(data["participants"]) * (len(data["participants"]) - 1)
    pg.screenshot(path=str(SHOTS / "site_index.png"), full_page=True)
    pg.click("text=" + f"All {len(data['game_list'])} games and their replays")
    assert pg.url.endswith("/games.html")
    assert pg.locator("a.replay").count() == len(data["game_list"])
    pg.screenshot(path=str(SHOTS / "site_games.png"), full_page=True)
    first = data["game_list"][0]["id"]
    pg.click(f"a.replay >> text={first}")
    assert pg.url.endswith(f"/games/{first}.html")
    pg.locator("label[for=view-full]").click()
    assert pg.locator("main .v").first.is_visible()
    pg.screenshot(path=str(SHOTS / "site_replay.png"), full_page=False)
    pg.click("text=← leaderboard")
    assert pg.url.endswith("/index.html")
    pg.click("a.lang")
    assert pg.url.endswith("/index.zh.html") and pg.locator("h1").inner_text().startswith("狼人杀竞技场排行榜")
    assert pg.locator("table.ranking span.elo").all_inner_texts() == elos  # the same numbers in Chinese
    assert pg.locator("svg.behaviour").count() == 4  # votes, powers, lies, beliefs
    assert not errors and not requests, (errors, requests)  # nothing fetched beyond the disk
    ctx.close()


@pytest.mark.parametrize("name", ["index.html", "index.zh.html", "games.html"])
def test_a_phone_does_not_scroll_sideways(browser, site, name):
    _, _, out = site
    ctx, pg, errors, _ = _open(browser, out / name, 375)
    assert pg.evaluate("document.documentElement.scrollWidth") <= 375
    if name.startswith("index"):
        box = pg.locator("svg.rating").bounding_box()
        assert box and box["width"] <= 375 and box["height"] > 40
    pg.screenshot(path=str(SHOTS / f"site_phone_{name.replace('.html', '')}.png"), full_page=True)
    assert not errors
    ctx.close()


@pytest.mark.parametrize("width", [1280, 390])
def test_the_monitor_section_reads_at_both_widths(browser, monitored, width):
    """The monitor's table and chart and the self-incrimination table are drawn, and at
    a phone's width the page still does not scroll sideways (a wide table scrolls in
    its own box, as the others do)."""
    data, _, out = monitored
    ctx, pg, errors, requests = _open(browser, out / "index.html", width)
    assert pg.evaluate("document.documentElement.scrollWidth") <= width
    rows = pg.locator("table.monitor tbody tr")
    assert rows.count() == len(data["monitor"]["monitors"][0]["by_agent"])
    assert rows.first.inner_text().split("\t")[0] == data["monitor"]["monitors"][0]["by_agent"][0]["agent"]
    chart = pg.locator("#monitor ~ figure svg").first.bounding_box()
    assert chart and 0 < chart["width"] <= width and chart["height"] > 40
    assert pg.locator("table.self-incrimination tbody tr").count() == len(data["monitor"]["self_incrimination"]["by_agent"])
    pg.evaluate("document.getElementById('monitor').scrollIntoView()")
    pg.screenshot(path=str(SHOTS / f"site_monitor_{width}.png"), full_page=False)
    assert not errors and not requests, (errors, requests)
    ctx.close()
