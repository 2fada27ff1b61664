"""``werewolf simulate``: many bot games, to see how balanced a table is.

Game ``i`` is played with seed ``S + i``, so any single game of a batch can be re-run
alone with ``werewolf play --seed``. Win rates come with Wilson intervals because a
few hundred games leave wide uncertainty and a bare percentage hides it.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections import Counter
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable

from arena.command import EXIT_GAME_FAILED, CliError, Command, parse_option_pairs, parse_roles
from agents.registry import AgentMaker
from arena.gamefile import GameFileError, GameSpec, default_game
from arena.gc_tuning import many_games
from arena.progress import Bar, wanted
from arena.runner import run_sync
from arena.simulate_result import SimulationReport
from engine.decisions import GameError, IllegalAnswer
from engine.setup import GameSetup

MAIN_CAMPS = ("village", "werewolves")


def simulate(
    *,
    preset: str = "millers_hollow",
    players: int = 8,
    games: int = 100,
    seed: int = 0,
    agents: str = "heuristic",
    roles: list[str] | None = None,
    options: dict[str, Any] | None = None,
    processes: int = 1,
    done: Callable[[int], None] | None = None,
) -> SimulationReport:
    """Play ``games`` bot games with the sync runner, on ``processes`` worker processes
    (1: in this process). Game ``i`` has seed ``seed + i`` wherever it is played, and
    the outcomes are gathered in game order, so the report is the same for any number
    of processes.

    The collector is tuned for bot games while they are played (``arena.gc_tuning``)
    and put back as it was before this returns. ``done(n)`` is told each time ``n``
    more games have been played (a progress bar).

    Raises ``GameFileError`` for a table that cannot be dealt, and ``GameError`` /
    ``IllegalAnswer`` (annotated with the seed) if a bot breaks a game.
    """
    table = _Table(preset, players, agents, roles, options)
    start = time.perf_counter()
    with many_games():
        # The first game here: a table the rules refuse fails at once, before any worker starts.
        outcomes = []
        if games > 0:
            outcomes.append(table.play(seed))
            if done is not None:
                done(1)
            outcomes += _play_all(table, seed + 1, games - 1, max(1, processes), done)
    seconds = time.perf_counter() - start
    wins: Counter[str] = Counter({camp: 0 for camp in MAIN_CAMPS})
    for winner, _ in outcomes:
        wins[winner] += 1
    return SimulationReport(
        games=games, seconds=seconds, wins=dict(wins), days=[d for _, d in outcomes], preset=preset, players=players,
        seed=seed, agents=agents,
    )  # fmt: skip


@dataclass(frozen=True)
class _Table:
    """What every game of a simulation shares: sent once to each worker process."""

    preset: str
    players: int
    agents: str
    roles: list[str] | None
    options: dict[str, Any] | None

    @cached_property
    def _dealer(self) -> tuple[GameSpec, GameSetup, list[AgentMaker]]:
        """The table checked once (names, options, deck size), its setup, which
        each game copies with its own seed (the same game ``build`` would deal), and
        its seats' agent makers, resolved once (``GameSpec.bot_makers``)."""
        spec = default_game(players=self.players, preset=self.preset, agent=self.agents, roles=self.roles, options=self.options)
        spec.check()
        return spec, spec.setup(), spec.bot_makers()

    def __getstate__(self) -> dict[str, Any]:
        """Sent to a worker without the dealer (its makers may be closures): the worker deals its own."""
        state = dict(self.__dict__)
        state.pop("_dealer", None)
        return state

    def play(self, game_seed: int) -> tuple[str, int]:
        """One game's (winner, days)."""
        spec, setup, makers = self._dealer
        game, seats = spec.build_checked(setup.reseeded(game_seed), makers=makers)
        try:
            run_sync(game, seats)
        except (GameError, IllegalAnswer) as e:
            raise type(e)(f"game with seed {game_seed}: {e}") from None
        if not game.over or game.winner is None:
            raise GameError(f"game with seed {game_seed} stopped before reaching an end")
        return game.winner, game.day

    def play_range(self, first: int, count: int) -> list[tuple[str, int]]:
        return [self.play(first + i) for i in range(count)]


CHUNK = 64  # games per task handed to a worker: large enough to amortise the hand-off, small enough to balance
LAST_CHUNK = 8  # the smallest chunk, toward the end (``chunks``)


def chunks(games: int, processes: int) -> list[tuple[int, int]]:
    """(first game, count) of each task, contiguous in game order. Chunks shrink from
    ``CHUNK`` to ``LAST_CHUNK`` as the games left fall below four chunks per worker, so
    the workers finish together instead of one playing a whole chunk while the others
    have stopped (at 0.5 ms a random game, a chunk of 64 is 6% of 1000 games on 2 cores)."""
    out = []
    first = 0
    while first < games:
        count = min(games - first, max(LAST_CHUNK, min(CHUNK, (games - first) // (4 * processes))))
        out.append((first, count))
        first += count
    return out


def _play_all(table: _Table, seed: int, games: int, processes: int, done: Callable[[int], None] | None = None) -> list[tuple[str, int]]:
    """Every game's (winner, days) in game order. Workers get contiguous chunks and
    the parent only concatenates: nothing is copied per seat or per event. ``done`` is
    told of each game here, of each chunk from the workers (as they come, in order)."""
    if processes == 1 or games <= CHUNK:
        if done is None:
            return [table.play(seed + i) for i in range(games)]
        out = []
        for i in range(games):
            out.append(table.play(seed + i))
            done(1)
        return out
    # here, not at the top: a one-process run never loads multiprocessing (issue 18)
    from arena.bot_workers import workers

    tasks = chunks(games, processes)
    outcomes: list[tuple[str, int]] = []
    with workers(processes) as pool:
        for chunk in pool.map(table.play_range, [seed + first for first, _ in tasks], [count for _, count in tasks]):
            outcomes += chunk
            if done is not None:
                done(len(chunk))
    return outcomes


def default_processes() -> int:
    """Every core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


# ---------------------------------------------------------------------- command
MAX_GAMES = 1_000_000  # hours of bot games already; a typo like 1e11 is refused, not started
def _configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--preset", default="millers_hollow", help="rule set (default millers_hollow)")
    p.add_argument("--players", type=int, default=8, help="table size (default 8)")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game; game i uses seed+i (default 0)")
    p.add_argument("--agents", default="heuristic", choices=("heuristic", "reasoner", "random"), help="bot for every seat (default heuristic)")
    p.add_argument("--roles", help="the deck as comma-separated role ids (default: the preset's recommended deck)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="override a rule option (repeatable)")
    p.add_argument("--processes", type=int, default=None, metavar="N", help="worker processes (default: every core); the results are the same for any N")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.games <= MAX_GAMES:
        raise CliError(f"--games must be between 0 and {MAX_GAMES:,}, got {args.games}")
    processes = default_processes() if args.processes is None else args.processes
    if processes < 1:
        raise CliError("--processes must be at least 1")
    try:
        with Bar("games", args.games, enabled=wanted(json=args.json)) as bar:
            report = simulate(
                preset=args.preset,
                players=args.players,
                games=args.games,
                seed=args.seed,
                agents=args.agents,
                roles=parse_roles(args.roles),
                options=parse_option_pairs(args.option),
                processes=processes,
                done=bar.advance if bar.enabled else None,
            )
    except GameFileError as e:
        raise CliError(str(e)) from None
    except (GameError, IllegalAnswer) as e:
        raise CliError(str(e), EXIT_GAME_FAILED) from None
    if args.json:
        print(json.dumps(report.to_json()))
    else:
        # here, not at the top: the printed report needs rich, which a --json run never loads
        from arena.simulate_report import print_report

        print_report(report)
    return 0


COMMANDS = [Command("simulate", "play many bot games and report win rates", _configure, run)]
