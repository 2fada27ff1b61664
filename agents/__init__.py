"""One interface for every seat: bots, scripts, people, language models and remote agents."""

from agents.base import Agent, SeatView
from agents.registry import make_agent

__all__ = ["Agent", "SeatView", "make_agent"]
