"""The board view as an anywidget: synced traitlets out, validated click messages in.

``Board(state)`` draws a game of Die Speicherstadt in the browser (``widgets/board.js`` and
``widgets/board.css``). The JavaScript only draws the ``model`` trait and reports clicks with
``model.send({kind: ...})``; every message is checked here, turned into notation and applied (or
handed to the ``on_action`` callbacks), and a refusal lands in the ``error`` trait.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .model import LOG_SIZE, ClickError, board_model, click_to_action, highlight
from .widget_base import GameBoard


def find_assets(*roots: Path) -> Path:
    """The first folder among ``roots`` holding ``board.js`` and ``board.css``."""
    for root in roots:
        if (root / "board.js").is_file() and (root / "board.css").is_file():
            return root
    raise FileNotFoundError("board.js/board.css not found in " + ", ".join(str(r) for r in roots))


_HERE = Path(__file__).resolve().parent
# installed from a wheel: speicherstadt_lab/widgets; source checkout (editable install): the repo's widgets/
ASSETS = find_assets(_HERE.parent / "widgets", _HERE.parent.parent / "widgets")


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

    _esm = ASSETS / "board.js"
    _css = ASSETS / "board.css"

    default_game = "speicherstadt"
    log_size = LOG_SIZE
    click_error = ClickError

    def _build_model(self, state: Any, lang: str, seat: int | None, history: list[Any]) -> dict[str, Any]:
        return board_model(state, lang, seat, history)

    def _build_highlight(self, state: Any, prev: Any) -> dict[str, Any]:
        return highlight(state, prev)

    def _to_action(self, state: Any, msg: Any) -> Any:
        return click_to_action(state, msg)
