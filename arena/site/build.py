"""The static site: ``index.html`` (ratings, head to head, sides, roles, behaviour,
cost, self-play), ``games.html`` (every game) and ``games/<id>.html`` (each game's
replay, the existing per-game export), in two languages, plus ``leaderboard.json``.

Why built from ``--json``'s dictionary: the page is a view of those numbers and
nothing else, so a reader can check any figure on it against the JSON beside it.
No script, no network, no CDN: inline CSS and inline SVG open from the disk.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from arena.site import svg
from arena.site.svg import esc

WORDS = Path(__file__).with_name("words.json")
LANGUAGES = ("en", "zh")
SIDES = ("village", "werewolves")


@lru_cache(maxsize=None)
def _table() -> dict[str, dict[str, str]]:
    return json.loads(WORDS.read_text(encoding="utf-8"))


class Words:
    """The site's words in one language (a key missing there is said in English); role
    names and winners in the prompts' and the web table's own words."""

    def __init__(self, language: str):
        self.language = language
        self.w = {**_table()["en"], **_table().get(language, {})}
        from arena.web.render import role_names
        from arena.web.words import words

        self.roles = role_names(language)
        web = words(language)
        self.sides = {"village": web.get("win.village", "village"), "werewolves": web.get("win.werewolves", "werewolves")}

    def __call__(self, key: str, **values: Any) -> str:
        text = self.w.get(key, key)
        return re.sub(r"\{(\w+)\}", lambda m: str(values.get(m.group(1), m.group(0))), text)

    def role(self, role: str) -> str:
        return self.roles.get(role, role)

    def winner(self, winner: str) -> str:
        from arena.web.words import words

        return words(self.language).get(f"win.{winner}", winner)


# ---------------------------------------------------------------------- numbers
def num(e: dict[str, Any] | None, digits: int = 0, scale: float = 1.0, signed: bool = False) -> str:
    """A value with its interval in brackets, or a dash when the data cannot support it."""
    raw = e.get("value", e.get("rate")) if e else None
    if e is None or raw is None:
        return "—"
    v = float(raw)
    fmt = f"{{:{'+' if signed else ''}.{digits}f}}"

    def one(x: float) -> str:
        text = fmt.format(x * scale)
        return text.replace("-", "", 1) if float(text) == 0 and text.startswith("-") else text  # never "-0"

    out = one(v)
    if e.get("low") is not None and e.get("high") is not None:
        out += f" [{one(e['low'])}, {one(e['high'])}]"
    return out


def pct(e: dict[str, Any] | None) -> str:
    """A Wilson or bootstrap rate in percent with its interval and, for Wilson, n."""
    text = num(e, 1, 100.0)
    if text != "—" and e and "n" in e:
        text += f" n={e['n']}"
    return text


def money(v: float | None, words: Words) -> str:
    return words("unpriced") if v is None else f"{v:.4f}"


def opt(v: float | None, digits: int = 2) -> str:
    return "—" if v is None else f"{v:.{digits}f}"


# ---------------------------------------------------------------------- page frame
CSS = """
:root { --ink: #1d2433; --muted: #5b6475; --paper: #fbfaf7; --line: #dcdfe6; --accent: #2166ac; --bad: #b2182b; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans CJK SC", sans-serif; color: var(--ink); background: var(--paper); }
header.top, main, footer { max-width: 1100px; margin: 0 auto; padding: 0 1rem; }
header.top { padding-top: 1rem; }
h1 { font-size: 1.5rem; margin: .2rem 0; } h2 { font-size: 1.2rem; margin: 1.6rem 0 .5rem; border-bottom: 1px solid var(--line); padding-bottom: .2rem; }
p.note, .muted { color: var(--muted); font-size: .9rem; }
nav.sections { display: flex; flex-wrap: wrap; gap: .3rem .8rem; margin: .6rem 0; font-size: .92rem; }
nav.sections a, a { color: var(--accent); }
.lang { float: right; font-size: .9rem; }
.scroll { overflow-x: auto; max-width: 100%; -webkit-overflow-scrolling: touch; }
table { border-collapse: collapse; font-size: .88rem; margin: .3rem 0 .8rem; }
th, td { border-bottom: 1px solid var(--line); padding: .25rem .5rem; text-align: right; vertical-align: top; white-space: nowrap; }
th { white-space: normal; }
div.seats { white-space: normal; text-align: left; min-width: 13rem; }
th { background: #eef0f4; font-weight: 600; }
td.name, th.name, td.left { text-align: left; }
tr.sep td { font-weight: 600; }
svg.chart { width: 100%; height: auto; display: block; max-width: 560px; font-size: 13px; }
svg.scatter { max-width: 460px; }
svg .grid, svg line.grid { stroke: #e3e6ec; stroke-width: 1; }
svg .zero { stroke: #888; stroke-dasharray: 4 3; }
svg .ci { stroke: var(--accent); stroke-width: 2; }
svg .dot { fill: var(--accent); }
svg .tick { fill: var(--muted); font-size: 11px; } svg .axis { fill: var(--ink); font-size: 12px; }
svg .name { fill: var(--ink); }
svg .missing { fill: var(--muted); }
svg .cell rect, svg rect.cell { stroke: #fff; } svg rect.empty { fill: #f1f1f1; }
svg .cell.sep rect { stroke: var(--ink); stroke-width: 2.5; }
svg .cell text { font-size: 13px; fill: #111; } svg .cell text.small { font-size: 10px; fill: #333; }
svg .c1 .dot { fill: #b2182b; } svg .c1 .ci { stroke: #b2182b; } svg .c2 .dot { fill: #1b7837; } svg .c2 .ci { stroke: #1b7837; }
svg .c3 .dot { fill: #762a83; } svg .c3 .ci { stroke: #762a83; } svg .c4 .dot { fill: #e08214; } svg .c4 .ci { stroke: #e08214; }
svg .c5 .dot { fill: #35978f; } svg .c5 .ci { stroke: #35978f; } svg .c6 .dot { fill: #8c510a; } svg .c6 .ci { stroke: #8c510a; }
svg .c7 .dot { fill: #4d4d4d; } svg .c7 .ci { stroke: #4d4d4d; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 420px), 1fr)); gap: 1rem; }
figure { margin: 0; } figcaption { font-size: .85rem; color: var(--muted); margin-bottom: .2rem; }
pre { white-space: pre-wrap; word-break: break-word; font-size: .8rem; background: #f2f2ee; padding: .6rem; }
.tag { font-size: .75rem; background: #eee3c8; border-radius: 3px; padding: 0 .3rem; margin-left: .3rem; }
footer { margin: 2rem auto; color: var(--muted); font-size: .85rem; }
@media (max-width: 600px) { body { font-size: 14px; } th, td { padding: .2rem .3rem; } div.seats { min-width: 10rem; } }
"""


def page(title: str, body: str, words: Words, other: str) -> str:
    lang = "zh-Hans" if words.language == "zh" else "en"
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body>"
        f'<header class="top"><a class="lang" href="{esc(other)}">{esc(words("lang.other"))}</a>{body}</body></html>'
    )


def _suffix(language: str, main: str) -> str:
    return "" if language == main else f".{language}"


def nav(words: Words, sfx: str) -> str:
    items = [("ranking", "nav.ranking"), ("h2h", "nav.h2h"), ("sides", "nav.sides"), ("roles", "nav.roles"),
             ("behaviour", "nav.behaviour"), ("cost", "nav.cost"), ("identical", "nav.identical")]  # fmt: skip
    links = " ".join(f'<a href="index{sfx}.html#{a}">{esc(words(k))}</a>' for a, k in items)
    return f'<nav class="sections">{links} <a href="games{sfx}.html">{esc(words("nav.games"))}</a></nav>'


def table(head: list[str], rows: list[list[str]], cls: str = "", row_cls: list[str] | None = None) -> str:
    """An HTML table; cells are already-escaped HTML; the first two columns align left."""
    th = "".join(f'<th class="{"name" if i < 2 else ""}">{h}</th>' for i, h in enumerate(head))
    body = []
    for ri, r in enumerate(rows):
        rc = f' class="{row_cls[ri]}"' if row_cls and row_cls[ri] else ""
        body.append(f"<tr{rc}>" + "".join(f'<td class="{"name" if i < 2 else ""}">{c}</td>' for i, c in enumerate(r)) + "</tr>")
    return f'<div class="scroll"><table class="{cls}"><thead><tr>{th}</tr></thead><tbody>{"".join(body)}</tbody></table></div>'


# ---------------------------------------------------------------------- index sections
def headline(d: dict[str, Any], w: Words) -> str:
    b = d["bootstrap"]
    text = w("headline", games=d["games"], decided=d["decided_games"], boot=b["resamples"], unit=w(f"unit.{b['unit']}"), seed=b["seed"])
    win = " · ".join(f"{esc(w.winner(k))} {pct(v)}" for k, v in d["winners"].items())
    out = f'<p class="note">{esc(text)}</p><p class="note">{esc(w("winners"))}: {win} · {esc(w("village_advantage"))}: {num(d["village_advantage_elo"])}</p>'
    ex = d.get("excluded") or {}
    if ex.get("games"):
        who = ", ".join(f"{p} {n}" for p, n in sorted(ex.get("by_participant", {}).items()))
        reason = w("excluded.reason", share=f"{100 * ex['min_decided']:g}")
        out += f'<p class="note">{esc(w("excluded", n=ex["games"], who=who, reason=reason))}</p>'
    return out


def ranking(d: dict[str, Any], w: Words) -> str:
    rows, cls = [], []
    for i, r in enumerate(d["participants"], start=1):
        sep = r.get("separated_from_next")
        mark = "" if sep is None else w("next.sep" if sep else "next.same")
        games = str(r["games"]) + (f" (−{r['excluded_games']})" if r.get("excluded_games") else "")
        rows.append([f'<span data-participant="{esc(r["participant"])}">{i}. {esc(r["participant"])}</span>', esc(r["agent"] or ""),
                     f'<span class="elo">{num(r["rating"])}</span>', esc(mark), games, pct(r["win_rate"]), num(r["openskill"], 1)])  # fmt: skip
        cls.append("sep" if sep else "")
    t = table([esc(w(k)) for k in ("col.participant", "col.agent", "col.rating", "col.next", "col.games", "col.win", "col.openskill")], rows, "ranking", cls)
    chart = svg.interval_chart([(r["participant"], r["rating"]) for r in d["participants"]], label=w("chart.rating"), kind="rating")
    pairs = [[esc(f"{q['a']} − {q['b']}"), num({"value": q["diff"], "low": q["low"], "high": q["high"]}, signed=True),
              "—" if q["p_better"] is None else f"{100 * q['p_better']:.1f}%",
              "" if q["low"] is None else esc(w("yes" if q["low"] > 0 or q["high"] < 0 else "no"))] for q in d["pairs"]]  # fmt: skip
    pt = table([esc(w(k)) for k in ("col.pair", "col.diff", "col.p", "col.separated")], pairs, "pairs")
    return (f'<h2 id="ranking">{esc(w("ranking"))}</h2>{t}<figure><figcaption>{esc(w("chart.rating"))}</figcaption>{chart}</figure>'
            f'<h3>{esc(w("pairs"))}</h3>{pt}')  # fmt: skip


def head_to_head(d: dict[str, Any], w: Words) -> str:
    names = [r["participant"] for r in d["participants"]]
    cell: dict[tuple[str, str], dict[str, Any]] = {}
    for q in d["pairs"]:
        if q["p_better"] is None or q["diff"] is None:
            continue
        sep = q["low"] is not None and (q["low"] > 0 or q["high"] < 0)
        cell[(q["a"], q["b"])] = {"p": q["p_better"], "diff": q["diff"], "low": q["low"], "high": q["high"], "separated": sep}
        cell[(q["b"], q["a"])] = {"p": 1 - q["p_better"], "diff": -q["diff"], "low": None if q["high"] is None else -q["high"],
                                  "high": None if q["low"] is None else -q["low"], "separated": sep}  # fmt: skip
    return f'<h2 id="h2h">{esc(w("h2h"))}</h2><p class="note">{esc(w("h2h.note"))}</p>' + svg.grid(names, cell, label=w("h2h"))


def sides(d: dict[str, Any], w: Words) -> str:
    rows = d["participants"]
    out = f'<h2 id="sides">{esc(w("sides"))}</h2>'
    sr = d.get("side_ratings") or {}
    why = w("why.yes" if sr.get("identified") else "why.no", share=f"{100 * sr.get('single_participant_sides', 0):.0f}")
    if (d.get("side_ratings") or {}).get("identified"):
        pts = [(r["participant"], r["bradley_terry_by_side"]["village"], r["bradley_terry_by_side"]["werewolves"]) for r in rows]
        note, scale, digits, fmt = w("sides.bt"), 1.0, 0, lambda e: num(e)
    else:
        pts = [(r["participant"], r["win_rate_vs_field"]["village"], r["win_rate_vs_field"]["werewolves"]) for r in rows]
        note, scale, digits, fmt = w("sides.field"), 100.0, 1, lambda e: num(e, 1, 100.0, signed=True)
    shown = [p for p in pts if p[1].get("value") is not None and p[2].get("value") is not None]
    if shown:
        out += f'<p class="note">{esc(why)}</p><p class="note">{esc(note)}</p><figure>' + svg.scatter(shown, label=w("sides"), x_label=w("sides.x"), y_label=w("sides.y"), scale=scale, digits=digits) + "</figure>"
        out += table([esc(w("col.participant")), esc(w("col.village")), esc(w("col.wolves"))], [[esc(n), fmt(x), fmt(y)] for n, x, y in pts], "sides")
    else:
        out += f'<p class="note nothing">{esc(w("sides.none", why=why))}</p>'
    return out


def roles(d: dict[str, Any], w: Words) -> str:
    rs = sorted({role for r in d["participants"] for role in r["win_rate_by_role"]})
    side_rows = [[esc(r["participant"]), *(pct(r["win_rate_by_side"][s]) for s in SIDES)] for r in d["participants"]]
    role_rows = [[esc(r["participant"]), *(pct(r["win_rate_by_role"].get(x)) for x in rs)] for r in d["participants"]]
    return (f'<h2 id="roles">{esc(w("roles"))}</h2>' + table([esc(w("col.participant")), *(esc(w.role(x)) for x in rs)], role_rows, "roles")
            + f'<h3>{esc(w("sides.win"))}</h3>' + table([esc(w("col.participant")), esc(w("col.village")), esc(w("col.wolves"))], side_rows, "side-wins"))  # fmt: skip


def behaviour(d: dict[str, Any], w: Words) -> str:
    rows = [r for r in d["participants"] if r.get("behaviour")]
    out = f'<h2 id="behaviour">{esc(w("behaviour"))}</h2>'
    if not rows:
        return out + f'<p class="note">{esc(w("b.none"))}</p>'

    def village(r: dict[str, Any]) -> dict[str, Any]:
        return ((r["behaviour"].get("by_side") or {}).get("village")) or {}

    charts = [
        (w("b.votes"), [(r["participant"], village(r).get("ratio_to_chance")) for r in rows], 1.0, 2, 1.0),
        (w("b.powers"), [(r["participant"], (r["behaviour"].get("powers") or {}).get("ratio_to_chance")) for r in rows], 1.0, 2, 1.0),
        (w("b.lies"), [(r["participant"], _rate(r["behaviour"].get("lie_rate"))) for r in rows], 100.0, 1, None),
    ]
    if any(village(r).get("belief_ratings") for r in rows):
        charts.append((w("b.brier"), [(r["participant"], {"value": village(r).get("brier_skill")}) for r in rows], 1.0, 2, 0.0))
    figs = "".join(
        f"<figure><figcaption>{esc(title)}</figcaption>{svg.interval_chart(pts, label=title, digits=digits, zero=zero, scale=scale, kind='behaviour')}</figure>"
        for title, pts, scale, digits, zero in charts
    )
    if len(charts) == 3:
        figs += f'<p class="note">{esc(w("b.none"))}</p>'
    return out + f'<div class="charts">{figs}</div>' + behaviour_table(rows, w)


def belief_cell(b: dict[str, Any]) -> str:
    """Brier against the constant answer's, the skill score, AUC and the answers scored."""
    if not b.get("belief_ratings"):
        return "—"
    skill, auc = b.get("brier_skill"), b.get("belief_auc")
    return (f"{b['brier']:.3f} / {b['baseline_brier']:.3f}" + ("" if skill is None else f", {skill:+.2f}")
            + ("" if auc is None else f", AUC {auc:.2f}") + f" n={b['belief_ratings']}")  # fmt: skip


def behaviour_table(rows: list[dict[str, Any]], w: Words) -> str:
    """The charts' figures with their intervals, and beliefs per side, as numbers."""
    body = []
    for r in rows:
        b = r["behaviour"]
        by = b.get("by_side") or {}
        v = by.get("village") or {}
        body.append([esc(r["participant"]), num(v.get("ratio_to_chance"), 2), num((b.get("powers") or {}).get("ratio_to_chance"), 2),
                     pct(b.get("lie_rate")), pct(b.get("lies_survived")), pct(b.get("majority_agreement")),
                     esc(belief_cell(v)), esc(belief_cell(by.get("werewolves") or {}))])  # fmt: skip
    head = [esc(w(k)) for k in ("col.participant", "b.votes", "b.powers", "b.lies", "b.lies_survived", "b.majority", "b.beliefs_village", "b.beliefs_wolves")]
    return f'<p class="note">{esc(w("b.beliefs_note"))}</p>' + table(head, body, "behaviour")


def _rate(e: dict[str, Any] | None) -> dict[str, Any] | None:
    """A Wilson rate ({rate, low, high}) as the charts' {value, low, high}; none when n=0."""
    if not e or not e.get("n"):
        return None
    return {"value": e["rate"], "low": e["low"], "high": e["high"]}


def cost(d: dict[str, Any], w: Words) -> str:
    eff = d.get("efficiency") or {}
    rows = []
    for r in d["participants"]:
        e = eff.get(r["participant"])
        if not e:
            continue
        rows.append([esc(r["participant"]), str(e["games"]), str(e["calls"]), f"{e['input_tokens']:,}", f"{e['cached_input_tokens']:,}",
                     f"{e['output_tokens']:,}", money(e["cost_usd"], w), money(e["usd_per_game"], w) if e["games"] else "—",
                     money(e["usd_per_win"], w) if e["games_won"] else "—", opt(e["mean_latency_s"]), str(e["decisions"]),
                     str(e["fallbacks"]), str(e["violations"])])  # fmt: skip
    head = [esc(w(k)) for k in ("col.participant", "col.games", "col.calls", "col.in", "col.cached", "col.out", "col.usd",
                                 "col.usd_game", "col.usd_win", "col.latency", "col.decisions", "col.fallbacks", "col.violations")]  # fmt: skip
    t = d.get("tournament") or {}
    note = f'<p class="note">{esc(w("cost.none"))}</p>' if not t.get("calls") else ""
    return f'<h2 id="cost">{esc(w("cost"))}</h2>{note}' + table(head, rows, "cost")


def identical(d: dict[str, Any], w: Words, sfx: str) -> str:
    out = f'<h2 id="identical">{esc(w("identical"))}</h2>'
    groups = d.get("identical_participants") or []
    if not groups:
        out += f'<p class="note">{esc(w("identical.none"))}</p>'
    for g in groups:
        out += f'<p class="identical">{esc(w("identical.group", names=", ".join(g)))}</p><ul>'
        for q in d["pairs"]:
            if q["a"] in g and q["b"] in g:
                sep = q["low"] is not None and (q["low"] > 0 or q["high"] < 0)
                p = "—" if q["p_better"] is None else f"{100 * q['p_better']:.0f}%"
                diff = num({"value": q["diff"], "low": q["low"], "high": q["high"]}, signed=True)
                out += f"<li>{esc(w('identical.pair', a=q['a'], b=q['b'], diff=diff, p=p, sep=w('identical.sep' if sep else 'identical.same')))}</li>"
        out += "</ul>"
    sp = d.get("self_play") or {}
    out += f'<p>{esc(w("selfplay", n=sp.get("games", 0), m=sp.get("identical_only_games", 0)))} <a href="games{sfx}.html#selfplay">{esc(w("nav.games"))}</a></p>'
    return out + f'<p class="note">{esc(w("selfplay.note"))}</p>'


def tournament(d: dict[str, Any], w: Words) -> str:
    t = d.get("tournament") or {}
    cfg = json.dumps(t.get("config"), ensure_ascii=False, indent=2)
    return (f'<h2 id="tournament">{esc(w("tournament"))}</h2><p>{esc(w("tournament.name"))}: <b>{esc(t.get("name") or "")}</b> · '
            f'{esc(w("tournament.software"))}: <span class="software">{esc(", ".join(t.get("software") or []) or "—")}</span></p>'
            f'<details><summary>{esc(w("tournament.config"))}</summary><pre>{esc(cfg)}</pre></details>')  # fmt: skip


def index_page(d: dict[str, Any], w: Words, sfx: str, other: str, db: str) -> str:
    t = d.get("tournament") or {}
    n = len(d.get("game_list") or [])
    body = (f'<h1>{esc(w("title"))}: {esc(t.get("name") or "")}</h1>{headline(d, w)}{nav(w, sfx)}</header><main>'
            f'<p><a href="games{sfx}.html">{esc(w("games.link", n=n))}</a></p>'
            + ranking(d, w) + head_to_head(d, w) + sides(d, w) + roles(d, w) + behaviour(d, w) + cost(d, w)
            + identical(d, w, sfx) + tournament(d, w)
            + f'</main><footer>{esc(w("built", db=Path(db).name))}</footer>')  # fmt: skip
    return page(f"{w('title')}: {t.get('name') or ''}", body, w, other)


# ---------------------------------------------------------------------- games page
def seats_cell(g: dict[str, Any], w: Words) -> str:
    """Who sat where, grouped: the wolves by name, then each participant's seat count."""

    def counted(side: str | None) -> str:
        counts: dict[str, int] = {}
        for s in g["seats"]:
            if side is None or s["side"] == side:
                counts[s["participant"]] = counts.get(s["participant"], 0) + 1
        return ", ".join(f"{p} ×{n}" for p, n in counts.items()) or "—"

    return f'<div class="seats">{esc(counted(None))}<br><small>{esc(w.role("werewolf"))}: {esc(counted("werewolves"))}</small></div>'


def game_rows(games: list[dict[str, Any]], w: Words, pages: dict[str, str]) -> list[list[str]]:
    rows = []
    for g in games:
        status = pages.get(g["id"], "missing")
        link = f'<a class="replay" href="games/{esc(g["id"])}.html">{esc(g["id"])}</a>' if status != "missing" else esc(g["id"])
        if status != "ok":
            link += f'<span class="tag">{esc(w("games.missing" if status == "missing" else "games.unverified"))}</span>'
        if g["self_play"]:
            link += f'<span class="tag">{esc(w("mark.selfplay"))}</span>'
        elif g["identical_only"]:
            link += f'<span class="tag">{esc(w("mark.identical"))}</span>'
        rows.append([link, esc(f"{g['preset']} · {g['players']}"), seats_cell(g, w), esc(w.winner(g["winner"])), str(g["days"]),
                     "—" if g["cost_usd"] is None else f"{g['cost_usd']:.4f}"])  # fmt: skip
    return rows


def games_page(d: dict[str, Any], w: Words, sfx: str, other: str, pages: dict[str, str]) -> str:
    games = d.get("game_list") or []
    head = [esc(w(k)) for k in ("col.game", "col.table", "col.seats", "col.winner", "col.days", "col.cost")]
    main = [g for g in games if not g["self_play"] and not g["identical_only"]]
    apart = [g for g in games if g["self_play"] or g["identical_only"]]
    t = d.get("tournament") or {}
    body = (f'<h1>{esc(w("games"))}: {esc(t.get("name") or "")}</h1><p><a href="index{sfx}.html">{esc(w("back"))}</a></p>{nav(w, sfx)}</header><main>'
            + tournament(d, w) + f'<h2 id="games">{esc(w("games"))} ({len(main)})</h2>' + table(head, game_rows(main, w, pages), "games")
            + f'<h2 id="selfplay">{esc(w("games.selfplay"))} ({len(apart)})</h2>'
            + (table(head, game_rows(apart, w, pages), "games selfplay") if apart else "<p class=\"note\">—</p>")
            + "</main>")  # fmt: skip
    return page(f"{w('games')}: {t.get('name') or ''}", body, w, other)


# ---------------------------------------------------------------------- replays and the build
def replay(transcript: Path, out: Path, back: str) -> str:
    """One game's page by the existing export (public / per-seat / full views), with a
    link back to the leaderboard. ``ok``, ``unverified`` (written with its verdict,
    never dropped), or ``missing``."""
    from transcripts.export_html import render_html
    from transcripts.verify import Status, verify_file

    v = verify_file(transcript, allow_unchained=True)
    if v.status is Status.UNREADABLE or v.transcript is None:
        out.unlink(missing_ok=True)  # an earlier build's page of a file no longer there
        return "missing"
    verdict = v.summary().splitlines()[0].replace(str(transcript), transcript.name)  # no local path on a published page
    html_text = render_html(v.transcript, title=transcript.name, verdict=verdict)
    html_text = html_text.replace('<header class="page">', f'<header class="page"><p><a href="../index.html">{esc(back)}</a></p>', 1)
    out.write_text(html_text, encoding="utf-8")
    return "unverified" if v.status is Status.MISMATCH else "ok"


@lru_cache(maxsize=None)
def _exporter_digest() -> str:
    """The export's code and template, hashed: a changed export rebuilds every page."""
    import hashlib

    import transcripts.export_html as export

    h = hashlib.sha256(Path(export.__file__).read_bytes())
    h.update(Path(export.__file__).with_name("templates").joinpath("report.html").read_bytes())
    h.update(Path(__file__).read_bytes())
    return h.hexdigest()[:16]


def _stamp(transcript: Path, back: str) -> str | None:
    """What a replay page depends on: the transcript's size and time, the export's
    code, and the link's words. A rebuild while a tournament runs then exports only
    the new games."""
    try:
        st = transcript.stat()
    except OSError:
        return None
    return f"{st.st_size}:{st.st_mtime_ns}:{_exporter_digest()}:{back}"


@dataclass
class BuildReport:
    folder: Path
    seconds: float = 0.0
    files: int = 0
    bytes: int = 0
    index_bytes: int = 0
    replays: dict[str, int] = field(default_factory=dict)

    def summary(self) -> str:
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(self.replays.items()))
        return (f"wrote {self.folder}/index.html ({self.index_bytes // 1024 + 1} KiB; {self.files} files, "
                f"{self.bytes / 1e6:.1f} MB in all; replays: {kinds or 'none'}) in {self.seconds:.1f} s")  # fmt: skip


def build(data: dict[str, Any], db: str, out_dir: str | Path, language: str = "en") -> BuildReport:
    """Write the site into ``out_dir`` from ``data`` (``--json``'s dictionary)."""
    t0 = time.perf_counter()
    out = Path(out_dir)
    (out / "games").mkdir(parents=True, exist_ok=True)
    folder = Path(db).parent
    pages: dict[str, str] = {}
    back = Words(language)("back")
    manifest_path = out / "games" / "built.json"
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        manifest = {}
    fresh: dict[str, Any] = {}
    for g in data.get("game_list") or []:
        src, dst = folder / g["transcript"], out / "games" / f"{g['id']}.html"
        key = _stamp(src, back)
        old = manifest.get(g["id"])
        if key is not None and old and old[0] == key and old[1] != "missing" and dst.exists():
            pages[g["id"]] = old[1]  # the same transcript, already exported by this version
        else:
            pages[g["id"]] = replay(src, dst, back)
        fresh[g["id"]] = [key, pages[g["id"]]]
    manifest_path.write_text(json.dumps(fresh), encoding="utf-8")
    (out / "leaderboard.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    for lang in (language, *(x for x in LANGUAGES if x != language)):
        w, sfx = Words(lang), _suffix(lang, language)
        other_lang = next(x for x in LANGUAGES if x != lang)
        osfx = _suffix(other_lang, language)
        (out / f"index{sfx}.html").write_text(index_page(data, w, sfx, f"index{osfx}.html", db), encoding="utf-8")
        (out / f"games{sfx}.html").write_text(games_page(data, w, sfx, f"games{osfx}.html", pages), encoding="utf-8")
    report = BuildReport(out, seconds=time.perf_counter() - t0)
    for p in out.rglob("*"):
        if p.is_file():
            report.files += 1
            report.bytes += p.stat().st_size
    report.index_bytes = (out / "index.html").stat().st_size
    for status in pages.values():
        report.replays[status] = report.replays.get(status, 0) + 1
    return report
