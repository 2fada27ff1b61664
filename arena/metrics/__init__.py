"""Evaluation metrics computed from transcripts alone.

A transcript holds the public record, every seat's private events and the hidden
truth (``game_end`` names every role), so behaviour can be scored after the fact by
anyone, without re-running a model: how well seats vote and aim their powers, how soon
the Seer finds a wolf, who lies and whether it works, how calibrated a seat's private
beliefs are, how often a model breaks the rules and what it costs.
"""

from arena.metrics.game import aggregate, game_metrics, seat_summary
from arena.metrics.load import GameRecord, load_transcript, records_from_lines

__all__ = ["GameRecord", "aggregate", "game_metrics", "load_transcript", "records_from_lines", "seat_summary"]
