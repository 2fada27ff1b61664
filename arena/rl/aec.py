"""The PettingZoo AEC environment: one decision per step, in the engine's order.

Every seat is an agent from the deal to the end: a dead player's camp can still win,
so the dead keep their agent (they are simply never selected, unless the rules ask
them something, a Hunter's shot or a last word) and all receive their camp's reward
when the game ends. Inside a simultaneous batch (a vote) the seats are selected in
decision order and none sees another's answer before the batch resolves: the engine
holds the answers until the last one is in.
"""

from __future__ import annotations

import random
from typing import Any

from pettingzoo import AECEnv

from arena.rl import spaces as sp
from arena.rl.table import Table


class WerewolfEnv(AECEnv):
    """``env(preset=..., players=..., seed=...)``; other keywords: ``names``, ``roles``
    (the whole deck), ``language`` (``en``/``zh``, the prompts' and random speeches'),
    ``render_mode`` (``human`` prints, ``ansi`` returns the public narration) and any
    rule option of ``engine.options.RuleOptions`` (``max_days=10``)."""

    metadata = {"name": "werewolf_arena_v0", "render_modes": ["human", "ansi"], "is_parallelizable": True}

    def __init__(self, preset: str = "millers_hollow", players: int = 8, seed: int = 0, render_mode: str | None = None, **kw: Any):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.table = Table(preset, players, seed, **kw)
        self.render_mode = render_mode
        self.possible_agents = list(self.table.names)
        n = len(self.table.vocabulary)
        self._obs_space = sp.observation_space(len(self.possible_agents), len(self.table.role_ids), self.table.options.max_days, n)
        self.observation_spaces = {a: self._obs_space for a in self.possible_agents}
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
        """What each ``choice`` index means: the specials, the seats, then the words."""
        return self.table.vocabulary

    # ------------------------------------------------------------------ the loop
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game. ``seed`` deals it; without one, the first reset plays the
        constructor's seed and later ones draw seeds from it, so a run of episodes is
        reproducible. ``options`` is accepted for the API and unused: the rules are
        fixed when the environment is made."""
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
        self.agent_selection = self.table.next_seat()

    def _finish(self) -> None:
        trunc = self.table.truncated
        for a in self.agents:
            self.rewards[a] = self.table.reward(a)
            self.terminations[a] = not trunc
            self.truncations[a] = trunc
            self.infos[a] = self.table.info(a)
        self.agent_selection = self.agents[0]

    # ------------------------------------------------------------------ helpers
    def action_for(self, agent: str, answer: Any) -> dict[str, Any]:
        """The action giving ``answer`` (as an ``agents`` bot returns it) to ``agent``'s
        pending decision: lets a heuristic bot or a model seat play in the env."""
        return self.table.action_for(self.table.current(agent), answer)

    def view(self, agent: str):
        """``agent``'s ``SeatView`` (its events, structured), as the runner gives it."""
        return self.table.view(agent)

    @property
    def game(self):
        """The engine's game (the whole truth: for logging and analysis, not policies)."""
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


def _narrate_public(table: Table, since: int) -> str:
    """The public events since ``since``, in the spectators' words."""
    from prompts.catalog import catalog
    from prompts.history import render_event

    cat = catalog(table.language)
    lines = [render_event(cat, e, "") for e in table.game.events[since:] if e.is_public]
    return "\n".join(line for line in lines if line)
