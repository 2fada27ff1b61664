"""One game's metrics, a seat's compact summary, and sums over many games.

``seat_summary`` is what the tournament stores per seat: additive counts only, so any
grouping (per participant, per role, per side) is a sum followed by a rate with its
interval, and nothing has to be re-read from transcripts.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable, Iterable

from arena.metrics.beliefs import auc, belief_metrics, belief_pairs, brier
from arena.metrics.cost import cost_metrics
from arena.metrics.deception import deception_metrics
from arena.metrics.key_roles import key_role_metrics
from arena.metrics.load import GameRecord
from arena.metrics.powers import power_metrics
from arena.metrics.rule_following import rule_metrics
from arena.ratings.behaviour import BINS, accuracy, behaviour, sum_summaries
from arena.metrics.votes import vote_metrics


def measures(g: GameRecord) -> dict[str, Any]:
    """Each measure of one game, computed once: ``seat_summary``'s keyword arguments
    (every seat of the game shares them; each reads the whole transcript)."""
    return {
        "votes": vote_metrics(g), "deception": deception_metrics(g), "beliefs": belief_metrics(g),
        "rules": rule_metrics(g), "cost": cost_metrics(g), "powers": power_metrics(g),
    }  # fmt: skip


def game_metrics(g: GameRecord, parts: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything measurable about one finished game (``parts``: its ``measures``)."""
    parts = parts or measures(g)
    votes, deception, beliefs = parts["votes"], parts["deception"], parts["beliefs"]
    rules, cost, powers = parts["rules"], parts["cost"], parts["powers"]
    key = key_role_metrics(g)
    return {
        "transcript": g.path,
        "seed": g.header.get("seed"),
        "preset": g.header.get("preset"),
        "winner": g.winner,
        "days": g.days,
        "seats": {n: seat_summary(g, n, votes, deception, beliefs, rules, cost, powers) for n in g.names},
        "votes": votes["sides"],
        "powers": {"kinds": powers["kinds"], "uses": powers["uses"]},
        "key_roles": key,
        "deception": {"claims": deception["claims"], "roles": deception["roles"]},
        "beliefs": beliefs,
        "rule_following": rules["seats"],
        "cost": cost,
    }


def seat_summary(
    g: GameRecord,
    name: str,
    votes: dict[str, Any] | None = None,
    deception: dict[str, Any] | None = None,
    beliefs: dict[str, Any] | None = None,
    rules: dict[str, Any] | None = None,
    cost: dict[str, Any] | None = None,
    powers: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Additive counts for one seat (see the module docstring)."""
    votes = votes or vote_metrics(g)
    deception = deception or deception_metrics(g)
    beliefs = beliefs or belief_metrics(g)
    rules = rules or rule_metrics(g)
    cost = cost or cost_metrics(g)
    powers = powers or power_metrics(g)
    v = votes["seats"].get(name, {})
    d = deception["seats"].get(name, {})
    b = beliefs["seats"].get(name, {})
    r = rules["seats"].get(name, {})
    c = cost["seats"].get(name, {})
    pw = powers["seats"].get(name, {})
    deaths = {x.player: x for x in g.deaths()}
    return {
        "label": g.label(name),
        "role": g.roles.get(name),
        "initial_role": g.initial_roles.get(name),
        "wolf": g.is_wolf(name),
        "survived": name not in deaths,
        "ballots": v.get("ballots", 0),
        "abstained": v.get("abstained", 0),
        "wolf_votes": v.get("wolf_votes", 0),
        "expected_wolf_votes": round(v.get("expected_wolf_votes", 0.0), 6),
        "majority_n": v.get("majority_n", 0),
        "majority_agree": v.get("majority_agree", 0),
        "claims": d.get("claims", 0),
        "false_claims": d.get("false", 0),
        "lies": d.get("lies", 0),
        "lies_alive": d.get("lies_alive", 0),
        "lies_survived": d.get("lies_survived", 0),
        "lies_on_innocents": d.get("lies_on_innocents", 0),
        "village_votes_on_innocents": d.get("village_votes_on_innocents", 0),
        "innocents_voted_out": d.get("innocents_voted_out", 0),
        "power_uses": pw.get("uses", 0),
        "power_good": pw.get("good", 0),
        "power_expected_good": round(pw.get("expected_good", 0.0), 6),
        "power_wolf_targets": pw.get("wolf_targets", 0),
        "belief_n": b.get("n", 0),
        "belief_brier_sum": round((b.get("brier") or 0.0) * b.get("n", 0), 6),
        "belief_baseline_sum": round((b.get("baseline_brier") or 0.0) * b.get("n", 0), 6),
        "belief_bins": b.get("bins") or [[0, 0.0, 0] for _ in range(BINS)],
        "belief_auc": b.get("auc"),
        "belief_missing": b.get("missing", 0),
        "decisions_asked": r.get("decisions", 0),
        "violations": r.get("violations", 0),
        "fallbacks": r.get("fallbacks", 0),
        "errors": r.get("errors", 0),
        "calls": c.get("calls", 0),
        "input_tokens": c.get("input_tokens", 0),
        "output_tokens": c.get("output_tokens", 0),
        "cached_tokens": c.get("cached_tokens", 0),
        "reasoning_tokens": c.get("reasoning_tokens", 0),
        "latency_s": round(c.get("latency_s", 0.0), 6),
        "cost_usd": c.get("cost_usd", 0.0) if c else 0.0,
    }


def aggregate(games: Iterable[GameRecord], each: Callable[[GameRecord, dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Sums over games, by who played the seat (label), by role, and by label and side;
    belief AUC is pooled over every rating a label gave; power accuracy also by kind,
    by label and by label and kind, each with the actor's side at the moment of use.

    ``games`` is read once, one game at a time (a generator of transcripts keeps one in
    memory); ``each(game, measures)`` sees every game with its ``measures`` on the way."""
    by_label: dict[str, list] = defaultdict(list)
    by_role: dict[str, list] = defaultdict(list)
    by_label_side: dict[str, list] = defaultdict(list)
    pooled: dict[str, list] = defaultdict(list)
    winners: dict[str, int] = defaultdict(int)
    uses: list[dict[str, Any]] = []
    count = 0
    for g in games:
        count += 1
        winners[g.winner or "unfinished"] += 1
        parts = getattr(g, "parts", None) or measures(g)  # the CLI's check measured it already
        if each is not None:
            each(g, parts)
        powers = parts["powers"]
        uses.extend({**u, "label": g.label(u["seat"])} for u in powers["uses"])
        measured = g.measured if parts is getattr(g, "parts", None) else None
        # The game's own measures (the CLI's check) already hold every seat's summary.
        summaries = measured["seats"] if measured is not None else {n: seat_summary(g, n, **parts) for n in g.names}
        for n, s in summaries.items():
            by_label[s["label"]].append(s)
            by_role[s["initial_role"] or "?"].append(s)
            by_label_side[f"{s['label']} / {'werewolves' if s['wolf'] else 'village'}"].append(s)
        pairs, _ = belief_pairs(g)
        for seat, rows in pairs.items():
            pooled[g.label(seat)].extend((p, y) for p, y, _ in rows)
    labels = {k: behaviour(sum_summaries(v)) for k, v in sorted(by_label.items())}
    for k, v in labels.items():
        if pooled.get(k):
            v["auc"] = auc(pooled[k])
            v["brier"] = brier(pooled[k])
    return {
        "games": count,
        "winners": dict(winners),
        "by_label": labels,
        "by_label_side": {k: behaviour(sum_summaries(v)) for k, v in sorted(by_label_side.items())},
        "by_role": {k: behaviour(sum_summaries(v)) for k, v in sorted(by_role.items())},
        "powers_by_kind": power_groups(uses, lambda u: f"{u['kind']} / {u['side']}"),
        "powers_by_label": power_groups(uses, lambda u: u["label"]),
        "powers_by_label_side": power_groups(uses, lambda u: f"{u['label']} / {u['side']}"),
        "powers_by_label_kind": power_groups(uses, lambda u: f"{u['label']} / {u['kind']} / {u['side']}"),
    }


def power_groups(uses: list[dict[str, Any]], key: Callable[[dict[str, Any]], str]) -> dict[str, Any]:
    """Power accuracy of the uses grouped by ``key``; the side in a key is the actor's
    side when he used the power (a converted player's earlier uses stay the village's)."""
    acc: dict[str, list] = defaultdict(lambda: [0, 0, 0.0, 0])
    for u in uses:
        a = acc[key(u)]
        a[0] += 1
        a[1] += int(u["good"])
        a[2] += u["chance"]
        a[3] += int(u["target_wolf"])
    return {k: accuracy(n, good, expected, wolves) for k, (n, good, expected, wolves) in sorted(acc.items())}
