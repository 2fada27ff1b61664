"""Playing a seated game to its end at this terminal.

``werewolf play`` runs this loop for a new game, ``play --resume`` and ``fork`` for a
game caught up with its record (``arena.catchup``): every pending decision of a batch
asked at once, the transcript written as answers are accepted, the table narrated (or
the person at the terminal shown their own seat), and whatever stops the game early (a
refused answer, Ctrl-C, a bug) written to the transcript before the exit code says so.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Mapping, Sequence

from rich import box
from rich.console import Console
from rich.table import Table

from agents.base import Agent
from agents.human import HumanLeft
from agents.custom import is_custom_spec
from agents.llm import is_model_spec
import arena.patience as patience
from arena.command import EXIT_GAME_FAILED, EXIT_PERSON_LEFT, CliError, console_for
from arena.human_play import humans_at_terminal, show_humans
from arena.model_trouble import OPEN_KINDS, FailureWatch, Notice, notice_line
from prompts.narrate import Narrator
from arena.result import model_seats, own_seats
from transcripts.result import result_of
from arena.runner import run_async
from transcripts.call_counts import whose
from engine.decisions import GameError, IllegalAnswer
from arena import terminal_drafts

SAVE_DIR = Path("out") / "play"  # where a person's game goes when no --transcript is given


def save_path(folder: Path | None = None) -> Path:
    """A new file for a game played by a person without ``--transcript``:
    ``out/play/<date>-<time>.jsonl`` under the current directory (the system's
    temporary folder when that cannot be written)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for base in ([folder] if folder is not None else [SAVE_DIR, Path(tempfile.gettempdir()) / "werewolf-play"]):
        try:
            base.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        for n in range(1, 1000):
            candidate = base / (f"{stamp}.jsonl" if n == 1 else f"{stamp}-{n}.jsonl")
            if not candidate.exists():
                return candidate
    raise CliError("cannot find a folder to record the game in; give --transcript PATH")


def resume_hint(writer: Any, game: Any) -> str:
    """Where a game that stopped half-way was saved, and how to go on with it."""
    if writer is None or game.over:
        return ""
    return f"; everything played so far is saved in {writer.path}: werewolf play --resume {writer.path} goes on from there"


@dataclass
class Screen:
    """Where a game is shown: the console, the table's narrator (none when quiet, or
    when a person plays: they see their own seat's screen instead) and the people."""

    console: Console
    narrator: Any = None
    humans: list[Any] = field(default_factory=list)
    language: str = "en"


def table_language(agents: Mapping[str, Agent]) -> str:
    """The game's language as its seats were told it (model seats and the heuristic
    bot speak the game's language), for a caller that does not say it; English when
    no seat was told one."""
    for agent in agents.values():
        language = getattr(agent, "language", None)
        if isinstance(language, str) and language:
            return language
    return "en"


def screen_for(agents: Mapping[str, Agent], *, json_out: bool, quiet: bool, god: bool, language: str | None = None) -> Screen:
    """The screen for a table; ``CliError`` when this terminal cannot keep a person's
    secrets (``--god``, or more than one person). The narrator speaks ``language``, the
    game's (else the one its seats were given)."""
    try:
        humans = humans_at_terminal(agents, god=god)
    except ValueError as e:
        raise CliError(str(e)) from None
    console = console_for(to_stderr=json_out)
    narrator = None if quiet or humans else Narrator(console, god=god, language=language or table_language(agents))
    for h in humans:
        h.attach(console)
    return Screen(console, narrator, humans, language or table_language(agents))


def failure_watch(agents: Mapping[str, Agent], screen: Screen) -> FailureWatch | None:
    """Who is told, once per streak, that a model seat stopped answering, and once a
    game that an agent of one's own made a move the game could not take
    (``arena.model_trouble``): the person at the table, counting only the decisions
    asked in the open (so the news says nothing of who woke at night); else the
    narrator, counting every decision; else, in a quiet run, standard error. A seat
    the fallback bot plays is never silent. ``None`` for a table with neither."""
    if not any(is_model_spec(spec) or is_custom_spec(spec) for spec in (str(getattr(a, "spec", "") or "") for a in agents.values())):
        return None

    def disabled(seat: str) -> bool:
        return bool(getattr(agents.get(seat), "disabled", None))

    if screen.humans:
        watch = FailureWatch(kinds=OPEN_KINDS, disabled=disabled)
        for h in screen.humans:
            watch.subscribe(partial(_news, h.screen))
        return watch
    watch = FailureWatch(disabled=disabled)
    narrator: Narrator | None = screen.narrator

    def tell(notice: Notice) -> None:
        nonlocal narrator
        if narrator is None:  # a quiet run: made at the first notice, most runs never need it
            narrator = Narrator(console_for(to_stderr=True), language=screen.language)
        # the arena's news, told between the game's lines, never one of its events
        narrator.say(notice_line(notice, narrator.term))

    watch.subscribe(tell)
    return watch


def _news(screen: Any, notice: Notice) -> None:
    """``notice`` on a person's screen (``agents.human_view.SeatScreen``), in its words."""
    screen.news(notice_line(notice, screen.term))


def failure_message(game: Any, exc: Exception) -> str:
    """Name the seat and the decision behind a stopped game."""
    if isinstance(exc, IllegalAnswer) and game.waiting:
        d = game.waiting[0]  # the runners submit in order, so the refused one is first
        when = f"night {game.day}" if game.phase == "night" else f"day {game.day}"
        return f"{d.seat}'s {d.kind} on {when} was refused: {exc}"
    return str(exc)


async def run_game(
    game: Any,
    agents: Mapping[str, Agent],
    on_answer: Any,
    beliefs: Any = None,
    console: Console | None = None,
    calls: Any = None,
    *,
    discreet: bool = False,
) -> None:
    """The game, then the model seats' connections closed in the loop that opened them.
    With a ``console``, a model seat that keeps the table waiting is said to
    (``arena.patience``), so a slow model never looks like a hung game; ``discreet``
    (a person reads the console) names no seat and no decision."""
    watcher = asyncio.create_task(patience.watch(game, agents, console, calls, discreet=discreet)) if console is not None else None
    try:
        await run_async(game, agents, on_answer=on_answer, limit=max(16, len(agents)), beliefs=beliefs)
    finally:
        if watcher is not None:
            watcher.cancel()
        for agent in agents.values():
            aclose = getattr(agent, "aclose", None)
            if aclose is not None:
                await aclose()


def play_to_end(
    game: Any,
    agents: Mapping[str, Agent],
    screen: Screen,
    *,
    writer: Any,
    calls: Any,
    json_out: bool,
    quiet: bool,
    order: Sequence[str] = (),
    beliefs: Any = None,
) -> int:
    """Play ``game`` to its end and print its result; returns the exit code, raises
    ``CliError`` for a game that stopped (the transcript says why). ``writer`` (a
    ``TranscriptWriter`` or ``None``) is closed at the end whatever happens; the model
    seats' usage (``calls``) is printed with the seats in ``order`` (else as they
    first called)."""
    narrator = screen.narrator
    if not quiet and not json_out and (screen.humans or screen.console.is_terminal):
        # A person at the table, or a terminal watching: speeches as they are written.
        terminal_drafts.attach(agents, screen.console)
    watch = failure_watch(agents, screen)
    if watch is not None and calls is not None:
        calls.subscribe(watch)

    def follow(g: Any) -> None:
        show_humans(screen.humans, g)
        if writer is not None:
            writer.sync_events(g)
        if narrator is not None:
            narrator.follow(g.events)

    def on_answer(g: Any, decision: Any, answer: Any, agent: Agent) -> None:
        if writer is not None:
            writer.on_answer(g, decision, answer, agent)
        follow(g)

    try:
        follow(game)
        try:
            # Every pending decision of a batch is asked at once: a table of model
            # seats votes in one round trip (agents.llm.limits caps the calls in flight).
            console = None if quiet else screen.console
            asyncio.run(run_game(game, agents, on_answer, beliefs, console=console, calls=calls, discreet=bool(screen.humans)))
        except HumanLeft as e:  # Ctrl-D: not a failure; the game is kept to be resumed
            follow(game)
            if writer is not None:
                writer.error(game, str(e))
            raise CliError(f"{e}{resume_hint(writer, game)}", EXIT_PERSON_LEFT, plain=True) from None
        except (GameError, IllegalAnswer) as e:
            message = failure_message(game, e)
            follow(game)
            if writer is not None:
                writer.error(game, message)
            raise CliError(message, EXIT_GAME_FAILED) from None
        except KeyboardInterrupt:
            if writer is not None:
                writer.error(game, "interrupted")
            raise CliError(f"interrupted{resume_hint(writer, game)}", 130) from None
        except Exception as e:  # a bug, not a user error: keep the record, then show the traceback
            if writer is not None:
                writer.error(game, f"internal error: {e!r}")
            raise
        follow(game)
        if not game.over:
            message = "the game stopped before reaching an end (no decision was pending)"
            if writer is not None:
                writer.error(game, message)
            raise CliError(message, EXIT_GAME_FAILED)
        if writer is not None:
            writer.result(game)
    finally:
        if writer is not None:
            writer.close()
        for agent in agents.values():
            agent.close()
        if calls is not None and calls.records and not quiet:
            print_usage(screen.console, calls.summary(), order=order)

    result = result_of(game)
    if json_out:
        records = calls.records if calls is not None else []
        print(result.to_json(model_seats(agents, records), own_seats(agents, records)), flush=True)
    elif quiet:
        winners = ", ".join(result.winners) or "nobody"
        print(f"winner: {result.winner} ({winners}) after {result.days} day(s)")
    return 0


def print_usage(console: Console, rows, order: Sequence[str] = ()) -> None:
    """The closing table of model seats (and of agents of one's own the fallback bot
    played for): what each cost and how well it kept the rules (illegal: replies or
    moves refused; calls, fallbacks, errors: as ``play --json`` and ``werewolf verify``
    count them, ``transcripts.call_counts``). Seats come in table order; a model
    without a price shows "?" and the total says what it leaves out rather than
    guessing."""
    rank = {name: i for i, name in enumerate(order)}
    rows = sorted(rows, key=lambda r: rank.get(r.seat, len(rank)))
    models = any(not getattr(r, "own", False) for r in rows)
    title = whose(models=models, own=any(getattr(r, "own", False) for r in rows))
    table = Table(title=title[0].upper() + title[1:], title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("seat / model", overflow="fold", min_width=10)
    reasoning = any(getattr(r, "reasoning_tokens", 0) for r in rows)
    for col in ("calls", "in", "cached", "out", *(("reasoning",) if reasoning else ()), "USD", "illegal", "fallbacks", "errors"):
        table.add_column(col, justify="right", no_wrap=True)
    known, unpriced = 0.0, []
    for r in rows:
        if r.cost_usd is None:
            unpriced.append(r.model)
        else:
            known += r.cost_usd
        table.add_row(
            f"{r.seat}\n[dim]{r.model}[/dim]", str(r.calls), f"{r.input_tokens:,}", f"{r.cached_tokens:,}", f"{r.output_tokens:,}",
            *((f"{r.reasoning_tokens:,}",) if reasoning else ()),
            "?" if r.cost_usd is None else f"{r.cost_usd:.4f}", str(r.violations), str(r.fallbacks), str(r.errors),
        )  # fmt: skip
    console.print(table)
    if models:
        note = f" (not counting {', '.join(sorted(set(unpriced)))}: no price known; see --prices)" if unpriced else ""
        console.print(f"Estimated cost: ${known:.4f}{note}")
        console.print(
            "in: prompt tokens (cached: read from the provider's cache); out: completion tokens"
            + ("; reasoning: the hidden reasoning within out, billed as output" if reasoning else ""),
            style="dim",
        )
    console.print(
        "calls: requests sent to the model; illegal: replies (or moves of an agent of your own) refused; "
        "fallbacks: decisions the fallback bot played; errors: calls that failed after their retries, "
        "decisions that ended with no reply, and an agent's decide that raised",
        style="dim",
    )
