"""A listener's twin: a copy of its agent, asked in one arm of the comparison.

Each arm asks its own twin, made the moment the listener's vote is asked (before its
own agent answers it in the replay), so the arms cannot see each other's question and
the game's agents are left exactly as the replay needs them. What a twin keeps and
what it forgets is the agent's business:

- **the heuristic bot and the reasoner** forget what they digested from their view
  and read the view they are handed from the start (their memory, and the reasoner's
  belief, are a digest of the view, nothing else); they keep their own state: their
  random streams *at their current position* (so both arms draw the same numbers: the
  only difference between them is the speech) and their plans (what they have said is
  in the record, identical in both arms). They read alone, never through the game's
  shared tables of public facts, which a view with another speech in it would
  corrupt. The reasoner's belief also asks its posterior at the moments the seat
  asked it in the game (``SeatBelief.twin``): where the deck is too rich to list, the
  rows it samples depend on when it was asked.
- **the random bot** and **scripted seats** never read their view: copied as they are,
  they answer both arms alike (nobody can move them, and the measure says so).
- **a model seat** rebuilds its context from the view at every call: the twin is the
  seat with a call log of its own (its calls are the persuasion record's, never the
  game's) and a twin of its fallback bot.
- **any other agent** (an agent of one's own, ``py:MODULE:CLASS``) is seated afresh
  with the seat's seed, as ``play --resume`` seats it, and handed the arm's view: it
  knows nothing but that view, in either arm.

A person is never asked again (``twin`` returns ``None``).
"""

from __future__ import annotations

import copy
import random
import sys
from functools import singledispatch
from typing import TYPE_CHECKING, Any, Callable, Protocol, TypeVar

from agents.base import Agent
from agents.heuristic import HeuristicAgent
from agents.heuristic_memory import Memory
from agents.llm.accounting import CallLog
from agents.random_agent import RandomAgent
from agents.scripted import ScriptedAgent

if TYPE_CHECKING:
    from agents.reasoner.agent import ReasonerAgent

Fresh = Callable[[], Agent]  # the seat's agent made anew, as ``play --resume`` seats it


def _rng(r: random.Random | None) -> random.Random | None:
    """A generator at ``r``'s position (made without seeding: ``setstate`` sets it all)."""
    if r is None:
        return None
    out = random.Random.__new__(random.Random)
    out.setstate(r.getstate())
    return out


class _Reader(Protocol):
    """A bot that digests its view into a memory (the heuristic bot, the reasoner)."""

    name: str
    rng: random.Random
    plan: dict[str, Any]
    memory: Memory


R = TypeVar("R", bound=_Reader)


def _rereading(agent: R) -> R:
    """``agent`` with what it read forgotten and everything else kept: its generator at
    its position, its plans, and a memory that reads the arm's view alone."""
    t = copy.copy(agent)
    t.rng = _rng(agent.rng)  # type: ignore[assignment]
    t.plan = copy.deepcopy(agent.plan)
    t.memory = Memory.alone(agent.name)
    return t


@singledispatch
def own_twin(agent: Agent) -> Agent | None:
    """The twin an agent class knows how to make; ``None`` for a class that has none
    registered (seated afresh instead, ``twin``)."""
    return None


@own_twin.register
def _(agent: HeuristicAgent) -> Agent:
    t = _rereading(agent)
    t.noise_rng = _rng(agent.noise_rng)
    return t


@own_twin.register
def _(agent: RandomAgent) -> Agent:
    t = copy.copy(agent)
    t.rng = _rng(agent.rng)  # type: ignore[assignment]
    return t


@own_twin.register
def _(agent: ScriptedAgent) -> Agent:
    return copy.deepcopy(agent)


def _reasoner_twin(agent: ReasonerAgent) -> Agent:
    """The reasoner: the heuristic twin's rereading, and a belief that reads alone and
    asks its posterior where the seat asked it (``SeatBelief.twin``)."""
    t = _rereading(agent)
    t.belief = agent.belief.twin()
    return t


def _model_twin(agent: Any) -> Agent:
    """A model seat (``agents.llm.agent.LLMAgent``) with a call log of its own."""
    t = copy.copy(agent)
    t.calls = CallLog()
    t._cuts = list(agent._cuts)
    t._kept_poison = None
    t.rng = _rng(agent.rng)
    t.fallback_agent = own_twin(agent.fallback_agent)
    return t


# Twins of the classes whose modules are loaded only by the specs that need them
# (numpy and the belief for the reasoner, the clients for a model): registered once
# their module is loaded, so a heuristic table never loads them.
_LAZY: dict[str, tuple[str, Callable[[Any], Agent]]] = {
    "agents.reasoner.agent": ("ReasonerAgent", _reasoner_twin),
    "agents.llm.agent": ("LLMAgent", _model_twin),
}


def _register_loaded() -> None:
    for name, (cls_name, make) in _LAZY.items():
        module = sys.modules.get(name)
        if module is not None:
            cls = getattr(module, cls_name)
            if cls not in own_twin.registry:
                own_twin.register(cls, make)


def twin(agent: Agent, fresh: Fresh | None = None) -> Agent | None:
    """``agent``'s twin for one arm (see the module docstring); ``fresh`` seats the
    seat's agent anew, for a class with no twin of its own. ``None`` for a person, or
    when there is no way to make one."""
    if getattr(agent, "spec", None) == "human":
        return None
    _register_loaded()
    made = own_twin(agent)
    if made is not None:
        return made
    return fresh() if fresh is not None else None
