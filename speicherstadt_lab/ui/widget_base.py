"""What every board view shares: synced traits, the state and its log, validated clicks, the language.

A game's board subclasses :class:`GameBoard` and names its model functions (state → JSON model, click → the
canonical action, by the game's grammar) and its click-error type; the JavaScript only draws ``model`` and reports
clicks as messages. A click is checked once (its shape, by the grammar) and applied once (``state.apply``); the
callbacks get the action and, if they ask for it, the states before and after it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, ClassVar

import anywidget
import traitlets

from ..engine.errors import IllegalAction
from ..engine.i18n import LANGS
from .model import show_value

ActionCallback = Callable[..., Any]  # callback(action) or, registered with_states, callback(action, before, after)


def assemble(root: Path, parts: Sequence[str]) -> str:
    """One widget's ESM (or CSS) string: the files ``parts`` of the folder ``root``, in order, each after a comment
    naming it.

    A board's JavaScript is several plain files (``widgets/common.js``, what both boards share, then its
    regions, then its entry with the one ``export default``); anywidget loads one module, and this is its text."""
    out = []
    for name in parts:
        path = root / name
        if not path.is_file():
            raise FileNotFoundError(f"widget part {name!r} not found in {root}")
        text = path.read_text(encoding="utf-8")
        mark = f"/* ---- {name} ---- */"
        out.append(f"{mark}\n{text.rstrip()}\n")
    return "\n".join(out)


class GameBoard(anywidget.AnyWidget):
    """An interactive board. ``seat``: whose actions are clickable (None: whoever is to move).

    Setting ``board.state`` redraws. Without ``on_action`` callbacks a valid click is applied to the board's
    own state; with them, each callback gets the canonical action (its ``str`` is the notation) and the board
    waits for a new state.
    """

    model = traitlets.Dict().tag(sync=True)
    lang = traitlets.Unicode("en").tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    highlight = traitlets.Dict().tag(sync=True)
    seat = traitlets.Int(None, allow_none=True)
    #: the board's own EN/DE buttons (off in the app, whose one switch sets every text, the board's included)
    lang_switch = traitlets.Bool(True).tag(sync=True)

    default_game: ClassVar[str] = "speicherstadt"
    #: the game's board-model module: ``board_model``, ``highlight``, ``click_to_action``, ``ClickError``, ``LOG_SIZE``
    views: ClassVar[ModuleType]

    @property
    def log_size(self) -> int:
        """How many earlier states the board keeps for its event log and highlight (the game's ``LOG_SIZE``)."""
        return int(self.views.LOG_SIZE)

    @property
    def click_error(self) -> Any:
        """The game's ClickError: ``ClickError(key, **args).text(lang, state)``."""
        return self.views.ClickError

    def _build_model(self, state: Any, lang: str, seat: int | None, history: list[Any]) -> dict[str, Any]:
        return self.views.board_model(state, lang, seat, history)

    def _build_highlight(self, state: Any, prev: Any) -> dict[str, Any]:
        return self.views.highlight(state, prev)

    def _to_action(self, state: Any, msg: Any) -> Any:
        return self.views.click_to_action(state, msg)

    def __init__(self, state: Any = None, lang: str = "en", seat: int | None = None, **kwargs: Any) -> None:
        if state is None:
            from .. import new_game

            state = new_game(self.default_game)
        self._state = state
        self._history: list[Any] = []  # earlier states, oldest first, for the log and the highlight
        self._callbacks: list[tuple[ActionCallback, bool]] = []  # (callback, whether it takes the states)
        self._error_source: Callable[[str], str] | None = None
        self._rev = 0  # which position the board shows: clicks carry it back, so a stale click is refused
        super().__init__(lang=lang, seat=seat, **kwargs)  # draws the first model as it opens the comm (``open``)
        self.on_msg(self._on_msg)

    def open(self) -> None:
        """Open the comm to the page with the first model in its opening message: the model is built once, here,
        after the traits are set (which draw nothing before: ``_on_view_change``), and sent once."""
        if self.comm is None:
            self._redraw()
        super().open()

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
        if self.comm is not None:  # not while the constructor sets the traits: ``open`` draws once they are set
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
        same_game = (getattr(new, "game", None) == getattr(old, "game", None) and new.n_players == old.n_players
                     and new.round >= old.round and new.cat is old.cat)
        self.show(new, [*self._history, old] if same_game else [])

    def show(self, state: Any, history: Sequence[Any] = ()) -> None:
        """Put ``state`` on the board; ``history`` holds the states before it (oldest first) for the log. A state
        of a game this board does not draw is refused (ValueError naming the game) and the board is unchanged."""
        game = getattr(state, "game", None)
        if game != self.default_game:
            raise ValueError(f"state: a {type(self).__name__} draws {self.default_game!r}, not {game!r}; "
                             "use Board(state) or board_for(state) for a board of that game")
        kept = list(history)[-self.log_size:]
        if state is self._state and not self.error and len(kept) == len(self._history) and all(
                a is b for a, b in zip(kept, self._history, strict=True)):
            return  # the position shown already, with no error to clear (as the state setter keeps it): no redraw
        self._history = kept
        self._state = state
        self._rev += 1
        if self.seat is not None and self.seat >= state.n_players:
            self.seat = None
        self._set_error(None)
        self._redraw()

    def _redraw(self) -> None:
        prev = self._history[-1] if self._history else None
        model = self._build_model(self._state, self.lang, self.seat, self._history)
        model["rev"] = self._rev
        self.model = model
        self.highlight = self._build_highlight(self._state, prev)
        if self._error_source is not None:
            self.error = self._error_source(self.lang)

    def _set_error(self, source: Callable[[str], str] | None) -> None:
        self._error_source = source
        self.error = source(self.lang) if source is not None else ""

    # -- actions --------------------------------------------------------------------------------

    def on_action(self, callback: ActionCallback, remove: bool = False, with_states: bool = False) -> None:
        """Register (or with ``remove`` unregister) a callback for the action of each valid click (its ``str``
        is the canonical notation).

        ``with_states``: it is called ``callback(action, before, after)`` with the
        board's state and the state the click made (applied once: the owner need not apply it again)."""
        if remove:
            kept = [(cb, w) for cb, w in self._callbacks if cb != callback]
            if len(kept) == len(self._callbacks):
                raise ValueError("on_action: that callback is not registered")
            self._callbacks = kept
        else:
            self._callbacks.append((callback, with_states))

    def handle_message(self, msg: Any) -> bool:
        """Check a browser message, then apply it (or pass it to the callbacks). True if it was accepted.

        An action is ``{"kind": "act", "verb": VERB, "args": {...}}`` (the model lists each legal action's message);
        ``{"kind": "lang", "lang": "de"}`` switches the language. The page adds
        ``rev``, the ``model["rev"]`` of the position it clicked on: a click made on an earlier position (the
        board moved on meanwhile, say after a bot's move or a double click) is refused. Python callers may
        leave ``rev`` out.
        """
        if isinstance(msg, dict) and msg.get("kind") == "lang":
            return self._switch_lang(msg)
        state = self._state
        error = self.click_error
        try:
            if isinstance(msg, dict) and "rev" in msg:
                rev = msg["rev"]
                if isinstance(rev, bool) or not isinstance(rev, int) or rev != self._rev:
                    raise error("stale", field="rev", got=show_value(rev), now=self._rev)
                msg = {k: v for k, v in msg.items() if k != "rev"}
            action = self._to_action(state, msg)
        except error as err:
            self._set_error(lambda lang, err=err: err.text(lang, state))
            return False
        except IllegalAction as err:  # parts the notation refuses together (a captain sailing to its own port)
            self._set_error(lambda lang, err=err: state.explain(err, lang))
            return False
        if state.is_over:
            self._set_error(lambda lang: error("over").text(lang))
            return False
        if self.seat is not None and state.to_move != self.seat:
            turn = error("turn", seat=self.seat, seat_mover=state.to_move)
            self._set_error(lambda lang: turn.text(lang, state))
            return False
        try:
            new = state.apply(action)
        except IllegalAction as err:
            self._set_error(lambda lang, err=err: state.explain(err, lang))
            return False
        self._set_error(None)
        if self._callbacks:
            for callback, with_states in list(self._callbacks):
                if with_states:
                    callback(action, state, new)
                else:
                    callback(action)
        else:
            self.state = new
        return True

    def _switch_lang(self, msg: dict[str, Any]) -> bool:
        error = self.click_error
        extra = [f for f in msg if f not in ("kind", "lang")]
        if "lang" not in msg:
            err = error("missing", kind="lang", field="lang")
        elif extra:
            err = error("extra", kind="lang", field=str(extra[0]))
        elif msg["lang"] not in LANGS:
            err = error("lang", allowed=", ".join(LANGS), got=show_value(msg["lang"]))
        else:
            self.lang = msg["lang"]
            return True
        self._set_error(lambda lang: err.text(lang))
        return False

    def _on_msg(self, _widget: Any, content: Any, _buffers: Any) -> None:
        self.handle_message(content)
