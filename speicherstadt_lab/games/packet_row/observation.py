"""Packet Row's observation layout (the capability ``observation``): ``view(seat)`` field by field as the cells of a
flat vector, in the vocabulary of ``engine/observation.py``."""

from __future__ import annotations

from typing import Any

from ...engine.observation import Field, counts, num, onehot, padded, record
from .state import PHASES

SUPPLY_SLOTS = 4  # slots per supply row (2 in the published game)


def observation_layout(state: Any) -> Field:
    """The layout of a player count, from its start position ``state`` (its catalogue and its seats)."""
    cat = state.cat
    n = state.n_players
    seats = list(range(n))
    boards = list(cat.boards) if isinstance(cat.boards[0], str) else [b.id for b in cat.boards]
    cards = sorted({c.id for c in cat.cards})
    supply = record("supply", [
        ("current", padded("current", SUPPLY_SLOTS, onehot("card", cards))),
        ("future", padded("future", SUPPLY_SLOTS, onehot("card", cards))),
        ("deck", num("deck")), ("removed", num("removed")),
        ("unseen", counts("unseen", cards)), ("discard", counts("discard", cards)),
    ])
    seat = record("seat", [
        ("money", num("money")), ("ships", counts("ships", cards)), ("hand", counts("hand", cards)),
        ("secret", num("secret")), ("pawn", onehot("pawn", [(b, r, k) for b in boards for r in ("current", "future")
                                                     for k in range(SUPPLY_SLOTS)])),
    ])
    return record("view", [
        ("seat", onehot("seat", seats)), ("round", num("round")), ("phase", onehot("phase", PHASES)),
        ("harbour_master", onehot("harbour_master", seats)), ("to_move", onehot("to_move", seats)),
        ("chosen", counts("chosen", boards)), ("board", onehot("board", boards)),
        ("pending", counts("pending", seats)), ("short", counts("short", boards)), ("bank", num("bank")),
        ("boards", record("boards", [(b, supply) for b in boards])),
        ("start_contracts_unseen", counts("start_contracts_unseen", cards)),
        ("seats", padded("seats", n, seat)),
    ])
