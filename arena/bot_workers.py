"""The worker processes of a many-game bot run (``werewolf simulate --processes N``).

A module of its own so that multiprocessing and its executor load only when a run
has workers: ``arena.simulate`` imports it for those runs alone, and a one-process
run (most tests, ``--processes 1``, a few games) never pays for them.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from arena.gc_tuning import tune_bot_worker


def workers(processes: int) -> ProcessPoolExecutor:
    """The worker processes, forked where the platform allows it (they start with the
    engine already imported), each with the collector tuned for bot games for its
    lifetime (a spawned worker does not inherit the parent's settings)."""
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    return ProcessPoolExecutor(max_workers=processes, mp_context=multiprocessing.get_context(method), initializer=tune_bot_worker)
