"""What one heuristic seat has learnt, digested from its events as they arrive.

A seat's view grows append-only, so the memory only reads the events it has not seen
yet: the bot then costs the same per decision however long the game runs. Everything
here is a fact the seat was shown; judging those facts is ``heuristic_suspicion``'s job.
Other seats' answers may come from people or models, so every public field is read
defensively: a malformed claim is ignored, never trusted and never a crash.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from agents.base import SeatView
from agents.heuristic_lines import language_of
from engine.events import PUBLIC, Event, EventData
from engine.flow.day import NoDeath
from engine.flow.leaving import DeathEvent
from engine.flow.main import GameStart, Role
from engine.flow.sheriff import SheriffElected, SheriffSuccessor
from engine.flow.voting import SheriffVotes, VoteResult
from engine.roles import ROLES
from engine.roles.angel import AngelVillager
from engine.roles.bear_tamer import BearGrowl
from engine.roles.cupid import Lovers
from engine.roles.fox import FoxResult
from engine.roles.idiot import IdiotRevealed
from engine.roles.infect_father import Infected
from engine.roles.pied_piper import Charmed, CharmedPlayers
from engine.roles.seer import SeerResult
from engine.roles.sister import Sisters
from engine.roles.thief import ThiefCards
from engine.roles.werewolf import LittleGirlCaught, WolfChat, WolfPack, WolfVictimOverheard, WolfVotes, WolfVotesOverheard
from engine.roles.wild_child import WildChildModel, WildChildTurned
from engine.roles.witch import WitchVictim
from engine.roles.wolf_hound import WolfHoundSide
from engine.speech import Speech


def is_wolf_role(role: str | None) -> bool:
    """Unknown role ids (future roles, model typos) count as not wolves. Asked about
    every card and claim at every judgement, so a registered role's answer is kept."""
    wolf = _WOLFISH.get(role) if role.__class__ is str else None
    if wolf is None:
        spec = ROLES.get(role) if isinstance(role, str) else None
        wolf = bool(spec and spec.is_wolf)
        if spec is not None:
            _WOLFISH[role] = wolf  # type: ignore[index]
    return wolf


_WOLFISH: dict[str, bool] = {}


@dataclass(slots=True)
class Claim:
    """The latest public story of one speaker: the role they claim and what they
    say they saw (target -> role id). Checks accumulate across speeches."""

    role: str | None = None
    checks: dict[str, str] = field(default_factory=dict)
    roles_claimed: set[str] = field(default_factory=set)
    since: dict[str, int] = field(default_factory=dict)  # role -> rank of the speech that first claimed it
    told: dict[str, int] = field(default_factory=dict)  # target -> rank of the speech that first reported it


@dataclass(slots=True)
class VoteRound:
    day: int
    round: int
    votes: dict[str, str | None]


@dataclass(slots=True)
class Accusation:
    day: int
    speaker: str
    target: str


_NO_DECK: Counter[str] = Counter()  # every seat's deck before the game starts: shared, as building one costs


class Memory:
    """Facts of one seat, updated incrementally by ``update(events)``."""

    # Slots: a memory has more fields than an instance dict shares its keys for (30),
    # and they are read at every judgement; ``__dict__`` keeps room for the fields the
    # presets' handlers add (``heuristic_village``'s homes).
    __slots__ = (
        "me", "seen", "last", "day", "phase", "players", "roles_in_play", "deck", "wolf_cards", "set_aside",
        "my_role", "initial_role", "pack", "dead", "causes", "seer_results", "beloved", "sheriff", "claims",
        "speeches", "spoken", "debated", "preset", "hidden_cards", "heard", "accusations", "votes",
        "sheriff_votes", "chat_targets", "spotted", "wolf_votes", "caught_girl", "witch_victims", "thief_cards",
        "overheard", "night_victims", "quiet_dawns", "open_days", "sisters", "fox_results", "growls", "model",
        "charmed", "revealed", "angel_done", "derived", "facts", "carried", "_alive", "_alive_at", "table",
        "_public", "_own_facts", "_solo", "_synced", "__dict__",
    )  # fmt: skip

    def __init__(self, me: str):
        self.me = me
        self.seen = 0  # events read
        self.last: Event | None = None  # the last of them
        self.day = 0
        self.phase = ""
        self.players: list[str] = []
        self.roles_in_play: list[str] = []
        self.deck: Counter[str] = _NO_DECK  # role -> its cards in ``roles_in_play`` (replaced, never changed)
        self.wolf_cards = 0  # werewolf cards in ``roles_in_play``: asked at every rebuild of the judge's sums
        self.set_aside = 0  # cards of the public deck left in the center (the Thief's)
        self.my_role: str | None = None
        self.initial_role: str | None = None
        self.pack: set[str] = set()  # every wolf this seat ever woke with (itself included)
        self.dead: dict[str, str | None] = {}  # name -> revealed role (None when hidden)
        self.causes: dict[str, str] = {}
        self.seer_results: dict[str, str] = {}
        self.beloved: str | None = None
        self.sheriff: str | None = None
        self.claims: dict[str, Claim] = {}
        self.speeches = 0  # public speeches read so far: the order in which claims came
        self.spoken: dict[str, tuple[int, int]] = {}  # speaker -> (day, rank) of their latest speech
        self.debated: dict[str, int] = {}  # speaker -> the day of their latest debate speech (not a campaign's)
        self.preset: str | None = None
        self.hidden_cards = False  # a death was announced without its card (狼人杀)
        self.heard: str | None = None  # the language another seat spoke in ("zh"), once heard
        self.accusations: list[Accusation] = []
        self.votes: list[VoteRound] = []
        self.sheriff_votes: list[VoteRound] = []
        self.chat_targets: dict[int, list[tuple[str, str]]] = {}  # night -> (wolf, proposed)
        self.spotted: dict[str, str] = {}  # a wolf's news from 004's Host: who holds an informed role
        self.wolf_votes: dict[int, list[dict[str, Any]]] = {}  # night -> picks per attempt
        self.caught_girl: str | None = None
        self.witch_victims: dict[int, str | None] = {}  # night -> the pack's victim the Witch saw
        self.thief_cards: list[str] = []
        self.overheard: set[str] = set()  # names the spied-on pack aimed at (never wolves)
        self.night_victims: list[str] = []
        self.quiet_dawns: set[int] = set()  # days whose dawn announced that nobody died
        self.open_days: set[int] = set()  # 004: days whose Sundown the Host extended, no lynching to fear
        # Best of Werewolves and 狼人杀 characters
        self.sisters: set[str] = set()  # the other Sister(s), known from the first night
        self.fox_results: list[tuple[list[str], bool]] = []  # (group, a werewolf among them)
        self.growls: dict[int, bool] = {}  # dawn -> the Bear Tamer's bear growled (public)
        self.model: str | None = None  # the Wild Child's model
        self.charmed: set[str] = set()  # charmed players this seat knows of (itself included)
        self.revealed: dict[str, str] = {}  # living players whose card the table saw (the Idiot)
        self.angel_done = False  # the Angel's first round is over (or he fell in love)
        # What is computed from these facts (the suspicion model's judgement), kept until
        # the next event is read: several questions about one moment pay once.
        self.derived: dict[Any, Any] = {}
        # ``facts`` counts the events that changed what the suspicion model carries
        # across events (``_NOT_CARRIED`` lists the others; a speech counts when it
        # changes a claim the judge weighs, so not a first plain "villager"): while it stands still, the model keeps its sums (``carried``)
        # and adds only the votes and accusations appended since.
        self.facts = 0
        self.carried: dict[Any, Any] = {}
        self._alive: list[str] = []
        self._alive_at = -1  # ``len(dead)`` when ``_alive`` was listed
        # The public facts are read once per game for every seat (``PublicTable``): while
        # ``table`` is set, the fields in ``_PUBLIC_FIELDS`` are the table's, as of the
        # ``_public`` public events this seat has read, and ``facts`` is the table's count
        # plus ``_own_facts`` (this seat's private events). ``_solo``: the seat reads
        # everything itself, as every seat once did (a private event that touches the
        # public facts, or a view behind the table's).
        self.table: PublicTable | None = None
        self._public = 0
        self._own_facts = 0
        self._solo = False
        self._synced = -1  # ``len(table.events)`` when last synced

    @classmethod
    def alone(cls, me: str) -> "Memory":
        """A memory that reads every event itself, never through the game's shared
        table: for a reader handed a view that is not the game's (a persuasion twin's,
        with one speech replaced), which the shared table would take for the game."""
        memory = cls(me)
        memory._solo = True
        return memory

    # ------------------------------------------------------------------ reading events
    def update(self, view: SeatView) -> bool:
        """Digest what the seat was shown since the last read; return whether memory was
        wiped. Only the new events are taken from the view (``SeatView.since``), from the
        last one read on: when that very event does not come first, the seat was handed
        a new game (a shorter or another history): start over rather than mix two games."""
        last = self.last
        new = view.since(0 if last is None else last.seq)
        fresh = False
        if last is not None:
            if new and new[0] is last:
                del new[0]
            else:
                self.__init__(self.me)  # type: ignore[misc]
                fresh = True
                new = view.since(0)
        # Handlers are keyed by the payload's class: an event whose data is not its kind's
        # class (a ``RawEvent`` read from another version's file) teaches nothing, as it
        # adds nothing to ``SeatView``'s summaries. One loop, no call per event: every
        # seat reads every event.
        if new:
            self.derived.clear()
            if self._solo:
                self._read(new)
            else:
                self._read_shared(new)
            last = self.last = new[-1]
            self.day, self.phase = last.day, last.phase
            self.seen += len(new)
        elif self.table is not None:
            self._sync(self.table)  # nothing new here, but the table may have moved on: catch up
        return fresh

    def _read(self, new: list) -> None:
        """Every event read by this seat alone, as one seat's memory reads them."""
        handlers, not_carried = _HANDLERS, _NOT_CARRIED
        for e in new:
            d = e.data
            cls = d.__class__
            handler = handlers.get(cls)
            if handler is not None:
                handler(self, e, d)
                if cls not in not_carried:
                    self.facts += 1

    def _read_shared(self, new: list) -> None:
        """The public events go to the game's ``PublicTable`` (read there once, by the
        first seat that gets to them; the others check that theirs are the same events,
        by identity); the seat reads only its private events. The usual case takes one
        short pass over the new events: the seat's public ones are counted along the
        table's (the news read there for every seat, the table's last event checked on
        the way), its private ones listed to read them itself. A public event that the
        seat must read itself (the table ``marks`` it), its first read (its table is
        found there) or any doubt takes the loop of ``_read_marked``."""
        t = self.table
        if t is None:
            return self._read_marked(new)
        handlers = _HANDLERS
        own_events: list | None = None
        read = t.events
        n = len(read)
        q = k = self._public  # k: the table's index of the next public event among the new
        for e in new:
            a = e.audience
            if a is PUBLIC or a == PUBLIC:
                if k >= n:  # news: this seat reads it for every seat
                    t.read(e)
                elif k == n - 1 and read[k] is not e:  # another game's table
                    return self._read_marked(new)
                k += 1
                continue
            cls = e.data.__class__
            if cls in handlers and (cls in _SHARED or cls not in _SEAT_ONLY):
                # a private speech or death, or a handler that may change public facts:
                # the seat will read alone, from that event on
                return self._read_marked(new)
            if own_events is None:
                own_events = [e]
            else:
                own_events.append(e)
        if k != q:
            if k < n:  # a view behind the table's
                return self._read_marked(new)
            marks = t.marks
            if marks and marks[-1] >= q:  # a public event in range the seat reads itself
                return self._read_marked(new)
            self._public = k
        if own_events is not None:
            not_carried = _NOT_CARRIED
            own = self._own_facts
            for e in own_events:
                d = e.data
                cls = d.__class__
                handler = handlers.get(cls)
                if handler is None:
                    continue
                handler(self, e, d)  # ``_SEAT_ONLY``, checked above
                if cls not in not_carried:
                    own += 1
            self._own_facts = own
        self._sync(t)
        return None

    def _read_marked(self, new: list) -> None:
        """``_read_shared`` one event at a time: for the public events the table marks
        (kinds the seat reads itself) and for any doubt (a different table, a view
        behind the table's), in which case the seat goes on alone (``_go_solo``)."""
        handlers, not_carried, shared, seat_only = _HANDLERS, _NOT_CARRIED, _SHARED, _SEAT_ONLY
        t = self.table
        q = self._public
        own = self._own_facts
        i = 0
        for e in new:
            d = e.data
            cls = d.__class__
            a = e.audience
            if a is PUBLIC or a == PUBLIC:
                if t is None:
                    t = _table_for(e)
                read = t.events
                if q < len(read):
                    if read[q] is not e:  # another game's table (a fork): this seat reads alone
                        break
                else:
                    t.read(e)
                if cls in shared:
                    q += 1
                    i += 1
                    continue
            elif cls in shared:
                break  # a private speech or death: read alone
            handler = handlers.get(cls)
            if handler is not None:
                if cls not in seat_only:
                    break  # it may change the public facts: read alone
                handler(self, e, d)
                if cls not in not_carried:
                    own += 1
            if a is PUBLIC or a == PUBLIC:
                q += 1
            i += 1
        self.table, self._public, self._own_facts = t, q, own
        if i < len(new) or (t is not None and q < len(t.events)):
            self._go_solo()
            self._read(new[i:])
            return
        if t is not None:
            self._sync(t)
        else:
            self.facts = own

    def _sync(self, t: "PublicTable") -> None:
        """The table's public facts, as this seat's fields (its containers are shared:
        readers never change them). Only the count of facts when the table has read
        nothing since."""
        self.facts = self._own_facts + t.facts
        if self._synced == len(t.events):
            return
        self._synced = len(t.events)
        if self.players is not t.players or self.dead is not t.dead:
            # the containers taken once (a game start rebinds the seats and the deck)
            self._alive_at = -1
            self.players, self.preset, self.roles_in_play, self.deck = t.players, t.preset, t.roles_in_play, t.deck
            self.wolf_cards, self.set_aside, self.dead, self.causes = t.wolf_cards, t.set_aside, t.dead, t.causes
            self.night_victims, self.quiet_dawns, self.claims = t.night_victims, t.quiet_dawns, t.claims
            self.spoken, self.debated, self.accusations = t.spoken, t.debated, t.accusations
            self.votes, self.sheriff_votes, self.revealed, self.growls = t.votes, t.sheriff_votes, t.revealed, t.growls
        self.hidden_cards, self.sheriff, self.speeches = t.hidden_cards, t.sheriff, t.speeches
        if self.heard is None and t.heard_first is not None:  # once heard, the language stays
            self.heard = t.heard_by_other(self.me)
        if self._alive_at != len(t.dead):
            self._alive, self._alive_at = t.alive, len(t.dead)

    def _go_solo(self) -> None:
        """From now on this seat reads every event itself: its public facts are replayed
        from the table's first ``_public`` events into containers of its own."""
        mine = PublicTable()
        if self.table is not None:
            for e in self.table.events[: self._public]:
                mine.read(e)
        self._synced = -1
        self._sync(mine)
        self._alive_at = -1
        self.table = None
        self._solo = True

    def _game_start(self, e: Event, d: GameStart) -> None:
        self.players = [p for p in d.players if isinstance(p, str)]
        self._alive_at = -1
        self.preset = d.preset if isinstance(d.preset, str) else None
        self.roles_in_play = [r for r in d.roles_in_play if isinstance(r, str)]
        self.deck = Counter(self.roles_in_play)
        self.wolf_cards = sum(k for r, k in self.deck.items() if is_wolf_role(r))
        aside = d.set_aside
        self.set_aside = aside if isinstance(aside, int) else 0

    def _role(self, e: Event, d: Role) -> None:
        if d.player == self.me:
            if self.initial_role is None:
                self.initial_role = d.role
            self.my_role = d.role
            if is_wolf_role(self.my_role):
                self.pack.add(self.me)

    def _wolf_pack(self, e: Event, d: WolfPack) -> None:
        self.pack.update(w for w in d.wolves if isinstance(w, str))

    def _death(self, e: Event, d: DeathEvent) -> None:
        name = d.player
        if isinstance(name, str):
            self.dead[name] = d.role
            if d.role is None:
                self.hidden_cards = True
            self.causes[name] = str(d.cause)
            if d.cause == "werewolves":
                self.night_victims.append(name)

    def _no_death(self, e: Event, d: NoDeath) -> None:
        self.quiet_dawns.add(e.day)

    def _seer_result(self, e: Event, d: SeerResult) -> None:
        target, role = d.target, d.role
        if d.seer == self.me and isinstance(target, str) and isinstance(role, str):
            self.seer_results[target] = role

    def _lovers(self, e: Event, d: Lovers) -> None:
        if d.lover == self.me:
            self.beloved = d.beloved

    def _sheriff(self, e: Event, d: SheriffElected | SheriffSuccessor) -> None:
        self.sheriff = d.player

    def _speech(self, e: Event, d: Speech) -> None:
        hit = _read_speech(self, e, d)
        if hit is not None and self.heard is None and d.speaker != self.me:
            self.heard = hit[2]

    def _day_votes(self, e: Event, d: VoteResult) -> None:
        _append_round(self.votes, e, d)

    def _sheriff_votes(self, e: Event, d: SheriffVotes) -> None:
        _append_round(self.sheriff_votes, e, d)

    def _wolf_chat(self, e: Event, d: WolfChat) -> None:
        speaker, target = d.speaker, d.target
        if isinstance(speaker, str) and isinstance(target, str):
            self.chat_targets.setdefault(e.day, []).append((speaker, target))

    def _wolf_votes(self, e: Event, d: WolfVotes) -> None:
        votes = d.votes
        if isinstance(votes, dict):
            self.wolf_votes.setdefault(e.day, []).append(votes)

    def _caught(self, e: Event, d: LittleGirlCaught) -> None:
        self.caught_girl = d.player

    def _witch_victim(self, e: Event, d: WitchVictim) -> None:
        self.witch_victims[e.day] = d.victim

    def _thief_cards(self, e: Event, d: ThiefCards) -> None:
        self.thief_cards = [c for c in d.cards if isinstance(c, str)]

    def _overheard_votes(self, e: Event, d: WolfVotesOverheard) -> None:
        self.overheard.update(t for t in d.targets if isinstance(t, str))

    def _overheard_victim(self, e: Event, d: WolfVictimOverheard) -> None:
        if isinstance(d.target, str):
            self.overheard.add(d.target)

    def _sisters(self, e: Event, d: Sisters) -> None:
        self.sisters = {s for s in d.sisters if isinstance(s, str) and s != self.me}

    def _fox_result(self, e: Event, d: FoxResult) -> None:
        group = [g for g in d.group if isinstance(g, str)]
        self.fox_results.append((group, bool(d.wolf)))

    def _bear_growl(self, e: Event, d: BearGrowl) -> None:
        self.growls[e.day] = bool(d.growl)

    def _model(self, e: Event, d: WildChildModel) -> None:
        if isinstance(d.model, str):
            self.model = d.model

    def _joins_pack(self, e: Event, d: WildChildTurned | WolfHoundSide | Infected) -> None:
        """Told privately that this seat now plays for the werewolves."""
        if not isinstance(d, WolfHoundSide) or d.side == "werewolves":
            self.pack.add(self.me)

    def _charmed(self, e: Event, d: Charmed) -> None:
        self.charmed.add(self.me)

    def _charmed_players(self, e: Event, d: CharmedPlayers) -> None:
        self.charmed.add(self.me)
        self.charmed.update(p for p in d.players if isinstance(p, str))

    def _revealed(self, e: Event, d: IdiotRevealed) -> None:
        if isinstance(d.player, str) and isinstance(d.role, str):
            self.revealed[d.player] = d.role

    def _angel_done(self, e: Event, d: AngelVillager) -> None:
        self.angel_done = True

    # ------------------------------------------------------------------ derived facts
    @property
    def alive(self) -> list[str]:
        """The living players in seat order. Asked many times per decision, and the
        dead only ever grow: kept until another death (callers read, never change it)."""
        if self._alive_at != len(self.dead):
            self._alive = [p for p in self.players if p not in self.dead]
            self._alive_at = len(self.dead)
        return self._alive

    def swap_seats(self, a: str, b: str) -> None:
        """Two players trade places at the table (000: a newcomer takes the dead
        occupant's), so that neighbours and seat order follow."""
        if not self._solo:
            self._go_solo()  # the table's seats are every seat's: change a copy of them
        seats = self.players
        if a in seats and b in seats:
            i, j = seats.index(a), seats.index(b)
            seats[i], seats[j] = seats[j], seats[i]
            self._alive_at = -1

    def revive(self, name: str) -> None:
        """A dead player back in the game (004's revivals): the only way the dead shrink."""
        if not self._solo:
            self._go_solo()
        self.dead.pop(name, None)
        self._alive_at = -1

    @property
    def is_wolf(self) -> bool:
        """Asked ~115 times a game (every judgement, most decisions): the role's answer
        read from ``is_wolf_role``'s table inline, its call made only for a role not
        asked about yet (or no role)."""
        if self.me in self.pack:
            return True
        wolf = _WOLFISH.get(self.my_role)  # type: ignore[arg-type]
        return wolf if wolf is not None else is_wolf_role(self.my_role)

    @property
    def pack_alive(self) -> list[str]:
        return [w for w in self.players if w in self.pack and w not in self.dead]

    def accused_today(self, name: str) -> int:
        """How many accusations ``name`` drew today, read from the end: accusations are
        kept in the order their speeches were read, so today's are the last ones, and a
        speech need not scan the whole game's."""
        today, n = self.day, 0
        for a in reversed(self.accusations):
            if a.day != today:
                break
            if a.target == name:
                n += 1
        return n

    def votes_against(self, name: str, rounds: Iterable[VoteRound] | None = None) -> int:
        """Votes cast for ``name`` in ``rounds`` (all of them by default). Counted in a
        loop: asked in every speech (``heat``), where a generator's frame for
        ``sum`` cost more than the round or two it counts."""
        rs = self.votes if rounds is None else rounds
        n = 0
        for r in rs:
            for t in r.votes.values():
                if t == name:
                    n += 1
        return n

    def last_day_votes(self) -> list[VoteRound]:
        """The vote rounds of the latest day that had any (today's, once cast)."""
        if not self.votes:
            return []
        last = self.votes[-1].day
        return [r for r in self.votes if r.day == last]

    def my_public_claim(self) -> Claim | None:
        return self.claims.get(self.me)

    @property
    def cards_hidden(self) -> bool:
        """Whether the dead keep their cards hidden: seen at a death, else the 狼人杀
        preset's default."""
        return self.hidden_cards or self.preset == "langrensha"

    @property
    def white_wolf(self) -> str | None:
        """The mate a plain werewolf knows to be the White Werewolf: the deck has one,
        no dead wolf showed his card, and a single mate is left alive. He hunts with the
        pack but kills a wolf every other night: no mate at all."""
        if "white_werewolf" not in self.roles_in_play or self.my_role == "white_werewolf" or self.me not in self.pack:
            return None
        if any(r == "white_werewolf" for r in self.dead.values()):
            return None
        mates = [w for w in self.pack_alive if w != self.me]
        return mates[0] if len(mates) == 1 else None

    def likely_angels(self) -> set[str]:
        """In the Angel's first round (day 0 and night 1), players who said they were a
        werewolf: most likely the Angel, who wins if the village or the night kills him."""
        if self.day > 1 or "angel" not in self.roles_in_play:
            return set()
        return {n for n, c in self.claims.items() if c.role is not None and is_wolf_role(c.role) and n not in self.pack}

    def count_in_play(self, role: str) -> int:
        return self.deck[role]


class PublicTable:
    """The public facts of one game, read once for all of its heuristic seats.

    Every seat of a game is shown the same public events (the same objects), and what
    a public speech, vote or death teaches depends on nothing private: so the first
    seat to reach a public event reads it here, and the others take the table's
    containers as their own fields (``Memory._sync``; readers never change them). A
    seat's private knowledge (its role, pack, Seer results, beloved, what the Witch
    saw...) never enters the table: it stays in the seat's ``Memory``. ``events``: the
    public events read so far, in order, each seat's checked against them by identity.
    """

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.marks: list[int] = []  # indexes in ``events`` of the kinds the seats read themselves
        self.facts = 0
        self.players: list[str] = []
        self.preset: str | None = None
        self.roles_in_play: list[str] = []
        self.deck: Counter[str] = _NO_DECK
        self.wolf_cards = 0
        self.set_aside = 0
        self.dead: dict[str, str | None] = {}
        self.causes: dict[str, str] = {}
        self.hidden_cards = False
        self.night_victims: list[str] = []
        self.quiet_dawns: set[int] = set()
        self.sheriff: str | None = None
        self.claims: dict[str, Claim] = {}
        self.speeches = 0
        self.spoken: dict[str, tuple[int, int]] = {}
        self.debated: dict[str, int] = {}
        self.accusations: list[Accusation] = []
        self.votes: list[VoteRound] = []
        self.sheriff_votes: list[VoteRound] = []
        self.revealed: dict[str, str] = {}
        self.growls: dict[int, bool] = {}
        # The first speech in a known language (its speaker and language), and the first
        # in one by another speaker: what each seat has "heard" (``heard_by_other``).
        self.heard_first: tuple[str, str] | None = None
        self.heard_second: str | None = None
        self._alive: list[str] = []
        self._alive_at = -1
        # What the suspicion model works out from public facts alone, for every seat:
        # ``derived`` until the next public event, ``carried`` across them.
        self.derived: dict[Any, Any] = {}
        self.carried: dict[Any, Any] = {}

    def read(self, e: Event) -> None:
        """One more public event (of any kind): read, or marked for the seats to read
        (a kind with a handler of the seat's, ``_SEAT_ONLY`` or one that makes it read
        alone)."""
        d = e.data
        cls = d.__class__
        handler = _TABLE_HANDLERS.get(cls)
        if handler is not None:
            handler(self, e, d)
            if cls not in _NOT_CARRIED:
                self.facts += 1
        elif cls in _HANDLERS:
            self.marks.append(len(self.events))
        self.events.append(e)
        if self.derived:
            self.derived.clear()

    def _speech(self, e: Event, d: Speech) -> None:
        hit = _read_speech(self, e, d)
        if hit is not None and hit[2] is not None:
            if self.heard_first is None:
                self.heard_first = (d.speaker, hit[2])
            elif self.heard_second is None and d.speaker != self.heard_first[0]:
                self.heard_second = hit[2]

    def heard_by_other(self, me: str) -> str | None:
        """The language of the first speech ``me`` heard another speaker give in a known
        language, as ``Memory._speech`` finds it."""
        first = self.heard_first
        if first is None:
            return None
        return first[1] if first[0] != me else self.heard_second

    @property
    def alive(self) -> list[str]:
        if self._alive_at != len(self.dead):
            self._alive = [p for p in self.players if p not in self.dead]
            self._alive_at = len(self.dead)
        return self._alive


# One table per game, found by its first public event (kept alive by the table, so its
# id is not reused while the entry stands); cleared when full, as a seat holds its own
# table (a seat that comes later then starts another: the same facts, read again).
_TABLES: dict[int, PublicTable] = {}
_TABLES_KEPT = 16


def _table_for(first: Event) -> PublicTable:
    t = _TABLES.get(id(first))
    if t is None or not t.events or t.events[0] is not first:
        if len(_TABLES) >= _TABLES_KEPT:
            _TABLES.clear()
        t = _TABLES[id(first)] = PublicTable()
    return t


# A speech's claims as every seat reads them: (role, checks, accusations), parsed once
# per speech rather than once per seat (the payload is shared and never changes), with
# the language its text is written in. Keyed by the payload's id, which the entry keeps
# alive, so an id is never reused while in the table; cleared when full (a seat
# re-parses at worst once).
Said = tuple[str | None, tuple[tuple[Any, str], ...], tuple["Accusation", ...]]
Parsed = tuple[Speech, Said | None, str | None]  # (the payload, what it says, ``language_of`` its text)
_SAID: dict[int, Parsed] = {}
_SAID_KEPT = 512


def _parsed(e: Event, d: Speech) -> Parsed:
    """The speech's entry in ``_SAID``, computed and kept. What it says: the claimed
    role (a non-empty string, else None), its reported checks (target, role id) with a
    string role, and its accusations (distinct string names other than the speaker's,
    shared ``Accusation`` records: readers never change them); None when it states
    nothing. Each seat still keeps only names it knows."""
    claims = d.claims
    said: Said | None = None
    if isinstance(claims, dict):
        # Plain loops, not ``tuple(generator)`` / ``dict.fromkeys(generator)``: on this
        # interpreter each generator costs ~2.5K instructions before its first item, and
        # a speech reports a check or two and accuses one player (issue 18).
        role = claims.get("role")
        checks = claims.get("checks")
        accuses = claims.get("accuses")
        speaker = d.speaker
        reported: list[tuple[Any, str]] = []
        if isinstance(checks, list):
            for chk in checks:
                if isinstance(chk, dict):
                    told = chk.get("role")
                    if isinstance(told, str):
                        reported.append((chk.get("target"), told))
        accused: list[Accusation] = []
        if isinstance(accuses, list):
            named: list[str] = []  # distinct, in order (``dict.fromkeys``)
            for t in accuses:
                if isinstance(t, str) and t != speaker and t not in named:
                    named.append(t)
                    accused.append(Accusation(e.day, speaker, t))
        said = (role if isinstance(role, str) and role else None, tuple(reported), tuple(accused))
    if len(_SAID) >= _SAID_KEPT:
        _SAID.clear()
    parsed = _SAID[id(d)] = (d, said, language_of(d.text))
    return parsed


def _read_speech(mem: Any, e: Event, d: Speech) -> "Parsed | None":
    """What a speech tells every seat (``mem``: a ``Memory`` or a ``PublicTable``); its
    shared parse, or None when it has no speaker. The language heard is the caller's."""
    speaker = d.speaker
    if not isinstance(speaker, str):
        return None
    mem.speeches += 1
    mem.spoken[speaker] = (e.day, mem.speeches)
    if e.phase == "discussion":
        mem.debated[speaker] = e.day
    hit = _SAID.get(id(d))  # the parse shared by all seats, looked up inline: 7 of 8 hit it
    if hit is None or hit[0] is not d:
        hit = _parsed(e, d)
    said = hit[1]
    if said is None:
        return hit
    role, checks, accused = said
    known = mem.players
    if role is not None:
        c = mem.claims.get(speaker)
        if c is None or c.role != role or role not in c.roles_claimed:
            if c is None:
                c = mem.claims[speaker] = Claim()
            if role != "villager" or c.role not in (None, "villager"):
                mem.facts += 1  # a first plain "villager" changes no judgement: no rebuild
            c.role = role
            c.roles_claimed.add(role)
            c.since.setdefault(role, mem.speeches)
    for target, told in checks:
        if target in known:
            c = mem.claims.setdefault(speaker, Claim())
            if c.checks.get(target) != told or target not in c.told:
                c.checks[target] = told
                c.told.setdefault(target, mem.speeches)
                mem.facts += 1
    for a in accused:
        if a.target in known:
            mem.accusations.append(a)
    return hit


def _append_round(rounds: list[VoteRound], e: Event, d: VoteResult | SheriffVotes) -> None:
    """The round as every seat reads it: built (with its copy of the votes) once per
    payload and shared, as ``_SAID`` shares a speech's claims; readers never change a
    round or its votes."""
    kept = _ROUNDS.get(id(d))
    if kept is not None and kept[0] is d and kept[1] == e.day:
        rounds.append(kept[2])
        return
    votes = d.votes
    if isinstance(votes, dict):
        rnd = d.round
        shared = VoteRound(e.day, rnd if isinstance(rnd, int) else 1, dict(votes))
        if len(_ROUNDS) >= _ROUNDS_KEPT:
            _ROUNDS.clear()
        _ROUNDS[id(d)] = (d, e.day, shared)
        rounds.append(shared)


# Each vote's round, keyed by its payload's id (the entry keeps the payload alive, so
# an id is never reused while in the table) with the day it was read on; cleared when
# full (a seat builds its own at worst once).
_ROUNDS: dict[int, tuple[VoteResult | SheriffVotes, int, VoteRound]] = {}
_ROUNDS_KEPT = 256


def learn_role(mem: Memory, name: Any, role: Any) -> None:
    """A card this seat was shown privately (a Psychic's read, an Insomniac's night, a
    confession, the Baker's dawn): the suspicion model takes it as certain, as it takes
    the Seer's own checks."""
    if isinstance(name, str) and isinstance(role, str):
        mem.seer_results[name] = role


# Public events of these kinds are read once per game (``PublicTable``): their handlers
# read and write public facts only, and nothing of the seat but the language it heard.
_TABLE_HANDLERS: dict[type[EventData], Callable[[Any, Event, Any], None]] = {
    GameStart: Memory._game_start,
    DeathEvent: Memory._death,
    NoDeath: Memory._no_death,
    SheriffElected: Memory._sheriff,
    SheriffSuccessor: Memory._sheriff,
    Speech: PublicTable._speech,
    VoteResult: Memory._day_votes,
    SheriffVotes: Memory._sheriff_votes,
    IdiotRevealed: Memory._revealed,
    BearGrowl: Memory._bear_growl,
}
_SHARED: frozenset[type[EventData]] = frozenset(_TABLE_HANDLERS)

# Kinds whose handlers touch only the seat's private facts (and read no public one), so
# that a seat reads them while sharing the table, whoever saw them. Any other handler
# (a new one, one that changes a public fact or reads one, 004's revivals, 000's new
# seats) makes the seat read alone: safe by default. Other modules add their own.
_SEAT_ONLY: set[type[EventData]] = {
    Role, WolfPack, SeerResult, Lovers, WolfChat, WolfVotes, LittleGirlCaught, WitchVictim, ThiefCards,
    WolfVotesOverheard, WolfVictimOverheard, Sisters, FoxResult, WildChildModel, WildChildTurned,
    WolfHoundSide, Infected, Charmed, CharmedPlayers, AngelVillager,
}  # fmt: skip

# Event kinds whose handlers leave alone what the suspicion model carries across events
# (``facts``): they append votes or accusations (a speech counts itself when it changes
# a claim), or change only what it weighs afresh each time (``_add_secrets``) or never.
# A handler not listed here counts, so a new one is safe by default.
_NOT_CARRIED: frozenset[type[EventData]] = frozenset(
    {
        Speech, VoteResult, SheriffVotes, NoDeath, Lovers, SheriffElected, SheriffSuccessor,
        WolfChat, WolfVotes, WitchVictim, WolfVotesOverheard, WolfVictimOverheard, Sisters,
        FoxResult, BearGrowl, WildChildModel, Charmed, CharmedPlayers, AngelVillager,
    }
)  # fmt: skip

# The payload class -> what the seat learns from it (its ``d`` is that class: a
# renamed field is a type error in the handler).
_HANDLERS: dict[type[EventData], Callable[[Memory, Event, Any], None]] = {
    GameStart: Memory._game_start,
    Role: Memory._role,
    WolfPack: Memory._wolf_pack,
    DeathEvent: Memory._death,
    NoDeath: Memory._no_death,
    SeerResult: Memory._seer_result,
    Lovers: Memory._lovers,
    SheriffElected: Memory._sheriff,
    SheriffSuccessor: Memory._sheriff,
    Speech: Memory._speech,
    VoteResult: Memory._day_votes,
    SheriffVotes: Memory._sheriff_votes,
    WolfChat: Memory._wolf_chat,
    WolfVotes: Memory._wolf_votes,
    LittleGirlCaught: Memory._caught,
    WitchVictim: Memory._witch_victim,
    ThiefCards: Memory._thief_cards,
    WolfVotesOverheard: Memory._overheard_votes,
    WolfVictimOverheard: Memory._overheard_victim,
    Sisters: Memory._sisters,
    FoxResult: Memory._fox_result,
    BearGrowl: Memory._bear_growl,
    WildChildModel: Memory._model,
    WildChildTurned: Memory._joins_pack,
    WolfHoundSide: Memory._joins_pack,
    Infected: Memory._joins_pack,
    Charmed: Memory._charmed,
    CharmedPlayers: Memory._charmed_players,
    IdiotRevealed: Memory._revealed,
    AngelVillager: Memory._angel_done,
}


def neighbours(mem: Memory, name: str) -> list[str]:
    """The nearest living players on each side, as the engine counts them."""
    seats = mem.players
    alive = set(mem.alive)
    if name not in seats:
        return []
    n = len(seats)
    i = seats.index(name)
    found: list[str] = []
    for step in (1, -1):
        for k in range(1, n):
            p = seats[(i + step * k) % n]
            if p in alive and p != name:
                if p not in found:
                    found.append(p)
                break
    return found
