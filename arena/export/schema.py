"""The exported tables' columns and types: one place, read by the writer and the docs.

Types are pandas' nullable ones (``string``, ``Int64``, ``Float64``, ``boolean``) so a
missing value stays missing in CSV and Parquet alike, and an empty table (no model
calls in a bot tournament) still has its columns and types. docs/EXPORT.md describes
each column; tests/test_export.py checks that it describes every one of them.
"""

from __future__ import annotations

S, N, F, B = "string", "Int64", "Float64", "boolean"  # N: a whole number (nullable)

TABLES: dict[str, dict[str, str]] = {
    "games": {
        "game_id": S, "transcript": S, "preset": S, "players": N, "seed": S, "language": S, "winner": S,
        "days": N, "reason": S, "complete": B, "decisions": N, "events": N,
        # from a tournament database (missing for a folder of transcripts)
        "tournament_idx": N, "deal": N, "rotation": N, "table_idx": N, "started": S, "finished": S,
        "seconds": F, "calls": N, "input_tokens": N, "output_tokens": N, "cached_tokens": N, "cost_usd": F,
    },
    "seats": {
        "game_id": S, "position": N, "name": S, "participant": S, "agent": S, "model": S, "initial_role": S,
        "role": S, "camp": S, "wolf": B, "won": B, "survived": B, "death_day": N, "death_cause": S,
        "decisions": N, "violations": N, "fallbacks": N, "calls": N, "input_tokens": N, "output_tokens": N,
        "cost_usd": F,
    },
    "decisions": {
        "game_id": S, "decision": N, "order": N, "day": N, "phase": S, "seat": S, "participant": S, "kind": S,
        "shape": S, "options": S, "n_options": N, "allow_pass": B, "answer": S, "passed": B, "target": S,
        "seat_role": S, "seat_wolf": B, "target_wolf": B, "agent": S,
    },
    "votes": {
        "game_id": S, "decision": N, "day": N, "kind": S, "round": N, "voter": S, "participant": S,
        "voter_role": S, "voter_wolf": B, "target": S, "target_role": S, "target_wolf": B, "n_options": N,
        "chance_wolf": F,
    },
    "claims": {
        "game_id": S, "seq": N, "day": N, "phase": S, "seat": S, "participant": S, "seat_role": S, "kind": S,
        "claim": S, "target": S, "says_wolf": B, "true": B, "lie": B,
    },
    "beliefs": {
        "game_id": S, "decision": N, "day": N, "seat": S, "participant": S, "seat_role": S, "target": S,
        "probability": F, "target_wolf": B, "missing": B,
    },
    "calls": {
        "game_id": S, "seat": S, "participant": S, "decision": N, "kind": S, "day": N, "attempt": N, "request": B,
        "backend": S, "model": S, "mode": S, "started": S, "accepted": B, "violation": S, "error": S,
        "fallback": B, "retries": N, "latency_s": F, "input_tokens": N, "output_tokens": N, "cached_tokens": N,
        "cache_write_tokens": N, "reasoning_tokens": N, "cost_usd": F, "price_known": B, "reply": S,
    },
    "deaths": {"game_id": S, "seq": N, "day": N, "phase": S, "player": S, "role": S, "cause": S},
    "persuasion": {
        "game_id": S, "seq": N, "day": N, "speaker": S, "speaker_participant": S, "speaker_side": S, "speaker_wolf": B,
        "accused": S, "accused_wolf": B, "sampled": B, "listener": S, "listener_participant": S, "listener_side": S,
        "arm": S, "repeat": N, "decision": N, "vote": S, "for_accused": B, "against_speaker": B, "fallback": B, "error": S,
    },
}  # fmt: skip

TABLE_NAMES: tuple[str, ...] = tuple(TABLES)
