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
import time
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as w
import pandas as pd

from ...engine.errors import IllegalAction, RecordError
from ...engine.i18n import LANGS
from ...engine.protocol import GameInfo, Variant, games
from ...records import GameRecord, Node
from .. import board_for
from ..board import ASSETS
from ..probe import Probe
from .jobs import Job
from .jobs_panel import JobBar, JobRunner
from .labels import Labels
from .navigation import NavBar, Navigation
from .panel_host import PanelHost
from .seats import MAX_SEATS, SEAT_KINDS, STAND_IN, STRENGTHS
from .sharing import Sharing
from .texts import TEXTS, text
from .widgets import Loader, Saver

SHOW_EVERY = 0.15  # seconds between board updates while bots play on
# The board in the app: the top bar's one language switch sets its texts (the keys ← → Home End: the move list's).
BOARD_IN_APP = {"lang_switch": False}

# The app's stylesheet (widgets/app.css), put on the page by a hidden HTML widget.
APP_CSS = "<style>\n" + (ASSETS / "app.css").read_text(encoding="utf-8") + "</style>"


def game_variants() -> dict[str, tuple[GameInfo, Variant]]:
    """What the game chooser offers: every variant of every registered game, by key."""
    return {v.key: (info, v) for info in games() for v in info.choices()}


def variant_of(state: Any) -> str:
    """The chooser's key for the game ``state`` belongs to: the variant of its game whose options it has
    (the one with the most options, so the expansion wins over the plain game)."""
    fits = [(len(v.options), key) for key, (info, v) in game_variants().items()
            if info.name == state.game and all(getattr(state, k, None) == x for k, x in v.options.items())]
    return max(fits)[1] if fits else state.game


class LabApp(Navigation, Labels, JobRunner, Sharing, PanelHost):
    """The analysis app. ``widget`` is the whole app; the controls are attributes (see the module doc).

    The coordinator: it owns the record, the node on the board, the jobs, their lock and the charts' timer; the
    panel objects (``panels``: :class:`~.panel_host.Panels`) are shown the node and the :class:`~.panel.Settings`
    after every step and report back through events (``panel_host.py``).

    ``threaded=False`` runs long work in the calling thread (simple scripts); ``chart_delay`` is how long
    the charts wait after the last move before they follow (0: at once). ``query`` is a page's query string to open
    (``"lang=de&game=packet_row"``: :meth:`open_query`, ``docs/sharing.md``).
    """

    def __init__(self, players: int = 3, seed: int = 1, seats: Sequence[str] | None = None, lang: str = "en",
                 threaded: bool = True, chart_delay: float = 0.12, query: str | None = None) -> None:
        if lang not in LANGS:
            raise ValueError(f"lang must be one of {LANGS}, not {lang!r}")
        self.threaded = threaded
        self.chart_delay = chart_delay
        self._lock = threading.RLock()
        self._timer: threading.Timer | None = None
        self._job: Job | None = None
        self._pending_auto = False
        self._hold_auto = False  # True while new_game sets the seats of the game it is about to start
        self._bots: dict[int, tuple[str, Any]] = {}
        self._explain: dict[Node, tuple[str, pd.DataFrame]] = {}
        self._last_show = 0.0
        self.record = GameRecord.new(players=players, seed=seed)
        self.node = self.record.root
        self._build_controls(lang)
        self.new_game(players=players, seed=seed, seats=seats)
        self._apply_lang()
        if query:
            self.open_query(query)

    # ---- controls -------------------------------------------------------------------------------------

    def _build_controls(self, lang: str) -> None:
        t = TEXTS[lang]
        lay = w.Layout
        self._make_panels(lang)  # the panel objects, their events and widgets' names (panel_host.py)
        self.lang = w.ToggleButtons(options=[("EN", "en"), ("DE", "de")], value=lang,
                                    style={"button_width": "46px"}, layout=lay(width="auto"))
        self.players = w.BoundedIntText(value=3, min=2, max=MAX_SEATS, description=t["players"],
                                        style={"description_width": "auto"}, layout=lay(width="104px"))
        self.seed = w.IntText(value=1, description=t["seed"], style={"description_width": "auto"},
                              layout=lay(width="124px"))
        self.new_button = w.Button(description=t["new"], button_style="warning", layout=lay(width="auto"))
        self.game = w.Dropdown(options=[(v.title, key) for key, (_i, v) in game_variants().items()],
                               value="speicherstadt", layout=lay(width="230px"))
        self.saver = Saver(self._file, label=t["save"])
        self.loader = Loader(lambda _name, data: self.load_json(data), label=t["load"])

        self.board = board_for(self.record.initial, lang=lang, **BOARD_IN_APP)

        nav = self.nav = NavBar(lang)  # the record cursor's controls (navigation.py)
        self.first_button, self.back_button, self.slider = nav.first_button, nav.back_button, nav.slider
        self.forward_button, self.last_button = nav.forward_button, nav.last_button
        self.position, self.promote_button = nav.position, nav.promote_button

        self.bot_button = w.Button(description=t["bot"], button_style="info", layout=lay(width="auto"))
        self.round_button = w.Button(description=t["round"], layout=lay(width="auto"))
        self.end_button = w.Button(description=t["end"], layout=lay(width="auto"))
        self.auto = w.Checkbox(value=True, description=t["auto"], indent=False, layout=lay(width="auto"))
        bar = self.job_bar = JobBar(lang)  # the job's controls and the message line (jobs_panel.py)
        self.cancel_button, self.progress, self.status, self.message = (bar.cancel_button, bar.progress, bar.status,
                                                                        bar.message)

        self.explanation = w.HTML(layout=lay(width="100%"))
        self.explanation.add_class("ssl-explain")

        self.tutorial_button = w.ToggleButton(value=False, layout=lay(width="auto"))
        self.tutorial_button.add_class("ssl-tutorial-btn")
        self.tutorial_button.observe(lambda _c: self._show_page(), "value")

        # wiring
        self.new_button.on_click(lambda _b: self.new_game())
        self.first_button.on_click(lambda _b: self.first())
        self.back_button.on_click(lambda _b: self.back())
        self.forward_button.on_click(lambda _b: self.forward())
        self.last_button.on_click(lambda _b: self.last())
        self.promote_button.on_click(lambda _b: self.promote())
        self.slider.observe(self._on_slider, "value")
        self.bot_button.on_click(lambda _b: self.bot_move())
        self.round_button.on_click(lambda _b: self.play_to_round_end())
        self.end_button.on_click(lambda _b: self.play_to_end())
        self.cancel_button.on_click(lambda _b: self.cancel())
        self.players.observe(lambda _c: self._show_seat_controls(), "value")
        self.lang.observe(lambda _c: self._apply_lang(), "value")
        self._wire_board()
        self.auto.observe(lambda c: self._maybe_autoplay() if c["new"] else None, "value")

        self.widget = self._layout()

    def _layout(self) -> w.Widget:
        css = w.HTML(APP_CSS, layout=w.Layout(display="none"))
        self._title = w.HTML()
        self._title.add_class("ssl-apptitle")
        spacer = w.Box(layout=w.Layout(flex="1 1 auto"))
        top = w.HBox([self._title, self.game, self.players, self.seed, self.new_button, spacer, self.rules_button,
                      self.share_button, self.projector_button, self.tutorial_button, self.saver, self.loader,
                      self.lang], layout=w.Layout(width="100%"))
        top.add_class("ssl-topbar")

        def panel(title_key: str, *children: w.Widget) -> w.VBox:
            head = w.HTML()
            head.add_class("ssl-panel-title")
            self._panel_titles.append((head, title_key))
            box = w.VBox([head, *children], layout=w.Layout(width="100%"))
            box.add_class("ssl-panel")
            return box

        self._panel_titles: list[tuple[w.HTML, str]] = []
        nav, where = self.nav.row, self.nav.where
        bots = w.HBox([self.bot_button, self.round_button, self.end_button],
                      layout=w.Layout(flex_flow="row wrap"))
        job = self.job_bar.row
        strength = w.HBox([self.mcts_strength, self.auto], layout=w.Layout(align_items="center"))
        side = w.VBox([
            panel("tree", nav, where, self.tree, self.comment),
            panel("seats", self.panels.seats.box, strength, bots, job, self.message),
            panel("live_panel", self.live, self.live_box, w.HBox([self.hint_button]), self.hint_box),
            self.panels.whatif.panel,
            panel("explain", self.explanation),
        ], layout=w.Layout(width="clamp(380px, 23vw, 460px)", flex="0 0 auto"))  # wider on wide screens
        side.add_class("ssl-sidebar")
        self.board.layout = w.Layout(flex="1 1 0", min_width="0", width="auto")  # the board sizes by its container
        main = self._main = w.HBox([self.board, side], layout=w.Layout(width="100%", align_items="flex-start"))
        chart_bar = w.HBox([self.x_mode, self.win_button, self.rollouts, self.rollout_bot],
                           layout=w.Layout(align_items="center", flex_flow="row wrap"))
        figs = w.Box([self.chart], layout=w.Layout(width="100%"))
        figs.add_class("ssl-charts")
        for row in (nav, where, bots, job, strength, side, main, chart_bar):
            row.add_class("ssl-row")
        review_box = self.panels.review.box
        figs.layout = w.Layout(flex="1 1 0", min_width="0", width="auto")
        chart_panel = w.VBox([chart_bar, w.HBox([figs, review_box], layout=w.Layout(width="100%"))],
                             layout=w.Layout(width="100%"))
        chart_panel.add_class("ssl-panel")
        scenario = self.scenario_panel  # and the notice above the board with a started scenario's text
        self._lab_page = (self.link_note, self.share_box, self.rules, self.scenario_note, main, chart_panel, scenario)
        # Both pages stay in the page, the one not shown hidden (``_show_page``): a widget taken out of the page
        # loses its view (and a chart's view would have to load and draw plotly.js again).
        self._lab_box = w.VBox(list(self._lab_page), layout=w.Layout(width="100%"))
        self._tutorial_box = w.VBox(layout=w.Layout(width="100%", display="none"))
        self._page = w.VBox([self._lab_box, self._tutorial_box], layout=w.Layout(width="100%"))
        self.probe = Probe()
        app = w.VBox([css, self.panels.classroom.css, self.probe, top, self._page], layout=w.Layout(width="100%"))
        app.add_class("ssl-app")
        app.add_class("ssl-idle")
        return app

    def _show_page(self) -> None:
        """The app's second page, the guided lessons, in place of the lab (and back): the lab is hidden, never
        taken out of the page, so its views (the chart's above all) live on and keep following the game."""
        shown = self.tutorial_button.value
        if shown:
            if not self._tutorial_box.children:
                self._tutorial_box.children = (self.panels.lessons.page(),)
            self.panels.lessons.redraw()  # in the app's language; the lesson and its state stay
        self._tutorial_box.layout.display = "" if shown else "none"
        self._lab_box.layout.display = "none" if shown else ""

    def _ipython_display_(self) -> None:
        from IPython.display import display

        self.flush_charts()
        display(self.widget)

    # ---- the record and the current node ----------------------------------------------------------------

    @property
    def state(self) -> Any:
        """The position on the board."""
        return self.node.state

    @property
    def busy(self) -> bool:
        """True while a background job runs."""
        job = self._job
        return job is not None

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
        if hasattr(self, "_main"):
            self._main.children = (self.board, *self._main.children[1:])

    def new_game(self, players: int | None = None, seed: int | None = None,
                 seats: Sequence[str] | None = None, game: str | None = None) -> None:
        """Start a new record: ``players`` 2–5, ``seed``, and per seat "human", "random", "greedy", "mcts"
        or a bot spec such as "mcts:iterations=50" (missing seats keep their setting).

        ``game`` is a key of the game chooser (:func:`game_variants`: "speicherstadt", "kaispeicher" for the game with
        its expansion, "packet_row", or any registered game's); None keeps the chooser's value."""
        if self._refuse_if_busy():
            return
        if game is not None:
            if game not in game_variants():
                raise ValueError(f"game must be one of {list(game_variants())}, not {game!r}")
            self.game.value = game
        if players is not None:
            if not 2 <= players <= MAX_SEATS:
                raise ValueError(f"players must be 2..{MAX_SEATS}, not {players!r}")
            self.players.value = players
        if seed is not None:
            self.seed.value = seed
        self._hold_auto = True  # the seats are the new game's: no bot starts in the old one
        try:
            for k, spec in enumerate(seats or ()):
                self.set_seat(k, spec)
        finally:
            self._hold_auto = False
        info, variant = game_variants()[self.game.value]
        record = GameRecord.new(players=self.players.value, seed=self.seed.value, game=info.name,
                                **variant.options)
        self._use_record(record, record.root)
        self._say("")
        self._maybe_autoplay()

    def _use_record(self, record: GameRecord, node: Node) -> None:
        with self._lock:
            self.record = record
            self._explain.clear()
            self._bots.clear()
            self.panels.scenario.forget()  # start_scenario puts its notice up again
            initial = record.initial
            n = initial.n_players
            if self.players.value != n:
                self.players.value = n
            self.game.value = variant_of(initial)
            self._board_fits(initial)
            if isinstance(record.seed, int) and self.seed.value != record.seed:
                self.seed.value = record.seed
            self._show_seat_controls()
            self._move_to(node)

    def node_by_id(self, ident: int) -> Node:
        """The node with tree id ``ident`` (as the tree view sends it)."""
        return self.panels.moves.node_by_id(ident)

    def line(self) -> list[Node]:
        """The current line: from the start through the node on the board, on along first children."""
        path = self.record.path_to(self.node)
        while path[-1].children:
            path.append(path[-1].children[0])
        return path

    # ---- playing --------------------------------------------------------------------------------------

    def play(self, action: Any, applied: tuple[Any, Any] | None = None) -> Node:
        """Play ``action`` (notation) at the current node as a human move, like a click on the board: an
        existing child with it, else a new variation; then the bots move if they move by themselves.

        Raises :class:`IllegalAction` (and changes nothing) for an illegal action, RuntimeError while bots
        are moving. ``applied``: (state, state after) of a board's click, applied once (``Node.play``)."""
        with self._lock:
            if self._job is not None and self._job.plays:
                raise RuntimeError(text(self.lang_code, "busy", job=self._job_name(self._job)))
            node = self.node.play(action, by="human", applied=applied)
            self._move_to(node)
        self._maybe_autoplay()
        return node

    def _on_board_action(self, action: Any, before: Any, after: Any) -> None:
        if self._job is not None and self._job.plays:
            self.board.error = text(self.lang_code, "board_busy")
            return
        try:
            self.play(action, applied=(before, after))
        except (IllegalAction, RuntimeError) as err:
            self.board.error = str(err)

    def _maybe_autoplay(self) -> None:
        """If bots move by themselves and a bot is to move, let the bots play until a human seat is to move or
        "Bots move by themselves" is unticked. Called after everything that can put a bot to move: a move, a new
        game, a chance variation, a seat's player, the tick. While a job runs, it is asked again when the job
        ends (unless the user cancelled bots that were playing)."""
        with self._lock:
            if self._job is not None:
                self._pending_auto = True
                return
            st = self.node.state
            if not (self.auto.value and not st.is_over and st.to_move is not None
                    and self.bot_for(st.to_move) is not None):
                return
            self._start("auto", lambda job: self._play_on(
                job, until=lambda s: not self.auto.value or self.bot_for(s.to_move) is None))

    def bot_move(self) -> bool:
        """The seat to move lets its bot choose (a human seat: the Greedy bot). False if nothing started."""
        if self._refuse_if_over():
            return False
        return self._start("bot", lambda job: self._play_on(job, moves=1))

    def play_to_round_end(self) -> bool:
        """Bots play every seat until the next round starts (or the game ends)."""
        if self._refuse_if_over():
            return False
        start = self.node.state.round
        return self._start("round", lambda job: self._play_on(job, until=lambda s: s.round != start))

    def play_to_end(self) -> bool:
        """Bots play every seat to the end of the game."""
        if self._refuse_if_over():
            return False
        return self._start("end", lambda job: self._play_on(job))

    def _play_on(self, job: Job, until: Callable[[Any], bool] | None = None, moves: int | None = None) -> None:
        """Let the bots move from the current node until ``until(state)``, ``moves`` moves, the end or cancel."""
        lang = self.lang_code
        played = 0
        start = self.node.state
        last_round = start.round + getattr(start, "rounds_left", 1)  # an optional protocol member
        while not job.cancel.is_set():
            node = self.node
            st = node.state
            if st.is_over or (moves is not None and played >= moves) or (until is not None and until(st)):
                break
            seat = st.to_move
            bot = self.bot_for(seat, stand_in=True)
            self._set_status(text(lang, "thinking", seat=st.seat_name(seat, lang)))
            obs = st.observe(seat)
            action = bot.choose(obs)
            if job.cancel.is_set():
                break
            with self._lock:
                child = node.play(action, by=dict(bot.params()))
                self._note_explanation(child, bot, obs)
                self.node = child
                played += 1
                now = time.monotonic()
                if now - self._last_show >= SHOW_EVERY or moves == 1:
                    self._move_to(child)
            rounds = max(1, last_round - start.round + 1)
            self._set_progress(min(rounds * 3, (child.state.round - start.round) * 3 + _phase_index(child.state)),
                               rounds * 3, text(lang, "played", n=played, round=child.state.round))
        with self._lock:
            self._move_to(self.node)
        if job.cancel.is_set():
            self._say(text(lang, "cancelled"))

    def _note_explanation(self, node: Node, bot: Any, obs: Any) -> None:
        """Keep the bot's reasons for the move into ``node``: MCTS's root statistics (``explain`` reuses the
        search ``choose`` just ran), Greedy's action values."""
        if bot.name in ("mcts", "greedy") and hasattr(bot, "explain"):
            self._explain[node] = (bot.name, bot.explain(obs))

    # ---- save and load --------------------------------------------------------------------------------

    def save_json(self) -> str:
        """The record as JSON text (what the save button downloads)."""
        with self._lock:
            return self.record.to_json(pretty=True)

    def _file(self) -> tuple[str, str]:
        seed = self.record.seed
        return f"speicherstadt-{self.record.initial.n_players}p-seed{seed}.json", self.save_json()

    def load_json(self, data: str | bytes) -> bool:
        """Replace the record by one read from JSON text; on a malformed record the message shows the
        :class:`RecordError` text, nothing changes, and the result is False."""
        if self._refuse_if_busy():
            return False
        lang = self.lang_code
        if isinstance(data, bytes | bytearray | memoryview):
            try:
                data = bytes(data).decode("utf-8")
            except UnicodeDecodeError:
                self._say(text(lang, "load_error", error=text(lang, "not_text")), error=True)
                return False
        try:
            record = GameRecord.from_json(data)
        except RecordError as err:
            self._say(text(lang, "load_error", error=err), error=True)
            return False
        n = record.initial.n_players
        for k in range(n, MAX_SEATS):
            self._bots.pop(k, None)
        self._use_record(record, record.end())
        self._say(text(lang, "loaded", plies=len(record.mainline()) - 1, branches=len(record.branch_points())),
                  ok=True)
        return True

def _phase_index(state: Any) -> int:
    return {"demand": 0, "purchase": 1, "loading": 2}.get(state.phase, 3)



__all__ = ["MAX_SEATS", "SEAT_KINDS", "STAND_IN", "STRENGTHS", "LabApp", "game_variants", "variant_of"]

