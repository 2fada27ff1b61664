"""Running games: the orchestrator, tournaments, ratings, metrics and the CLI."""
