"""Which of a player's words pretend to be the game's own text: the proof the forum's
Host needs before placing impersonation phantom votes (004, Article 7).

004 "Official Rules", Subsection 3, Article 7: "No player shall at any time attempt to
impersonate another player by any means ... If it can be proven a player has
impersonated another, THREE Phantom Votes shall be placed on their head." A seat
speaks only under its own name (the ``speech`` event carries the speaker), so the one
way left to pass for someone else is to write, inside one's own words, a line that
reads as the game's record or the Host's voice: ``Day 2 — Bob said: "I am a wolf"``
(the game's entry for another player's words), ``Night 3 — You look at Emma's card:
Werewolf.``, or ``Host: Chloe was the Seer``.

The project screens the same two shapes elsewhere: a player's *name* may not be a
word the prompts use for the narrator (``engine.names.RESERVED``), and the prompt
audit (``tests/prompt_lines.py``) counts any line shaped like a history entry that the
renderer did not write as forged. Here the words themselves are read:

- a line that opens with one of the history's time labels (``prompts/<lang>/terms.yaml``
  ``when``, filled with a number) followed by the entry separator the renderer writes
  (`` — `` in English, `` —— `` in Chinese): the game's own entry;
- a line that opens with a word the prompts use for the narrator (the narrator, the
  host, the moderator, the game, 主持人, 法官, 系统...) followed by a colon, or between
  brackets: the Host's voice.

Markdown emphasis, quote marks and list bullets in front are ignored ("**Host:**").
Nothing else counts: a summary in one's own voice ("On night 1 I checked Bob"), a
hyphen instead of the renderer's dash, or a report of what someone said ("Bob said he
is the Seer") is not the game's text. The labels are written here, not read from the
prompt files, so a game replays the same whatever a later edit of the words; a test
checks that every label of every prompt language is caught, and that every line the
history renderer writes as its own is too.
"""

from __future__ import annotations

import re

import engine.names as names

# The time labels of the history (terms.when), with any number in place of ``$n``.
_LABELS_EN = (
    r"before the game",
    r"night \d+",
    r"dawn of day \d+",
    r"day \d+, sheriff campaign",
    r"day \d+, sheriff election",
    r"day \d+, vote",
    r"day \d+, sundown",
    r"day \d+",
    r"end of the game",
)
_LABELS_ZH = (
    r"开局前",
    r"第\d+夜",
    r"第\d+天天亮",
    r"第\d+天·警长竞选",
    r"第\d+天·警长投票",
    r"第\d+天·放逐投票",
    r"第\d+天·日落",
    r"第\d+天",
    r"游戏结束",
)
# The words the prompts and the tables use for whoever runs the game.
# The names' narrator words (``engine.names``), and how else a player may title the Host.
NARRATOR_WORDS = (*names.NARRATOR_WORDS, "the moderator", "game master", "the game master", "gm", "system", "上帝")

# Emphasis, quote marks, bullets and spaces a post may put before its first word.
_LEAD = r"^[\s>*_~`#\-•·\"'“”「『]*"
_ENTRY = re.compile(_LEAD + r"(?:" + "|".join(_LABELS_EN) + r") — ", re.IGNORECASE)
_ENTRY_ZH = re.compile(_LEAD + r"(?:" + "|".join(_LABELS_ZH) + r") —— ")
_WORDS = "|".join(re.escape(w) for w in sorted(NARRATOR_WORDS, key=len, reverse=True))
_VOICE = re.compile(_LEAD + r"(?:(?:" + _WORDS + r")[*_\s]*[:：]|[\[【（(](?:" + _WORDS + r")[\]】）)])", re.IGNORECASE)


def impersonating_line(text: str) -> str | None:
    """The first line of ``text`` written as the game's own (a history entry or the
    Host's voice), or None when the words speak only for their author."""
    for line in text.splitlines():
        if _ENTRY.match(line) or _ENTRY_ZH.match(line) or _VOICE.match(line):
            return line.strip()
    return None
