"""The game under both environments: who is asked what, and what each seat sees.

``Table`` holds one ``engine.Game`` and translates between it and the environments'
spaces (``arena.rl.spaces``): the pending decision of each seat with its action mask,
an action turned into the engine's answer, and a seat's observation built from its
own view (``arena.runner.view_for``), never from anything it was not shown.

A multi-target decision (Cupid's pair, the Pied Piper's charm) is answered one pick
at a time: the seat is asked again with the players it already named masked out
(and listed in ``picked``), and the engine receives the list once it is complete.
Keeping every answer a single index keeps the mask one flat vector.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from agents.base import SeatView
import arena.rl.spaces as sp
from arena.runner import view_for
from engine.decisions import BOOL, MULTI, TEXT, Decision
from engine.flow.main import GameStart, Role
from engine.game import Game
from engine.options import coerce_options
from engine.presets import get_preset
from engine.roles import ROLES
from engine.setup import GameSetup
from prompts.catalog import catalog
from prompts.history import render_event
from prompts.render import decision_prompt, system_prompt


class IllegalAction(ValueError):
    """An action the pending decision does not allow; the message names the legal ones."""


@dataclass
class _SeatCache:
    """What one seat's text is built from, rendered once per event (append-only)."""

    system: str | None = None
    entries: list[str] = field(default_factory=list)
    seen: int = 0  # events of the game scanned for this seat so far


class Table:
    """One game and its translation to actions and observations."""

    def __init__(
        self,
        preset: str = "millers_hollow",
        players: int = 8,
        seed: int = 0,
        *,
        names: list[str] | None = None,
        roles: list[str] | None = None,
        language: str = "en",
        text: bool = True,
        **rules: Any,
    ):
        p = get_preset(preset)
        self.preset = preset
        self.names = list(names) if names is not None else [f"player_{i}" for i in range(players)]
        if len(self.names) != len(set(self.names)):
            raise ValueError("seat names must be distinct")
        if not p.min_players <= len(self.names) <= p.max_players:
            raise ValueError(f"{preset} seats {p.min_players} to {p.max_players} players, not {len(self.names)}")
        self.options = p.options(coerce_options(rules)) if rules else p.options()
        self.roles = list(roles) if roles is not None else None
        self.language = language
        # Rendering the prompt text is most of a step's cost; a policy that reads only
        # the structured fields can do without it (``text`` is then empty).
        self.with_text = text
        self.seed = seed
        self.vocabulary: tuple[str, ...] = sp.SPECIALS + tuple(self.names) + sp.words()
        self._index = {w: i for i, w in enumerate(self.vocabulary)}
        self._seat_index = {n: i for i, n in enumerate(self.names)}
        self.role_ids = tuple(sorted(ROLES))
        self._game: Game | None = None

    # ------------------------------------------------------------------ the game
    def new_game(self, seed: int) -> Game:
        self.seed = seed
        setup = GameSetup(list(self.names), preset=self.preset, seed=seed, options=self.options, roles=self.roles)
        self._game = game = Game(setup)
        self._picks: dict[int, list[str]] = {}  # decision id -> players named so far
        self._cache = {n: _SeatCache() for n in self.names}
        return game

    @property
    def game(self) -> Game:
        """The game being played; a clear error before the first ``reset()``."""
        if self._game is None:
            raise RuntimeError("no game yet: call reset() first")
        return self._game

    def close(self) -> None:
        self._game = None

    @property
    def over(self) -> bool:
        return self._game is None or self._game.over or not self._game.waiting

    def current(self, seat: str) -> Decision | None:
        """The decision ``seat`` answers next (its first unanswered one of the batch)."""
        for d in self.game.waiting:
            if d.seat == seat:
                return d
        return None

    def next_seat(self) -> str | None:
        """Who answers next in turn order: the seat of the batch's first open decision."""
        waiting = self.game.waiting
        return waiting[0].seat if waiting else None

    def asked(self) -> dict[str, Decision]:
        """Every seat's current decision, for one parallel step."""
        out: dict[str, Decision] = {}
        for d in self.game.waiting:
            out.setdefault(d.seat, d)
        return out

    # ------------------------------------------------------------------ actions
    def legal(self, d: Decision | None) -> list[int]:
        if d is None:
            return [sp.WAIT]
        if d.shape == TEXT:
            return [sp.PASS, sp.SPEAK]
        if d.shape == BOOL:
            out = [sp.YES if o else sp.NO for o in d.options]
            return sorted(set(out))
        picked = self._picks.get(d.id, [])
        out = [self._option_index(d, o) for o in d.options if o not in picked]
        if d.allow_pass and not picked:
            out.append(sp.PASS)
        return sorted(out)

    def mask(self, d: Decision | None) -> np.ndarray:
        m = np.zeros(len(self.vocabulary), dtype=np.int8)
        m[self.legal(d)] = 1
        return m

    def _option_index(self, d: Decision, option: Any) -> int:
        i = self._index.get(option) if isinstance(option, str) else None
        if i is None or i < sp.PLAYER:
            raise IllegalAction(f"{d.kind} offers {option!r}, which the action vocabulary lacks")
        return i

    def apply(self, seat: str, d: Decision | None, action: Any) -> None:
        """Turn ``action`` into ``d``'s answer and submit it (or record one pick); a seat
        with nothing to answer (``d`` is None) may only wait."""
        choice, text = _split(action)
        legal = self.legal(d)
        if choice not in legal:
            names = ", ".join(f"{i} ({self.vocabulary[i]})" for i in legal)
            got = self.vocabulary[choice] if 0 <= choice < len(self.vocabulary) else "out of range"
            what = d.kind if d is not None else "nothing (no decision is open for it)"
            raise IllegalAction(f"{seat} cannot answer {what} with {choice} ({got}); legal: {names}")
        if d is None:  # the wait of a seat that has nothing to answer
            return
        if d.shape == TEXT:
            self.game.submit(d.id, sp.clean_speech(text) if choice == sp.SPEAK else "")
            return
        if d.shape == BOOL:
            self.game.submit(d.id, choice == sp.YES)
            return
        if choice == sp.PASS:
            self._picks.pop(d.id, None)
            self.game.submit(d.id, None)
            return
        pick = self.vocabulary[choice]
        if d.shape == MULTI:
            picks = self._picks.setdefault(d.id, [])
            picks.append(pick)
            if len(picks) == d.count:
                del self._picks[d.id]
                self.game.submit(d.id, picks)
            return
        self.game.submit(d.id, pick)

    def action_for(self, d: Decision | None, answer: Any) -> dict[str, Any]:
        """The action that gives ``answer`` (an engine answer: a name, a bool, a role,
        a speech, None) to ``d``: how an existing ``agents`` bot plays through the
        environment. For a multi-target decision, the next pick's action; for a seat
        with nothing to answer, the wait."""
        if d is None:
            return {"choice": sp.WAIT, "text": ""}
        if d.shape == TEXT:
            text = answer.get("text", "") if isinstance(answer, dict) else (answer or "")
            return {"choice": sp.SPEAK if text else sp.PASS, "text": text}
        if d.shape == BOOL:
            return {"choice": sp.YES if answer else sp.NO, "text": ""}
        if answer is None:
            return {"choice": sp.PASS, "text": ""}
        if d.shape == MULTI:
            picked = self._picks.get(d.id, [])
            answer = [a for a in answer if a not in picked][0]
        return {"choice": self._option_index(d, answer), "text": ""}

    # ------------------------------------------------------------------ observations
    def view(self, seat: str) -> SeatView:
        return view_for(self.game, seat)

    def text(self, seat: str, view: SeatView, d: Decision | None) -> str:
        """The seat's prompt as a model seat reads it: the system part (rules, role
        card), its history, and the pending question (``prompts.render``)."""
        c = self._cache[seat]
        events = self.game.events
        if c.seen < len(events):
            cat = catalog(self.language)
            for e in events[c.seen :]:
                if e.visible_to(seat):
                    entry = render_event(cat, e, seat)
                    if entry:
                        c.entries.append(entry)
            c.seen = len(events)
        if c.system is None:
            start = next((e.data for e in view.events if isinstance(e.data, GameStart)), None)
            dealt = next((e.data.role for e in view.events if isinstance(e.data, Role) and e.data.player == seat), None)
            c.system = system_prompt(
                preset=self.preset,
                options=self.options,
                seat=seat,
                role=dealt or view.role or "villager",
                players=list(self.names),
                language=self.language,
                deck=start.roles_in_play if start is not None else None,
            )
        parts = [c.system, "\n".join(c.entries)]
        if d is not None:
            parts.append(decision_prompt(d, language=self.language))
        return "\n\n".join(p for p in parts if p)

    def observe(self, seat: str) -> dict[str, Any]:
        view = self.view(seat)
        d = None if self.game.over else self.current(seat)
        n = len(self.names)
        alive = np.zeros(n, dtype=np.int8)
        for name in view.alive:
            alive[self._seat_index[name]] = 1
        picked = np.zeros(n, dtype=np.int8)
        for name in self._picks.get(d.id, []) if d is not None else ():
            picked[self._seat_index[name]] = 1
        role = view.role
        sheriff = view.sheriff
        return {
            "text": self.text(seat, view, d) if self.with_text else "",
            "action_mask": self.mask(d),
            "seat": self._seat_index[seat],
            "role": self.role_ids.index(role) + 1 if role in ROLES else 0,
            "day": min(view.day, self.options.max_days + 1),
            "alive": alive,
            "sheriff": self._seat_index.get(sheriff, n) if sheriff else n,
            "picked": picked,
        }

    def info(self, seat: str) -> dict[str, Any]:
        """What a seat's info carries: its pending decision as the engine states it
        (kind, options, context), whether it lives, and after the end the result."""
        g = self.game
        d = None if g.over else self.current(seat)
        out: dict[str, Any] = {"decision": d.to_json() if d is not None else None, "alive": g.by_name[seat].alive}
        if g.over:
            out["winner"] = g.winner
            out["won"] = seat in g.winners
        return out

    # ------------------------------------------------------------------ the end
    def reward(self, seat: str) -> float:
        """+1 for a seat whose camp won (dead or alive), -1 for the others; 0 for all
        when nobody won (the day limit)."""
        g = self.game
        if not g.over or g.winner in (None, "none"):
            return 0.0
        return 1.0 if seat in g.winners else -1.0

    @property
    def truncated(self) -> bool:
        """The game stopped at the day limit rather than by a victory."""
        return self.game.over and self.game.winner == "none"


def _split(action: Any) -> tuple[int, str]:
    """``{"choice", "text"}``, a bare index, or a bare speech string."""
    if isinstance(action, dict):
        choice = action.get("choice")
        text = action.get("text", "") or ""
    elif isinstance(action, str):
        choice, text = sp.SPEAK, action
    else:
        choice, text = action, ""
    if isinstance(choice, np.ndarray) and choice.shape == ():
        choice = choice.item()
    if isinstance(choice, np.integer):
        choice = int(choice)
    if not isinstance(choice, int) or isinstance(choice, bool):
        raise IllegalAction(f"an action is {{'choice': int, 'text': str}}, an int or a speech string, not {action!r}")
    if not isinstance(text, str):
        raise IllegalAction(f"a speech is a string, not {type(text).__name__}")
    return choice, text
