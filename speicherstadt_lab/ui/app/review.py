"""The review panel: a whole-game review in the background, the flagged decisions listed and marked on the
chart, the better move shown with its explanation and played as a branch."""

from __future__ import annotations

import html
import time
from typing import Any

import pandas as pd

from ...records import Node
from ...reviewing import REVIEW_KEY, Review
from ...reviewing import review as run_review
from .. import charts
from .jobs import Job
from .texts import TEXTS, text

REVIEW_ROLLOUTS = 20  # per action at each decision: a 3-player game reviews in about a minute on one core


class ReviewPanel:
    """A part of :class:`~.lab.LabApp` (a mixin): its review methods and the flag list's wiring."""

    _summary_key: tuple[Any, Any, Any, str] | None = None  # what the summary shown was built from (by identity)

    # ---- game review ----------------------------------------------------------------------------------

    @property
    def reviewed(self) -> bool:
        """True if the record holds a review (run here or loaded with the record)."""
        return isinstance(self.record.root.annotations.get(REVIEW_KEY), dict)

    def review(self) -> Review:
        """The review saved in the record along the main line (ValueError if there is none)."""
        with self._lock:
            return Review.from_record(self.record)

    def review_game(self, rollouts: int | None = None) -> bool:
        """Review every decision of the main line in the background (``rollouts`` per action, default the
        control's value), with progress and cancel; the findings go into the record's annotations."""
        if rollouts is not None:
            self.review_rollouts.value = rollouts
        n = int(self.review_rollouts.value)
        with self._lock:
            path = self.record.mainline()
        return self._start("review", lambda job: self._review(job, path, n))

    def _review(self, job: Job, path: list[Node], rollouts: int) -> None:
        lang = self.lang_code
        todo = [k for k in range(1, len(path)) if not self._reviewed_at(path[k], rollouts)]
        total = len(path) - 1
        done = total - len(todo)
        start = time.perf_counter()
        # with a value model the hybrid finds and measures (greedy rollouts to the next round, scored by the model)
        value = "hybrid" if self._model_win(path[0]) is not None else None
        self._set_progress(done, total, text(lang, "review_progress", i=done, n=total))
        for k in todo:
            if job.cancel.is_set():
                self._say(text(lang, "cancelled"))
                break
            with self._lock:
                record = self.record
            if path[0] is not record.root:
                break  # another record was loaded meanwhile
            run_review(record, rollouts=rollouts, node=path[k], since=path[k - 1], progress=False, luck=False,
                       value=value)
            path[k].annotations[REVIEW_KEY]["rollouts"] = rollouts
            done += 1
            self._set_progress(done, total, text(lang, "review_progress", i=done, n=total))
            if done % 10 == 0:
                self._schedule_charts()
        else:
            # then the luck of every supply on the line (the review's hybrid rollouts; seconds, in one step)
            with self._lock:
                record = self.record
            if path[0] is record.root and not job.cancel.is_set():
                self._say(text(lang, "review_luck"))
                run_review(record, rollouts=rollouts, node=path[-1], progress=False, decisions=False, value=value)
            settings = self.record.root.annotations.get(REVIEW_KEY)
            if isinstance(settings, dict):
                settings["seconds"] = round(time.perf_counter() - start, 1)
            d = Review.from_record(self.record).decisions
            self._say(text(lang, "done_review", n=len(d), mistakes=int((d["flag"] == "mistake").sum()),
                           inaccuracies=int((d["flag"] == "inaccuracy").sum())), ok=True)
        with self._lock:
            self._show_flags()
            self._refresh_tree()  # the review's glyphs after the flagged moves
        self._schedule_charts(now=True)

    @staticmethod
    def _reviewed_at(node: Node, rollouts: int) -> bool:
        ann = node.annotations.get(REVIEW_KEY)
        return isinstance(ann, dict) and ann.get("rollouts", rollouts) == rollouts

    def flagged(self) -> list[Node]:
        """The nodes of the main line whose move the review flagged (inaccuracy or mistake), in order."""
        out = []
        for nd in self.record.mainline()[1:]:
            ann = nd.annotations.get(REVIEW_KEY)
            if isinstance(ann, dict) and ann.get("flag"):
                out.append(nd)
        return out

    def review_marks(self, x: str = "ply") -> pd.DataFrame:
        """The flagged decisions as chart marks (:data:`charts.MARK_COLUMNS`)."""
        rows = []
        for nd in self.flagged():
            ann = nd.annotations[REVIEW_KEY]
            before = nd.parent.state if nd.parent is not None else nd.state
            rows.append({"ply": nd.ply, "x": charts.position_x(nd.ply, before.round, before.is_over, x),
                         "seat": nd.actor, "action": nd.action, "best_action": ann.get("best", ""),
                         "win_prob": ann.get("win_prob", 0.0), "win_loss": ann.get("win_loss", 0.0),
                         "score_loss": ann.get("score_loss", 0.0), "flag": ann["flag"]})
        return pd.DataFrame(rows, columns=charts.MARK_COLUMNS)

    def show_flag(self, node: Node | int) -> None:
        """Jump to a flagged decision (its node, or its ply on the main line): the board shows the position in
        which the move was chosen, the panel the better move, its expected gain and its explanation."""
        if isinstance(node, int):
            line = self.record.mainline()
            node = line[max(1, min(node, len(line) - 1))]
        if node.parent is None:
            return
        self._shown_flag = node
        self.goto(node.parent)
        with self._lock:
            self._show_flags()

    def play_better(self) -> Node | None:
        """Play the better move of the decision shown (a new variation, or the existing one)."""
        node = self._shown_flag
        if node is None or node.parent is None:
            return None
        best = node.annotations.get(REVIEW_KEY, {}).get("best")
        if not best:
            return None
        with self._lock:
            self._move_to(node.parent)
        return self.play(best)

    def _on_mark_click(self, trace: Any, points: Any, _state: Any = None) -> None:
        for i in getattr(points, "point_inds", []) or []:
            plies = list(trace.customdata or [])
            if 0 <= i < len(plies):
                self.show_flag(int(plies[i]))
                return

    def _on_flag_list(self, change: dict[str, Any]) -> None:
        if self._syncing or change["new"] is None:
            return
        self.show_flag(int(change["new"]))

    def _show_summary(self) -> None:
        """Per seat: share of best moves, inaccuracies, mistakes and luck (what the draws did to its win
        chance, summed over the supplies), from the review in the record; empty before a review."""
        lang = self.lang_code
        t = TEXTS[lang]
        # Every step redraws the panel; the summary changes only with the review's settings (a new dict per
        # review call), the record, its main line or the language: rebuilding it each step cost ~6 ms.
        key = (self.record.root, self.record.root.annotations.get(REVIEW_KEY), self.record.end(), lang)
        last = self._summary_key
        if last is not None and all(a is b for a, b in zip(key[:3], last[:3], strict=True)) and lang == last[3]:
            return
        self._summary_key = key
        try:
            rv = Review.from_record(self.record) if self.reviewed else None
        except ValueError:
            rv = None
        if rv is None or not len(rv.decisions):
            self.review_summary.value = ""
            return
        summary = rv.summary()
        st = self.record.initial
        has_luck = len(rv.luck) > 0
        rows = "".join(
            f"<tr><td>{html.escape(st.seat_name(int(r.Index), lang))}</td><td>{r.best_moves:.0%}</td>"
            f"<td>{r.inaccuracies}</td><td>{r.mistakes}</td>"
            f"<td>{f'{r.luck:+.0%}' if has_luck else '—'}</td></tr>"
            for r in summary.itertuples())
        head = "".join(f"<th>{html.escape(t[k])}</th>" for k in ("sum_best", "inaccuracies", "mistakes", "sum_luck"))
        self.review_summary.value = (f'<table class="ssl-review-summary" data-luck="{int(has_luck)}" '
                                     f'title="{html.escape(t["sum_luck_tip"])}"><tr><th></th>{head}</tr>{rows}'
                                     "</table>")

    def _show_flags(self) -> None:
        """The per-seat summary, the flagged-moves list and, for the decision shown, the better alternative."""
        lang = self.lang_code
        t = TEXTS[lang]
        self._show_summary()
        nodes = self.flagged() if self.reviewed else []
        st = self.record.initial
        options = []
        for nd in nodes:
            ann = nd.annotations[REVIEW_KEY]
            name = st.seat_name(nd.actor, lang)
            options.append((f"{nd.ply}. {name}: {nd.action} → {ann.get('best')} ({t[ann['flag']]})", nd.ply))
        shown = self._shown_flag
        self._syncing = True
        try:
            if list(self.flag_list.options) != options:
                self.flag_list.options = options
            self.flag_list.value = shown.ply if shown is not None and shown in nodes and shown.is_mainline() else None
        finally:
            self._syncing = False
        if shown is None or shown.parent is None or self.node is not shown.parent:
            self.better_button.layout.display = "none"
            note = t["no_review"] if not self.reviewed else (t["no_flags"] if not nodes else "")
            self.alternative.value = f'<div class="ssl-none">{html.escape(note)}</div>' if note else ""
            return
        ann = shown.annotations.get(REVIEW_KEY, {})
        before = shown.parent.state
        best = ann.get("best", "")
        try:
            why = before.explain_action(best, lang) if hasattr(before, "explain_action") else ""
        except Exception:  # an explanation is a help, never a reason to fail
            why = ""
        head = t["alt"].format(ply=shown.ply, seat=html.escape(before.seat_name(shown.actor, lang)),
                               action=html.escape(shown.action or ""),
                               flag=html.escape(t[ann.get("flag") or "mistake"]),
                               best=html.escape(best), win=float(ann.get("win_loss", 0.0)),
                               score=float(ann.get("score_loss", 0.0)))
        self.alternative.value = f'<div class="ssl-why">{head}</div><div>{html.escape(why)}</div>'
        self.better_button.layout.display = ""
