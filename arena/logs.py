"""Logging for the ``werewolf`` command: ``--log-level`` and what a log line may hold.

Two rules make a log safe to paste into an issue or to show at a shared table:

- No key: every formatted line (message, arguments, traceback) goes through the same
  scrubbing as the transcripts' call records (``agents.llm.accounting.redact``: the
  values of secret-looking environment variables and keys given in code, and anything
  shaped like a key).
- No hidden information: this project's log lines name games, seats, models and
  counts, never a role, a night action, a prompt or a private reasoning (a person may
  be reading the same terminal). Third-party libraries log whole requests at DEBUG
  (the prompt holds the seat's role), so ``--log-level`` raises only this project's
  loggers; the others stay at WARNING.
"""

from __future__ import annotations

import logging
import sys
from typing import IO

LEVELS = ("debug", "info", "warning", "error", "critical")
# This project's loggers live under one name (``werewolf.llm``, ``werewolf.tournament``...):
# the one ``--log-level`` sets.
NAMESPACE = "werewolf"
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class RedactingFormatter(logging.Formatter):
    """A formatter whose every output is scrubbed of keys, tracebacks included."""

    def format(self, record: logging.LogRecord) -> str:
        # Imported at the first line logged, not at the top: the ``werewolf`` entry point
        # imports this module, and ``agents.llm.accounting`` loads the ``agents`` package
        # (every kind of agent, through its registry), which ``werewolf --help`` never needs.
        from agents.llm.accounting import redact

        return redact(super().format(record))


class _Stderr(logging.StreamHandler):
    """Writes to whatever ``sys.stderr`` is at the time of the line (a test's capture,
    a redirected stream), not the one the handler was made with."""

    @property
    def stream(self) -> IO[str]:
        return sys.stderr

    @stream.setter
    def stream(self, value: IO[str]) -> None:
        pass


_handler: logging.Handler | None = None


def configure(level: str | None = None) -> logging.Handler:
    """Install (once) the scrubbing handler on the root logger and set this project's
    loggers to ``level`` (default ``warning``: what Python prints without set-up)."""
    global _handler
    name = (level or "warning").lower()
    if name not in LEVELS:
        raise ValueError(f"log level must be one of {', '.join(LEVELS)}, not {level!r}")
    root = logging.getLogger()
    if _handler is None or _handler not in root.handlers:
        _handler = _Stderr()
        _handler.setFormatter(RedactingFormatter(FORMAT))
        root.addHandler(_handler)
        if root.level == logging.NOTSET or root.level > logging.WARNING:
            root.setLevel(logging.WARNING)
    logging.getLogger(NAMESPACE).setLevel(name.upper())
    return _handler
