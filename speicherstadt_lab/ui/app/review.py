"""The review panel: a review of the line on the board in the background, the flagged decisions listed and
marked on the chart, the better move shown with its gain (and that gain's 95% interval) and its explanation,
and played as a branch. Luck is shown as a change of win chance in percentage points, never as a percentage."""

from __future__ import annotations

import html
import time
from typing import Any

import pandas as pd

from ...analysis import t95
from ...records import Node
from ...resources import default_processes
from ...reviewing import REVIEW_KEY, Review
from ...reviewing import REVIEW_ROLLOUTS as _DEFAULTS
from ...reviewing import review as run_review
from .. import charts
from .jobs import Job
from .texts import TEXTS, text

REVIEW_ROLLOUTS = _DEFAULTS["hybrid"]  # per action at each decision (the review's default for the hybrid)


class ReviewPanel:
    """A part of :class:`~.lab.LabApp` (a mixin): its review methods and the flag list's wiring."""

    _summary_key: tuple[Any, Any, Any, str] | None = None  # what the summary shown was built from (by identity)
    # The line of the flag opened last and the position it showed: while the board stays there, the panel keeps
    # that line (a flagged first move of a variation puts the board on its branch point, on the main line too).
    _flag_end: Node | None = None
    _flag_at: Node | None = None

    # ---- game review ----------------------------------------------------------------------------------

    @property
    def reviewed(self) -> bool:
        """True if the record holds a review (run here or loaded with the record)."""
        return isinstance(self.record.root.annotations.get(REVIEW_KEY), dict)

    def review(self) -> Review:
        """The review saved in the record along the line on the board (ValueError if there is none)."""
        with self._lock:
            return Review.from_record(self.record, node=self.review_line()[-1])

    def review_line(self) -> list[Node]:
        """The line the review works on: the line on the board (``line()``: from the start through the node on
        the board, on along first children); while the board shows the position of a flag opened from the
        list or the chart, that flag's line."""
        end, at = self._flag_end, self._flag_at
        if end is not None and at is self.node and end.record is self.record:
            path = self.record.path_to(end)
            if any(nd is at for nd in path):
                return path
        return self.line()

    def review_game(self, rollouts: int | None = None) -> bool:
        """Review every decision of the line on the board (:meth:`review_line`) in the background
        (``rollouts`` per action, default the control's value), with progress and cancel; the findings go
        into the record's annotations."""
        if rollouts is not None:
            self.review_rollouts.value = rollouts
        n = int(self.review_rollouts.value)
        with self._lock:
            path = self.review_line()
        return self._start("review", lambda job: self._review(job, path, n))

    def _review(self, job: Job, path: list[Node], rollouts: int) -> None:
        lang = self.lang_code
        total = len(path) - 1
        done = total - sum(1 for nd in path[1:] if nd.chance is None and not self._reviewed_at(nd, rollouts))
        start = time.perf_counter()
        # with a value model the hybrid finds and measures (greedy rollouts to the next round, scored by the model)
        value = "hybrid" if self._model_win(path[0]) is not None else None
        self._set_progress(done, total, text(lang, "review_progress", i=done, n=total))
        # the decisions side by side in worker processes (as many as resources.default_processes allows), each
        # shown as it is judged; a cancel or another record loaded stops the pool

        def stop() -> bool:
            return job.cancel.is_set() or path[0] is not self.record.root

        def judged(i: int, _n: int) -> None:
            self._set_progress(done + i, total, text(lang, "review_progress", i=done + i, n=total))
            if i % 10 == 0:
                self._schedule_charts()

        record = path[0].record
        processes = default_processes()
        if done < total:
            run_review(record, rollouts=rollouts, node=path[-1], progress=False, luck=False, value=value,
                       skip=lambda nd: self._reviewed_at(nd, rollouts), on_result=judged, cancel=stop,
                       processes=processes)
            for nd in path[1:]:
                ann = nd.annotations.get(REVIEW_KEY)
                if isinstance(ann, dict) and "rollouts" not in ann:
                    ann["rollouts"] = rollouts
        if stop():
            self._say(text(lang, "cancelled"))
        else:
            # then the luck of every supply on the line (the review's hybrid rollouts; seconds, in one step)
            self._say(text(lang, "review_luck"))
            run_review(record, rollouts=rollouts, node=path[-1], progress=False, decisions=False, value=value,
                       cancel=stop, processes=processes)
            settings = self.record.root.annotations.get(REVIEW_KEY)
            if isinstance(settings, dict):
                settings["seconds"] = round(time.perf_counter() - start, 1)
            d = Review.from_record(self.record, node=path[-1]).decisions
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
        """The nodes of the line on the board (:meth:`review_line`) whose move the review flagged (inaccuracy
        or mistake), in order."""
        out = []
        for nd in self.review_line()[1:]:
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
        """Jump to a flagged decision (its node, or its ply on the line of :meth:`review_line`): the board shows
        the position in which the move was chosen, the panel the better move, its expected gain and its
        explanation; the panel stays on the flag's line (a variation too) while the board stays there."""
        line = self.review_line()
        if isinstance(node, int):
            node = line[max(1, min(node, len(line) - 1))]
        if node.parent is None:
            return
        self._shown_flag = node
        if any(nd is node for nd in line):
            self._flag_end = line[-1]
        else:  # a node of another line: that line
            self._flag_end = node
            while self._flag_end.children:
                self._flag_end = self._flag_end.children[0]
        self._flag_at = node.parent
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

    def _on_mark_click(self, trace: dict[str, Any], point: int) -> None:
        """A click on the chart (checked by the chart): on a review mark, show that decision."""
        meta = trace.get("meta") if isinstance(trace.get("meta"), dict) else {}
        plies = trace.get("customdata") or []
        if meta.get("series") == "review" and 0 <= point < len(plies):
            self.show_flag(int(plies[point]))

    def _on_flag_list(self, change: dict[str, Any]) -> None:
        if self._syncing or change["new"] is None:
            return
        self.show_flag(int(change["new"]))

    def _show_summary(self) -> None:
        """Per seat: share of best moves, inaccuracies, mistakes and luck (what the draws did to its win
        chance, summed over the supplies, in percentage points with a bound on its sampling error), from the
        review in the record along the line on the board; empty before a review. Every header says what its
        numbers mean (a title)."""
        lang = self.lang_code
        t = TEXTS[lang]
        line = self.review_line()
        # Every step redraws the panel; the summary changes only with the review's settings (a new dict per
        # review call), the record, the line or the language: rebuilding it each step cost ~6 ms.
        key = (self.record.root, self.record.root.annotations.get(REVIEW_KEY), line[-1], lang)
        last = self._summary_key
        if last is not None and all(a is b for a, b in zip(key[:3], last[:3], strict=True)) and lang == last[3]:
            return
        self._summary_key = key
        try:
            rv = Review.from_record(self.record, node=line[-1]) if self.reviewed else None
        except ValueError:
            rv = None
        if rv is None or not len(rv.decisions):
            self.review_summary.value = ""
            return
        summary = rv.summary()
        st = self.record.initial
        has_luck = len(rv.luck) > 0
        unit = t["pp"]

        def luck(r: Any) -> str:
            if not has_luck:
                return "<td>—</td>"
            shown = f"{100 * r.luck:+.0f}"
            if r.luck_margin == r.luck_margin:  # not NaN: a bound on the rollouts' noise is known
                shown += f" ± {100 * r.luck_margin:.0f}"
            tip = t["luck_cell_tip"].format(luck=f"{100 * r.luck:+.1f}", unit=unit)
            return f'<td class="ssl-luck" title="{html.escape(tip)}">{html.escape(shown)} {html.escape(unit)}</td>'

        rows = "".join(
            f"<tr><td>{html.escape(st.seat_name(int(r.Index), lang))}</td><td>{r.best_moves:.0%}</td>"
            f"<td>{r.inaccuracies}</td><td>{r.mistakes}</td>{luck(r)}</tr>"
            for r in summary.itertuples())
        levels = rv.settings.get("thresholds") or {}
        inacc, mist = levels.get("inaccuracy", {}), levels.get("mistake", {})
        tips = {
            "sum_best": t["sum_best_tip"],
            "inaccuracies": t["inaccuracies_tip"].format(win=f"{100 * inacc.get('win', 0):.0f}",
                                                         score=f"{inacc.get('score', 0):.1f}", unit=unit),
            "mistakes": t["mistakes_tip"].format(win=f"{100 * mist.get('win', 0):.0f}",
                                                 score=f"{mist.get('score', 0):.1f}", unit=unit),
            "sum_luck": t["sum_luck_tip"],
        }
        head = "".join(f'<th title="{html.escape(tip)}">{html.escape(t[k])}</th>' for k, tip in tips.items())
        self.review_summary.value = (f'<table class="ssl-review-summary" data-luck="{int(has_luck)}" '
                                     f'title="{html.escape(t["sum_tip"])}"><tr><th></th>{head}</tr>{rows}'
                                     "</table>")

    def _line_reviewed(self, line: list[Node]) -> bool:
        """Whether the review has judged a decision of ``line``."""
        return any(isinstance(nd.annotations.get(REVIEW_KEY), dict) for nd in line[1:])

    def _show_flags(self) -> None:
        """The per-seat summary, the flagged-moves list and, for the decision shown, the better alternative."""
        lang = self.lang_code
        t = TEXTS[lang]
        self._show_summary()
        line = self.review_line()
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
            self.flag_list.value = shown.ply if shown is not None and any(shown is nd for nd in nodes) else None
        finally:
            self._syncing = False
        if shown is None or shown.parent is None or self.node is not shown.parent:
            self.better_button.layout.display = "none"
            note = "no_review" if not self._line_reviewed(line) else ("no_flags" if not nodes else "")
            self.alternative.value = f'<div class="ssl-none">{html.escape(t[note])}</div>' if note else ""
            return
        ann = shown.annotations.get(REVIEW_KEY, {})
        before = shown.parent.state
        best = ann.get("best", "")
        try:
            why = before.explain_action(best, lang) if hasattr(before, "explain_action") else ""
        except Exception:  # an explanation is a help, never a reason to fail
            why = ""
        seat = before.seat_name(shown.actor, lang)
        head = t["alt"].format(ply=shown.ply, seat=html.escape(seat), action=html.escape(shown.action or ""),
                               flag=html.escape(t[ann.get("flag") or "mistake"]), best=html.escape(best))
        self.alternative.value = (f'<div class="ssl-why">{head}</div>{self._gain_html(ann, seat, lang)}'
                                  f"<div>{html.escape(why)}</div>")
        self.better_button.layout.display = ""

    def _gain_html(self, ann: dict[str, Any], seat: str, lang: str) -> str:
        """The better move's gain over the one played: win chance in percentage points and expected points, each
        with its 95% interval where the review's rollouts measured it, and a title saying how."""
        t = TEXTS[lang]
        unit = t["pp"]
        win = float(ann.get("best_win_prob", 0.0)) - float(ann.get("win_prob", 0.0))
        score = float(ann.get("best_score", 0.0)) - float(ann.get("score", 0.0))
        ci = ann.get("gain_ci")
        settings = self.record.root.annotations.get(REVIEW_KEY)
        by_model = isinstance(settings, dict) and settings.get("value") == "model"
        if isinstance(ci, dict) and ci.get("win") and ci.get("score"):
            (wlo, whi), (slo, shi) = ci["win"], ci["score"]
            n = int(ci.get("rollouts", 0))
            text_ = t["gain"].format(win=f"{100 * win:+.0f}", win_lo=f"{100 * wlo:+.0f}", win_hi=f"{100 * whi:+.0f}",
                                     score=f"{score:+.1f}", score_lo=f"{slo:+.1f}", score_hi=f"{shi:+.1f}", unit=unit)
            tip = t["gain_tip"].format(seat=seat, n=n, t=t95(n - 1) if n > 1 else float("nan"))
            cls = "ssl-gain"
        else:
            text_ = t["gain_plain"].format(win=f"{100 * win:+.0f}", score=f"{score:+.1f}", unit=unit)
            tip = t["gain_tip_model" if by_model else "gain_tip_none"].format(seat=seat)
            cls = "ssl-gain ssl-gain-plain"
        return f'<div class="{cls}" title="{html.escape(tip)}">{html.escape(text_)}</div>'
