"""Small combinators the rules are written with."""

from __future__ import annotations

from typing import Any, Generator, Iterable

from engine.decisions import Decision, DecisionKind
# ``Script`` is declared with the state the rules read; re-exported: the rules import it here.
from engine.game_state import (
    GameState as GameState,
    Script as Script,
)


def ask(*decisions: Decision) -> Generator[list[Decision], dict[int, Any], list[Any]]:
    """Pend ``decisions`` together; return their answers in the same order."""
    answers = yield list(decisions)
    return [answers[d.id] for d in decisions]


def ask_one(decision: Decision) -> Generator[list[Decision], dict[int, Any], Any]:
    answers = yield [decision]
    return answers[decision.id]


def parallel(scripts: Iterable[Script]) -> Script:
    """Run independent scripts side by side: their pending decisions form one batch.

    Answers are handed back in the scripts' order, so the result is the same as
    running them one after the other; only the number of round trips changes.
    """
    active: list[tuple[Script, list[Decision]]] = []
    for s in scripts:
        try:
            active.append((s, next(s)))
        except StopIteration:
            pass
    while active:
        if len(active) == 1:  # the others are done: hand this one's batches straight through
            script, batch = active[0]
            while True:
                answers = yield batch
                try:
                    batch = script.send(answers)
                except StopIteration:
                    return
        answers = yield [d for _, batch in active for d in batch]
        still: list[tuple[Script, list[Decision]]] = []
        for s, _ in active:
            try:
                still.append((s, s.send(answers)))
            except StopIteration:
                pass
        active = still


def optional_target(
    game: GameState, seat: str, kind: DecisionKind, options: tuple[Any, ...], context: dict[str, Any] | None = None
) -> Generator[list[Decision], dict[int, Any], Any]:
    """A power its holder may use or keep: ask ``seat`` for one of ``options`` or null.
    With no legal target the question is not asked at all (None)."""
    if not options:
        return None
    answers = yield [game.ask(seat, kind, options, context, True)]
    return next(iter(answers.values()))
