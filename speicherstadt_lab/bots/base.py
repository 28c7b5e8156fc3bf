"""The bot protocol, the random bot, and a loop that plays a game with bots.

A bot receives ``state.observe(seat)``: the position with every hidden order (draw pile, bag; hands in
other games) replaced by a placeholder, so it cannot cheat. A search bot samples full states from it
with ``determinize``. A bot's choice depends only on its seed and the observation, so the same bot
gives the same answer at the same position, whatever it was asked before.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from ..engine.actions import Action
from ..engine.protocol import GameState
from ..engine.rng import Rng


def position_key(obs: GameState) -> str:
    """A short text that identifies a decision point (for per-decision seeds).

    Stable across processes and Python versions: the game's ``fingerprint()`` (or a CRC of the JSON), never
    the salted built-in ``hash``.
    """
    fingerprint = getattr(obs, "fingerprint", None)
    digest = fingerprint() if fingerprint is not None else zlib.crc32(obs.to_json().encode())
    return f"{obs.round}:{obs.phase}:{obs.to_move}:{obs.last_action}:{len(obs.legal_actions())}:{digest:08x}"


@runtime_checkable
class Bot(Protocol):
    """``choose`` returns one of ``obs.legal_actions()``; ``params`` describes the bot for records."""

    name: str

    def params(self) -> dict[str, Any]:
        """What describes this bot in a record's ``by`` field (name, seed, settings): enough to make it again."""
        ...
    def choose(self, obs: GameState) -> Action:
        """One of ``obs.legal_actions()``, for the position ``obs`` as the bot's seat sees it."""
        ...


class RandomBot:
    """Uniformly random among the legal actions."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def params(self) -> dict[str, Any]:
        """Name and seed: all it takes to make this bot again."""
        return {"bot": self.name, "seed": self.seed}

    def choose(self, obs: GameState) -> Action:
        """A uniform choice, seeded by the bot's seed and the public position (the same position, the same choice)."""
        return Rng(self.seed, "random", position_key(obs)).choice(obs.legal_actions())

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"


def play_game(state: GameState, bots: Sequence[Bot], max_steps: int = 100_000) -> tuple[GameState, list[str]]:
    """Play to the end with one bot per seat; returns the final state and the actions (notation)."""
    actions: list[str] = []
    steps = 0
    while not state.is_over:
        seat = state.to_move
        assert seat is not None
        action = bots[seat].choose(state.observe(seat))
        state = state.apply(action)
        actions.append(str(action))
        steps += 1
        if steps > max_steps:
            raise RuntimeError(f"game did not end within {max_steps} decisions")
    return state, actions
