"""The job runner: one background job at a time (bot moves, playing on, win chances, review) with progress and
cancel (``JobRunner``), its controls and the message line (``JobBar``), and the analyses run as jobs (``Analyses``)."""

from __future__ import annotations

import html
import threading
import time
from collections.abc import Callable
from typing import Any

import ipywidgets as w
from ipywidgets.widgets.widget_string import HTMLStyle

from ...records import Node
from ...resources import default_processes
from ...reviewing import REVIEW_KEY, Review
from ...reviewing import review as run_review
from ..shared_layout import fixed_layout, fixed_style
from .charts_panel import ChartsPanel
from .jobs import Job
from .review import reviewed_at
from .texts import text


class JobBar:
    """The job's controls, a plain helper of the coordinator: Cancel, the progress bar and the status (``row``), and
    the message line (``message``)."""

    def __init__(self, lang: str) -> None:
        lay = fixed_layout  # shared, frozen: never changed later (the progress bar has its own)
        self.progress = w.IntProgress(value=0, min=0, max=1, layout=w.Layout(width="110px", display="none"))
        plain = fixed_style(HTMLStyle)
        self.status = w.HTML(layout=lay(width="auto"), style=plain)
        self.status.add_class("ssl-status")
        self.cancel_button = w.Button(description=text(lang, "cancel"), button_style="danger", disabled=True,
                                      layout=lay(width="auto"), style=fixed_style(w.ButtonStyle))
        self.message = w.HTML(layout=lay(width="100%"), style=plain)
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
    """The one background job at a time, a part of the coordinator: starting, cancelling and waiting for it, in its own
    thread (``threaded``) or in the caller's; its controls and the message line are ``bar``.

    It is given the coordinator's lock, the language (``lang()``) and two callbacks: ``changed()`` after a job started
    (the coordinator's controls follow ``job``) and ``ended(job)`` when it has ended (with the lock held)."""

    def __init__(self, bar: JobBar, lock: Any, threaded: bool, lang: Callable[[], str], changed: Callable[[], None],
                 ended: Callable[[Job], None]) -> None:
        self._bar = bar
        self._lock = lock
        self.threaded = threaded
        self._lang = lang
        self._changed = changed
        self._ended = ended
        self.job: Job | None = None
        bar.cancel_button.on_click(lambda _b: self.cancel())

    @property
    def plays(self) -> bool:
        """True while a job moves on the board (bots playing: the board and navigation wait for it)."""
        job = self.job
        return job is not None and job.plays

    def name(self, job: Job) -> str:
        """What ``job`` is, in the app's language ("Bot move", ...)."""
        return text(self._lang(), f"job_{job.kind}")

    def refuse_if_busy(self) -> bool:
        """Say so (and True) while a job runs."""
        job = self.job
        if job is not None:
            self.say(text(self._lang(), "busy", job=self.name(job)), error=True)
            return True
        return False

    def refuse_if_playing(self) -> bool:
        """Say so (and True) while bots are moving on the board."""
        job = self.job
        if job is not None and job.plays:
            self.say(text(self._lang(), "busy", job=self.name(job)), error=True)
            return True
        return False

    def start(self, kind: str, work: Callable[[Job], None]) -> bool:
        """Run ``work(job)`` as the one background job; False (and a message) if another job runs."""
        with self._lock:
            if self.refuse_if_busy():
                return False
            job = self.job = Job(kind)
        self.say("")
        self._changed()

        def run() -> None:
            try:
                work(job)
            except Exception as err:  # shown in the app, never lost in a thread
                self.say(text(self._lang(), "error", error=err), error=True)
            finally:
                with self._lock:
                    self.job = None
                    self._ended(job)

        if self.threaded:
            job.thread = threading.Thread(target=run, name=f"speicherstadt-lab-{kind}", daemon=True)
            job.thread.start()
        else:
            run()
        return True

    def cancel(self) -> None:
        """Ask the running job to stop (after the move or position it is working on)."""
        job = self.job
        if job is not None:
            job.cancel.set()

    def wait(self, timeout: float = 120.0) -> None:
        """Block until no job runs (a job that ends may start the next one under the lock: that one too)."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                job = self.job
            if job is None:
                break
            if job.thread is not None:
                job.thread.join(max(0.0, deadline - time.monotonic()))
            if time.monotonic() > deadline:
                raise TimeoutError(f"the {job.kind} job is still running after {timeout} s")
            time.sleep(0.005)

    def say(self, message: str, error: bool = False, ok: bool = False) -> None:
        """The message line (:meth:`JobBar.say`)."""
        self._bar.say(message, error=error, ok=ok)

    def progress(self, value: int, total: int, label: str) -> None:
        """The progress bar and the status line (:meth:`JobBar.set_progress`)."""
        self._bar.set_progress(value, total, label)

    def status(self, label: str) -> None:
        """The status line (what the job is doing)."""
        self._bar.set_status(label)


class Analyses:
    """The long analyses the coordinator runs as jobs, a part of it: the win chances (stored in the charts panel) and
    the review (written into the record).

    It is given the job runner, the charts panel whose estimates it fills, ``here()`` (the node on the board: a record
    loaded meanwhile stops the review), ``schedule(now)`` (the charts to draw again) and ``reviewed()`` (the review's
    panels to show it)."""

    def __init__(self, runner: JobRunner, charts: ChartsPanel, here: Callable[[], Node],
                 schedule: Callable[[bool], None], reviewed: Callable[[], None]) -> None:
        self._runner = runner
        self._charts = charts
        self._here = here
        self._schedule = schedule
        self._reviewed = reviewed

    def win_chances(self, node: Node, lang: str) -> bool:
        """Estimate each seat's win probability (fair mode, the charts panel's rollouts) along ``node``'s line."""
        nodes, rollouts, bot = self._charts.win_todo(node)
        return self._runner.start("win", lambda job: self._evaluate(job, nodes, rollouts, bot, lang))

    def _evaluate(self, job: Job, nodes: list[Node], rollouts: int, bot: str, lang: str) -> None:
        runner = self._runner
        runner.progress(0, max(1, len(nodes)), text(lang, "win_progress", i=0, n=len(nodes)))
        for i, node in enumerate(nodes):
            if job.cancel.is_set():
                runner.say(text(lang, "cancelled"))
                break
            self._charts.estimate(node, rollouts, bot)
            runner.progress(i + 1, max(1, len(nodes)), text(lang, "win_progress", i=i + 1, n=len(nodes)))
            self._schedule(False)
        else:
            runner.say(text(lang, "done_win", n=len(nodes), rollouts=rollouts), ok=True)
        self._schedule(True)

    def review(self, path: list[Node], rollouts: int, lang: str) -> bool:
        """Review every decision of ``path`` (a line from the record's start) in the background, ``rollouts`` per
        action; the findings go into the record's annotations."""
        return self._runner.start("review", lambda job: self._review(job, path, rollouts, lang))

    def _review(self, job: Job, path: list[Node], rollouts: int, lang: str) -> None:
        runner = self._runner
        total = len(path) - 1
        done = total - sum(1 for nd in path[1:] if nd.chance is None and not reviewed_at(nd, rollouts))
        start = time.perf_counter()
        # with a value model the hybrid finds and measures (greedy rollouts to the next round, scored by the model)
        value = "hybrid" if self._charts.model_win(path[0]) is not None else None
        runner.progress(done, total, text(lang, "review_progress", i=done, n=total))
        # the decisions side by side in worker processes (as many as resources.default_processes allows), each
        # shown as it is judged; a cancel or another record loaded stops the pool

        def stop() -> bool:
            return job.cancel.is_set() or path[0] is not self._here().record.root

        def judged(i: int, _n: int) -> None:
            runner.progress(done + i, total, text(lang, "review_progress", i=done + i, n=total))
            if i % 10 == 0:
                self._schedule(False)

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
            runner.say(text(lang, "cancelled"))
        else:
            # then the luck of every supply on the line (the review's hybrid rollouts; seconds, in one step)
            runner.say(text(lang, "review_luck"))
            run_review(record, rollouts=rollouts, node=path[-1], progress=False, decisions=False, value=value,
                       cancel=stop, processes=processes)
            settings = record.root.annotations.get(REVIEW_KEY)
            if isinstance(settings, dict):
                settings["seconds"] = round(time.perf_counter() - start, 1)
            d = Review.from_record(record, node=path[-1]).decisions
            runner.say(text(lang, "done_review", n=len(d), mistakes=int((d["flag"] == "mistake").sum()),
                            inaccuracies=int((d["flag"] == "inaccuracy").sum())), ok=True)
        self._reviewed()
        self._schedule(True)
