"""Language: the app, the board and the charts in English or German; every label set in one place."""

from __future__ import annotations

import html

from ...engine.i18n import LANGS
from .texts import TEXTS


class Labels:
    """A part of :class:`~.lab.LabApp` (a mixin): switching the language and relabelling every control."""

    # ---- language -------------------------------------------------------------------------------------

    @property
    def lang_code(self) -> str:
        """The app's language, "en" or "de" (the top bar's switch)."""
        return str(self.lang.value)

    def set_lang(self, lang: str) -> None:
        """Switch the app, the board and the charts to ``lang`` ("en" or "de")."""
        if lang not in LANGS:
            raise ValueError(f"lang must be one of {LANGS}, not {lang!r}")
        self.lang.value = lang  # the observer does the rest

    def _apply_lang(self) -> None:
        lang = self.lang_code
        if self.board.lang != lang:
            self.board.lang = lang
        self._relabel()
        with self._lock:
            self._show_nav()
            self._show_panels()
            self._show_parts()  # their texts too, the moves' phrases (live analysis is redone in the background)
            self._show_share()  # the link names the language
        self._schedule_charts(now=True)

    def _relabel(self) -> None:
        lang = self.lang_code
        t = TEXTS[lang]
        self._title.value = html.escape(t["title"])
        self.players.description = t["players"]
        self.seed.description = t["seed"]
        self.new_button.description = t["new"]
        self.saver.label = t["save"]
        self.loader.label = t["load"]
        self.nav.relabel(lang)
        self.bot_button.description = t["bot"]
        self.round_button.description = t["round"]
        self.end_button.description = t["end"]
        self.round_button.tooltip = self.end_button.tooltip = t["stand_in"]
        self.auto.description = t["auto"]
        self.job_bar.relabel(lang)
        for head, key in self._panel_titles:
            head.value = html.escape(t[key])
        self.tutorial_button.description = t["tutorial"]
        if self.tutorial_button.value:
            self._show_page()
        self._show_seat_controls()
