"""The hint button: for a person to move, the move the strongest opponent level would make
(``speicherstadt_lab.hints``), computed in the background from that seat's observation only, shown in words with its
win chance and its lead's 95% interval over that level's second choice. Its texts: ``data/messages/hint_panel.toml``.
"""

from __future__ import annotations

import html
import threading
from typing import Any

import ipywidgets as w
from ipywidgets.widgets.widget_string import HTMLStyle

from ...hints import Hint, hint
from ...records import Node
from ..shared_layout import fixed_layout, fixed_style
from .panel import LatestWork, Panel, Settings
from .texts import load_texts

TEXTS = load_texts("hint_panel")


def htext(lang: str, key: str, **args: Any) -> str:
    """A text of the hint button in ``lang``, filled in."""
    return TEXTS[lang][key].format(**args)


def hint_html(found: Hint, lang: str) -> str:
    """The hint as HTML: the move in words (its notation on hover) and the sentence with the numbers (their meaning
    on hover)."""
    phrase = found.observation.phrase_action(found.action, lang)
    return (f'<div class="ssl-hint" data-action="{html.escape(found.action)}">'
            f"<b>{html.escape(htext(lang, 'move'))}:</b> "
            f'<span class="ssl-hint-move" title="{html.escape(found.action)}">{html.escape(phrase)}</span>'
            f'<p title="{html.escape(htext(lang, "meaning"))}">{html.escape(found.text(lang))}</p></div>')


class HintPanel(Panel):
    """The hint button (``button``) and its answer (``box``). The button is enabled only when a person is to move
    and the game is not over; a hint computed for a node the board has left is not shown."""

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._work = LatestWork("speicherstadt-lab-hint")
        self.button = w.Button(icon="lightbulb-o", layout=fixed_layout(width="auto"), style=fixed_style(w.ButtonStyle))
        self.button.add_class("ssl-hint-button")
        self.button.on_click(lambda _b: self.ask())
        self.box = w.HTML(layout=fixed_layout(width="100%"), style=fixed_style(HTMLStyle))
        self.box.add_class("ssl-hint-box")

    def show(self, node: Node, settings: Settings) -> None:
        """A new node or language: any hint being computed is dropped, the answer cleared, the button enabled only
        for a person to move."""
        with self._lock:
            moved = node is not self.node or settings.lang != self.settings.lang
            super().show(node, settings)
            if moved:  # first, so the page never shows the new language's button beside the old hint
                self._work.cancel()
                self.box.value = ""
            lang = settings.lang
            self.button.description = htext(lang, "button")
            self.button.tooltip = htext(lang, "button_tip")
            self.button.disabled = not self.allowed()

    def allowed(self) -> bool:
        """True when a hint may be asked: a person is to move and the game is not over."""
        st = None if self.node is None else self.node.state
        return st is not None and not st.is_over and st.to_move is not None and self.settings.human_to_move

    def ask(self) -> None:
        """Compute the hint for the seat to move (in a thread when the app is threaded); refused, with the reason
        on the panel, when no person is to move or the game is over."""
        node, settings = self.node, self.settings
        lang = settings.lang
        if node is None:
            return
        if not self.allowed():
            why = htext(lang, "over" if node.state.is_over else "not_human")
            self.box.value = f'<div class="ssl-none">{html.escape(why)}</div>'
            return
        with self._lock:
            cancel = self._work.fresh()
            seat = node.state.seat_name(node.state.to_move, lang)
            self.box.value = f'<div class="ssl-hint-working">{html.escape(htext(lang, "working", seat=seat))}</div>'
        self._work.run(self.compute, (node, lang, cancel), settings.threaded)

    def compute(self, node: Node, lang: str, cancel: threading.Event) -> None:
        """One hint (a thread's work): shown unless ``cancel`` was set or the board left ``node`` meanwhile."""
        try:
            body = hint_html(hint(node.state), lang)
        except (ValueError, FileNotFoundError) as e:
            body = f'<div class="ssl-none">{html.escape(htext(lang, "failed", error=str(e)))}</div>'
        with self._lock:
            if cancel.is_set() or node is not self.node:
                return
            self.box.value = body

    def close(self) -> None:
        """Drop the hint being computed and wait for its thread."""
        self._work.close()
