"""``werewolf bench SPEC [--protocol NAME] [--budget-usd X] [--out DIR] [--yes] [--json]``
and ``werewolf bench --verify CARD``.

One command from a model to a card: the estimate (a dry run on the local stand-in),
the user's yes, the games until the protocol's interval is narrow enough or the budget
is spent (run again to resume), the card (JSON and HTML) beside the signed transcripts.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from arena.command import EXIT_GAME_FAILED, CliError, Command, parse_option_pairs
from arena.bench.protocol import ProtocolError, load_protocol
from arena.bench.card import build_card, write_card
from arena.bench.run import Bench, BenchError
from transcripts.signing import ENV_VAR, SigningKeyError, encode_public, generate, load_signer
from arena.bench.plan import bench_config
from arena.tournament.config import ConfigError
from arena.tournament.run import preflight
from arena.bench.estimate import estimate
from arena.bench.card import verify_card

DEFAULT_PROTOCOL = "v1"


def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("spec", nargs="?", metavar="SPEC", help="the model (or any agent spec) to bench, e.g. openai:gpt-5.4-mini")
    p.add_argument("--protocol", default=DEFAULT_PROTOCOL, metavar="NAME", help=f"a shipped protocol (default {DEFAULT_PROTOCOL}) or a protocol file")
    p.add_argument("--budget-usd", type=float, metavar="X", help="start no batch of games that would take the spend past X dollars")
    p.add_argument("--out", metavar="DIR", help="where the games, transcripts and card go (default bench/<protocol>-<model>); run again to resume")
    p.add_argument("--yes", action="store_true", help="do not ask before playing (the estimate is still printed)")
    p.add_argument("--json", action="store_true", help="print one JSON object: protocol, model, rating, games, cost_usd, card")
    p.add_argument("--model-option", action="append", metavar="KEY=VALUE", help="an option of the model (repeatable), as in tournament files")
    p.add_argument("--sign-key", metavar="PATH", help="sign the transcripts with this key (default: $WEREWOLF_SIGNING_KEY, else a key made in DIR)")
    p.add_argument("--prices", metavar="FILE", help="a price table (USD per 1M tokens) over the built-in one")
    p.add_argument("--verify", metavar="CARD", help="re-check a card against its signed transcripts; exit 0 when it holds")


def run(args: argparse.Namespace) -> int:
    if args.verify:
        return _verify(Path(args.verify), args.json)
    if not args.spec:
        raise CliError("werewolf bench: name the model to bench (SPEC), or --verify CARD")
    try:
        protocol = load_protocol(args.protocol)
    except ProtocolError as e:
        raise CliError(str(e)) from None
    if args.budget_usd is not None and args.budget_usd <= 0:
        raise CliError("--budget-usd must be more than 0")
    options = parse_option_pairs(args.model_option, "--model-option") or None
    out = Path(args.out or Path("bench") / f"{protocol.name}-{_slug(args.spec)}")
    say = _say(args.json)
    _preflight(protocol, args.spec, options, args.prices)  # a bad spec or a silent endpoint: nothing made, nothing played
    sign_key = _sign_key(args.sign_key, out, say)
    est = _estimate(protocol, args.spec, options, args.prices, args.yes, say)
    if not args.yes:
        _confirm(say)
    bench = Bench(
        protocol, args.spec, options, out, budget_usd=args.budget_usd, game_cost=(est or {}).get("usd_per_game") or 0.0,
        sign_key=sign_key, prices=args.prices,
        on_game=lambda s: say(f"  game {s.played} played; rated so far: {len(s.outcomes)}"),
    )  # fmt: skip
    try:
        state = bench.run()
    except BenchError as e:
        raise CliError(str(e)) from None
    signer = load_signer(sign_key)
    card = build_card(protocol, args.spec, options, state, out, signer=encode_public(signer.public) if signer else None, estimate=est)
    path = write_card(card, out)
    r = card["rating"]
    if args.json:
        print(
            json.dumps(
                {"protocol": protocol.label, "model": args.spec, "rating": r, "games": card["games"], "cost_usd": card["cost"]["usd"], "card": str(path)}
            )
        )
    else:
        print(f"{args.spec} on {protocol.label}: {r['value']:+.0f} Elo [{r['low']:+.0f}, {r['high']:+.0f}] over {card['games']} games")
        print(f"stopped: {_stopped(state.stopped, protocol.target)}; spent ${card['cost']['usd']:.4f}")
        print(f"card: {path} (and {path.with_suffix('.html')})")
    if state.stopped == "failed":
        for line in state.failures:
            print(f"error: {line}", file=sys.stderr)
        return EXIT_GAME_FAILED
    return 0


def _stopped(reason: str, target: float) -> str:
    return {
        "target": f"the interval is narrower than ±{target:.0f}",
        "budget": "the budget would be passed by the next batch (raise --budget-usd and run again to resume)",
        "deals": "the protocol's games are all played",
        "failed": "a game failed (run again to retry it)",
    }.get(reason, reason)


def _slug(spec: str) -> str:
    return "".join(c if c.isalnum() or c in "-._" else "-" for c in spec)


def _say(quiet_stdout: bool):
    def say(line: str) -> None:
        print(line, file=sys.stderr if quiet_stdout else sys.stdout, flush=True)

    return say


def _sign_key(given: str | None, out: Path, say) -> str | None:
    """The transcripts are always signed: the given key, the environment's, or one made
    for this bench directory (kept there, so a resumed run signs with the same key)."""
    if given:
        try:
            load_signer(given)
        except SigningKeyError as e:
            raise CliError(str(e)) from None
        return given
    if os.environ.get(ENV_VAR):
        return None
    key = out / "signing-key"
    if not key.exists():
        out.mkdir(parents=True, exist_ok=True)
        _, pub, fp = generate(key)
        say(f"made a signing key for this bench: {key} (public: {pub}, {fp}); keep it to sign future cards")
    return str(key)


def _preflight(protocol, spec: str, options, prices: str | None) -> None:
    """A model endpoint that does not answer stops the bench before anything: exit 2."""
    try:
        preflight(bench_config(protocol, spec, options, sign_key=None, prices=prices))
    except ConfigError as e:
        raise CliError(str(e)) from None


def _estimate(protocol, spec: str, options, prices: str | None, yes: bool, say) -> dict | None:
    say(f"estimating: a dry run of {protocol.label}, a deal of every table and opponent, on the local stand-in ...")
    try:
        est = estimate(protocol, spec, options, prices=prices)
    except ValueError as e:
        if yes:
            say(f"no estimate: {e}")
            return None
        raise CliError(str(e)) from None
    for line in est.lines():
        say(f"  {line}")
    return est.to_json()


def _confirm(say) -> None:
    if not sys.stdin.isatty():
        raise CliError("werewolf bench: confirm the estimate at a terminal, or pass --yes")
    try:
        answer = input("play? [y/N] ")
    except EOFError:
        answer = ""
    if answer.strip().lower() not in ("y", "yes"):
        raise CliError("not played: the estimate was not confirmed", 0, plain=True)


def _verify(path: Path, as_json: bool) -> int:
    check = verify_card(path)
    if as_json:
        print(json.dumps({"card": str(path), "ok": check.ok, "games": check.games, "problems": check.problems}))
    elif check.ok:
        print(f"{path}: holds ({check.games} signed transcripts re-played, rating recomputed)")
    else:
        for p in check.problems:
            print(f"{path}: {p}", file=sys.stderr)
    return 0 if check.ok else EXIT_GAME_FAILED


COMMANDS = [Command("bench", "bench a model on a fixed, versioned protocol: one number on a shared scale, and a signed card", _configure, run)]
