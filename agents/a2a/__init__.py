"""Remote seats: ``a2a:URL``, an agent anywhere that speaks the A2A protocol
(docs/REMOTE_AGENTS.md).

``make_a2a_agent("a2a:http://127.0.0.1:9100", "Alice")`` is what the registry calls.
Reading a spec (``agents.a2a.spec``) loads nothing more; the SDK (``pip install
'werewolf-arena[a2a]'``) is imported only when a remote seat is made.
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any

from agents.a2a.spec import PREFIX, A2AOptions, agent_url, is_a2a_spec, is_loopback

if TYPE_CHECKING:
    from agents.a2a.agent import A2AAgent

# What make_a2a_agent takes besides A2AOptions' own fields: the table's wiring.
RUNTIME_KEYS = ("log", "limits", "preset", "rules", "language", "sleep", "token", "prices")


def make_a2a_agent(spec: str, name: str, *, seed: int = 0, **kwargs: Any) -> "A2AAgent":
    """A remote seat from ``a2a:URL``.

    ``kwargs`` are ``A2AOptions`` fields (or ``options=`` as a mapping or model) and
    the wiring: ``log`` (a shared ``CallLog``), ``limits``, ``preset``, ``rules``,
    ``language``, ``sleep`` (tests), ``token`` (Python use: the token itself). Raises
    ``ValueError`` for a bad address or option, or a token variable that is not set,
    and ``ImportError`` naming the extra to install when the SDK is missing."""
    url = agent_url(spec)
    options = kwargs.pop("options", None)
    runtime = {k: kwargs.pop(k) for k in list(kwargs) if k in RUNTIME_KEYS}
    if isinstance(options, A2AOptions):
        options = options.model_dump(exclude_unset=True)
    opts = A2AOptions.model_validate({**(options or {}), **kwargs})
    token = runtime.get("token")
    if token is None and opts.token_env:
        token = os.environ.get(opts.token_env)
        if not token:
            raise ValueError(f"{spec} needs a bearer token: set {opts.token_env} (options.token_env)")
    return _agent_class()(
        name,
        url,
        options=opts,
        token=token,
        spec=spec,
        seed=seed,
        preset=runtime.get("preset"),
        rules=runtime.get("rules"),
        language=runtime.get("language") or "en",
        log=runtime.get("log"),
        limits=runtime.get("limits"),
        sleep=runtime.get("sleep"),
    )


def _agent_class() -> type[A2AAgent]:
    """The remote seat's class: its module imports the A2A SDK, so it is imported by the
    first remote seat (or the first read of ``agents.a2a.A2AAgent``), not with this face."""
    try:
        cls: type[A2AAgent] = importlib.import_module("agents.a2a.agent").A2AAgent
    except ImportError as e:
        raise ImportError(f"the a2a-sdk package is needed for a2a: seats ({e}); pip install 'werewolf-arena[a2a]'") from None
    return cls


def __getattr__(name: str) -> Any:
    if name == "A2AAgent":
        return _agent_class()
    raise AttributeError(name)


__all__ = ["PREFIX", "A2AAgent", "A2AOptions", "agent_url", "is_a2a_spec", "is_loopback", "make_a2a_agent"]
