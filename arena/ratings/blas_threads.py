"""One BLAS thread for the ratings' fits, set before numpy loads.

The fits' matrices are small (participants x games): OpenBLAS's extra threads only
spin, costing CPU the other cores' work needs, and give the same numbers. OpenBLAS
reads ``OPENBLAS_NUM_THREADS`` once, when numpy is first imported, so a command that
computes ratings imports this module before anything that loads numpy (the first
import of ``arena.ratings.cli``); a user's own setting wins.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
