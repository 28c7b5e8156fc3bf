""""Show me" on the Tutorial page's puzzles: after the learner's try, the best line played on the board a few moves on.

The line is the puzzle's best move, then the greedy player's replies (``puzzle_lessons.best_line``: played from what
the puzzle's seat sees, what it cannot see resampled by the explicit seed :data:`SEED`, so the same every time and
never a hidden fact of the true position). The learner steps through it (each move in plain words, the board showing
the position after it) and goes back to the puzzle's own position. The lessons page (``lessons_panel.py``) owns the
board: this part hands it the positions through ``show`` and asks for the puzzle back through ``back``. Its texts:
``data/messages/puzzle_show.toml``.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as w

from ...puzzle_lessons import LineStep, PuzzleLesson
from .texts import load_texts

TEXTS = load_texts("puzzle_show")
SEED = 0  # the line's seed: the resampled hidden parts and the greedy player's ties


def t(lang: str, key: str, **args: Any) -> str:
    """A text of "show me" in ``lang``, filled in."""
    return TEXTS[lang][key].format(**args)


class PuzzleLine:
    """The "Show me" button and, once pressed, the line's moves with buttons to step through them and to go back.

    ``show(after, before)`` puts a position of the line on the board (``before``: the one it came from, for the
    board's marks; None at the line's start); ``back()`` is called for "Back to the puzzle"."""

    def __init__(self, show: Callable[[Any, Any], None], back: Callable[[], None]) -> None:
        self._show, self._back = show, back
        self.steps: list[LineStep] = []  # the line shown (empty: none)
        self.at = 0  # moves of the line played on the board (0: its start, the puzzle's position)
        self.button = w.Button(layout=w.Layout(width="auto"))
        self.button.add_class("ssl-puzzle-show")
        self.button.on_click(lambda _b: self.start_line())
        self.moves = w.HTML(layout=w.Layout(width="100%"))
        self.moves.add_class("ssl-puzzle-line")
        self.prev = w.Button(layout=w.Layout(width="auto"))
        self.prev.add_class("ssl-line-prev")
        self.prev.on_click(lambda _b: self.step(-1))
        self.next = w.Button(layout=w.Layout(width="auto"))
        self.next.add_class("ssl-line-next")
        self.next.on_click(lambda _b: self.step(1))
        self.back = w.Button(button_style="info", layout=w.Layout(width="auto"))
        self.back.add_class("ssl-line-back")
        self.back.on_click(lambda _b: self._back())
        buttons = w.HBox([self.prev, self.next, self.back], layout=w.Layout(flex_flow="row wrap"))
        self.box = w.VBox([self.moves, buttons], layout=w.Layout(width="100%", display="none"))
        self.box.add_class("ssl-puzzle-line-box")
        self._lesson: PuzzleLesson | None = None
        self._offered = False
        self._lang = "en"

    @property
    def showing(self) -> bool:
        """Whether a line is on the board."""
        return bool(self.steps)

    def offer(self, lesson: Any, tried: bool, lang: str) -> None:
        """Offer "Show me" for ``lesson`` once the learner has tried (``tried``), only on a puzzle; in ``lang``."""
        self._lesson = lesson if isinstance(lesson, PuzzleLesson) else None
        self._offered = tried and self._lesson is not None
        self.redraw(lang)

    def start_line(self) -> None:
        """Play the line: its moves listed, the board after the first (the puzzle's best move)."""
        if not self._offered or self._lesson is None:
            return
        self.steps = self._lesson.line(seed=SEED)
        self.goto(1)

    def step(self, delta: int) -> None:
        """One move on (``delta`` 1) or back (-1) along the line, within it."""
        if self.steps:
            self.goto(self.at + delta)

    def goto(self, at: int) -> None:
        """The board after the line's first ``at`` moves (0: its start, the puzzle's position)."""
        if not self.steps:
            return
        self.at = max(0, min(at, len(self.steps)))
        if self.at == 0:
            self._show(self.steps[0].before, None)
        else:
            step = self.steps[self.at - 1]
            self._show(step.after, step.before)
        self.redraw(self._lang)

    def stop(self) -> None:
        """No line any more (the puzzle is back on the board, or another one is)."""
        self.steps, self.at = [], 0
        self.redraw(self._lang)

    def redraw(self, lang: str) -> None:
        """Every text in ``lang``; the button while it is offered and no line is shown, the line while it is."""
        self._lang = lang
        self.button.description = t(lang, "show_me")
        self.button.tooltip = t(lang, "show_tip")
        self.button.layout.display = "inline-flex" if self._offered and not self.steps else "none"
        self.box.layout.display = "flex" if self.steps else "none"
        self.prev.description = t(lang, "prev")
        self.next.description = t(lang, "next")
        self.back.description = t(lang, "back")
        self.prev.disabled = self.at == 0
        self.next.disabled = self.at >= len(self.steps)
        self.moves.value = self.line_html(self.steps, self.at, lang) if self.steps else ""

    @staticmethod
    def line_html(steps: Sequence[LineStep], at: int, lang: str) -> str:
        """The line's moves as a list in ``lang`` (the notation on hover), the ones played on the board marked and
        the last of them in bold; where the board is; what the line shows."""
        items = []
        for i, s in enumerate(steps, start=1):
            cls = "here" if i == at else "played" if i < at else "ahead"
            mark = f" <i>({html.escape(t(lang, 'best'))})</i>" if i == 1 else ""
            items.append(f'<li class="{cls}" title="{html.escape(s.action)}">{html.escape(s.words(lang))}{mark}</li>')
        where = t(lang, "at", n=at, total=len(steps)) if at else t(lang, "at_start")
        return (f"<b>{html.escape(t(lang, 'title'))}</b><ol>{''.join(items)}</ol>"
                f'<p class="ssl-line-at">{html.escape(where)}</p>'
                f'<p class="ssl-line-note" title="{html.escape(t(lang, "note"))}">{html.escape(t(lang, "note_short"))}'
                "</p>")
