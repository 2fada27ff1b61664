"""The cyclic garbage collector's settings where many games are played or read in one process.

A bot game is thousands of fresh containers (events, views, decisions, a bot's
memory), all freed by their reference counts when the game ends: in 1000 heuristic
games the collector finds no cyclic garbage at all. Yet with the default settings
(``gc.get_threshold()`` = (700, 10, 10)) it ran a young pass a game and a full pass
every ~125 games over everything alive, the ~50K objects the imports leave (modules,
classes, functions) included: ~2.4% of a heuristic game's instructions (issue 18,
``benchmarks/simulate_throughput.py``). Two settings take that away:

- ``gc.freeze()`` moves every object alive now into a permanent generation that no
  pass visits ("If a process will fork() without exec(), ... call gc.freeze() right
  before fork()": https://docs.python.org/3/library/gc.html#gc.freeze), so the full
  passes walk only what the games keep alive, and forked workers do not write to the
  parent's pages when they collect;
- ``gc.set_threshold`` with a larger first threshold makes the young passes rarer
  (https://docs.python.org/3/library/gc.html#gc.set_threshold). The garbage cycles
  alive between two passes grow with it; they are few in a bot game, and
  ``BOT_GAMES_THRESHOLD`` keeps the peak memory of 1000 games within 0.2 MB of the
  default's (figures in ``benchmarks/simulate_throughput.py``).

A library function (``arena.simulate.simulate``, ``run_tournament`` when it plays only
bot games in its own process, ``werewolf metrics`` while it measures transcripts, whose
records are fresh dicts and lists freed the same way) uses ``many_games()``, which puts
the caller's settings back when it returns; a worker process that only plays bot games
calls ``tune_bot_worker()`` once, for its lifetime. Interactive and model games keep
the defaults: there the collector's cost is nothing beside a model call.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

# The young generation's threshold while bot games are played (the default is 700;
# the older generations keep theirs). See the module docstring for why, and
# ``benchmarks/simulate_throughput.py`` for what larger values cost and save.
BOT_GAMES_THRESHOLD = (7000, 10, 10)


def tune_bot_worker() -> None:
    """For a worker process that plays bot games for its lifetime (a process pool's
    initializer): the objects alive now are frozen and the young passes made rarer.
    A collector the process has switched off (``gc.disable``, a threshold of 0) is
    left off."""
    gc.freeze()
    if gc.isenabled() and gc.get_threshold()[0] > 0:
        gc.set_threshold(*BOT_GAMES_THRESHOLD)


@contextmanager
def many_games() -> Iterator[None]:
    """``tune_bot_worker``'s settings while the block runs (games played or their
    records read by the thousand), the caller's after it:
    the threshold is put back, and the objects frozen here are unfrozen unless the
    caller had frozen objects itself (``gc.unfreeze`` cannot tell them apart)."""
    threshold = gc.get_threshold()
    was_frozen = gc.get_freeze_count() > 0
    tune_bot_worker()
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        if not was_frozen:
            gc.unfreeze()
