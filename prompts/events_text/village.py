"""Events of The Village (000, the expansion): the Raven's poster, the building
tokens and their holders' powers, the Arsonist's fire, the Tavernkeeper's first
vote."""

from __future__ import annotations

from typing import Any

from engine.events import Event
from prompts.events_text.reader import Reader
from prompts.events_text.registry import Renderer, renders, sided

sided("raven_poster", "target")


@renders("extra_votes")
def extra_votes(r: Reader, e: Event) -> str:
    return r.t("extra_votes", votes=r.added(e.data.get("votes")))


def title(r: Reader, building: Any) -> str:
    return r.word("buildings", building)


def home(r: Reader, building: Any) -> str:
    return r.word("homes", building)


@renders("buildings")
def buildings(r: Reader, e: Event) -> str:
    homes = e.data.get("homes") or {}
    listed = r.join(r.t("buildings.item", player=r.who(n), title=title(r, b)) for n, b in homes.items())
    text = r.t("buildings.all", homes=listed)
    mine = homes.get(r.seat)
    if mine == "vagabond":
        text += r.t("buildings.vagabond")
    elif mine:
        text += r.t("buildings.mine", title=title(r, mine), home=home(r, mine))
    return text


@renders("buildings_on_offer")
def buildings_on_offer(r: Reader, e: Event) -> str:
    tokens = sorted((e.data.get("tokens") or {}).items())
    return r.t("buildings_on_offer", tokens=r.join(r.t("token_item", title=title(r, b), count=k) for b, k in tokens))


def by_player(kind: str, *roles: str) -> Renderer:
    """A Village event told from the first of ``roles`` who is the reader (``self_<role>``),
    else from outside (``other``); every name and the building's words filled in."""

    def render(r: Reader, e: Event) -> str:
        d = e.data
        variant = next((f"self_{k}" for k in roles if d.get(k) == r.seat), "other")
        values = {k: r.who(v) for k, v in d.items() if isinstance(v, str) and k not in ("building", "reason", "role")}
        if "building" in d:
            values.update(title=title(r, d["building"]), home=home(r, d["building"]))
        if "role" in d:
            values["role"] = r.role(d["role"])
        if "players" in d:
            values["players"] = r.names(d["players"])
        return r.t(f"{kind}.{variant}", **values)

    render.__name__ = f"by_player_{kind.replace('.', '_')}"
    return render


for _kind, _roles in {
    "building_chosen": ("player",),
    "token_given": ("player",),
    "confession": ("confessor", "player"),
    "confessed_role": (),
    "bones_set": ("bonesetter", "player"),
    "shave": ("barber", "target"),
    "home_offered": ("bailiff", "player"),
    "home_refused": ("player",),
    "moved_in": ("player",),
    "plea": ("player", "castellan"),
    "pardon_refused": ("castellan", "player"),
    "baker_glimpse": (),
    "fire_set": (),
}.items():
    renders(_kind)(by_player(_kind, *_roles))


@renders("token_returned")
def token_returned(r: Reader, e: Event) -> str:
    reason = "voted_out" if e.data.get("reason") == "voted_out" else "used"
    return by_player(f"token_returned.{reason}", "player")(r, e)


@renders("forbidden")
def forbidden(r: Reader, e: Event) -> str:
    kind = "forbidden" if e.data.get("players") else "forbidden_none"
    return by_player(kind, "schoolmistress")(r, e)


@renders("pardoned")
def pardoned(r: Reader, e: Event) -> str:
    kind = "pardoned_self" if e.data.get("castellan") == e.data.get("player") else "pardoned"
    return by_player(kind, "castellan", "player")(r, e)


@renders("first_vote")
def first_vote(r: Reader, e: Event) -> str:
    kind = "first_vote" if e.data.get("target") is not None else "first_vote_none"
    return by_player(kind, "voter")(r, e)


@renders("fire")
def fire(r: Reader, e: Event) -> str:
    text = by_player("fire", "player")(r, e)
    return text + r.t("fire_wolf") if e.data.get("wolf_burned") else text
