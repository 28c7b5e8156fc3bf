"""A hidden widget that tells a page when the kernel has caught up: ping ``n`` in, ``pong == n`` out.

Browser tests call ``window.sslPing(n)`` and wait for ``.ssl-probe[data-pong="n"]``: the kernel handles
messages in order, so by then every click sent before the ping has been handled (work it started in a
background job is shown by the app's ``ssl-busy``/``ssl-idle`` class).
"""

from __future__ import annotations

from typing import Any

import anywidget
import traitlets

from .board import ASSETS


class Probe(anywidget.AnyWidget):
    """``{"kind": "ping", "n": int}`` sets ``pong`` to ``n``; anything else is refused (False)."""

    _esm = ASSETS / "probe.js"
    pong = traitlets.Int(-1).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_msg(lambda _w, content, _b: self.handle_message(content))

    def handle_message(self, msg: Any) -> bool:
        """Answer a ping (``pong`` becomes its ``n``); False, and nothing changed, for any other message."""
        n = msg.get("n") if isinstance(msg, dict) and msg.get("kind") == "ping" else None
        if not isinstance(n, int) or isinstance(n, bool):
            return False
        self.pong = n
        return True
