"""Packet Row's puzzle themes: what a clearly best move is about (the "puzzles" capability).

Read from the move and the position before it: the final fulfilments and the last rounds are about the end; the
harbour master's choice of a board about choosing a board; a card taken by its kind (contracts, ships, goods and
the cards that change them, buildings, money); declining or passing about when to wait; cashing money cards and
fulfilling contracts about money and fulfilment.
"""

from __future__ import annotations

from typing import Any

#: Every theme this game's puzzles may carry (names in data/messages/puzzles.toml, ``theme_<id>``).
THEMES = ("board", "contract", "ship", "goods", "building", "money", "wait", "fulfil", "end")

_BY_KIND = {"contract": "contract", "ship": "ship", "goods": "goods", "gold": "goods", "merchant": "goods",
            "captain": "ship", "assistant": "board", "building": "building", "banker": "building",
            "money": "money"}


def theme(state: Any, action: Any) -> str:
    """The theme of ``action`` taken in ``state`` (one of :data:`THEMES`)."""
    a = state.parse_action(action)
    if state.phase == "final" or a.kind == "done":
        return "end"
    if a.kind == "fulfil":
        return "fulfil"
    if a.kind == "cash":
        return "money"
    if a.kind in ("decline", "pass"):
        return "wait"
    if a.kind == "choose":
        return "board"
    if a.kind == "take":
        board, *rest = a.args
        slots = state.supply(board)["future" if rest[0] == "future" else "current"]
        card = slots[rest[-1]]
        return _BY_KIND.get(state.cat.card(card).kind, "goods") if card else "goods"
    return "goods"
