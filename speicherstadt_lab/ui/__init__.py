"""The board view: ``ui.model`` (pure Python: state → board model, click → notation) and ``ui.board``
(the anywidget, imported lazily so the model works without ipywidgets).

    from speicherstadt_lab.ui import Board
    Board(state, lang="de")
"""

from __future__ import annotations

from typing import Any

from .model import ClickError, board_model, card_text, click_to_action, highlight

__all__ = ["Board", "ClickError", "board_model", "card_text", "click_to_action", "highlight"]


def __getattr__(name: str) -> Any:
    if name == "Board":
        from .board import Board

        return Board
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
