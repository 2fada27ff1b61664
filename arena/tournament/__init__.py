"""Tournaments: a fair schedule of games between participants, played concurrently,
stored in SQLite so that a killed run resumes without losing or repeating a game."""
