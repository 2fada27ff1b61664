"""The game under both environments: who is asked what, and what each seat sees.

``Table`` holds one ``engine.Game`` and translates between it and the environments'
spaces (``arena.rl.spaces``): the pending decision of each seat with its action mask,
an action turned into the engine's answer, and a seat's observation built from what it
was shown (``arena.rl.summaries``, kept as the events come; its prompt text rendered
only when asked for), never from anything else.

A multi-target decision (Cupid's pair, the Pied Piper's charm) is answered one pick
at a time: the seat is asked again with the players it already named masked out
(and listed in ``picked``), and the engine receives the list once it is complete.
Keeping every answer a single index keeps the mask one flat vector.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np

from agents.base import SeatView
import arena.rl.spaces as sp
from arena.rl.summaries import Summaries
from arena.runner import view_for
from engine.decisions import BOOL, MULTI, TEXT, Decision
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


# Masks kept per table (``Table._mask``): far more than a game of 30 meets, few enough
# (int8 arrays of a few dozen bytes) that the memory never matters.
MASKS_KEPT = 4096


class _NoGame:
    """The table's game before the first ``reset()`` and after ``close()``."""

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError("no game yet: call reset() first")


_NO_GAME = cast(Game, _NoGame())


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
        text: bool = False,
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
        # Rendering the prompt text costs several times the rest of a step: it is put in
        # every observation only when asked for (``text=True``); ``text(seat)`` renders
        # one seat's on demand either way.
        self.with_text = text
        self.seed = seed
        self.vocabulary: tuple[str, ...] = sp.SPECIALS + tuple(self.names) + sp.words()
        self._index = {w: i for i, w in enumerate(self.vocabulary)}
        self._seat_index = {n: i for i, n in enumerate(self.names)}
        self.role_ids = tuple(sorted(ROLES))
        self._role_index = {r: i + 1 for i, r in enumerate(self.role_ids)}  # 0: not told
        # The game being played: a plain attribute (every step reads it several times),
        # which before the first ``reset()`` is a stand-in that says so when used.
        self.game: Game = _NO_GAME
        self._masks: dict[tuple[Any, ...], np.ndarray] = {}  # what is legal -> its mask (``_mask``)
        self._wait = np.zeros(len(self.vocabulary), dtype=np.int8)
        self._wait[sp.WAIT] = 1
        self._wait.flags.writeable = False

    # ------------------------------------------------------------------ the game
    def new_game(self, seed: int) -> Game:
        self.seed = seed
        setup = GameSetup(list(self.names), preset=self.preset, seed=seed, options=self.options, roles=self.roles)
        self.game = game = Game(setup)
        self._picks: dict[int, list[str]] = {}  # decision id -> players named so far
        self._known = Summaries(self.names)
        self._cache: dict[str, _SeatCache] = {}  # made on a seat's first ``text``
        self._told: dict[str, Decision | None] = {}  # seat -> the decision its info states
        self._batch: list[Decision] | None = None  # the batch the infos were last made for
        self._lives: list[bool] | None = None  # who was alive then, by seat
        return game

    def close(self) -> None:
        self.game = _NO_GAME

    @property
    def over(self) -> bool:
        game = self.game
        return game is _NO_GAME or game.over or not game.pending

    def current(self, seat: str) -> Decision | None:
        """The decision ``seat`` answers next (its first unanswered one of the batch)."""
        game = self.game
        answers = game.answers
        for d in game.pending:
            if d.seat == seat and d.id not in answers:
                return d
        return None

    def next_seat(self) -> str | None:
        """Who answers next in turn order: the seat of the batch's first open decision."""
        game = self.game
        answers = game.answers
        for d in game.pending:
            if d.id not in answers:
                return d.seat
        return None

    def asked(self) -> dict[str, Decision]:
        """Every seat's current decision, for one parallel step."""
        game = self.game
        answers = game.answers
        out: dict[str, Decision] = {}
        for d in game.pending:
            if d.id not in answers:
                out.setdefault(d.seat, d)
        return out

    # ------------------------------------------------------------------ actions
    def legal(self, d: Decision | None) -> list[int]:
        """The indices ``d`` allows now, sorted (``WAIT`` alone when nothing is asked)."""
        if d is None:
            return [sp.WAIT]
        if d.shape == TEXT:
            return [sp.PASS, sp.SPEAK]
        if d.shape == BOOL:
            return sorted({sp.YES if o else sp.NO for o in d.options})
        picked = self._picks.get(d.id, ())
        out = [self._option_index(d, o) for o in d.options if o not in picked]
        if d.allow_pass and not picked:
            out.append(sp.PASS)
        return sorted(out)

    def mask(self, d: Decision | None) -> np.ndarray:
        """``legal(d)`` as the observation's flat int8 mask (the caller's own copy)."""
        return self._mask(d).copy()

    def _mask(self, d: Decision | None) -> np.ndarray:
        """The read-only mask of ``legal(d)``, kept for every decision that allows the
        same: what is legal depends on the shape, the options, passing and the picks
        made, and the same few recur all game (a vote among the same living players),
        so a step copies a kept mask instead of setting one index by index."""
        if d is None:
            return self._wait
        picked = self._picks.get(d.id) if self._picks else None
        key = (d.shape, d.options, d.allow_pass, tuple(picked) if picked else ())
        m = self._masks.get(key)
        if m is None:
            if len(self._masks) >= MASKS_KEPT:
                self._masks.clear()
            m = np.zeros(len(self.vocabulary), dtype=np.int8)
            m[self.legal(d)] = 1
            m.flags.writeable = False
            self._masks[key] = m
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
        mask = self._mask(d)
        if not 0 <= choice < len(mask) or not mask[choice]:
            legal = self.legal(d)
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

    def text(self, seat: str, d: Decision | None = None) -> str:
        """The seat's prompt as a model seat reads it: the system part (rules, role
        card), its history, and the pending question ``d`` (``prompts.render``). Each
        event is rendered once per seat, the first time the seat's text is asked for
        after it: a seat never asked costs nothing."""
        c = self._cache.get(seat)
        if c is None:
            c = self._cache[seat] = _SeatCache()
        game = self.game
        events = game.events
        if c.seen < len(events):
            cat = catalog(self.language)
            for e in game.observation(seat, c.seen) if c.seen else game.observation(seat):
                entry = render_event(cat, e, seat)
                if entry:
                    c.entries.append(entry)
            c.seen = len(events)
        if c.system is None:
            self._known.catch_up(game)
            s = self._known.seats[seat]
            c.system = system_prompt(
                preset=self.preset,
                options=self.options,
                seat=seat,
                role=s.dealt or s.role or "villager",
                players=list(self.names),
                language=self.language,
                deck=s.deck,
            )
        parts = [c.system, "\n".join(c.entries)]
        if d is not None:
            parts.append(decision_prompt(d, language=self.language))
        return "\n\n".join(p for p in parts if p)

    def observe(self, seat: str) -> dict[str, Any]:
        """The seat's observation now (``arena.rl.spaces.observation_space``), from what
        it was shown (``arena.rl.summaries``) and its pending decision."""
        game = self.game
        known = self._known
        known.catch_up(game)
        s = known.seats[seat]
        d = None if game.over else self.current(seat)
        n = len(self.names)
        picked = np.zeros(n, dtype=np.int8)
        if d is not None and self._picks:
            for name in self._picks.get(d.id, ()):
                picked[self._seat_index[name]] = 1
        sheriff = s.sheriff
        obs = {
            "action_mask": self.mask(d),
            "seat": self._seat_index[seat],
            "role": self._role_index.get(s.role, 0) if s.role is not None else 0,
            "day": min(known.day(s), self.options.max_days + 1),
            "alive": s.alive.copy(),
            "sheriff": self._seat_index.get(sheriff, n) if sheriff else n,
            "picked": picked,
        }
        if self.with_text:
            obs["text"] = self.text(seat, d)
        return obs

    def info(self, seat: str) -> dict[str, Any]:
        """What a seat's info carries: its pending decision as the engine states it
        (kind, options, context), whether it lives, and after the end the result."""
        g = self.game
        d = None if g.over else self.current(seat)
        return self._info(seat, d)

    def _info(self, seat: str, d: Decision | None) -> dict[str, Any]:
        g = self.game
        out: dict[str, Any] = {"decision": d.to_json() if d is not None else None, "alive": g.by_name[seat].alive}
        if g.over:
            out["winner"] = g.winner
            out["won"] = seat in g.winners
        return out

    def refresh_infos(self, infos: dict[str, dict[str, Any]], seats: list[str], acted: str | None = None) -> None:
        """Bring ``infos`` up to date after a step in which ``acted`` answered (None: any
        seats). A seat's info is made again only when its pending decision or its life
        changed: while a batch stays open (the day's votes) only the seat that answered
        has news; once the game moves on, the seats whose decision differs, or all of
        them when someone died (or came back)."""
        g = self.game
        if g.over:
            for seat in seats:
                infos[seat] = self._info(seat, None)
            return
        batch = g.pending
        told = self._told
        if batch is self._batch:
            if acted is not None:
                d = told[acted] = self.current(acted)
                infos[acted] = self._info(acted, d)
            return
        self._batch = batch
        asked = self.asked()
        lives = [p.alive for p in g.players]
        everyone = lives != self._lives
        self._lives = lives
        for seat in seats:
            d = asked.get(seat)
            if everyone or told.get(seat) is not d:
                told[seat] = d
                infos[seat] = self._info(seat, d)

    def fresh_infos(self, seats: list[str]) -> dict[str, dict[str, Any]]:
        """Every seat's info, as a game starts."""
        self._told = {}
        self._batch = None
        self._lives = None
        infos: dict[str, dict[str, Any]] = {}
        self.refresh_infos(infos, seats)
        return infos

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
