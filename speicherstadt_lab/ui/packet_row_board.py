"""The Packet Row board view as an anywidget: synced traitlets out, validated click messages in.

``PacketRowBoard(state)`` draws a game of Packet Row in the browser (``widgets/packet_row.js`` and
``widgets/packet_row.css``) with the same public API as :class:`speicherstadt_lab.ui.board.Board`. The
JavaScript only draws the ``model`` trait and reports clicks with ``model.send({kind: ...})``; every message
is checked here, turned into notation and applied (or handed to the ``on_action`` callbacks), and a refusal
lands in the ``error`` trait in the board's language.

``seat`` is the seat whose hand is shown and whose actions are clickable; None (the default) follows the
seat to move, for hot-seat play. The model never holds another seat's secret card (see ``packet_row_model``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .packet_row_model import LOG_SIZE, ClickError, board_model, click_to_action, highlight
from .widget_base import GameBoard

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


class PacketRowBoard(GameBoard):
    """An interactive board of a game of Packet Row.

    Setting ``board.state`` redraws. Without ``on_action`` callbacks a valid click is applied to the board's
    own state; with them, each callback gets the canonical action (``str``: its notation)
    and the board waits for a new state.
    """

    _esm = ASSETS / JS
    _css = ASSETS / CSS

    default_game = "packet_row"
    log_size = LOG_SIZE
    click_error = ClickError

    def _build_model(self, state: Any, lang: str, seat: int | None, history: list[Any]) -> dict[str, Any]:
        return board_model(state, lang, seat, history)

    def _build_highlight(self, state: Any, prev: Any) -> dict[str, Any]:
        return highlight(state, prev)

    def _to_action(self, state: Any, msg: Any) -> Any:
        return click_to_action(state, msg)
