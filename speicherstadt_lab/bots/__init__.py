"""Bots: players that see only what their seat may see and return an action."""

from .base import Bot, RandomBot, play_game

__all__ = ["Bot", "RandomBot", "play_game"]
