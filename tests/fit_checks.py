"""What the ratings tests check of a batched fit: every replicate solved together
(``fit_many``) keeps the same keys and the same values as its own fit (``fit``)."""

from __future__ import annotations

from typing import Any, Sequence

import pytest


def assert_batched_fits_agree(design: Any, rows: Sequence[Any]) -> list[dict[str, float]]:
    """The batched fits of ``rows``, after checking each against its fit alone."""
    alone = [design.fit(r) for r in rows]
    together = design.fit_many(rows)
    assert [sorted(f) for f in together] == [sorted(f) for f in alone]
    for a, b in zip(alone, together):
        assert [b[k] for k in sorted(a)] == pytest.approx([a[k] for k in sorted(a)], abs=1e-7)
    return together
