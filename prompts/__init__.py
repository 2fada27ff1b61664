"""Prompt texts and bot lines, shipped as package data (see pyproject package-data)."""
