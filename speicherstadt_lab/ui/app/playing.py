"""Playing: a person's move at the node on the board, and the bots' moves as background jobs (one bot move, to the end
of the round or game, and by themselves whenever a bot is to move). A part of the coordinator (``Player``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ...records import Node
from .jobs import Job
from .jobs_panel import JobRunner
from .navigation import Explanation
from .panel_host import Bots
from .texts import text

SHOW_EVERY = 0.15  # seconds between board updates while bots play on


def phase_index(state: Any) -> int:
    """Where in its round ``state`` is, 0..3, for the progress bar (demand, purchase, loading, the rest)."""
    return {"demand": 0, "purchase": 1, "loading": 2}.get(state.phase, 3)


class Player:
    """Moves, a part of the coordinator: a person's move (:meth:`play`) and the bots' jobs.

    It is given the coordinator's lock, the job runner (``jobs``), the seats' bots (``bots``), the bots' reasons
    (``explain``), ``here()`` (the node on the board), ``move_to(node)`` (put a node on the board and show it; called
    with the lock held), ``keep(node)`` (the board's node without showing it yet, while bots play fast), ``auto()``
    (whether bots move by themselves) and ``lang()``."""

    def __init__(self, lock: Any, jobs: JobRunner, bots: Bots, explain: Explanation, here: Callable[[], Node],
                 move_to: Callable[[Node], None], keep: Callable[[Node], None], auto: Callable[[], bool],
                 lang: Callable[[], str]) -> None:
        self._lock = lock
        self._jobs = jobs
        self._bots = bots
        self._explain = explain
        self._here = here
        self._move_to = move_to
        self._keep = keep
        self._auto = auto
        self._lang = lang
        self._pending = False  # a bot became to move while a job ran: asked again when the job ends
        self._held = False  # True while a new game's seats are set: no bot starts in the old one
        self._last_show = 0.0

    def bot_for(self, seat: int, stand_in: bool = False) -> Any:
        """The bot of ``seat`` (for a human seat: the stand-in Greedy bot if ``stand_in``, else None)."""
        return self._bots.bot_for(seat, self._here().record.seed, stand_in)

    def shown(self) -> None:
        """The coordinator showed the board's node: bots playing fast show their next one no sooner than
        ``SHOW_EVERY`` after it."""
        self._last_show = time.monotonic()

    @contextmanager
    def hold(self) -> Iterator[None]:
        """No bot starts meanwhile (a new game's seats are being set)."""
        self._held = True
        try:
            yield
        finally:
            self._held = False

    @property
    def held(self) -> bool:
        """True inside :meth:`hold`."""
        return self._held

    def play(self, action: Any, applied: tuple[Any, Any] | None = None) -> Node:
        """Play ``action`` (notation) at the node on the board as a person's move: an existing child with it, else a
        new variation; then the bots move if they move by themselves.

        Raises :class:`IllegalAction` (and changes nothing) for an illegal action, RuntimeError while bots
        are moving. ``applied``: (state, state after) of a board's click, applied once (``Node.play``)."""
        with self._lock:
            job = self._jobs.job
            if job is not None and job.plays:
                raise RuntimeError(text(self._lang(), "busy", job=self._jobs.name(job)))
            node = self._here().play(action, by="human", applied=applied)
            self._move_to(node)
        self.autoplay()
        return node

    def autoplay(self) -> None:
        """If bots move by themselves and a bot is to move, let the bots play until a person's seat is to move or
        "Bots move by themselves" is unticked.

        Called after everything that can put a bot to move: a move, a new game, a chance variation, a seat's player,
        the tick. While a job runs, it is asked again when the job ends (unless the user cancelled bots that were
        playing)."""
        with self._lock:
            if self._jobs.job is not None:
                self._pending = True
                return
            st = self._here().state
            if not (self._auto() and not st.is_over and st.to_move is not None
                    and self.bot_for(st.to_move) is not None):
                return
            self._jobs.start("auto", lambda job: self._play_on(
                job, until=lambda s: not self._auto() or self.bot_for(s.to_move) is None))

    def seat_changed(self, seat: int) -> None:
        """``seat``'s player changed: its fresh bot starts if that seat is to move (not inside :meth:`hold`)."""
        if not self._held and self._here().state.to_move == seat:
            self.autoplay()

    def job_ended(self, job: Job) -> None:
        """``job`` ended: bots to move meanwhile play on (unless ``job`` was bots the user cancelled)."""
        if self._pending:
            self._pending = False
            if not (job.plays and job.cancel.is_set()):  # cancelled bots stay stopped
                self.autoplay()

    def refuse_if_over(self) -> bool:
        """Say so (and True) where the game on the board is over: no bot has anything to play."""
        if self._here().state.is_over:
            self._jobs.say(text(self._lang(), "over"))
            return True
        return False

    def bot_move(self) -> bool:
        """The seat to move lets its bot choose (a human seat: the Greedy bot). False if nothing started."""
        if self.refuse_if_over():
            return False
        return self._jobs.start("bot", lambda job: self._play_on(job, moves=1))

    def play_to_round_end(self) -> bool:
        """Bots play every seat until the next round starts (or the game ends)."""
        if self.refuse_if_over():
            return False
        start = self._here().state.round
        return self._jobs.start("round", lambda job: self._play_on(job, until=lambda s: s.round != start))

    def play_to_end(self) -> bool:
        """Bots play every seat to the end of the game."""
        if self.refuse_if_over():
            return False
        return self._jobs.start("end", lambda job: self._play_on(job))

    def _play_on(self, job: Job, until: Callable[[Any], bool] | None = None, moves: int | None = None) -> None:
        """Let the bots move from the current node until ``until(state)``, ``moves`` moves, the end or cancel."""
        lang = self._lang()
        jobs = self._jobs
        played = 0
        start = self._here().state
        last_round = start.round + getattr(start, "rounds_left", 1)  # an optional protocol member
        while not job.cancel.is_set():
            node = self._here()
            st = node.state
            if st.is_over or (moves is not None and played >= moves) or (until is not None and until(st)):
                break
            seat = st.to_move
            bot = self.bot_for(seat, stand_in=True)
            jobs.status(text(lang, "thinking", seat=st.seat_name(seat, lang)))
            obs = st.observe(seat)
            action = bot.choose(obs)
            if job.cancel.is_set():
                break
            with self._lock:
                child = node.play(action, by=dict(bot.params()))
                self._explain.note(child, bot, obs)
                self._keep(child)
                played += 1
                if time.monotonic() - self._last_show >= SHOW_EVERY or moves == 1:
                    self._move_to(child)
            rounds = max(1, last_round - start.round + 1)
            jobs.progress(min(rounds * 3, (child.state.round - start.round) * 3 + phase_index(child.state)),
                          rounds * 3, text(lang, "played", n=played, round=child.state.round))
        with self._lock:
            self._move_to(self._here())
        if job.cancel.is_set():
            jobs.say(text(lang, "cancelled"))
