"""Where a game's persuasion record lives (``arena.persuasion.records`` says what it holds).

Apart from the records' models so that a reader of a folder of transcripts (``werewolf
metrics``, a tournament's workers) can look for a record without loading them.
"""

from __future__ import annotations

from pathlib import Path

SUFFIX = ".persuasion.ndjson"


def sidecar_for(transcript: str | Path, folder: str | Path | None = None, label: str | None = None) -> Path:
    """Where a transcript's persuasion record lives: beside it; or in ``folder``, at
    the transcript's ``label`` (its path inside the folder measured), so two games of
    the same name in different subfolders keep a record each."""
    p = Path(transcript)
    if folder is None:
        return p.with_name(p.name.removesuffix(".jsonl") + SUFFIX)
    rel = Path(label if label is not None else p.name)
    return Path(folder) / rel.with_name(rel.name.removesuffix(".jsonl") + SUFFIX)
