"""Every subcommand's every file, against every kind of malformed input (issue 45):
each case exits 2 with one line on stderr naming the file, never a traceback. The
issue tried 84 such cases by hand; this is the same idea as a table, so a reader
added later is one row and meets every kind at once.

A file that never ends (``zero``, a link to ``/dev/zero``) is read in a process of
its own with its address space capped (``tests/test_input_bounds.capped``): a reader
that forgot its bound fails the case instead of taking the machine's memory. A named
pipe is left out: a reader waits for its writer, as ``cat`` does (the issue's words)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest
import yaml

from arena.cli import main
from test_bad_input import BOMB
from test_input_bounds import GAME, HUGE, TOURNAMENT, capped

Fmt = str  # "yaml", "json", "jsonl" (a transcript), "key"


@dataclass(frozen=True)
class Reader:
    """One file a subcommand reads: its format and the command line that reads ``PATH``."""

    fmt: Fmt
    argv: Callable[[Path, Path], list]  # (the file, a folder with good files) -> argv
    env: Callable[[Path], dict] | None = None  # variables naming the file, for one read through the environment


def good_game(folder: Path) -> Path:
    return folder / "good.yaml"


READERS: dict[str, Reader] = {
    "play GAME.yaml": Reader("yaml", lambda p, f: ["play", p, "--json", "--quiet"]),
    "play GAME.json": Reader("json", lambda p, f: ["play", p, "--json", "--quiet"]),
    "play --prices": Reader("yaml", lambda p, f: ["play", good_game(f), "--prices", p, "--json", "--quiet"]),
    "play --sign-key": Reader("key", lambda p, f: ["play", good_game(f), "--transcript", f / "out.jsonl", "--sign-key", p, "--quiet"]),
    "play --resume": Reader("jsonl", lambda p, f: ["play", "--resume", p, "--json", "--quiet"]),
    "fork": Reader("jsonl", lambda p, f: ["fork", p, "--day", "1", "--json", "--quiet"]),
    "verify": Reader("jsonl", lambda p, f: ["verify", p]),
    "verify --key": Reader("key", lambda p, f: ["verify", f / "finished.jsonl", "--key", p]),
    "replay": Reader("jsonl", lambda p, f: ["replay", p]),
    "export --html": Reader("jsonl", lambda p, f: ["export", "--html", f / "out.html", p]),
    "export --format csv": Reader("jsonl", lambda p, f: ["export", "--format", "csv", "--out", f / "csv", p]),
    "metrics": Reader("jsonl", lambda p, f: ["metrics", p, "--json"]),
    "persuasion": Reader("jsonl", lambda p, f: ["persuasion", p, "--records", f / "records", "--json"]),
    "tournament CONFIG.yaml": Reader("yaml", lambda p, f: ["tournament", p, "--db", f / "t.db", "--plan"]),
    "tournament CONFIG.json": Reader("json", lambda p, f: ["tournament", p, "--db", f / "t.db", "--plan"]),
    "tournament sign_key": Reader("key", lambda p, f: ["tournament", f / "signed.yaml", "--db", f / "s.db", "--max-games", "1", "--quiet"]),
    "your config file": Reader("yaml", lambda p, f: ["play", f / "endpoint.yaml", "--json", "--quiet"], env=lambda p: {"WEREWOLF_CONFIG": str(p)}),
}

# What a malformed file holds, in each format (None: the kind does not apply).
DEEP = {"yaml": "seed: 3\nname: " + "[" * 50_000 + "]" * 50_000 + "\n", "json": '{"seed":\n' + "[" * 200_000 + "]" * 200_000 + "}",
        "key": "[" * 200_000 + "]" * 200_000}  # fmt: skip
KINDS: dict[str, dict[Fmt, str | bytes | None]] = {
    "deep": {**DEEP, "jsonl": "line 2: " + "[" * 200_000 + "]" * 200_000},
    "huge number": {"yaml": f"seed: {HUGE}\n", "json": f'{{"seed": {HUGE}}}', "key": HUGE, "jsonl": "header seed"},
    "binary": dict.fromkeys(("yaml", "json", "key", "jsonl"), bytes(range(256)) * 4),
    "not UTF-8": dict.fromkeys(("yaml", "json", "key", "jsonl"), b'{"seed": 3,\n"name": "\xff\xfe"}\n'),
    "empty": dict.fromkeys(("yaml", "json", "key", "jsonl"), b""),
    "NaN": {"yaml": "seed: .nan\n", "json": '{"seed": NaN}', "key": "NaN", "jsonl": "line 2: NaN"},
    "alias bomb": {"yaml": "name: " + BOMB + "\n", "json": None, "key": None, "jsonl": None},
    "tag": {"yaml": "seed: !!python/object/apply:os.system ['echo no']\n", "json": None, "key": None, "jsonl": None},
    "wrong type": {"yaml": "- 1\n- 2\n", "json": "[1, 2]", "key": "[1, 2]", "jsonl": "line 2: [1, 2]"},
    "directory": dict.fromkeys(("yaml", "json", "key", "jsonl"), "DIR"),
    "missing": dict.fromkeys(("yaml", "json", "key", "jsonl"), "MISSING"),
    "never ends": dict.fromkeys(("yaml", "json", "key", "jsonl"), "ZERO"),
}
CASES = [(r, k) for r, reader in READERS.items() for k, holds in KINDS.items() if holds[reader.fmt] is not None]
# Read and played on, as designed: the tables' tolerant reader judges only the records
# its columns read, and an event's ``seq`` is none of them.
ACCEPTED = {("export --format csv", "NaN")}


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """Good files for the commands that read a malformed one beside them."""
    f = tmp_path_factory.mktemp("matrix")
    (f / "good.yaml").write_text(yaml.safe_dump(GAME))
    assert main(["play", str(f / "good.yaml"), "--transcript", str(f / "finished.jsonl"), "--json", "--quiet"]) == 0
    lines = (f / "finished.jsonl").read_text().splitlines(keepends=True)
    (f / "partial.jsonl").write_text("".join(lines[: len(lines) // 2]))
    (f / "signed.yaml").write_text(yaml.safe_dump({**TOURNAMENT, "sign_key": "KEY"}))
    seats = [{**GAME["seats"][0], "agent": "openai:gpt-5.4-mini", "options": {"base_url": "http://127.0.0.1:1/v1"}}, *GAME["seats"][1:]]
    (f / "endpoint.yaml").write_text(yaml.safe_dump({**GAME, "seats": seats}))
    return f


def malformed(folder: Path, tmp: Path, reader: Reader, kind: str) -> Path:
    """The file of ``kind`` for ``reader``, named as the reader expects."""
    holds = KINDS[kind][reader.fmt]
    suffix = {"yaml": ".yaml", "json": ".json", "jsonl": ".jsonl", "key": ".pem"}[reader.fmt]
    path = tmp / f"bad{suffix}"
    if holds == "DIR":
        path.mkdir()
    elif holds == "MISSING":
        pass
    elif holds == "ZERO":
        path.symlink_to("/dev/zero")
    elif reader.fmt == "jsonl" and isinstance(holds, str):  # a transcript with one line made bad
        lines = (folder / "partial.jsonl").read_text().splitlines()
        if holds == "header seed":
            lines[0] = lines[0].replace('"seed":3', f'"seed":{HUGE}', 1)
        else:
            lines[1] = holds.removeprefix("line 2: ") if holds != "line 2: NaN" else lines[1].replace('"seq":0', '"seq":NaN', 1)
        path.write_text("\n".join(lines) + "\n")
    else:
        path.write_bytes(holds.encode() if isinstance(holds, str) else holds)
    return path


@pytest.mark.parametrize("reader_name, kind", CASES, ids=[f"{r} | {k}" for r, k in CASES])
def test_every_reader_meets_every_kind_of_malformed_file(folder, tmp_path, capsys, monkeypatch, reader_name, kind):
    reader = READERS[reader_name]
    path = malformed(folder, tmp_path, reader, kind)
    if reader_name == "tournament sign_key":  # the key is named inside the tournament file
        (tmp_path / "signed.yaml").write_text((folder / "signed.yaml").read_text().replace("KEY", str(path)))
        work = tmp_path
        (work / "good.yaml").write_text((folder / "good.yaml").read_text())
    else:
        work = folder
    argv = [str(a) for a in reader.argv(path, work)]
    env = reader.env(path) if reader.env else {}
    if kind == "never ends":
        code, err = capped(*argv, env=env)
    else:
        for k, v in env.items():
            monkeypatch.setenv(k, v)
        code = main(argv)
        err = capsys.readouterr().err
    assert "Traceback" not in err, err[-3000:]
    if (reader_name, kind) in ACCEPTED:
        assert code == 0, (argv, code, err[-1500:])
        return
    assert code == 2, (argv, code, err[-1500:])
    assert err.count("\n") == 1 and err.startswith(("error: ", "UNREADABLE ")), err[-1500:]
    assert path.name in err, err
