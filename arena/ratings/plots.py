"""The leaderboard's PNG plots: ratings with their intervals, the matrix of pairs,
win rates by role, and each participant's reliability diagram of beliefs.

matplotlib is an optional extra and a second of start-up: ``werewolf leaderboard``
imports this module only for ``--plot``."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any, Callable

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import PercentFormatter

from arena.ratings.board import Leaderboard
from arena.ratings.games import SIDES
from arena.ratings.render import SIDE_LABEL, cv_sentence


def plots(lb: Leaderboard, folder: str | Path) -> list[Path]:
    """``ratings.png`` (both ratings, overall and, where identified, per side, with
    intervals), ``pairs.png`` (the matrix of Bradley-Terry differences with P(row
    better than column)), ``win_rates.png`` (win rate by role dealt, Wilson) and,
    when the games give them, ``beliefs.png`` (reliability diagrams) and
    ``deceivers.png`` (deceiver against detector, ``deceiver_plot``)."""
    matplotlib.use("Agg")
    out_dir = Path(folder)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, figure in (("ratings.png", ratings_figure), ("win_rates.png", win_rate_figure)):
        fig = figure(lb, plt)
        fig.savefig(out_dir / name, dpi=110)
        plt.close(fig)
        written.append(out_dir / name)
    p3 = pair_matrix(lb, out_dir / "pairs.png", plt)
    p4 = reliability_plot(lb, out_dir / "beliefs.png", plt)
    p5 = deceiver_plot(lb, out_dir / "deceivers.png", plt)
    return [written[0], p3, written[1]] + ([p4] if p4 else []) + ([p5] if p5 else [])


def _percent(axis: Any) -> None:
    """Rates and probabilities read as percentages (0.42 -> 42%), as people expect."""
    axis.set_major_formatter(PercentFormatter(1.0, decimals=0))


def ratings_figure(lb: Leaderboard, plt: Any) -> Any:
    """Each rating's panels: one row per scale (Bradley-Terry Elo, OpenSkill mu), the
    panels of a row on one shared x axis, so the zero line (the average participant,
    drawn in every panel) falls at the same place and the sides compare at a glance."""
    names = [r["participant"] for r in lb.rows][::-1]  # best on top
    rows = lb.rows[::-1]
    panels: list[tuple[str, Callable[[dict], dict]]] = [
        ("Bradley-Terry Elo (primary)", lambda r: r["bradley_terry"]),
        ("BT Elo as village", lambda r: r["bradley_terry_by_side"]["village"]),
        ("BT Elo as werewolves", lambda r: r["bradley_terry_by_side"]["werewolves"]),
        ("OpenSkill μ (secondary)", lambda r: r["openskill"]),
        ("OpenSkill μ as village", lambda r: r["openskill_by_side"]["village"]),
        ("OpenSkill μ as werewolves", lambda r: r["openskill_by_side"]["werewolves"]),
    ]
    identified = lb.sides.get("identified", True)
    if not identified:
        panels = [panels[0], panels[3]]
    cols = 3 if identified else 1  # one scale per row: its panels share the x axis
    fig, axes = plt.subplots(len(panels) // cols, cols, figsize=(4.7 * cols if identified else 6.5, 2.2 + 0.45 * len(names) * len(panels) // cols),
                             sharex="row", squeeze=False)  # fmt: skip
    for ax, (title, get) in zip(axes.flat, panels):
        for y, r in enumerate(rows):
            e = get(r)
            if e.get("value") is None:
                continue
            lo = e["low"] if e.get("low") is not None else e["value"]
            hi = e["high"] if e.get("high") is not None else e["value"]
            ax.errorbar(e["value"], y, xerr=[[e["value"] - lo], [hi - e["value"]]], fmt="o", capsize=4, color="tab:blue")
        ax.axvline(0, color="grey", lw=1, zorder=0)  # the average participant
        ax.set_yticks(range(len(names)))
        ax.set_yticklabels(names)
        ax.set_title(title, fontsize=10)
        ax.grid(axis="x", alpha=0.3)
    title = f"Ratings with 95% bootstrap intervals ({lb.games} games, {lb.n_boot} resamples); 0\u00a0=\u00a0the average participant"  # "0 =" kept whole
    fig.suptitle(fitted(title, fig.get_figwidth(), 12))
    fig.tight_layout()
    return fig


def fitted(title: str, inches: float, points: float) -> str:
    """``title`` folded at words to lines the figure's width holds (a long title on a
    narrow figure was clipped on both sides); a character is taken as 0.6 em wide."""
    return "\n".join(textwrap.wrap(title, width=max(20, int(inches * 72 / (points * 0.6)))))


def win_rate_figure(lb: Leaderboard, plt: Any) -> Any:
    """Win rate by role dealt, in percent, with each participant's Wilson interval."""
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
    _percent(ax.yaxis)
    ax.set_ylabel("win rate")
    ax.set_title("Win rate by role dealt (95% Wilson intervals)")
    ax.legend(fontsize=8)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    return fig


def reliability_plot(lb: Leaderboard, path: Path, plt: Any) -> Path | None:
    """One reliability diagram per participant and side: the mean probability stated
    against the share that were wolves, in bins (point size: answers); the diagonal is
    perfect calibration. ``None`` when no seat gave beliefs."""
    curves = []
    for r in lb.rows:
        sides = (r.get("behaviour") or {}).get("by_side") or {}
        for side in SIDES:
            pts = (sides.get(side) or {}).get("reliability") or []
            if pts:
                curves.append((r["participant"], side, pts))
    if not curves:
        return None
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.8), squeeze=False)
    for ax, side in zip(axes[0], SIDES):
        ax.plot([0, 1], [0, 1], color="grey", lw=1, ls="--")
        for name, s, pts in curves:
            if s != side:
                continue
            total = sum(p["n"] for p in pts)
            ax.plot([p["mean_p"] for p in pts], [p["wolf_rate"] for p in pts], marker="o", lw=1, label=name,
                    markersize=3)  # fmt: skip
            ax.scatter([p["mean_p"] for p in pts], [p["wolf_rate"] for p in pts], s=[6 + 300 * p["n"] / total for p in pts], alpha=0.3)
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        _percent(ax.xaxis)
        _percent(ax.yaxis)
        ax.set_xlabel("stated P(wolf)")
        ax.set_ylabel("share that were wolves")
        ax.set_title(f"Beliefs as {SIDE_LABEL[side]} (cards seen left out)", fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def deceiver_plot(lb: Leaderboard, path: Path, plt: Any) -> Path | None:
    """Deceiver against detector, as on the site: x each participant's skill per
    village seat, y per wolf seat (the additive per-side fit, any seating), each with
    its 95% interval as a cross; the lines at 0 are each side's average participant.
    ``None`` when the games give no per-side skill."""
    pts = [(r["participant"], r.get("detector") or {}, r.get("deceiver") or {}) for r in lb.rows]
    pts = [p for p in pts if p[1].get("value") is not None and p[2].get("value") is not None]
    if not pts:
        return None
    fig, ax = plt.subplots(figsize=(6.4, 6.0))
    for i, (name, x, y) in enumerate(pts):
        vx, vy = x["value"], y["value"]
        xerr = [[vx - x["low"]], [x["high"] - vx]] if x.get("low") is not None else None
        yerr = [[vy - y["low"]], [y["high"] - vy]] if y.get("low") is not None else None
        ax.errorbar(vx, vy, xerr=xerr, yerr=yerr, fmt="o", capsize=3, color=f"C{i % 10}", label=name)
        ax.annotate(name, (vx, vy), textcoords="offset points", xytext=(6, 6), fontsize=8)
    ax.axvline(0, color="grey", lw=1, zorder=0)
    ax.axhline(0, color="grey", lw=1, zorder=0)
    ax.set_xlabel("detector: Elo per village seat (better →)")
    ax.set_ylabel("deceiver: Elo per wolf seat (better ↑)")
    cv = cv_sentence((lb.side_skills or {}).get("cross_validation"))
    ax.set_title("Deceiver against detector (additive per-side fit, 95% intervals)\n" + _wrapped(cv, 90), fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _wrapped(text: str, width: int) -> str:
    return "\n".join(textwrap.wrap(text, width))


def pair_matrix(lb: Leaderboard, path: Path, plt: Any) -> Path:
    """Row minus column in Bradley-Terry Elo, coloured by P(row better than column);
    a bold cell is a separated pair (its simultaneous interval, family-wise 95% over
    the table's pairs, excludes zero; the interval printed is the pair's own)."""
    names = [r["participant"] for r in lb.rows]
    k = len(names)
    prob = np.full((k, k), np.nan)
    text = [["" for _ in range(k)] for _ in range(k)]
    bold = np.zeros((k, k), dtype=bool)
    pos = {n: i for i, n in enumerate(names)}
    for q in lb.pairs:
        i, j = pos[q["a"]], pos[q["b"]]
        if q["diff"] is None:
            continue
        sep = bool(q.get("separated"))
        for a, b, sign in ((i, j, 1), (j, i, -1)):
            p = q["p_better"]
            prob[a, b] = p if sign > 0 or p is None else 1 - p
            lo, hi = (q["low"], q["high"]) if sign > 0 else (-q["high"] if q["high"] is not None else None, -q["low"] if q["low"] is not None else None)
            ci = f"\n[{lo:.0f}, {hi:.0f}]" if lo is not None else ""
            text[a][b] = f"{sign * q['diff']:+.0f}{ci}\nP={100 * prob[a, b]:.0f}%"
            bold[a, b] = sep
    fig, ax = plt.subplots(figsize=(2.2 + 1.3 * k, 1.6 + 1.1 * k))
    im = ax.imshow(prob, cmap="RdBu", vmin=0, vmax=1)
    for a in range(k):
        for b in range(k):
            if text[a][b]:
                ax.text(b, a, text[a][b], ha="center", va="center", fontsize=7, fontweight="bold" if bold[a, b] else "normal")
    ax.set_xticks(range(k))
    ax.set_xticklabels(names, rotation=30, ha="right")
    ax.set_yticks(range(k))
    ax.set_yticklabels(names)
    ax.set_title("Row − column, Bradley-Terry Elo [95% interval]; colour: P(row better)\nbold: separated (simultaneous 95% over all pairs)", fontsize=9)
    bar = fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04, label="P(row better than column)")
    _percent(bar.ax.yaxis)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
