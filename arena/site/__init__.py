"""The tournament's static site: ``werewolf leaderboard --db PATH --html OUT_DIR``."""
