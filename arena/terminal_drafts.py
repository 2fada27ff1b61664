"""A model seat's speech written out at the terminal while the model writes it.

The web table has its draft box (``arena.web.session``); a terminal has one line that
grows: the speaker's name, then each new piece of the public words as it arrives
(``agents.llm.streaming``). A draft the checks refused is said to be withdrawn; the
speech the game recorded is then narrated as always, so what counts is on screen.
"""

from __future__ import annotations

from typing import Any, Mapping

from rich.console import Console
from rich.markup import escape

from agents.llm.streaming import Draft


class TerminalDrafts:
    """The drafts of a table's model seats, printed on ``console``."""

    def __init__(self, console: Console):
        self.console = console
        self.open: tuple[str, int] | None = None  # the (seat, decision) whose line is being written
        self.shown = ""

    def __call__(self, draft: Draft) -> None:
        key = (draft.seat, draft.decision)
        if draft.state == "speaking":
            if self.open != key or not draft.text.startswith(self.shown):
                self._end()
                self.console.print(f"[dim]🗣 {escape(draft.seat)} (speaking):[/dim] ", end="")
                self.open, self.shown = key, ""
            self.console.print(escape(draft.text[len(self.shown) :]), end="", markup=True, highlight=False, soft_wrap=True)
            self.shown = draft.text
        elif draft.state == "withdrawn" and self.open == key:
            self._end()
            self.console.print(f"[yellow]  ({escape(draft.seat)} withdrew a reply that failed the checks; the checked speech follows)[/yellow]")
        elif draft.state == "done" and self.open == key:
            self._end()

    def _end(self) -> None:
        if self.open is not None:
            self.console.print()
        self.open, self.shown = None, ""


def attach(agents: Mapping[str, Any], console: Console) -> TerminalDrafts | None:
    """Give every model seat of ``agents`` that can stream its speeches the terminal's
    drafts; ``None`` when there is none."""
    seats = [a for a in agents.values() if hasattr(getattr(a, "inner", a), "drafts")]
    if not seats:
        return None
    drafts = TerminalDrafts(console)
    for agent in seats:
        getattr(agent, "inner", agent).drafts = drafts
    return drafts
