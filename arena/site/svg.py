"""The site's charts as inline SVG, written by Python: no script, no library, no
network, so a page opened from the disk years later draws the same.

Every chart scales to its container (``viewBox`` and ``width: 100%``), so it fits a
phone's screen without scrolling sideways. Labels are escaped: participant names are
free text.
"""

from __future__ import annotations

import html
import math
from typing import Any, Sequence

ROW_H = 26
LABEL_W = 120
PLOT_W = 300
PAD = 14


def esc(v: Any) -> str:
    return html.escape(str(v), quote=True)


def _ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    span = hi - lo or 1.0
    step = 10 ** math.floor(math.log10(span / n))
    for m in (1, 2, 5, 10):
        if span / (step * m) <= n:
            step *= m
            break
    first = math.ceil(lo / step) * step
    return [first + i * step for i in range(int((hi - first) / step) + 1)]


def _fmt(v: float, digits: int) -> str:
    text = f"{v:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text  # never "-0"


def interval_chart(rows: Sequence[tuple[str, dict[str, Any] | None]], *, label: str, digits: int = 0,
                   zero: float | None = 0.0, scale: float = 1.0, kind: str = "rating") -> str:
    """One row per name: a dot at the value and a whisker over its 95% interval; a
    vertical line at ``zero`` (the average participant, or chance). Rows whose value is
    missing are drawn as a dash, not left out. ``scale`` multiplies values (100 for %)."""
    vals = [(n, e) for n, e in rows]
    xs = [v * scale for _, e in vals if e for v in (e.get("value"), e.get("low"), e.get("high")) if v is not None and math.isfinite(v)]
    if zero is not None:
        xs.append(zero * scale)
    lo, hi = (min(xs), max(xs)) if xs else (-1.0, 1.0)
    if hi - lo < 1e-9:
        lo, hi = lo - 1, hi + 1
    margin = (hi - lo) * 0.06
    lo, hi = lo - margin, hi + margin
    w, h = LABEL_W + PLOT_W + PAD, PAD * 2 + ROW_H * len(vals) + 18

    def x(v: float) -> float:
        return LABEL_W + (v * scale - lo) / (hi - lo) * PLOT_W

    parts = [f'<svg class="chart {kind}" role="img" aria-label="{esc(label)}" viewBox="0 0 {w} {h}" preserveAspectRatio="xMinYMin meet">']
    base = PAD + ROW_H * len(vals)
    for t in _ticks(lo, hi):
        tx = LABEL_W + (t - lo) / (hi - lo) * PLOT_W
        parts.append(f'<line class="grid" x1="{tx:.1f}" y1="{PAD}" x2="{tx:.1f}" y2="{base}"/>')
        parts.append(f'<text class="tick" x="{tx:.1f}" y="{base + 14}" text-anchor="middle">{_fmt(t, max(0, digits - 1) if scale == 1 else 0)}</text>')
    if zero is not None:
        parts.append(f'<line class="zero" x1="{x(zero):.1f}" y1="{PAD - 4}" x2="{x(zero):.1f}" y2="{base}"/>')
    for i, (name, e) in enumerate(vals):
        y = PAD + ROW_H * i + ROW_H / 2
        parts.append(f'<text class="name" x="{LABEL_W - 8}" y="{y + 4:.1f}" text-anchor="end">{esc(_short(name, 16))}</text>')
        v = e.get("value") if e else None
        if e is None or v is None or not math.isfinite(v):
            parts.append(f'<text class="missing" x="{LABEL_W + 6}" y="{y + 4:.1f}">—</text>')
            continue
        low, high = e.get("low"), e.get("high")
        title = f"{name}: {_fmt(v * scale, digits)}" + (f" [{_fmt(low * scale, digits)}, {_fmt(high * scale, digits)}]" if low is not None and high is not None else "")
        parts.append(f"<g class=\"est\"><title>{esc(title)}</title>")
        if low is not None and high is not None and math.isfinite(low) and math.isfinite(high):
            parts.append(f'<line class="ci" x1="{x(low):.1f}" y1="{y:.1f}" x2="{x(high):.1f}" y2="{y:.1f}"/>')
            for end in (low, high):
                parts.append(f'<line class="ci" x1="{x(end):.1f}" y1="{y - 5:.1f}" x2="{x(end):.1f}" y2="{y + 5:.1f}"/>')
        parts.append(f'<circle class="dot" cx="{x(v):.1f}" cy="{y:.1f}" r="5"/></g>')
    parts.append("</svg>")
    return "".join(parts)


def _short(name: str, limit: int = 20) -> str:
    return name if len(name) <= limit else name[: limit - 1] + "…"


def scatter(points: Sequence[tuple[str, dict[str, Any], dict[str, Any]]], *, label: str, x_label: str, y_label: str,
            scale: float = 1.0, digits: int = 0) -> str:
    """Deceiver against detector: x the skill as the village, y as the wolves, each with
    its interval as a cross; the field average (0) as the axes' cross-hair."""
    size, pad = 420, 56
    vals = [v * scale for _, ex, ey in points for e in (ex, ey) for v in (e.get("low"), e.get("high"), e.get("value"))
            if v is not None and math.isfinite(v)] + [0.0]  # fmt: skip
    lo, hi = min(vals), max(vals)
    if hi - lo < 1e-9:
        lo, hi = lo - 1, hi + 1
    m = (hi - lo) * 0.08
    lo, hi = lo - m, hi + m

    def px(v: float) -> float:
        return pad + (v * scale - lo) / (hi - lo) * (size - pad - 10)

    def py(v: float) -> float:
        return size - pad - (v * scale - lo) / (hi - lo) * (size - pad - 10)

    parts = [f'<svg class="chart scatter" role="img" aria-label="{esc(label)}" viewBox="0 0 {size} {size}">']
    for t in _ticks(lo, hi):
        a, b = pad + (t - lo) / (hi - lo) * (size - pad - 10), size - pad - (t - lo) / (hi - lo) * (size - pad - 10)
        parts.append(f'<line class="grid" x1="{a:.1f}" y1="10" x2="{a:.1f}" y2="{size - pad}"/>')
        parts.append(f'<line class="grid" x1="{pad}" y1="{b:.1f}" x2="{size - 10}" y2="{b:.1f}"/>')
        parts.append(f'<text class="tick" x="{a:.1f}" y="{size - pad + 14}" text-anchor="middle">{t:.0f}</text>')
        parts.append(f'<text class="tick" x="{pad - 4}" y="{b + 4:.1f}" text-anchor="end">{t:.0f}</text>')
    parts.append(f'<line class="zero" x1="{px(0):.1f}" y1="10" x2="{px(0):.1f}" y2="{size - pad}"/>')
    parts.append(f'<line class="zero" x1="{pad}" y1="{py(0):.1f}" x2="{size - 10}" y2="{py(0):.1f}"/>')
    parts.append(f'<text class="axis" x="{(size + pad) / 2:.0f}" y="{size - 18}" text-anchor="middle">{esc(x_label)}</text>')
    parts.append(f'<text class="axis" transform="translate(14 {(size - pad) / 2:.0f}) rotate(-90)" text-anchor="middle">{esc(y_label)}</text>')
    labels: list[tuple[float, float]] = []
    for i, (name, ex, ey) in enumerate(points):
        vx, vy = ex.get("value"), ey.get("value")
        if vx is None or vy is None:
            continue
        cls = f"c{i % 8}"
        parts.append(f'<g class="est {cls}"><title>{esc(name)}: {vx * scale:.{digits}f}, {vy * scale:.{digits}f}</title>')
        if ex.get("low") is not None and ex.get("high") is not None:
            parts.append(f'<line class="ci" x1="{px(ex["low"]):.1f}" y1="{py(vy):.1f}" x2="{px(ex["high"]):.1f}" y2="{py(vy):.1f}"/>')
        if ey.get("low") is not None and ey.get("high") is not None:
            parts.append(f'<line class="ci" x1="{px(vx):.1f}" y1="{py(ey["low"]):.1f}" x2="{px(vx):.1f}" y2="{py(ey["high"]):.1f}"/>')
        parts.append(f'<circle class="dot" cx="{px(vx):.1f}" cy="{py(vy):.1f}" r="5"/>')
        lx, ly = px(vx) + 7, py(vy) - 7
        while any(abs(lx - a) < 60 and abs(ly - b) < 13 for a, b in labels):
            ly += 14  # points that coincide: their names stacked, not drawn over each other
        labels.append((lx, ly))
        parts.append(f'<text class="label" x="{lx:.1f}" y="{ly:.1f}">{esc(_short(name, 14))}</text></g>')
    parts.append("</svg>")
    return "".join(parts)


def _signed(v: float) -> str:
    """``+12``, ``-7``, and ``0`` for anything that rounds to zero (never ``-0``)."""
    text = f"{v:+.0f}"
    return "0" if float(text) == 0 else text


def _mix(p: float) -> str:
    """P(row better) as a colour: red (0) through white (0.5) to blue (1)."""
    p = min(1.0, max(0.0, p))
    if p >= 0.5:
        t = (p - 0.5) * 2
        r, g, b = (255 - t * (255 - 33), 255 - t * (255 - 102), 255 - t * (255 - 172))
    else:
        t = (0.5 - p) * 2
        r, g, b = (255 - t * (255 - 178), 255 - t * (255 - 24), 255 - t * (255 - 43))
    return f"#{int(r):02x}{int(g):02x}{int(b):02x}"


def grid(names: Sequence[str], cell: dict[tuple[str, str], dict[str, Any]], *, label: str) -> str:
    """The head-to-head grid: P(row better than column) in each cell, coloured; a bold
    cell is a separated pair (the difference's simultaneous interval, family-wise 95%
    over the table's pairs, excludes 0)."""
    k = len(names)
    head, c = 96, 64
    w = h = head + c * k + 4
    parts = [f'<svg class="chart grid" role="img" aria-label="{esc(label)}" style="max-width: {w}px" viewBox="0 0 {w} {h}">']
    for i, n in enumerate(names):
        parts.append(f'<text class="name" x="{head - 6}" y="{head + c * i + c / 2 + 4:.0f}" text-anchor="end">{esc(_short(n, 14))}</text>')
        parts.append(f'<text class="name" transform="translate({head + c * i + c / 2 + 4:.0f} {head - 6}) rotate(-45)">{esc(_short(n, 14))}</text>')
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            x, y = head + c * j, head + c * i
            q = cell.get((a, b))
            if i == j or q is None or q.get("p") is None:
                parts.append(f'<rect class="cell empty" x="{x}" y="{y}" width="{c - 2}" height="{c - 2}"/>')
                continue
            sep = " sep" if q.get("separated") else ""
            tip = f"P({a} better than {b}) = {100 * q['p']:.0f}%; difference {_signed(q['diff'])} Elo"
            if q.get("low") is not None:
                tip += f" [{_signed(q['low'])}, {_signed(q['high'])}]"
            parts.append(f'<g class="cell{sep}"><title>{esc(tip)}</title><rect x="{x}" y="{y}" width="{c - 2}" height="{c - 2}" fill="{_mix(q["p"])}"/>')
            parts.append(f'<text x="{x + c / 2 - 1:.0f}" y="{y + c / 2 - 2:.0f}" text-anchor="middle">{100 * q["p"]:.0f}%</text>')
            parts.append(f'<text class="small" x="{x + c / 2 - 1:.0f}" y="{y + c / 2 + 13:.0f}" text-anchor="middle">{_signed(q["diff"])}</text></g>')
    parts.append("</svg>")
    return "".join(parts)
