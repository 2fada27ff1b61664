"""The narrator's script: night, day, deaths, votes and victory, as generators.

Each function yields batches of decisions and receives ``{decision id: answer}``;
``yield from`` composes them, so a rule reads in the order the rulebook tells it.
"""
