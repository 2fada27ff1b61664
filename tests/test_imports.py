"""Imports sit at the top of a module (issue 15): an import inside a function hides a
cycle or a cost, so the few that remain say why in a comment just above them."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parent.parent
PACKAGES = ("engine", "agents", "arena", "prompts", "transcripts")
# Owned by parallel changes at the time of writing; to be held to the rule after their merge.
LATER = ("agents/llm/", "arena/ratings/")


def local_imports(path: Path) -> list[tuple[int, str]]:
    """(line, source line) of every import inside a function body."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[tuple[int, str]] = []

    def walk(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if in_function and isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append((child.lineno, lines[child.lineno - 1]))
            walk(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    walk(ast.parse("\n".join(lines)), False)
    return found


def explained(path: Path, lineno: int) -> bool:
    """A comment on the import's line or on one of the three lines above it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return any("#" in line for line in lines[max(0, lineno - 4) : lineno])


def test_every_import_inside_a_function_says_why():
    unexplained = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith(LATER):
                continue
            for lineno, line in local_imports(path):
                if not explained(path, lineno):
                    unexplained.append(f"{rel}:{lineno}: {line.strip()}")
    assert not unexplained, "move these imports to the top of their module, or say why they cannot be there:\n" + "\n".join(unexplained)


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import os\n\n\ndef f():\n    import json\n    return json\n\n\ndef g():\n    # optional: heavy\n    import csv\n    return csv\n")
    assert [n for n, _ in local_imports(sample)] == [5, 11]
    assert not explained(sample, 5) and explained(sample, 11)
