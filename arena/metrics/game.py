"""One game's metrics, a seat's compact summary, and sums over many games.

``seat_summary`` is what the tournament stores per seat: additive counts only, so any
grouping (per participant, per role, per side) is a sum followed by a rate with its
interval, and nothing has to be re-read from transcripts.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable, Iterable

from arena.metrics.beliefs import BINS, auc, belief_metrics, belief_pairs, binned_auc, brier, reliability
from arena.metrics.cost import cost_metrics
from arena.metrics.deception import deception_metrics
from arena.metrics.key_roles import key_role_metrics
from arena.metrics.load import GameRecord
from arena.metrics.powers import power_metrics
from arena.metrics.rule_following import rule_metrics
from arena.metrics.votes import ratio, vote_metrics
from arena.ratings.wilson import rate_with_interval


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
    deaths = {x["player"]: x for x in g.deaths()}
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


ADDITIVE = (
    "ballots", "abstained", "wolf_votes", "expected_wolf_votes", "majority_n", "majority_agree", "claims",
    "false_claims", "lies", "lies_alive", "lies_survived", "lies_on_innocents", "village_votes_on_innocents",
    "innocents_voted_out", "power_uses", "power_good", "power_expected_good", "power_wolf_targets", "belief_n",
    "belief_brier_sum", "belief_baseline_sum", "belief_missing", "decisions_asked", "violations", "fallbacks", "errors",
    "calls", "input_tokens", "output_tokens", "cached_tokens", "reasoning_tokens", "latency_s",
)  # fmt: skip


def sum_summaries(rows: Iterable[dict[str, Any]]) -> dict[str, Any]:
    acc: dict[str, Any] = {k: 0 for k in ADDITIVE}
    acc["seats"] = 0
    acc["survived"] = 0
    acc["cost_usd"] = 0.0
    acc["belief_bins"] = [[0, 0.0, 0] for _ in range(BINS)]
    for r in rows:
        for b, add in zip(acc["belief_bins"], r.get("belief_bins") or []):
            for j in range(3):
                b[j] += add[j]
        acc["seats"] += 1
        acc["survived"] += int(bool(r.get("survived")))
        for k in ADDITIVE:
            acc[k] += r.get(k) or 0
        if "lies_alive" not in r:  # a row stored before last words were told apart
            acc["lies_alive"] += r.get("lies") or 0
        if acc["cost_usd"] is not None:
            acc["cost_usd"] = None if r.get("cost_usd") is None else acc["cost_usd"] + r["cost_usd"]
    return acc


def behaviour(acc: dict[str, Any]) -> dict[str, Any]:
    """Rates with their intervals from summed counts. Rates of ballots are Wilson
    intervals over ballots (ballots of one seat are not independent, so read them as
    indicative); the chance ratio's interval is the Wilson interval divided by chance."""
    out: dict[str, Any] = {"seats": acc["seats"]}
    n = acc["ballots"]
    wolf = rate_with_interval(acc["wolf_votes"], n)
    chance = acc["expected_wolf_votes"] / n if n else None
    out["wolf_vote_rate"] = wolf
    out["chance_rate"] = chance
    out["ratio_to_chance"] = {
        "value": ratio(acc["wolf_votes"], acc["expected_wolf_votes"]),
        "low": wolf["low"] / chance if chance else None,
        "high": wolf["high"] / chance if chance else None,
    }
    out["majority_agreement"] = rate_with_interval(acc["majority_agree"], acc["majority_n"])
    out["lie_rate"] = rate_with_interval(acc["lies"], acc["claims"])
    out["false_claim_rate"] = rate_with_interval(acc["false_claims"], acc["claims"])
    out["lies_survived"] = rate_with_interval(acc["lies_survived"], acc["lies_alive"])
    out["innocents_voted_out_after_lie"] = rate_with_interval(acc["innocents_voted_out"], acc["lies_on_innocents"])
    out["village_votes_per_lie_on_innocent"] = (
        acc["village_votes_on_innocents"] / acc["lies_on_innocents"] if acc["lies_on_innocents"] else None
    )
    out["powers"] = accuracy(acc["power_uses"], acc["power_good"], acc["power_expected_good"], acc["power_wolf_targets"])
    out["survival"] = rate_with_interval(acc["survived"], acc["seats"])
    n_b = acc["belief_n"]
    out["brier"] = acc["belief_brier_sum"] / n_b if n_b else None
    out["baseline_brier"] = acc.get("belief_baseline_sum", 0.0) / n_b if n_b else None
    out["brier_skill"] = 1 - out["brier"] / out["baseline_brier"] if n_b and out["baseline_brier"] else None
    out["belief_auc"] = binned_auc(acc["belief_bins"]) if n_b else None
    out["reliability"] = reliability(acc["belief_bins"]) if n_b else []
    out["belief_ratings"] = n_b
    out["violation_rate"] = rate_with_interval(acc["violations"], acc["decisions_asked"])
    out["fallback_rate"] = rate_with_interval(acc["fallbacks"], acc["decisions_asked"])
    out["calls"] = acc["calls"]
    out["input_tokens"] = acc["input_tokens"]
    out["output_tokens"] = acc["output_tokens"]
    out["reasoning_tokens"] = acc["reasoning_tokens"]
    out["cost_usd"] = acc["cost_usd"]
    out["mean_latency_s"] = acc["latency_s"] / acc["calls"] if acc["calls"] else None
    return out


def accuracy(uses: int, good: int, expected_good: float, wolf_targets: int) -> dict[str, Any]:
    """Power accuracy from summed counts: the good rate with its Wilson interval, the
    chance rate, their ratio (its interval: the Wilson interval divided by chance, as
    for votes) and the share of uses that named a werewolf. Uses of one seat are not
    independent: read the intervals as indicative."""
    good_rate = rate_with_interval(good, uses)
    chance = expected_good / uses if uses else None
    return {
        "uses": uses,
        "good_rate": good_rate,
        "chance_rate": chance,
        "ratio_to_chance": {
            "value": ratio(good, expected_good),
            "low": low / chance if chance and (low := good_rate["low"]) is not None else None,
            "high": high / chance if chance and (high := good_rate["high"]) is not None else None,
        },
        "wolf_target_rate": rate_with_interval(wolf_targets, uses),
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
        summaries = {n: seat_summary(g, n, **parts) for n in g.names}
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
