"""Behaviour from sums of seat summaries: what the leaderboard shows beside the ratings.

A tournament stores one summary per seat (``arena.metrics.game.seat_summary``); the
leaderboard adds them up per participant and side and turns the sums into rates with
intervals. That is all it needs of the metrics, so it lives here, apart from
``arena.metrics`` (whose package reads transcripts and imports the engine):
``werewolf leaderboard`` loads neither. ``arena.metrics`` imports these functions.
"""

from __future__ import annotations

from operator import add
from typing import Any, Iterable

from arena.ratings.wilson import rate_with_interval

BINS = 20  # probability bins of a seat's answers (reliability, pooled AUC)
NO_BINS = [[0, 0.0, 0]] * BINS  # a seat that gave no answer


def ratio(hits: float, expected: float) -> float | None:
    return hits / expected if expected > 0 else None


def binned_auc(bins: list[list[float]]) -> float | None:
    """AUC from binned answers: a wolf and an innocent in one bin count half."""
    pos = sum(b[2] for b in bins)
    neg = sum(b[0] - b[2] for b in bins)
    if pos <= 0 or neg <= 0:
        return None
    below = 0.0  # innocents in lower bins
    total = 0.0
    for n, _, w in bins:
        inn = n - w
        total += w * (below + 0.5 * inn)
        below += inn
    return total / (pos * neg)


def reliability(bins: list[list[float]], groups: int = 10) -> list[dict[str, float]]:
    """The reliability diagram's points: per group of bins with answers, the mean
    probability stated and the share that were wolves."""
    step = max(1, len(bins) // groups)
    out = []
    for k in range(0, len(bins), step):
        n = sum(b[0] for b in bins[k : k + step])
        if n:
            out.append({"low": k / len(bins), "high": (k + step) / len(bins), "n": n,
                        "mean_p": sum(b[1] for b in bins[k : k + step]) / n, "wolf_rate": sum(b[2] for b in bins[k : k + step]) / n})  # fmt: skip
    return out


ADDITIVE = (
    "ballots", "abstained", "wolf_votes", "expected_wolf_votes", "majority_n", "majority_agree", "claims",
    "false_claims", "lies", "lies_alive", "lies_survived", "lies_on_innocents", "village_votes_on_innocents",
    "innocents_voted_out", "power_uses", "power_good", "power_expected_good", "power_wolf_targets", "belief_n",
    "belief_brier_sum", "belief_baseline_sum", "belief_missing", "decisions_asked", "violations", "fallbacks", "errors",
    "calls", "input_tokens", "output_tokens", "cached_tokens", "reasoning_tokens", "latency_s",
)  # fmt: skip


def sum_summaries(rows: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Every additive count of the seat summaries ``rows``, summed (``SummaryTotals``)."""
    totals = SummaryTotals()
    for r in rows:
        totals.add(r)
    return totals.result()


SeatCounts = tuple[list[Any], Any, Any, Any, bool]


def read_summary(r: dict[str, Any]) -> SeatCounts:
    """What ``SummaryTotals.add`` takes of a seat summary: its counts in ADDITIVE's order
    (missing or empty ones as 0), its legacy lies (``None`` unless the row predates
    ``lies_alive``), its cost, its answer bins (``None`` when it gave no answer) and
    whether it survived."""
    get = r.get
    seat_bins = get("belief_bins")
    return (
        [v or 0 for v in map(get, ADDITIVE)],
        None if "lies_alive" in r else get("lies") or 0,
        get("cost_usd"),
        seat_bins if seat_bins and seat_bins != NO_BINS else None,  # no answers: adds nothing
        bool(get("survived")),
    )


class SummaryTotals:
    """Seat summaries summed as they come, so a folder of transcripts is summed without
    holding its rows. Each count is added in row order from 0, as a loop over the rows
    would (not ``sum``, whose float summation differs between Python versions): the
    leaderboard's figures do not depend on how. ``cost_usd`` is ``None`` once any seat's
    is. ``add`` changes nothing when a row cannot be added (a count that is not a number)."""

    def __init__(self) -> None:
        self.sums: list[Any] = [0] * len(ADDITIVE)  # in ADDITIVE's order
        self.legacy_lies: Any = 0  # lies of rows stored before last words were told apart
        self.seats = 0
        self.survived = 0
        self.cost: Any = 0.0
        self.bins: list[list[Any]] = [[0, 0.0, 0] for _ in range(BINS)]

    def add(self, r: dict[str, Any]) -> None:
        self.add_read(read_summary(r))

    def add_read(self, seat: "SeatCounts") -> None:
        """``add`` of a row read once by ``read_summary``: a leaderboard adds each seat
        to its participant's totals and to its side's, and reads the row only once."""
        counts, lies, c, seat_bins, survived = seat
        sums = list(map(add, self.sums, counts))
        # a row stored before last words were told apart counts all its lies as told alive
        legacy = self.legacy_lies if lies is None else self.legacy_lies + lies
        cost = None if self.cost is None or c is None else self.cost + c
        bins = self.bins
        if seat_bins:
            bins = [[b[0] + more[0], b[1] + more[1], b[2] + more[2]] for b, more in zip(self.bins, seat_bins)]
            bins += self.bins[len(bins) :]
        self.sums, self.legacy_lies, self.cost, self.bins = sums, legacy, cost, bins
        self.seats += 1
        if survived:
            self.survived += 1

    def result(self) -> dict[str, Any]:
        acc: dict[str, Any] = dict(zip(ADDITIVE, self.sums))
        acc["lies_alive"] += self.legacy_lies
        acc["seats"] = self.seats
        acc["survived"] = self.survived
        acc["cost_usd"] = self.cost
        acc["belief_bins"] = [list(b) for b in self.bins]
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
    out["village_votes_per_lie_on_innocent"] = acc["village_votes_on_innocents"] / acc["lies_on_innocents"] if acc["lies_on_innocents"] else None
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
