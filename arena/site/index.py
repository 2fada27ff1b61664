"""``index.html``'s sections, each from ``--json``'s dictionary: ranking and pairs,
head to head, deceivers against detectors, roles, behaviour, cost, identical
participants and self-play, the tournament."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import arena.site.svg as svg
from arena.site.frame import SIDES, Words, money, nav, num, opt, page, pct, table
from arena.site.svg import esc
from collections import Counter


def headline(d: dict[str, Any], w: Words) -> str:
    b = d["bootstrap"]
    text = w("headline", games=d["games"], decided=d["decided_games"], boot=b["resamples"], unit=w(f"unit.{b['unit']}"), seed=b["seed"])
    win = " · ".join(f"{esc(w.winner(k))} {pct(v)}" for k, v in d["winners"].items())
    out = f'<p class="note">{esc(text)}</p><p class="note">{esc(w("winners"))}: {win} · {esc(w("village_advantage"))}: {num(d["village_advantage_elo"])}</p>'
    ex = d.get("excluded") or {}
    if ex.get("games"):
        who = ", ".join(f"{p} {n}" for p, n in sorted(ex.get("by_participant", {}).items()))
        reason = w("excluded.reason", share=f"{100 * ex['min_decided']:g}")
        include = f' {esc(w("excluded.include", flag=ex["include_with"]))}' if ex.get("include_with") else ""
        out += f'<p class="note">{esc(w("excluded", n=ex["games"], who=who, reason=reason))}{include}</p>'
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
    anchor = d.get("anchor")
    chart_label = w("chart.rating.anchor", anchor=anchor) if anchor else w("chart.rating")
    chart = svg.interval_chart([(r["participant"], r["rating"]) for r in d["participants"]], label=chart_label, kind="rating")
    pairs = [[esc(f"{q['a']} − {q['b']}"), num({"value": q["diff"], "low": q["low"], "high": q["high"]}, signed=True),
              _interval(q.get("simultaneous")), "—" if q["p_better"] is None else f"{100 * q['p_better']:.1f}%",
              esc(_separation(q, w))] for q in d["pairs"]]  # fmt: skip
    pt = table([esc(w(k)) for k in ("col.pair", "col.diff", "col.simultaneous", "col.p", "col.separated")], pairs, "pairs")
    method = d.get("rating_method", {}).get("outcome")
    note = f'<p class="note">{esc(w("method.margin"))}</p>' if method == "margin" else ""
    title = w("ranking.anchor", anchor=anchor) if anchor else w("ranking")
    return (f'<h2 id="ranking">{esc(title)}</h2>{note}{t}<figure><figcaption>{esc(chart_label)}</figcaption>{chart}</figure>'
            f'<h3>{esc(w("pairs"))}</h3>{pt}')  # fmt: skip


def people_note(d: dict[str, Any], w: Words) -> str:
    """How many games each person needs before their interval means something: one
    rotation of the deck at their table (``arena.people_games`` deals a person each
    card once per rotation), so their rating is not the luck of the cards drawn."""

    lines = []
    for r in d["participants"]:
        if r.get("agent") != "human":
            continue
        sizes = Counter(g["players"] for g in d.get("game_list", []) if any(s["participant"] == r["participant"] for s in g.get("seats", [])))
        need = sizes.most_common(1)[0][0] if sizes else 0
        left = max(0, need - r["games"])
        key = "people.more" if left else "people.enough"
        lines.append(esc(w(key, name=r["participant"], games=r["games"], need=need, left=left)))
    return f'<p class="note people">{"<br>".join(lines)}</p>' if lines else ""


def _interval(e: dict[str, Any] | None) -> str:
    if not e or e.get("low") is None or e.get("high") is None:
        return "—"
    return f"[{e['low']:+.0f}, {e['high']:+.0f}]"


def _separation(q: dict[str, Any], w: Words) -> str:
    """yes (the simultaneous interval excludes 0), pair only (only the pair's own
    does) or no; blank without resamples."""
    if q.get("separated") is None and q.get("separated_per_pair") is None:
        return ""
    return w("yes") if q.get("separated") else w("pair_only") if q.get("separated_per_pair") else w("no")


def head_to_head(d: dict[str, Any], w: Words) -> str:
    names = [r["participant"] for r in d["participants"]]
    cell: dict[tuple[str, str], dict[str, Any]] = {}
    for q in d["pairs"]:
        if q["p_better"] is None or q["diff"] is None:
            continue
        sep = bool(q.get("separated"))
        cell[(q["a"], q["b"])] = {"p": q["p_better"], "diff": q["diff"], "low": q["low"], "high": q["high"], "separated": sep}
        cell[(q["b"], q["a"])] = {"p": 1 - q["p_better"], "diff": -q["diff"], "low": None if q["high"] is None else -q["high"],
                                  "high": None if q["low"] is None else -q["low"], "separated": sep}  # fmt: skip
    return f'<h2 id="h2h">{esc(w("h2h"))}</h2><p class="note">{esc(w("h2h.note"))}</p>' + svg.grid(names, cell, label=w("h2h"))


def sides(d: dict[str, Any], w: Words) -> str:
    """Deceiver against detector under any seating (the additive per-side fit), then the
    figures per whole side: Bradley-Terry by side where the seating identifies it, else
    each side's win rate against the pooled field."""
    rows = d["participants"]
    out = f'<h2 id="sides">{esc(w("sides"))}</h2>' + skills_map(d, w) + f'<h3>{esc(w("sides.teams"))}</h3>'
    sr = d.get("side_ratings") or {}
    why = w("why.yes" if sr.get("identified") else "why.no", share=f"{100 * sr.get('single_participant_sides', 0):.0f}")
    if (d.get("side_ratings") or {}).get("identified"):
        pts = [(r["participant"], r["bradley_terry_by_side"]["village"], r["bradley_terry_by_side"]["werewolves"]) for r in rows]
        note = w("sides.bt.anchor", anchor=d["anchor"]) if d.get("anchor") else w("sides.bt")
        scale, digits, fmt = 1.0, 0, lambda e: num(e)
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


def skills_map(d: dict[str, Any], w: Words) -> str:
    """Each participant's skill per village seat (x) and per wolf seat (y), fitted
    additively under any seating, and which fit predicts held-out games better."""
    ss = d.get("side_skills") or {}
    pts = [(r["participant"], r.get("detector") or {}, r.get("deceiver") or {}) for r in d["participants"]]
    shown = [p for p in pts if p[1].get("value") is not None and p[2].get("value") is not None]
    if not shown:
        return f'<p class="note nothing">{esc(w("skills.none", why=ss.get("why") or ""))}</p>'
    chart = svg.scatter(shown, label=w("skills"), x_label=w("skills.x"), y_label=w("skills.y"))
    t = table([esc(w(k)) for k in ("col.participant", "col.detector", "col.deceiver")], [[esc(n), num(x), num(y)] for n, x, y in pts], "skills")
    return (f'<p class="note">{esc(w("skills.note"))}</p><p class="note cv">{esc(cv_words(ss.get("cross_validation"), w))}</p>'
            f'<figure><figcaption>{esc(w("skills"))}</figcaption>{chart}</figure>{t}')  # fmt: skip


def cv_words(cv: dict[str, Any] | None, w: Words) -> str:
    """The cross-validation of both fits on held-out games, and which predicts better."""
    if not cv or not cv.get("available"):
        return w("skills.cv.none", why=(cv or {}).get("why") or "")
    a, p = cv["additive"], cv["plain"]
    head = w("skills.cv", folds=cv["folds"], games=cv["games"], a_ll=f"{a['log_loss']:.3f}", p_ll=f"{p['log_loss']:.3f}",
             a_br=f"{a['brier']:.3f}", p_br=f"{p['brier']:.3f}")  # fmt: skip
    verdict = w(f"skills.better.{cv.get('better') or 'none'}", diff=num(cv["difference"]["log_loss"], 4, signed=True))
    return f"{head} {verdict}"


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


def persuasion(d: dict[str, Any], w: Words) -> str:
    """A tournament measured with ``persuasion:``: each participant's swing (empty otherwise)."""
    rows = [r for r in d["participants"] if (r.get("persuasion") or {}).get("value") is not None]
    if not rows:
        return ""
    pts = [(r["participant"], r["persuasion"]) for r in rows]
    chart = svg.interval_chart(pts, label=w("col.swing"), digits=1, zero=0.0, scale=100.0, kind="behaviour")
    body = [[esc(r["participant"]), str(r.get("persuasion_speeches", 0)), num(r["persuasion"], 1, scale=100.0, signed=True)] for r in rows]
    t = table([esc(w(k)) for k in ("col.participant", "col.speeches", "col.swing")], body, "persuasion")
    return (f'<h2 id="persuasion">{esc(w("persuasion"))}</h2><p class="note">{esc(w("persuasion.note"))}</p>'
            f'<figure><figcaption>{esc(w("col.swing"))}</figcaption>{chart}</figure>{t}')  # fmt: skip


def bias(d: dict[str, Any], w: Words) -> str:
    """Votes and survival by speaking position and by seat name (``arena.metrics.bias``),
    when the site was built with the transcripts at hand (empty otherwise)."""
    b = d.get("bias")
    if not b:
        return ""
    pos = {r["position"]: r for r in b["by_position"]}
    chart = svg.interval_chart([(w(f"bias.{p}"), pos[p]["vote_share_excess"]) for p in pos], label=w("bias.chart"), digits=1,
                               scale=100.0, kind="points")  # fmt: skip
    head = [esc(w(k)) for k in ("bias.col.position", "bias.col.seat_days", "bias.col.share", "bias.col.share_x", "bias.col.out_x")]
    rows = [[esc(w(f"bias.{p}")), f"{r['seat_days']:,}", num(r["vote_share"], 1, 100.0), num(r["vote_share_excess"], 1, 100.0, signed=True),
             num(r["voted_out_excess"], 1, 100.0, signed=True)] for p, r in pos.items()]  # fmt: skip
    sl, ne = b["slope"], b["name_effect"]
    slope = w("bias.slope", share=num(sl["vote_share"], 1, 100.0, signed=True), out=num(sl["voted_out"], 1, 100.0, signed=True))
    names_head = [esc(w(k)) for k in ("bias.col.name", "bias.col.seats", "bias.col.share_x", "bias.col.out_x", "bias.col.alive_x")]
    names = [[esc(r["name"]), f"{r['seats']:,}", num(r["vote_share_excess"], 1, 100.0, signed=True), num(r["voted_out_excess"], 1, 100.0, signed=True),
              num(r["survived_excess"], 1, 100.0, signed=True)] for r in b["by_name"]]  # fmt: skip
    p_values = w("bias.names.test", n=f"{ne['permutations']:,}", share=f"{ne['vote_share_excess']['p_value']:.3f}",
                 out=f"{ne['voted_out_excess']['p_value']:.3f}", alive=f"{ne['survived_excess']['p_value']:.3f}")  # fmt: skip
    note = w("bias.note", games=f"{b['games']:,}", days=f"{b['seat_days']:,}")
    return (f'<h2 id="bias">{esc(w("bias"))}</h2><p class="note">{esc(note)}</p>'
            f'<figure><figcaption>{esc(w("bias.chart"))}</figcaption>{chart}</figure>' + table(head, rows, "bias")
            + f'<p class="note">{esc(slope)}</p><h3>{esc(w("bias.names"))}</h3><p class="note">{esc(p_values)}</p>'
            + table(names_head, names, "bias-names"))  # fmt: skip


def monitor(d: dict[str, Any], w: Words) -> str:
    """Per monitor that rated the games, each participant's AUROC of its reading of
    private reasoning and of public words, and the gap; then self-incrimination
    (``arena.site.monitor``; empty when no game was rated)."""
    m = d.get("monitor")
    if not m:
        return ""
    out = f'<h2 id="monitor">{esc(w("monitor"))}</h2><p class="note">{esc(w("monitor.note"))}</p>'
    head = [esc(w(k)) for k in ("col.participant", "monitor.col.seat_days", "monitor.col.private", "monitor.col.public", "monitor.col.gap")]
    for one in m["monitors"]:
        rows = one["by_agent"]
        body = [[esc(r["agent"]), f"{r['seat_days']:,}", num(r["private_auroc"], 3), num(r["public_auroc"], 3), num(r["gap"], 3, signed=True)]
                for r in rows]  # fmt: skip
        # The gap where some seat wrote reasoning; else (bots: words only) the words' AUROC against chance.
        gap = any(r["gap"].get("value") is not None for r in rows)
        what, key, zero = ("monitor.chart", "gap", 0.0) if gap else ("monitor.chart.public", "public_auroc", 0.5)
        chart = svg.interval_chart([(r["agent"], r[key]) for r in rows], label=w(what), digits=2, zero=zero, kind="behaviour")
        title = w("monitor.one", spec=one["monitor"], games=f"{one['games']:,}", days=f"{one['seat_days']:,}")
        out += (f'<h3>{esc(title)}</h3>' + table(head, body, "monitor")
                + f'<figure><figcaption>{esc(w(what))}</figcaption>{chart}</figure>')  # fmt: skip
    si = m.get("self_incrimination")
    if si:
        head = [esc(w(k)) for k in ("col.participant", "self.col.wolf_seats", "self.col.card", "self.col.pack", "self.col.either")]
        body = [[esc(r["agent"]), f"{r['wolf_seats']:,}", pct(r["card"]), pct(r["pack"]), pct(r["either"])] for r in si["by_agent"]]
        out += f'<h3>{esc(w("self"))}</h3><p class="note">{esc(w("self.note"))}</p>' + table(head, body, "self-incrimination")
    return out


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
    note = f'<p class="note">{esc(w("cost.none" if not t.get("calls") else "cost.calls"))}</p>'
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
            + ranking(d, w) + people_note(d, w) + head_to_head(d, w) + sides(d, w) + roles(d, w) + behaviour(d, w) + bias(d, w) + monitor(d, w) + persuasion(d, w) + cost(d, w)
            + identical(d, w, sfx) + tournament(d, w)
            + f'</main><footer>{esc(w("built", db=Path(db).name))}</footer>')  # fmt: skip
    return page(f"{w('title')}: {t.get('name') or ''}", body, w, other)
