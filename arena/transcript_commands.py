"""``werewolf verify``, ``replay`` and ``export``: reading a recorded game back.

All three start from the same step, re-playing the file through the engine
(``transcripts.verify``), because a transcript is only worth showing once the rules
agree with it: a replay or a page of a tampered file would present a lie as a game.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from arena.command import EXIT_BAD_INPUT, EXIT_GAME_FAILED, CliError, Command, console_for
from arena.export import ExportError, export
from transcripts.export_html import render_html
from transcripts.replay import ReplayOptions, last_day, replay, terminal_pause
from transcripts.signing import SigningKeyError, load_public_key
from transcripts.verify import Status, Verification, verify_file
from prompts.catalog import LANGUAGES
from transcripts.views import Lens


# ---------------------------------------------------------------------- verify
def _configure_verify(p: argparse.ArgumentParser) -> None:
    p.add_argument("transcript", metavar="TRANSCRIPT", help="a transcript written by werewolf play --transcript")
    p.add_argument("--json", action="store_true", help="print the verdict as one JSON object on stdout, with which guarantees hold")
    p.add_argument("--key", metavar="PUB", help="the transcript must be signed by this Ed25519 public key (OUT.pub of werewolf keygen)")
    p.add_argument(
        "--allow-unchained", action="store_true", help="accept a file without a digest chain (written before chains), checked by re-play alone"
    )
    p.epilog = (
        "Exit codes: 0 every record reproduced and the game ended, the chain intact, every model answer backed by "
        "its call (and, with --key, signed by that key); 1 a difference or a missing guarantee (the first one is "
        "printed: line, expected, found); 2 not a readable transcript, or a key that cannot be read; 3 incomplete "
        "(every line matches but the game did not end: resume it with werewolf play --resume). "
        "What each guarantee proves, and what none can: docs/TRANSCRIPTS.md."
    )


def verdict_json(v: Verification) -> dict:
    # calls, fallbacks, errors: as the closing table and ``play --json`` count them
    # (``transcripts.call_counts``); call_records: every call record checked.
    out: dict = {"path": v.path, "status": v.status.value, "events": v.events, "answers": v.answers, **v.usage.as_dict(), "call_records": v.calls, "beliefs": v.beliefs}
    if v.difference is not None:
        d = v.difference
        out["difference"] = {"line": d.line, "message": d.message, "expected": d.expected, "found": d.found}
    if v.reason:
        out["reason"] = v.reason
    if v.notes:
        out["notes"] = list(v.notes)
    out["signer"] = v.signer
    out["guarantees"] = v.guarantees
    if v.ok and v.game is not None:
        out["winner"] = v.game.winner
        out["days"] = v.game.day
    return out


def run_verify(args: argparse.Namespace) -> int:
    trusted = None
    if args.key:
        try:
            trusted = load_public_key(args.key)
        except SigningKeyError as e:
            raise CliError(str(e), EXIT_BAD_INPUT) from None
    v = verify_file(args.transcript, allow_unchained=args.allow_unchained, trusted_key=trusted)
    if args.json:
        print(json.dumps(verdict_json(v), ensure_ascii=False))
    elif v.ok:
        print(v.summary())
    else:
        print(v.summary(), file=sys.stderr)
    return v.exit_code


def checked(path: str, *, allow_mismatch: bool = False) -> Verification:
    """The transcript, verified; a file the rules disagree with stops the command (one
    written before chains is shown, its verdict saying so)."""
    v = verify_file(path, allow_unchained=True)
    if v.status is Status.UNREADABLE:
        raise CliError(v.summary(), EXIT_BAD_INPUT)
    if v.status is Status.MISMATCH:
        if not allow_mismatch:
            raise CliError(
                f"{v.summary()}\nthe transcript does not verify; refusing to present it as a game "
                "(--unverified shows it as written)",
                EXIT_GAME_FAILED,
            )
        print(f"warning: {v.summary()}", file=sys.stderr)
    return v


def lens_from(args: argparse.Namespace, names: list[str]) -> Lens:
    if getattr(args, "as_seat", None) is not None:
        if args.god:
            raise CliError("--as and --god are different views; choose one")
        if args.as_seat not in names:
            raise CliError(f"no seat named '{args.as_seat}' (seats: {', '.join(names)})")
        return Lens.of(args.as_seat)
    return Lens.full() if args.god else Lens.public()


# ---------------------------------------------------------------------- replay
def _configure_replay(p: argparse.ArgumentParser) -> None:
    p.add_argument("transcript", metavar="TRANSCRIPT", help="a transcript written by werewolf play --transcript")
    p.add_argument("--as", dest="as_seat", metavar="NAME", help="only what NAME could know at each moment, with NAME's own decisions and reasoning")
    p.add_argument("--god", action="store_true", help="every secret, and every model's private reasoning")
    p.add_argument("--step", action="store_true", help="pause after each event (Enter: next, q: quit); no pause when stdin is not a terminal")
    p.add_argument("--day", type=int, metavar="N", help="start at day N (night N opens day N); what came before is summed up")
    p.add_argument("--unverified", action="store_true", help="narrate a transcript even when it does not verify (with a warning)")
    p.add_argument("--language", choices=LANGUAGES, help="the narrator's language (default: the game's)")


def run_replay(args: argparse.Namespace) -> int:
    v = checked(args.transcript, allow_mismatch=args.unverified)
    transcript = v.transcript
    assert transcript is not None
    lens = lens_from(args, transcript.header.names)
    if args.day is not None:
        last = last_day(transcript)
        if args.day < 1 or args.day > last:
            raise CliError(f"--day {args.day}: the game has days 1 to {last}" if last else "--day: the game never reached day 1")
    console = console_for(False)
    pause = terminal_pause(sys.stdin, sys.stderr) if args.step else None
    replay(transcript, console, ReplayOptions(lens=lens, day=args.day, pause=pause, language=args.language))
    return 0


# ---------------------------------------------------------------------- export
def _configure_export(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "transcript",
        metavar="SOURCE",
        help="with --html: one transcript; with --format: a tournament database, a folder of transcripts, or one transcript",
    )
    p.add_argument("--html", metavar="OUT.html", help="write one self-contained page (no network needed)")
    p.add_argument("--unverified", action="store_true", help="export a transcript even when it does not verify (with a warning)")
    p.add_argument("--language", choices=LANGUAGES, help="the page's language (default: the game's)")
    p.add_argument("--format", choices=("csv", "parquet"), help="write tidy tables, one file each (docs/EXPORT.md)")
    p.add_argument("--out", metavar="DIR", help="the folder for --format's tables")
    p.epilog = "Tables: games, seats, decisions, votes, claims, beliefs, calls, deaths (columns in docs/EXPORT.md)."


def run_export(args: argparse.Namespace) -> int:
    if args.format or args.out:
        if args.html:
            raise CliError("export: --html writes one page, --format writes tables; give one of them")
        return _export_tables(args)
    if not args.html:
        raise CliError("export: say what to write: --html OUT.html (one transcript) or --format csv|parquet --out DIR")
    v = checked(args.transcript, allow_mismatch=args.unverified)
    assert v.transcript is not None
    page = render_html(v.transcript, title=Path(args.transcript).name, verdict=v.summary().splitlines()[0], language=args.language)
    try:
        Path(args.html).write_text(page, encoding="utf-8")
    except OSError as e:
        raise CliError(f"cannot write {args.html}: {e.strerror or e}") from None
    print(f"wrote {args.html} ({len(page.encode('utf-8')) // 1024 + 1} KiB)")
    return 0


def _export_tables(args: argparse.Namespace) -> int:
    if not args.format or not args.out:
        raise CliError("export: tables need both --format csv|parquet and --out DIR")
    try:
        counts = export(args.transcript, args.format, args.out)
    except ExportError as e:
        raise CliError(str(e)) from None
    print(f"wrote {len(counts)} tables to {args.out}: " + ", ".join(f"{name} {n}" for name, n in counts.items()))
    return 0


COMMANDS = [
    Command("verify", "re-play a transcript through the engine and report the first difference", _configure_verify, run_verify),
    Command("replay", "narrate a recorded game (publicly, --as a seat, or --god)", _configure_replay, run_replay),
    Command("export", "write a recorded game as an HTML page, or games as tidy CSV/Parquet tables", _configure_export, run_export),
]
