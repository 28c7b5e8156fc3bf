"""The charts panel: projected score and coins along the line, win chances with their bands (computed in
the background by the coordinator's job), a variation overlaid; the charts follow the board a moment later (the
coordinator's timer, ``chart_delay``)."""

from __future__ import annotations

import itertools
import threading
from typing import Any

import ipywidgets as w
from ipywidgets.widgets.widget_description import DescriptionStyle

from ...analysis import evaluate
from ...engine.protocol import get_game
from ...lazyimport import pandas as pd
from ...records import Node
from ...reviewing import REVIEW_KEY
from ...value.model import load_model
from .. import charts
from ..shared_layout import fixed_layout, fixed_style
from .panel import Panel, Settings, line_of, swap_options
from .texts import TEXTS

TRAJECTORY_CACHE = 8  # trajectories kept for the charts (the main line, the variation on the board, ...)

def marks_table(flagged: list[Node], x: str = "ply") -> pd.DataFrame:
    """The flagged decisions ``flagged`` (the review's, nodes of one line) as chart marks
    (:data:`charts.MARK_COLUMNS`), placed on the axis ``x`` ("ply" or "round")."""
    rows = []
    for nd in flagged:
        ann = nd.annotations[REVIEW_KEY]
        before = nd.parent.state if nd.parent is not None else nd.state
        rows.append({"ply": nd.ply, "x": charts.position_x(nd.ply, before.round, before.is_over, x),
                     "seat": nd.actor, "action": nd.action, "best_action": ann.get("best", ""),
                     "win_prob": ann.get("win_prob", 0.0), "win_loss": ann.get("win_loss", 0.0),
                     "score_loss": ann.get("score_loss", 0.0), "flag": ann["flag"]})
    return pd.DataFrame(rows, columns=charts.MARK_COLUMNS)


class ChartsPanel(Panel):
    """The charts (``chart``) under the board, their controls and the win chances computed so far.

    :meth:`show` takes the node; :meth:`draw` draws it (the coordinator's timer calls it a moment after the board
    moved). Emits ``win`` (its button), ``axis`` (the x axis changed), ``mark`` (``ply``: a review mark clicked) and
    ``wanted`` (a page drew the chart while it was still empty: a new app leaves its first charts until then)."""

    def __init__(self, lang: str, lock: threading.RLock) -> None:
        """``lock``: the coordinator's, held while the panel reads the record (a bot may be adding moves)."""
        super().__init__()
        t = TEXTS[lang]
        lay = fixed_layout  # shared, frozen: never changed later
        self._lock = lock
        self._draw_lock = threading.Lock()  # never held while waiting for ``lock``: no lock-order deadlock
        self._gen = self._synced = 0
        self._relabeling = False
        self._root: Node | None = None  # the record's root the caches are for
        self._win: dict[tuple[Node, int, str], pd.DataFrame] = {}
        self._traj: dict[Node, pd.DataFrame] = {}
        self._model_wins: dict[Node, pd.DataFrame | None] = {}
        # the tabs size to their labels (a fixed width cut "nach Runde" off); app.css gives them a least width
        self.x_mode = w.ToggleButtons(options=[(t["x_ply"], "ply"), (t["x_round"], "round")], value="ply",
                                      style={"button_width": "auto"}, layout=lay(width="auto"))
        self.x_mode.add_class("ssl-tabs")
        self.win_button = w.Button(description=t["win"], button_style="success", layout=lay(width="auto"),
                                   style=fixed_style(w.ButtonStyle))
        self.rollouts = w.BoundedIntText(value=100, min=10, max=2000, step=10, description=t["rollouts"],
                                         style=fixed_style(DescriptionStyle, description_width="auto"),
                                         layout=lay(width="150px"))
        self.rollouts.add_class("ssl-rollouts")
        # greedy by default: 100 greedy rollouts judged held-out games best of all the lab's ways, random ones worst
        # (docs/review.md, "Calibration"); their Wilson band is then one for the win chance of greedy play
        self.rollout_bot = w.Dropdown(options=[(t["rb_random"], "random"), (t["rb_greedy"], "greedy")],
                                      value="greedy", layout=lay(width="auto"),  # as wide as its longest label
                                      style=fixed_style(DescriptionStyle))
        # empty until the first draw (its figure would be built twice otherwise)
        self.chart = charts.figure_widget({"data": [], "layout": {}})
        self.chart.on_click(self._on_click)  # a click on a review mark: that decision
        self.chart.on_shown(self._on_shown)  # a page drew the chart: its first figure, if it has none yet
        self.win_button.on_click(lambda _b: self.emit("win"))
        self.x_mode.observe(lambda _c: None if self._relabeling else self.emit("axis"), "value")

    def relabel(self, lang: str) -> None:
        """The panel's labels in ``lang``."""
        t = TEXTS[lang]
        self.win_button.description = t["win"]
        self.rollouts.description = t["rollouts"]
        self.rollouts.tooltip = t["rollouts_tip"]
        swap_options(self, self.rollout_bot, [(t["rb_random"], "random"), (t["rb_greedy"], "greedy")])
        self.rollout_bot.tooltip = t["rollout_bot"]
        swap_options(self, self.x_mode, [(t["x_ply"], "ply"), (t["x_round"], "round")])

    def show(self, node: Node, settings: Settings) -> None:
        """Take ``node`` and ``settings`` for the next :meth:`draw` (a new record empties the caches, a new language
        relabels the controls at once)."""
        super().show(node, settings)
        if node.record.root is not self._root:
            self._root = node.record.root
            self._win.clear()
            self._traj.clear()
            self._model_wins.clear()

    def draw(self, flagged: list[Node] | None = None) -> None:
        """Bring the charts up to date with the node last shown; ``flagged``: the review's flagged decisions on its
        line, marked on the win chart (None: no review)."""
        node = self.node
        if node is None:
            return
        with self._draw_lock:
            self._gen += 1
            gen = self._gen
        progress, wins = self.specs(node, self.settings, flagged)
        with self._draw_lock:
            if gen < self._synced:
                return  # a later draw (newer state) has already been shown
            self.chart.update(charts.dashboard_spec(progress, wins))
            self._synced = gen

    # ---- win chances ----------------------------------------------------------------------------------

    def win_positions(self, node: Node) -> list[Node]:
        """The positions the win chances are computed for: the start of each round and the last node along
        ``node``'s line (and along the main line, when ``node`` is on a variation), and ``node``."""
        lines = [line_of(node)]
        if not node.is_mainline():
            lines.append(node.record.mainline())
        picked: list[Node] = []
        for line in lines:
            starts = [line[0]] + [b for a, b in itertools.pairwise(line) if b.state.round != a.state.round]
            for nd in [*starts, line[-1]]:
                if nd not in picked:
                    picked.append(nd)
        if node not in picked:
            picked.append(node)
        return picked

    def win_todo(self, node: Node) -> tuple[list[Node], int, str]:
        """What the win-chance button computes at ``node``: the positions without an estimate for the controls'
        rollouts and rollout bot, those rollouts and that bot."""
        rollouts, bot = int(self.rollouts.value), str(self.rollout_bot.value)
        return [n for n in self.win_positions(node) if (n, rollouts, bot) not in self._win], rollouts, bot

    def estimate(self, node: Node, rollouts: int, bot: str) -> pd.DataFrame:
        """Each seat's win chance at ``node`` (fair mode, ``rollouts`` rollouts by ``bot``), kept for the chart."""
        df = evaluate(node.state, rollouts=rollouts, bot=None if bot == "random" else bot, mode="fair", seed=0)
        self._win[(node, rollouts, bot)] = df
        return df

    def model_win(self, node: Node) -> pd.DataFrame | None:
        """The value model's win chances at ``node`` (kept), or None for a game without a model: what the win chart
        draws at once, before (and instead of) rollouts."""
        cache = self._model_wins
        if node not in cache:
            try:
                cache[node] = load_model(node.state).predict(node.state)
            except (ValueError, FileNotFoundError):
                cache[node] = None
        return cache[node]

    # ---- charts ---------------------------------------------------------------------------------------

    def _trajectory(self, node: Node) -> pd.DataFrame:
        got = self._traj.get(node)
        if got is None:
            got = self._traj[node] = node.record.trajectory(node)
            while len(self._traj) > TRAJECTORY_CACHE:
                self._traj.pop(next(iter(self._traj)))
        return got

    def specs(self, node: Node, settings: Settings, flagged: list[Node] | None = None
              ) -> tuple[charts.Spec, charts.Spec]:
        """The specs of the progress and win charts at ``node`` (``flagged``: the review's marks, see :meth:`draw`)."""
        with self._lock:
            record, lang, x = node.record, settings.lang, str(self.x_mode.value)
            main_end = record.end()
            line_end = node
            while line_end.children:
                line_end = line_end.children[0]
            on_main = node.is_mainline()
            fork = None
            if not on_main:
                fork_node = node
                while not fork_node.is_mainline():
                    assert fork_node.parent is not None
                    fork_node = fork_node.parent
                fork = fork_node.ply
            rollouts, rbot = int(self.rollouts.value), str(self.rollout_bot.value)
            picks = set(self.win_positions(node))

            def est(n: Node) -> pd.DataFrame | None:
                """Rollouts where computed, else the value model at once (round starts, line ends, the board)."""
                got = self._win.get((n, rollouts, rbot))
                return got if got is not None or n not in picks else self.model_win(n)

            main_nodes = record.mainline()
            win_main = [(n, est(n)) for n in main_nodes]
            win_branch: list[tuple[Node, pd.DataFrame | None]] = []
            if fork is not None:
                path = record.path_to(line_end)
                shared = [(n, est(n)) for n in path[:fork + 1]]
                start = [item for item in shared if item[1] is not None][-1:]  # the dashed line leaves from here
                win_branch = start + [(n, est(n)) for n in path[fork + 1:]]
        st = node.state
        names = [st.seat_name(i, lang) for i in range(st.n_players)]
        current = charts.position_x(node.ply, st.round, st.is_over, x)
        main = self._trajectory(main_end)
        branch = self._trajectory(line_end) if fork is not None else None
        info = get_game(st.game)
        colours = info.seat_colours
        progress = charts.progress_spec(main, branch, names=names, x=x, current=current, fork=fork, lang=lang,
                                        colours=colours, metric=info.metrics[0] if info.metrics else None)

        def table(items: list[tuple[Node, pd.DataFrame | None]]) -> pd.DataFrame:
            return charts.win_table((n.ply, charts.position_x(n.ply, n.state.round, n.state.is_over, "round"), df)
                                    for n, df in items if df is not None)

        marks = marks_table(flagged, x) if flagged is not None else None
        wins = charts.win_spec(table(win_main), table(win_branch) if fork is not None else None, names=names, x=x,
                               current=current, lang=lang, marks=marks, colours=colours)
        return progress, wins

    def _on_shown(self) -> None:
        """A page has drawn the chart (the first board is up by then): ask for the figure if there is none yet."""
        if not self.chart.figure.get("data"):
            self.emit("wanted")

    def _on_click(self, trace: dict[str, Any], point: int) -> None:
        """A click on the chart (checked by the chart): on a review mark, report that decision's ply."""
        meta = trace.get("meta") if isinstance(trace.get("meta"), dict) else {}
        plies = trace.get("customdata") or []
        if meta.get("series") == "review" and 0 <= point < len(plies):
            self.emit("mark", ply=int(plies[point]))
