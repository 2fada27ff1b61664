"""Test configuration: make the project and the shared helpers importable however
pytest is started (installed with ``pip install -e .`` or run from a bare checkout)."""

from __future__ import annotations

import os
import sys

_TESTS = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(_TESTS)
for _p in (_ROOT, _TESTS):
    if _p not in sys.path:
        sys.path.insert(0, _p)
