"""The coordinator's side of the classroom panel (``classroom.py``): opening what a link's query string names, and the
link of what is on screen. A part of :class:`~.lab.LabApp` (a mixin): it opens games, lessons, scenarios and records,
which are the coordinator's."""

from __future__ import annotations

import urllib.parse

from ...scenarios import shipped_scenario, shipped_scenarios
from ..model import show_value
from .classroom import LinkProblem, ShareLink, binder_link, page_link, ply_of, read_query, read_record_file


class Sharing:
    """A part of :class:`~.lab.LabApp` (a mixin): opens a link's settings and gives the classroom panel the link of
    what is on screen."""

    def open_query(self, query: str | None) -> list[LinkProblem]:
        """Open what the query string ``query`` names (``lang=de&game=packet_row&players=4``, ``docs/sharing.md``).

        Every wrong setting is named in the notice above the board and left out (a normal game where it was);
        returns the problems (none: an empty list)."""
        plan, problems = read_query(query, str(self.game.value))
        if plan.lang is not None:
            self.set_lang(plan.lang)
        opened = False
        if plan.opener is None or plan.game is not None or plan.players is not None or plan.seed is not None:
            self.new_game(players=plan.players, seed=plan.seed, game=plan.game)
        if plan.opener is not None:
            opened = self._open_named(*plan.opener, problems)
        if plan.ply is not None:
            self._go_to_ply(plan.ply, opened and plan.opener is not None and plan.opener[0] != "lesson", problems)
        if plan.projector is not None:
            self.projector_button.value = plan.projector
        self.panels.classroom.note(problems)
        return problems

    def _open_named(self, param: str, value: str, problems: list[LinkProblem]) -> bool:
        """Open the lesson, shipped scenario or record file ``value``; False (and a problem named) if it cannot."""
        if param == "lesson":
            try:
                ok = bool(self.open_lesson(value))
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
            return bool(self.start_scenario(shipped_scenario(value)))
        record = read_record_file(value, problems)
        if record is None:
            return False
        self._use_record(record, record.end())  # as the Load button opens it; ``ply`` moves elsewhere
        return True

    def _go_to_ply(self, value: str, opened: bool, problems: list[LinkProblem]) -> None:
        line = self.record.mainline()
        ply = ply_of(value, len(line)) if opened else None
        if ply is None:
            problems.append(LinkProblem("ply", "bad_ply", {"value": show_value(value), "high": len(line) - 1}))
            return
        with self._lock:
            self._move_to(line[ply])

    def share_query(self) -> str:
        """The query string that opens what is on screen.

        The language; the lesson on the Tutorial page, a shipped scenario as started, a new game by its game, players
        and seed, or else a record file (named as the Save button names it) at the move on the board; the projector
        mode when it is on."""
        params: list[tuple[str, str]] = [("lang", self.lang_code)]
        lesson = self.panels.lessons.lesson
        scenario = self._shipped_scenario_name()
        if self.tutorial_button.value and lesson is not None:
            params.append(("lesson", str(lesson.id)))
        elif scenario is not None and self.node.parent is None and not self.record.root.children:
            params.append(("scenario", scenario))
        elif (not self.record.root.children and self.panels.scenario.started_with is None
              and isinstance(self.record.seed, int)):
            params += [("game", str(self.game.value)), ("players", str(self.record.initial.n_players)),
                       ("seed", str(self.record.seed))]
        else:
            params += [("record", self._file()[0]), ("ply", str(self.node.ply))]
        if self.projector_button.value:
            params.append(("projector", "1"))
        return urllib.parse.urlencode(params)

    def _shipped_scenario_name(self) -> str | None:
        started = self.panels.scenario.started_with
        if started is None:
            return None
        return next((n for n in shipped_scenarios() if shipped_scenario(n) == started), None)

    def share_link(self) -> str:
        """The link of what is on screen: this page's address (Voilà's request URL) with :meth:`share_query`."""
        return page_link(self.share_query())

    def binder_link(self) -> str | None:
        """On Binder: the link that starts a fresh copy of this repository's app with the same settings; None
        elsewhere."""
        return binder_link(self.share_query())

    def _show_share(self) -> None:
        """Give the classroom panel the link of what is on screen (worked out only while its share box is open)."""
        panel = self.panels.classroom
        if not panel.sharing:
            panel.show_link(None)
            return
        query = self.share_query()
        panel.show_link(ShareLink(query, self._file()[0] if "record=" in query else "", self.node.ply))

    def _on_projector(self, on: bool) -> None:
        """Large type, board and controls for a projector: the page's ``ssl-projector`` class (``projector.css``)."""
        if hasattr(self, "widget"):
            if on:
                self.widget.add_class("ssl-projector")
            else:
                self.widget.remove_class("ssl-projector")
        self._show_share()
