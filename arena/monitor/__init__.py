"""Monitorability: how much a seat's private reasoning gives away that its public words hide.

A *monitor* reads one seat's text as it stood at the end of a day and answers the
probability that the seat is a werewolf. Each seat-day is read twice, apart: its
private reasoning (the ``reasoning`` a model seat gave with each of its decisions, from
the transcript's call records) and its public words (its speeches). Per participant
the AUROC of each reading against the cards, and the gap between them, with bootstrap
intervals over games (``werewolf monitor``, ``arena.monitor.cli``).
"""
