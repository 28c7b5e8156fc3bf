"""The charts panel: projected score and coins along the line, win chances with their bands (computed in
the background), a variation overlaid; the charts follow the board a moment later (``chart_delay``)."""

from __future__ import annotations

import itertools
import threading

import pandas as pd

from ...analysis import evaluate
from ...engine.protocol import get_game
from ...records import Node
from .. import charts
from .jobs import Job
from .texts import text

TRAJECTORY_CACHE = 8  # trajectories kept for the charts (the main line, the variation on the board, ...)

class ChartsPanel:
    """A part of :class:`~.lab.LabApp` (a mixin): win chances and the charts."""

    # ---- win chances ----------------------------------------------------------------------------------

    def win_positions(self) -> list[Node]:
        """The positions the win chances are computed for: the start of each round and the last node along
        the current line (and along the main line, when the board shows a variation), and the node on the
        board."""
        lines = [self.line()]
        if not self.node.is_mainline():
            lines.append(self.record.mainline())
        picked: list[Node] = []
        for line in lines:
            starts = [line[0]] + [b for a, b in itertools.pairwise(line) if b.state.round != a.state.round]
            for node in [*starts, line[-1]]:
                if node not in picked:
                    picked.append(node)
        if self.node not in picked:
            picked.append(self.node)
        return picked

    def compute_win_chances(self) -> bool:
        """Estimate each seat's win probability (fair mode, ``rollouts`` rollouts) along the current line."""
        rollouts = int(self.rollouts.value)
        bot = str(self.rollout_bot.value)
        nodes = [n for n in self.win_positions() if (n, rollouts, bot) not in self._win]
        return self._start("win", lambda job: self._evaluate(job, nodes, rollouts, bot))

    def _evaluate(self, job: Job, nodes: list[Node], rollouts: int, bot: str) -> None:
        lang = self.lang_code
        self._set_progress(0, max(1, len(nodes)), text(lang, "win_progress", i=0, n=len(nodes)))
        for i, node in enumerate(nodes):
            if job.cancel.is_set():
                self._say(text(lang, "cancelled"))
                break
            df = evaluate(node.state, rollouts=rollouts, bot=None if bot == "random" else bot, mode="fair", seed=0)
            self._win[(node, rollouts, bot)] = df
            self._set_progress(i + 1, max(1, len(nodes)), text(lang, "win_progress", i=i + 1, n=len(nodes)))
            self._schedule_charts()
        else:
            self._say(text(lang, "done_win", n=len(nodes), rollouts=rollouts), ok=True)
        self._schedule_charts(now=True)

    # ---- charts ---------------------------------------------------------------------------------------

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

    def _trajectory(self, node: Node) -> pd.DataFrame:
        got = self._traj.get(node)
        if got is None:
            got = self._traj[node] = self.record.trajectory(node)
            while len(self._traj) > TRAJECTORY_CACHE:
                self._traj.pop(next(iter(self._traj)))
        return got

    def chart_specs(self) -> tuple[charts.Spec, charts.Spec]:
        """The specs of the progress and win charts for the node on the board."""
        with self._lock:
            record, node, lang, x = self.record, self.node, self.lang_code, str(self.x_mode.value)
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
            picks = set(self.win_positions())

            def est(n: Node) -> pd.DataFrame | None:
                """Rollouts where computed, else the value model at once (round starts, line ends, the board)."""
                got = self._win.get((n, rollouts, rbot))
                return got if got is not None or n not in picks else self._model_win(n)

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

        wins = charts.win_spec(table(win_main), table(win_branch) if fork is not None else None, names=names, x=x,
                               current=current, lang=lang, marks=self.review_marks(x) if self.reviewed else None,
                               colours=colours)
        return progress, wins

    def refresh_charts(self) -> None:
        """Bring the charts up to date with the node on the board."""
        if not hasattr(self, "chart"):
            return  # still building the controls
        with self._chart_lock:
            self._chart_gen += 1
            gen = self._chart_gen
        progress, wins = self.chart_specs()
        with self._chart_lock:  # never held while waiting for self._lock: no lock-order deadlock
            if gen < self._chart_synced:
                return  # a later refresh (newer state) has already been shown
            self.chart.update(charts.dashboard_spec(progress, wins))
            self._chart_synced = gen
