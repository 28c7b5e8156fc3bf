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

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from ..engine.errors import IllegalAction
from ..engine.i18n import LANGS
from .model import show_value
from .packet_row_model import LOG_SIZE, ClickError, board_model, click_to_action, highlight

ActionCallback = Callable[[str], Any]
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


class PacketRowBoard(anywidget.AnyWidget):
    """An interactive board of a game of Packet Row.

    Setting ``board.state`` redraws. Without ``on_action`` callbacks a valid click is applied to the board's
    own state; with them, each callback gets the (canonical) notation text and the board waits for a new state.
    """

    _esm = ASSETS / JS
    _css = ASSETS / CSS

    model = traitlets.Dict().tag(sync=True)
    lang = traitlets.Unicode("en").tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    highlight = traitlets.Dict().tag(sync=True)
    seat = traitlets.Int(None, allow_none=True)

    def __init__(self, state: Any = None, lang: str = "en", seat: int | None = None, **kwargs: Any) -> None:
        if state is None:
            from .. import new_game

            state = new_game("packet_row")
        self._state = state
        self._history: list[Any] = []  # earlier states, oldest first, for the log and the highlight
        self._callbacks: list[ActionCallback] = []
        self._error_source: Callable[[str], str] | None = None
        super().__init__(lang=lang, seat=seat, **kwargs)
        self.on_msg(self._on_msg)
        self._redraw()

    # -- traits ---------------------------------------------------------------------------------

    @traitlets.validate("lang")
    def _valid_lang(self, proposal: dict[str, Any]) -> str:
        if proposal["value"] not in LANGS:
            raise traitlets.TraitError(f"lang must be one of {LANGS}, not {proposal['value']!r}")
        return proposal["value"]

    @traitlets.validate("seat")
    def _valid_seat(self, proposal: dict[str, Any]) -> int | None:
        v = proposal["value"]
        if v is not None and not 0 <= v < self._state.n_players:
            raise traitlets.TraitError(f"seat must be None or 0..{self._state.n_players - 1}, not {v!r}")
        return v

    @traitlets.observe("lang", "seat")
    def _on_view_change(self, _change: dict[str, Any]) -> None:
        if hasattr(self, "_state"):
            self._redraw()

    # -- state ----------------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        """The state on the board. Setting it redraws; a state of another game starts a fresh log."""
        return self._state

    @state.setter
    def state(self, new: Any) -> None:
        old = self._state
        if new is old:
            return
        same_game = getattr(new, "game", None) == getattr(old, "game", None) and new.n_players == old.n_players \
            and new.round >= old.round and new.cat is old.cat
        self.show(new, [*self._history, old] if same_game else [])

    def show(self, state: Any, history: Sequence[Any] = ()) -> None:
        """Put ``state`` on the board; ``history`` holds the states before it (oldest first) for the log."""
        self._history = list(history)[-LOG_SIZE:]
        self._state = state
        if self.seat is not None and self.seat >= state.n_players:
            self.seat = None
        self._set_error(None)
        self._redraw()

    def _redraw(self) -> None:
        prev = self._history[-1] if self._history else None
        self.model = board_model(self._state, self.lang, self.seat, self._history)
        self.highlight = highlight(self._state, prev)
        if self._error_source is not None:
            self.error = self._error_source(self.lang)

    def _set_error(self, source: Callable[[str], str] | None) -> None:
        self._error_source = source
        self.error = source(self.lang) if source is not None else ""

    # -- actions --------------------------------------------------------------------------------

    def on_action(self, callback: ActionCallback, remove: bool = False) -> None:
        """Register (or with ``remove`` unregister) a callback for the notation text of each valid click."""
        if remove:
            self._callbacks.remove(callback)
        else:
            self._callbacks.append(callback)

    def handle_message(self, msg: Any) -> bool:
        """Check a browser message, then apply it (or pass it to the callbacks). True if it was accepted.

        Besides the action kinds, ``{"kind": "lang", "lang": "de"}`` switches the language.
        """
        if isinstance(msg, dict) and msg.get("kind") == "lang":
            return self._switch_lang(msg)
        state = self._state
        try:
            text = click_to_action(state, msg)
        except ClickError as err:
            self._set_error(lambda lang, err=err: err.text(lang, state))
            return False
        if state.is_over:
            self._set_error(lambda lang: ClickError("over").text(lang))
            return False
        if self.seat is not None and state.to_move != self.seat:
            err = ClickError("turn", seat=self.seat, seat_mover=state.to_move)
            self._set_error(lambda lang: err.text(lang, state))
            return False
        try:
            new = state.apply(text)
        except IllegalAction as err:
            self._set_error(lambda lang, err=err: state.explain(err, lang))
            return False
        self._set_error(None)
        if self._callbacks:
            for callback in list(self._callbacks):
                callback(new.last_action or text)
        else:
            self.state = new
        return True

    def _switch_lang(self, msg: dict[str, Any]) -> bool:
        extra = [f for f in msg if f not in ("kind", "lang")]
        if "lang" not in msg:
            err = ClickError("missing", kind="lang", field="lang")
        elif extra:
            err = ClickError("extra", kind="lang", field=str(extra[0]))
        elif msg["lang"] not in LANGS:
            err = ClickError("lang", allowed=", ".join(LANGS), got=show_value(msg["lang"]))
        else:
            self.lang = msg["lang"]
            return True
        self._set_error(lambda lang: err.text(lang))
        return False

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        self.handle_message(content)
