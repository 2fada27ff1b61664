"""Persuasion, measured as cause: how much each speech moves the table's votes.

For a sampled speech that accuses someone, each listener's view at its next vote is
taken twice (as it was, and with that one speech replaced by a neutral line), and a
twin of the listener's agent is asked in each; the swing is the change in the share
of listeners voting for the player the speech accuses. docs/PERSUASION.md is the
design; ``sample`` chooses the speeches and listeners, ``views`` replaces the speech,
``twins`` copies the agents, ``probe`` replays a game and asks, ``run`` measures many
games within a budget, ``records`` keeps every ask in a file beside the transcript,
``stats`` and ``report`` turn the asks into swings with intervals.
"""
