"""The leaderboard as a person reads it: rich tables and Markdown (plots: ``plots``).

Every number is printed with its 95% interval in brackets; an estimate the data
cannot support (a participant that never sat on a side) prints as a dash.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from arena.ratings.fallbacks import left_out
from arena.ratings.games import SIDES
from arena.ratings.board import Leaderboard

SIDE_LABEL = {"village": "village", "werewolves": "wolves"}


def num(e: dict[str, Any] | None, digits: int = 1) -> str:
    if not e or e.get("value") is None:
        return "—"
    lo, hi = e.get("low"), e.get("high")
    ci = f" [{lo:.{digits}f}, {hi:.{digits}f}]" if lo is not None and hi is not None else ""
    return f"{e['value']:.{digits}f}{ci}"


def pct(e: dict[str, Any] | None) -> str:
    """A rate with its interval: bootstrap estimate ({value, low, high}) or Wilson ({rate, k, n, ...})."""
    if not e:
        return "—"
    v = e.get("value", e.get("rate"))
    if v is None:
        return "—"
    n = f" n={e['n']}" if "n" in e else ""
    return f"{100 * v:.1f}% [{100 * e['low']:.1f}, {100 * e['high']:.1f}]{n}"


def belief_cell(b: dict[str, Any]) -> str:
    if not b.get("belief_ratings"):
        return "—"
    auc = b.get("belief_auc")
    skill = b.get("brier_skill")
    return (f"Brier {b['brier']:.3f} vs {b['baseline_brier']:.3f}" + (f", skill {skill:+.2f}" if skill is not None else "")
            + (f", AUC {auc:.2f}" if auc is not None else "") + f" n={b['belief_ratings']}")  # fmt: skip


def signed_pct(e: dict[str, Any] | None) -> str:
    """A difference of rates in percentage points with its interval."""
    if not e or e.get("value") is None:
        return "—"
    ci = f" [{100 * e['low']:+.1f}, {100 * e['high']:+.1f}]" if e.get("low") is not None else ""
    return f"{100 * e['value']:+.1f} pts{ci}"


def ratio(e: dict[str, Any] | None) -> str:
    if not e or e.get("value") is None:
        return "—"
    lo, hi = e.get("low"), e.get("high")
    return f"{e['value']:.2f}×" + (f" [{lo:.2f}, {hi:.2f}]" if lo is not None and hi is not None else "")


def headline(lb: Leaderboard) -> str:
    winners = ", ".join(f"{w} {pct(r)}" for w, r in lb.winners.items())
    dropped = left_out(lb.excluded or {})
    return (
        f"{lb.games} games rated ({lb.decided} decided) · winners: {winners} · village advantage "
        f"{num(lb.village_advantage, 0)} Elo · sorted by Bradley-Terry{' on the margin' if lb.outcome == 'margin' else ''} "
        "(primary; OpenSkill secondary) · 95% intervals: "
        f"{lb.n_boot} bootstrap resamples of {lb.unit}s (seed {lb.seed}), Wilson for rates{' · ' + dropped if dropped else ''}"
    )


def mark(r: dict[str, Any]) -> str:
    """Whether a row is told apart from the next one down (95% interval of the difference)."""
    sep = r.get("separated_from_next")
    return "" if sep is None else ("> next" if sep else "≈ next")


def pair_rows(lb: Leaderboard) -> list[list[str]]:
    out = []
    for q in lb.pairs:
        diff = num({"value": q["diff"], "low": q["low"], "high": q["high"]}, 0)
        p = "—" if q["p_better"] is None else f"{100 * q['p_better']:.1f}%"
        sep = "" if q["low"] is None else ("yes" if q["low"] > 0 or q["high"] < 0 else "no")
        out.append([f"{q['a']} − {q['b']}", diff, p, sep])
    return out


def _tables(lb: Leaderboard) -> list[tuple[str, list[str], list[list[str]]]]:
    """(title, columns, rows) for each table; shared by rich and Markdown. Narrow
    tables, so that an 80-column terminal shows them whole."""
    rows = lb.rows
    field = {side: lb.field_rates.get(side) for side in SIDES} if lb.field_rates else {}
    fld = {side: "" if field.get(side) is None else f" (field {100 * field[side]:.0f}%)" for side in SIDES}
    margin = lb.outcome == "margin"
    tables = [
        (
            "Ratings (sorted by Bradley-Terry Elo, the primary rating"
            + (", fitted on the winner and the margin; win only: the same fit on the winner alone" if margin else "")
            + "; OpenSkill μ secondary, order-dependent; 95% bootstrap intervals, relative to the average participant)",
            ["#", "participant", "agent", "games", "Bradley-Terry Elo", "vs next", *(["win only"] if margin else []), "OpenSkill μ"],
            [[str(i), r["participant"], r["agent"] or "", str(r["games"]) + (f" (−{r['excluded_games']})" if r.get("excluded_games") else ""),
              num(r["bradley_terry"], 0), mark(r), *([num(r.get("bradley_terry_win"), 0)] if margin else []), num(r["openskill"])]
             for i, r in enumerate(rows, start=1)],
        ),
        (
            "Pairs (Bradley-Terry difference a − b in Elo, 95% interval; P(a better) = share of resamples rating a above b)",
            ["pair", "difference", "P(a better)", "separated"],
            pair_rows(lb),
        ),
    ]
    if lb.sides.get("identified", True):
        tables.append((
            "Ratings by side (95% bootstrap intervals; " + lb.sides.get("why", "") + ")",
            ["participant", "BT village", "BT wolves", "OS village", "OS wolves"],
            [[r["participant"], *(num(r["bradley_terry_by_side"][s], 0) for s in SIDES), *(num(r["openskill_by_side"][s]) for s in SIDES)]
             for r in rows],
        ))
    else:
        tables.append((
            "Win rate by side against the pooled field: the side's win rate with the participant on it minus without it ("
            + lb.sides.get("why", "") + "; 95% bootstrap intervals over " + lb.unit + "s; — where the schedule leaves no field)",
            ["participant", "village vs field" + fld.get("village", ""), "wolves vs field" + fld.get("werewolves", "")],
            [[r["participant"], *(signed_pct(r["win_rate_vs_field"][s]) for s in SIDES)] for r in rows],
        ))
    tables += [
        (
            "Win rates (95% intervals: bootstrap overall, Wilson per side over games)",
            ["participant", "seats", "win rate", "as village", "as wolves"],
            [[r["participant"], str(r["seats"]), pct(r["win_rate"]), *(pct(r["win_rate_by_side"][s]) for s in SIDES)] for r in rows],
        ),
        (
            "Win rate by role dealt (Wilson, one unit per game)",
            ["participant", *lb.roles],
            [[r["participant"], *(pct(r["win_rate_by_role"].get(role)) for role in lb.roles)] for r in rows],
        ),
    ]  # fmt: skip
    if any(r.get("behaviour") for r in rows):
        votes, claims = [], []
        for r in rows:
            b = r.get("behaviour") or {}
            v = (b.get("by_side") or {}).get("village") or {}
            votes.append([r["participant"], ratio(v.get("ratio_to_chance")), pct(v.get("wolf_vote_rate")), pct(b.get("majority_agreement"))])
            cost = b.get("cost_usd")
            rules = b.get("violation_rate") or {}
            claims.append(
                [r["participant"], pct(b.get("lie_rate")), pct(b.get("lies_survived")), pct(rules) if rules.get("n") else "—",
                 "unknown" if cost is None else f"{cost:.4f}"]
            )  # fmt: skip
        beliefs = []
        for r in rows:
            sides = (r.get("behaviour") or {}).get("by_side") or {}
            if any((sides.get(x) or {}).get("belief_ratings") for x in SIDES):
                beliefs.append([r["participant"], *(belief_cell(sides.get(x) or {}) for x in SIDES)])
        if beliefs:
            tables.append(("Beliefs by side (answers about cards the seat had not seen; Brier vs the constant answer, "
                           "skill = 1 − Brier/constant, AUC)", ["participant", "as village", "as wolves"], beliefs))  # fmt: skip
        tables.append(("Votes as village (from transcripts; Wilson over ballots)",
                       ["participant", "on wolves vs chance", "wolf-vote rate", "voted with majority"], votes))  # fmt: skip
        tables.append(("Claims, rules and cost (from transcripts; Wilson)",
                       ["participant", "lie rate", "liar survived day", "violations / decision", "cost (USD)"], claims))  # fmt: skip
    if any((r.get("persuasion") or {}).get("value") is not None for r in rows):
        tables.append((
            "Persuasion (a speech's listeners re-asked without it: the change in the share voting for the accused, in "
            "points; 95% bootstrap over speeches; docs/PERSUASION.md)",
            ["participant", "speeches", "swing toward the accused"],
            [[r["participant"], str(r.get("persuasion_speeches", 0)), points(r.get("persuasion"))] for r in rows],
        ))  # fmt: skip
    return tables


def points(e: dict[str, Any] | None) -> str:
    """A swing (a share) in percentage points, with its interval when there is one."""
    if not e or e.get("value") is None:
        return "—"
    lo, hi = e.get("low"), e.get("high")

    def one(x: float) -> str:
        text = f"{100 * x:+.1f}"
        return "+0.0" if text == "-0.0" else text

    return one(e["value"]) + (f" [{one(lo)}, {one(hi)}]" if lo is not None and hi is not None else "")


def print_rich(lb: Leaderboard, console: Console) -> None:
    console.print(headline(lb))
    for title, cols, rows in _tables(lb):
        t = Table(title=title, title_justify="left")
        for i, c in enumerate(cols):
            t.add_column(c, justify="left" if i < 3 and c in ("#", "participant", "agent") else "right", overflow="fold")
        for row in rows:
            t.add_row(*row)
        console.print(t)


def markdown(lb: Leaderboard) -> str:
    out = ["# Leaderboard", "", headline(lb), ""]
    for title, cols, rows in _tables(lb):
        out += [f"## {title}", "", "| " + " | ".join(cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
        out += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
        out.append("")
    return "\n".join(out)
