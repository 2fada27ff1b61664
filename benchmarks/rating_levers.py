"""Issue 40's levers for more information per game, measured on the noise ladder (what
docs/RATINGS.md reports and refuses):

1. **Within-game signals** combined with the outcome. Each game's village team (one
   participant under teams seating) is scored on a behaviour read from the seats'
   stored metrics: ``majority`` (the share of its ballots cast for the player the day
   eliminated), ``votes`` (its ballots on wolves beyond what chance gives, per ballot)
   and ``powers`` (its power uses that hit their mark beyond chance, per use). Each
   signal is cut at its quartiles, and every cut joins the margin fit's cuts
   (``arena.ratings.margin``) as one more logistic comparison of the same strengths,
   with its own threshold and its own sensitivities to the village participant's
   strength and to the wolf participant's (the win's cut fixed at 1: Elo of
   winning; a N(1, 2^2) prior on each sensitivity, as the margin's). Printed: at 300
   games over the seeds, Kendall's tau, the neighbour pairs separated, their interval
   widths and bootstrap standard deviations (the information); and on each seed's
   1,000 games, how far each fit's neighbour differences lie from the win fit's of the
   same games (the bias a signal brings when it does not scale like winning).
2. **Control variates for the deal**: the positions the deal gives (the wolves next
   to each other or not, the Seer's distance to the nearest wolf, who speaks first),
   estimated from the tournament itself as covariates of the win fit; printed: each
   neighbour difference's z-score with and without them (the square of their ratio is
   the information gained).
3. **Sequential stopping** (``stop_when: separated``): on ``rating_recovery.py``'s
   adaptive tournaments (cached there), the first multiple of 50 games at which every
   neighbour pair of the fitted order is separated, by fixed-sample 95% intervals
   (peeking: not valid), by the table's simultaneous critical value, and by an
   anytime-valid normal-mixture boundary (Robbins; Howard et al. 2021, two-sided,
   tuned to the information 300 games give), from the margin fit's sandwich
   standard errors.
4. **The signals' calibration**: five identical copies of the heuristic bot (teams
   seating, through the runner); the share of pairs each fit separates by its own 95%
   interval (about 5% if calibrated), and of tournaments with any pair separated.

Teams tournaments are played through the tournament runner (seat metrics need the
transcripts) into ``--cache`` and kept as outcomes and per-seat counts.

    python benchmarks/rating_levers.py                 # 10 seeds of 1,000 games; 200 resamples
    python benchmarks/rating_levers.py --seeds 3 --bootstrap 100

Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402
import rating_recovery as rr  # noqa: E402

from arena.ratings.bradley_terry import ELO, fit_logistic  # noqa: E402
from arena.ratings.from_db import load_games  # noqa: E402
from arena.ratings.margin import design_for, margin_categories  # noqa: E402
from arena.ratings.recovery import kendall_tau  # noqa: E402
from arena.tournament.run import run_tournament, transcripts_dir  # noqa: E402
from arena.tournament.store import Store  # noqa: E402

NAMES = rr.TRUE_ORDER
COUNTS = ("ballots", "wolf_votes", "expected_wolf_votes", "majority_n", "majority_agree", "power_uses", "power_good", "power_expected_good")
SIGNALS = ("majority", "votes", "powers")
FITS = (("win", ()), ("margin", ()), ("margin+votes", ("votes",)), ("margin+powers", ("powers",)), ("margin+majority", ("majority",)))


def played_with_metrics(cache: rr.Cache, seed: int, games: int, field=rr.LADDER) -> dict[str, Any]:
    """A teams tournament of ``field`` (the ladder unless told) through the runner:
    outcomes and each game's village counts (summed over its village seats)."""
    key: tuple = ("levers", seed, games) if field is rr.LADDER else ("levers", seed, games, [f[0] for f in field])
    hit = cache.get(*key)
    if hit is not None:
        return hit
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "t.sqlite"
        run_tournament(rr.config("teams", games, seed, field), db, progress=False)
        store = Store.open_existing(db)
        outcomes = load_games(store)
        village: dict[str, dict[str, float]] = {}
        for gid, side, metrics in store.seat_rows("s.game_id, s.side, s.metrics"):
            if side == "village":
                m = json.loads(metrics or "{}")
                acc = village.setdefault(gid, dict.fromkeys(COUNTS, 0.0))
                for k in COUNTS:
                    acc[k] += float(m.get(k) or 0)
        store.close()
        shutil.rmtree(transcripts_dir(db), ignore_errors=True)
    return cache.put({"games": outcomes, "village": [village.get(g.id, dict.fromkeys(COUNTS, 0.0)) for g in outcomes]}, *key)


def signal_values(village: list[dict[str, float]]) -> dict[str, np.ndarray]:
    def share(num: str, den: str, minus: str | None = None) -> np.ndarray:
        out = []
        for v in village:
            top = v[num] - (v[minus] if minus else 0.0)
            out.append(top / v[den] if v[den] else 0.0)
        return np.array(out)

    return {
        "majority": share("majority_agree", "majority_n"),
        "votes": share("wolf_votes", "ballots", "expected_wolf_votes"),
        "powers": share("power_good", "power_uses", "power_expected_good"),
    }


class SignalFit:
    """The composite likelihood of several binary cuts of each game, every cut a
    logistic comparison of the village participant's strength and the wolf
    participant's: ``logit P(cut j) = t_j + gV_j * s[village] - gW_j * s[wolf]``, the
    win's cut with gV = gW = 1. Fisher scoring with step halving."""

    def __init__(self, vp: np.ndarray, wp: np.ndarray, Y: np.ndarray, fixed: np.ndarray, participants: int = len(NAMES)):
        self.vp, self.wp, self.Y, self.N = vp, wp, Y, participants
        self.C = Y.shape[1]
        self.free = np.flatnonzero(~fixed)
        self.F = len(self.free)
        self.P = self.C + 2 * self.F + participants
        self.prior = np.concatenate([np.full(self.C, 1e-6), np.full(2 * self.F, 0.25), np.full(participants, 0.1)])
        self.centre = np.concatenate([np.zeros(self.C), np.ones(2 * self.F), np.zeros(participants)])

    def unpack(self, th: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        C, F = self.C, self.F
        gV, gW = np.ones(C), np.ones(C)
        gV[self.free], gW[self.free] = th[C : C + F], th[C + F : C + 2 * F]
        return th[:C], gV, gW, th[C + 2 * F :]

    def parts(self, th: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(predictor [games, cuts], its Jacobian [games, cuts, parameters])."""
        t, gV, gW, b = self.unpack(th)
        n, C, F = len(self.vp), self.C, self.F
        xV, xW = b[self.vp], -b[self.wp]
        eta = t[None, :] + gV[None, :] * xV[:, None] + gW[None, :] * xW[:, None]
        J = np.zeros((n, C, self.P))
        J[:, np.arange(C), np.arange(C)] = 1.0
        J[:, self.free, C + np.arange(F)] = xV[:, None]
        J[:, self.free, C + F + np.arange(F)] = xW[:, None]
        rows = np.arange(n)
        J[rows, :, C + 2 * F + self.vp] += gV[None, :]
        J[rows, :, C + 2 * F + self.wp] -= gW[None, :]
        return eta, J

    def objective(self, th: np.ndarray, w: np.ndarray) -> float:
        eta, _ = self.parts(th)
        ll = (w[:, None] * (self.Y * eta - np.logaddexp(0.0, eta))).sum()
        return float(ll - 0.5 * np.sum(self.prior * (th - self.centre) ** 2))

    def fit(self, w: np.ndarray, start: np.ndarray | None = None, iters: int = 300, tol: float = 1e-7) -> np.ndarray:
        th = self.centre.copy() if start is None else start.copy()
        current = self.objective(th, w)
        for _ in range(iters):
            eta, J = self.parts(th)
            p = 1.0 / (1.0 + np.exp(-eta))
            r = w[:, None] * (self.Y - p)
            grad = np.einsum("nc,ncp->p", r, J) - self.prior * (th - self.centre)
            info = np.einsum("nc,ncp,ncq->pq", w[:, None] * p * (1 - p), J, J) + np.diag(self.prior)
            step = np.linalg.solve(info, grad)
            lam = 1.0
            while lam > 1e-8:
                value = self.objective(th + lam * step, w)
                if value >= current - 1e-12:
                    break
                lam /= 2
            if lam <= 1e-8:
                break
            th, current = th + lam * step, value
            if np.max(np.abs(lam * step)) < tol:
                break
        return th

    def strengths(self, th: np.ndarray) -> np.ndarray:
        b = self.unpack(th)[3]
        return (b - b.mean()) * ELO


def quartile_cuts(values: np.ndarray) -> np.ndarray:
    qs = np.unique(np.quantile(values, [0.25, 0.5, 0.75]))
    return (values[:, None] > qs[None, :]).astype(float)


def signal_fit(games: list, village: list, signals: tuple[str, ...], outcome: str, names: list[str] = NAMES) -> SignalFit:
    vp = np.array([names.index(g.team("village")[0].participant) for g in games])
    wp = np.array([names.index(g.team("werewolves")[0].participant) for g in games])
    if outcome == "win":
        Y, fixed = np.array([[g.village_won or 0.0] for g in games]), np.array([True])
    else:
        cats, split = margin_categories(games)
        K = int(cats.max()) + 1
        Y = (cats[:, None] >= np.arange(1, K)[None, :]).astype(float)
        fixed = np.arange(1, K) == split
    values = signal_values(village)
    for s in signals:
        M = quartile_cuts(values[s])
        Y, fixed = np.hstack([Y, M]), np.concatenate([fixed, np.zeros(M.shape[1], dtype=bool)])
    return SignalFit(vp, wp, Y, fixed, len(names))


def neighbours(s: np.ndarray) -> np.ndarray:
    return s[:-1] - s[1:]


def signals_section(cache: rr.Cache, seeds: int, n_boot: int, fits: list[str]) -> None:
    print("1. within-game signals (teams seating, 8 seats): at 300 games over the seeds, and the bias on each seed's 1,000 games")
    print("| fit | tau (mean) | tau = 1 | neighbours separated (of 4, mean) | mean 95% width (Elo) | bootstrap sd per neighbour pair (Elo) | "
          "information over the margin's | 1,000 games: neighbour differences minus the win fit's (mean ± se over seeds) |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|")
    data = [played_with_metrics(cache, s, 1000) for s in range(1, seeds + 1)]
    sds: dict[str, np.ndarray] = {}
    for name, sig in ((n, dict(FITS)[n]) for n in fits):  # margin before the signals: their information is over the margin's
        outcome = "win" if name == "win" else "margin"
        taus, seps, widths, sd = [], [], [], []
        bias = []
        for seed, d in enumerate(data, start=1):
            key = ("levers-fit", name, seed, n_boot)
            hit = cache.get(*key)
            if hit is None:
                games, village = d["games"][:300], d["village"][:300]
                model = signal_fit(games, village, sig, outcome)
                th = model.fit(np.ones(len(games)))
                point = model.strengths(th)
                rng = np.random.default_rng(seed)
                reps = np.array([
                    neighbours(model.strengths(model.fit(np.bincount(rng.integers(0, len(games), len(games)), minlength=len(games)).astype(float), th)))
                    for _ in range(n_boot)
                ])  # fmt: skip
                lo, hi = np.quantile(reps, [0.025, 0.975], axis=0)
                full = signal_fit(d["games"], d["village"], sig, outcome)
                win = design_for("win", d["games"], NAMES).fit()
                hit = cache.put({
                    "tau": kendall_tau([NAMES[i] for i in np.argsort(-point)], NAMES), "sep": int(np.sum(lo > 0)),
                    "width": float(np.mean(hi - lo)), "sd": reps.std(axis=0, ddof=1),
                    "bias": neighbours(full.strengths(full.fit(np.ones(len(d["games"]))))) - np.array([win[a] - win[b] for a, b in zip(NAMES, NAMES[1:])]),
                }, *key)  # fmt: skip
            taus.append(hit["tau"])
            seps.append(hit["sep"])
            widths.append(hit["width"])
            sd.append(hit["sd"])
            bias.append(hit["bias"])
        sds[name] = np.mean(sd, axis=0)
        gain = " ".join(f"{x:.2f}" for x in (sds["margin"] / sds[name]) ** 2) if "margin" in sds else "—"
        b = np.array(bias)
        cells = " ".join(f"{m:+.0f}±{e:.0f}" for m, e in zip(b.mean(axis=0), b.std(axis=0, ddof=1) / math.sqrt(len(b))))
        print(f"| {name} | {np.mean(taus):.2f} | {sum(t == 1 for t in taus)} of {len(taus)} | {np.mean(seps):.1f} | {np.mean(widths):.0f} | "
              f"{' '.join(f'{x:.0f}' for x in sds[name])} | {gain} | {cells} |", flush=True)  # fmt: skip


def deal_covariates(games: list) -> np.ndarray:
    """What the deal decides at an 8-seat teams table (one Seer, two wolves, villagers),
    centred: the wolves' distance apart (1, 2 or 3 seats), the Seer's distance to the
    nearest wolf (1 or 2), and whether a wolf or the Seer holds one of the first two
    seats (who speaks first)."""
    out = []
    for g in games:
        n = len(g.seats)
        wolves = [k for k, s in enumerate(g.seats) if s.side == "werewolves"]
        seer = [k for k, s in enumerate(g.seats) if s.role == "seer"]

        def dist(a: int, b: int) -> int:
            d = abs(a - b) % n
            return min(d, n - d)

        apart = dist(wolves[0], wolves[1]) if len(wolves) == 2 else 0
        near = min(dist(seer[0], w) for w in wolves) if seer and wolves else 0
        out.append([apart == 1, apart == 2, near == 1, near == 2, any(w < 2 for w in wolves), bool(seer) and seer[0] < 2])
    C = np.array(out, dtype=float)
    C = C[:, C.std(axis=0) > 0]
    return C - C.mean(axis=0)


def covariates_section(cache: rr.Cache, seeds: int) -> None:
    games = [g for s in range(1, seeds + 1) for g in played_with_metrics(cache, s, 1000)["games"]]
    X = np.zeros((len(games), 1 + len(NAMES)))
    X[:, 0] = 1.0
    y = np.array([g.village_won or 0.0 for g in games])
    for i, g in enumerate(games):
        X[i, 1 + NAMES.index(g.team("village")[0].participant)] += 1.0
        X[i, 1 + NAMES.index(g.team("werewolves")[0].participant)] -= 1.0
    C = deal_covariates(games)

    def z(Xm: np.ndarray) -> tuple[np.ndarray, float]:
        pen = np.full(Xm.shape[1], 0.1)
        pen[0] = 0.0
        th, info = fit_logistic(Xm, y, pen, with_hessian=True)
        cov = np.linalg.pinv(info)
        p = 1 / (1 + np.exp(-(Xm @ th)))
        dev = -2 * float(np.sum(y * np.log(p) + (1 - y) * np.log(1 - p)))
        return np.array([(th[1 + a] - th[2 + a]) / math.sqrt(cov[1 + a, 1 + a] + cov[2 + a, 2 + a] - 2 * cov[1 + a, 2 + a]) for a in range(4)]), dev

    z0, d0 = z(X)
    z1, d1 = z(np.hstack([X, C]))
    print()
    print(f"2. control variates for the deal ({len(games)} teams games, {C.shape[1]} position covariates): deviance {d0:.0f} -> {d1:.0f};"
          f" neighbour z {' '.join(f'{x:.2f}' for x in z0)} -> {' '.join(f'{x:.2f}' for x in z1)};"
          f" information ratio {' '.join(f'{x:.3f}' for x in (z1 / z0) ** 2)}")  # fmt: skip


def anytime_boundary(V: float, rho: float, alpha: float = 0.05) -> float:
    """The two-sided normal-mixture boundary on a z-score whose information is ``V``:
    crossing it at any time has probability at most ``alpha`` under the null."""
    return math.sqrt((V + rho) / V * math.log((V + rho) / (rho * alpha**2)))


def sequential_section(cache: rr.Cache, seeds: int, critical: float) -> None:
    print()
    print("3. sequential stopping on the adaptive design (margin fit, sandwich standard errors): first multiple of 50 games at which every")
    print(f"   neighbour pair of the fitted order is separated (— : not within 1,000); simultaneous: |z| > {critical:.2f}")
    print("| seed | fixed 95% (peeking) | simultaneous (peeking) | anytime-valid | anytime-valid boundary at 300 games (z, per pair) |")
    print("|---|---|---|---|---|")
    rho = None
    for seed in range(1, seeds + 1):
        games = rr.played(cache, "adaptive", 1000, seed)
        first: dict[str, int | None] = {"fixed": None, "sim": None, "any": None}
        at300 = ""
        for n in range(50, 1001, 50):
            sol = design_for("margin", rr.whole_deals(games, n), NAMES).wald()
            if sol is None:
                continue
            s, cov = sol.strengths, sol.strength_cov()
            order = np.argsort(-s)
            var = np.array([cov[a, a] + cov[b, b] - 2 * cov[a, b] for a, b in zip(order, order[1:])])
            zs = np.abs(s[order[:-1]] - s[order[1:]]) / np.sqrt(var)
            if rho is None and n == 300:
                rho = float(np.mean(1 / var))  # tuned to the information 300 games give
            bound = [anytime_boundary(1 / v, rho or float(np.mean(1 / var))) for v in var]
            for k, ok in (("fixed", np.all(zs > 1.96)), ("sim", np.all(zs > critical)), ("any", np.all(zs > bound))):
                if ok and first[k] is None:
                    first[k] = n
            if n == 300:
                at300 = " ".join(f"{b:.2f}" for b in bound)
        print(f"| {seed} | {first['fixed'] or '—'} | {first['sim'] or '—'} | {first['any'] or '—'} | {at300} |", flush=True)


def copies_section(cache: rr.Cache, tournaments: int, games: int, n_boot: int, fits: list[str]) -> None:
    """The signals' calibration: five identical copies of the heuristic bot, teams
    seating through the runner; each fit's pairs separated by their own 95% percentile
    intervals (about 5% expected)."""
    names = [c[0] for c in rr.COPIES]
    pairs = [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]
    chosen = [(n, s) for n, s in FITS if n in fits and n != "win"]
    print()
    print(f"4. calibration: five identical copies of the heuristic bot, {tournaments} teams tournaments of {games} games, {n_boot} resamples")
    own = dict.fromkeys((n for n, _ in chosen), 0)
    anyp = dict.fromkeys((n for n, _ in chosen), 0)
    for s in range(tournaments):  # tournaments outside: an interrupted run keeps whole tournaments in the cache
        for name, sig in chosen:
            key = ("levers-copies", name, s, games, n_boot)
            hit = cache.get(*key)
            if hit is None:
                d = played_with_metrics(cache, 10_000 + s, games, rr.COPIES)
                model = signal_fit(d["games"], d["village"], sig, "margin", names)
                th = model.fit(np.ones(len(d["games"])))
                rng = np.random.default_rng(s)
                n = len(d["games"])
                reps = np.array([model.strengths(model.fit(np.bincount(rng.integers(0, n, n), minlength=n).astype(float), th)) for _ in range(n_boot)])
                D = np.array([reps[:, i] - reps[:, j] for i, j in pairs]).T
                lo, hi = np.quantile(D, [0.025, 0.975], axis=0)
                hit = cache.put(int(np.sum((lo > 0) | (hi < 0))), *key)
            own[name] += hit
            anyp[name] += hit > 0
        print(f"  {s + 1}/{tournaments}", file=sys.stderr, flush=True)
    print("| fit | pairs separated, own intervals | tournaments with a pair separated |")
    print("|---|---|---|")
    for name, _ in chosen:
        print(f"| {name} | {100 * own[name] / (tournaments * len(pairs)):.1f}% | {100 * anyp[name] / tournaments:.0f}% |", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--bootstrap", type=int, default=200)
    ap.add_argument("--cache", default=str(Path(tempfile.gettempdir()) / "werewolf-rating-recovery"), help="shared with rating_recovery.py")
    ap.add_argument("--fits", nargs="+", default=[f for f, _ in FITS], choices=[f for f, _ in FITS], help="the signal fits to print, in this order")
    ap.add_argument("--copies", type=int, default=40, help="identical-copies tournaments for the signals' calibration (0: none)")
    ap.add_argument("--copies-games", type=int, default=300)
    ap.add_argument("--only", nargs="+", choices=("signals", "covariates", "sequential", "copies"), help="print only these sections")
    ap.add_argument("--critical", type=float, default=2.75, help="the simultaneous critical value for five participants (rating_recovery.py prints it)")
    args = ap.parse_args(argv)
    cache = rr.Cache(Path(args.cache), False)
    t0 = time.perf_counter()
    only = set(args.only or ("signals", "covariates", "sequential", "copies"))
    if "signals" in only:
        signals_section(cache, args.seeds, args.bootstrap, args.fits)
    if "covariates" in only:
        covariates_section(cache, args.seeds)
    if "sequential" in only:
        sequential_section(cache, args.seeds, args.critical)
    if "copies" in only and args.copies:
        copies_section(cache, args.copies, args.copies_games, args.bootstrap, args.fits)
    print(f"\n({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
