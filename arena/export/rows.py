"""One game's rows for every exported table, from the metrics' transcript reader.

Plain dicts, no pandas: the tables are built from ``arena.metrics.load.GameRecord``
(the tolerant reader every metric uses) and from the metrics themselves where they
already judge something (``deception.claims``, ``rule_metrics``, ``cost_metrics``), so an
exported claim's ``lie`` is the very verdict the leaderboard counts.

Truth columns (``seat_role``, ``seat_wolf``, ``target_wolf``) are read *at the moment*
of the decision (``Truth``: a player infected since the deal is a wolf from then on),
except in ``beliefs`` and ``claims``, which are judged against the end of the game as
their metrics are (docs/EXPORT.md).
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from arena.metrics.cost import cost_metrics
from arena.metrics.deception import claims as judged_claims
from arena.metrics.load import GameRecord, Truth, camp_of
from arena.metrics.rule_following import rule_metrics
from arena.persuasion.export import persuasion_rows
from transcripts.call_counts import made_request

VOTE_KINDS = ("vote", "sheriff_vote", "vote_change")


def _json(value: Any) -> str | None:
    """A cell holding a structured value (a list of options, a pair): compact JSON;
    a plain string stays itself so speeches read as text."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def game_rows(g: GameRecord, game_id: str, db_game: dict[str, Any] | None = None, db_seats: dict[str, dict] | None = None) -> dict[str, list[dict]]:
    """Every table's rows for one game. ``db_game`` / ``db_seats`` are its rows in a
    tournament database (they add the schedule, timing and the participant names)."""
    db_seats = db_seats or {}
    label = {n: (db_seats[n]["participant"] if n in db_seats else g.label(n)) for n in g.names}
    out: dict[str, list[dict]] = {}
    out["games"] = [_game(g, game_id, db_game)]
    out["seats"] = _seats(g, game_id, label)
    out["decisions"], out["votes"] = _decisions_and_votes(g, game_id, label)
    out["claims"] = [
        {"game_id": game_id, "seq": c["seq"], "day": c["day"], "phase": c.get("phase"), "seat": c["seat"],
         "participant": label.get(c["seat"]), "seat_role": c.get("role"), "kind": c["kind"], "claim": c.get("claim"),
         "target": c.get("target"), "says_wolf": c.get("says_wolf", False if c["kind"] == "role" else None),
         "true": c["true"], "lie": c["lie"]}  # fmt: skip
        for c in judged_claims(g)
    ]
    out["beliefs"] = _beliefs(g, game_id, label)
    out["calls"] = [_call(c, game_id, label) for c in g.calls]
    out["deaths"] = [
        {"game_id": game_id, "seq": d.seq, "day": d.day, "phase": d.phase, "player": d.player,
         "role": d.role or g.roles.get(d.player), "cause": d.cause}  # fmt: skip
        for d in g.deaths()
    ]
    out["persuasion"] = persuasion_rows(g.path, game_id, label)
    return out


def _game(g: GameRecord, game_id: str, db: dict[str, Any] | None) -> dict[str, Any]:
    h = g.header
    end = g.game_end
    row = {
        "game_id": game_id,
        "transcript": g.path,
        "preset": h.get("preset"),
        "players": len(g.names),
        "seed": str(h["seed"]) if h.get("seed") is not None else None,  # 64-bit seeds: text, never a float
        "language": h.get("language"),
        "winner": g.winner,
        "days": g.days,
        "reason": (g.result or {}).get("reason") or (end.reason if end is not None else None),
        "complete": g.complete,
        "decisions": len(g.answers),
        "events": len(g.events),
    }
    db = db or {}
    for col, key in (("tournament_idx", "idx"), ("deal", "deal"), ("rotation", "rotation"), ("table_idx", "table_idx"),
                     ("started", "started"), ("finished", "finished"), ("seconds", "seconds")):  # fmt: skip
        row[col] = db.get(key)
    cost = cost_metrics(g)["total"]
    for col in ("calls", "input_tokens", "output_tokens", "cached_tokens", "cost_usd"):
        row[col] = db[col] if col in db else cost[col]
    return row


def _model(seat: dict[str, Any]) -> str | None:
    opts = seat.get("options") or {}
    agent = str(seat.get("agent") or "")
    if opts.get("model"):
        return str(opts["model"])
    return agent.split(":", 1)[1] if ":" in agent else None


def _seats(g: GameRecord, game_id: str, label: dict[str, str]) -> list[dict]:
    deaths = {d.player: d for d in g.deaths()}
    rules = rule_metrics(g)["seats"]
    cost = cost_metrics(g)["seats"]
    asked: dict[str, int] = defaultdict(int)
    for a in g.answers:
        asked[a.get("seat", "")] += 1
    end = g.game_end
    winners = set((g.result or {}).get("winners") or (end.winners if end is not None else None) or [])
    rows = []
    for i, s in enumerate(g.header.get("seats", [])):
        n = s["name"]
        d = deaths.get(n)
        r, c = rules.get(n, {}), cost.get(n, {})
        role = g.roles.get(n)
        rows.append(
            {
                "game_id": game_id, "position": i, "name": n, "participant": label.get(n), "agent": s.get("agent"),
                "model": _model(s), "initial_role": g.initial_roles.get(n), "role": role,
                "camp": camp_of(role) if role else None, "wolf": g.is_wolf(n) if role else None,
                "won": (n in winners) if g.complete else None, "survived": (d is None) if g.complete else None,
                "death_day": d.day if d else None, "death_cause": d.cause if d else None,
                "decisions": asked.get(n, 0), "violations": r.get("violations", 0), "fallbacks": r.get("fallbacks", 0),
                "calls": c.get("calls", 0), "input_tokens": c.get("input_tokens", 0),
                "output_tokens": c.get("output_tokens", 0), "cost_usd": c.get("cost_usd", 0.0) if c else 0.0,
            }
        )  # fmt: skip
    return rows


def _decisions_and_votes(g: GameRecord, game_id: str, label: dict[str, str]) -> tuple[list[dict], list[dict]]:
    truth = Truth(g)
    day, phase = 0, "setup"
    decisions: list[dict] = []
    votes: list[dict] = []
    rounds: dict[tuple, int] = defaultdict(int)
    for r in g.records:
        t = r.get("type")
        if t == "event":
            day, phase = int(r.get("day", day)), r.get("phase", phase)
            truth.see(g.typed(r))
            continue
        if t != "answer":
            continue
        seat: Any = r.get("seat")  # JSON as recorded: a name (None only in a damaged file)
        answer = r.get("answer")
        options = r.get("options") or []
        target = answer if isinstance(answer, str) and answer in truth.role else None
        text = answer.get("text") if isinstance(answer, dict) else answer
        decisions.append(
            {
                "game_id": game_id, "decision": r.get("decision"), "order": len(decisions), "day": day, "phase": phase,
                "seat": seat, "participant": label.get(seat), "kind": r.get("kind"), "shape": r.get("shape"),
                "options": _json(options), "n_options": len(options), "allow_pass": r.get("allow_pass"),
                "answer": _json(text) if r.get("shape") == "text" else _json(answer),
                "passed": answer is None or answer == "", "target": target, "seat_role": truth.role_of(seat),
                "seat_wolf": truth.is_wolf(seat), "target_wolf": truth.is_wolf(target) if target else None,
                "agent": r.get("agent"),
            }
        )  # fmt: skip
        if r.get("kind") in VOTE_KINDS:
            key = (day, r.get("kind"), seat)
            rounds[key] += 1
            names = [o for o in options if isinstance(o, str)]
            votes.append(
                {
                    "game_id": game_id, "decision": r.get("decision"), "day": day, "kind": r.get("kind"),
                    "round": rounds[key], "voter": seat, "participant": label.get(seat),
                    "voter_role": truth.role_of(seat), "voter_wolf": truth.is_wolf(seat), "target": target,
                    "target_role": truth.role_of(target) if target else None,
                    "target_wolf": truth.is_wolf(target) if target else None, "n_options": len(names),
                    "chance_wolf": sum(truth.is_wolf(o) for o in names) / len(names) if names else None,
                }
            )  # fmt: skip
    return decisions, votes


def _beliefs(g: GameRecord, game_id: str, label: dict[str, str]) -> list[dict]:
    wolves = g.wolves
    rows = []
    for b in g.beliefs:
        seat: Any = b.get("seat")
        base = {"game_id": game_id, "decision": b.get("decision"), "day": b.get("day"), "seat": seat,
                "participant": label.get(seat), "seat_role": g.roles.get(seat)}  # fmt: skip
        probs = b.get("probabilities")
        if not isinstance(probs, dict):
            rows.append({**base, "target": None, "probability": None, "target_wolf": None, "missing": True})
            continue
        for target, p in probs.items():
            ok = isinstance(p, (int, float)) and not isinstance(p, bool)
            rows.append({**base, "target": target, "probability": float(p) if ok else None,
                         "target_wolf": (target in wolves) if g.complete else None, "missing": False})  # fmt: skip
    return rows


def _call(c: dict[str, Any], game_id: str, label: dict[str, str]) -> dict[str, Any]:
    seat: Any = c.get("seat")
    keep = ("decision", "kind", "day", "attempt", "backend", "model", "mode", "started", "accepted", "violation",
            "error", "fallback", "retries", "latency_s", "input_tokens", "output_tokens", "cached_tokens",
            "cache_write_tokens", "reasoning_tokens", "cost_usd", "price_known", "reply")  # fmt: skip
    row = {"game_id": game_id, "seat": seat, "participant": label.get(seat), "request": made_request(c)}
    row.update({k: c.get(k) for k in keep})
    return row
