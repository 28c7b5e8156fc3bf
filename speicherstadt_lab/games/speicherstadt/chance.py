"""The chance steps of Die Speicherstadt, for the review's luck measure (the "chance" capability).

A round's supply draws cards and goods; with Kaispeicher a fire can then wait for the Fire Chief's or the
Insurance's owner to decide (phase "fire"): the supply is complete once no such decision is pending.
"""

from __future__ import annotations

from typing import Any


class SupplyChance:
    """``settling(state)``: the round's chance step is still being completed; ``revealed(state)``: the cards
    the supply put on the board (water spaces, then the top row), by id."""

    @staticmethod
    def settling(state: Any) -> bool:
        """True while the round's supply is still being completed (a fire waits for a decision, Kaispeicher)."""
        return bool(state.phase == "fire")

    @staticmethod
    def revealed(state: Any) -> list[str]:
        """The card ids the supply put on the board: water spaces, then the top row."""
        d = state.to_dict()
        cards = [c for c in d.get("offer", []) if c is not None]
        kai = d.get("kai")
        if isinstance(kai, dict):
            cards += [c for c in kai.get("top", []) if c is not None]
        return cards
