"""Per-seat figures of a finished game of Die Speicherstadt for the lab's tables (the "metrics" capability)."""

from __future__ import annotations

from typing import Any


def seat_metrics(state: Any, seat: int) -> dict[str, int]:
    """Coins left (the tie-break) and cards bought."""
    return {"coins": state.coins[seat], "cards_bought": len(state.player(seat).cards)}
