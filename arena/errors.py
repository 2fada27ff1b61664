"""The error of a table that cannot be played, apart from the modules that raise it.

``arena.gamefile`` (a game file's shape and rules) and ``arena.endpoints`` (which
seats may send an API key where) both raise ``GameFileError``, and the game file
loader asks the endpoint check, so the class sits below both.
"""

from __future__ import annotations


class GameFileError(ValueError):
    """A game file that cannot be played; the message says what is wrong."""
