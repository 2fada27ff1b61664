"""The local stand-in of the vendors' APIs now lives in the package
(``arena/standin_server.py``), so ``werewolf bench`` can measure tokens per decision
with it; this name stays for the tests and benchmarks that import it from here."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from arena.standin_server import *  # noqa: E402,F403
from arena.standin_server import Fault, RequestStat, StandInServer, answer, legal_instance, sse_chunks  # noqa: E402,F401
