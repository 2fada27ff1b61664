"""Every registered role has all its parts.

A role is one module (its RoleSpec, its decision and event kinds, its rule) plus its
words and one test file (CONTRIBUTING.md, "Add a role"). This test walks the
registries, not the source, and names for each role what it still lacks: a preset to
play it in, its card in every prompt language, a question for each decision it is
asked in every language, a heuristic policy for each (the reference players must play
it sensibly), words for each event its module declares, a rules test that deals it,
and its entry in docs/RULES.md. Buildings (The Village) are checked the same way.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from agents.heuristic import POLICIES
from agents.heuristic_roles import ROLE_POLICIES
from engine.buildings.base import BUILDINGS
from engine.decisions import DECISION_KINDS
from engine.events import EVENT_KINDS
from engine.presets import PRESETS
from engine.roles import ROLES
from prompts.catalog import LANGUAGES, catalog

ROOT = Path(__file__).resolve().parents[1]
RULES_DOC = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
RULES_TESTS = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "tests").glob("test_rules_*.py")}


def _module_events(module: str) -> list[str]:
    return sorted(kind for kind, cls in EVENT_KINDS.items() if cls.__module__ == module)


def _decision_parts(kind: str) -> list[str]:
    missing = []
    declared = DECISION_KINDS.get(kind)
    if declared is None or declared is not kind:
        return [f"{kind}: not declared with engine.decisions.decision"]
    for lang in LANGUAGES:
        if not catalog(lang).has(f"decisions.kinds.{kind}"):
            missing.append(f"{kind}: its question in prompts/{lang}/decisions.yaml (kinds.{kind})")
    if kind not in POLICIES and kind not in ROLE_POLICIES and declared.power is None:
        missing.append(f"{kind}: a heuristic policy (agents/heuristic*.py POLICIES), or a declared Power it plays")
    return missing


def _event_parts(module: str) -> list[str]:
    missing = []
    for kind in _module_events(module):
        for lang in LANGUAGES:
            if not catalog(lang).has(f"events.{kind}"):
                missing.append(f"event {kind}: its words in prompts/{lang}/events.yaml")
    return missing


def role_parts_missing(role_id: str) -> list[str]:
    spec = ROLES[role_id]
    missing = []
    if not spec.presets or any(p not in PRESETS for p in spec.presets):
        missing.append(f"presets that exist (has {spec.presets})")
    for lang in LANGUAGES:
        for part in ("name", "summary", "card"):
            if not catalog(lang).has(f"roles.roles.{role_id}.{part}"):
                missing.append(f"its {part} in prompts/{lang}/roles.yaml (roles.{role_id}.{part})")
    for kind in spec.decisions:
        missing += _decision_parts(kind)
    module = sys.modules.get(f"engine.roles.{role_id}")
    if module is not None:
        missing += _event_parts(module.__name__)
    if not any(f'"{role_id}"' in text for text in RULES_TESTS.values()):
        missing.append("a rules test that deals it (tests/test_rules_*.py)")
    if spec.name not in RULES_DOC:
        missing.append(f"its section in docs/RULES.md (by its name, {spec.name})")
    return missing


@pytest.mark.parametrize("role_id", sorted(ROLES))
def test_every_role_has_all_its_parts(role_id: str) -> None:
    missing = role_parts_missing(role_id)
    assert not missing, f"role {role_id} lacks:\n  " + "\n  ".join(missing)


@pytest.mark.parametrize("building_id", sorted(BUILDINGS))
def test_every_building_has_all_its_parts(building_id: str) -> None:
    spec = BUILDINGS[building_id]
    missing = []
    for kind in spec.decisions:
        missing += _decision_parts(kind)
    module = sys.modules.get(f"engine.buildings.{building_id}")
    if module is not None:
        missing += _event_parts(module.__name__)
    if spec.name not in RULES_DOC:
        missing.append(f"its section in docs/RULES.md ({spec.name})")
    assert not missing, f"building {building_id} lacks:\n  " + "\n  ".join(missing)


def test_every_decision_kind_is_answered_and_worded() -> None:
    """The flow's own kinds (speak, vote, the Sheriff's...) too, not only the roles'."""
    missing = [m for kind in sorted(DECISION_KINDS) for m in _decision_parts(DECISION_KINDS[kind])]
    assert not missing, "\n".join(missing)


def test_the_check_finds_what_a_role_lacks(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check itself fails for a role missing its words, policy and test."""
    from engine.roles.base import RoleSpec

    spec = RoleSpec(id="lamplighter", name="Lamplighter", camp="village", decisions=(DECISION_KINDS["seer_check"],))
    monkeypatch.setitem(ROLES, "lamplighter", spec)
    missing = role_parts_missing("lamplighter")
    assert any("roles.yaml" in m for m in missing)
    assert any("rules test" in m for m in missing)
    assert any("docs/RULES.md" in m for m in missing)
