"""Events as the page shows them: a sentence plus the facts the page draws with.

Why the sentences come from the one text pipeline (``prompts.events_text``): a seat's
page reads the words its model seat would read about the same events, in the game's
language, so the person and the models sit on equal terms; the public and full views
read the narrator's (every player named, a secret sent to one seat naming it); and
there is one text per event kind to keep right. The structured
``data`` goes along only inside an event the lens already sees, so the vote tables,
deaths and the Sheriff's star are drawn from nothing the seat was not shown.
"""

from __future__ import annotations

from typing import Any, Iterable

from agents.human_view import _win_line
from engine.events import Event
from engine.flow.leaving import DeathEvent
from engine.flow.main import Role
from engine.flow.sheriff import SheriffElected, SheriffSuccessor
from engine.flow.victory import GameEnd
from engine.roles import ROLES
from engine.roles.cupid import Lovers
from engine.roles.seer import SeerResult
from engine.roles.werewolf import WolfPack
from prompts.catalog import Catalog, catalog
from prompts.events_text import PERSON, Reader, end_reason, tell, winner_line
from transcripts.buildings import public_tokens

from arena.web.lens import Lens


def entry(e: Event, lens: Lens, cat: Catalog) -> dict[str, Any]:
    """One timeline entry for ``lens`` (the caller has checked ``lens.sees(e)``)."""
    out: dict[str, Any] = {
        "seq": e.seq,
        "kind": e.kind,
        "day": e.day,
        "phase": e.phase,
        "public": e.is_public,
        "text": _text(e, lens, cat),
        "data": e.data.to_json(),
    }
    if lens.full:
        out["audience"] = e.audience_json()
    end = e.data
    if isinstance(end, GameEnd):
        words = Reader(cat, "", PERSON, narrator=True)
        out["winner"] = winner_line(words, end.winner)  # the reveal's headline, as the narrator says it
        if end.reason:
            out["reason"] = end_reason(words, end.reason)  # the engine says why in English
    return out


def _text(e: Event, lens: Lens, cat: Catalog) -> str:
    """Told to the lens's seat; the public and full views hear the narrator."""
    return tell(cat, e, seat=lens.seat, style=PERSON)


def entries(events: Iterable[Event], lens: Lens, language: str) -> list[dict[str, Any]]:
    cat = catalog(language)
    return [entry(e, lens, cat) for e in events if lens.sees(e)]


def role_names(language: str) -> dict[str, str]:
    """Every role's name in the game's language (public: the rules name them all)."""
    cat = catalog(language)
    return {r: cat.role_name(r) for r in ROLES}


def role_label(cat: Catalog, role: str | None) -> str | None:
    return None if role is None else cat.role_name(role)


def card(events: list[Event], seat: str, language: str) -> dict[str, Any] | None:
    """The seat's role card from its own ``role`` events (the latest: a Thief's swap)."""
    role, changed = None, False
    for e in events:
        d = e.data
        if isinstance(d, Role) and d.player == seat and e.visible_to(seat):
            changed = role is not None
            role = d.role
    if role is None:
        return None
    cat = catalog(language)
    spec = ROLES.get(role)
    return {
        "role": role,
        "name": cat.role_name(role),
        "summary": cat.role_summary(role),
        "camp": spec.camp if spec else None,
        "wolf": bool(spec and spec.is_wolf),
        "win": _win_line(cat, role),
        "changed": changed,
    }


def players(names: list[str], seen: list[Event], lens: Lens, language: str) -> list[dict[str, Any]]:
    """The table as this lens knows it: who is alive, the Sheriff, every card the lens
    has been shown (its own, a pack mate's, a Seer's look, a death, the reveal) and, in
    a game with buildings, each player's public token (``building``: the holder's title
    and home in the game's language, whether a unique power's token is still held)."""
    cat = catalog(language)
    info: dict[str, dict[str, Any]] = {
        n: {"name": n, "seat": i + 1, "alive": True, "sheriff": False, "role": None, "known": None, "you": n == lens.seat, "lover": False}
        for i, n in enumerate(names)
    }

    def know(name: str, role: str | None, how: str) -> None:
        if name in info and role:
            info[name]["role"] = role
            info[name]["known"] = how

    sheriff = None
    for e in seen:
        d = e.data
        if isinstance(d, Role):
            know(d.player, d.role, "card")
        elif isinstance(d, WolfPack):
            for w in d.wolves or []:
                if info.get(w, {}).get("role") is None:
                    know(w, "werewolf", "pack")
        elif isinstance(d, SeerResult):
            know(d.target, d.role, "seen")
        elif isinstance(d, DeathEvent):
            if d.player in info:
                info[d.player]["alive"] = False
                info[d.player]["cause"] = cat.word("causes", d.cause) if d.cause else None
                info[d.player]["died"] = e.day
            know(d.player, d.role, "revealed")
        elif isinstance(d, (SheriffElected, SheriffSuccessor)):
            sheriff = d.player
        elif isinstance(d, Lovers):
            for n in (d.lover, d.beloved):
                if n in info:
                    info[n]["lover"] = True
        elif isinstance(d, GameEnd):
            for n, r in (d.roles or {}).items():
                know(n, r, "revealed")
            for n in d.lovers or []:
                if n in info:
                    info[n]["lover"] = True
    if sheriff in info:
        info[sheriff]["sheriff"] = True
    tokens = public_tokens(seen)  # The Village: every token is public, read from public events only
    for p in info.values():
        p["role_name"] = role_label(cat, p["role"])
        token = tokens.get(p["name"])
        if token is not None:
            b = token["building"]
            p["building"] = {
                "id": b,
                "title": cat.word("buildings", b),
                "home": cat.word("homes", b),
                "token": token["token"],  # False: a unique power spent (its token returned)
                "taken_by": token.get("taken_by"),  # a dead occupant's home a Vagabond moved into
            }
    return list(info.values())
