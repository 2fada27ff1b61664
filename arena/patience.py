"""Saying what a slow game is waiting for, so that it never looks hung.

A model on a CPU (``werewolf model serve``) or a busy vendor can take half a minute
for one answer. While a model seat's decision has been pending for ``after`` seconds,
the watcher prints one line every ``every`` seconds: who is being waited for, on what,
for how long, and how the game's calls have gone so far. It reads the game's pending
decisions and the call log only; it decides nothing and changes nothing.

With a person at the table the console is that player's screen, so the line is
``discreet``: it names neither the seats nor what they decide. Who is asked at night,
and on what (a Seer's check, the pack's talk), is exactly what the cards hide.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Callable, Mapping

from rich.console import Console
from rich.markup import escape

from agents.registry import is_remote_spec


def waiting_line(waits: list[tuple[str, str, str, float]], calls: Any, *, discreet: bool = False) -> str:
    """``Waiting for Alice (openai:smollm2) on speak: 14 s. 12 model calls so far,
    9.5 s each on average.`` from (seat, agent spec, decision kind, seconds);
    ``discreet``: ``Waiting for the model seats: 14 s. ...``, for a person's screen."""
    longest = max(s for *_, s in waits)
    if discreet:
        line = f"Waiting for the model seats: {longest:.0f} s."
    else:
        parts = [f"{seat} ({spec}) on {kind.replace('_', ' ')}" for seat, spec, kind, _ in waits[:3]]
        more = f" and {len(waits) - 3} more" if len(waits) > 3 else ""
        line = f"Waiting for {', '.join(parts)}{more}: {longest:.0f} s."
    records = [r for r in getattr(calls, "records", []) if r.messages]
    if records:
        mean = sum(r.latency_s or 0.0 for r in records) / len(records)
        line += f" {len(records)} model calls so far, {mean:.1f} s each on average."
    return line


async def watch(
    game: Any,
    agents: Mapping[str, Any],
    console: Console,
    calls: Any = None,
    *,
    after: float = 10.0,
    every: float = 15.0,
    discreet: bool = False,
    clock: Callable[[], float] = time.monotonic,
    tick: float = 1.0,
) -> None:
    """Until cancelled: a line about the model seats the game has waited on for longer
    than ``after`` seconds, at most once every ``every`` seconds; ``discreet`` when a
    person reads the console (``waiting_line``)."""
    first_seen: dict[int, float] = {}
    last_said = -float("inf")
    while True:
        await asyncio.sleep(tick)
        now = clock()
        pending = [d for d in game.waiting if is_remote_spec(getattr(agents.get(d.seat), "spec", "") or "")]
        ids = {d.id for d in pending}
        for stale in set(first_seen) - ids:
            del first_seen[stale]
        waits = []
        for d in pending:
            since = first_seen.setdefault(d.id, now)
            if now - since >= after:
                waits.append((d.seat, agents[d.seat].spec, d.kind, now - since))
        if waits and now - last_said >= every:
            console.print(f"[dim]{escape(waiting_line(waits, calls, discreet=discreet))}[/dim]")
            last_said = now
