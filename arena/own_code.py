"""Agents of one's own (``py:MODULE:CLASS``) run code, so they come only from the user.

Naming ``py:MODULE:CLASS`` imports MODULE, and importing a module runs its top-level
code, before the arena can even see whether CLASS is an agent (``agents.custom``). A
game file or a tournament file the user runs is theirs to vouch for, as a script is
(docs/AGENTS.md says so plainly). The places that take a table from someone else never
import one:

- the web server (its start page and ``POST /api/games``, which anyone holding the host
  key can call over the network) refuses a ``py:`` seat outright
  (``arena.web.table_form``);
- a transcript names its seats' agents as a record, and transcripts travel: ``play
  --resume`` and ``fork`` refuse a recorded ``py:`` seat unless the user passes
  ``--trust-code`` (or, forking, gives that seat an agent with ``--seat``), and a web
  server taking up the games of its folder after a restart never trusts them (it never
  writes such a seat itself). Reading a transcript's table (``spec_from_header``)
  imports nothing.

Each reader asks here, so the refusal has one wording, naming the seat, the agent and
the file, and saying the way out.
"""

from __future__ import annotations

from typing import Any, Iterable

from agents.custom import is_custom_spec
from arena.errors import GameFileError

WHY = "naming it imports that module, which runs its code on this machine"


def code_refusal(source: str, who: str, agent: str, hint: str = "") -> str:
    return f"{source}: {who} is played by '{agent}', an agent of one's own: {WHY}; " + (hint or "refused")


def refuse_code(seats: Iterable[Any], source: str, hint: str = "", skip: Any = ()) -> None:
    """``GameFileError`` for the first seat (``SeatSpec``, ``SeatRecord`` or a mapping
    with ``name`` and ``agent``) played by a ``py:`` agent; seats named in ``skip`` (given
    their agent by the user) are not asked."""
    for i, seat in enumerate(seats):
        name, agent = (seat["name"], seat["agent"]) if isinstance(seat, dict) else (seat.name, seat.agent)
        if name not in skip and is_custom_spec(agent):
            raise GameFileError(code_refusal(source, f"seat {i + 1} ({name})", agent, hint))


__all__ = ["WHY", "code_refusal", "refuse_code"]
