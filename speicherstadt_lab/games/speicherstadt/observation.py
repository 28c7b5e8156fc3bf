"""Die Speicherstadt's observation layout (the capability ``observation``): ``view(seat)`` field by field as the
cells of a flat vector, in the vocabulary of ``engine/observation.py``; with Kaispeicher its part (``kai``) last."""

from __future__ import annotations

from typing import Any

from ...engine.observation import Field, counts, length, mapping, num, onehot, padded, record
from .state import PHASES

SPACES = 6  # water spaces (players + 1, at most 6), and the top row's cards
LEVELS = 8  # workers per water space
CONTRACT_SLOTS = 10  # a seat's contracts (``contract GOOD K``: K is a 0-based index)


def observation_layout(state: Any) -> Field:
    """The layout of a variant and player count, from its start position ``state`` (its catalogue, its seats and
    whether it has the expansion)."""
    cat = state.cat
    n = state.n_players
    seats = list(range(n))
    goods = [g.id for g in cat.goods]
    cards = [c.id for c in cat.cards]
    seasons = sorted({c.season for c in cat.cards if c.season})
    seat = record("seat", [
        ("coins", num("coins")), ("track", num("track")), ("cards", counts("cards", cards)),
        ("contracts", padded("contracts", CONTRACT_SLOTS, record("contract", [
            (0, onehot("card", cards)), (1, counts("goods", goods))]))),
        ("warehouse", counts("warehouse", goods)), ("hall", counts("hall", goods)),
        ("unload", counts("unload", goods)), ("breaks", num("breaks")), ("grey", num("grey")),
        ("delivered", num("delivered")),
    ])
    fields: list[tuple[str | int, Field]] = [
        ("seat", onehot("seat", seats)), ("round", num("round")), ("phase", onehot("phase", PHASES)),
        ("first", onehot("first", seats)), ("to_move", onehot("to_move", seats)),
        ("last_round", num("last_round")),
        ("pile", record("pile", [("count", num("count")), ("by_season", mapping("by_season", seasons)),
                                 ("fires", counts("fires", cards)), ("unseen", counts("unseen", cards))])),
        ("bag", record("bag", [("count", num("count")), ("goods", mapping("goods", goods))])),
        ("stock", mapping("stock", goods)), ("discard", counts("discard", cards)),
        ("removed", counts("removed", cards)),
        ("offer", padded("offer", SPACES, onehot("card", cards))),
        ("cargo", padded("cargo", SPACES, counts("goods", goods))),
        ("columns", padded("columns", SPACES, padded("workers", LEVELS, onehot("worker", seats)))),
        ("placed", num("placed")), ("space", num("space")), ("bought", counts("bought", list(range(SPACES)))),
        ("loading_turn", num("loading_turn")), ("dock", counts("dock", goods)),
        ("moved", counts("moved", [(d, w, g) for d in ("in", "out") for w in ("warehouse", "hall") for g in goods])),
        ("seats", padded("seats", n, seat)),
    ]
    if state.expansion is not None:
        fields.append(("kai", record("kai", [
            ("top", padded("top", SPACES, onehot("card", cards))),
            ("top_cargo", padded("top_cargo", SPACES, counts("goods", goods))),
            ("reserved", padded("reserved", SPACES, record("reserved", [
                (0, onehot("card", cards)), (1, onehot("worker", seats)), (2, counts("goods", goods))]))),
            ("left", padded("left", n, num("left"))), ("stopped", counts("stopped", seats)),
            ("turn", num("turn")), ("rpos", num("rpos")), ("spy_turn", num("spy_turn")),
            ("truck", num("truck")), ("pending", onehot("pending", goods)),
            ("fire", record("fire", [
                (0, onehot("card", cards)), (1, onehot("context", ("supply", "end"))), (2, length("queue"))])),
        ])))
    return record("view", fields)
