"""The board view as an anywidget: synced traitlets out, validated click messages in.

``Board(state)`` draws a game of Die Speicherstadt in the browser: its JavaScript is assembled from
``widgets/common.js`` (what both boards share), the drawing functions per region in ``widgets/board/`` and the entry
``widgets/board.js`` (:data:`PARTS`), its CSS from ``widgets/common.css`` and ``widgets/board.css``. The JavaScript only
draws the ``model`` trait and reports clicks with the model's own messages (``{"kind": "act", "verb", "args"}``);
every message is checked here by the grammar and applied once (or handed to the ``on_action`` callbacks), and a
refusal lands in the ``error`` trait.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import model
from .widget_base import GameBoard, assemble


def find_assets(*roots: Path) -> Path:
    """The first folder among ``roots`` holding ``board.js`` and ``board.css``."""
    for root in roots:
        if (root / "board.js").is_file() and (root / "board.css").is_file():
            return root
    raise FileNotFoundError("board.js/board.css not found in " + ", ".join(str(r) for r in roots))


_HERE = Path(__file__).resolve().parent
# installed from a wheel: speicherstadt_lab/widgets; source checkout (editable install): the repo's widgets/
ASSETS = find_assets(_HERE.parent / "widgets", _HERE.parent.parent / "widgets")
#: the files of the board's module, in order: the shared helpers, one file per region group, the entry (last)
PARTS = ("common.js", "board/pieces.js", "board/harbour.js", "board/kaispeicher.js", "board/dock.js",
         "board/supply.js", "board/seats.js", "board.js")
CSS_PARTS = ("common.css", "board.css")


class Board(GameBoard):
    """An interactive board of any game: ``Board(state)`` draws Die Speicherstadt itself and hands a state of
    another game to that game's board view (Packet Row's :class:`~.packet_row_board.PacketRowBoard`).

    ``seat`` is the seat whose legal actions are highlighted and clickable (None: whoever is to move).
    Setting ``board.state`` redraws. Without ``on_action`` callbacks a valid click is applied to the
    board's own state; with them, each callback gets the canonical action (``str``: its notation)
    and the board waits for a new state.
    """

    def __new__(cls, state: Any = None, *args: Any, **kwargs: Any) -> Any:
        game = getattr(state, "game", cls.default_game)
        if cls is Board and game != cls.default_game:  # another game's state: its own board (not a Board,
            from . import board_for  # so Python does not run Board.__init__ on it)

            return board_for(state, *args, **kwargs)
        return super().__new__(cls, state, *args, **kwargs)

    _esm = assemble(ASSETS, PARTS)
    _css = assemble(ASSETS, CSS_PARTS)

    default_game = "speicherstadt"
    views = model
