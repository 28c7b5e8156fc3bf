"""The analysis app: the board, a game record with variations, bots, charts, save and load.

``LabApp()`` is what ``notebooks/app.ipynb`` shows (``make app`` serves it with Voilà). Every control is an
attribute, and every button has a method doing the same, so the app can be driven from Python::

    app = LabApp()
    app.new_game(players=3, seed=1, seats=["human", "greedy", "random"])
    app.play("place 2"); app.back(); app.play("place 3")      # a variation at ply 1
    app.bot_move(); app.wait()                                 # long work runs in a background thread
    text = app.save_json(); app.load_json(text)

Long work (bot moves, playing on, win chances) runs in one background thread at a time, with progress and
a cancel button; the board and the controls stay usable meanwhile. Charts follow the game a moment after
the board (``chart_delay``), so clicking stays quick.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import ipywidgets as w
from ipywidgets.widgets.widget_bool import CheckboxStyle, ToggleButtonStyle
from ipywidgets.widgets.widget_description import DescriptionStyle

from ...engine.errors import IllegalAction
from ...engine.protocol import find_variant, game_variants, get_game
from ...lazyimport import pandas as pd
from ...records import GameRecord, Node
from .. import board_for
from ..charts import Spec
from ..model import LOG_SIZE
from ..shared_layout import fixed_layout, fixed_style
from .jobs import Job
from .jobs_panel import Analyses, JobBar, JobRunner
from .labels import Labels, check_lang
from .live_panel import live_analysis
from .movelist import MoveListError
from .navigation import Explanation, NavBar, Navigation, log_history
from .page import FILL, Page
from .panel import Settings, swap_options
from .panel_host import Bots, ChartTimer, ReviewDesk, WhatIf, alias, make_panels
from .playing import Player
from .seats import MAX_SEATS, SEAT_KINDS, STAND_IN, STRENGTHS
from .sharing import Files, Openers, Screen, Sharing
from .texts import TEXTS, text
from .widgets import Loader, Saver

# The board in the app: the top bar's one language switch sets its texts (the keys ← → Home End: the move list's).
BOARD_IN_APP = {"lang_switch": False}


def variant_of(state: Any) -> str:
    """The chooser's key for the game ``state`` belongs to: the variant of its game whose options it has
    (the one with the most options, so the expansion wins over the plain game)."""
    fits = [(len(v.options), v.key) for v in get_game(state.game).choices()
            if all(getattr(state, k, None) == x for k, x in v.options.items())]
    return max(fits)[1] if fits else state.game


class LabApp:
    """The analysis app. ``widget`` is the whole app; the controls are attributes (see the module doc).

    The coordinator: it owns the record, the node on the board, the lock, the job runner's threads and the charts'
    timer, and composes its parts (``labels``, ``navigation``, ``jobs``, ``analyses``, ``sharing``, ``bots``), each
    given what it needs; the panel objects (``panels``: :class:`~.panel_host.Panels`) are shown the node and the
    :class:`~.panel.Settings` after every step and report back through events.

    ``threaded=False`` runs long work in the calling thread (simple scripts); ``chart_delay`` is how long
    the charts wait after the last move before they follow (0: at once). ``query`` is a page's query string to open
    (``"lang=de&game=packet_row"``: :meth:`open_query`, ``docs/sharing.md``).
    """

    # the Tutorial page's widgets, made with the page on first use
    lessons_back = alias("panels.lessons", "lessons_back")
    lesson_set_choice = alias("panels.lessons", "lesson_set_choice")
    lesson_progress = alias("panels.lessons", "lesson_progress")
    lesson_dots = alias("panels.lessons", "lesson_dots")
    lesson_intro = alias("panels.lessons", "lesson_intro")
    lesson_task = alias("panels.lessons", "lesson_task")
    lesson_feedback = alias("panels.lessons", "lesson_feedback")
    lesson_retry = alias("panels.lessons", "lesson_retry")
    lesson_prev = alias("panels.lessons", "lesson_prev")
    lesson_next = alias("panels.lessons", "lesson_next")
    lesson_board = alias("panels.lessons", "lesson_board")
    next_lesson = alias("panels.lessons", "next_lesson")
    retry_lesson = alias("panels.lessons", "retry_lesson")
    lesson_move = alias("panels.lessons", "lesson_move")
    # the scenario panel's controls, made when it is first opened or one of them is asked for
    scenario_pick = alias("panels.scenario", "pick")
    scenario_current = alias("panels.scenario", "current")
    scenario_text = alias("panels.scenario", "text")
    scenario_start = alias("panels.scenario", "start")
    scenario_error = alias("panels.scenario", "error")
    # the What-if panel's controls, made when it first opens or one of them is asked for
    whatif_inputs = alias("panels.whatif", "inputs")
    whatif_make = alias("panels.whatif", "make")
    whatif_compare = alias("panels.whatif", "compare")
    whatif_msg = alias("panels.whatif", "msg")
    whatif_table = alias("panels.whatif", "table")
    # the record cursor (navigation.py)
    goto = alias("navigation", "goto")
    first = alias("navigation", "first")
    back = alias("navigation", "back")
    forward = alias("navigation", "forward")
    last = alias("navigation", "last")
    goto_ply = alias("navigation", "goto_ply")
    promote = alias("navigation", "promote")
    step = alias("navigation", "step")
    set_comment = alias("navigation", "set_comment")
    line = alias("navigation", "line")
    # the seats' bots (panel_host.py), the charts' timer, the job runner
    seat_spec = alias("bots", "seat_spec")
    set_seat = alias("bots", "set_seat")
    # moves (playing.py)
    play = alias("player", "play")
    bot_move = alias("player", "bot_move")
    play_to_round_end = alias("player", "play_to_round_end")
    play_to_end = alias("player", "play_to_end")
    bot_for = alias("player", "bot_for")
    # the review's decisions and chance variations (panel_host.py)
    reviewed = alias("review_desk", "reviewed")
    review = alias("review_desk", "review")
    review_line = alias("review_desk", "review_line")
    flagged = alias("review_desk", "flagged")
    review_marks = alias("review_desk", "review_marks")
    show_flag = alias("review_desk", "show_flag")
    play_better = alias("review_desk", "play_better")
    whatif_open = alias("whatif", "whatif_open")
    make_chance_variation = alias("whatif", "make_chance_variation")
    branch_of_chance = alias("whatif", "branch_of_chance")
    compare_table = alias("whatif", "compare_table")
    compare_lines = alias("whatif", "compare_lines")
    flush_charts = alias("charts_timer", "flush")
    refresh_charts = alias("charts_timer", "refresh")
    cancel = alias("jobs", "cancel")
    # links and the record as a file (sharing.py)
    open_query = alias("sharing", "open_query")
    share_query = alias("sharing", "query")
    share_link = alias("sharing", "link")
    binder_link = alias("sharing", "binder_link")
    save_json = alias("files", "save_json")
    load_json = alias("files", "load_json")
    _file = alias("files", "file")
    # the page's boxes (page.py)
    _main = alias("page", "main")
    _lab_page = alias("page", "lab_page")
    _lab_box = alias("page", "lab_box")
    _tutorial_box = alias("page", "tutorial_box")
    _page = alias("page", "page")

    def __init__(self, players: int = 3, seed: int = 1, seats: Sequence[str] | None = None, lang: str = "en",
                 threaded: bool = True, chart_delay: float = 0.12, query: str | None = None) -> None:
        check_lang(lang)
        self.threaded = threaded
        self._lock = threading.RLock()
        # The first live analysis (pandas, numpy, the value model and a judgement: about half a second of CPU) and the
        # other games' modules (the chooser offers the games imported so far) wait, like the first charts, for a page
        # to have drawn (the chart, below the board) or, the live analysis, anything after the start: in the kernel they
        # would take the CPU the page needs to draw the first board (benchmarks/app.py). Not threaded, both come at
        # once (the caller waits anyway).
        self._live_waits = threaded
        self._starting = True
        # the first game's record, made once: the board is drawn on it as it is made, and the first new game is it
        self.record = GameRecord.new(players=players, seed=seed)
        self.node = self.record.root
        self._build_controls(lang, chart_delay)
        self._new_game(players, seed, seats, None, self.record)
        self._apply_lang(charts_now=False)
        if query:
            self.open_query(query)
        # The first charts wait for a page to draw the chart (its "wanted" event), a step, or refresh_charts(): they
        # are below the fold and need pandas, and the first board does not wait for them (benchmarks/app.py).
        self.charts_timer.cancel()
        self._starting = False
        if not threaded:
            self._offer_games()  # a script's app: every game at once (in a page, once the page has drawn)

    # ---- controls and parts ----------------------------------------------------------------------------

    def _build_controls(self, lang: str, chart_delay: float) -> None:
        t = TEXTS[lang]
        lay = fixed_layout  # shared, frozen: never changed later
        button, auto = fixed_style(w.ButtonStyle), fixed_style(DescriptionStyle, description_width="auto")
        here = self._here
        panels = self.panels = make_panels(lang, self._lock)
        self.charts_timer = ChartTimer(chart_delay, self._lock, panels.charts, panels.review)
        self.bots = Bots(panels.seats)
        labels = self.labels = Labels(lang)
        self.lang = labels.switch
        self.players = labels.add(w.BoundedIntText(value=3, min=2, max=MAX_SEATS, description=t["players"],
                                                   style=auto, layout=lay(width="104px")),
                                  "description", "players")
        self.seed = labels.add(w.IntText(value=1, description=t["seed"], style=auto, layout=lay(width="124px")),
                               "description", "seed")
        self.new_button = labels.add(w.Button(description=t["new"], button_style="warning", layout=lay(width="auto"),
                                              style=button), "description", "new")
        # the games imported so far (another game's rules are imported when the page has drawn: _offer_games)
        self.game = w.Dropdown(options=[(v.title, key) for key, (_i, v) in game_variants(imported=True).items()],
                               value=variant_of(self.record.initial), layout=lay(width="230px"),
                               style=fixed_style(DescriptionStyle))
        self.saver = labels.add(Saver(lambda: self.files.file(), label=t["save"], layout=lay()), "label", "save")
        self.loader = labels.add(Loader(lambda _name, data: self.load_json(data), label=t["load"], layout=lay()),
                                 "label", "load")

        # made with the layout the page gives it: no Layout model of its own made and dropped
        self.board = board_for(self.record.initial, lang=lang, layout=lay(**FILL), **BOARD_IN_APP)

        nav = self.nav = NavBar(lang)  # the record cursor's controls and the cursor (navigation.py)
        self.first_button, self.back_button, self.slider = nav.first_button, nav.back_button, nav.slider
        self.forward_button, self.last_button = nav.forward_button, nav.last_button
        self.position, self.promote_button = nav.position, nav.promote_button
        self.navigation = Navigation(nav, self._lock, here, self._move_to, self._refuse_if_playing,
                                     panels.moves.invalidate, panels.moves.refresh)

        self.bot_button = labels.add(w.Button(description=t["bot"], button_style="info", layout=lay(width="auto"),
                                              style=button), "description", "bot")
        self.round_button = labels.add(w.Button(description=t["round"], layout=lay(width="auto"), style=button),
                                       "description", "round")
        self.end_button = labels.add(w.Button(description=t["end"], layout=lay(width="auto"), style=button),
                                     "description", "end")
        labels.add(self.round_button, "tooltip", "stand_in")
        labels.add(self.end_button, "tooltip", "stand_in")
        self.auto = labels.add(w.Checkbox(value=True, description=t["auto"], indent=False, layout=lay(width="auto"),
                                          style=fixed_style(CheckboxStyle)), "description", "auto")
        bar = self.job_bar = JobBar(lang)  # the job's controls and the message line, the job runner (jobs_panel.py)
        self.cancel_button, self.progress, self.status, self.message = (bar.cancel_button, bar.progress, bar.status,
                                                                        bar.message)
        self.jobs = JobRunner(bar, self._lock, self.threaded, lambda: self.lang_code, self._job_started,
                              self._job_ended)
        self.analyses = Analyses(self.jobs, panels.charts, here, lambda now: self.charts_timer.schedule(now),
                                 self._show_review)

        self.explain = Explanation()  # the bot's reasons (navigation.py)
        self.explanation = self.explain.widget
        self.player = Player(self._lock, self.jobs, self.bots, self.explain, here, self._move_to, self._keep,
                             lambda: bool(self.auto.value), lambda: self.lang_code)
        self.review_desk = ReviewDesk(panels.review, self._lock, here, self.goto, self._move_to, self.play,
                                      self._settings)
        self.whatif = WhatIf(panels.whatif, self.bots, self._lock, here, self._move_to, self._refuse_if_playing,
                             self.player.autoplay, lambda: self.lang_code)

        self.tutorial_button = labels.add(w.ToggleButton(value=False, layout=lay(width="auto"),
                                                         style=fixed_style(ToggleButtonStyle)), "description",
                                          "tutorial")
        self.tutorial_button.add_class("ssl-tutorial-btn")
        self.tutorial_button.observe(lambda _c: self._show_page(), "value")

        # wiring (the cursor's and the job bar's buttons are wired by their parts)
        self.new_button.on_click(lambda _b: self.new_game())
        self.bot_button.on_click(lambda _b: self.bot_move())
        self.round_button.on_click(lambda _b: self.play_to_round_end())
        self.end_button.on_click(lambda _b: self.play_to_end())
        self.players.observe(lambda _c: self._show_seat_controls(), "value")
        self.lang.observe(lambda _c: self._apply_lang(), "value")
        self._wire_board()
        self.auto.observe(lambda c: self.player.autoplay() if c["new"] else None, "value")
        self._wire_panels()
        self.files = Files(self.jobs, self._lock, lambda: self.lang_code, lambda: self.record,
                           lambda record: self._use_record(record, record.end()))
        self.sharing = Sharing(panels.classroom, Openers(
            set_lang=self.set_lang, new_game=self.new_game, open_lesson=self.open_lesson,
            start_scenario=self.start_scenario, use_record=lambda record: self._use_record(record, record.end()),
            record=lambda: self.record, move_to=self._move_locked,
            projector=lambda on: setattr(self.projector_button, "value", on), game=lambda: str(self.game.value)),
            self._screen)

        self.widget = self._layout()

    def _wire_panels(self) -> None:
        """Subscribe to the panels' events, and give their widgets the app's public names."""
        live, rules, scenario, whatif, lessons, seats, hint, moves, review, plots, classroom = self.panels
        lessons.on("back", self._show_lab_page)
        seats.on("seat", self._on_seat)
        seats.on("strength", self.bots.forget)
        self.seat_kinds, self.seat_labels, self.mcts_strength = seats.seat_kinds, seats.seat_labels, seats.mcts_strength
        live.on("toggled", self._show_parts)
        rules.on("opened", self._show_lab_page)
        scenario.on("start", self.start_scenario)
        whatif.on("make", lambda parts: self.make_chance_variation(**parts))
        whatif.on("compare", self.compare_lines)
        self.live, self.live_box = live.toggle, live.box
        self.rules, self.rules_button = rules.accordion, rules.button
        self.scenario_panel, self.scenario_note = scenario.accordion, scenario.note
        self.whatif_box, self.whatif_info = whatif.box, whatif.info
        self.hint_button, self.hint_box = hint.button, hint.box
        moves.on("select", self.goto)
        moves.on("step", self.step)
        moves.on("comment", self._on_comment)
        moves.on("refused", lambda message: self._say(message, error=True))  # a bad browser message: said why
        self.tree, self.comment = moves.tree, moves.comment
        review.on("review", self.review_game)
        review.on("flag", lambda ply: self.show_flag(ply))
        review.on("better", self.play_better)
        self.review_button, self.review_rollouts, self.review_summary = review.button, review.rollouts, review.summary
        self.flag_list, self.alternative = review.flag_list, review.alternative
        self.better_button = review.better_button
        plots.on("win", self.compute_win_chances)
        plots.on("axis", lambda: self.charts_timer.schedule(now=True))
        plots.on("wanted", lambda: self.charts_timer.schedule())
        plots.chart.on_shown(self._page_drawn)  # each view of the chart, drawn below the board: the page is up
        plots.on("mark", lambda ply: self.show_flag(ply))
        self.chart, self.x_mode, self.win_button = plots.chart, plots.x_mode, plots.win_button
        self.rollouts, self.rollout_bot = plots.rollouts, plots.rollout_bot
        classroom.on("share", lambda: self.sharing.show())
        classroom.on("projector", self._on_projector)
        self.share_button, self.projector_button = classroom.share_button, classroom.projector_button
        self.share_box, self.link_note = classroom.share_box, classroom.link_note

    def _layout(self) -> w.Widget:
        panels = self.panels
        bots = w.HBox([self.bot_button, self.round_button, self.end_button], layout=fixed_layout(flex_flow="row wrap"))
        strength = w.HBox([self.mcts_strength, self.auto], layout=fixed_layout(align_items="center"))
        nav, where, job = self.nav.row, self.nav.where, self.job_bar.row
        page = self.page = Page(
            self.labels, top=[self.game, self.players, self.seed, self.new_button],
            right=[self.rules_button, self.share_button, self.projector_button, self.tutorial_button, self.saver,
                   self.loader, self.lang], board=self.board,
            sidebar=[("tree", [nav, where, self.tree, self.comment]),
                     ("seats", [panels.seats.box, strength, bots, job, self.message]),
                     ("live_panel", [self.live, self.live_box, w.HBox([self.hint_button], layout=fixed_layout()),
                                     self.hint_box]),
                     (None, [panels.whatif.panel]), ("explain", [self.explanation])],
            rows=[nav, where, bots, job, strength], chart_bar=[self.x_mode, self.win_button, self.rollouts,
                                                               self.rollout_bot],
            chart=self.chart, review=panels.review.box,
            notices=[self.link_note, self.share_box, self.rules, self.scenario_note],  # the scenario's notice, too
            below=[self.scenario_panel], head=[panels.classroom.css], tutorial=panels.lessons.page)
        self.probe = page.probe
        return page.widget

    def _show_page(self) -> None:
        """The Tutorial page in place of the lab page, or back (the tutorial button): the lesson redrawn in the app's
        language, its state kept."""
        shown = bool(self.tutorial_button.value)
        self.page.show(shown)
        if shown:
            self.panels.lessons.redraw()

    def _show_lab_page(self) -> None:
        """The lab's page in place of the lessons (a panel of the lab page was opened)."""
        self.tutorial_button.value = False

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)  # the first charts come when the page has drawn the chart (``__init__``)

    def close(self) -> None:
        """Stop the running job and pending chart updates, and close every widget of the app."""
        self.jobs.cancel()
        self.wait()
        for panel in self.panels:
            panel.close()
        self.charts_timer.cancel()
        stack: list[Any] = [self.widget, *self.panels.seats.made()]  # the seats not shown, too
        while stack:
            widget = stack.pop()
            stack.extend(getattr(widget, "children", ()))
            widget.close()

    # ---- language ---------------------------------------------------------------------------------------

    @property
    def lang_code(self) -> str:
        """The app's language, "en" or "de" (the top bar's switch)."""
        return self.labels.code

    def set_lang(self, lang: str) -> None:
        """Switch the app, the board and the charts to ``lang`` ("en" or "de")."""
        self.labels.set(lang)  # the switch's observer does the rest

    def _apply_lang(self, charts_now: bool = True) -> None:
        lang = self.lang_code
        if self.board.lang != lang:
            self.board.lang = lang
        self.labels.relabel()
        self.nav.relabel(lang)
        self.job_bar.relabel(lang)
        if self.tutorial_button.value:
            self._show_page()
        self._show_seat_controls()
        with self._lock:
            self.explain.show(self.node, lang)
            self._show_parts()  # their texts too, the moves' phrases (live analysis is redone in the background)
            self.sharing.show()  # the link names the language
            self._show_nav()  # last: its position line in the new language is the page's sign that all is relabelled
        self.charts_timer.schedule(now=charts_now)

    # ---- the record and the node on the board ------------------------------------------------------------

    @property
    def state(self) -> Any:
        """The position on the board."""
        return self.node.state

    def _here(self) -> Node:
        """The node on the board (what the parts are given to ask for it)."""
        return self.node

    @property
    def busy(self) -> bool:
        """True while a background job runs."""
        return self.jobs.job is not None

    @property
    def _job(self) -> Job | None:
        """The running job (the job runner's), None."""
        return self.jobs.job

    @property
    def _bots(self) -> dict[int, tuple[str, Any]]:
        """The seats' bots made so far, by seat: (spec, bot)."""
        return self.bots.cache

    def _wire_board(self) -> None:
        self.board.observe(lambda c: self.set_lang(c["new"]), "lang")
        self.board.on_action(self._on_board_action, with_states=True)

    def _board_fits(self, state: Any) -> None:
        """Swap in the board view of ``state``'s game (Die Speicherstadt's or Packet Row's) when it changes."""
        if getattr(self.board.state, "game", None) == state.game:
            return
        layout = self.board.layout
        self.board = board_for(state, lang=self.lang_code, **BOARD_IN_APP)
        self.board.layout = layout
        self._wire_board()
        if hasattr(self, "page"):
            self.page.swap_board(self.board)

    def new_game(self, players: int | None = None, seed: int | None = None,
                 seats: Sequence[str] | None = None, game: str | None = None) -> None:
        """Start a new record: ``players`` 2–5, ``seed``, and per seat "human", "random", "greedy", "mcts"
        or a bot spec such as "mcts:iterations=50" (missing seats keep their setting).

        ``game`` is a key of the game chooser (:func:`game_variants`: "speicherstadt", "kaispeicher" for the game with
        its expansion, "packet_row", or any registered game's); None keeps the chooser's value."""
        self._new_game(players, seed, seats, game)

    def _new_game(self, players: int | None, seed: int | None, seats: Sequence[str] | None, game: str | None,
                  record: GameRecord | None = None) -> None:
        """``new_game``; ``record``: the app's first, made for the choices (the board shows it already)."""
        if self._refuse_if_busy():
            return
        if game is not None:
            if game not in game_variants():
                raise ValueError(f"game must be one of {list(game_variants())}, not {game!r}")
            self._offer_games(game)
            self.game.value = game
        if players is not None:
            if not 2 <= players <= MAX_SEATS:
                raise ValueError(f"players must be 2..{MAX_SEATS}, not {players!r}")
            self.players.value = players
        if seed is not None:
            self.seed.value = seed
        with self.player.hold():  # the seats are the new game's: no bot starts in the old one
            for k, spec in enumerate(seats or ()):
                self.set_seat(k, spec)
        if record is None:
            info, variant = find_variant(str(self.game.value))
            record = GameRecord.new(players=self.players.value, seed=self.seed.value, game=info.name,
                                    **variant.options)
        self._use_record(record, record.root)
        self._say("")
        self.player.autoplay()

    def _use_record(self, record: GameRecord, node: Node) -> None:
        with self._lock:
            self.record = record
            self.explain.clear()
            self.bots.forget()
            self.panels.scenario.forget()  # start_scenario puts its notice up again
            initial = record.initial
            n = initial.n_players
            if self.players.value != n:
                self.players.value = n
            key = variant_of(initial)
            self._offer_games(key)
            self.game.value = key
            self._board_fits(initial)
            if isinstance(record.seed, int) and self.seed.value != record.seed:
                self.seed.value = record.seed
            self._show_seat_controls()
            self._move_to(node)

    def node_by_id(self, ident: int) -> Node:
        """The node with tree id ``ident`` (as the tree view sends it)."""
        return self.panels.moves.node_by_id(ident)

    # ---- showing the node on board ------------------------------------------------------------------------

    def _move_to(self, node: Node) -> None:
        """Put ``node`` on the board and bring every view along (call with the lock held): the board, the cursor's
        controls, the bot's reasons, every panel, the charts (a moment later) and the share box's link."""
        self.node = node
        path = self.record.path_to(node)
        self.board.show(node.state, log_history(path, getattr(self.board, "log_size", LOG_SIZE)))
        self.player.shown()
        self._show_nav()
        self.explain.show(node, self.lang_code)
        self._show_parts()  # the panel objects: What if…, rules, live analysis, move list, review, …
        self.charts_timer.schedule()  # the charts panel draws the node it was shown, a moment later
        self.sharing.show()  # the link of what is on screen (while the share box is open)

    def _move_locked(self, node: Node) -> None:
        with self._lock:
            self._move_to(node)

    def _show_nav(self) -> None:
        """The record cursor's controls at the node on the board (off while bots play), and the play buttons."""
        self._show_play_buttons()  # before the position line, which browser tests wait for
        self.navigation.show(self.node, self.jobs.plays, self.lang_code)

    def _show_play_buttons(self) -> None:
        """The buttons Bot move, To end of round and To end of game: off while a job runs and where the game on
        the board is over (nothing is left for a bot to play)."""
        off = self.busy or self.node.state.is_over
        for b in (self.bot_button, self.round_button, self.end_button):
            b.disabled = off

    def _settings(self) -> Settings:
        """What the panels are shown besides the node: the language, threading, whether bots are moving."""
        to_move = self.node.state.to_move
        human = to_move is not None and not self.node.state.is_over and self.seat_spec(to_move) == "human"
        return Settings(lang=self.lang_code, threaded=self.threaded, bots_playing=self.jobs.plays,
                        hidden_open=self.whatif_open(), human_to_move=human)

    def _show_parts(self) -> None:
        """Show every panel object the node on the board with the current settings (the live analysis not while the
        app is being made in a thread: ``__init__``).

        The live analysis comes after the panels that cost the kernel and the page little and before the move list:
        its first look (Packet Row's) then reaches the page before the move tree, whose drawing took the page 10-14 ms
        at load 3, and its thread does not slow the panels before it (sharing the GIL with it, each took up to 25 ms
        instead of under 1)."""
        settings = self._settings()
        if self._live_waits and not self._starting:
            self._live_waits = False  # a step, a switch, a job's end: the page is up, or a script drives the app
        live = self.panels.live
        for panel in self.panels:
            if panel is self.panels.moves and not self._live_waits:
                live.show(self.node, settings)
            if panel is not live:
                panel.show(self.node, settings)

    def _offer_games(self, key: str | None = None) -> None:
        """The game chooser offers every game (their modules imported now), unless it already offers ``key``. The
        games it offered stay where they were and the others follow, so the list a person has seen never reorders."""
        values = [v for _label, v in self.game.options]
        if key is not None and key in values:
            return
        every = {k: v.title for k, (_i, v) in game_variants().items()}
        order = [k for k in values if k in every] + [k for k in every if k not in values]
        options = [(every[k], k) for k in order]
        if order != values:
            swap_options(self, self.game, options)  # the value kept, in one message to the page

    def _page_drawn(self) -> None:
        """A page has drawn the app (its chart, below the board): the first live analysis and every game in the
        chooser (the charts panel asks for the first charts itself: ``wanted``)."""
        self._offer_games()
        with self._lock:
            if self._live_waits:
                self._live_waits = False
                self.panels.live.show(self.node, self._settings())

    def _on_comment(self, node: Node, text: str) -> None:
        """The move list's comment box was edited: the comment of the node it showed (a refusal is said, and the box
        shows the comment again)."""
        if node.record is not self.record:
            return  # another record was loaded meanwhile
        try:
            self.set_comment(text, node)
        except MoveListError as err:
            self._say(err.text(self.lang_code), error=True)
            with self._lock:
                self.panels.moves.show(self.node, self._settings())

    # ---- jobs ---------------------------------------------------------------------------------------------

    def wait(self, timeout: float = 120.0) -> None:
        """Block until the running job has finished and the charts have caught up (for scripts and tests)."""
        self.jobs.wait(timeout)
        self.charts_timer.flush()

    def _say(self, message: str, error: bool = False, ok: bool = False) -> None:
        self.jobs.say(message, error=error, ok=ok)

    def _refuse_if_busy(self) -> bool:
        return self.jobs.refuse_if_busy()

    def _refuse_if_playing(self) -> bool:
        return self.jobs.refuse_if_playing()

    def _job_started(self) -> None:
        """A job started: the controls follow, and the page's sign."""
        self._follow_job()
        self._show_activity()

    def _job_ended(self, job: Job) -> None:
        """``job`` ended (the lock held): the controls follow, and bots to move play on unless it cancelled bots."""
        self._follow_job()
        self.player.job_ended(job)
        self._show_activity()

    def _follow_job(self) -> None:
        """The controls while a job runs (off what it would disturb) or after it."""
        busy, plays = self.busy, self.jobs.plays
        for b in (self.win_button, self.new_button, self.review_button):
            b.disabled = busy
        self._show_play_buttons()
        self.loader.disabled = busy
        self.saver.disabled = plays
        self.better_button.disabled = plays
        self.nav.hold(plays)
        self.job_bar.busy(busy)
        if not busy:
            with self._lock:
                self._show_nav()

    def _show_activity(self) -> None:
        """The page's sign whether a job runs: class ssl-busy or ssl-idle on the app (set once the next job, if
        any, has started, so a page never sees a passing idle between two jobs)."""
        busy = self.busy
        self.page.busy(busy)
        if not busy:
            self._show_parts()  # the bots stopped: the live analysis analyses the position they left

    def compute_win_chances(self) -> bool:
        """Estimate each seat's win probability (fair mode, the charts panel's rollouts) along the current line."""
        return self.analyses.win_chances(self.node, self.lang_code)

    def review_game(self, rollouts: int | None = None) -> bool:
        """Review every decision of the line on the board (:meth:`review_line`) in the background, with progress and
        cancel; the findings go into the record's annotations (``rollouts`` per action, default the control's)."""
        if rollouts is not None:
            self.review_rollouts.value = rollouts
        with self._lock:
            path = self.review_line()
        return self.analyses.review(path, int(self.review_rollouts.value), self.lang_code)

    def _show_review(self) -> None:
        """The review's findings on the panels that show them (after the review's job)."""
        with self._lock:
            self.panels.review.show(self.node, self._settings())
            self.panels.moves.refresh()  # the review's glyphs after the flagged moves

    # ---- playing (playing.py) --------------------------------------------------------------------------

    def _on_board_action(self, action: Any, before: Any, after: Any) -> None:
        if self.jobs.plays:
            self.board.error = text(self.lang_code, "board_busy")
            return
        try:
            self.play(action, applied=(before, after))
        except (IllegalAction, RuntimeError) as err:
            self.board.error = str(err)

    def _keep(self, node: Node) -> None:
        self.node = node

    # ---- seats and bots -----------------------------------------------------------------------------------

    def _on_seat(self, seat: int) -> None:
        """A seat's player changed (its dropdown or :meth:`set_seat`): a fresh bot for it, the What-if panel opened
        or closed, and if that seat is to move, the bots start (when they move by themselves). Not while
        ``new_game`` sets the seats of the game it is about to start."""
        self.bots.forget(seat)
        self.panels.whatif.show(self.node, self._settings())
        self.panels.hint.show(self.node, self._settings())  # the hint button is for a person to move
        self.player.seat_changed(seat)

    def _show_seat_controls(self) -> None:
        """The seats panel's rows for the player count chosen, named as in the record's game."""
        self.panels.seats.show_count(self.players.value, self.record.initial)

    # ---- scenarios and lessons ---------------------------------------------------------------------------

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

    def open_lesson(self, name: str) -> bool:
        """Show the Tutorial page at the shipped lesson ``name`` (its id or file name); False (and nothing changes)
        if there is no such lesson."""
        if not self.panels.lessons.open_lesson(name):
            return False
        self.tutorial_button.value = True
        return True

    # ---- links (sharing.py) ---------------------------------------------------------------------------------

    def _screen(self) -> Screen:
        """What is on screen, for the link that opens it."""
        lesson = self.panels.lessons.lesson if self.tutorial_button.value else None
        return Screen(lang=self.lang_code, lesson=str(lesson.id) if lesson is not None else None,
                      started=self.panels.scenario.started_with, record=self.record, node=self.node,
                      game=str(self.game.value), file=self.files.name(), projector=bool(self.projector_button.value))

    def _on_projector(self, on: bool) -> None:
        """Large type, board and controls for a projector: the page's ``ssl-projector`` class (``projector.css``)."""
        if hasattr(self, "widget"):
            if on:
                self.widget.add_class("ssl-projector")
            else:
                self.widget.remove_class("ssl-projector")
        self.sharing.show()

    # ---- the charts and the live analysis ----------------------------------------------------------------

    def win_positions(self) -> list[Node]:
        """The positions the win chances are computed for: the start of each round and the last node along
        the current line (and along the main line, when the board shows a variation), and the node on the board."""
        return self.panels.charts.win_positions(self.node)

    def chart_specs(self) -> tuple[Spec, Spec]:
        """The specs of the progress and win charts for the node on the board."""
        with self._lock:
            node, settings = self.node, self._settings()
        return self.charts_timer.specs(node, settings)

    def live_result(self, node: Node | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
        """The live analysis of ``node`` (default: the node on the board) as tables, for scripts and tests."""
        return live_analysis((node or self.node).state)


__all__ = ["MAX_SEATS", "SEAT_KINDS", "STAND_IN", "STRENGTHS", "LabApp", "game_variants", "variant_of"]
