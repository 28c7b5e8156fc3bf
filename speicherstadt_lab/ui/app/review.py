"""The review panel: a review of the line on the board in the background, the flagged decisions listed and
marked on the chart, the better move shown with its gain (and that gain's 95% interval) and its explanation,
and played as a branch. Luck is shown as a change of win chance in percentage points, never as a percentage."""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w
from ipywidgets.widgets.widget_description import DescriptionStyle
from ipywidgets.widgets.widget_string import HTMLStyle

from ...analysis import t95
from ...records import GameRecord, Node
from ...reviewing import REVIEW_KEY, Review
from ...reviewing import REVIEW_ROLLOUTS as _DEFAULTS
from ..shared_layout import fixed_layout, fixed_style
from .panel import Panel, Settings, line_of
from .texts import TEXTS

REVIEW_ROLLOUTS = _DEFAULTS["hybrid"]  # per action at each decision (the review's default for the hybrid)


def reviewed(record: GameRecord) -> bool:
    """True if ``record`` holds a review (run in the app or loaded with the record)."""
    return isinstance(record.root.annotations.get(REVIEW_KEY), dict)


def reviewed_at(node: Node, rollouts: int) -> bool:
    """Whether the review has judged the move into ``node`` with ``rollouts`` rollouts per action."""
    ann = node.annotations.get(REVIEW_KEY)
    return isinstance(ann, dict) and ann.get("rollouts", rollouts) == rollouts


class ReviewPanel(Panel):
    """The review's controls, its per-seat summary, the flagged decisions and the better move of the one opened. Emits
    ``review`` (its button), ``flag`` (``ply``: a flag picked in the list) and ``better`` (play the better move)."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        t = TEXTS[lang]
        lay = fixed_layout  # shared, frozen: never changed later (the better button has its own)
        button, plain = fixed_style(w.ButtonStyle), fixed_style(HTMLStyle)
        self.button = w.Button(description=t["review"], button_style="primary", layout=lay(width="auto"),
                               style=button)
        self.button.add_class("ssl-review-btn")
        self.rollouts = w.BoundedIntText(value=REVIEW_ROLLOUTS, min=2, max=500, step=5,
                                         description=t["review_rollouts"],
                                         style=fixed_style(DescriptionStyle, description_width="auto"),
                                         layout=lay(width="200px"))
        self.rollouts.add_class("ssl-review-rollouts")
        self.flag_list = w.Select(options=[], rows=6, layout=lay(width="100%"), style=fixed_style(DescriptionStyle))
        self.flag_list.add_class("ssl-flag-list")
        self.summary = w.HTML(layout=lay(width="100%"), style=plain)  # per seat: best moves, flags, luck
        self.alternative = w.HTML(layout=lay(width="100%"), style=plain)
        self.alternative.add_class("ssl-explain")
        self.better_button = w.Button(description=t["play_better"], button_style="success",
                                      layout=w.Layout(width="auto", display="none"), style=button)
        self.title = w.HTML(layout=lay(), style=plain)
        self.title.add_class("ssl-panel-title")
        self.box = w.VBox([w.HBox([self.button, self.rollouts], layout=lay(align_items="center")), self.summary,
                           self.title, self.flag_list, self.alternative, self.better_button],
                          layout=lay(width="340px", flex="0 0 340px"))
        self._summary_key: tuple[Any, Any, Any, str] | None = None  # what the summary shown was built from
        # The line of the flag opened last and the position it showed: while the board stays there, the panel keeps
        # that line (a flagged first move of a variation puts the board on its branch point, on the main line too).
        self._flag_end: Node | None = None
        self._flag_at: Node | None = None
        self._shown_flag: Node | None = None
        self._root: Node | None = None  # the record's root the flags were opened in
        self._syncing = False
        self.button.on_click(lambda _b: self.emit("review"))
        self.better_button.on_click(lambda _b: self.emit("better"))
        self.flag_list.observe(self._on_flag_list, "value")

    @property
    def shown_flag(self) -> Node | None:
        """The flagged decision opened last (its node: the move the review flagged), or None."""
        return self._shown_flag

    def relabel(self, lang: str) -> None:
        """The panel's labels in ``lang``."""
        t = TEXTS[lang]
        self.button.description = t["review"]
        self.rollouts.description = t["review_rollouts"]
        self.rollouts.tooltip = t["review_rollouts_tip"]
        self.better_button.description = t["play_better"]
        self.title.value = html.escape(t["flagged"])

    def show(self, node: Node, settings: Settings) -> None:
        """The summary, the flags and the decision opened, for the line of ``node``; a new record forgets the flag
        opened, a new language relabels."""
        super().show(node, settings)
        if node.record.root is not self._root:
            self._root, self._shown_flag, self._flag_end, self._flag_at = node.record.root, None, None, None
        self._show_flags(node, settings.lang)

    def invalidate(self) -> None:
        """Build the summary again with the next :meth:`show` (the review's numbers were changed in place)."""
        self._summary_key = None

    def review_line(self, node: Node) -> list[Node]:
        """The line the review works on: ``node``'s line (from the start through it, on along first children);
        while ``node`` is the position of a flag opened from the list or the chart, that flag's line."""
        end, at = self._flag_end, self._flag_at
        if end is not None and at is node and end.record is node.record:
            path = node.record.path_to(end)
            if any(nd is at for nd in path):
                return path
        return line_of(node)

    def flagged(self, node: Node) -> list[Node]:
        """The nodes of :meth:`review_line` whose move the review flagged (inaccuracy or mistake), in order."""
        out = []
        for nd in self.review_line(node)[1:]:
            ann = nd.annotations.get(REVIEW_KEY)
            if isinstance(ann, dict) and ann.get("flag"):
                out.append(nd)
        return out

    def open_flag(self, node: Node, line: list[Node]) -> None:
        """Open the flagged decision ``node`` (a node of ``line``, or of another line: that one): the panel keeps
        its line while the board stays at the position it was chosen in (``node.parent``)."""
        self._shown_flag = node
        if any(nd is node for nd in line):
            self._flag_end = line[-1]
        else:  # a node of another line: that line
            self._flag_end = node
            while self._flag_end.children:
                self._flag_end = self._flag_end.children[0]
        self._flag_at = node.parent

    def _on_flag_list(self, change: dict[str, Any]) -> None:
        if self._syncing or change["new"] is None:
            return
        self.emit("flag", ply=int(change["new"]))

    def _show_summary(self, node: Node, lang: str) -> None:
        """Per seat: share of best moves, inaccuracies, mistakes and luck (what the draws did to its win
        chance, summed over the supplies, in percentage points with a bound on its sampling error), from the
        review in the record along the line on the board; empty before a review. Every header says what its
        numbers mean (a title)."""
        t = TEXTS[lang]
        record = node.record
        line = self.review_line(node)
        # Every step redraws the panel; the summary changes only with the review's settings (a new dict per
        # review call), the record, the line or the language: rebuilding it each step cost ~6 ms.
        key = (record.root, record.root.annotations.get(REVIEW_KEY), line[-1], lang)
        last = self._summary_key
        if last is not None and all(a is b for a, b in zip(key[:3], last[:3], strict=True)) and lang == last[3]:
            return
        self._summary_key = key
        try:
            rv = Review.from_record(record, node=line[-1]) if reviewed(record) else None
        except ValueError:
            rv = None
        if rv is None or not len(rv.decisions):
            self.summary.value = ""
            return
        summary = rv.summary()
        st = record.initial
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
        self.summary.value = (f'<table class="ssl-review-summary" data-luck="{int(has_luck)}" '
                                     f'title="{html.escape(t["sum_tip"])}"><tr><th></th>{head}</tr>{rows}'
                                     "</table>")

    def _show_flags(self, node: Node, lang: str) -> None:
        """The per-seat summary, the flagged-moves list and, for the decision shown, the better alternative."""
        t = TEXTS[lang]
        record = node.record
        self._show_summary(node, lang)
        line = self.review_line(node)
        nodes = self.flagged(node) if reviewed(record) else []
        st = record.initial
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
        if shown is None or shown.parent is None or node is not shown.parent:
            self.better_button.layout.display = "none"
            judged = any(isinstance(nd.annotations.get(REVIEW_KEY), dict) for nd in line[1:])
            note = "no_review" if not judged else ("no_flags" if not nodes else "")
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
        self.alternative.value = (f'<div class="ssl-why">{head}</div>{self._gain_html(ann, seat, lang, record)}'
                                  f"<div>{html.escape(why)}</div>")
        self.better_button.layout.display = ""

    def _gain_html(self, ann: dict[str, Any], seat: str, lang: str, record: GameRecord) -> str:
        """The better move's gain over the one played: win chance in percentage points and expected points, each
        with its 95% interval where the review's rollouts measured it, and a title saying how."""
        t = TEXTS[lang]
        unit = t["pp"]
        win = float(ann.get("best_win_prob", 0.0)) - float(ann.get("win_prob", 0.0))
        score = float(ann.get("best_score", 0.0)) - float(ann.get("score", 0.0))
        ci = ann.get("gain_ci")
        settings = record.root.annotations.get(REVIEW_KEY)
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
