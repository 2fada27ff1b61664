"""The printed tables of a persuasion summary (``arena.persuasion.report.summary``):
by agent, side and seat, and the listeners' susceptibility.

Apart from the ``werewolf persuasion`` command (``arena.persuasion.cli``) because
``werewolf metrics`` prints them too, for games with a persuasion record, and should
not load the measuring command (model seats and all) to do so."""

from __future__ import annotations

from typing import Any, Sequence

from arena.report_table import report_table


def _pts(x: float) -> str:
    text = f"{100 * x:+.1f}"
    return "+0.0" if text == "-0.0" else text


def _est(e: dict[str, Any] | None) -> str:
    """A swing in percentage points, with its interval when there is one."""
    if not e or e.get("value") is None:
        return "—"
    if e.get("low") is None:
        return f"{_pts(e['value'])} pts"
    return f"{_pts(e['value'])} pts [{_pts(e['low'])}, {_pts(e['high'])}]"


def _rows(groups: Sequence[dict[str, Any]], first: Sequence[str]) -> list[tuple[str, ...]]:
    return [
        (*(str(g[k]) for k in first), str(g["n"]), _est(g["swing"]), _est(g["toward_wolf"]["swing"]), _est(g["toward_innocent"]["swing"]),
         _est(g["against_speaker"]))
        for g in groups
    ]  # fmt: skip


def print_summary(console: Any, s: dict[str, Any], *, seats: bool = True) -> None:
    """The tables of a summary (``report.summary``): by agent, side and seat, and the
    listeners' susceptibility (``werewolf persuasion``, and ``werewolf metrics`` when a
    game has a persuasion record)."""
    if not s["speeches"]:
        return
    columns = ("speeches", "swing toward the accused", "accused a wolf", "accused innocent", "against the speaker")
    console.print(report_table("Persuasion by the speaker's agent (swing in points; 95% bootstrap over speeches)", ("agent", *columns), _rows(s["by_agent"], ("agent",))))
    console.print(report_table("Persuasion by the speaker's side", ("side", *columns), _rows(s["by_side"], ("side",))))
    if seats:
        console.print(report_table("Persuasion by seat", ("seat", "agent", *columns), _rows(s["by_seat"], ("name", "agent")), left=2))
    console.print(report_table(
        "Susceptibility: how far each listener agent is moved",
        ("listener agent", "by wolves' speeches", "n", "by the others'", "n"),
        [(x["agent"], _est(x["from_wolves"]["swing"]), str(x["from_wolves"]["n"]), _est(x["from_village"]["swing"]), str(x["from_village"]["n"]))
         for x in s["susceptibility"]],
    ))  # fmt: skip
    console.print(
        "[dim]swing: the change in the share of a speech's listeners voting for the player it accuses when the speech is "
        "said rather than replaced by a neutral line, in percentage points; against the speaker: the same for votes on "
        "the speaker. Fewer than 3 speeches (or listeners) give no interval.[/dim]"
    )
