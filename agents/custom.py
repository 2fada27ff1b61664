"""``py:MODULE:CLASS``: an agent of one's own, named by its import path.

The public API (docs/AGENTS.md): a subclass of ``agents.base.Agent`` whose
constructor takes the seat's name, then ``seed`` and ``options`` as keywords::

    class MyAgent(Agent):
        def __init__(self, name: str, *, seed: int = 0, options: dict | None = None): ...
        def decide(self, view: SeatView, decision: Decision) -> Any: ...

``options`` is the seat's (or tournament participant's) ``options:`` mapping as
written, so a class reads its own settings and refuses what it does not know. The
class is looked up when a file is checked, so a typo fails before the first game. It
is seated through ``agents.own_seat``: a move of its that the game cannot take (or a
``decide`` that raises) is the fallback bot's, recorded and told, never a lost game.

Looking a class up imports its module, and importing a module runs its top-level code
before the class can even be checked: naming ``py:MODULE:CLASS`` runs code. So the
arena imports one only from what the user runs as their own (a game file, a tournament
file, the command line, the Python API); ``class_path`` checks a spec's form without
importing, for the places that read someone else's table (``arena.own_code``).
"""

from __future__ import annotations

import importlib
from typing import Any, Callable

from agents.base import Agent
from agents.llm.accounting import CallLog
from agents.own_seat import OwnSeat

PREFIX = "py:"


def is_custom_spec(spec: str) -> bool:
    return spec.startswith(PREFIX)


def class_path(spec: str) -> tuple[str, str]:
    """The module and class ``py:MODULE:CLASS`` names, nothing imported; ``ValueError``
    when the spec is not of that form."""
    module_name, sep, class_name = spec[len(PREFIX):].rpartition(":")
    if not is_custom_spec(spec) or not sep or not module_name.strip() or not class_name.strip():
        raise ValueError(f"'{spec}' should be py:MODULE:CLASS, e.g. py:examples.agents.cautious:CautiousAgent")
    return module_name.strip(), class_name.strip()


def load_class(spec: str) -> type[Agent]:
    """The class ``py:MODULE:CLASS`` names, its module imported (its code run);
    ``ValueError`` saying what is wrong."""
    module_name, class_name = class_path(spec)
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise ValueError(f"agent '{spec}': cannot import module '{module_name}': {e}") from None
    except Exception as e:  # the module's own code failed as it ran: said in one line, no traceback
        raise ValueError(f"agent '{spec}': importing module '{module_name}' failed: {type(e).__name__}: {e}") from None
    cls = getattr(module, class_name, None)
    if cls is None:
        raise ValueError(f"agent '{spec}': module '{module_name}' has no '{class_name}'")
    if not (isinstance(cls, type) and issubclass(cls, Agent)):
        raise ValueError(f"agent '{spec}': '{class_name}' is not a subclass of agents.base.Agent")
    return cls


def make_custom_agent(
    spec: str, name: str, *, seed: int = 0, options: dict[str, Any] | None = None, log: CallLog | None = None, language: str | None = None
) -> OwnSeat:
    """Construct the named class for one seat, seated so that every move it makes is
    one the game can take (``agents.own_seat``: its fallbacks recorded in ``log``, the
    game's call log, and played in ``language``); a constructor that refuses its
    options (``TypeError``/``ValueError``) is reported with the spec and the seat."""
    # The contract of a class of one's own (docs): ``Cls(name, *, seed, options)``,
    # which ``Agent`` itself need not take.
    build: Callable[..., Any] = load_class(spec)
    try:
        agent = build(name, seed=seed, options=dict(options or {}))
    except (TypeError, ValueError) as e:
        raise ValueError(f"agent '{spec}' for {name}: {e}") from None
    if not isinstance(agent, Agent):
        raise ValueError(f"agent '{spec}' for {name}: the class did not build an Agent")
    return OwnSeat(agent, spec, seed=seed, log=log, language=language)
