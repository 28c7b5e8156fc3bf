"""Packet Row (Åse & Henrik Berg, 2013): rules, card catalogue and set-up on the lab's engine."""

from __future__ import annotations

from typing import Any

from . import explain, render  # noqa: F401  (imported to plug into the state's capabilities, state.py)
from .catalog import Card, Catalog, default_catalog, load_catalog
from .setup import check_invariants, from_dict, new_game, standard_decks, standard_start_contracts
from .state import SeatView, State


def records_support() -> Any:
    """What game records need to know about Packet Row (looked up lazily by ``speicherstadt_lab.records``)."""
    from .records import PacketRowRecords

    return PacketRowRecords()


__all__ = [
    "Card",
    "Catalog",
    "SeatView",
    "State",
    "check_invariants",
    "default_catalog",
    "from_dict",
    "load_catalog",
    "new_game",
    "records_support",
    "standard_decks",
    "standard_start_contracts",
]
