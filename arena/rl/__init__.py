"""Werewolf as PettingZoo environments, over the same engine the arena plays.

    from arena.rl import env, parallel_env
    e = env(preset="millers_hollow", players=8, seed=0)

``env`` is the AEC form (one decision per step), ``parallel_env`` the parallel form
(one simultaneous batch per step). docs/RL.md describes the spaces. Needs the ``rl``
extra: ``pip install -e ".[rl]"``.
"""

from __future__ import annotations

from typing import Any

try:
    import gymnasium  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        f"arena.rl needs pettingzoo and gymnasium ({e.name} is missing): pip install -e \".[rl]\""
    ) from e

from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from arena.rl.aec import WerewolfEnv
from arena.rl.parallel import WerewolfParallelEnv
from arena.rl.table import IllegalAction


class OrderEnforcing(OrderEnforcingWrapper):
    """PettingZoo's order check (the same errors before ``reset``, the same warning
    after the end), with what every step reads handed to the environment directly.

    The base wrapper forwards attributes through ``__getattr__``, which Python calls
    only after the ordinary lookup has failed and formatted its ``AttributeError``:
    ``last`` read five attributes that way and the agent loop and ``step`` three more,
    a third of a whole step. ``last`` is forwarded in one call, and the two attributes
    the loop reads are properties, which the ordinary lookup finds."""

    def last(self, observe: bool = True):
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")  # as the base wrapper says it
        return self.env.last(observe)

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.agent_selection


def raw_env(preset: str = "millers_hollow", players: int = 8, seed: int = 0, **kw: Any) -> WerewolfEnv:
    """The AEC environment without wrappers."""
    return WerewolfEnv(preset=preset, players=players, seed=seed, **kw)


def env(preset: str = "millers_hollow", players: int = 8, seed: int = 0, **kw: Any):
    """The AEC environment, wrapped in PettingZoo's order check (``step`` before ``reset``
    and the like raise a clear error)."""
    return OrderEnforcing(raw_env(preset=preset, players=players, seed=seed, **kw))


def parallel_env(preset: str = "millers_hollow", players: int = 8, seed: int = 0, **kw: Any) -> WerewolfParallelEnv:
    """The parallel environment: one step answers a whole simultaneous batch."""
    return WerewolfParallelEnv(preset=preset, players=players, seed=seed, **kw)


__all__ = ["env", "parallel_env", "raw_env", "WerewolfEnv", "WerewolfParallelEnv", "IllegalAction"]
