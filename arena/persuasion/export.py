"""The ``persuasion`` table of ``werewolf export``: one row per ask in a game's record.

Every ask the record beside the transcript holds (``werewolf persuasion``, or a
tournament's ``persuasion:``), of every run, with the speech's facts beside it; a game
without a record has no rows. ``sampled`` says whether the speech is in the last run's
sample (the figures ``werewolf persuasion`` reports).
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from arena.persuasion.records import PersuasionFileError, read_records, sidecar_for


def persuasion_rows(transcript: str | None, game_id: str, participant: Mapping[str, str]) -> list[dict[str, Any]]:
    """The rows of one game; ``participant``: seat name -> who played it."""
    if transcript is None:
        return []
    path = sidecar_for(transcript)
    if not path.exists():
        return []
    try:
        held = read_records(path)
    except PersuasionFileError:
        return []
    sample = set(held.last.sampled) if held.last is not None else set()
    out = []
    for ask in held.asks.values():
        s = held.speeches.get(ask.speech)
        if s is None:
            continue
        heard = next((x for x in s.listeners if x.seat == ask.seat), None)
        wolves = set(s.accused_wolf)
        vote = ask.vote if ask.error is None else None
        out.append({
            "game_id": game_id, "seq": s.seq, "day": s.day, "speaker": s.speaker, "speaker_participant": participant.get(s.speaker),
            "speaker_side": s.side, "speaker_wolf": s.wolf, "accused": json.dumps(s.accused, ensure_ascii=False),
            "accused_wolf": wolves.pop() if len(wolves) == 1 else None, "sampled": s.seq in sample, "listener": ask.seat,
            "listener_participant": participant.get(ask.seat), "listener_side": heard.side if heard else None,
            "arm": ask.arm, "repeat": ask.repeat, "decision": ask.decision,
            "vote": vote if vote is None or isinstance(vote, str) else json.dumps(vote, ensure_ascii=False),
            "for_accused": None if ask.error else vote in s.accused, "against_speaker": None if ask.error else vote == s.speaker,
            "fallback": ask.fallback, "error": ask.error,
        })  # fmt: skip
    return out
