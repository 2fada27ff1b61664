"""The schedule: which participant plays which seat and role in every game.

Fair by construction, and the same every time for the same file. Two seating
policies (``seating:`` in the file):

- ``mixed`` (default): with P participants and N seats, each game seats a balanced
  multiset: every participant gets N // P seats and the N % P seats left over go to
  those with the fewest seats so far (when P > N, the N participants with the fewest
  seats so far play). The wolf cards go as a block to the participant furthest below
  its fair share of wolf seats (then the next), so the pack is as homogeneous as the
  seats allow and team compositions vary from game to game, which is what lets the
  ratings tell participants apart. The other cards go one by one, rarest first, to the
  seat whose participant is furthest below its fair share of that role.
- ``teams``: each game pits one participant's werewolves against another's village,
  through every ordered pair of participants once per cycle: the cleanest side against
  side comparison.
- ``duplicate``: duplicate deals, as in duplicate bridge. A deal holds one side fixed
  (one participant's whole pack, or one participant's whole village, alternately) and
  replays the same seed, cards, names and positions once for every other participant
  on the other side. The games of a deal differ only in who plays the rotating side,
  so the deal's luck and the fixed side's play (its seeded first night, its answers to
  the same table) are shared by the comparison; the ratings resample a deal's games
  together. ``games`` counts deals; each deal is P - 1 games.

A participant's fair share of a role is the sum, over its seats so far, of the role's
share of that table's deck; both policies keep every participant within about one
game of it. Ties are broken by the tournament's seeded generator.

- Positions. Published work finds position effects (who speaks first, who sits next to
  whom), so seat positions are balanced, not left to chance: the positions of a game
  are filled in a seeded random order, each by the seat whose participant is furthest
  below its fair share of that position, on that seat's side and overall. A participant's fair share of a position is, over its seats so far, one
  table-size-th of a seat per position of that table. Player names are drawn for
  every game from a pool (``names: shuffled``, the default: name effects cannot follow a
  participant; see ``table_names``), and participants never see each other's display names.
- Mirrors. With ``mirror: true`` each deal is replayed once per rotation of its
  participants (the same seats, names, roles and seed, each participant taking the
  next one's seats), so deal luck cancels within the set. ``games`` then counts deals.
- Seeds. Every deal's generator and game seed derive from the tournament seed and the
  deal's number alone, so a longer tournament begins with exactly the games of a
  shorter one, and a re-run is identical.

A game's ``id`` is stable and its ``digest`` covers everything that defines it, so a
database can tell a finished game of this plan from one of a different plan.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator, Mapping

from arena.gamefile import NAMES, default_names
from arena.tournament.adaptive import batches, choose_pairs
from arena.tournament.config import TournamentConfig
from engine.roles import ROLES

if TYPE_CHECKING:
    from arena.ratings.games import GameOutcome


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed from the tournament seed and labels, stable across Python runs."""
    text = ":".join(["werewolf-tournament", str(seed), *map(str, parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def side_of(role: str) -> str:
    r = ROLES.get(role)
    if r is None:
        return "werewolves" if "wolf" in role else "village"
    return "werewolves" if r.is_wolf else r.camp


@dataclass(frozen=True, slots=True)
class SeatPlan:
    position: int  # 0-based, clockwise
    name: str  # the player's name at the table
    participant: str
    role: str  # forced


@dataclass(frozen=True, slots=True)
class GamePlan:
    id: str
    index: int  # order in the plan
    deal: int
    rotation: int  # 0 for the deal itself, k for its k-th mirror
    table: int
    preset: str
    seed: int
    seats: tuple[SeatPlan, ...]
    deck: tuple[str, ...]

    @property
    def participants(self) -> list[str]:
        return [s.participant for s in self.seats]

    def digest(self, cfg: TournamentConfig) -> str:
        """What defines the game: table, seed, seats and each participant's agent."""
        t = cfg.tables[self.table]
        data = {
            "preset": self.preset, "seed": self.seed, "deck": list(self.deck), "options": t.options,
            "language": cfg.language,
            "seats": [[s.name, s.participant, s.role, _agent_key(cfg, s.participant)] for s in self.seats],
        }  # fmt: skip
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def _agent_key(cfg: TournamentConfig, participant: str) -> list:
    p = cfg.participant(participant)
    return [p.agent, p.options or {}]


@dataclass
class Balance:
    """Running counts the greedy choices read, and the balance tests check."""

    seats: Counter = field(default_factory=Counter)
    role: dict = field(default_factory=lambda: defaultdict(Counter))
    role_due: dict = field(default_factory=lambda: defaultdict(lambda: defaultdict(float)))
    side: dict = field(default_factory=lambda: defaultdict(Counter))
    side_due: dict = field(default_factory=lambda: defaultdict(lambda: defaultdict(float)))
    position: dict = field(default_factory=lambda: defaultdict(Counter))
    position_due: dict = field(default_factory=lambda: defaultdict(lambda: defaultdict(float)))
    side_position: dict = field(default_factory=lambda: defaultdict(Counter))  # (participant, side) -> position -> seats
    side_position_due: dict = field(default_factory=lambda: defaultdict(lambda: defaultdict(float)))

    def add_position_due(self, participant: str, side: str, n: int) -> None:
        """One more seat at a table of ``n``: 1/n of a seat due at each position."""
        for pos in range(n):
            self.position_due[participant][pos] += 1 / n
            self.side_position_due[(participant, side)][pos] += 1 / n

    def sit(self, participant: str, side: str, pos: int) -> None:
        self.position[participant][pos] += 1
        self.side_position[(participant, side)][pos] += 1

    def position_gap(self, participant: str, pos: int) -> float:
        return self.position[participant][pos] - self.position_due[participant][pos]

    def side_position_gap(self, participant: str, side: str, pos: int) -> float:
        key = (participant, side)
        return self.side_position[key][pos] - self.side_position_due[key][pos]

    def add_seat(self, participant: str, deck: list[str]) -> None:
        self.seats[participant] += 1
        n = len(deck)
        for r, c in Counter(deck).items():
            self.role_due[participant][r] += c / n
        for s, c in Counter(side_of(r) for r in deck).items():
            self.side_due[participant][s] += c / n

    def give(self, participant: str, role: str) -> None:
        self.role[participant][role] += 1
        self.side[participant][side_of(role)] += 1

    def role_gap(self, participant: str, role: str) -> float:
        return self.role[participant][role] - self.role_due[participant][role]

    def side_gap(self, participant: str, side: str) -> float:
        return self.side[participant][side] - self.side_due[participant][side]


def pick_participants(names: list[str], n_seats: int, bal: Balance, rng: random.Random) -> list[str]:
    """A balanced multiset of ``n_seats`` participants (see the module docstring)."""
    base, extra = divmod(n_seats, len(names))
    chosen = [p for p in names for _ in range(base)]
    order = sorted(names, key=lambda p: (bal.seats[p], rng.random()))
    return chosen + order[:extra]


def deal_mixed(slots: list[str], cards: list[str], bal: Balance, rng: random.Random) -> list[str]:
    """The card each slot (a participant's seat) gets.

    The wolf cards go as a block: to the participant furthest below its share of wolf
    seats, as many as it holds seats, then to the next. Dealing them one by one would
    split the pack evenly in every game, and teams that are always mixed the same way
    cannot tell participants apart. The other cards go one by one, rarest first, to
    the seat whose participant is furthest below its share of that role.
    """
    counts = Counter(cards)
    for p in slots:
        bal.add_seat(p, cards)
    out: list[str | None] = [None] * len(slots)
    wolves = [c for c in cards if side_of(c) == "werewolves"]
    others = sorted((c for c in cards if side_of(c) != "werewolves"), key=lambda r: (counts[r], r))
    by_need = sorted(dict.fromkeys(slots), key=lambda p: (bal.side_gap(p, "werewolves"), rng.random()))
    for p in by_need:
        for i, slot_p in enumerate(slots):
            if wolves and slot_p == p and out[i] is None:
                out[i] = wolves.pop()
                bal.give(p, out[i])
    for card in others:
        free = [i for i in range(len(slots)) if out[i] is None]
        best = min(free, key=lambda i: (bal.role_gap(slots[i], card), rng.random()))
        out[best] = card
        bal.give(slots[best], card)
    return [c for c in out if c is not None]


def team_pair(names: list[str], deal: int, seed: int, table: int = 0) -> tuple[str, str]:
    """(wolf participant, village participant) of a table's ``deal``-th game under
    ``seating: teams``.

    Each table's games run through every ordered pair of distinct participants once
    per cycle, in an order shuffled per cycle: each participant meets each other one on
    each side equally often at every table, and the first games of a longer plan are
    those of a shorter one.
    """
    if len(names) == 1:
        return names[0], names[0]
    pairs = [(a, b) for a in names for b in names if a != b]
    cycle, k = divmod(deal, len(pairs))
    random.Random(derive_seed(seed, "pairs", table, cycle)).shuffle(pairs)
    return pairs[k]


def deal_teams(wolf: str, village: str, cards: list[str], bal: Balance) -> tuple[list[str], list[str]]:
    """Slots and cards: every wolf card to ``wolf``, every other card to ``village``."""
    slots = [wolf if side_of(c) == "werewolves" else village for c in cards]
    for p in slots:
        bal.add_seat(p, cards)
    for p, c in zip(slots, cards):
        bal.give(p, c)
    return slots, list(cards)


def place_seats(slots: list[str], roles: list[str], bal: Balance, rng: random.Random) -> list[int]:
    """Which slot sits at each position (``order[pos]``), balancing positions.

    The positions are filled in a seeded random order, each by the free slot whose
    participant is furthest below its fair share of that position, on the slot's side
    (counted twice) and whatever the side (then by chance): over a tournament every
    participant sits everywhere about equally often, as a wolf and as a villager.
    """
    n = len(slots)
    for p, r in zip(slots, roles):
        bal.add_position_due(p, side_of(r), n)
    positions = list(range(n))
    rng.shuffle(positions)
    free = list(range(n))
    order = [0] * n
    for pos in positions:
        best = min(free, key=lambda i: (_position_need(bal, slots[i], roles[i], pos), rng.random()))
        free.remove(best)
        order[pos] = best
        bal.sit(slots[best], side_of(roles[best]), pos)
    return order


def _position_need(bal: Balance, participant: str, role: str, pos: int) -> float:
    """How far above its fair share of ``pos`` a seat's participant is: on the seat's
    side counted twice, overall once (rounded, so that float noise never breaks a tie
    the seeded draw should break)."""
    return round(2 * bal.side_position_gap(participant, side_of(role), pos) + bal.position_gap(participant, pos), 9)


def seat_cards(deck: list[str], players: int, rng: random.Random) -> list[str]:
    """The cards that go to seats: a Thief's deck of N+2 sets two aside at random."""
    if len(deck) == players + 2:
        rest = list(deck)
        rng.shuffle(rest)
        return sorted(rest[:players])
    return list(deck)


def table_names(n: int, rng: random.Random, rule: str | list[str] = "shuffled") -> list[str]:
    """A game's seat names (the tournament's ``names:``): drawn from the pool, or the
    default pool's first ``n`` in seat order (``fixed``). The draw is made whatever the
    rule, so the deal's later draws are the same under every rule."""
    pool = list(rule) if isinstance(rule, list) else list(NAMES) + [f"Player {i}" for i in range(len(NAMES) + 1, n + 1)]
    drawn = rng.sample(pool, n)
    return default_names(n) if rule == "fixed" else drawn


def build_schedule(
    cfg: TournamentConfig, outcomes: Mapping[str, "GameOutcome"] | None = None, chosen: dict[int, tuple[str, str]] | None = None
) -> tuple[list[GamePlan], Balance]:
    """The whole plan, in playing order, and the balance counts it reached.

    Under ``adaptive:`` (``arena.tournament.adaptive``) the plan goes as far as the
    finished games (``outcomes``, by game id) determine it: the warm-up, then each
    batch whose earlier games are all in ``outcomes``. ``chosen`` maps a deal to the
    (wolf, village) pair already chosen for it (kept in the database, so a resumed
    run continues its plan); new choices are added to it.
    """
    bal = Balance()
    plans: list[GamePlan] = []
    names = [p.name for p in cfg.participants]
    if cfg.adaptive is None:
        for d in range(cfg.games):
            plans.extend(_deal_games(cfg, d, names, bal, len(plans)))
        return plans, bal
    outcomes = outcomes or {}
    chosen = {} if chosen is None else chosen
    for start, end, adaptive in batches(cfg):
        if adaptive:
            missing = [d for d in range(start, end) if d not in chosen or not set(chosen[d]) <= set(names)]
            if missing:
                played = [outcomes.get(p.id) for p in plans]
                if any(o is None for o in played):
                    break  # this batch waits for every game before it
                pairs = choose_pairs(cfg, names, [o for o in played if o is not None], len(missing), start)
                if pairs is None:  # nothing identified yet: the plain schedule's pairs
                    pairs = [team_pair(names, d // len(cfg.tables), cfg.seed, d % len(cfg.tables)) for d in missing]
                chosen.update(zip(missing, pairs))
        for d in range(start, end):
            plans.extend(_deal_games(cfg, d, names, bal, len(plans), pair=chosen.get(d) if adaptive else None))
    return plans, bal


def planned_games(cfg: TournamentConfig) -> int:
    """How many games the whole plan will hold: an adaptive plan (teams seating) is
    not all chosen yet, but it holds one game per deal, two when mirrored."""
    if cfg.adaptive is not None:
        return cfg.games * (2 if cfg.mirror and len(cfg.participants) > 1 else 1)
    return len(build_schedule(cfg)[0])


def _deal_games(
    cfg: TournamentConfig, d: int, names: list[str], bal: Balance, start: int, pair: tuple[str, str] | None = None
) -> Iterator[GamePlan]:
    rng = random.Random(derive_seed(cfg.seed, "deal", d))
    t_idx = d % len(cfg.tables)
    table = cfg.tables[t_idx]
    deck = table.deck()
    cards_for_seats = seat_cards(deck, table.players, rng)
    if cfg.seating == "duplicate" and len(names) > 1:
        yield from _duplicate_games(cfg, d, names, bal, start, rng, t_idx, deck, cards_for_seats)
        return
    if cfg.seating in ("teams", "duplicate"):
        slots, roles = deal_teams(*(pair or team_pair(names, d // len(cfg.tables), cfg.seed, t_idx)), cards_for_seats, bal)
    else:
        slots = pick_participants(names, table.players, bal, rng)
        roles = deal_mixed(slots, cards_for_seats, bal, rng)
    order = place_seats(slots, roles, bal, rng)
    seat_names = table_names(table.players, rng, cfg.names)
    seed = derive_seed(cfg.seed, "game", d)
    base = [(slots[i], roles[i]) for i in order]  # seat position k holds slot order[k]

    rotations = [0]
    present = [p for p in names if p in slots]
    if cfg.mirror and len(present) > 1:
        rotations = list(range(len(present)))
    for r in rotations:
        if r:
            shift = {p: present[(i + r) % len(present)] for i, p in enumerate(present)}
            seats_now = [(shift[p], role) for p, role in base]
            for pos, (p, role) in enumerate(seats_now):
                bal.add_seat(p, cards_for_seats)
                bal.give(p, role)
                bal.add_position_due(p, side_of(role), len(seats_now))
                bal.sit(p, side_of(role), pos)
        else:
            seats_now = base  # counted by place_seats
        yield GamePlan(
            id=f"g{d:05d}" + (f"m{r}" if cfg.mirror else ""),
            index=start + r,
            deal=d,
            rotation=r,
            table=t_idx,
            preset=table.preset,
            seed=seed,
            seats=tuple(SeatPlan(pos, seat_names[pos], p, role) for pos, (p, role) in enumerate(seats_now)),
            deck=tuple(deck),
        )


def duplicate_roles(names: list[str], deal: int, table: int, n_tables: int) -> tuple[str, str]:
    """(fixed participant, fixed side) of a duplicate deal: the participants take the
    fixed seat in turn, the pack on even rounds through them and the village on odd
    ones, at every table alike."""
    k = deal // n_tables
    fixed = names[k % len(names)]
    side = "werewolves" if (k // len(names)) % 2 == 0 else "village"
    return fixed, side


def _duplicate_games(
    cfg: TournamentConfig, d: int, names: list[str], bal: Balance, start: int, rng: random.Random, t_idx: int,
    deck: list[str], cards: list[str],
) -> Iterator[GamePlan]:
    """One duplicate deal: the fixed side's participant against each other one in turn,
    on the same seed, cards, names and positions (see the module docstring)."""
    fixed, fixed_side = duplicate_roles(names, d, t_idx, len(cfg.tables))
    others = [p for p in names if p != fixed]
    first = others[(d // len(cfg.tables)) % len(others)]  # who places the seats: rotates too
    wolf, village = (fixed, first) if fixed_side == "werewolves" else (first, fixed)
    slots, roles = deal_teams(wolf, village, cards, bal)
    order = place_seats(slots, roles, bal, rng)
    seat_names = table_names(len(slots), rng, cfg.names)
    seed = derive_seed(cfg.seed, "game", d)
    base = [(slots[i], roles[i]) for i in order]
    rotating = [first] + [p for p in others if p != first]
    for r, p in enumerate(rotating):
        seats_now = [(p if who == first else who, role) for who, role in base]
        if r:
            for pos, (who, role) in enumerate(seats_now):
                bal.add_seat(who, cards)
                bal.give(who, role)
                bal.add_position_due(who, side_of(role), len(seats_now))
                bal.sit(who, side_of(role), pos)
        yield GamePlan(
            id=f"g{d:05d}d{r}", index=start + r, deal=d, rotation=r, table=t_idx, preset=cfg.tables[t_idx].preset, seed=seed,
            seats=tuple(SeatPlan(pos, seat_names[pos], who, role) for pos, (who, role) in enumerate(seats_now)), deck=tuple(deck),
        )  # fmt: skip
