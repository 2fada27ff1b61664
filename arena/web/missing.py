"""The page a person reaches through a link to no game (a mistyped or cut-short seat
link, or a game this server no longer holds).

Why a page and not ``404: Not Found``: the person holding the link is usually a player
sent it by the host, who needs to hear what may be wrong and where to go next. The
words are the pages' own (``static/i18n.json``), in the browser's first language.
"""

from __future__ import annotations

from html import escape

from starlette.responses import HTMLResponse

from arena.web.words import words


def browser_language(accept_language: str) -> str:
    """``zh`` when the browser's first choice is Chinese, else ``en``."""
    first = accept_language.split(",", 1)[0].strip().lower()
    return "zh" if first.startswith("zh") else "en"


def missing_page(accept_language: str = "") -> HTMLResponse:
    """A 404 that says what a link to no game may mean, with a way back to the start."""
    language = browser_language(accept_language)
    w = words(language)
    lang = "zh-Hans" if language == "zh" else "en"
    body = (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{escape(w["missing.title"])}</title><link rel="stylesheet" href="/static/style.css">'
        '<link rel="icon" href="/static/icon.svg" type="image/svg+xml"></head>'
        '<body class="day start"><header class="topbar"><div class="brand"><span class="logo">🐺</span> '
        f'<span>{escape(w["brand"])}</span></div></header>'
        f'<main class="start-main"><section class="panel missing"><h1>{escape(w["missing.title"])}</h1>'
        f'<p>{escape(w["missing.text"])}</p><p><a class="button primary" href="/">{escape(w["missing.start"])}</a></p>'
        "</section></main></body></html>"
    )
    return HTMLResponse(body, status_code=404)
