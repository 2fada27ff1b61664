"""Events of The Village (000, the expansion): the Raven's poster, the building
tokens and their holders' powers, the Arsonist's fire, the Tavernkeeper's first
vote."""

from __future__ import annotations

from typing import Any, Callable

from engine.buildings.bailiff import HomeOffered, HomeRefused, MovedIn
from engine.buildings.baker import BakerGlimpse
from engine.buildings.barber import Shave
from engine.buildings.base import TokenGiven, TokenReturned
from engine.buildings.bonesetter import BonesSet
from engine.buildings.castellan import PardonRefused, Pardoned, Plea
from engine.buildings.confessor import ConfessedRole, Confession
from engine.buildings.handout import BuildingChosen, Buildings, BuildingsOnOffer
from engine.buildings.schoolmistress import Forbidden
from engine.events import Event, EventData
from engine.flow.voting import ExtraVotes, FirstVote
from engine.roles.arsonist import Fire, FireSet
from engine.roles.raven import RavenPoster
from prompts.events_text.reader import Reader
from prompts.events_text.registry import fields_of, renders, sided

sided(RavenPoster, "target")


@renders(ExtraVotes)
def extra_votes(r: Reader, e: Event, d: ExtraVotes) -> str:
    return r.t("extra_votes", votes=r.added(d.votes))


def title(r: Reader, building: Any) -> str:
    return r.word("buildings", building)


def home(r: Reader, building: Any) -> str:
    return r.word("homes", building)


@renders(Buildings)
def buildings(r: Reader, e: Event, d: Buildings) -> str:
    homes = d.homes or {}
    listed = r.join(r.t("buildings.item", player=r.who(n), title=title(r, b)) for n, b in homes.items())
    text = r.t("buildings.all", homes=listed)
    mine = homes.get(r.seat)
    if mine == "vagabond":
        text += r.t("buildings.vagabond")
    elif mine:
        text += r.t("buildings.mine", title=title(r, mine), home=home(r, mine))
    return text


@renders(BuildingsOnOffer)
def buildings_on_offer(r: Reader, e: Event, d: BuildingsOnOffer) -> str:
    tokens = sorted((d.tokens or {}).items())
    return r.t("buildings_on_offer", tokens=r.join(r.t("token_item", title=title(r, b), count=k) for b, k in tokens))


ByPlayer = Callable[[Reader, Event, EventData], str]


def by_player(cls: type[EventData], sentence: str, *roles: str) -> ByPlayer:
    """A Village event told from the first of ``roles`` who is the reader (``self_<role>``),
    else from outside (``other``), in ``events.<sentence>``: every player named (the
    record's text fields other than the building, the reason and the role), the
    building's words, the role's name and the list of players filled in. ``roles``
    are checked to be ``cls``'s fields when the renderer is made."""
    fields_of(cls, *roles)
    has = cls._names

    def render(r: Reader, e: Event, d: EventData) -> str:
        variant = next((f"self_{k}" for k in roles if getattr(d, k) == r.seat), "other")
        values = {k: r.who(v) for k, v in d.items() if isinstance(v, str) and k not in ("building", "reason", "role")}
        if "building" in has:
            building = getattr(d, "building")
            values.update(title=title(r, building), home=home(r, building))
        if "role" in has:
            values["role"] = r.role(getattr(d, "role"))
        if "players" in has:
            values["players"] = r.names(getattr(d, "players"))
        return r.t(f"{sentence}.{variant}", **values)

    render.__name__ = f"by_player_{sentence.replace('.', '_')}"
    return render


# The kinds told by ``by_player`` alone, with the fields whose player may be the reader.
BY_PLAYER: dict[type[EventData], tuple[str, ...]] = {
    BuildingChosen: ("player",),
    TokenGiven: ("player",),
    Confession: ("confessor", "player"),
    ConfessedRole: (),
    BonesSet: ("bonesetter", "player"),
    Shave: ("barber", "target"),
    HomeOffered: ("bailiff", "player"),
    HomeRefused: ("player",),
    MovedIn: ("player",),
    Plea: ("player", "castellan"),
    PardonRefused: ("castellan", "player"),
    BakerGlimpse: (),
    FireSet: (),
}
for _cls, _roles in BY_PLAYER.items():
    renders(_cls)(by_player(_cls, _cls.kind, *_roles))

_returned = {reason: by_player(TokenReturned, f"token_returned.{reason}", "player") for reason in ("voted_out", "used")}
_forbidden = {kind: by_player(Forbidden, kind, "schoolmistress") for kind in ("forbidden", "forbidden_none")}
_pardoned = {kind: by_player(Pardoned, kind, "castellan", "player") for kind in ("pardoned", "pardoned_self")}
_first_vote = {kind: by_player(FirstVote, kind, "voter") for kind in ("first_vote", "first_vote_none")}
_fire = by_player(Fire, "fire", "player")


@renders(TokenReturned)
def token_returned(r: Reader, e: Event, d: TokenReturned) -> str:
    return _returned["voted_out" if d.reason == "voted_out" else "used"](r, e, d)


@renders(Forbidden)
def forbidden(r: Reader, e: Event, d: Forbidden) -> str:
    return _forbidden["forbidden" if d.players else "forbidden_none"](r, e, d)


@renders(Pardoned)
def pardoned(r: Reader, e: Event, d: Pardoned) -> str:
    return _pardoned["pardoned_self" if d.castellan == d.player else "pardoned"](r, e, d)


@renders(FirstVote)
def first_vote(r: Reader, e: Event, d: FirstVote) -> str:
    return _first_vote["first_vote" if d.target is not None else "first_vote_none"](r, e, d)


@renders(Fire)
def fire(r: Reader, e: Event, d: Fire) -> str:
    text = _fire(r, e, d)
    return text + r.t("fire_wolf") if d.wolf_burned else text
