"""A bench protocol: the fixed, versioned field a model is measured against.

A protocol file (``arena/bench/protocols/<name>.yaml``, shipped in the package) fixes
everything but the model: the tables, the seating (the model's whole side against one
opponent's whole other side, each deal played twice with the sides swapped, so deal
luck cancels), the seeds, the opponents and their *pars*: for each table, opponent and
the model's side, the Elo rating at which a model wins half its games there. The pars
are measured once, with the reference player in the model's seat
(``benchmarks/bench_calibrate.py``), so the reference player scores 0 on every
protocol and a card's number reads as "Elo above the reference player, against this
field". Changing any of it changes the protocol's digest: a new version, never an edit.
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from arena.tournament.config import Table

Side = Literal["werewolves", "village"]
MODEL = "Model"  # the benched model's participant name in the store and the transcripts' headers


class ProtocolError(ValueError):
    """A protocol that cannot be found or read; the message says which and why."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Opponent(_Strict):
    name: str
    agent: str
    options: dict[str, Any] | None = None
    # Its own rating on the protocol's scale, measured by benching it (benchmarks/bench_calibrate.py
    # --rate-opponents; None: not measured yet). Informative: the pars are what the fit reads.
    rating: float | None = None


class Par(_Strict):
    """The Elo at which the model wins half its games at ``table`` against ``opponent`` on ``side``."""

    table: int = Field(ge=0)
    opponent: str
    side: Side
    elo: float
    games: int = Field(ge=0)  # the calibration games it was measured on


class Protocol(_Strict):
    name: str
    version: int = Field(ge=1)
    description: str = ""
    seed: int
    tables: list[Table] = Field(min_length=1)
    opponents: list[Opponent] = Field(min_length=1)
    pars: list[Par]
    target: float = Field(gt=0, description="stop once the 95% interval is narrower than +- this many Elo")
    batch: int = Field(ge=1, description="deals between two looks at the interval")
    max_deals: int = Field(ge=1)
    alpha: float = Field(default=0.05, gt=0, lt=1)
    seconds_per_call: float = Field(default=3.0, gt=0, description="a model call's expected time, for the time estimate")
    concurrency: int = Field(default=4, ge=1, description="model games in flight")
    comparable: bool = True  # False: a protocol for tests and smoke runs, whose numbers are not for boards

    @model_validator(mode="after")
    def _complete(self) -> "Protocol":
        names = {o.name for o in self.opponents}
        if MODEL in names:
            raise ValueError(f"an opponent may not be named {MODEL}")
        have = {(p.table, p.opponent, p.side) for p in self.pars}
        need = {(t, o, s) for t in range(len(self.tables)) for o in names for s in ("werewolves", "village")}
        if have != need:
            missing = sorted(need - have)[:3]
            extra = sorted(have - need)[:3]
            raise ValueError(f"pars must cover every table, opponent and side exactly once (missing {missing}, unknown {extra})")
        return self

    def par(self, table: int, opponent: str, side: str) -> float:
        return next(p.elo for p in self.pars if (p.table, p.opponent, p.side) == (table, opponent, side))

    def deal(self, d: int) -> tuple[int, str]:
        """(table, opponent) of deal ``d``: the tables in turn, then the opponents, so a
        batch of ``len(tables) * len(opponents)`` deals meets every cell once."""
        t = d % len(self.tables)
        return t, self.opponents[(d // len(self.tables)) % len(self.opponents)].name

    @property
    def digest(self) -> str:
        data = self.model_dump(mode="json")
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]

    @property
    def label(self) -> str:
        return f"{self.name}@{self.version}"


def shipped() -> list[str]:
    """The protocols shipped in the package, by name."""
    folder = resources.files("arena.bench") / "protocols"
    return sorted(p.name[: -len(".yaml")] for p in folder.iterdir() if p.name.endswith(".yaml"))


def load_protocol(name: str) -> Protocol:
    """A shipped protocol by name (``v1``), or a protocol file by path."""
    path = Path(name)
    if path.suffix in (".yaml", ".yml") and path.exists():
        text, where = path.read_text(encoding="utf-8"), str(path)
    else:
        if name not in shipped():
            raise ProtocolError(f"no bench protocol '{name}' (shipped: {', '.join(shipped())}; or give a .yaml file)")
        text = (resources.files("arena.bench") / "protocols" / f"{name}.yaml").read_text(encoding="utf-8")
        where = f"protocol {name}"
    try:
        return Protocol.model_validate(yaml.safe_load(text))
    except yaml.YAMLError as e:
        raise ProtocolError(f"{where}: not YAML ({e})") from None
    except ValidationError as e:
        first = e.errors()[0]
        loc = ".".join(str(x) for x in first["loc"])
        raise ProtocolError(f"{where}: {loc}: {first['msg']}") from None
