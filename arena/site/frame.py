"""The site's words (English and Chinese, ``words.json``; roles and winners in the
prompts' and the web table's own words), its number formats, and the frame every page
shares: inline CSS (responsive: tables scroll in place, charts scale), navigation and
the language switch. No script, no network."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from arena.site.svg import esc
from arena.web.render import role_names
from arena.web.words import words

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
        self.roles = role_names(language)
        web = words(language)
        self.sides = {"village": web.get("win.village", "village"), "werewolves": web.get("win.werewolves", "werewolves")}

    def __call__(self, key: str, **values: Any) -> str:
        text = self.w.get(key, key)
        return re.sub(r"\{(\w+)\}", lambda m: str(values.get(m.group(1), m.group(0))), text)

    def role(self, role: str) -> str:
        return self.roles.get(role, role)

    def winner(self, winner: str) -> str:
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


def suffix(language: str, main: str) -> str:
    return "" if language == main else f".{language}"


def nav(words: Words, sfx: str) -> str:
    items = [("ranking", "nav.ranking"), ("h2h", "nav.h2h"), ("sides", "nav.sides"), ("roles", "nav.roles"),
             ("behaviour", "nav.behaviour"), ("bias", "nav.bias"), ("cost", "nav.cost"), ("identical", "nav.identical")]  # fmt: skip
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
