"""Ratings you can trust: team-aware skill estimates with their uncertainty.

Every figure this package produces comes with a 95% interval: ratings by a seeded
bootstrap over whole games (seats of one game share its luck, so games, not seats, are
the independent units), win rates by Wilson intervals.
"""
