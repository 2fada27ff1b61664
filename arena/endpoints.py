"""Where a seat's API key may be sent: only where the user said.

Why a module of its own: ``base_url`` and ``api_key_env`` (``agents.llm.config.
ENDPOINT_FIELDS``) together choose which secret goes to which server, and three kinds
of file can carry them (game files, tournament files, transcripts, the last two often
someone else's). Each reader asks here, so the refusal has one wording, names the
field, the seat and the file, and points at ``--trust-endpoints``.
"""

from __future__ import annotations

from typing import Any

from arena.gamefile import GameFileError


def endpoint_refusal(source: str, who: str, field: str, hint: str = "") -> str:
    """Why a file may not set ``field`` for a seat: it would choose where a key goes."""
    return (
        f"{source}: {who} sets {field}, which chooses where an API key is sent; refused from a file: "
        "pass --trust-endpoints if you trust it" + (f", or {hint}" if hint else "")
    )


def refuse_endpoints(
    seats: list[Any], source: str, hint: str = "set it yourself with --model-option FIELD=VALUE", skip: Any = ()
) -> None:
    """``GameFileError`` for the first seat (``SeatSpec`` or ``SeatRecord``) of a file
    whose options set ``base_url`` or ``api_key_env`` (``agents.llm.config``); seats
    named in ``skip`` (given another agent) are not asked."""
    from agents.llm.config import endpoint_fields

    for i, seat in enumerate(seats):
        if seat.name in skip:
            continue
        fields = endpoint_fields(getattr(seat, "options", None))
        if fields:
            raise GameFileError(endpoint_refusal(source, f"seat {i + 1} ({seat.name})", f"options.{fields[0]}", hint.replace("FIELD", fields[0])))
