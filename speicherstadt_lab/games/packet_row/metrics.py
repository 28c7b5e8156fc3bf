"""Per-seat figures of a finished game of Packet Row for the lab's tables (the "metrics" capability)."""

from __future__ import annotations

from typing import Any


def seat_metrics(state: Any, seat: int) -> dict[str, int]:
    """Money left (the tie-break) and cards taken."""
    return {"money": state.money[seat], "cards_taken": len(state.player(seat).cards)}
