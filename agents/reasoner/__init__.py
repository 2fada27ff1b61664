"""The reasoner: a belief-tracking reference bot (``agent: reasoner``).

``space`` lays out the assignments of the cards, ``model`` says how likely each
observed action is under each, ``tracker`` keeps a space in step with the evidence,
``table`` reads a game's public events once for all reasoner seats, ``belief`` adds a
seat's secrets, ``reading`` reads the posterior, ``policies`` play from it and
``agent`` is the seat. docs/AGENTS.md describes the model and where it can be exploited.
"""
