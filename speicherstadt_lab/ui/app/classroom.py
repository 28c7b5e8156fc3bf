"""For a class: links a teacher can share (the app opens what the page's query string names) and the projector mode.

Voilà hands the page's query string to the kernel (the ``QUERY_STRING`` environment variable, also through Jupyter
Server's ``/voila/render/...`` route that Binder uses); ``notebooks/app.ipynb`` passes it to ``LabApp(query=...)``.
The settings (``docs/sharing.md``): ``game``, ``players``, ``seed``, ``lang``, ``lesson``, ``scenario`` (a shipped
one), ``record`` (a ``.json`` file beside the notebook) with ``ply``, and ``projector``. A wrong one is named in a
notice above the board and the app opens a normal game where it was; everything else of the link still applies.
The top bar's "Share link" shows the link of what is on screen. Texts: ``data/messages/classroom.toml``.
"""

from __future__ import annotations

import html
import os
import re
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import ipywidgets as w

from ...engine.errors import RecordError
from ...engine.i18n import LANGS
from ...engine.protocol import games
from ...records import GameRecord
from ...scenarios import shipped_scenario, shipped_scenarios
from ..board import ASSETS
from ..model import show_value
from .texts import load_texts

CTEXTS = load_texts("classroom")
#: The settings a link may carry, in the order the share link writes them.
PARAMS = ("lang", "game", "players", "seed", "lesson", "scenario", "record", "ply", "projector")
VOILA_OWN = ("template", "theme", "token")  # Voilà's own query parameters: not the app's
OPENERS = ("lesson", "scenario", "record")  # at most one of them
FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,119}\.json")
RECORD_MAX = 5_000_000  # bytes of a record file a link may open
SEED_MAX = 2**31 - 1
SWITCH = {"1": True, "on": True, "true": True, "yes": True, "0": False, "off": False, "false": False, "no": False}
PROJECTOR_CSS = "<style>\n" + (ASSETS / "projector.css").read_text(encoding="utf-8") + "</style>"


def ctext(lang: str, key: str, **args: Any) -> str:
    """A text of the classroom controls in ``lang``, filled in."""
    return CTEXTS[lang][key].format(**args)


@dataclass(frozen=True)
class LinkProblem:
    """A setting of a link that could not be used: the parameter, the text's key and its arguments."""

    param: str
    key: str
    args: dict[str, Any] = field(default_factory=dict)

    def text(self, lang: str) -> str:
        """What is wrong, in ``lang``, naming the parameter."""
        return ctext(lang, self.key, param=self.param, **self.args)


def parse_query(query: str | None) -> tuple[dict[str, str], list[LinkProblem]]:
    """A query string's settings (name → the text given) and the problems of its shape: unknown names and names
    given twice (those are left out). Values are checked by :meth:`Classroom.open_query`."""
    got: dict[str, str] = {}
    problems: list[LinkProblem] = []
    seen: set[str] = set()
    for name, value in urllib.parse.parse_qsl((query or "").lstrip("?"), keep_blank_values=True):
        if name in VOILA_OWN:
            continue
        if name not in PARAMS:
            problems.append(LinkProblem(show_value(name), "bad_unknown", {"allowed": ", ".join(PARAMS)}))
        elif name in seen:
            got.pop(name, None)
            problems.append(LinkProblem(name, "bad_twice"))
        else:
            got[name] = value
        seen.add(name)
    return got, problems


def _int(value: str, low: int, high: int) -> int | None:
    return int(value) if re.fullmatch(r"-?[0-9]{1,10}", value.strip()) and low <= int(value) <= high else None


class Classroom:
    """A part of :class:`~.lab.LabApp` (a mixin): links to share, the notice of a link's wrong settings, and the
    projector mode."""

    # ---- controls -------------------------------------------------------------------------------------

    def _classroom_controls(self, lang: str) -> None:
        lay = w.Layout
        self.share_button = w.ToggleButton(value=False, icon="link", layout=lay(width="auto"))
        self.share_button.add_class("ssl-share-btn")
        self.projector_button = w.ToggleButton(value=False, icon="television", layout=lay(width="auto"))
        self.projector_button.add_class("ssl-projector-btn")
        self.share_box = w.HTML(layout=lay(width="100%", display="none"))
        self.share_box.add_class("ssl-share")
        self.link_note = w.HTML(layout=lay(width="100%", display="none"))
        self.link_note.add_class("ssl-link-note")
        self._link_problems: list[LinkProblem] = []
        self._projector_css = w.HTML(PROJECTOR_CSS, layout=lay(display="none"))
        self.share_button.observe(lambda _c: self._show_share(), "value")
        self.projector_button.observe(lambda _c: self._on_projector(), "value")

    def _relabel_classroom(self) -> None:
        lang = self.lang_code
        self.share_button.description = ctext(lang, "share")
        self.share_button.tooltip = ctext(lang, "share_tip")
        self.projector_button.description = ctext(lang, "projector")
        self.projector_button.tooltip = ctext(lang, "projector_tip")
        self._show_link_note()
        self._show_share()

    # ---- opening a link -------------------------------------------------------------------------------

    def open_query(self, query: str | None) -> list[LinkProblem]:
        """Open what the query string ``query`` names (``lang=de&game=packet_row&players=4``, see the module doc).
        Every wrong setting is named in the notice above the board and left out (a normal game where it was);
        returns the problems (none: an empty list)."""
        got, problems = parse_query(query)

        lang = got.get("lang")
        if lang is not None:
            if lang in LANGS:
                self.set_lang(lang)
            else:
                problems.append(LinkProblem("lang", "bad_value", {"value": show_value(lang),
                                                                  "allowed": ", ".join(LANGS)}))
        variants = {v.key: info for info in games() for v in info.choices()}  # the game chooser's keys
        game = got.get("game")
        if game is not None and game not in variants:
            problems.append(LinkProblem("game", "bad_value", {"value": show_value(game),
                                                              "allowed": ", ".join(variants)}))
            game = None
        info = variants[game or self.game.value]
        players = seed = None
        if "players" in got:
            players = _int(got["players"], info.min_players, info.max_players)
            if players is None:
                problems.append(LinkProblem("players", "bad_int", {"value": show_value(got["players"]),
                                                                   "low": info.min_players, "high": info.max_players}))
        if "seed" in got:
            seed = _int(got["seed"], 0, SEED_MAX)
            if seed is None:
                problems.append(LinkProblem("seed", "bad_int", {"value": show_value(got["seed"]), "low": 0,
                                                                "high": SEED_MAX}))
        openers = [k for k in OPENERS if k in got]
        for extra in openers[1:]:
            problems.append(LinkProblem(extra, "bad_several"))
        opened = False
        if not openers or game is not None or players is not None or seed is not None:
            self.new_game(players=players, seed=seed, game=game)
        if openers:
            opened = self._open_named(openers[0], got[openers[0]], problems)
        if "ply" in got:
            self._go_to_ply(got["ply"], opened and openers[0] != "lesson", problems)
        if "projector" in got:
            on = SWITCH.get(got["projector"].strip().lower())
            if on is None:
                problems.append(LinkProblem("projector", "bad_value", {"value": show_value(got["projector"]),
                                                                       "allowed": "1, 0, on, off"}))
            else:
                self.projector_button.value = on
        self._link_problems = problems
        self._show_link_note()
        return problems

    def _open_named(self, param: str, value: str, problems: list[LinkProblem]) -> bool:
        """Open the lesson, shipped scenario or record file ``value``; False (and a problem named) if it cannot."""
        if param == "lesson":
            opener = getattr(self, "open_lesson", None)
            if opener is None:
                problems.append(LinkProblem(param, "no_lessons"))
                return False
            try:
                ok = bool(opener(value))
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
        record = self._record_file(value, problems)
        if record is None:
            return False
        self._use_record(record, record.end())  # as the Load button opens it; ``ply`` moves elsewhere
        return True

    def _record_file(self, name: str, problems: list[LinkProblem]) -> GameRecord | None:
        """The record in the file ``name`` beside the notebook (the kernel's folder), read as JSON; None (and a
        problem) for a name that is no plain ``.json`` file name, a missing file or a malformed record."""
        if not FILE_NAME.fullmatch(name) or ".." in name:
            problems.append(LinkProblem("record", "bad_file", {"value": show_value(name)}))
            return None
        path = Path.cwd() / name
        if not path.is_file():
            problems.append(LinkProblem("record", "bad_missing", {"value": show_value(name)}))
            return None
        try:
            if path.stat().st_size > RECORD_MAX:
                raise RecordError(f"the file is larger than {RECORD_MAX} bytes")
            return GameRecord.from_json(path.read_text(encoding="utf-8"))
        except (RecordError, ValueError, OSError) as err:
            problems.append(LinkProblem("record", "bad_record", {"value": show_value(name), "error": str(err)}))
            return None

    def _go_to_ply(self, value: str, opened: bool, problems: list[LinkProblem]) -> None:
        line = self.record.mainline()
        ply = _int(value, 0, len(line) - 1) if opened else None
        if ply is None:
            problems.append(LinkProblem("ply", "bad_ply", {"value": show_value(value), "high": len(line) - 1}))
            return
        with self._lock:
            self._move_to(line[ply])

    def _show_link_note(self) -> None:
        """The notice above the board naming the link's settings that could not be used (hidden when none)."""
        problems = self._link_problems
        if not problems:
            self.link_note.layout.display = "none"
            return
        lang = self.lang_code
        items = "".join(f"<li>{html.escape(p.text(lang))}</li>" for p in problems)
        self.link_note.value = (f'<div class="ssl-link-problems" role="alert"><b>{html.escape(ctext(lang, "bad_head"))}'
                                f"</b><ul>{items}</ul></div>")
        self.link_note.layout.display = ""

    # ---- sharing --------------------------------------------------------------------------------------

    def share_query(self) -> str:
        """The query string that opens what is on screen: the language; the lesson on the Tutorial page, a shipped
        scenario as started, a new game by its game, players and seed, or else a record file (named as the Save
        button names it) at the move on the board; the projector mode when it is on."""
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
        base = os.environ.get("VOILA_REQUEST_URL", "").split("?", 1)[0] or "app.ipynb"
        return f"{base}?{self.share_query()}"

    def binder_link(self) -> str | None:
        """On Binder: the link that starts a fresh copy of this repository's app with the same settings (from the
        pod's ``BINDER_LAUNCH_HOST`` and ``BINDER_PERSISTENT_REQUEST``); None elsewhere."""
        host, request = os.environ.get("BINDER_LAUNCH_HOST"), os.environ.get("BINDER_PERSISTENT_REQUEST")
        path = os.environ.get("SCRIPT_NAME", "")
        if not host or not request or "voila/render/" not in path:
            return None
        urlpath = "voila/render/" + path.split("voila/render/", 1)[1] + "?" + self.share_query()
        return f"{host.rstrip('/')}/{request.strip('/')}?urlpath={urllib.parse.quote(urlpath, safe='/')}"

    def _show_share(self) -> None:
        if not self.share_button.value:
            self.share_box.layout.display = "none"
            return
        lang = self.lang_code
        link, query = self.share_link(), self.share_query()
        parts = [f'<div class="ssl-share-row">{html.escape(ctext(lang, "share_intro"))} '
                 f'<a class="ssl-share-link" href="{html.escape(link)}" target="_blank">{html.escape(link)}</a></div>']
        binder = self.binder_link()
        if binder:
            parts.append(f'<div class="ssl-share-row">{html.escape(ctext(lang, "share_binder"))} '
                         f'<a class="ssl-binder-link" href="{html.escape(binder)}" target="_blank">'
                         f"{html.escape(binder)}</a></div>")
        parts.append(f'<div class="ssl-share-row">{html.escape(ctext(lang, "share_query"))} '
                     f'<code class="ssl-share-query">?{html.escape(query)}</code></div>')
        if "record=" in query:
            parts.append(f'<div class="ssl-share-row ssl-share-note">'
                         f'{html.escape(ctext(lang, "share_record", file=self._file()[0], ply=self.node.ply))}</div>')
        self.share_box.value = "".join(parts)
        self.share_box.layout.display = ""

    # ---- projector mode -------------------------------------------------------------------------------

    def _on_projector(self) -> None:
        """Large type, board and controls for a projector: the page's ``ssl-projector`` class (``projector.css``)."""
        if not hasattr(self, "widget"):
            return
        if self.projector_button.value:
            self.widget.add_class("ssl-projector")
        else:
            self.widget.remove_class("ssl-projector")
        self._show_share()
