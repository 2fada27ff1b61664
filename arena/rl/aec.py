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
    ``text`` (``True`` puts the seat's prompt in every observation), ``render_mode`` (``human`` prints, ``ansi`` returns the public narration) and any
    rule option of ``engine.options.RuleOptions`` (``max_days=10``)."""

    metadata = {"name": "werewolf_arena_v1", "render_modes": RENDER_MODES, "is_parallelizable": True}

    def __init__(self, preset: str = "millers_hollow", players: int = 8, seed: int = 0, render_mode: str | None = None, **kw: Any):
        super().__init__()
        self._setup(preset, players, seed, render_mode, kw)

    # ------------------------------------------------------------------ the loop
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game (see ``TableEnv._new_game`` for the seeds). ``options`` is
        accepted for the API and unused: the rules are fixed when the env is made."""
        self._new_game(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = self.table.fresh_infos(self.agents)
        self._select()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        table = self.table
        table.apply(agent, table.current(agent), action)
        # Rewards are 0 until the end (``_finish``), so the steps before it have none
        # to clear or accumulate.
        if table.over:
            self._finish()
        else:
            table.refresh_infos(self.infos, self.agents, agent)
            self._select()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, Any]:
        return self.table.observe(agent)

    def _select(self) -> None:
        seat = self.table.next_seat()
        self.agent_selection = seat if seat is not None else self.agents[0]  # None only once the game is over

    def _finish(self) -> None:
        table = self.table
        trunc = table.truncated
        table.refresh_infos(self.infos, self.agents)
        for a in self.agents:
            self.rewards[a] = reward = table.reward(a)
            self._cumulative_rewards[a] = reward  # every seat's was 0 until now
            self.terminations[a] = not trunc
            self.truncations[a] = trunc
        self.agent_selection = self.agents[0]
