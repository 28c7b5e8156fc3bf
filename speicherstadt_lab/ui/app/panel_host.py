"""The coordinator's side of the panel objects (``panel.py``): which panels the app has, how it shows them the node
and the settings, and what it does when they report an event. A part of :class:`~.lab.LabApp` (a mixin)."""

from __future__ import annotations

import threading
from typing import Any, NamedTuple

import pandas as pd

from ...bots import make_bot
from ...engine.errors import RearrangeError
from ...engine.rng import derive_seed
from ...lessons import Verdict
from ...records import Node
from ...reviewing import REVIEW_KEY, Review
from .. import charts
from .charts_panel import ChartsPanel, marks_table
from .classroom import ClassroomPanel
from .hint_panel import HintPanel
from .lessons_panel import LessonsPanel
from .live_panel import LivePanel, live_analysis
from .movelist import MoveListPanel
from .panel import Settings
from .review import ReviewPanel, reviewed
from .rules_panel import RulesPanel
from .scenario_panel import ScenarioPanel
from .seats import STAND_IN, SeatsPanel
from .texts import TEXTS
from .whatif_panel import WhatIfPanel, branch_of_chance, compare_table, wtext


class Panels(NamedTuple):
    """The app's panel objects (each a :class:`~.panel.Panel`), shown one after another in this order."""

    live: LivePanel
    rules: RulesPanel
    scenario: ScenarioPanel
    whatif: WhatIfPanel
    lessons: LessonsPanel
    seats: SeatsPanel
    hint: HintPanel
    moves: MoveListPanel
    review: ReviewPanel
    charts: ChartsPanel
    classroom: ClassroomPanel


def _alias(panel: str, attr: str) -> property:
    """A read-only app attribute that is the widget ``attr`` of ``panel`` (made when the panel builds it)."""

    def get(self: Any) -> Any:
        return getattr(getattr(self.panels, panel), attr)

    get.__doc__ = f"The {panel} panel's ``{attr}`` (``app.panels.{panel}.{attr}``)."
    return property(get)


class PanelHost:
    """A part of :class:`~.lab.LabApp` (a mixin): makes the panel objects, shows them the node and the settings,
    and reacts to their events; their widgets keep the app's public names."""

    # the Tutorial page's widgets, made with the page on first use
    lessons_back = _alias("lessons", "lessons_back")
    lesson_set_choice = _alias("lessons", "lesson_set_choice")
    lesson_progress = _alias("lessons", "lesson_progress")
    lesson_dots = _alias("lessons", "lesson_dots")
    lesson_intro = _alias("lessons", "lesson_intro")
    lesson_task = _alias("lessons", "lesson_task")
    lesson_feedback = _alias("lessons", "lesson_feedback")
    lesson_retry = _alias("lessons", "lesson_retry")
    lesson_prev = _alias("lessons", "lesson_prev")
    lesson_next = _alias("lessons", "lesson_next")
    lesson_board = _alias("lessons", "lesson_board")

    def open_lesson(self, name: str) -> bool:
        """Show the Tutorial page at the shipped lesson ``name`` (its id or file name); False (and nothing changes)
        if there is no such lesson."""
        if not self.panels.lessons.open_lesson(name):
            return False
        self.tutorial_button.value = True
        return True

    def next_lesson(self, step: int = 1) -> None:
        """The next lesson of the Tutorial page's set (``step=-1``: the one before)."""
        self.panels.lessons.next_lesson(step)

    def retry_lesson(self) -> None:
        """The lesson from its start again (its position, the bots moved until the learner decides)."""
        self.panels.lessons.retry_lesson()

    def lesson_move(self, action: str) -> Verdict:
        """The learner's move in the current lesson, as a click would play it; the verdict (IllegalAction for a
        move the rules refuse, nothing changed)."""
        return self.panels.lessons.lesson_move(action)

    def _make_panels(self, lang: str) -> Panels:
        """The panel objects, wired to the app."""
        self.panels = Panels(live=LivePanel(TEXTS[lang]["live"]), rules=RulesPanel(), scenario=ScenarioPanel(),
                             whatif=WhatIfPanel(), lessons=LessonsPanel(), seats=SeatsPanel(lang),
                             hint=HintPanel(), moves=MoveListPanel(lang),
                             review=ReviewPanel(lang), charts=ChartsPanel(lang, self._lock),
                             classroom=ClassroomPanel())
        self._wire_panels()
        return self.panels

    def _wire_panels(self) -> None:
        """Subscribe to the panels' events, and give their widgets the app's public names."""
        live, rules, scenario, whatif, lessons, seats, hint, moves, review, plots, classroom = self.panels
        lessons.on("back", self._show_lab_page)
        seats.on("seat", self._on_seat)
        seats.on("strength", self._bots.clear)
        self.seat_kinds, self.seat_labels, self.mcts_strength = seats.seat_kinds, seats.seat_labels, seats.mcts_strength
        live.on("toggled", self._show_parts)
        rules.on("opened", self._show_lab_page)
        scenario.on("start", self.start_scenario)
        whatif.on("make", lambda parts: self.make_chance_variation(**parts))
        whatif.on("compare", self.compare_lines)
        self.live, self.live_box = live.toggle, live.box
        self.rules, self.rules_button = rules.accordion, rules.button
        self.scenario_panel, self.scenario_note = scenario.accordion, scenario.note
        self.scenario_pick, self.scenario_current, self.scenario_text = scenario.pick, scenario.current, scenario.text
        self.scenario_start, self.scenario_error = scenario.start, scenario.error
        self.whatif_box, self.whatif_info, self.whatif_inputs = whatif.box, whatif.info, whatif.inputs
        self.whatif_make, self.whatif_compare = whatif.make, whatif.compare
        self.whatif_msg, self.whatif_table = whatif.msg, whatif.table
        self.hint_button, self.hint_box = hint.button, hint.box
        moves.on("select", self.goto)
        moves.on("step", self.step)
        moves.on("comment", self._on_comment)
        moves.on("refused", self._refused)
        self.tree, self.comment = moves.tree, moves.comment
        review.on("review", self.review_game)
        review.on("flag", lambda ply: self.show_flag(ply))
        review.on("better", self.play_better)
        self.review_button, self.review_rollouts, self.review_summary = review.button, review.rollouts, review.summary
        self.flag_list, self.alternative = review.flag_list, review.alternative
        self.better_button = review.better_button
        plots.on("win", self.compute_win_chances)
        plots.on("axis", lambda: self._schedule_charts(now=True))
        plots.on("mark", lambda ply: self.show_flag(ply))
        self.chart, self.x_mode, self.win_button = plots.chart, plots.x_mode, plots.win_button
        self.rollouts, self.rollout_bot = plots.rollouts, plots.rollout_bot
        classroom.on("share", self._show_share)
        classroom.on("projector", self._on_projector)
        self.share_button, self.projector_button = classroom.share_button, classroom.projector_button
        self.share_box, self.link_note = classroom.share_box, classroom.link_note

    def set_seat(self, seat: int, spec: str) -> None:
        """Who plays ``seat``: "human", "random", "greedy", "mcts" or a bot spec ("mcts:seconds=2")."""
        self.panels.seats.set_seat(seat, spec)
        self._bots.pop(seat, None)

    def seat_spec(self, seat: int) -> str:
        """Who plays ``seat``: "human" or a bot spec (MCTS with the chosen strength)."""
        return self.panels.seats.seat_spec(seat)

    def bot_for(self, seat: int, stand_in: bool = False) -> Any:
        """The bot of ``seat`` (for a human seat: the stand-in Greedy bot if ``stand_in``, else None)."""
        spec = self.seat_spec(seat)
        if spec == "human":
            if not stand_in:
                return None
            spec = STAND_IN
        hit = self._bots.get(seat)
        if hit is None or hit[0] != spec:
            seed = derive_seed(str(self.record.seed), "seat", seat) % (2 ** 31)
            hit = self._bots[seat] = (spec, make_bot(spec, seed=seed))
        return hit[1]

    def _on_seat(self, seat: int) -> None:
        """A seat's player changed (its dropdown or :meth:`set_seat`): a fresh bot for it, the What-if panel opened
        or closed, and if that seat is to move, the bots start (when they move by themselves). Not while
        ``new_game`` sets the seats of the game it is about to start."""
        self._bots.pop(seat, None)
        self.panels.whatif.show(self.node, self._settings())
        self.panels.hint.show(self.node, self._settings())  # the hint button is for a person to move
        if self._hold_auto:
            return
        if self.node.state.to_move == seat:
            self._maybe_autoplay()

    def _show_seat_controls(self) -> None:
        """The seats panel's rows for the player count chosen, named as in the record's game."""
        self.panels.seats.show_count(self.players.value, self.record.initial)

    def whatif_open(self) -> bool:
        """Whether the hidden order may be shown: a finished game is analysed, or bots play every seat.

        Not while a person plays: the What-if panel lists what is to come in its true order, a chance variation
        keeps the true order of everything not picked, and the comparison rolls out on each line's own order; each
        would give the hidden order away. Closed, the panel says so in one line."""
        if self.record.end().state.is_over:
            return True
        return all(self.seat_spec(i) != "human" for i in range(self.record.initial.n_players))

    def make_chance_variation(self, **parts: Any) -> Node | None:
        """A chance child of the node on the board with ``parts`` (``rearranged``'s keywords) and the board
        on it; a refused rearrangement changes nothing and says why, naming the field. None if refused.

        If a bot is to move there and bots move by themselves, they play on."""
        lang = self.lang_code
        panel = self.panels.whatif
        if self._refuse_if_playing():
            return None
        if not self.whatif_open():
            panel.say(wtext(lang, "closed"), error=True)
            return None
        if not parts:
            panel.say(wtext(lang, "nothing"), error=True)
            return None
        with self._lock:
            try:
                child = self.node.rearrange(**parts)
            except RearrangeError as e:
                panel.say(wtext(lang, "refused", field=e.field, detail=e.detail), error=True)
                return None
            except (TypeError, ValueError) as e:
                panel.say(wtext(lang, "refused", field="parts", detail=str(e)), error=True)
                return None
            panel.clear_picks()
            self._move_to(child)
        panel.say(wtext(lang, "made", text=child.action or ""), ok=True)
        self._maybe_autoplay()  # the new line goes on like any other: bots to move play on by themselves
        return child

    def branch_of_chance(self, node: Node | None = None) -> Node | None:
        """The nearest node at or above ``node`` (default: the board's) with a chance variation among its
        children, or None."""
        return branch_of_chance(node or self.node)

    def compare_table(self, node: Node | None = None) -> pd.DataFrame:
        """One row per line leaving the branch point (as played first, then each chance variation): the line's
        first step, each seat's win chance there and its final points where played to the end (NaN where not)."""
        return compare_table(node or self.node)

    def compare_lines(self) -> pd.DataFrame | None:
        """Show the What-if panel's comparison table (one click); None when there is nothing to compare."""
        return self.panels.whatif.show_comparison(self.node)

    def fill_scenario(self, name: str | None = None) -> bool:
        """Put a scenario's JSON in the scenario panel's text area: the shipped scenario ``name``, or (None) the
        position on the board. False (and the reason on the panel's error line) for a position that cannot be one."""
        return self.panels.scenario.fill(name, self.node)

    def start_scenario(self, source: str | dict[str, Any] | None = None) -> bool:
        """Start a new record from a scenario: ``source`` (JSON text or data), default the text area's.

        Every seat becomes human (nothing moves before the user does), and the scenario's title and text stand above the
        board. A wrong scenario changes nothing: the panel's error line names the field, and the result is False."""
        if self._refuse_if_busy():
            return False
        panel = self.panels.scenario
        got = panel.read(source)
        if got is None:
            return False
        record, data = got
        for seat in range(record.initial.n_players):  # the position stays as described until the user acts
            self.set_seat(seat, "human")
        self._use_record(record, record.root)
        panel.started(data, record.initial)
        self._say("")
        return True

    @property
    def reviewed(self) -> bool:
        """True if the record holds a review (run here or loaded with the record)."""
        return reviewed(self.record)

    def review(self) -> Review:
        """The review saved in the record along the line on the board (ValueError if there is none)."""
        with self._lock:
            return Review.from_record(self.record, node=self.review_line()[-1])

    def review_line(self) -> list[Node]:
        """The line the review works on: the line on the board (``line()``); while the board shows the position of a
        flag opened from the list or the chart, that flag's line."""
        return self.panels.review.review_line(self.node)

    def flagged(self) -> list[Node]:
        """The nodes of :meth:`review_line` whose move the review flagged (inaccuracy or mistake), in order."""
        return self.panels.review.flagged(self.node)

    def review_marks(self, x: str = "ply") -> pd.DataFrame:
        """The flagged decisions as chart marks (:data:`charts.MARK_COLUMNS`)."""
        return marks_table(self.flagged(), x)

    def show_flag(self, node: Node | int) -> None:
        """Jump to a flagged decision (its node, or its ply on the line of :meth:`review_line`): the board shows
        the position in which the move was chosen, the review panel the better move, its gain and its explanation."""
        line = self.review_line()
        if isinstance(node, int):
            node = line[max(1, min(node, len(line) - 1))]
        if node.parent is None:
            return
        self.panels.review.open_flag(node, line)
        self.goto(node.parent)
        with self._lock:
            self.panels.review.show(self.node, self._settings())

    def play_better(self) -> Node | None:
        """Play the better move of the decision shown (a new variation, or the existing one)."""
        node = self.panels.review.shown_flag
        if node is None or node.parent is None:
            return None
        best = node.annotations.get(REVIEW_KEY, {}).get("best")
        if not best:
            return None
        with self._lock:
            self._move_to(node.parent)
        return self.play(best)

    # ---- the charts ---------------------------------------------------------------------------------------

    def win_positions(self) -> list[Node]:
        """The positions the win chances are computed for: the start of each round and the last node along
        the current line (and along the main line, when the board shows a variation), and the node on the board."""
        return self.panels.charts.win_positions(self.node)

    def chart_specs(self) -> tuple[charts.Spec, charts.Spec]:
        """The specs of the progress and win charts for the node on the board."""
        with self._lock:
            node, settings = self.node, self._settings()
            flagged = self.panels.review.flagged(node) if reviewed(self.record) else None
        return self.panels.charts.specs(node, settings, flagged)

    def _schedule_charts(self, now: bool = False) -> None:
        """Refresh the charts ``chart_delay`` seconds from now (a newer call replaces a pending one)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if now or self.chart_delay <= 0:
            self.refresh_charts()
            return
        self._timer = threading.Timer(self.chart_delay, self.refresh_charts)
        self._timer.daemon = True
        self._timer.start()

    def flush_charts(self) -> None:
        """Refresh the charts now if a refresh is pending."""
        timer = self._timer
        if timer is not None:
            timer.cancel()
            self._timer = None
            self.refresh_charts()

    def refresh_charts(self) -> None:
        """Bring the charts up to date with the node on the board (the charts panel draws the node it was shown)."""
        panels = getattr(self, "panels", None)
        if panels is None or panels.charts.node is None:
            return  # still building the controls
        with self._lock:
            node = panels.charts.node
            flagged = panels.review.flagged(node) if reviewed(node.record) else None
        panels.charts.draw(flagged)

    def _show_lab_page(self) -> None:
        """The lab's page in place of the lessons (a panel of the lab page was opened)."""
        self.tutorial_button.value = False

    def _settings(self) -> Settings:
        """What the panels are shown besides the node: the language, threading, whether bots are moving."""
        job = self._job
        to_move = self.node.state.to_move
        human = to_move is not None and not self.node.state.is_over and self.seat_spec(to_move) == "human"
        return Settings(lang=self.lang_code, threaded=self.threaded, bots_playing=job is not None and job.plays,
                        hidden_open=self.whatif_open(), human_to_move=human)

    def _show_parts(self) -> None:
        """Show every panel object the node on the board with the current settings."""
        settings = self._settings()
        for panel in getattr(self, "panels", ()):
            panel.show(self.node, settings)

    def live_result(self, node: Node | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
        """The live analysis of ``node`` (default: the node on the board) as tables, for scripts and tests."""
        return live_analysis((node or self.node).state)
