"""How many model calls may be in flight at once: globally, and per model.

The orchestrator asks a whole batch at once (twelve votes are one round trip), which
is exactly what trips a vendor's rate limit or swamps a local server that serves one
request at a time. Every model seat of the process shares these limits, so the cap
holds however many seats, games or back ends run together.

A call takes its model's slot before the global one: a call waiting on a saturated
model must not sit on a global slot another model could use. Slots are held for one
HTTP attempt only, never across a backoff sleep.

asyncio primitives belong to one event loop; the semaphores are therefore kept per
running loop, so tests (one loop each) and ``asyncio.run`` called twice both work.
"""

from __future__ import annotations

import asyncio
import weakref
from contextlib import asynccontextmanager
from typing import AsyncIterator, Mapping

DEFAULT_GLOBAL = 32
DEFAULT_PER_MODEL = 8


class Limits:
    """Concurrency caps; ``per_model`` maps a model key (``openai:gpt-5.4-mini``, or a
    bare model id) to its own cap, other models get ``default_per_model``."""

    def __init__(
        self,
        global_limit: int = DEFAULT_GLOBAL,
        per_model: Mapping[str, int] | None = None,
        default_per_model: int = DEFAULT_PER_MODEL,
    ):
        self.configure(global_limit, per_model, default_per_model)

    def configure(
        self,
        global_limit: int | None = None,
        per_model: Mapping[str, int] | None = None,
        default_per_model: int | None = None,
    ) -> None:
        """Change the caps; takes effect for calls that start afterwards."""
        if global_limit is not None:
            self.global_limit = max(1, int(global_limit))
        if per_model is not None:
            self.per_model = {k: max(1, int(v)) for k, v in per_model.items()}
        elif not hasattr(self, "per_model"):
            self.per_model = {}
        if default_per_model is not None:
            self.default_per_model = max(1, int(default_per_model))
        self._loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, asyncio.Semaphore]] = (
            weakref.WeakKeyDictionary()
        )
        self.in_flight: dict[str, int] = {}
        self.peak: dict[str, int] = {}

    def cap(self, model: str) -> int:
        if model in self.per_model:
            return self.per_model[model]
        bare = model.split(":", 1)[-1]
        return self.per_model.get(bare, self.default_per_model)

    def _sem(self, key: str, size: int) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        sems = self._loops.get(loop)
        if sems is None:
            sems = self._loops[loop] = {}
        sem = sems.get(key)
        if sem is None:
            sem = sems[key] = asyncio.Semaphore(size)
        return sem

    @asynccontextmanager
    async def slot(self, model: str) -> AsyncIterator[None]:
        """Hold one slot of ``model`` and one global slot for the duration."""
        async with self._sem("model:" + model, self.cap(model)):
            async with self._sem("*", self.global_limit):
                self._count(model, +1)
                try:
                    yield
                finally:
                    self._count(model, -1)

    def _count(self, model: str, delta: int) -> None:
        for key in (model, "*"):
            n = self.in_flight.get(key, 0) + delta
            self.in_flight[key] = n
            if n > self.peak.get(key, 0):
                self.peak[key] = n


# The process's limits, shared by every model seat unless one is given its own.
LIMITS = Limits()


def configure(global_limit: int | None = None, per_model: Mapping[str, int] | None = None, default_per_model: int | None = None) -> Limits:
    """Set the process-wide caps (the CLI's ``--concurrency``); returns them."""
    LIMITS.configure(global_limit, per_model, default_per_model)
    return LIMITS
