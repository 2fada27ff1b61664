"""What the AEC and the parallel environments share: the table, its spaces, the seeds
of successive games, and the helpers around them."""

from __future__ import annotations

import random
from typing import Any

import arena.rl.spaces as sp
from arena.rl.table import Table
from prompts.catalog import catalog
from prompts.history import told_entry

RENDER_MODES = ["human", "ansi"]


class TableEnv:
    """Mixed in before PettingZoo's base class (its own methods win)."""

    def _setup(self, preset: str, players: int, seed: int, render_mode: str | None, kw: dict[str, Any]) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES}, not {render_mode!r}")
        self.table = Table(preset, players, seed, **kw)
        self.render_mode = render_mode
        self.possible_agents = list(self.table.names)
        n = len(self.table.vocabulary)
        obs = sp.observation_space(len(self.possible_agents), len(self.table.role_ids), self.table.options.max_days, n, self.table.with_text)
        self.observation_spaces = {a: obs for a in self.possible_agents}
        # Seeded from the table's seed, so random policies drawn from the spaces replay.
        self.action_spaces = {
            a: sp.SeatActionSpace(n, self.table.language, seed=_space_seed(seed, i)) for i, a in enumerate(self.possible_agents)
        }
        self._reseed: dict[str, int] = {}  # agent -> the seed its space takes when next handed out
        self._seeds = random.Random(seed)
        self._first = True
        self._told = 0

    def observation_space(self, agent: str):
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        """``agent``'s action space; after ``reset(seed=...)``, reseeded as it is first
        handed out (``_new_game``)."""
        space = self.action_spaces[agent]
        if self._reseed:
            seed = self._reseed.pop(agent, None)
            if seed is not None:
                space.seed(seed)
        return space

    @property
    def vocabulary(self) -> tuple[str, ...]:
        """What each ``choice`` index means: the specials, the seats, then the words."""
        return self.table.vocabulary

    def _new_game(self, seed: int | None) -> None:
        """``seed`` deals the game; without one, the first game plays the constructor's
        seed and later ones draw seeds from it, so a run of episodes is reproducible."""
        if seed is not None:
            game_seed = seed
            self._seeds = random.Random(seed)
            # Each seat's space is seeded as the constructor seeds it, when it is next
            # asked for (``action_space``): a space is three generators, ~40 µs each to
            # seed, and a policy that never samples from the spaces should not pay 24 of
            # them at every reset.
            self._reseed = {a: _space_seed(seed, i) for i, a in enumerate(self.possible_agents)}
        elif self._first:
            game_seed = self.table.seed
        else:
            game_seed = self._seeds.randrange(2**31)
        self._first = False
        self.table.new_game(game_seed)
        self._told = 0

    def action_for(self, agent: str, answer: Any) -> dict[str, Any]:
        """The action giving ``answer`` (as an ``agents`` bot returns it) to ``agent``'s
        pending decision: lets a heuristic bot or a model seat play in the env."""
        return self.table.action_for(self.table.current(agent), answer)

    def text(self, agent: str) -> str:
        """``agent``'s prompt now, exactly as a model seat reads it (the system part, its
        history and its pending question): what ``text=True`` puts in every observation,
        rendered here for one seat when asked."""
        table = self.table
        return table.text(agent, None if table.game.over else table.current(agent))

    def view(self, agent: str):
        """``agent``'s ``SeatView`` (its events, structured), as the runner gives it."""
        return self.table.view(agent)

    @property
    def game(self):
        """The engine's game (the whole truth: for logging and analysis, not policies)."""
        return self.table.game

    def render(self) -> str | None:
        """The public events since the last render, in the narrator's words (each after
        its time label, as a history entry)."""
        cat = catalog(self.table.language)
        events = self.table.game.events
        lines = [told_entry(cat, e) for e in events[self._told :] if e.is_public]
        self._told = len(events)
        text = "\n".join(line for line in lines if line)
        if self.render_mode == "human":
            if text:
                print(text)
            return None
        return text

    def close(self) -> None:
        self.table.close()


def _space_seed(seed: int, seat: int) -> int:
    """The seed of seat ``seat``'s action space in a game dealt with ``seed``: its own
    stream, so the seats' random draws are not the same draws."""
    return seed * 1009 + seat
