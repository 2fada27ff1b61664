"""``games.html``: every game, linking its replay; self-play and identical-participant
games listed apart."""

from __future__ import annotations

from typing import Any

from arena.site.frame import Words, nav, page, table
from arena.site.index import tournament
from arena.site.svg import esc


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
