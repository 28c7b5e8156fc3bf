"""The job runner: one background job at a time (bot moves, playing on, win chances, review) with progress,
cancel and the page's ssl-busy/ssl-idle sign; the message line."""

from __future__ import annotations

import html
import threading
import time
from collections.abc import Callable
from typing import Any

from .jobs import Job
from .texts import text


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
        for b in (self.first_button, self.back_button, self.forward_button, self.last_button, self.promote_button,
                  self.better_button):
            b.disabled = plays
        self.slider.disabled = plays
        self.cancel_button.disabled = not busy
        self.progress.layout.display = "" if busy else "none"
        if busy:
            self.progress.value = 0
            self.status.value = ""
        else:
            self.status.value = ""
            with self._lock:
                self._show_nav()

    def _set_progress(self, value: int, total: int, label: str) -> None:
        self.progress.max = max(1, total)
        self.progress.value = max(0, min(value, self.progress.max))
        self.status.value = html.escape(label)

    def _set_status(self, label: str) -> None:
        self.status.value = html.escape(label)

    def _say(self, message: str, error: bool = False, ok: bool = False) -> None:
        if not message:
            self.message.value = ""
            return
        cls = "ssl-err" if error else "ssl-ok" if ok else ""
        self.message.value = f'<span class="{cls}">{html.escape(message)}</span>'
