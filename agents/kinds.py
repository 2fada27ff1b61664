"""The agent registry's one lazy loader: each kind of seat that costs something to
load, and the module that makes it, imported by the first seat of that kind.

Why lazily, and why here: every process that plays or reads a game imports the
registry (``agents.registry``), but a table of random bots never needs the
heuristic's tables, a bot game never needs the terminal (asyncio, rich) or numpy
(the reasoner), and nothing but a model seat needs the model machinery. So the
registry names a kind's module instead of importing it, and this module imports it
on first use (``importlib``, cached by Python as any import is). The modules named
here import everything they use at their top.

The typed accessors below are the only way in, so a caller keeps its types and the
table stays the one place that knows which module holds what.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, Literal

if TYPE_CHECKING:
    from agents.heuristic import HeuristicAgent, HeuristicOptions
    from agents.human import HumanAgent
    from agents.llm.agent import LLMAgent
    from agents.reasoner.agent import ReasonerAgent

Kind = Literal["heuristic", "reasoner", "human", "llm"]

MODULES: dict[Kind, str] = {
    "heuristic": "agents.heuristic",  # the bot's tables and pydantic options
    "reasoner": "agents.reasoner.agent",  # numpy, the belief over roles
    "human": "agents.human",  # the terminal: asyncio and rich
    "llm": "agents.llm.factory",  # the model seat, its prompts and schemas (a vendor's SDK loads with its back end)
}


def load(kind: Kind) -> ModuleType:
    """The module that makes seats of ``kind``, imported the first time it is asked for."""
    return importlib.import_module(MODULES[kind])


def heuristic_agent() -> type[HeuristicAgent]:
    cls: type[HeuristicAgent] = load("heuristic").HeuristicAgent
    return cls


def heuristic_options() -> type[HeuristicOptions]:
    cls: type[HeuristicOptions] = load("heuristic").HeuristicOptions
    return cls


def reasoner_agent() -> type[ReasonerAgent]:
    cls: type[ReasonerAgent] = load("reasoner").ReasonerAgent
    return cls


def human_agent() -> type[HumanAgent]:
    cls: type[HumanAgent] = load("human").HumanAgent
    return cls


def llm_maker() -> Callable[..., LLMAgent]:
    """``agents.llm.factory.make_llm_agent``: a model seat from its spec."""
    maker: Callable[..., Any] = load("llm").make_llm_agent
    return maker
