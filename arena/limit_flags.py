"""``--concurrency`` and ``--model-concurrency``: the caps on model calls in flight, for
the commands that seat models (``play``, ``play --resume``, ``fork``, ``persuasion``).

Apart from ``arena.command`` because setting them loads ``agents.llm.limits`` (and
asyncio with it), which ``werewolf --help`` and the commands without model seats never
need; the commands that read these flags seat models and load it anyway.
"""

from __future__ import annotations

import argparse

from agents.llm.limits import configure as configure_limits
from arena.command import CliError


def add_limit_flags(p: argparse.ArgumentParser) -> None:
    """The two caps on model calls in flight (``play``, ``play --resume``, ``fork``)."""
    p.add_argument("--concurrency", type=int, metavar="N", help="at most N model calls in flight at once, all models together (default 32)")
    p.add_argument("--model-concurrency", type=int, metavar="N", help="at most N calls in flight to any one model (default 8)")


def apply_limits(args: argparse.Namespace) -> None:
    """``--concurrency`` (model calls in flight, all models together) and
    ``--model-concurrency`` (in flight to any one model), for every model seat."""
    caps: dict[str, int] = {}
    for flag, value, cap in (
        ("--concurrency", getattr(args, "concurrency", None), "global_limit"),
        ("--model-concurrency", getattr(args, "model_concurrency", None), "default_per_model"),
    ):
        if value is not None:
            if not 1 <= value <= 1024:
                raise CliError(f"{flag} needs a positive number, at most 1024; got {value}")
            caps[cap] = value
    if caps:
        configure_limits(global_limit=caps.get("global_limit"), default_per_model=caps.get("default_per_model"))
