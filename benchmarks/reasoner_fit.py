"""Fit the reasoner's action model (``agents/reasoner/model.py``) to games, and print it.

The reasoner weighs each public action by how likely it is under each assignment of
the cards; the constants of those likelihoods are fitted here by maximum likelihood of
the *true* cards: every game is read again by a fresh ``Table`` (the same public
events, the same mood before each action as a seat had), and each kind of action
keeps the parameters under which what was actually done was most likely:

- picks (day votes, accusations, Sheriff votes, the heir): a conditional logit per
  actor class (villager, Seer, wolf) on the mood and on "the target is a wolf", that
  last term held at 0 for a villager: he knows nothing of the cards the table does not,
  so his pick tells whether *he* is a wolf, never what his target is (a village that
  read its own votes as evidence would lock onto its first suspect, and did: 62% of
  wins instead of 87% at 8 players against the heuristic pack);
- role claims and Seer reports: frequencies per class (with one pseudo-count each way);
- the night's victim: a conditional logit over the living non-wolves.

The mood depends on the parameters, so the fit is repeated on the same games with the
parameters just found until they settle (``--rounds``, half a step at a time). The
games are teams games against the heuristic bot at 8 and 12 seats (Miller's Hollow),
both ways round; by default the fit reads those of the reasoner's village against the
heuristic pack (``--fit-on village``): the actions its village reads in the games it is
measured by. Fitted on both ways round, the pack's model blurs the heuristic pack with
the reasoner's own, and the village won 75% of its games at 8 players instead of 87%.

    python benchmarks/reasoner_fit.py [--games 300] [--seed 50000] [--rounds 5] [--fit-on village|wolves|both]

Needs scipy (installed with the test extras' dependencies).
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.reasoner.model import KILL_FEATURES, PARAMS, ClaimFactor, ClaimModel, KillFactor, KillModel, Params, Pick, PickFactor, ReportFactor, ReportModel  # noqa: E402
from agents.reasoner.space import INFORMED, SEER, VILLAGER, WOLF  # noqa: E402
from agents.reasoner.table import Table, is_public  # noqa: E402
from agents.registry import make_agent  # noqa: E402
from arena.gamefile import default_game, seat_seed  # noqa: E402
from arena.runner import run_sync  # noqa: E402
from engine.events import Event  # noqa: E402
from engine.speech import Speech  # noqa: E402


@dataclass
class Played:
    """What the fit reads of a game: its public events and the true cards."""

    events: list[Event]
    players: list[str]
    roles: list[str]
    center: list[str]
    village: str = ""  # who held the village and the pack
    wolves: str = ""


def play(seed: int, players: int, village: str, wolves: str) -> Played:
    game, _ = default_game(players=players, seed=seed, agent="heuristic").build()
    agents = {p.name: make_agent(wolves if p.is_wolf else village, p.name, seed=seat_seed(seed, i)) for i, p in enumerate(game.players)}
    run_sync(game, agents)
    return Played([e for e in game.events if is_public(e)], [p.name for p in game.players], [p.role for p in game.players], list(game.center), village, wolves)


def truth(game: Played, table: Table) -> tuple[np.ndarray, np.ndarray]:
    """The true wolf cards and actor classes of the table's slots."""
    assert table.deck is not None
    roles = game.roles + game.center
    wolf = np.array([bool(table.deck.wolfish[table.deck.types.index(r)]) if r in table.deck.types else False for r in roles])
    cls = np.array([WOLF if w else SEER if r in INFORMED else VILLAGER for r, w in zip(roles, wolf)])
    return wolf, cls


def read(games: list[Played], params: Params) -> dict[str, list]:
    data: dict[str, list] = {"vote": [], "accuse": [], "sheriff_vote": [], "successor": [], "claim": [], "report": [], "kill": []}
    for game in games:
        t = Table(params)
        for e in game.events:
            t.read(e)
        if t.deck is None:
            continue
        wolf, cls = truth(game, t)
        for entry in t.log:
            f = entry.factor
            if isinstance(f, PickFactor):
                kinds = {id(params.vote): "vote", id(params.accuse): "accuse", id(params.sheriff_vote): "sheriff_vote", id(params.successor): "successor"}
                kind = kinds[id(f.model)]
                data[kind].append((cls[f.actor], f.target, f.options, f.mood, wolf))
            elif isinstance(f, ClaimFactor):
                data["claim"].append((f.role, f.actor))
            elif isinstance(f, ReportFactor):
                data["report"].append((cls[f.actor], bool(wolf[f.target]), f.wolf))
            elif isinstance(f, KillFactor):
                data["kill"].append((f, wolf))
        data.setdefault("tables", []).append((game, cls, wolf))
    return data


def fit_pick(records: list, start: Pick) -> Pick:
    """The conditional logit of the picks, vectorised over records: the options padded
    to one width, the padding masked out."""
    from scipy.optimize import minimize

    if not records:
        return start
    width = max(len(r[2]) for r in records)
    n = len(records)
    mood = np.zeros((n, width))
    wolf = np.zeros((n, width))
    mask = np.zeros((n, width), dtype=bool)
    chosen = np.zeros(n, dtype=np.intp)
    cls = np.zeros(n, dtype=np.intp)
    for i, (c, t, opts, m, w) in enumerate(records):
        k = len(opts)
        mood[i, :k] = m[opts]
        wolf[i, :k] = w[opts]
        mask[i, :k] = True
        chosen[i] = int(np.flatnonzero(opts == t)[0])
        cls[i] = c
    rows = np.arange(n)

    def nll(x: np.ndarray) -> float:
        x = x.copy()
        x[3 + VILLAGER] = 0.0  # a villager's pick says nothing of its target (see the module docstring)
        beta, gamma = x[:3][cls], x[3:][cls]
        u = beta[:, None] * mood + gamma[:, None] * wolf
        u = np.where(mask, u, -np.inf)
        top = u.max(axis=1)
        lse = top + np.log(np.exp(u - top[:, None]).sum(axis=1))
        return float(-(u[rows, chosen] - lse).sum() + 0.01 * float(x @ x))  # a whisper of ridge: a class seldom seen stays finite

    x0 = np.array([*start.beta, *start.gamma])
    res = minimize(nll, x0, method="L-BFGS-B")
    x = res.x.copy()
    x[3 + VILLAGER] = 0.0
    return replace(start, beta=tuple(round(float(v), 2) for v in x[:3]), gamma=tuple(round(float(v), 2) for v in x[3:]))


def fit_claims(data: dict[str, list], informed: bool, start: ClaimModel) -> ClaimModel:
    """P(a player claims a role of this group at some point), per card: its holder, a
    wolf, anyone else (counted per player and role)."""
    tables = data["tables"]
    holder = [0, 0]
    wolf = [0, 0]
    other = [0, 0]
    for game, cls, wolves in tables:
        claimed: dict[int, set[str]] = {}
        t_roles = game.roles
        for e in game.events:
            d = e.data
            if isinstance(d, Speech) and isinstance(d.claims, dict) and isinstance(d.claims.get("role"), str):
                r = d.claims["role"]
                if (r in INFORMED) == informed and r != "villager" and d.speaker in game.players:
                    claimed.setdefault(game.players.index(d.speaker), set()).add(r)
        roles_in_group = {r for r in set(t_roles) if (r in INFORMED) == informed and r not in ("villager",) and not wolves[t_roles.index(r)]}
        for i, r in enumerate(t_roles):
            said = claimed.get(i, set())
            for group_role in roles_in_group:
                hit = group_role in said
                if r == group_role:
                    holder[0] += hit
                    holder[1] += 1
                elif wolves[i]:
                    wolf[0] += hit
                    wolf[1] += 1
                else:
                    other[0] += hit
                    other[1] += 1

    def rate(k: list[int]) -> float:
        return round((k[0] + 1) / (k[1] + 2), 4)

    if not holder[1]:  # no such card was dealt: nothing to fit
        return start
    return ClaimModel(holder=rate(holder), wolf=rate(wolf), other=rate(other))


def fit_reports(records: list, start: ReportModel) -> ReportModel:
    def rate(c: int, target_wolf: bool) -> float:
        said = [w for cc, tw, w in records if cc == c and tw == target_wolf]
        return round((sum(said) + 1) / (len(said) + 2), 4)

    return ReportModel(
        seer_error=round(max(0.01, (1 - rate(SEER, True) + rate(SEER, False)) / 2), 4),
        wolf_on_villager=rate(WOLF, False),
        wolf_on_mate=rate(WOLF, True),
        other_on_wolf=rate(VILLAGER, True),
        other_on_villager=rate(VILLAGER, False),
    )


def fit_kill(records: list, start: KillModel) -> KillModel:
    from scipy.optimize import minimize

    def nll(x: np.ndarray) -> float:
        weights, pa, pv, pr = x[:5], x[5], x[6], x[7]
        total = 0.0
        for f, wolf in records:
            n = f.accused.shape[0]
            pressure = pa * f.accused[f.alive] + pv * f.voted[f.alive] + pr * f.reported[f.alive]
            s = f.features @ weights + pressure @ wolf[:n].astype(float)
            valid = ~wolf[f.alive]
            v = int(np.flatnonzero(f.alive == f.victim)[0])
            if not valid[v]:
                continue
            top = s[valid].max()
            total -= s[v] - top - np.log(np.exp(s[valid] - top).sum())
        return total + 0.01 * float(x @ x)

    x0 = np.array([*start.weights, start.accused_wolf, start.voted_wolf, start.reported_wolf])
    res = minimize(nll, x0, method="L-BFGS-B")
    r = [round(float(v), 2) for v in res.x]
    named = dict(zip(KILL_FEATURES, r[:5]))
    return KillModel(**named, accused_wolf=r[5], voted_wolf=r[6], reported_wolf=r[7])


def fit(games: list[Played], params: Params) -> Params:
    data = read(games, params)
    return Params(
        vote=fit_pick(data["vote"], params.vote),
        accuse=fit_pick(data["accuse"], params.accuse),
        sheriff_vote=fit_pick(data["sheriff_vote"], params.sheriff_vote),
        successor=fit_pick(data["successor"], params.successor),
        claim_seer=fit_claims(data, True, params.claim_seer),
        claim_power=fit_claims(data, False, params.claim_power),
        report=fit_reports(data["report"], params.report),
        kill=fit_kill(data["kill"], params.kill),
    )


def damped(old: Params, new: Params, keep: float) -> Params:
    """``keep`` of the old parameters and the rest of the new ones: the mood the picks are
    fitted on moves with the parameters, and a full step at a time oscillates."""

    def mix(a: object, b: object) -> object:
        if isinstance(a, tuple):
            return tuple(mix(x, y) for x, y in zip(a, b))  # type: ignore[arg-type]
        if isinstance(a, float) and isinstance(b, float):
            return round(keep * a + (1 - keep) * b, 3)
        if hasattr(a, "__dataclass_fields__"):
            return type(a)(**{k: mix(getattr(a, k), getattr(b, k)) for k in a.__dataclass_fields__})  # type: ignore[attr-defined]
        return b

    return mix(old, new)  # type: ignore[return-value]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per table size and seating")
    ap.add_argument("--seed", type=int, default=50000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--players", default="8,12")
    ap.add_argument("--damping", type=float, default=0.5, help="share of the previous round's parameters kept")
    ap.add_argument("--cache", help="keep the played games in this file (pickle) and read them from it next time")
    ap.add_argument(
        "--fit-on", choices=("village", "wolves", "both"), default="village",
        help="the games fitted: the reasoner's village against the heuristic pack (default: the actions its village reads), the other way round, or both",
    )  # fmt: skip
    args = ap.parse_args()
    t0 = time.perf_counter()
    games: list[Played] = []
    if args.cache and Path(args.cache).exists():
        with open(args.cache, "rb") as f:
            games = pickle.load(f)
    else:
        seatings = [("reasoner", "heuristic"), ("heuristic", "reasoner")]
        if args.fit_on != "both":
            seatings = seatings[:1] if args.fit_on == "village" else seatings[1:]
        for n in (int(x) for x in args.players.split(",")):
            for village, wolves in seatings:
                games += [play(args.seed + g, n, village, wolves) for g in range(args.games)]
        if args.cache:
            with open(args.cache, "wb") as f:
                pickle.dump(games, f)
    print(f"{len(games)} games in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    if args.fit_on != "both":
        games = [g for g in games if (g.village == "reasoner") == (args.fit_on == "village")]
    params = PARAMS
    for r in range(args.rounds):
        params = damped(params, fit(games, params), args.damping)
        print(f"round {r + 1}: {params}", file=sys.stderr)
    print(params)


if __name__ == "__main__":
    main()
