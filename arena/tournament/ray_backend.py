"""Tournaments on Ray (``concurrency: {backend: ray, address: ...}``): each bot game a task.

Why this split of work: a worker only *plays*. It plays the scheduled game into a
private temporary folder, measures it there, and returns the stored form of the game
(``FinishedGame``) with its transcript's bytes. The driver alone writes: the transcript
under its final name (``.part`` then rename, as a local run does), then the game's
rows in SQLite and so the ratings. So a cluster needs no shared disk, SQLite never
sees two writers, and a task Ray retries after a lost worker (``max_retries``) has
written nothing: the game is keyed by its schedule slot (the plan id), plays the same
game again from the same seed, and is stored once, when its one result arrives. A
driver killed mid-run leaves exactly the games it stored; running the command again
plays the others (the tasks of a killed driver die with its job).

Games with model seats go to one Ray actor (``ModelGames``) that holds the model
clients and ``arena.limits`` configured as a local run's (``calls``, ``per_model``),
so every model game of the run shares the same caps; it streams each call record back
as the call ends, so the driver's budget and progress count calls in flight exactly
as locally, then the finished game with its transcript, written by the driver. The
actor's process needs the model keys in its environment (a node's, or Ray's
``runtime_env``): the driver never ships them.

``address`` is Ray's: ``auto`` (a cluster started with ``ray start`` on this machine),
``ray://HOST:10001`` (Ray Client), or empty to start a private local instance (then
stopped at the end). Every node needs this package installed, at the same version.
"""

from __future__ import annotations

import asyncio
import concurrent.futures as cf
import dataclasses
import logging
import os
import tempfile
import threading
from typing import Any, Callable

from agents.llm.accounting import CallRecord
from arena.limits import configure
from arena.persuasion.paths import sidecar_for
from arena.tournament.config import ConfigError
from arena.tournament.play import GameFailed, GameJob, play_async, play_sync
from arena.tournament.store import FinishedGame

# Ray retries a task whose worker or node died this many times; a game that fails by
# itself (``GameFailed``) is deterministic and is not retried.
TASK_RETRIES = 3
log = logging.getLogger("werewolf.tournament")


def _ray() -> Any:
    # Imported here, not at the top: Ray is an optional extra (``.[ray]``) and a heavy
    # import, needed only by a tournament whose backend is ray.
    try:
        import ray
    except ImportError:
        raise ConfigError('concurrency.backend: ray needs Ray: pip install -e ".[ray]"') from None
    return ray


def connect(address: str | None) -> bool:
    """Join (or start) the Ray cluster; ``True`` when this call started a local
    instance that the run must stop at its end."""
    ray = _ray()
    if ray.is_initialized():
        return False
    try:
        ray.init(address=address or None, include_dashboard=False, log_to_driver=False, configure_logging=False)
    except Exception as e:  # a wrong address, a cluster of another Ray version...
        raise ConfigError(f"cannot reach the Ray cluster at {address or 'a new local instance'}: {e}") from None
    log.info("Ray: %s, %d CPUs", f"joined {address}" if address else "started a local instance", cluster_cpus())
    return not address


def disconnect() -> None:
    """Stop the local Ray instance that ``connect`` started."""
    _ray().shutdown()


def cluster_cpus() -> int:
    ray = _ray()
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def play_remote(job: GameJob) -> tuple[FinishedGame, bytes, bytes | None]:
    """On a worker: the game played into a private folder, and what the driver stores."""
    with tempfile.TemporaryDirectory(prefix="werewolf-") as tmp:
        local = dataclasses.replace(job, folder=tmp)
        finished = play_sync(local)
        return finished, local.final_path.read_bytes(), _records(local)


def _records(job: GameJob) -> bytes | None:
    """The game's persuasion record (``persuasion:``), if it has one."""
    path = sidecar_for(job.final_path)
    return path.read_bytes() if path.exists() else None


def store_transcript(job: GameJob, data: bytes, records: bytes | None = None) -> None:
    """The driver's write, as a local run makes it: whole under the final name or not at
    all; the persuasion record (``records``) beside it first."""
    job.part_path.parent.mkdir(parents=True, exist_ok=True)
    if records is not None:
        sidecar_for(job.final_path).write_bytes(records)
    with open(job.part_path, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(job.part_path, job.final_path)


class RayExecutor(cf.Executor):
    """``loop.run_in_executor(executor, play_sync, job)`` with the game played on the
    cluster: the returned future holds the ``FinishedGame`` once its transcript is
    written on the driver."""

    def __init__(self) -> None:
        ray = _ray()
        self._ray = ray
        self._task = ray.remote(max_retries=TASK_RETRIES, retry_exceptions=False)(play_remote)
        self._refs: set[Any] = set()
        self._lock = threading.Lock()

    def submit(self, fn: Callable, /, *args: Any, **kwargs: Any) -> cf.Future:
        if fn is not play_sync or len(args) != 1 or kwargs:
            raise TypeError("RayExecutor plays tournament games: submit(play_sync, job)")
        job: GameJob = args[0]
        ref = self._task.remote(job)
        with self._lock:
            self._refs.add(ref)
        out: cf.Future = cf.Future()

        def done(f: cf.Future) -> None:
            with self._lock:
                self._refs.discard(ref)
            try:
                finished, data, records = f.result()
            except BaseException as e:  # noqa: BLE001 - every failure becomes the game's
                out.set_exception(_reason(job, e))
                return
            try:
                store_transcript(job, data, records)
            except OSError as e:
                out.set_exception(GameFailed(f"{job.plan.id}: cannot write its transcript: {e.strerror or e}"))
                return
            out.set_result(finished)

        ref.future().add_done_callback(done)
        return out

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if cancel_futures:
            with self._lock:
                refs = list(self._refs)
            for ref in refs:
                try:
                    self._ray.cancel(ref, force=True)
                except Exception:  # already finished, or the cluster is gone
                    pass


def _reason(job: GameJob, e: BaseException) -> BaseException:
    """A task's failure as the local runner reports it: the game's own ``GameFailed``
    unwrapped from Ray's envelope, anything else (a lost node after its retries) named."""
    cause = getattr(e, "cause", None) or e
    if isinstance(cause, GameFailed):
        return GameFailed(str(cause))
    return GameFailed(f"{job.plan.id}: the Ray task failed: {type(cause).__name__}: {cause}")



class ModelGames:
    """The Ray actor playing model games: an async actor, one event loop for all of
    them, under the run's call limits."""

    def __init__(self, limits: dict[str, Any]):
        configure(**limits)

    async def play(self, job: GameJob):
        """Yields ``("call", record)`` as each call ends, then ``("done", (game, bytes))``."""
        queue: asyncio.Queue = asyncio.Queue()

        async def run() -> None:
            try:
                with tempfile.TemporaryDirectory(prefix="werewolf-") as tmp:
                    local = dataclasses.replace(job, folder=tmp)
                    finished = await play_async(local, on_call=lambda r: queue.put_nowait(("call", r.model_dump())))
                    queue.put_nowait(("done", (finished, local.final_path.read_bytes(), _records(local))))
            except BaseException as e:  # noqa: BLE001 - handed to the driver below
                queue.put_nowait(("error", e))

        task = asyncio.ensure_future(run())
        try:
            while True:
                kind, value = await queue.get()
                if kind == "error":
                    raise value
                yield kind, value
                if kind == "done":
                    return
        finally:
            if not task.done():
                task.cancel()


class ModelPlayer:
    """``play_async`` for the driver, with the game played on the ``ModelGames`` actor."""

    def __init__(self, limits: dict[str, Any], games: int):
        ray = _ray()
        self._ray = ray
        self.actor = ray.remote(ModelGames).options(max_concurrency=max(1, games), max_restarts=1).remote(limits)

    async def __call__(self, job: GameJob, on_call: Callable[[Any], None] | None = None) -> FinishedGame:
        stream = self.actor.play.options(num_returns="streaming").remote(job)
        try:
            async for ref in stream:
                kind, value = await ref
                if kind == "call":
                    if on_call is not None:
                        on_call(CallRecord.model_validate(value))
                    continue
                finished, data, records = value
                try:
                    store_transcript(job, data, records)
                except OSError as e:
                    raise GameFailed(f"{job.plan.id}: cannot write its transcript: {e.strerror or e}") from None
                return finished
        except GameFailed:
            raise
        except Exception as e:  # Ray's envelope around the actor's failure
            raise _reason(job, e) from None
        raise GameFailed(f"{job.plan.id}: the model actor ended without a result")

    def close(self) -> None:
        try:
            self._ray.kill(self.actor)
        except Exception:  # the cluster is already gone
            pass
