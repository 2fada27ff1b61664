"""The tournament file: who plays, at which tables, how many games, under which limits.

Written by hand and re-run for weeks, so every mistake comes back as one sentence
naming the key (unknown keys are refused), and every table is dealt once up front so a
deck the rules cannot play fails before the first game, not in the middle of the night.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from agents.a2a.spec import A2AOptions, agent_url
from agents.custom import is_custom_spec, load_class
from agents.llm import is_model_spec, split_spec
from agents.llm.config import LLMOptions, endpoint_fields
from agents.llm.pricing import PriceError, table_from
from agents.registry import check_bot_options, is_remote_spec, near_miss
from arena.endpoints import endpoint_refusal, remote_seat_refusal, trusted
from arena.gamefile import GameFileError, check_size
from engine.game import Game
from engine.options import coerce_options
from engine.presets import get_preset
from engine.setup import GameSetup, SetupError
from prompts.catalog import LANGUAGES
import transcripts.bounded as bounded
from arena.monitor.monitors import BUILTIN

BOT_AGENTS = ("heuristic", "reasoner", "random")
# Why bounded: the plan is built (and balanced) in full before the first game, at about
# 0.4 ms a game, so 20,000 games plan in seconds and ``games: 1e11`` is refused at once.
MAX_GAMES = 20_000  # games in one tournament, mirrors included
MAX_PARTICIPANTS = 200


class ConfigError(ValueError):
    """A tournament file that cannot be run; the message says what is wrong."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Participant(_Strict):
    """One contestant: an agent spec under a display name, with its own settings."""

    name: str = Field(min_length=1)
    agent: str
    # model seats: LLMOptions (temperature, base_url, ...); a2a:URL: A2AOptions
    # (time limits, token_env, ...); heuristic: {noise: P}; py:MODULE:CLASS: the
    # mapping its class reads
    options: dict[str, Any] | None = None

    @property
    def is_model(self) -> bool:
        return is_model_spec(self.agent)

    @property
    def is_remote(self) -> bool:
        """Played outside this process (a model, an agent over A2A): in games on the
        event loop, with its calls recorded."""
        return is_remote_spec(self.agent)

    @model_validator(mode="after")
    def _check(self) -> "Participant":
        if self.agent in ("scripted", "human"):
            raise ValueError(f"participant {self.name}: agent '{self.agent}' cannot play a tournament (heuristic, reasoner, random or a model spec)")
        if self.is_remote:
            if self.is_model:
                split_spec(self.agent)
            else:
                agent_url(self.agent)
            try:
                (LLMOptions if self.is_model else A2AOptions).model_validate(self.options or {})
            except ValidationError as e:
                first = e.errors()[0]
                where = ".".join(str(x) for x in first["loc"])
                raise ValueError(f"participant {self.name}: options.{where}: {first['msg']}") from None
        elif self.agent not in BOT_AGENTS and not is_custom_spec(self.agent):
            raise ValueError(
                f"participant {self.name}: unknown agent '{self.agent}'{near_miss(self.agent)} (heuristic, reasoner, random, py:MODULE:CLASS, a2a:URL, or a model spec: openai:MODEL, anthropic:MODEL, langchain:PROVIDER:MODEL, litellm:MODEL)"
            )
        else:
            try:
                if is_custom_spec(self.agent):
                    load_class(self.agent)  # a typo fails now, not in the first game
                self.options = check_bot_options(self.agent, self.options)
            except ValueError as e:
                raise ValueError(f"participant {self.name}: {e}") from None
        return self

    def llm_options(self) -> dict[str, Any]:
        """The seat options of a model or remote participant, named after the
        participant in transcripts and summaries."""
        return {"display_name": self.name, **(self.options or {})}


class Table(_Strict):
    """A table kind: the rules and the deck. Games cycle through the tables in order."""

    preset: str = "millers_hollow"
    players: int = Field(ge=3, le=30)
    roles: list[str] | None = None  # the deck; default: the preset's recommended one
    options: dict[str, Any] = Field(default_factory=dict)

    def deck(self) -> list[str]:
        if self.roles is not None:
            return list(self.roles)
        return get_preset(self.preset).deck(self.players)

    def label(self) -> str:
        return f"{self.preset}/{self.players}"


class Concurrency(_Strict):
    games: int = Field(default=4, ge=1, description="games in flight at once when model seats play")
    calls: int = Field(default=32, ge=1, description="model calls in flight at once, all games together")
    per_model: dict[str, Annotated[int, Field(ge=1)]] = Field(default_factory=dict, description="a cap per model spec or model id")
    default_per_model: int = Field(default=8, ge=1)
    processes: int = Field(default=1, ge=1, description="worker processes for bot-only games")
    # Where bot-only games run: here (a process pool), or as tasks on a Ray cluster
    # (arena.tournament.ray_backend); ``address`` is Ray's (auto, ray://HOST:PORT, or
    # empty for a private local instance), ``tasks`` the games in flight on it.
    backend: Literal["local", "ray"] = "local"
    address: str | None = None
    tasks: int | None = Field(default=None, ge=1, description="bot games in flight on Ray (default: twice its CPUs)")

    @model_validator(mode="after")
    def _ray_only(self) -> "Concurrency":
        if self.backend != "ray" and (self.address is not None or self.tasks is not None):
            raise ValueError("concurrency.address and concurrency.tasks need backend: ray")
        return self


class Rating(_Strict):
    """What the leaderboard's Bradley-Terry fit reads (``arena.ratings.margin``): the
    winner only, or the winner and how far the game went its way."""

    outcome: Literal["win", "margin"] = "win"


class Adaptive(_Strict):
    """Adaptive scheduling (``arena.tournament.adaptive``): after a warm-up, each batch
    spreads half its games over the ordered pairs played least and gives the rest to
    the pairs whose difference is least certain, weighted to the pairs estimated within
    about ``resolution`` Elo of each other."""

    warmup: int | None = Field(default=None, ge=1, description="deals of the plain schedule first (default: one cycle of ordered pairs per table)")
    batch: int = Field(default=10, ge=1, description="deals chosen at a time (a tenth of those played, when more)")
    resolution: float = Field(default=75.0, gt=0, description="Elo: the gaps the results-led half of each batch concentrates on (a pair's weight is exp(-(gap / resolution)²))")


class Persuasion(_Strict):
    """``persuasion:``: after each game, a share of its accusing speeches is measured by
    re-asking their listeners without them (``arena.persuasion``, docs/PERSUASION.md)."""

    speeches: float = Field(default=0.25, gt=0, le=1, description="the share of the measurable speeches measured")
    repeats: int = Field(default=3, ge=1, le=100, description="asks per arm of each model listener (a bot is asked once)")


class TournamentConfig(_Strict):
    name: str = "tournament"
    seed: int = 0
    games: int = Field(ge=1, le=MAX_GAMES, description="games to play (deals, when mirrored or duplicate)")
    mirror: bool = False
    seating: Literal["mixed", "teams", "duplicate"] = "mixed"  # duplicate: one side fixed per deal, replayed for each other participant
    tables: list[Table] = Field(min_length=1)
    participants: list[Participant] = Field(min_length=1, max_length=MAX_PARTICIPANTS)
    concurrency: Concurrency = Field(default_factory=Concurrency)
    budget_usd: float | None = Field(default=None, gt=0)
    language: str = "en"
    prices: str | None = None  # a YAML/JSON price table (USD per 1M tokens), relative to the file
    beliefs: bool = False  # seats privately rate each other's P(wolf) as each vote opens (arena.beliefs)
    persuasion: Persuasion | None = None  # measure what speeches cause, after each game (arena.persuasion)
    sign_key: str | None = None  # an Ed25519 private key file signing every game's transcript, relative to the file
    rating: Rating = Field(default_factory=Rating)
    adaptive: Adaptive | None = None  # None: the whole plan is fixed up front
    # A monitor (``words`` or a model spec) rates every seat-day's private reasoning and
    # public words, each game as it finishes, its spending in ``budget_usd`` and its model
    # checked before the first game (``arena.monitor.live``, docs/TOURNAMENTS.md).
    monitor: str | None = None
    # Seat names: ``shuffled`` draws each game's from the documented pool
    # (``arena.gamefile.NAMES``, 30 names, then "Player 31" on), so a name effect cannot
    # follow a participant; ``fixed`` gives seat k the pool's k-th name every game (a
    # name then goes with a position); a list is a pool of one's own, drawn per game.
    names: Literal["shuffled", "fixed"] | list[str] = "shuffled"
    # A participant whose rating the leaderboard pins at 0, every other rating then read
    # relative to it (docs/RATINGS.md, "An anchor"): tournaments sharing the anchor compare.
    anchor: str | None = None
    # Start even when a model's endpoint does not answer the check before the first game
    # (``arena.preflight``): a warning, and the games ask that model as usual, its
    # fallback bot playing each decision the model does not answer.
    allow_fallbacks: bool = False

    @field_validator("participants")
    @classmethod
    def _unique(cls, v: list[Participant]) -> list[Participant]:
        seen: set[str] = set()
        for p in v:
            if p.name in seen:
                raise ValueError(f"two participants are named '{p.name}'")
            seen.add(p.name)
        return v

    @field_validator("monitor")
    @classmethod
    def _monitor(cls, v: str | None) -> str | None:

        if v is not None and v not in BUILTIN:
            try:
                split_spec(v)
            except ValueError as e:
                raise ValueError(f"monitor: {e} (or words, the built-in baseline)") from None
        return v

    @field_validator("names")
    @classmethod
    def _names(cls, v: Any) -> Any:
        if isinstance(v, list):
            bad = [n for n in v if not n.strip() or n != n.strip()]
            if bad:
                raise ValueError(f"names: {bad[0]!r} is not a name (no blank or padded names)")
            if len(set(v)) != len(v):
                raise ValueError("names: the pool names someone twice")
        return v

    @model_validator(mode="after")
    def _pool_fits(self) -> "TournamentConfig":
        if isinstance(self.names, list):
            most = max(t.players for t in self.tables)
            if len(self.names) < most:
                raise ValueError(f"names: a pool of {len(self.names)} cannot name the {most} seats of the largest table")
        return self

    @model_validator(mode="after")
    def _anchor(self) -> "TournamentConfig":
        if self.anchor is not None and self.anchor not in {p.name for p in self.participants}:
            names = ", ".join(p.name for p in self.participants)
            raise ValueError(f"anchor '{self.anchor}' is not a participant (participants: {names})")
        return self

    @field_validator("language")
    @classmethod
    def _language(cls, v: str) -> str:
        if v not in LANGUAGES:  # bots speak it too: never a path, always a known language
            raise ValueError(f"language must be one of {', '.join(LANGUAGES)}")
        return v

    @model_validator(mode="after")
    def _size(self) -> "TournamentConfig":
        """Mirrors replay each deal once per participant at its table, duplicate deals once
        per other participant: bound the product."""
        per_deal = 1
        if self.mirror:
            per_deal = min(len(self.participants), max(t.players for t in self.tables))
        elif self.seating == "duplicate":
            per_deal = max(1, len(self.participants) - 1)
        if self.games * per_deal > MAX_GAMES:
            raise ValueError(
                f"games: {self.games} deals of up to {per_deal} games each exceed the limit of "
                f"{MAX_GAMES:,} games in one tournament; plan fewer deals"
            )
        return self

    @model_validator(mode="after")
    def _designs(self) -> "TournamentConfig":
        if self.seating == "duplicate" and self.mirror:
            raise ValueError("seating: duplicate already replays every deal; mirror: true does not apply to it")
        if self.adaptive is not None and self.seating != "teams":
            raise ValueError(
                "adaptive: needs seating: teams (each game one participant's pack against another's village, "
                "so a game can be spent on one pair)"
            )
        if self.adaptive is not None and len(self.participants) < 2:
            raise ValueError("adaptive: needs at least two participants")
        return self

    @property
    def has_models(self) -> bool:
        """Any participant played outside this process (a model, a remote agent)."""
        return any(p.is_remote for p in self.participants)

    def participant(self, name: str) -> Participant:
        return next(p for p in self.participants if p.name == name)

    def check_tables(self) -> None:
        """Deal each table once with forced roles, as the games will, so a bad deck or
        option fails now with the engine's own words."""
        for i, t in enumerate(self.tables, start=1):
            try:
                preset = get_preset(t.preset)
                opts = preset.options(coerce_options(t.options))
                deck = t.deck()
                names = [f"p{k}" for k in range(t.players)]
                seat_cards = deck[: t.players] if len(deck) == t.players + 2 else deck
                Game(GameSetup(names=names, preset=t.preset, seed=0, options=opts, roles=deck, forced=dict(zip(names, seat_cards))))
            except (SetupError, ValueError) as e:
                raise ConfigError(f"table {i} ({t.label()}): {e}") from None

    def check_budget(self) -> None:
        """A cap is only a cap if every model's calls have a price."""
        if self.budget_usd is None:
            return
        table = self.price_table()
        for p in self.participants:
            if p.is_model:
                vendor, model = split_spec(p.agent)
                if table.lookup(model, vendor) is None:
                    raise ConfigError(
                        f"budget_usd needs a price for every model, and {p.agent} ({p.name}) has none: add it to a prices: file"
                    )
        if self.monitor is not None and self.monitor not in BUILTIN:
            vendor, model = split_spec(self.monitor)
            if table.lookup(model, vendor) is None:
                raise ConfigError(f"budget_usd counts the monitor's calls too, and {self.monitor} has no price: add it to a prices: file")

    def price_table(self):
        try:
            return table_from(self.prices)
        except PriceError as e:
            raise ConfigError(str(e)) from None


def load_config(path: str | Path, *, trust_endpoints: bool = False) -> TournamentConfig:
    """Read and check a tournament file; every problem is a ``ConfigError`` naming it.
    A participant's ``base_url``/``api_key_env`` is refused unless ``trust_endpoints``
    (they choose where an API key is sent; ``agents.llm.config``)."""
    p = Path(path)
    try:
        text = bounded.read_text(p, bounded.TOURNAMENT_FILE)
    except OSError as e:
        raise ConfigError(f"cannot read tournament file {p}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"cannot read tournament file {p}: not UTF-8 text (byte {e.start})") from None
    try:
        raw = bounded.loads(text, bounded.format_of(p))
        check_size(raw, str(p))
    except bounded.InputError as e:
        raise ConfigError(f"{p}: {e}") from None
    except GameFileError as e:
        raise ConfigError(str(e)) from None
    cfg = config_from_data(raw, where=str(p))
    if not trust_endpoints:
        for part in cfg.participants:
            try:
                refused = remote_seat_refusal(part, str(p), f"participant {part.name}")
            except GameFileError as e:  # the user's own config file cannot be read
                raise ConfigError(str(e)) from None
            if refused is not None:
                raise ConfigError(refused)
            fields = endpoint_fields(part.options)
            try:
                ok = not fields or trusted(part.options)
            except GameFileError as e:  # the user's own config file cannot be read
                raise ConfigError(str(e)) from None
            if not ok:
                raise ConfigError(endpoint_refusal(str(p), f"participant {part.name}", f"options.{fields[0]}"))
    if cfg.prices is not None and not Path(cfg.prices).is_absolute():
        cfg = cfg.model_copy(update={"prices": str(p.parent / cfg.prices)})
    if cfg.sign_key is not None and not Path(cfg.sign_key).is_absolute():
        cfg = cfg.model_copy(update={"sign_key": str(p.parent / cfg.sign_key)})
    try:
        cfg.check_budget()
    except ConfigError as e:
        raise ConfigError(f"{p}: {e}") from None
    return cfg


def config_from_data(raw: Any, where: str = "tournament file") -> TournamentConfig:
    if not isinstance(raw, dict):
        raise ConfigError(f"{where}: expected a mapping (seed, games, tables, participants, ...)")
    try:
        cfg = TournamentConfig.model_validate(raw)
    except ValidationError as e:
        raise ConfigError(f"{where}: {describe(e)}") from None
    try:
        cfg.check_tables()
    except ConfigError as e:
        raise ConfigError(f"{where}: {e}") from None
    return cfg


def describe(err: ValidationError) -> str:
    """pydantic's first errors as sentences that name the key."""
    msgs = []
    for e in err.errors()[:3]:
        loc = ".".join(str(x) for x in e["loc"])
        if e["type"] == "extra_forbidden":
            msgs.append(f"unknown key '{e['loc'][-1]}'" + (f" at {'.'.join(str(x) for x in e['loc'][:-1])}" if len(e["loc"]) > 1 else ""))
        elif e["type"] == "missing":
            msgs.append(f"missing key '{loc}'")
        else:
            msg = e["msg"].removeprefix("Value error, ")
            msgs.append(f"{loc}: {msg}" if loc else msg)
    return "; ".join(msgs)
