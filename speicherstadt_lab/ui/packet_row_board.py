"""The Packet Row board view as an anywidget: synced traitlets out, validated click messages in.

``PacketRowBoard(state)`` draws a game of Packet Row in the browser with the same public API as
:class:`speicherstadt_lab.ui.board.Board`: its JavaScript is assembled from ``widgets/common.js`` (what both boards
share), the drawing functions per region in ``widgets/packet_row/`` and the entry ``widgets/packet_row.js``
(:data:`PARTS`), its CSS from ``widgets/common.css`` and ``widgets/packet_row.css``. The JavaScript only draws the
``model`` trait and reports clicks with the model's own messages (``{"kind": "act", "verb", "args"}``); every
message is checked here by the grammar and applied once (or handed to the ``on_action`` callbacks), and a refusal
lands in the ``error`` trait in the board's language.

``seat`` is the seat whose hand is shown and whose actions are clickable; None (the default) follows the
seat to move, for hot-seat play. The model never holds another seat's secret card (see ``packet_row_model``).
"""

from __future__ import annotations

from pathlib import Path

from . import packet_row_model
from .widget_base import GameBoard, assemble

JS, CSS = "packet_row.js", "packet_row.css"


def find_assets(*roots: Path) -> Path:
    """The first folder among ``roots`` holding ``packet_row.js`` and ``packet_row.css``."""
    for root in roots:
        if (root / JS).is_file() and (root / CSS).is_file():
            return root
    raise FileNotFoundError(f"{JS}/{CSS} not found in " + ", ".join(str(r) for r in roots))


_HERE = Path(__file__).resolve().parent
# installed from a wheel: speicherstadt_lab/widgets; source checkout (editable install): the repo's widgets/
ASSETS = find_assets(_HERE.parent / "widgets", _HERE.parent.parent / "widgets")
#: the files of the board's module, in order: the shared helpers, one file per region group, the entry (last)
PARTS = ("common.js", "packet_row/pieces.js", "packet_row/boards.js", "packet_row/side.js", "packet_row/seats.js", JS)
CSS_PARTS = ("common.css", CSS)


class PacketRowBoard(GameBoard):
    """An interactive board of a game of Packet Row.

    Setting ``board.state`` redraws. Without ``on_action`` callbacks a valid click is applied to the board's
    own state; with them, each callback gets the canonical action (``str``: its notation)
    and the board waits for a new state.
    """

    _esm = assemble(ASSETS, PARTS)
    _css = assemble(ASSETS, CSS_PARTS)

    default_game = "packet_row"
    views = packet_row_model
