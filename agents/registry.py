"""Agent specs (CONTRACT.md 3b, 6): ``heuristic``, ``reasoner``, ``random``, ``scripted``, ``human``,
``openai:MODEL``, ``anthropic:MODEL``, ``langchain:PROVIDER:MODEL``,
``langchain:MODULE:FACTORY``, ``litellm:MODEL`` (all model specs go to
``agents.llm.make_llm_agent``), ``py:MODULE:CLASS`` (an agent of one's own,
``agents.custom``) and ``a2a:URL`` (an agent elsewhere, over the A2A protocol,
``agents.a2a``). Unknown specs are an error naming the spec."""

from __future__ import annotations

from collections.abc import Callable
from difflib import get_close_matches
from functools import partial
from typing import Any

import agents.kinds as kinds
from agents.a2a import make_a2a_agent
from agents.a2a.spec import is_a2a_spec
from agents.base import Agent
from agents.custom import is_custom_spec, make_custom_agent
from agents.llm import is_model_spec
from agents.random_agent import RandomAgent
from agents.scripted import ScriptedAgent

# The heuristic bot, the reasoner, the human seat and the model seat are loaded by the
# specs that seat them (``agents.kinds``): a process playing random bots (``werewolf
# simulate --agents random``) or reading a transcript never pays for the heuristic's
# tables, numpy or the terminal's asyncio.

AgentMaker = Callable[[int], Agent]  # a seat's agent from its seed: ``agent_maker``'s dispatch done

KNOWN = (
    "heuristic", "reasoner", "random", "scripted", "human", "openai:MODEL", "anthropic:MODEL",
    "langchain:PROVIDER:MODEL", "langchain:MODULE:FACTORY", "litellm:MODEL", "py:MODULE:CLASS", "a2a:URL",
)  # fmt: skip


def near_miss(spec: str) -> str:
    """``"; did you mean 'heuristic'?"`` when ``spec`` is a typo of a known agent (its
    name, or a spec's prefix such as ``openai:``), else ``""``: a newcomer's
    ``--agents huristic`` is told the spelling rather than left to read the list."""
    head, colon, rest = spec.partition(":")
    if colon:
        prefixes = sorted({k.split(":", 1)[0] for k in KNOWN if ":" in k})
        close = get_close_matches(head.lower(), prefixes, n=1, cutoff=0.6)
        return f"; did you mean '{close[0]}:{rest}'?" if close and close[0] != head else ""
    close = get_close_matches(spec.lower(), [k for k in KNOWN if ":" not in k], n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


def is_remote_spec(spec: str) -> bool:
    """A seat whose answers come from outside this process (a model behind an API,
    an agent over A2A): asked without blocking the table, its calls recorded, told
    the rules the engine runs, and never played by the bots' synchronous runner."""
    return is_model_spec(spec) or is_a2a_spec(spec)


def check_bot_options(spec: str, options: dict[str, Any] | None) -> dict[str, Any] | None:
    """A bot seat's ``options:`` checked (``ValueError`` naming the key): the heuristic
    bot takes ``noise``, a ``py:`` class reads its own, the other bots take none."""
    if not options:
        return options
    if spec == "heuristic":
        return kinds.heuristic_options().parse(options).model_dump()
    if is_custom_spec(spec):
        return dict(options)
    raise ValueError(f"agent '{spec}' takes no options (the heuristic bot takes noise; model seats take their settings)")


def make_agent(spec: str, name: str, *, seed: int = 0, answers: dict[str, Any] | None = None, **options: Any) -> Agent:
    """Seat ``name`` with the agent ``spec`` names (``agent_maker``, given the seed)."""
    return agent_maker(spec, name, answers=answers, **options)(seed)


def agent_maker(spec: str, name: str, *, answers: dict[str, Any] | None = None, **options: Any) -> AgentMaker:
    """What seats ``name`` with the agent ``spec`` names, from the seat's seed: the
    spec's dispatch and options read once, so a table dealt under many seeds seats
    its agents without them.

    ``options`` only reach model seats (``agents.llm.make_llm_agent``: sampling, base
    URL, time limits, plus wiring such as a shared call log); bots ignore them, so a
    caller may pass the same wiring to every seat. A human seat reads ``timeout`` and
    ``language`` (its screen's and questions' words); the
    heuristic bot and the reasoner read ``language``, the game's, to speak it; the
    heuristic bot reads ``options`` (a
    mapping: ``noise``, the share of its decisions played as a uniformly random legal
    move). A ``py:MODULE:CLASS`` seat is built with its ``options`` mapping
    (``agents.custom``), and records its fallbacks in ``log``, the game's call log,
    when one is given (``agents.own_seat``); an ``a2a:URL`` seat with its ``A2AOptions`` and the same
    wiring as a model seat.
    """
    if is_custom_spec(spec):
        own, log, language = options.get("options"), options.get("log"), options.get("language")
        return lambda seed: make_custom_agent(spec, name, seed=seed, options=own, log=log, language=language)
    if spec == "random":
        return partial(RandomAgent, name)
    if spec == "scripted":
        return lambda seed: ScriptedAgent(name, answers)
    if spec == "heuristic":
        noise = kinds.heuristic_options().parse(options.get("options") or {}).noise
        language = options.get("language")  # the game's language, if told
        heuristic = kinds.heuristic_agent()
        return lambda seed: heuristic(name, seed=seed, language=language, noise=noise)
    if spec == "reasoner":
        language = options.get("language")
        reasoner = kinds.reasoner_agent()
        return lambda seed: reasoner(name, seed=seed, language=language)
    if spec == "human":  # a person at this terminal; ``timeout`` is seconds per decision, in the game's language
        timeout, language = options.get("timeout"), options.get("language") or "en"
        human = kinds.human_agent()
        return lambda seed: human(name, seed=seed, timeout=timeout, language=language)
    if is_model_spec(spec):
        make_llm_agent = kinds.llm_maker()
        return lambda seed: make_llm_agent(spec, name, seed=seed, **options)
    if is_a2a_spec(spec):  # a remote agent: the table's wiring and its A2AOptions
        return lambda seed: make_a2a_agent(spec, name, seed=seed, **options)
    raise ValueError(f"unknown agent '{spec}' for {name}{near_miss(spec)} (known: {', '.join(KNOWN)})")
