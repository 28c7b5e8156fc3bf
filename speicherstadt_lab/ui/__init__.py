"""The board view: ``ui.model`` (pure Python: state → board model, click → the canonical action) and ``ui.board``
(the anywidget, imported lazily so the model works without ipywidgets).

    from speicherstadt_lab.ui import Board
    Board(state, lang="de")
"""

from __future__ import annotations

from typing import Any

from .model import ClickError, board_model, card_text, click_to_action, highlight

__all__ = ["Board", "ClickError", "PacketRowBoard", "board_for", "board_model", "card_text", "click_to_action",
           "highlight"]


def __getattr__(name: str) -> Any:
    if name == "Board":
        from .board import Board

        return Board
    if name == "PacketRowBoard":
        from .packet_row_board import PacketRowBoard

        return PacketRowBoard
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def board_for(state: Any, **kwargs: Any) -> Any:
    """The board view that draws ``state``'s game (its plugin's "board" capability)."""
    from ..engine.protocol import get_game

    cls = get_game(getattr(state, "game", "speicherstadt")).capability("board")
    if cls is None:
        raise ValueError(f"game: {state.game!r} declares no board view (no 'board' capability)")
    return cls(state, **kwargs)
