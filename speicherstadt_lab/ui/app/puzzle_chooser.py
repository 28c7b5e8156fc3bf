"""The Tutorial page's puzzle chooser: a theme and a difficulty picked from what a puzzle set holds, and the score.

The lessons page (``lessons_panel.py``) asks it which of a set's puzzles are shown (:meth:`PuzzleChooser.shown`) and
tells it which were solved and which had a wrong move first (the page keeps both, in the browser tab too); the
chooser offers only the themes and difficulties the set has (with how many puzzles
each), so a choice never leaves an empty set. Its texts: ``data/messages/puzzle_chooser.toml``.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as w

from .texts import load_texts

TEXTS = load_texts("puzzle_chooser")
ALL_THEMES = ""  # the theme dropdown's value for every theme
ALL_LEVELS = 0  # the difficulty dropdown's value for every difficulty
#: At most this many progress dots are drawn, a window around the puzzle shown (a set holds hundreds).
MAX_DOTS = 30


def t(lang: str, key: str, **args: Any) -> str:
    """A text of the puzzle chooser in ``lang``, filled in."""
    return TEXTS[lang][key].format(**args)


def dot_window(total: int, index: int, size: int = MAX_DOTS) -> range:
    """The indices of the dots to draw: all when ``total`` ≤ ``size``, else ``size`` of them around ``index``."""
    if total <= size:
        return range(total)
    first = min(max(0, index - size // 2), total - size)
    return range(first, first + size)


class PuzzleChooser:
    """Two dropdowns (theme, difficulty) per puzzle set and the session's score; ``on_change`` is called with no
    arguments when the learner picks another theme or difficulty."""

    def __init__(self, on_change: Callable[[], None]) -> None:
        self._on_change = on_change
        self._filters: dict[str, tuple[str, int]] = {}  # set key -> (theme, difficulty) chosen
        self._key = ""
        self._puzzles: list[Any] = []  # the set's puzzles (each a lesson with ``.puzzle``)
        self._relabeling = False  # True while the options change (not a learner's choice)
        self.theme = w.Dropdown(layout=w.Layout(width="auto"))
        self.theme.add_class("ssl-puzzle-theme")
        self.difficulty = w.Dropdown(layout=w.Layout(width="auto"))
        self.difficulty.add_class("ssl-puzzle-difficulty")
        self.score = w.HTML()
        self.score.add_class("ssl-puzzle-score")
        self.box = w.HBox([self.theme, self.difficulty, self.score], layout=w.Layout(align_items="center"))
        self.box.add_class("ssl-puzzle-chooser")
        self.theme.observe(lambda c: self._picked(c["new"], None), "value")
        self.difficulty.observe(lambda c: self._picked(None, c["new"]), "value")

    # ---- what is shown ----------------------------------------------------------------------------------

    def choice(self, key: str) -> tuple[str, int]:
        """The (theme, difficulty) chosen for set ``key`` (``ALL_THEMES`` / ``ALL_LEVELS`` for every one)."""
        return self._filters.get(key, (ALL_THEMES, ALL_LEVELS))

    def shown(self, key: str, found: Sequence[Any]) -> list[Any]:
        """The puzzles of set ``key`` (``found``, lessons with ``.puzzle``) that the chosen theme and difficulty
        leave, in their order."""
        theme, level = self.choice(key)
        return [x for x in found if (theme == ALL_THEMES or x.puzzle.theme == theme)
                and (level == ALL_LEVELS or x.puzzle.difficulty == level)]

    def choose(self, key: str, theme: str = ALL_THEMES, difficulty: int = ALL_LEVELS) -> None:
        """Pick a theme and a difficulty for set ``key`` (as the dropdowns do); ValueError when the set holds no
        puzzle of them (nothing changes)."""
        found = self._puzzles if key == self._key else []
        if found and not self.shown_for(found, theme, difficulty):
            raise ValueError(f"puzzle chooser: set {key!r} has no puzzle of theme {theme!r} at difficulty "
                             f"{difficulty}")
        self._filters[key] = (theme, difficulty)
        if key == self._key:
            self._on_change()

    @staticmethod
    def shown_for(found: Sequence[Any], theme: str, difficulty: int) -> list[Any]:
        """The puzzles of ``found`` of ``theme`` at ``difficulty`` (each may be "all")."""
        return [x for x in found if (theme == ALL_THEMES or x.puzzle.theme == theme)
                and (difficulty == ALL_LEVELS or x.puzzle.difficulty == difficulty)]

    def clear(self, key: str) -> None:
        """Every theme and difficulty of set ``key`` again (a puzzle opened by a link is always shown)."""
        self._filters.pop(key, None)

    # ---- the score --------------------------------------------------------------------------------------

    @staticmethod
    def tally(shown: Sequence[Any], done: set[str], missed: set[str]) -> tuple[int, int]:
        """(solved, solved at the first try) among the puzzles ``shown``: ``done`` the ids solved, ``missed`` the ids
        that had a wrong move before their first solve."""
        ids = {x.id for x in shown}
        return len(ids & done), len((ids & done) - missed)

    def score_html(self, shown: Sequence[Any], done: set[str], missed: set[str], lang: str) -> str:
        """The session's score over the puzzles shown: how many are solved, how many at the first try."""
        solved, first = self.tally(shown, done, missed)
        ids = {x.id for x in shown}
        tip = html.escape(t(lang, "score_tip"))
        return (f'<span title="{tip}">{html.escape(t(lang, "score", solved=solved, total=len(ids), first=first))}'
                "</span>")

    # ---- the dropdowns ----------------------------------------------------------------------------------

    def update(self, key: str, found: Sequence[Any], lang: str, done: set[str], missed: set[str]) -> None:
        """Show the chooser for set ``key`` (its puzzles ``found``; none: hide it) in ``lang``, with the score
        (``done``: the set's ids solved, ``missed``: those with a wrong move before their first solve)."""
        self.box.layout.display = "flex" if found else "none"
        self._key, self._puzzles = key, list(found)
        if not found:
            return
        theme, level = self.choice(key)
        counts = Counter(x.puzzle.theme for x in found)
        names = {x.puzzle.theme: x.puzzle.theme_name(lang) for x in found}
        themes = [(t(lang, "all_themes", n=len(found)), ALL_THEMES)]
        themes += [(t(lang, "theme_option", theme=names[k], n=counts[k]), k)
                   for k in sorted(counts, key=lambda k: names[k])]
        in_theme = self.shown_for(found, theme, ALL_LEVELS)
        levels = Counter(x.puzzle.difficulty for x in in_theme)
        difficulties = [(t(lang, "all_difficulties", n=len(in_theme)), ALL_LEVELS)]
        difficulties += [(t(lang, "difficulty_option", d=d, n=levels[d]), d) for d in sorted(levels)]
        self._relabeling = True  # new options select their first: not the learner's choice
        try:
            for widget, options, value in ((self.theme, themes, theme), (self.difficulty, difficulties, level)):
                if list(widget.options) != options:
                    widget.options = options
                widget.value = value
        finally:
            self._relabeling = False
        self.theme.tooltip = t(lang, "theme_tip")
        self.difficulty.tooltip = t(lang, "difficulty_tip")
        self.score.value = self.score_html(self.shown(key, found), done, missed, lang)

    def _picked(self, theme: str | None, level: int | None) -> None:
        if self._relabeling or not self._key:
            return
        old_theme, old_level = self.choice(self._key)
        theme = old_theme if theme is None else theme
        level = old_level if level is None else level
        if not self.shown_for(self._puzzles, theme, level):  # a theme without puzzles at the chosen difficulty
            level = ALL_LEVELS
        self.choose(self._key, theme, level)
