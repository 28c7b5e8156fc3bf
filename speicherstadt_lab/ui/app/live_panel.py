"""Live analysis, as on a chess analysis board: at every step, the position's win chances per seat and the
mover's best three actions (expected final score and win chance after each) appear by themselves.

The win chances take tens of milliseconds (``analysis.quick_evaluate``); the actions are compared as the
app's review compares them (``compare_actions(method="hybrid")``: every action played out ``LIVE_ROLLOUTS``
times by greedy players the review's horizon deep, common random numbers, scored by the value model), a tenth
of a second to half a second a position. It runs in its own background thread, and a new step
cancels the one before. A toggle turns it off. The page's sign that it is done: the panel's ``.ssl-live``
element carries ``data-ply`` of the node shown.
"""

from __future__ import annotations

import html
import threading
from typing import Any

import pandas as pd

from ...analysis import compare_actions, quick_evaluate
from ...records import Node
from ...reviewing import review_horizon
from ...value.model import load_model
from .review import REVIEW_ROLLOUTS
from .texts import TEXTS

BEST = 3  # actions shown
#: Rollouts per action of the live comparison: the review's, whose losses were checked against real play-outs
#: (docs/review.md, "The hybrid review"). Ranking by the value model alone after each action, as the panel
#: first did, told the moves apart hardly at all there (correlation 0.06).
LIVE_ROLLOUTS = REVIEW_ROLLOUTS


def live_analysis(state: Any) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(win chances per seat, the mover's best actions) of ``state``: the win chances by the lab's quick
    judgement (``analysis.quick_evaluate``: greedy rollouts scored by the value model), the actions by the
    review's comparison (``compare_actions(method="hybrid")``, ``LIVE_ROLLOUTS`` per action), which samples
    only what the mover cannot see, so their values never use a draw the mover cannot know. Raises
    ValueError/FileNotFoundError without a model."""
    model = load_model(state)
    win = model.predict(state) if state.is_over else quick_evaluate(state)
    best = pd.DataFrame(columns=["action", "win_prob", "score_mean"])
    if state.to_move is not None:
        df = compare_actions(state, rollouts=LIVE_ROLLOUTS, bot="greedy", method="hybrid",
                             horizon=review_horizon(state))
        best = df[["action", "win_prob", "score_mean"]].head(BEST).reset_index(drop=True)
    return win, best


class LivePanel:
    """A part of :class:`~.lab.LabApp` (a mixin): the live analysis panel and its background thread."""

    _live_cancel: threading.Event | None = None
    _live_threads: list[threading.Thread] = []  # noqa: RUF012  (replaced per instance, never mutated in place)

    def _schedule_live(self) -> None:
        """Analyse the node on the board (after the step that put it there); a newer step cancels this one."""
        if self._live_cancel is not None:
            self._live_cancel.set()
        if not self.live.value:
            self.live_box.value = ""
            return
        job = self._job
        if job is not None and job.plays:  # bots are moving: analyse where they stop (_show_activity)
            return
        node, lang = self.node, self.lang_code
        cancel = self._live_cancel = threading.Event()
        if not self.threaded:
            self._live(node, lang, cancel)
            return
        thread = threading.Thread(target=self._live, args=(node, lang, cancel), name="speicherstadt-lab-live",
                                  daemon=True)
        # kept until they end, so that close() can wait for them: a daemon thread still inside numpy when the
        # interpreter exits aborted a test process now and then ("terminate called without an active exception")
        self._live_threads = [t for t in self._live_threads if t.is_alive()] + [thread]
        thread.start()

    def _join_live(self) -> None:
        """Cancel the live analysis and wait for its threads (each ends within its one comparison)."""
        if self._live_cancel is not None:
            self._live_cancel.set()
        for t in self._live_threads:
            t.join()
        self._live_threads = []

    def _live(self, node: Node, lang: str, cancel: threading.Event) -> None:
        t = TEXTS[lang]
        st = node.state
        try:
            win, best = live_analysis(st)
        except (ValueError, FileNotFoundError):
            body = f'<div class="ssl-none">{html.escape(t["live_none"])}</div>'
        else:
            names = [st.seat_name(i, lang) for i in range(st.n_players)]
            seats = "".join(
                f"<tr><td>{html.escape(names[i])}</td><td>{row.win_prob:.0%}</td>"
                f"<td>{row.win_lo:.0%}–{row.win_hi:.0%}</td><td>{row.score_mean:.1f}</td></tr>"
                for i, row in win.iterrows())
            band = (f"<th title='{html.escape(t['live_band'], quote=True)}'>95%</th>"
                    if win.attrs.get("interval") == "measured" else "<th>95%</th>")
            body = (f"<table class='ssl-live-seats'><tr><th></th><th>{html.escape(t['live_win'])}</th>"
                    f"{band}<th>{html.escape(t['live_score'])}</th></tr>{seats}</table>")
            if len(best):
                moves = "".join(f"<li><b>{html.escape(r.action)}</b>: {r.win_prob:.0%}, {r.score_mean:.1f}</li>"
                                for r in best.itertuples())
                body += (f"<div>{html.escape(t['live_best'].format(seat=names[st.to_move]))}</div>"
                         f"<ol class='ssl-live-best'>{moves}</ol>")
        if cancel.is_set():
            return
        self.live_box.value = f'<div class="ssl-live" data-ply="{node.ply}">{body}</div>'

    def live_result(self, node: Node | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
        """The live analysis of ``node`` (default: the node on the board) as tables, for scripts and tests."""
        return live_analysis((node or self.node).state)

    def _model_win(self, node: Node) -> pd.DataFrame | None:
        """The value model's win chances at ``node`` (cached), or None for a game without a model: what the
        win chart draws at once, before (and instead of) rollouts."""
        cache = self._model_wins
        if node not in cache:
            try:
                cache[node] = load_model(node.state).predict(node.state)
            except (ValueError, FileNotFoundError):
                cache[node] = None
        return cache[node]
