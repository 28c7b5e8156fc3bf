"""The coordinator's side of the classroom panel (``classroom.py``): opening what a link's query string names, and the
link of what is on screen (``Sharing``: what opening does comes in as the coordinator's calls, ``Openers``, what is on
screen as plain data, ``Screen``); and the record as a file, saved and loaded (``Files``)."""

from __future__ import annotations

import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...engine.errors import RecordError
from ...records import GameRecord, Node
from ...scenarios import shipped_scenario, shipped_scenarios
from ..model import show_value
from .classroom import (
    ClassroomPanel,
    LinkProblem,
    ShareLink,
    binder_link,
    page_link,
    ply_of,
    read_query,
    read_record_file,
)
from .jobs_panel import JobRunner
from .texts import text


@dataclass(frozen=True)
class Screen:
    """What is on screen, as a link names it (plain data the coordinator makes when a link is wanted).

    The language, the lesson on the Tutorial page (None while the lab page is shown), the scenario the record started
    from (its data, None), the record and the node on the board, the game chooser's key, the record's file name (as
    Save names it) and whether the projector mode is on."""

    lang: str
    lesson: str | None
    started: dict[str, Any] | None
    record: GameRecord
    node: Node
    game: str
    file: str
    projector: bool


@dataclass(frozen=True)
class Openers:
    """What opening a link may do, each one of the coordinator's calls.

    Choose the language, start a new game (``players``, ``seed``, ``game``; None keeps a setting), open a lesson or a
    scenario (False: not opened), use a record as the Load button does, the record in use, put a node on the board,
    the projector mode, and the game chooser's key now."""

    set_lang: Callable[[str], None]
    new_game: Callable[..., None]
    open_lesson: Callable[[str], bool]
    start_scenario: Callable[[dict[str, Any]], bool]
    use_record: Callable[[GameRecord], None]
    record: Callable[[], GameRecord]
    move_to: Callable[[Node], None]
    projector: Callable[[bool], None]
    game: Callable[[], str]


def shipped_name(started: dict[str, Any] | None) -> str | None:
    """The name of the shipped scenario whose data is ``started`` (None for another one, or none)."""
    if started is None:
        return None
    return next((n for n in shipped_scenarios() if shipped_scenario(n) == started), None)


class Sharing:
    """Links, a part of the coordinator: opens a link's settings through the coordinator's ``openers`` and gives the
    classroom panel (``classroom``) the link of what is on screen (``screen()``, asked when a link is wanted)."""

    def __init__(self, classroom: ClassroomPanel, openers: Openers, screen: Callable[[], Screen]) -> None:
        self._classroom = classroom
        self._open = openers
        self._screen = screen

    def open_query(self, query: str | None) -> list[LinkProblem]:
        """Open what the query string ``query`` names (``lang=de&game=packet_row&players=4``, ``docs/sharing.md``).

        Every wrong setting is named in the notice above the board and left out (a normal game where it was);
        returns the problems (none: an empty list)."""
        plan, problems = read_query(query, self._open.game())
        if plan.lang is not None:
            self._open.set_lang(plan.lang)
        opened = False
        if plan.opener is None or plan.game is not None or plan.players is not None or plan.seed is not None:
            self._open.new_game(players=plan.players, seed=plan.seed, game=plan.game)
        if plan.opener is not None:
            opened = self._open_named(*plan.opener, problems)
        if plan.ply is not None:
            self._go_to_ply(plan.ply, opened and plan.opener is not None and plan.opener[0] != "lesson", problems)
        if plan.projector is not None:
            self._open.projector(plan.projector)
        self._classroom.note(problems)
        return problems

    def _open_named(self, param: str, value: str, problems: list[LinkProblem]) -> bool:
        """Open the lesson, shipped scenario or record file ``value``; False (and a problem named) if it cannot."""
        if param == "lesson":
            try:
                ok = bool(self._open.open_lesson(value))
            except ValueError:
                ok = False
            if not ok:
                from ...lessons import lesson_names  # the lessons' module is the Tutorial page's

                problems.append(LinkProblem(param, "bad_value", {"value": show_value(value),
                                                                 "allowed": ", ".join(lesson_names())}))
            return ok
        if param == "scenario":
            names = shipped_scenarios()
            if value not in names:
                problems.append(LinkProblem(param, "bad_value", {"value": show_value(value),
                                                                 "allowed": ", ".join(names)}))
                return False
            return bool(self._open.start_scenario(shipped_scenario(value)))
        record = read_record_file(value, problems)
        if record is None:
            return False
        self._open.use_record(record)  # as the Load button opens it; ``ply`` moves elsewhere
        return True

    def _go_to_ply(self, value: str, opened: bool, problems: list[LinkProblem]) -> None:
        line = self._open.record().mainline()
        ply = ply_of(value, len(line)) if opened else None
        if ply is None:
            problems.append(LinkProblem("ply", "bad_ply", {"value": show_value(value), "high": len(line) - 1}))
            return
        self._open.move_to(line[ply])

    def query(self) -> str:
        """The query string that opens what is on screen.

        The language; the lesson on the Tutorial page, a shipped scenario as started, a new game by its game, players
        and seed, or else a record file (named as the Save button names it) at the move on the board; the projector
        mode when it is on."""
        screen = self._screen()
        params: list[tuple[str, str]] = [("lang", screen.lang)]
        record, node = screen.record, screen.node
        scenario = shipped_name(screen.started)
        if screen.lesson is not None:
            params.append(("lesson", screen.lesson))
        elif scenario is not None and node.parent is None and not record.root.children:
            params.append(("scenario", scenario))
        elif not record.root.children and screen.started is None and isinstance(record.seed, int):
            params += [("game", screen.game), ("players", str(record.initial.n_players)), ("seed", str(record.seed))]
        else:
            params += [("record", screen.file), ("ply", str(node.ply))]
        if screen.projector:
            params.append(("projector", "1"))
        return urllib.parse.urlencode(params)

    def link(self) -> str:
        """The link of what is on screen: this page's address (Voilà's request URL) with :meth:`query`."""
        return page_link(self.query())

    def binder_link(self) -> str | None:
        """On Binder: the link that starts a fresh copy of this repository's app with the same settings; None
        elsewhere."""
        return binder_link(self.query())

    def show(self) -> None:
        """Give the classroom panel the link of what is on screen (worked out only while its share box is open)."""
        if not self._classroom.sharing:
            self._classroom.show_link(None)
            return
        query = self.query()
        shown = self._screen()
        self._classroom.show_link(ShareLink(query, shown.file if "record=" in query else "", shown.node.ply))


class Files:
    """The record as a file, a part of the coordinator: its name and text for the Save button, and a file read back
    (a malformed one changes nothing: the message line names the problem).

    It is given the job runner (its refusal while a job runs, the message line), the coordinator's lock, the language
    (``lang()``), the record in use (``record()``) and ``use(record)`` (the coordinator opens a record read)."""

    def __init__(self, jobs: JobRunner, lock: Any, lang: Callable[[], str], record: Callable[[], GameRecord],
                 use: Callable[[GameRecord], None]) -> None:
        self._jobs = jobs
        self._lock = lock
        self._lang = lang
        self._current = record
        self._use = use

    def name(self) -> str:
        """The name the Save button gives the record's file."""
        record = self._current()
        return f"speicherstadt-{record.initial.n_players}p-seed{record.seed}.json"

    def save_json(self) -> str:
        """The record as JSON text (what the Save button downloads)."""
        with self._lock:
            return self._current().to_json(pretty=True)

    def file(self) -> tuple[str, str]:
        """(the file's name, its text): what the Save button downloads."""
        return self.name(), self.save_json()

    def load_json(self, data: str | bytes) -> bool:
        """Replace the record by one read from JSON text; on a malformed record the message shows the
        :class:`RecordError` text, nothing changes, and the result is False."""
        if self._jobs.refuse_if_busy():
            return False
        lang = self._lang()
        if isinstance(data, bytes | bytearray | memoryview):
            try:
                data = bytes(data).decode("utf-8")
            except UnicodeDecodeError:
                self._jobs.say(text(lang, "load_error", error=text(lang, "not_text")), error=True)
                return False
        try:
            record = GameRecord.from_json(data)
        except RecordError as err:
            self._jobs.say(text(lang, "load_error", error=err), error=True)
            return False
        self._use(record)
        self._jobs.say(text(lang, "loaded", plies=len(record.mainline()) - 1, branches=len(record.branch_points())),
                       ok=True)
        return True
