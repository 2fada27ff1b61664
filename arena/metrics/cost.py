"""Cost: calls, tokens, latency and money per seat and per game, from ``call`` records.

Tokens as recorded: ``input_tokens`` the whole prompt (``cached_tokens`` read from the
provider's cache, ``cache_write_tokens`` written to it), ``output_tokens`` the whole
completion, of which ``reasoning_tokens`` the hidden reasoning a reasoning model
spent (billed as output; 0 where the server does not report it).

A call is a request sent to the model, as the closing table, ``play --json`` and
``werewolf verify`` count it (``transcripts.call_counts.made_request``), and so the
tournament database's ``calls``, the leaderboard's and the export's: a record of a
decision settled without one (its only legal answer, a seat no longer asked, a request
that could not be sent, a fallback of an agent of one's own) counts no call and costs
nothing. Money is ``None`` as soon as one request had no known price: a partial sum
would read as a real total.
"""

from __future__ import annotations

from typing import Any

from arena.metrics.load import GameRecord
from transcripts.call_counts import made_request

TOKENS = ("input_tokens", "output_tokens", "cached_tokens", "cache_write_tokens", "reasoning_tokens")  # reasoning: within output


def _empty() -> dict[str, Any]:
    return {"calls": 0, **{t: 0 for t in TOKENS}, "latency_s": 0.0, "cost_usd": 0.0, "models": []}


def _add(acc: dict[str, Any], c: dict[str, Any]) -> None:
    if not made_request(c):
        return
    acc["calls"] += 1
    for t in TOKENS:
        acc[t] += int(c.get(t) or 0)
    acc["latency_s"] += float(c.get("latency_s") or 0.0)
    if acc["cost_usd"] is not None:
        acc["cost_usd"] = None if c.get("cost_usd") is None else acc["cost_usd"] + float(c["cost_usd"])
    model = c.get("display_name") or c.get("model")
    if model and model not in acc["models"]:
        acc["models"].append(model)


def cost_metrics(g: GameRecord) -> dict[str, Any]:
    seats: dict[str, dict[str, Any]] = {}
    total = _empty()
    for c in g.calls:
        _add(seats.setdefault(c.get("seat", "?"), _empty()), c)
        _add(total, c)
    for acc in (*seats.values(), total):
        acc["mean_latency_s"] = acc["latency_s"] / acc["calls"] if acc["calls"] else None
    return {"seats": seats, "total": total}
