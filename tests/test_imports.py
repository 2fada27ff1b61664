"""The import graph tells the truth (issues 15 and 44).

- Imports sit at the top of a module: an import inside a function hides a cycle or a
  cost. What loads lazily goes through one loader per registry (``arena.cli``'s
  subcommands, ``agents.kinds``, ``agents.llm.backends.MODULES``), so fewer than
  ``MAX_LOCAL_IMPORTS`` imports are left below module level, each an optional or heavy
  dependency that says why in a comment on its line or just above it.
- The layers hold: engine < prompts < transcripts < agents < arena, each importing
  only the ones below it (the import-linter contract in pyproject.toml; imports in
  functions and under TYPE_CHECKING count too).
- No import cycle between modules, counting the imports under ``if TYPE_CHECKING:``:
  a cycle of types is a cycle of design (a module that cannot be read, type-checked or
  tested without the one that imports it), even when the program never runs it. The
  rules engine's types once were one (a game holds its rules' hooks, a hook takes the
  game): the rules now read ``engine.game_state.GameState``, below the driver that
  imports them (``engine.game.Game``). ``from package import module`` counts as
  importing the package's face too, as Python runs it: a face that its own modules
  import back is a cycle.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
PACKAGES = ("engine", "agents", "arena", "prompts", "transcripts")
# Imports below module level, everywhere in the five packages (issue 44: under 20).
MAX_LOCAL_IMPORTS = 20


def local_imports(path: Path) -> list[tuple[int, str]]:
    """(line, source line) of every import below module level: in a function or a class
    body, and in any block (``if``, ``try``) inside one."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found: list[tuple[int, str]] = []

    def walk(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if in_function and isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append((child.lineno, lines[child.lineno - 1]))
            walk(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)))

    walk(ast.parse("\n".join(lines)), False)
    return found


def explained(path: Path, lineno: int) -> bool:
    """A comment on the import's line or on one of the three lines above it (a linter's
    ``noqa`` or ``type: ignore`` says nothing of why)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    comments = (line.partition("#")[2].strip() for line in lines[max(0, lineno - 4) : lineno] if "#" in line)
    return any(c and not c.startswith(("noqa", "type:")) for c in comments)


def every_local_import() -> list[str]:
    return [
        f"{path.relative_to(ROOT).as_posix()}:{lineno}: {line.strip()}"
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        for lineno, line in local_imports(path)
    ]


def test_every_import_inside_a_function_says_why():
    unexplained = [f for f in every_local_import() if not explained(ROOT / f.split(":")[0], int(f.split(":")[1]))]
    assert not unexplained, "move these imports to the top of their module, or say why they cannot be there:\n" + "\n".join(unexplained)


def test_few_imports_are_left_inside_functions():
    found = every_local_import()
    assert len(found) < MAX_LOCAL_IMPORTS, (
        f"{len(found)} imports below module level (fewer than {MAX_LOCAL_IMPORTS}: lazy loading goes through a registry's "
        "loader, everything else to the top):\n" + "\n".join(found)
    )


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os\n\n\ndef f():\n    import json  # noqa: F401\n    return json\n\n\ndef g():\n    # optional: heavy\n    import csv\n    return csv\n"
        "\n\nclass C:\n    if os.name:\n        import abc\n"
    )
    assert [n for n, _ in local_imports(sample)] == [5, 11, 17]
    assert not explained(sample, 5) and explained(sample, 11) and not explained(sample, 17)


# ---------------------------------------------------------------------- the layers
def test_the_layers_hold():
    pytest.importorskip("importlinter")
    # In a process of its own: import-linter configures logging with dictConfig, which
    # would disable every logger already made in this one (and later tests read them).
    run = subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(config_filename='pyproject.toml', no_cache=True, no_logo=True))"],
        cwd=ROOT,  # the packages are read from this checkout, not an installed copy
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr


# ---------------------------------------------------------------------- cycles
def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the five packages by dotted name (a package by its face)."""
    found = {}
    for package in PACKAGES:
        for path in (root / package).rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imported_by(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project's modules ``name`` imports: at the top, in a function or under
    ``if TYPE_CHECKING:`` (a type-only import is a dependency all the same)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def resolve(dotted: str) -> str | None:
        while dotted and dotted not in known:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    out: set[str] = set()

    def walk(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                out.update(filter(None, (resolve(a.name) for a in child.names)))
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join([*up, base] if base else up)
                face = resolve(base)
                if face:
                    out.add(face)
                out.update(f"{base}.{a.name}" for a in child.names if f"{base}.{a.name}" in known)
            walk(child)

    walk(ast.parse(path.read_text(encoding="utf-8")))
    out.discard(name)
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, edges = work[-1]
            for w in edges:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                    break
                if w in on_stack:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    component = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        component.append(w)
                        if w == v:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_no_module_is_part_of_an_import_cycle():
    known = modules()
    graph = {name: imported_by(name, path, known) for name, path in known.items()}
    found = cycles(graph)
    assert not found, "import cycles (break each one: move the shared piece below both):\n" + "\n".join(" <-> ".join(c) for c in found)


def test_the_cycle_check_sees_a_cycle_through_a_face_and_through_types(tmp_path):
    pkg = tmp_path / "engine"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from engine import b\nA = 1\n")
    (pkg / "b.py").write_text("B = 1\n")
    for other in PACKAGES[1:]:
        (tmp_path / other).mkdir()
    known = modules(tmp_path)
    graph = {name: imported_by(name, path, known) for name, path in known.items()}
    assert cycles(graph) == []
    (pkg / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from engine.a import A\n")
    graph = {name: imported_by(name, path, known) for name, path in known.items()}
    assert graph["engine.b"] == {"engine.a"}  # a type-only import is a dependency too
    assert cycles(graph) == [["engine.a", "engine.b"]]
    (pkg / "__init__.py").write_text("from engine.a import A\n")
    (pkg / "b.py").write_text("B = 1\n")
    graph = {name: imported_by(name, path, known) for name, path in known.items()}
    assert cycles(graph) == [["engine", "engine.a"]]  # a imports b through the face
    (pkg / "b.py").write_text("def f():\n    # a cycle hidden in a function is still one\n    from engine.a import A\n    return A\n")
    graph = {name: imported_by(name, path, known) for name, path in known.items()}
    assert cycles(graph) == [["engine", "engine.a", "engine.b"]]
