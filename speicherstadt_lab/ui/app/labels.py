"""Language: the app, the board and the charts in English or German; every label set in one place."""

from __future__ import annotations

import html
from typing import Any

from ...engine.i18n import LANGS
from .movelist import tree_labels, tree_seats
from .panel import swap_options
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
            self.tree.seats = self._tree_seats()
            self._tree_nodes = -1  # the moves' phrases are in the language: the tree is sent again
            self._show_tree()
            self._show_nav()
            self._show_panels()
            self._show_parts()  # their texts too (live analysis is redone: a fraction of a second, in the background)
        self._schedule_charts(now=True)

    def _tree_seats(self) -> list[dict[str, str]]:
        return tree_seats(self.record.initial, self.lang_code)

    def _relabel(self) -> None:
        lang = self.lang_code
        t = TEXTS[lang]
        self._title.value = html.escape(t["title"])
        self.players.description = t["players"]
        self.seed.description = t["seed"]
        self.new_button.description = t["new"]
        self.saver.label = t["save"]
        self.loader.label = t["load"]
        for b, key in ((self.first_button, "first"), (self.back_button, "back"), (self.forward_button, "forward"),
                       (self.last_button, "last")):
            b.tooltip = t[key]
        self.promote_button.description = t["promote"]
        self.bot_button.description = t["bot"]
        self.round_button.description = t["round"]
        self.end_button.description = t["end"]
        self.round_button.tooltip = self.end_button.tooltip = t["stand_in"]
        self.auto.description = t["auto"]
        self.cancel_button.description = t["cancel"]
        self.win_button.description = t["win"]
        self.rollouts.description = t["rollouts"]
        self.rollouts.tooltip = t["rollouts_tip"]
        self._swap_options(self.rollout_bot, [(t["rb_random"], "random"), (t["rb_greedy"], "greedy")])
        self.rollout_bot.tooltip = t["rollout_bot"]
        self._swap_options(self.x_mode, [(t["x_ply"], "ply"), (t["x_round"], "round")])
        self.tree.labels = tree_labels(lang)
        self.comment.placeholder = t["comment_hint"]
        for head, key in self._panel_titles:
            head.value = html.escape(t[key])
        self.review_button.description = t["review"]
        self.review_rollouts.description = t["review_rollouts"]
        self.review_rollouts.tooltip = t["review_rollouts_tip"]
        self.better_button.description = t["play_better"]
        self._flag_title.value = html.escape(t["flagged"])
        self.tutorial_button.description = t["tutorial"]
        if self.tutorial_button.value:
            self._show_page()
        self._relabel_classroom()
        self._show_flags()
        self._show_seat_controls()

    def _swap_options(self, widget: Any, options: list[tuple[str, str]]) -> None:
        """New option labels, same value (:func:`~.panel.swap_options`)."""
        swap_options(self, widget, options)
