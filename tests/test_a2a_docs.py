"""docs/REMOTE_AGENTS.md stays true to the code: every decision kind the engine
declares has its row in the table of kinds (a remote agent's author reads it to know
every question it may be asked), no row names a kind that does not exist, and every
JSON example is JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path

from engine.roles import DECISION_KINDS

DOC = Path(__file__).resolve().parents[1] / "docs" / "REMOTE_AGENTS.md"


def table_kinds() -> dict[str, str]:
    """kind -> shape, from the table of every decision kind."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("### Every decision kind", 1)[1].split("\n### ", 1)[0]
    return dict(re.findall(r"^\| `([a-z_]+)` \| ([a-z]+) \|", section, re.M))


def test_every_decision_kind_has_its_row_with_its_shape():
    rows = table_kinds()
    assert set(DECISION_KINDS) <= set(rows), f"missing from the table: {sorted(set(DECISION_KINDS) - set(rows))}"
    assert set(rows) - set(DECISION_KINDS) == {"beliefs"}, "the table names a kind the engine does not declare"
    for kind, spec in DECISION_KINDS.items():
        assert rows[kind] == str(spec.shape), kind


def test_the_json_examples_are_json():
    blocks = re.findall(r"^```json\n(.*?)^```", DOC.read_text(encoding="utf-8"), re.S | re.M)
    assert len(blocks) >= 6
    for block in blocks:
        json.loads(block)
