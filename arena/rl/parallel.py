"""The PettingZoo parallel environment: one simultaneous batch per step.

The engine pends decisions in batches whose answers it treats as simultaneous (every
vote of a day, every wolf's choice of a night), so a parallel step answers the whole
open batch at once: each seat with a pending decision acts, the others send ``WAIT``
(their mask allows nothing else). Answers are submitted in decision order, as the
runner does, so the record never depends on the order of the actions dict. A
multi-target decision takes one step per pick, like the AEC form.
"""

from __future__ import annotations

import random
from typing import Any

from pettingzoo import ParallelEnv

from arena.rl import spaces as sp
from arena.rl.aec import _narrate_public
from arena.rl.table import IllegalAction, Table


class WerewolfParallelEnv(ParallelEnv):
    """``parallel_env(preset=..., players=..., seed=...)``, keywords as ``WerewolfEnv``."""

    metadata = {"name": "werewolf_arena_v0", "render_modes": ["human", "ansi"]}

    def __init__(self, preset: str = "millers_hollow", players: int = 8, seed: int = 0, render_mode: str | None = None, **kw: Any):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.table = Table(preset, players, seed, **kw)
        self.render_mode = render_mode
        self.possible_agents = list(self.table.names)
        self.agents: list[str] = []
        n = len(self.table.vocabulary)
        obs = sp.observation_space(len(self.possible_agents), len(self.table.role_ids), self.table.options.max_days, n)
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: sp.SeatActionSpace(n, self.table.language) for a in self.possible_agents}
        self._seeds = random.Random(seed)
        self._first = True
        self._told = 0

    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        return self.action_spaces[agent]

    @property
    def vocabulary(self) -> tuple[str, ...]:
        return self.table.vocabulary

    def reset(self, seed: int | None = None, options: dict | None = None):
        """As ``WerewolfEnv.reset``; returns every seat's observation and info."""
        if seed is not None:
            game_seed = seed
            self._seeds = random.Random(seed)
            for space in self.action_spaces.values():
                space.seed(seed)
        elif self._first:
            game_seed = self.table.seed
        else:
            game_seed = self._seeds.randrange(2**31)
        self._first = False
        self.table.new_game(game_seed)
        self._told = 0
        self.agents = list(self.possible_agents)
        return {a: self.table.observe(a) for a in self.agents}, {a: self.table.info(a) for a in self.agents}

    def step(self, actions: dict[str, Any]):
        asked = self.table.asked()
        for seat, action in actions.items():
            if seat not in asked and _choice(action) != sp.WAIT:
                raise IllegalAction(f"{seat} has nothing to decide now; its only action is WAIT ({sp.WAIT})")
        # In decision order: the engine's record must not depend on the dict's order.
        for d in sorted(asked.values(), key=lambda d: d.id):
            if d.seat in actions:
                self.table.apply(d.seat, d, actions[d.seat])
        live = list(self.agents)
        over = self.table.over
        obs = {a: self.table.observe(a) for a in live}
        infos = {a: self.table.info(a) for a in live}
        rewards = {a: self.table.reward(a) if over else 0.0 for a in live}
        trunc = over and self.table.truncated
        terminations = {a: over and not trunc for a in live}
        truncations = {a: trunc for a in live}
        if over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return obs, rewards, terminations, truncations, infos

    def action_for(self, agent: str, answer: Any) -> dict[str, Any]:
        """As ``WerewolfEnv.action_for``."""
        return self.table.action_for(self.table.current(agent), answer)

    def view(self, agent: str):
        return self.table.view(agent)

    @property
    def game(self):
        return self.table.game

    def render(self) -> str | None:
        text = _narrate_public(self.table, self._told)
        self._told = len(self.table.game.events)
        if self.render_mode == "human":
            if text:
                print(text)
            return None
        return text

    def close(self) -> None:
        self.table.game = None


def _choice(action: Any) -> Any:
    return action.get("choice") if isinstance(action, dict) else action
