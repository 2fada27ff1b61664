"""The heuristic bot's play of The Village (000, Rules of Expansion #2): the Raven, the
Arsonist and every building's power, each used with intent.

Registered into ``agents.heuristic.POLICIES`` and ``heuristic_memory._HANDLERS``: what
the Confessor is shown and what the Baker glimpses become known roles (the suspicion
model treats them as certainties); a Vagabond moving into a freed home changes the
seating the bot reasons with (neighbours, the Arsonist's "to the right")."""

from __future__ import annotations


from agents.heuristic_memory import _HANDLERS, _SEAT_ONLY, Memory, learn_role
from agents.heuristic_situation import Situation
from engine.buildings.bailiff import MovedIn
from engine.buildings.baker import BakerGlimpse
from engine.buildings.confessor import ConfessedRole, Confession
from engine.buildings.handout import BuildingChosen, Buildings
from engine.buildings.schoolmistress import Forbidden
from engine.events import Event
from engine.roles.arsonist import Fire

POSTER_CONFIDENCE = 0.35
SHAVE_CONFIDENCE = 0.97  # the Barber dies with an innocent: only a near-certain wolf
ENDGAME = 5  # living players (non-Vagabonds, the Barber included) when an uncertain shave pays
FORBID_CONFIDENCE = 0.45
PARDON_TRUST = 0.35  # a condemned player below this P(wolf) is worth a pardon
HEAR_CONFIDENCE = 0.3
BURN_THREAT = 2.0  # a claimed Seer or Witch: the pack's likely next victim
# What a token is worth to its holder, best first (a wolf wants the tavern's shelter).
TOKEN_VALUE = (
    "tavernkeeper", "castellan", "confessor", "bailiff", "schoolmistress", "barber", "bonesetter", "baker", "farmer", "vagabond",
)  # fmt: skip
HOME_VALUE = {b: len(TOKEN_VALUE) - i for i, b in enumerate(TOKEN_VALUE)}


# ------------------------------------------------------------------ memory
def _confessed(mem: Memory, e: Event, d: ConfessedRole) -> None:
    learn_role(mem, d.player, d.role)


def _glimpse(mem: Memory, e: Event, d: BakerGlimpse) -> None:
    learn_role(mem, d.player, "werewolf")


def _homes(mem: Memory) -> dict[str, str]:
    homes = mem.__dict__.get("homes")
    if homes is None:
        homes = mem.__dict__["homes"] = {}
    return homes


def _buildings(mem: Memory, e: Event, d: Buildings) -> None:
    homes = d.homes
    if isinstance(homes, dict):
        mem.__dict__["homes"] = {n: b for n, b in homes.items() if isinstance(n, str) and isinstance(b, str)}


def _moved_in(mem: Memory, e: Event, d: MovedIn) -> None:
    """The newcomer takes the dead occupant's place at the table."""
    name, former = d.player, d.former
    if isinstance(name, str) and isinstance(d.building, str):
        _homes(mem)[name] = d.building
    if isinstance(name, str) and isinstance(former, str):
        mem.swap_seats(name, former)


def _chosen(mem: Memory, e: Event, d: BuildingChosen) -> None:
    if isinstance(d.player, str) and isinstance(d.building, str):
        _homes(mem)[d.player] = d.building


def _fire(mem: Memory, e: Event, d: Fire) -> None:
    mem.__dict__["fire_seen"] = True  # the Arsonist burns once a game
    if isinstance(d.player, str):
        _homes(mem)[d.player] = "vagabond"


def _confession(mem: Memory, e: Event, d: Confession) -> None:
    """Public: whom the Confessor heard (a wolf knows whether he saw a wolf's card)."""
    if isinstance(d.confessor, str) and isinstance(d.player, str):
        mem.__dict__.setdefault("confessions", []).append((d.confessor, d.player))


def _forbidden(mem: Memory, e: Event, d: Forbidden) -> None:
    pupils = [p for p in d.players if isinstance(p, str)] if isinstance(d.players, list) else []
    if isinstance(d.schoolmistress, str):
        mem.__dict__.setdefault("forbidden", []).append((d.schoolmistress, pupils))


_HANDLERS.update(
    {
        ConfessedRole: _confessed,
        BakerGlimpse: _glimpse,
        Buildings: _buildings,
        BuildingChosen: _chosen,
        MovedIn: _moved_in,
        Fire: _fire,
        Confession: _confession,
        Forbidden: _forbidden,
    }
)
# the seat's own knowledge only (a newcomer's seat swap changes the table's: the seat then reads alone)
_SEAT_ONLY.update({ConfessedRole, BakerGlimpse, Buildings, BuildingChosen, Fire, Confession, Forbidden})


# ------------------------------------------------------------------ helpers
def _unknown(sit: Situation, options) -> list[str]:
    """Options whose camp this seat does not know for certain."""
    known = sit.beliefs.known
    return [o for o in options if o not in known]


def _mates(sit: Situation) -> set[str]:
    return set(sit.mem.pack) if sit.mem.is_wolf else set()


def _first_mate(sit: Situation, options) -> str | None:
    """A wolf holding a favour to give gives it to the pack."""
    return next((o for o in options if o in sit.mem.pack), None)


# ------------------------------------------------------------------ the Raven
def raven_mark(sit: Situation) -> str | None:
    options = [o for o in sit.decision.options if o != sit.mem.beloved]
    if not options:
        return None
    if sit.mem.is_wolf:  # a Raven turned wolf (a Thief's swap cannot, but be safe): frame a villager
        villagers = [o for o in options if o not in sit.mem.pack]
        return sit.best(villagers, sit.threat) if villagers else None
    b = sit.beliefs
    target = sit.best(options, b.of)
    if target is not None and (b.of(target) >= POSTER_CONFIDENCE or not sit.decision.allow_pass):
        return target
    return None


# ------------------------------------------------------------------ the hand-out
def building_choice(sit: Situation) -> str:
    options = list(sit.decision.options)
    return max(options, key=lambda b: (HOME_VALUE.get(b, 0), sit.rng.random()))


# ------------------------------------------------------------------ day powers
def confessor_hear(sit: Situation) -> str | None:
    """Hear the most suspect player whose card is unknown; a wolf looks for the Seer."""
    options = [o for o in sit.decision.options if o not in _mates(sit)]
    if sit.mem.is_wolf:
        target = sit.best(options, sit.threat)
        return target if target is not None and sit.threat(target) >= BURN_THREAT else None
    candidates = _unknown(sit, options)
    target = sit.best(candidates, sit.beliefs.of)
    if target is None:
        return None
    if sit.beliefs.of(target) >= HEAR_CONFIDENCE or sit.mem.day >= 3:
        return target
    return None


def bonesetter_restore(sit: Situation) -> str | None:
    options = list(sit.decision.options)
    if sit.mem.is_wolf:
        return _first_mate(sit, options)
    trusted = [o for o in options if sit.beliefs.of(o) < PARDON_TRUST]
    return sit.best(trusted, lambda o: -sit.beliefs.of(o)) if trusted else None


def barber_shave(sit: Situation) -> str | None:
    if sit.mem.is_wolf:
        return None  # a wolf's razor costs the pack a wolf for one villager
    options = [o for o in sit.decision.options if o != sit.mem.beloved]
    known = sit.beliefs.known
    certain = [o for o in options if known.get(o)]
    if certain:  # a wolf the Seer's check, a confession or the Baker's dawn revealed
        return sit.best(certain, sit.beliefs.rank)
    # Without certainty the suspicion model's cap is wrong one time in three: the razor
    # waits for the endgame, when a lost Barber costs less than a lost vote.
    if len(sit.decision.options) + 1 > ENDGAME:
        return None
    target = sit.best(options, sit.beliefs.rank)
    if target is not None and sit.beliefs.of(target) >= SHAVE_CONFIDENCE:
        return target
    return None


def schoolmistress_forbid(sit: Situation) -> str | None:
    options = [o for o in sit.decision.options if o != sit.mem.beloved]
    if sit.mem.is_wolf:  # silence the voices that would vote the pack out
        return sit.best([o for o in options if o not in sit.mem.pack], sit.threat)
    target = sit.best(options, sit.beliefs.of)
    if target is not None and sit.beliefs.of(target) >= FORBID_CONFIDENCE:
        return target
    return None


# ------------------------------------------------------------------ homes
def bailiff_assign(sit: Situation) -> str | None:
    options = list(sit.decision.options)
    if sit.mem.is_wolf:
        return _first_mate(sit, options) or sit.best(options, lambda o: -sit.threat(o))
    return sit.best(options, lambda o: -sit.beliefs.of(o))


def vagabond_accept(sit: Situation) -> bool:
    return True  # a home's power is worth more than a Vagabond's few immunities


# ------------------------------------------------------------------ the Castellan
def castellan_plea(sit: Situation) -> bool:
    return True


def castellan_pardon(sit: Situation) -> bool:
    target = sit.decision.context.get("player")
    if target == sit.me or target == sit.mem.beloved:
        return True
    if sit.mem.is_wolf:
        return target in sit.mem.pack
    trust = sit.beliefs.of(target) if isinstance(target, str) else 0.0  # no player named: nobody is trusted
    return trust < PARDON_TRUST


# ------------------------------------------------------------------ the Arsonist
def arsonist_burn(sit: Situation) -> str | None:
    """Burn the home of the player the pack most wants dead (a claimed Seer): if they
    are tonight's victim, the wolf beside them burns. A cheap home first."""
    if sit.mem.day < 2:
        return None
    options = [o for o in sit.decision.options if o != sit.me]
    if sit.mem.is_wolf:
        return None
    homes = _homes(sit.mem)
    target = sit.best(options, lambda o: sit.threat(o) - 0.1 * HOME_VALUE.get(homes.get(o, ""), 0))
    if target is not None and sit.threat(target) >= BURN_THREAT:
        return target
    return None


POLICIES = {
    "raven_mark": raven_mark,
    "building_choice": building_choice,
    "confessor_hear": confessor_hear,
    "bonesetter_restore": bonesetter_restore,
    "barber_shave": barber_shave,
    "schoolmistress_forbid": schoolmistress_forbid,
    "bailiff_assign": bailiff_assign,
    "vagabond_accept": vagabond_accept,
    "castellan_plea": castellan_plea,
    "castellan_pardon": castellan_pardon,
    "arsonist_burn": arsonist_burn,
}
