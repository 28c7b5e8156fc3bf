"""The app's own small widgets: the move tree, the save button, the load button (JS and CSS in ``widgets/``).

Each reports clicks as messages with a ``kind``; Python checks them (the JavaScript only draws).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import anywidget
import traitlets

from ..board import ASSETS
from ..widget_base import assemble

# ---- the variation tree --------------------------------------------------------------------------------

class TreeView(anywidget.AnyWidget):
    """The record's moves as a compact tree: grouped by round, the main line, each variation indented after the
    move it replaces.

    Moves with alternatives are marked by a ring, chance variations by a die; the review's glyphs
    and the comments. A click sends ``{"kind": "goto", "id": n}``; ← → Home End pressed anywhere on the page (but
    in a text field) send ``{"kind": "step", "to": "prev"}``, one message per press, from one view of the page."""

    _esm = assemble(ASSETS, ("common.js", "tree.js"))  # the shared element helper and view's life, then the tree
    _css = ASSETS / "tree.css"
    tree = traitlets.Dict().tag(sync=True)
    current = traitlets.Int(0).tag(sync=True)
    seats = traitlets.List().tag(sync=True)
    labels = traitlets.Dict().tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._callbacks: list[Callable[[int], Any]] = []
        self._step_callbacks: list[Callable[[Any], bool]] = []
        self.on_msg(lambda _w, content, _b: self.handle_message(content))

    def on_select(self, callback: Callable[[int], Any]) -> None:
        """Call ``callback(id)`` when a move is clicked."""
        self._callbacks.append(callback)

    def on_step(self, callback: Callable[[Any], bool]) -> None:
        """Call ``callback(msg)`` with each ``step`` message; it checks the message and says if it stepped."""
        self._step_callbacks.append(callback)

    def handle_message(self, msg: Any) -> bool:
        """A browser message; True if it was a well-formed ``goto`` (an integer ``id``) or a ``step`` a callback
        took. A ``goto`` with a bad ``id`` (a bad ``step``) still reaches the callbacks, which say what is wrong."""
        if isinstance(msg, dict) and msg.get("kind") == "step":
            results = [callback(msg) for callback in list(self._step_callbacks)]
            return bool(results) and all(results)
        if not (isinstance(msg, dict) and msg.get("kind") == "goto"):
            return False
        ident = msg.get("id")
        for callback in list(self._callbacks):
            callback(ident)
        return isinstance(ident, int) and not isinstance(ident, bool)


# ---- saving: a button that downloads the record ----------------------------------------------------------

class Saver(anywidget.AnyWidget):
    """A button that downloads a file made on demand by ``provider() -> (file name, text)``."""

    _esm = ASSETS / "saver.js"
    label = traitlets.Unicode("Save").tag(sync=True)
    disabled = traitlets.Bool(False).tag(sync=True)

    def __init__(self, provider: Callable[[], tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._provider = provider
        self.on_msg(lambda _w, content, _b: self.handle_message(content))

    def handle_message(self, msg: Any) -> bool:
        """``{"kind": "save"}``: send the file to the browser, which downloads it."""
        if not (isinstance(msg, dict) and msg.get("kind") == "save"):
            return False
        name, body = self._provider()
        self.send({"kind": "file", "name": name, "text": body})
        return True


class Loader(anywidget.AnyWidget):
    """A button that opens a file and hands its name and bytes to ``consumer(name, data)``."""

    _esm = ASSETS / "loader.js"
    label = traitlets.Unicode("Load").tag(sync=True)
    disabled = traitlets.Bool(False).tag(sync=True)

    def __init__(self, consumer: Callable[[str, bytes], Any], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._consumer = consumer
        self.on_msg(lambda _w, content, buffers: self.handle_message(content, buffers))

    def handle_message(self, msg: Any, buffers: Sequence[Any] = ()) -> bool:
        """``{"kind": "load", "name": ...}`` with the file's bytes as the one buffer."""
        if not (isinstance(msg, dict) and msg.get("kind") == "load" and len(buffers) == 1):
            return False
        self._consumer(str(msg.get("name", "")), bytes(buffers[0]))
        return True
