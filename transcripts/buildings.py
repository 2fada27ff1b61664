"""The Village's building tokens as the table sees them: public facts only.

Every player's token is public (000 The Village: "a visible role token"), and every
change to it is a public event: the hand-out (``building_chosen``, ``buildings``), a
unique power spent or restored (``token_returned``, ``token_given``), a Vagabond moving
into a freed building (``moved_in``), a fire (``fire``). So any reader, a seat's page
as much as the spectators' or an exported record, may show them; this module reads
them from those events alone and never from a private one, so a caller that passes
more than the public events shows nothing more.

Used by the web pages' players panel (``arena.web.render``) and the HTML export's
player list (``transcripts.export_html``), which word the tokens in the game's
language themselves (``terms.buildings``, ``terms.homes``).
"""

from __future__ import annotations

from typing import Any, Iterable

from engine.buildings.bailiff import MovedIn
from engine.buildings.base import TokenGiven, TokenReturned
from engine.buildings.handout import BuildingChosen, Buildings
from engine.events import Event
from engine.roles.arsonist import Fire
from transcripts.schema import EventRecord

VAGABOND = "vagabond"
KINDS = frozenset(c.kind for c in (BuildingChosen, Buildings, TokenReturned, TokenGiven, MovedIn, Fire))


def public_tokens(events: Iterable[Event | EventRecord]) -> dict[str, dict[str, Any]]:
    """Each player's token as the public events tell it, in order, for the players who
    have one: ``building`` (the id), ``token`` (a unique power's token still in front of
    them), ``changes`` (``{"day", "building", "how", "former"}`` from the hand-out on:
    ``how`` is ``chosen``, ``handout``, ``fire`` or ``moved_in``) and, for a dead
    occupant whose building a Vagabond took, ``taken_by``. Empty in a game without
    buildings. Works on engine events and transcript records alike."""
    out: dict[str, dict[str, Any]] = {}

    def take(name: Any, building: Any, day: int, how: str, former: Any = None) -> None:
        if not isinstance(name, str) or not isinstance(building, str):
            return
        p = out.setdefault(name, {"building": None, "token": True, "changes": []})
        if p["building"] == building and how in ("handout", "chosen"):
            return  # the hand-out lists the tokens already chosen
        p["building"] = building
        p["token"] = True
        change = {"day": day, "building": building, "how": how}
        if former is not None:
            change["former"] = former
        p["changes"].append(change)

    for e in events:
        if e.kind not in KINDS or e.audience != "public":
            continue
        d = e.payload if isinstance(e, EventRecord) else e.data
        day = e.day
        if isinstance(d, BuildingChosen):
            take(d.player, d.building, day, "chosen")
        elif isinstance(d, Buildings):
            for name, building in (d.homes or {}).items():
                take(name, building, day, "handout")
        elif isinstance(d, (TokenReturned, TokenGiven)):
            p = out.get(d.player)
            if p is not None:
                p["token"] = isinstance(d, TokenGiven)
        elif isinstance(d, MovedIn):
            take(d.player, d.building, day, "moved_in", d.former)
            former = out.get(d.former)
            if former is not None:
                former["taken_by"] = d.player
        elif isinstance(d, Fire):
            take(d.player, VAGABOND, day, "fire")
    return out
