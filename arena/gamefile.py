"""Game files (CONTRACT.md section 2): a table described in YAML or JSON.

A game file is written by hand, so every mistake in it must come back as one sentence
that names the problem (the unknown key, the seat, the role), never as a traceback.
Parsing is pydantic with ``extra="forbid"``; the rules' own checks (card counts, roles
that do not fit) are the engine's ``SetupError`` messages, reused as they are so the
engine stays the single authority on what a playable table is.
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator

from agents.a2a.spec import A2AOptions, agent_url, is_a2a_spec
from agents.base import Agent
from agents.custom import class_path, load_class
from agents.llm import is_model_spec
from agents.llm.config import LLMOptions
from agents.llm.pricing import PriceError, table_from
from agents.random_agent import RandomAgent
from agents.registry import AgentMaker, agent_maker, check_bot_options, is_remote_spec
from arena.endpoints import refuse_endpoints
from arena.errors import GameFileError
import engine.words as words
from engine.decisions import TEXT
from engine.game import Game
from engine.names import check_names, name_problem
from engine.options import RuleOptions, coerce_options
from engine.presets import get_preset
from engine.roles import DECISION_KINDS
from engine.setup import GameSetup, SetupError
from prompts.catalog import LANGUAGES
import transcripts.bounded as bounded
from transcripts.schema import HeaderRecord, SeatRecord

SCRIPTED = "scripted"
HUMAN = "human"
RANDOM = "random"
# A game file's seat without ``agent:`` and ``werewolf simulate``'s bots: the heuristic
# bot, for good. A file and its seed must keep playing the game they always played, and
# the contract gives ``simulate`` this default (CONTRACT.md 3b).
DEFAULT_AGENT = "heuristic"
# The bot that fills a person's table when nothing else is named: ``werewolf play``'s
# default table (and so ``--human``'s), the seats beside ``--models``' models and the
# web start page's seats. It is the strongest bot the project ships that plays a game
# within a second: the reference player (+308 Elo over the heuristic bot; its slowest
# of 200 games at 12 seats took 0.073 s of CPU, ``benchmarks/table_opponent.py``).
TABLE_OPPONENT = "reasoner"


class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    role: str | None = None
    building: str | None = None  # The Village: the seat's building token (farmer, bailiff, vagabond...)
    agent: str = DEFAULT_AGENT
    answers: dict[str, list[Any]] | None = None
    # Model seats: LLMOptions (sampling, base_url, time limits...); remote (a2a:) seats:
    # A2AOptions (time limits, token_env...); the heuristic bot: {noise: P}; a
    # py:MODULE:CLASS seat: whatever mapping its class reads.
    options: LLMOptions | A2AOptions | dict[str, Any] | None = None
    timeout: float | None = Field(default=None, gt=0, le=86400)  # human seats only: seconds per decision (a day at most)

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        why = name_problem(v)
        if why:
            raise ValueError(f"player name {v!r} is not allowed: {why}")
        return v

    @field_validator("options", mode="before")
    @classmethod
    def _options_of_agent(cls, v: Any, info: ValidationInfo) -> Any:
        """Model settings are checked as ``LLMOptions``, a remote seat's as
        ``A2AOptions``; a bot's as that bot's (in ``GameSpec.check``, which names the
        seat)."""
        agent = info.data.get("agent", DEFAULT_AGENT)
        if v is None or isinstance(v, (LLMOptions, A2AOptions)):
            return v
        if is_model_spec(agent):
            return LLMOptions.model_validate(v)
        if is_a2a_spec(agent):
            return A2AOptions.model_validate(v)
        if not isinstance(v, dict):
            raise ValueError("options must be a mapping")
        return v

    @property
    def is_model(self) -> bool:
        return is_model_spec(self.agent)

    @property
    def is_remote(self) -> bool:
        """Played outside this process: a model, or an agent over A2A."""
        return is_remote_spec(self.agent)


class GameSpec(BaseModel):
    """A table: who sits where, with which role and agent, under which rules."""

    model_config = ConfigDict(extra="forbid")

    preset: str = "millers_hollow"
    seed: int = 0
    options: dict[str, Any] = Field(default_factory=dict)
    center: list[str] | None = None
    seats: list[SeatSpec]
    roles: list[str] | None = None
    language: str = "en"  # of the prompts model seats read: en | zh
    prices: str | None = None  # a YAML/JSON price table for model seats (relative to this file)
    beliefs: bool = False  # not a rule: seats privately rate each other's P(wolf) as each vote opens (arena.beliefs)

    # ------------------------------------------------------------------ checks
    def rule_options(self) -> RuleOptions:
        """The preset's defaults with the file's overrides; raises ``GameFileError``."""
        try:
            preset = get_preset(self.preset)
            return preset.options(coerce_options(self.options))
        except ValueError as e:
            raise GameFileError(str(e)) from None

    def check(self, *, import_classes: bool = True) -> None:
        """What pydantic cannot see alone: answers only make sense for scripted seats,
        options only for model seats, model seats need prompts in the language, and no
        two names may be told apart only by case or width. A ``py:MODULE:CLASS`` seat's
        class is looked up (its module imported: its code runs) unless
        ``import_classes`` is false, as for a table read from someone else's file
        (``arena.own_code``), whose spec is then checked for its form only."""
        try:
            check_names(seat.name for seat in self.seats)
        except ValueError as e:
            raise GameFileError(str(e)) from None
        for i, seat in enumerate(self.seats):
            if seat.answers is not None and seat.agent != SCRIPTED:
                raise GameFileError(
                    f"seat {i + 1} ({seat.name}) has answers but its agent is '{seat.agent}'; "
                    f"only '{SCRIPTED}' seats take answers"
                )
            for kind in seat.answers or {}:
                if kind not in DECISION_KINDS:
                    raise GameFileError(
                        f"seat {i + 1} ({seat.name}) has answers for unknown decision kind '{kind}' "
                        f"(known: {', '.join(sorted(DECISION_KINDS))})"
                    )
                if DECISION_KINDS[kind].shape == TEXT:
                    _check_words(i, seat, kind)
            if seat.timeout is not None and seat.agent != HUMAN:
                raise GameFileError(
                    f"seat {i + 1} ({seat.name}) has a timeout but its agent is '{seat.agent}'; "
                    f"only '{HUMAN}' seats take a timeout (model seats set theirs in options)"
                )
            if is_a2a_spec(seat.agent):
                try:
                    agent_url(seat.agent)
                except ValueError as e:
                    raise GameFileError(f"seat {i + 1} ({seat.name}): {e}") from None
            elif seat.options is not None and not seat.is_model:
                try:
                    check_bot_options(seat.agent, dict(seat.options))
                except ValueError as e:
                    raise GameFileError(f"seat {i + 1} ({seat.name}): {e}") from None
            if seat.agent.startswith("py:"):
                try:
                    if import_classes:
                        load_class(seat.agent)
                    else:
                        class_path(seat.agent)
                except ValueError as e:
                    raise GameFileError(f"seat {i + 1} ({seat.name}): {e}") from None
        if self.language not in LANGUAGES:  # bots speak it too: never a path, always a known language
            raise GameFileError(f"language '{_clip(self.language)}' is not one of {', '.join(LANGUAGES)}")
        self.rule_options()
        check_players(len(self.seats), self.preset)

    def price_table(self):
        """The built-in prices overlaid with the file's ``prices:``; ``GameFileError``."""
        try:
            return table_from(self.prices)
        except PriceError as e:
            raise GameFileError(str(e)) from None

    # ------------------------------------------------------------------ building
    def setup(self) -> GameSetup:
        return GameSetup(
            names=[s.name for s in self.seats],
            preset=self.preset,
            seed=self.seed,
            options=self.rule_options(),
            roles=list(self.roles) if self.roles is not None else None,
            forced={s.name: s.role for s in self.seats if s.role is not None},
            center=list(self.center) if self.center is not None else None,
            buildings={s.name: s.building for s in self.seats if s.building is not None},
        )

    def build(self, *, calls: Any = None, prices: Any = None) -> tuple[Game, dict[str, Agent]]:
        """Deal the game and seat its agents; raises ``GameFileError``.

        The game is dealt first so that the engine's own checks (duplicate names,
        card counts) speak before any agent is created. Model seats are told the rules
        the engine actually runs (so their prompt cannot disagree with the game) and
        share ``calls`` (an ``agents.llm.accounting.CallLog``) when one is given.
        ``prices`` overrides the file's own price table.
        """
        self.check()
        return self.build_checked(self.setup(), calls=calls, prices=prices)

    def build_checked(
        self, setup: GameSetup, *, calls: Any = None, prices: Any = None, makers: list[AgentMaker] | None = None
    ) -> tuple[Game, dict[str, Agent]]:
        """``build`` without ``check``, from a ``setup()`` of this spec already made,
        perhaps with another seed (``dataclasses.replace``): a simulation checks its
        table once and deals it under thousands of seeds. The seats' seeds follow
        ``setup.seed``, as they follow the file's seed in ``build``. ``makers``: the
        seats' ``bot_makers()``, made once for a table of bots dealt many times."""
        try:
            game = Game(setup)
        except SetupError as e:
            raise GameFileError(str(e)) from None
        if makers is None:
            makers = self.seat_makers(game, calls=calls, prices=prices)
        agents: dict[str, Agent] = {}
        stream: random.Random | None = None
        for i, (seat, make) in enumerate(zip(self.seats, makers)):
            if seat.agent == RANDOM:
                if stream is None:
                    stream = random_seats_stream(setup.seed)
                agents[seat.name] = RandomAgent(seat.name, rng=stream)
            else:
                agents[seat.name] = seat_agent(seat, make, seat_seed(setup.seed, i))
        return game, agents

    def seat_makers(self, game: Game, *, calls: Any = None, prices: Any = None) -> list[AgentMaker]:
        """What seats each seat's agent from its seed, for ``game`` dealt from this spec.
        Model seats are told the rules the engine actually runs (so their prompt cannot
        disagree with the game) and share ``calls`` when one is given."""
        if not any(is_remote_spec(seat.agent) for seat in self.seats):
            return self.bot_makers(calls=calls)
        wiring: dict[str, Any] = {
            "preset": self.preset,
            "rules": game.options,
            "language": self.language,
            "prices": prices if prices is not None else self.price_table(),
        }
        if calls is not None:
            wiring["log"] = calls
        return [seat_maker(seat, **wiring) for seat in self.seats]

    def bot_makers(self, *, calls: Any = None) -> list[AgentMaker]:
        """The seats' makers when no seat is a model's: they depend on the table alone,
        and on ``calls``, where an agent of one's own records its fallbacks (else in a
        log of its own: a table dealt under many seeds shares no log between games)."""
        wiring: dict[str, Any] = {"language": self.language}  # bots speak the game's language too
        if calls is not None:
            wiring["log"] = calls
        return [seat_maker(seat, **wiring) for seat in self.seats]


def _check_words(i: int, seat: SeatSpec, kind: str) -> None:
    """A scripted seat's words for ``kind`` as the engine will take them
    (``engine.words``): refused now, naming the seat and the answer, rather than when
    the game reaches them, or as a transcript that cannot be written."""
    for j, said in enumerate((seat.answers or {}).get(kind) or []):
        text = said.get("text") if isinstance(said, dict) else said
        why = words.problem(text) if isinstance(text, str) else None
        if why is not None:
            raise GameFileError(f"in seat {i + 1} ({seat.name}), at answers.{kind}.{j}: {why}")


MAX_PLAYERS = 30  # no preset seats more; a bound for every table, before any name is made


def check_players(n: int, preset_id: str) -> None:
    """A table size the preset seats (3 to its maximum, at most ``MAX_PLAYERS``);
    ``GameFileError`` saying the range otherwise."""
    try:
        preset = get_preset(preset_id)
    except ValueError as e:
        raise GameFileError(str(e)) from None
    low, high = preset.min_players, min(preset.max_players, MAX_PLAYERS)
    if n < low:
        raise GameFileError(f"a game needs at least {low} players, got {n}")
    if n > high:
        raise GameFileError(f"preset {preset.id} seats at most {high} players, got {n}")


def _clip(text: str, limit: int = 40) -> str:
    """User text inside a one-line error message: no newlines, bounded length."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def seat_seed(game_seed: int, index: int) -> int:
    """A seat's private seed: fixed by the game seed and the seat, independent of
    Python's hash randomisation, and different enough between neighbouring seats."""
    digest = hashlib.sha256(f"werewolf:{game_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def random_seats_stream(game_seed: int) -> random.Random:
    """The one stream a game's random seats draw from, in the order they are asked.

    A Mersenne Twister takes ~40 K instructions to seed, as much as a quarter of a
    random game on the peer's rules (issue 42): a stream per seat was 8 of them before
    the first decision. The game is as reproducible (its seed fixes the stream, and the
    seats are asked in the engine's order), and a resumed game replays it, as the
    catch-up asks every recorded decision again in order (``arena.catchup``)."""
    return random.Random(f"{game_seed}:random seats")


def make_seat_agent(seat: SeatSpec, seed: int, **wiring: Any) -> Agent:
    return seat_agent(seat, seat_maker(seat, **wiring), seed)


def seat_maker(seat: SeatSpec, **wiring: Any) -> AgentMaker:
    """What seats ``seat``'s agent from its seed (``agent_maker``); ``GameFileError``."""
    spec = seat.agent
    try:
        if spec == SCRIPTED:
            return agent_maker(spec, seat.name, answers=seat.answers or {})
        if spec == HUMAN:
            return agent_maker(spec, seat.name, timeout=seat.timeout, language=wiring.get("language"))
        if is_model_spec(spec):
            return agent_maker(spec, seat.name, options=seat.options or LLMOptions(), **wiring)
        if is_a2a_spec(spec):
            remote = {k: v for k, v in wiring.items() if k != "prices"}  # nothing of it is priced
            return agent_maker(spec, seat.name, options=seat.options or A2AOptions(), **remote)
        return agent_maker(spec, seat.name, language=wiring.get("language"), options=seat.options, log=wiring.get("log"))
    except (ValueError, TypeError) as e:
        raise _seat_error(seat, e) from None


def seat_agent(seat: SeatSpec, make: AgentMaker, seed: int) -> Agent:
    """``seat``'s agent made with its seed; ``GameFileError``."""
    try:
        return make(seed)
    except (ImportError, ValueError, TypeError) as e:
        raise _seat_error(seat, e) from None


def _seat_error(seat: SeatSpec, e: Exception) -> GameFileError:
    spec = seat.agent
    if isinstance(e, ImportError):
        return GameFileError(f"agent '{spec}' for {seat.name} is not available: {e}")
    prefix = f"{seat.name}: " if is_remote_spec(spec) else ""
    return GameFileError(prefix + str(e))


# Friendly names for tables nobody described: short, distinct initials, easy to read
# in a vote table.
NAMES = (
    "Alice", "Bob", "Chloe", "David", "Emma", "Farah", "Hugo", "Iris", "Jules", "Kenji",
    "Lina", "Marco", "Nadia", "Omar", "Priya", "Quentin", "Rosa", "Sven", "Tara", "Umar",
    "Vera", "Walid", "Xenia", "Yuki", "Zoe", "Anton", "Bianca", "Carlos", "Dalia", "Elias",
)


def default_names(n: int) -> list[str]:
    if n <= 0:
        return []
    if n <= len(NAMES):
        return list(NAMES[:n])
    return list(NAMES) + [f"Player {i}" for i in range(len(NAMES) + 1, n + 1)]


def default_game(
    *,
    players: int = 8,
    preset: str = "millers_hollow",
    seed: int = 0,
    agent: str = DEFAULT_AGENT,
    roles: list[str] | None = None,
    options: dict[str, Any] | None = None,
) -> GameSpec:
    """The table ``werewolf play`` and ``simulate`` use when no file describes one:
    friendly names, one kind of bot, and the preset's recommended deck."""
    check_players(players, preset)
    return GameSpec(
        preset=preset,
        seed=seed,
        options=dict(options or {}),
        seats=[SeatSpec(name=n, agent=agent) for n in default_names(players)],
        roles=roles,
    )


def header_for(spec: GameSpec, game: Game) -> HeaderRecord:
    """The transcript header: the spec as given plus the options in effect."""
    # here, not at the top: playing bots (``simulate``) writes no transcript, and the
    # writer brings the signing keys' cryptography with it
    from transcripts.writer import software_version

    return HeaderRecord(
        preset=spec.preset,
        options=game.options.recorded_json(),
        seed=spec.seed,
        seats=[
            SeatRecord(
                name=s.name,
                agent=s.agent,
                role=s.role,
                building=s.building,
                options=(s.options.public() if isinstance(s.options, (LLMOptions, A2AOptions)) else dict(s.options)) if s.options else None,
                answers=s.answers,
                timeout=s.timeout,
            )
            for s in spec.seats
        ],
        roles=list(spec.roles) if spec.roles is not None else None,
        center=list(spec.center) if spec.center is not None else None,
        language=spec.language,
        software=software_version(),
        beliefs=spec.beliefs,
    )


def apply_model_options(seats: list[dict[str, Any]], options: dict[str, Any] | None) -> None:
    """Give every model seat among ``seats`` (as data) the ``options`` it does not set
    itself (``--model-option``): a seat's own settings win. Remote (``a2a:``) seats
    take the settings they share with models (time limits, retries, re-asks); at a
    table without models they take them all, so a key they do not know is refused."""
    if not options:
        return
    models = [seat for seat in seats if is_model_spec(seat.get("agent", ""))]
    for seat in models:
        seat["options"] = {**options, **(seat.get("options") or {})}
    shared = {k: v for k, v in options.items() if k in A2AOptions.model_fields} if models else options
    for seat in seats:
        if is_a2a_spec(seat.get("agent", "")) and shared:
            seat["options"] = {**shared, **(seat.get("options") or {})}


# ---------------------------------------------------------------------- parsing
def load_game_file(path: str | Path, *, trust_endpoints: bool = False) -> GameSpec:
    """Read and check a game file; every problem is a ``GameFileError`` naming it.
    A seat's ``base_url``/``api_key_env`` is refused unless ``trust_endpoints``."""
    p = Path(path)
    try:
        text = bounded.read_text(p, bounded.GAME_FILE)
    except FileNotFoundError:
        raise GameFileError(f"game file not found: {p}") from None
    except IsADirectoryError:
        raise GameFileError(f"game file is a directory: {p}") from None
    except UnicodeDecodeError as e:
        raise GameFileError(f"cannot read game file {p}: not UTF-8 text (byte {e.start})") from None
    except OSError as e:
        raise GameFileError(f"cannot read game file {p}: {e.strerror or e}") from None
    raw = parse_text(text, p.suffix.lower(), str(p))
    try:
        spec = spec_from_data(raw)
    except GameFileError as e:
        raise GameFileError(f"{p}: {e}") from None
    if not trust_endpoints:
        refuse_endpoints(spec.seats, str(p))
    if spec.prices is not None and not Path(spec.prices).is_absolute():
        # A path in a file means "next to this file", wherever the command runs.
        spec = spec.model_copy(update={"prices": str(p.parent / spec.prices)})
    return spec


MAX_NODES = bounded.MAX_VALUES  # values in one parsed file, aliases expanded: far above any table


def check_size(data: Any, where: str, limit: int = MAX_NODES) -> Any:
    """``data`` unless it holds more than ``limit`` values once YAML's aliases are
    expanded (``transcripts.bounded.count_values``); ``GameFileError`` then."""
    try:
        return bounded.count_values(data, limit)
    except bounded.InputError as e:
        raise GameFileError(f"{where}: {e}") from None


def parse_text(text: str, suffix: str, where: str = "game file") -> Any:
    """A game file's text as data, within the bounds every file is read in
    (``transcripts.bounded``: nesting, numbers' digits, values); ``GameFileError``
    naming ``where``, the line and the column otherwise."""
    if suffix not in (".json", ".yaml", ".yml"):
        raise GameFileError(f"{where}: a game file ends in .yaml, .yml or .json")
    try:
        return check_size(bounded.loads(text, "JSON" if suffix == ".json" else "YAML"), where)
    except bounded.InputError as e:
        raise GameFileError(f"{where}: {e}") from None


def spec_from_data(raw: Any, *, import_classes: bool = True) -> GameSpec:
    """Validate parsed data (a dict) into a checked ``GameSpec``; ``import_classes``:
    as ``GameSpec.check``."""
    if not isinstance(raw, dict):
        kind = "empty" if raw is None else f"a {type(raw).__name__}"
        raise GameFileError(f"the game file must be a mapping of keys (preset, seed, seats, ...), not {kind}")
    bad = words.unencodable(raw)  # any text the transcript's header would copy (names, answers, options)
    if bad is not None:
        where, why = bad
        raise GameFileError(f"{_where(where, raw)[0]}: {why}")
    try:
        spec = GameSpec.model_validate(raw)
    except ValidationError as e:
        raise GameFileError(describe_errors(e, raw)) from None
    spec.check(import_classes=import_classes)
    return spec


def describe_errors(err: ValidationError, raw: Any) -> str:
    """pydantic's errors as sentences a game file's author can act on."""
    msgs = [_describe(e, raw) for e in err.errors()]
    more = f" (and {len(msgs) - 3} more problems)" if len(msgs) > 3 else ""
    return "; ".join(msgs[:3]) + more


def _describe(e: Any, raw: Any) -> str:
    loc = tuple(e["loc"])
    kind = e["type"]
    if kind == "extra_forbidden":
        where, model = _where(loc[:-1], raw)
        allowed = ", ".join(model.model_fields)
        return f"unknown key '{loc[-1]}' {where} (allowed: {allowed})"
    if kind == "missing":
        where, _ = _where(loc[:-1], raw)
        return f"missing key '{loc[-1]}' {where}"
    where, _ = _where(loc, raw)
    return f"{where}: {str(e['msg']).removeprefix('Value error, ')}"


def _where(loc: tuple, raw: Any) -> tuple[str, type[BaseModel]]:
    """A location in the file as words, and the model that location is validated by."""
    if not loc:
        return "at the top level", GameSpec
    if loc[0] == "seats" and len(loc) >= 2 and isinstance(loc[1], int):
        i = loc[1]
        name = None
        seats = raw.get("seats") if isinstance(raw, dict) else None
        if isinstance(seats, list) and i < len(seats) and isinstance(seats[i], dict):
            name = seats[i].get("name")
        if isinstance(name, str) and not name.isprintable():
            name = repr(name)  # a message is one line, whatever the file holds
        label = f"seat {i + 1}" + (f" ({name})" if isinstance(name, str) else "")
        rest = ".".join(str(x) for x in loc[2:])
        model: type[BaseModel] = SeatSpec
        if len(loc) >= 3 and loc[2] == "options":
            agent = seats[i].get("agent") if isinstance(seats, list) and i < len(seats) and isinstance(seats[i], dict) else None
            model = A2AOptions if isinstance(agent, str) and is_a2a_spec(agent) else LLMOptions
        return (f"in {label}" + (f", at {rest}" if rest else "")), model
    return "at " + ".".join(str(x) for x in loc), GameSpec
