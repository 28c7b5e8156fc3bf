"""The job runner: one background job at a time (bot moves, playing on, win chances, review) with progress,
cancel and the page's ssl-busy/ssl-idle sign; the message line."""

from __future__ import annotations

import html
import threading
import time
from collections.abc import Callable
from typing import Any

import ipywidgets as w

from ...records import Node
from ...resources import default_processes
from ...reviewing import REVIEW_KEY, Review
from ...reviewing import review as run_review
from .jobs import Job
from .review import reviewed_at
from .texts import text


class JobBar:
    """The job's controls, a plain helper of the coordinator: Cancel, the progress bar and the status (``row``), and
    the message line (``message``)."""

    def __init__(self, lang: str) -> None:
        lay = w.Layout
        self.progress = w.IntProgress(value=0, min=0, max=1, layout=lay(width="110px", display="none"))
        self.status = w.HTML(layout=lay(width="auto"))
        self.status.add_class("ssl-status")
        self.cancel_button = w.Button(description=text(lang, "cancel"), button_style="danger", disabled=True,
                                      layout=lay(width="auto"))
        self.message = w.HTML(layout=lay(width="100%"))
        self.message.add_class("ssl-msg")
        self.row = w.HBox([self.cancel_button, self.progress, self.status],
                          layout=lay(align_items="center", flex_flow="row wrap"))

    def relabel(self, lang: str) -> None:
        """The controls' texts in ``lang``."""
        self.cancel_button.description = text(lang, "cancel")

    def busy(self, busy: bool) -> None:
        """Cancel and the progress bar while a job runs (``busy``), gone after it; the status emptied either way."""
        self.cancel_button.disabled = not busy
        self.progress.layout.display = "" if busy else "none"
        if busy:
            self.progress.value = 0
        self.status.value = ""

    def set_progress(self, value: int, total: int, label: str) -> None:
        """The progress bar at ``value`` of ``total`` and the status ``label``."""
        self.progress.max = max(1, total)
        self.progress.value = max(0, min(value, self.progress.max))
        self.status.value = html.escape(label)

    def set_status(self, label: str) -> None:
        """The status line (what the job is doing)."""
        self.status.value = html.escape(label)

    def say(self, message: str, error: bool = False, ok: bool = False) -> None:
        """The message line: ``message`` (an error in red, a success in green); "" empties it."""
        if not message:
            self.message.value = ""
            return
        cls = "ssl-err" if error else "ssl-ok" if ok else ""
        self.message.value = f'<span class="{cls}">{html.escape(message)}</span>'


class JobRunner:
    """A part of :class:`~.lab.LabApp` (a mixin): starting, cancelling and waiting for jobs."""

    # ---- jobs -----------------------------------------------------------------------------------------

    def _job_name(self, job: Job) -> str:
        return text(self.lang_code, f"job_{job.kind}")

    def _refuse_if_busy(self) -> bool:
        if self._job is not None:
            self._say(text(self.lang_code, "busy", job=self._job_name(self._job)), error=True)
            return True
        return False

    def _refuse_if_playing(self) -> bool:
        if self._job is not None and self._job.plays:
            self._say(text(self.lang_code, "busy", job=self._job_name(self._job)), error=True)
            return True
        return False

    def _refuse_if_over(self) -> bool:
        """Say so (and True) where the game on the board is over: no bot has anything to play."""
        if self.node.state.is_over:
            self._say(text(self.lang_code, "over"))
            return True
        return False

    def _show_play_buttons(self) -> None:
        """The buttons Bot move, To end of round and To end of game: off while a job runs and where the game on
        the board is over (nothing is left for a bot to play)."""
        off = self._job is not None or self.node.state.is_over
        for b in (self.bot_button, self.round_button, self.end_button):
            b.disabled = off

    def _start(self, kind: str, work: Callable[[Job], None]) -> bool:
        """Run ``work(job)`` as the one background job; False (and a message) if another job runs."""
        with self._lock:
            if self._refuse_if_busy():
                return False
            job = self._job = Job(kind)
        self._say("")
        self._set_busy(True)
        self._show_activity()

        def run() -> None:
            try:
                work(job)
            except Exception as err:  # shown in the app, never lost in a thread
                self._say(text(self.lang_code, "error", error=err), error=True)
            finally:
                with self._lock:
                    self._job = None
                    self._set_busy(False)
                    if self._pending_auto:
                        self._pending_auto = False
                        if not (job.plays and job.cancel.is_set()):  # cancelled bots stay stopped
                            self._maybe_autoplay()
                    self._show_activity()

        if self.threaded:
            job.thread = threading.Thread(target=run, name=f"speicherstadt-lab-{kind}", daemon=True)
            job.thread.start()
        else:
            run()
        return True

    def cancel(self) -> None:
        """Ask the running job to stop (after the move or position it is working on)."""
        job = self._job
        if job is not None:
            job.cancel.set()

    def wait(self, timeout: float = 120.0) -> None:
        """Block until the running job has finished and the charts have caught up (for scripts and tests)."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:  # a job that ends may start the next one (bots after win chances) under the lock
                job = self._job
            if job is None:
                break
            if job.thread is not None:
                job.thread.join(max(0.0, deadline - time.monotonic()))
            if time.monotonic() > deadline:
                raise TimeoutError(f"the {job.kind} job is still running after {timeout} s")
            time.sleep(0.005)
        self.flush_charts()

    def close(self) -> None:
        """Stop the running job and pending chart updates, and close every widget of the app."""
        self.cancel()
        self.wait()
        for panel in self.panels:
            panel.close()
        timer = self._timer
        if timer is not None:
            timer.cancel()
        stack: list[Any] = [self.widget, *self.seat_kinds, *self.seat_labels]  # the seats not shown, too
        while stack:
            widget = stack.pop()
            stack.extend(getattr(widget, "children", ()))
            widget.close()

    def _show_activity(self) -> None:
        """The page's sign whether a job runs: class ssl-busy or ssl-idle on the app (set once the next job, if
        any, has started, so a page never sees a passing idle between two jobs)."""
        busy = self._job is not None
        self.widget.remove_class("ssl-idle" if busy else "ssl-busy")
        self.widget.add_class("ssl-busy" if busy else "ssl-idle")
        if not busy:
            self._show_parts()  # the bots stopped: the live analysis analyses the position they left

    def _set_busy(self, busy: bool) -> None:
        job = self._job
        plays = busy and job is not None and job.plays
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

    def _set_progress(self, value: int, total: int, label: str) -> None:
        self.job_bar.set_progress(value, total, label)

    def _set_status(self, label: str) -> None:
        self.job_bar.set_status(label)

    # ---- the win chances' job ------------------------------------------------------------------------

    def compute_win_chances(self) -> bool:
        """Estimate each seat's win probability (fair mode, the charts panel's rollouts) along the current line."""
        nodes, rollouts, bot = self.panels.charts.win_todo(self.node)
        return self._start("win", lambda job: self._evaluate(job, nodes, rollouts, bot))

    def _evaluate(self, job: Job, nodes: list[Node], rollouts: int, bot: str) -> None:
        lang = self.lang_code
        self._set_progress(0, max(1, len(nodes)), text(lang, "win_progress", i=0, n=len(nodes)))
        for i, node in enumerate(nodes):
            if job.cancel.is_set():
                self._say(text(lang, "cancelled"))
                break
            self.panels.charts.estimate(node, rollouts, bot)
            self._set_progress(i + 1, max(1, len(nodes)), text(lang, "win_progress", i=i + 1, n=len(nodes)))
            self._schedule_charts()
        else:
            self._say(text(lang, "done_win", n=len(nodes), rollouts=rollouts), ok=True)
        self._schedule_charts(now=True)

    # ---- the review's job -----------------------------------------------------------------------------

    def review_game(self, rollouts: int | None = None) -> bool:
        """Review every decision of the line on the board (:meth:`review_line`) in the background, with progress and
        cancel; the findings go into the record's annotations (``rollouts`` per action, default the control's)."""
        if rollouts is not None:
            self.review_rollouts.value = rollouts
        n = int(self.review_rollouts.value)
        with self._lock:
            path = self.review_line()
        return self._start("review", lambda job: self._review(job, path, n))

    def _review(self, job: Job, path: list[Node], rollouts: int) -> None:
        lang = self.lang_code
        total = len(path) - 1
        done = total - sum(1 for nd in path[1:] if nd.chance is None and not reviewed_at(nd, rollouts))
        start = time.perf_counter()
        # with a value model the hybrid finds and measures (greedy rollouts to the next round, scored by the model)
        value = "hybrid" if self.panels.charts.model_win(path[0]) is not None else None
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
                       skip=lambda nd: reviewed_at(nd, rollouts), on_result=judged, cancel=stop,
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
            self.panels.review.show(self.node, self._settings())
            self.panels.moves.refresh()  # the review's glyphs after the flagged moves
        self._schedule_charts(now=True)

    # ---- the message line -----------------------------------------------------------------------------

    def _say(self, message: str, error: bool = False, ok: bool = False) -> None:
        self.job_bar.say(message, error=error, ok=ok)
