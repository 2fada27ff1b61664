"""Example agents of one's own, seated with ``py:examples.agents.MODULE:CLASS``."""
