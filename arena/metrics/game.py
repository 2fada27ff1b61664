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
from arena.ratings.behaviour import BINS, SeatCounts, SummaryTotals, accuracy, behaviour, read_summary
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
    """Sums over games (``Aggregate``), read once, one game at a time (a generator of
    transcripts keeps one in memory); ``each(game, measures)`` sees every game with its
    ``measures`` on the way."""
    agg = Aggregate()
    for g in games:
        agg.add(g, each)
    return agg.result()


POWER_GROUPS: dict[str, Callable[[dict[str, Any]], str]] = {
    "powers_by_kind": lambda u: f"{u['kind']} / {u['side']}",
    "powers_by_label": lambda u: u["label"],
    "powers_by_label_side": lambda u: f"{u['label']} / {u['side']}",
    "powers_by_label_kind": lambda u: f"{u['label']} / {u['kind']} / {u['side']}",
}


class Aggregate:
    """Sums over games, by who played the seat (label), by role, and by label and side;
    belief AUC is pooled over every rating a label gave; power accuracy also by kind,
    by label and by label and kind, each with the actor's side at the moment of use.

    Games are added one at a time and summed as they come (every count in game order,
    then seat order: the figures of a list of games, however it is read). ``add`` first
    works out everything the game contributes, so a game whose records the sums cannot
    read (``contribution`` raises) leaves them as they were: the CLI's check of each
    game is that step, not a second aggregate."""

    def __init__(self) -> None:
        self.count = 0
        self.winners: dict[str, int] = defaultdict(int)
        self.groups: dict[str, dict[str, SummaryTotals]] = {k: defaultdict(SummaryTotals) for k in ("by_label", "by_label_side", "by_role")}
        self.pooled: dict[str, list[tuple[float, int]]] = defaultdict(list)
        self.powers: dict[str, dict[str, list[Any]]] = {k: defaultdict(lambda: [0, 0, 0.0, 0]) for k in POWER_GROUPS}

    @staticmethod
    def contribution(g: GameRecord, parts: dict[str, Any]) -> tuple[list[tuple[str, str, str, SeatCounts]], list[tuple[list[str], tuple]], list]:
        """What ``g`` adds: each seat's summary with its three groups (read once, by
        ``read_summary``, for all three), each power use's group keys and counts, each
        label's belief ratings. Raises what a record of the wrong shape makes a measure
        raise (the CLI skips the game)."""
        measured = g.measured if parts is getattr(g, "parts", None) else None
        # The game's own measures (the CLI's check) already hold every seat's summary.
        summaries = measured["seats"] if measured is not None else {n: seat_summary(g, n, **parts) for n in g.names}
        seats = []
        for s in summaries.values():
            read = read_summary(s)
            SummaryTotals().add_read(read)  # its counts are numbers
            role = s["initial_role"] or "?"
            hash(role)
            seats.append((s["label"], f"{s['label']} / {'werewolves' if s['wolf'] else 'village'}", role, read))
        uses = []
        for u in parts["powers"]["uses"]:
            u = {**u, "label": g.label(u["seat"])}
            counts = (1, int(u["good"]), 0.0 + u["chance"], int(u["target_wolf"]))
            uses.append(([key(u) for key in POWER_GROUPS.values()], (counts[1], u["chance"], counts[3])))
        pairs, _ = belief_pairs(g)
        pooled = [(g.label(seat), [(p, y) for p, y, _ in rows]) for seat, rows in pairs.items()]
        return seats, uses, pooled

    def add(self, g: GameRecord, each: Callable[[GameRecord, dict[str, Any]], None] | None = None) -> None:
        parts = getattr(g, "parts", None) or measures(g)  # the CLI's check measured it already
        if each is not None:
            each(g, parts)
        checked = g.contribution if parts is getattr(g, "parts", None) else None
        seats, uses, pooled = checked or self.contribution(g, parts)
        self.count += 1
        self.winners[g.winner or "unfinished"] += 1
        for label, label_side, role, read in seats:
            self.groups["by_label"][label].add_read(read)
            self.groups["by_role"][role].add_read(read)
            self.groups["by_label_side"][label_side].add_read(read)
        for keys, (good, chance, wolf) in uses:
            for group, key in zip(self.powers.values(), keys):
                a = group[key]
                a[0] += 1
                a[1] += good
                a[2] += chance
                a[3] += wolf
        for label, rows in pooled:
            self.pooled[label].extend(rows)

    def result(self) -> dict[str, Any]:
        def rates(group: dict[str, SummaryTotals]) -> dict[str, Any]:
            return {k: behaviour(v.result()) for k, v in sorted(group.items())}

        labels = rates(self.groups["by_label"])
        for k, v in labels.items():
            if self.pooled.get(k):
                v["auc"] = auc(self.pooled[k])
                v["brier"] = brier(self.pooled[k])
        return {
            "games": self.count,
            "winners": dict(self.winners),
            "by_label": labels,
            "by_label_side": rates(self.groups["by_label_side"]),
            "by_role": rates(self.groups["by_role"]),
            **{name: {k: accuracy(*a) for k, a in sorted(acc.items())} for name, acc in self.powers.items()},
        }
