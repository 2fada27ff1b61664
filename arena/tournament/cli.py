"""``werewolf tournament CONFIG --db PATH``: run or resume a tournament (CONTRACT 3b)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any
from collections import Counter

from rich.markup import escape
from rich.table import Table

from arena.command import CliError, Command, add_fallbacks_flag, add_trust_flag, console_for
from arena.progress import wanted
from arena.ratings.fallbacks import MIN_DECIDED
from arena.signing_cli import add_sign_key_flag, signer_for
from arena.table_fit import fitted
from arena.tournament.config import ConfigError, load_config
from arena.tournament.paused import PausedParticipant
from arena.tournament.run import run_tournament
from arena.tournament.schedule import build_schedule, planned_games
from arena.tournament.store import StoreError
from arena.monitor.run import monitor_path
from arena.tournament.store import Store

EXIT_GAMES_FAILED = 1
EXIT_PAUSED = 3  # a participant was paused for falling back: games seating it were left unplayed
EXIT_INTERRUPTED = 130


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("config", metavar="CONFIG", help="the tournament file (.yaml/.yml/.json)")
    p.add_argument("--db", required=True, metavar="PATH", help="the results database (created if missing; transcripts go in a folder beside it)")
    p.add_argument("--json", action="store_true", help="print a JSON summary of the run on stdout")
    p.add_argument("--quiet", action="store_true", help="no progress bar (there is none with --json, nor when stderr is not a terminal)")
    p.add_argument("--max-games", type=int, metavar="N", help="play at most N more games this run (run again to continue)")
    p.add_argument("--plan", action="store_true", help="print the schedule's balance and play nothing")
    p.add_argument(
        "--min-decided", type=float, default=MIN_DECIDED, metavar="SHARE",
        help="pause a model participant whose own agent decides less than this share of its decisions in its first games, "
        "the bar the leaderboard rates games by (default 0.9; 0 pauses nobody)",
    )
    p.add_argument("--retry-paused", action="store_true", help="give the participants paused for falling back a new trial from their next game")
    add_sign_key_flag(p)  # overrides the file's sign_key
    add_trust_flag(p, "the tournament file")
    add_fallbacks_flag(p, "the run")  # or allow_fallbacks: true in the file


def run(args: argparse.Namespace) -> int:
    try:
        cfg = load_config(args.config, trust_endpoints=args.trust_endpoints)
    except ConfigError as e:
        raise CliError(str(e)) from None
    if args.plan:
        return print_plan(cfg, args.json)
    if args.sign_key:
        cfg = cfg.model_copy(update={"sign_key": args.sign_key})
    if args.allow_fallbacks:
        cfg = cfg.model_copy(update={"allow_fallbacks": True})
    signer_for(cfg.sign_key)  # a key that cannot be used stops the run before any game
    if args.max_games is not None and args.max_games < 0:
        raise CliError("--max-games must not be negative")
    if not 0.0 <= args.min_decided <= 1.0:
        raise CliError("--min-decided must be a share between 0 and 1")
    console = console_for(to_stderr=True)
    try:
        report = run_tournament(
            cfg, args.db, console=console, progress=wanted(json=args.json, quiet=args.quiet), max_games=args.max_games,
            min_decided=args.min_decided, retry_paused=args.retry_paused,
        )  # fmt: skip
    except (ConfigError, StoreError) as e:
        raise CliError(str(e)) from None
    monitored = monitor_games(cfg, report, quiet=args.json)
    if args.json:
        print(json.dumps(report.to_json() | ({"monitor": monitored} if cfg.monitor else {})))
    else:
        out = console_for(False)
        rate = report.played / report.seconds if report.seconds > 0 else 0.0
        out.print(
            f"[bold]{escape(cfg.name)}[/bold]: {report.planned} games planned · {report.already} already played · "
            f"{report.played} played now{escape(fallback_note(report.fallbacks))} · {report.failed} failed · {report.remaining} remaining · "
            f"{report.seconds:.1f} s ({rate:.1f} games/s)"
        )
        t = report.totals
        if t.get("calls"):
            cost = f"${t['cost_usd']:.4f}" + (" (some games unpriced)" if t.get("unpriced_games") else "")
            out.print(f"model calls {t['calls']:,} · tokens {t['input_tokens']:,} in / {t['output_tokens']:,} out · cost {cost}")
        for line in report.failures[:5]:
            out.print(f"[red]failed[/red] {line}")
        if report.stopped == "budget":
            b = report.budget or {}
            detail = f"${b.get('spent_usd', 0):.4f} spent"
            if b.get("in_flight"):
                detail += f", ~${b.get('in_flight_expected_usd', 0):.4f} still expected from the {b['in_flight']} game(s) then in flight"
            out.print(
                f"budget of ${cfg.budget_usd} reached ({detail}; a game is expected to cost ~${b.get('expected_per_game_usd', 0):.4f}): "
                "no new game was started; raise budget_usd and run again to continue"
            )
        elif report.stopped == "failing":
            out.print("stopped: too many games failed in a row (see above); fix the cause and run again")
        elif report.stopped == "interrupted":
            out.print("interrupted: finished games are kept; run the same command again to continue")
        for p in report.paused:
            out.print(f"[red]{escape(paused_lines(p))}[/red]", highlight=False)
        out.print(f"results: {report.db} · transcripts: {report.transcripts}/ · next: werewolf leaderboard --db {args.db}")
    if report.stopped == "interrupted":
        return EXIT_INTERRUPTED
    if report.paused and report.remaining:
        return EXIT_PAUSED
    if report.failed and report.remaining:
        return EXIT_GAMES_FAILED
    return 0


def monitor_games(cfg: Any, report: Any, *, quiet: bool) -> dict[str, Any] | None:
    """``monitor:``: the report over the tournament's games from the ratings kept
    beside them (the runner rated each game as it finished, under the budget: nothing
    is asked here), with the monitor's own account of this run (``RunReport.monitor``),
    the summary printed on stderr."""
    if not cfg.monitor:
        return None

    err = console_for(to_stderr=True)
    try:
        out = monitor_path(Path(report.transcripts), cfg.monitor, who=participants_by_file(report.db), read_only=True)
    except (ValueError, FileNotFoundError) as e:
        err.print(f"[yellow]monitor {escape(cfg.monitor)}: {escape(str(e))}[/yellow]")
        return {"error": str(e), "run": report.monitor}
    out = {**out, "run": report.monitor}
    run = report.monitor or {}
    if not quiet:
        rated = sum(r["rated"]["private"] + r["rated"]["public"] for r in out["by_agent"])
        err.print(f"monitor {escape(cfg.monitor)}: {out['seat_days']:,} seat-days, {rated:,} ratings kept · this run "
                  f"{run.get('calls', 0):,} calls ({run.get('failed_calls', 0):,} failed) · monitor spending ${run.get('spent_usd', 0.0):.4f} "
                  f"(in budget_usd, apart from the players') · werewolf monitor {report.transcripts} --agent {escape(cfg.monitor)} "
                  "for the AUROC table")  # fmt: skip
    return out


def participants_by_file(db: str) -> dict[str, dict[str, str]]:
    """Per transcript file name, each seat's participant: the monitor reports by
    participant (two participants may play the same agent)."""

    store = Store.open_existing(db)
    try:
        out: dict[str, dict[str, str]] = {}
        for transcript, seat, participant in store.db.execute("SELECT g.transcript, s.name, s.participant FROM seats s JOIN games g ON g.id = s.game_id"):
            out.setdefault(Path(transcript).name, {})[seat] = participant
        return out
    finally:
        store.close()


def fallback_note(f: dict) -> str:
    """`` (3 with fallback moves: Dead 3; 3 below --min-decided 0.9, left out by the leaderboard)``, or nothing."""
    if not f.get("games"):
        return ""
    who = ", ".join(f"{p} {n}" for p, n in f["by_participant"].items())
    note = f" ({f['games']} with fallback moves: {who}"
    if f.get("below_min_decided"):
        low = ", ".join(f"{p} {n}" for p, n in f["below_by_participant"].items())
        note += f"; {f['below_min_decided']} below --min-decided {f['min_decided']:g}, left out by the leaderboard: {low}"
    return note + ")"


def paused_lines(p: dict) -> str:
    record = PausedParticipant(**{k: v for k, v in p.items() if k != "share"})
    return f"{record.sentence()}\n  {record.advice()}"


def print_plan(cfg, as_json: bool) -> int:
    """The schedule's balance, so a fair plan can be checked before paying for it."""
    plans, bal = build_schedule(cfg)
    # An adaptive plan is known only up to its warm-up: the rest is chosen from results.
    total = planned_games(cfg) if cfg.adaptive is not None else len(plans)
    rows = []
    for p in cfg.participants:
        rows.append(
            {
                "participant": p.name,
                "agent": p.agent,
                "games": sum(1 for g in plans if p.name in g.participants),
                "seats": bal.seats[p.name],
                "roles": {r: {"seats": bal.role[p.name][r], "fair": round(bal.role_due[p.name][r], 2)} for r in sorted(bal.role_due[p.name])},
                "sides": {s: {"seats": bal.side[p.name][s], "fair": round(bal.side_due[p.name][s], 2)} for s in sorted(bal.side_due[p.name])},
                "positions": dict(sorted(Counter({k: v for k, v in bal.position[p.name].items()}).items())),
            }
        )
    if as_json:
        doc = {"games": len(plans), "tables": [t.label() for t in cfg.tables], "participants": rows}
        if cfg.adaptive is not None:
            doc["adaptive"] = {"planned_now": len(plans), "games": total}
        print(json.dumps(doc))
        return 0
    roles = sorted({r for row in rows for r in row["roles"]})
    what = f"{len(plans)} games" if total == len(plans) else f"the adaptive plan's warm-up, {len(plans)} of {total} games (the rest are chosen from the results)"
    t = Table(title=f"{cfg.name}: {what} · seats per role (fair share in brackets)", title_justify="left")
    for c in ("participant", "games", "seats", *roles, "per position"):
        t.add_column(c, justify="left" if c == "participant" else "right")
    fair = _fair_positions(plans)
    for row in rows:
        t.add_row(
            row["participant"], str(row["games"]), str(row["seats"]),
            *(f"{row['roles'].get(r, {}).get('seats', 0)} [{row['roles'].get(r, {}).get('fair', 0):g}]" for r in roles),
            _position_gap(fair.get(row["participant"], Counter()), row["positions"]),
        )  # fmt: skip
    console = console_for(False)
    console.print(fitted(t))
    console.print("[dim]per position: the largest gap, over the seat positions, between the seats a participant "
                  "holds there and its fair share of them (--json lists every position).[/dim]")
    return 0


def _fair_positions(plans) -> dict[str, Counter]:
    """Each participant's fair share of seats at each position: its share of each
    game's seats, summed over the games that have that position (a 12-seat table's
    12th chair exists in 12-seat games only). One pass over the plans for everyone."""
    fair: dict[str, Counter] = {}
    for g in plans:
        held = Counter(seat.participant for seat in g.seats)
        n = len(g.seats)
        positions = [str(seat.position) for seat in g.seats]
        for participant, k in held.items():
            counts = fair.setdefault(participant, Counter())
            for pos in positions:
                counts[pos] += k / n  # type: ignore[assignment]  # a fraction of a seat: a Counter of floats
    return fair


def _position_gap(fair: Counter, positions: dict) -> str:
    """``±1``: how far the participant's seats at any one position are from its fair share there."""
    if not fair:
        return "—"
    held = {str(k): v for k, v in positions.items()}
    gap = max(abs(held.get(k, 0) - v) for k, v in fair.items())
    return f"±{gap:.0f}" if gap >= 0.5 else "±0"


COMMANDS = [Command("tournament", "run or resume a tournament (results in SQLite)", _configure, run)]
