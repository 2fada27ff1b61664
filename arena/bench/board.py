"""A board of many labs' bench cards: ``werewolf leaderboard --cards DIR --html site/``.

Cards are compared only within one protocol version (the same digest): that is what
makes their numbers share a scale. Each card is verified against its transcripts
first; one that does not hold is listed apart with why, never ranked.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.bench.card import load_card, verify_card


@dataclass(frozen=True)
class Entry:
    path: Path
    card: dict[str, Any]
    problems: tuple[str, ...]


def collect(folder: Path) -> list[Entry]:
    entries = []
    for path in sorted(folder.rglob("*.json")):
        try:
            card = load_card(path)
        except ValueError:
            continue  # not a card: transcripts' neighbours, other JSON
        entries.append(Entry(path, card, tuple(verify_card(path).problems)))
    return entries


def board(entries: list[Entry]) -> dict[str, Any]:
    """Per protocol (name@version, digest): the verified cards, best first, and the
    cards that did not verify."""
    out: dict[str, dict[str, Any]] = {}
    for e in entries:
        p = e.card["protocol"]
        key = f"{p['name']}@{p['version']}"
        group = out.setdefault(key, {"protocol": key, "digest": p["digest"], "comparable": p["comparable"], "cards": [], "rejected": []})
        row = {"model": e.card["model"]["spec"], "rating": e.card["rating"], "sides": e.card["sides"], "games": e.card["games"],
               "cost_usd": e.card["cost"]["usd"], "card": str(e.path)}  # fmt: skip
        if e.problems or p["digest"] != group["digest"]:
            group["rejected"].append({**row, "problems": list(e.problems) or ["another digest of this protocol version"]})
        else:
            group["cards"].append(row)
    for group in out.values():
        group["cards"].sort(key=lambda r: -r["rating"]["value"])
    return {"protocols": list(out.values())}


def _iv(r: dict[str, float]) -> str:
    return f"{r['value']:+.0f} [{r['low']:+.0f}, {r['high']:+.0f}]"


def text(data: dict[str, Any]) -> str:
    lines = []
    for g in data["protocols"]:
        lines.append(f"protocol {g['protocol']} ({g['digest']}){'' if g['comparable'] else ' — test protocol, not comparable'}")
        for i, r in enumerate(g["cards"], 1):
            lines.append(f"  {i:>2}. {r['model']:<32} {_iv(r['rating']):<22} {r['games']:>5} games  ${r['cost_usd']:.2f}")
        for r in g["rejected"]:
            lines.append(f"   -  {r['model']:<32} not ranked: {r['problems'][0]}")
    return "\n".join(lines) if lines else "no bench cards found"


def write_site(data: dict[str, Any], out: Path) -> Path:
    e = html.escape
    parts = []
    for g in data["protocols"]:
        rows = "".join(
            f"<tr><td>{i}</td><td>{e(r['model'])}</td><td>{_iv(r['rating'])}</td><td>{_iv(r['sides']['deceiver'])}</td>"
            f"<td>{_iv(r['sides']['detector'])}</td><td>{r['games']}</td><td>${r['cost_usd']:.2f}</td></tr>"
            for i, r in enumerate(g["cards"], 1)
        )
        rejected = "".join(f"<li>{e(r['model'])}: {e(r['problems'][0])}</li>" for r in g["rejected"])
        parts.append(
            f"<h2>Protocol {e(g['protocol'])} <small><code>{e(g['digest'])}</code></small></h2>"
            + ("" if g["comparable"] else "<p>A test protocol: not for comparison.</p>")
            + "<table><tr><th>#</th><th>model</th><th>rating</th><th>as the pack</th><th>as the village</th><th>games</th><th>cost</th></tr>"
            + rows + "</table>" + (f"<p>Not ranked (the card does not hold):</p><ul>{rejected}</ul>" if rejected else "")
        )  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)
    page = out / "index.html"
    page.write_text(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Werewolf bench</title>'
        "<style>body{font-family:system-ui,sans-serif;max-width:64rem;margin:2rem auto;padding:0 1rem}td,th{padding:.2rem .6rem;text-align:left}</style>"
        "</head><body><h1>Werewolf bench</h1><p>Elo above the reference player against each protocol's field; 95% anytime-valid "
        "intervals; every card verified against its signed transcripts.</p>" + "".join(parts) + "</body></html>\n",
        encoding="utf-8",
    )
    return page


def run_board(folder: str, html_out: str | None, as_json: bool) -> int:
    data = board(collect(Path(folder)))
    if html_out:
        write_site(data, Path(html_out))
    print(json.dumps(data, ensure_ascii=False) if as_json else text(data))
    return 0
