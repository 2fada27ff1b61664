"""The leaderboard as a person reads it: rich tables, Markdown, and PNG plots.

Every number is printed with its 95% interval in brackets; an estimate the data
cannot support (a participant that never sat on a side) prints as a dash.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from rich.console import Console
from rich.table import Table

from arena.ratings.games import SIDES
from arena.ratings.leaderboard import Leaderboard

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


def ratio(e: dict[str, Any] | None) -> str:
    if not e or e.get("value") is None:
        return "—"
    lo, hi = e.get("low"), e.get("high")
    return f"{e['value']:.2f}×" + (f" [{lo:.2f}, {hi:.2f}]" if lo is not None and hi is not None else "")


def headline(lb: Leaderboard) -> str:
    winners = ", ".join(f"{w} {pct(r)}" for w, r in lb.winners.items())
    return (
        f"{lb.games} games ({lb.decided} decided) · winners: {winners} · village advantage "
        f"{num(lb.village_advantage, 0)} Elo · 95% intervals: {lb.n_boot} bootstrap resamples of games (seed {lb.seed}), Wilson for rates"
    )


def _tables(lb: Leaderboard) -> list[tuple[str, list[str], list[list[str]]]]:
    """(title, columns, rows) for each table; shared by rich and Markdown. Narrow
    tables, so that an 80-column terminal shows them whole."""
    rows = lb.rows
    tables = [
        (
            "Ratings (95% bootstrap intervals; OpenSkill μ and Bradley-Terry Elo, relative to the average participant)",
            ["#", "participant", "agent", "games", "OpenSkill μ", "Bradley-Terry Elo"],
            [[str(i), r["participant"], r["agent"] or "", str(r["games"]), num(r["openskill"]), num(r["bradley_terry"], 0)]
             for i, r in enumerate(rows, start=1)],
        ),
        (
            "Ratings by side (95% bootstrap intervals)",
            ["participant", "OS village", "OS wolves", "BT village", "BT wolves"],
            [[r["participant"], *(num(r["openskill_by_side"][s]) for s in SIDES), *(num(r["bradley_terry_by_side"][s], 0) for s in SIDES)]
             for r in rows],
        ),
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
        tables.append(("Votes as village (from transcripts; Wilson over ballots)",
                       ["participant", "on wolves vs chance", "wolf-vote rate", "voted with majority"], votes))  # fmt: skip
        tables.append(("Claims, rules and cost (from transcripts; Wilson)",
                       ["participant", "lie rate", "liar survived day", "violations / decision", "cost (USD)"], claims))  # fmt: skip
    return tables


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


def plots(lb: Leaderboard, folder: str | Path) -> list[Path]:
    """``ratings.png`` (both ratings, overall and per side, with intervals) and
    ``win_rates.png`` (win rate by role dealt, with Wilson intervals)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir = Path(folder)
    out_dir.mkdir(parents=True, exist_ok=True)
    names = [r["participant"] for r in lb.rows][::-1]  # best on top
    rows = lb.rows[::-1]
    panels: list[tuple[str, Callable[[dict], dict]]] = [
        ("OpenSkill μ (overall)", lambda r: r["openskill"]),
        ("OpenSkill μ as village", lambda r: r["openskill_by_side"]["village"]),
        ("OpenSkill μ as werewolves", lambda r: r["openskill_by_side"]["werewolves"]),
        ("Bradley-Terry Elo (overall)", lambda r: r["bradley_terry"]),
        ("BT Elo as village", lambda r: r["bradley_terry_by_side"]["village"]),
        ("BT Elo as werewolves", lambda r: r["bradley_terry_by_side"]["werewolves"]),
    ]
    fig, axes = plt.subplots(2, 3, figsize=(14, 2.2 + 0.45 * len(names) * 2), squeeze=False)
    for ax, (title, get) in zip(axes.flat, panels):
        for y, r in enumerate(rows):
            e = get(r)
            if e.get("value") is None:
                continue
            lo = e["low"] if e.get("low") is not None else e["value"]
            hi = e["high"] if e.get("high") is not None else e["value"]
            ax.errorbar(e["value"], y, xerr=[[e["value"] - lo], [hi - e["value"]]], fmt="o", capsize=4, color="tab:blue")
        ax.set_yticks(range(len(names)))
        ax.set_yticklabels(names)
        ax.set_title(title, fontsize=10)
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle(f"Ratings with 95% bootstrap intervals ({lb.games} games, {lb.n_boot} resamples)")
    fig.tight_layout()
    p1 = out_dir / "ratings.png"
    fig.savefig(p1, dpi=110)
    plt.close(fig)

    roles = lb.roles
    fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(roles) * max(1, len(lb.rows)) ** 0.5 + 3), 4.5))
    width = 0.8 / max(1, len(lb.rows))
    for i, r in enumerate(lb.rows):
        xs, ys, err_lo, err_hi = [], [], [], []
        for j, role in enumerate(roles):
            w = r["win_rate_by_role"].get(role)
            if not w or w.get("rate") is None:
                continue
            xs.append(j + (i - (len(lb.rows) - 1) / 2) * width)
            ys.append(w["rate"])
            err_lo.append(w["rate"] - w["low"])
            err_hi.append(w["high"] - w["rate"])
        ax.bar(xs, ys, width=width, yerr=[err_lo, err_hi], capsize=3, label=r["participant"])
    ax.set_xticks(range(len(roles)))
    ax.set_xticklabels(roles)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate")
    ax.set_title("Win rate by role dealt (95% Wilson intervals)")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    p2 = out_dir / "win_rates.png"
    fig.savefig(p2, dpi=110)
    plt.close(fig)
    return [p1, p2]
