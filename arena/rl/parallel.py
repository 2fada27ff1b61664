"""The PettingZoo parallel environment: one simultaneous batch per step.

The engine pends decisions in batches whose answers it treats as simultaneous (every
vote of a day, every wolf's choice of a night), so a parallel step answers the whole
open batch at once: each seat with a pending decision acts, the others send ``WAIT``
(their mask allows nothing else). Answers are submitted in decision order, as the
runner does, so the record never depends on the order of the actions dict. A
multi-target decision takes one step per pick, like the AEC form.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import ParallelEnv

import arena.rl.spaces as sp
from arena.rl.common import RENDER_MODES, TableEnv
from arena.rl.table import IllegalAction


class WerewolfParallelEnv(TableEnv, ParallelEnv):
    """``parallel_env(preset=..., players=..., seed=...)``, keywords as ``WerewolfEnv``."""

    metadata = {"name": "werewolf_arena_v1", "render_modes": RENDER_MODES}

    def __init__(self, preset: str = "millers_hollow", players: int = 8, seed: int = 0, render_mode: str | None = None, **kw: Any):
        self._setup(preset, players, seed, render_mode, kw)
        self.agents: list[str] = []

    def reset(self, seed: int | None = None, options: dict | None = None):
        """As ``WerewolfEnv.reset``; returns every seat's observation and info."""
        self._new_game(seed)
        self.agents = list(self.possible_agents)
        self._infos = self.table.fresh_infos(self.agents)
        return {a: self.table.observe(a) for a in self.agents}, dict(self._infos)

    def step(self, actions: dict[str, Any]):
        table = self.table
        asked = table.asked()
        for seat, action in actions.items():
            if seat not in asked and _choice(action) != sp.WAIT:
                raise IllegalAction(f"{seat} has nothing to decide now; its only action is WAIT ({sp.WAIT})")
        # In decision order: the engine's record must not depend on the dict's order.
        for d in sorted(asked.values(), key=lambda d: d.id):
            if d.seat in actions:
                table.apply(d.seat, d, actions[d.seat])
        live = self.agents
        over = table.over
        obs = {a: table.observe(a) for a in live}
        table.refresh_infos(self._infos, live)
        infos = {a: self._infos[a] for a in live}
        if over:
            trunc = table.truncated
            rewards = {a: table.reward(a) for a in live}
            terminations = dict.fromkeys(live, not trunc)
            truncations = dict.fromkeys(live, trunc)
            self.agents = []
        else:
            rewards = dict.fromkeys(live, 0.0)
            terminations = dict.fromkeys(live, False)
            truncations = dict.fromkeys(live, False)
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terminations, truncations, infos


def _choice(action: Any) -> Any:
    return action.get("choice") if isinstance(action, dict) else action
