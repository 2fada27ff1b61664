"""The PettingZoo AEC environment: one decision per step, in the engine's order.

Every seat is an agent from the deal to the end: a dead player's camp can still win,
so the dead keep their agent (they are simply never selected, unless the rules ask
them something, a Hunter's shot or a last word) and all receive their camp's reward
when the game ends. Inside a simultaneous batch (a vote) the seats are selected in
decision order and none sees another's answer before the batch resolves: the engine
holds the answers until the last one is in.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from arena.rl.common import RENDER_MODES, TableEnv


class WerewolfEnv(TableEnv, AECEnv):
    """``env(preset=..., players=..., seed=...)``; other keywords: ``names``, ``roles``
    (the whole deck), ``language`` (``en``/``zh``, the prompts' and random speeches'),
    ``render_mode`` (``human`` prints, ``ansi`` returns the public narration) and any
    rule option of ``engine.options.RuleOptions`` (``max_days=10``)."""

    metadata = {"name": "werewolf_arena_v0", "render_modes": RENDER_MODES, "is_parallelizable": True}

    def __init__(self, preset: str = "millers_hollow", players: int = 8, seed: int = 0, render_mode: str | None = None, **kw: Any):
        super().__init__()
        self._setup(preset, players, seed, render_mode, kw)

    # ------------------------------------------------------------------ the loop
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game (see ``TableEnv._new_game`` for the seeds). ``options`` is
        accepted for the API and unused: the rules are fixed when the env is made."""
        self._new_game(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: self.table.info(a) for a in self.agents}
        self._select()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        d = self.table.current(agent)
        self.table.apply(agent, d, action)
        if self.table.over:
            self._finish()
        else:
            for a in self.agents:
                self.infos[a] = self.table.info(a)
            self._select()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, Any]:
        return self.table.observe(agent)

    def _select(self) -> None:
        seat = self.table.next_seat()
        self.agent_selection = seat if seat is not None else self.agents[0]  # None only once the game is over

    def _finish(self) -> None:
        trunc = self.table.truncated
        for a in self.agents:
            self.rewards[a] = self.table.reward(a)
            self.terminations[a] = not trunc
            self.truncations[a] = trunc
            self.infos[a] = self.table.info(a)
        self.agent_selection = self.agents[0]
