"""The private question of the ``beliefs`` game option, from ``decisions.yaml``.

Put to a model seat as the day's vote opens: for each other living player, the
probability that it is a werewolf. It follows the seat's own history like any
question, so the request shares its cacheable prefix with the vote that follows; the
answer is never shown to anyone and never enters a history, so it cannot change play.
"""

from __future__ import annotations

from prompts.catalog import catalog


def beliefs_prompt(players: list[str], *, language: str = "en", reminder: bool = True) -> str:
    """The question for ``players`` (the other living players, in seat order). Without
    ``reminder`` it ends before the answer format, as ``decision_prompt`` does: the
    cache layout follows it with the line naming the field to fill."""
    cat = catalog(language)
    names = cat.join(players)
    lines = [
        cat.text("decisions.beliefs.heading"),
        cat.text("decisions.beliefs.ask", players=names),
        cat.text("decisions.beliefs.scale"),
    ]
    if reminder:
        lines.append(cat.text("decisions.beliefs.reminder", players=names))
    return "\n".join(lines)
