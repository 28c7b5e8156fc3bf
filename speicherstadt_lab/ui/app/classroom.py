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
from ipywidgets.widgets.widget_bool import ToggleButtonStyle
from ipywidgets.widgets.widget_string import HTMLStyle

from ...engine.errors import RecordError
from ...engine.i18n import LANGS
from ...engine.protocol import games
from ...records import GameRecord
from ..board import ASSETS
from ..model import show_value
from ..shared_layout import fixed_layout, fixed_style
from .panel import Panel
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
    given twice (those are left out). Values are checked by :func:`read_query`."""
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


@dataclass(frozen=True)
class LinkPlan:
    """What a link's query string asks for, its values checked: None where it names nothing (or a wrong value)."""

    lang: str | None = None
    game: str | None = None
    players: int | None = None
    seed: int | None = None
    opener: tuple[str, str] | None = None  # ("lesson" | "scenario" | "record", the name given)
    ply: str | None = None  # checked once the record is open
    projector: bool | None = None


def read_query(query: str | None, game: str) -> tuple[LinkPlan, list[LinkProblem]]:
    """The plan of the query string ``query`` (``game``: the chooser's key a link without ``game`` plays) and every
    problem of it; a wrong setting is left out of the plan (a normal game where it was)."""
    got, problems = parse_query(query)
    lang = got.get("lang")
    if lang is not None and lang not in LANGS:
        problems.append(LinkProblem("lang", "bad_value", {"value": show_value(lang), "allowed": ", ".join(LANGS)}))
        lang = None
    variants = {v.key: info for info in games() for v in info.choices()}  # the game chooser's keys
    chosen = got.get("game")
    if chosen is not None and chosen not in variants:
        problems.append(LinkProblem("game", "bad_value", {"value": show_value(chosen),
                                                          "allowed": ", ".join(variants)}))
        chosen = None
    info = variants[chosen or game]
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
    projector = None
    if "projector" in got:
        projector = SWITCH.get(got["projector"].strip().lower())
        if projector is None:
            problems.append(LinkProblem("projector", "bad_value", {"value": show_value(got["projector"]),
                                                                   "allowed": "1, 0, on, off"}))
    opener = (openers[0], got[openers[0]]) if openers else None
    return LinkPlan(lang, chosen, players, seed, opener, got.get("ply"), projector), problems


def read_record_file(name: str, problems: list[LinkProblem]) -> GameRecord | None:
    """The record in the file ``name`` beside the notebook (the kernel's folder), read as JSON; None (and a problem)
    for a name that is no plain ``.json`` file name, a missing file or a malformed record."""
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


def ply_of(value: str, line_length: int) -> int | None:
    """The ply a link's ``ply`` names on a line of ``line_length`` positions, or None if it names none."""
    return _int(value, 0, line_length - 1)


def page_link(query: str) -> str:
    """This page's address (Voilà's request URL) with ``query``."""
    base = os.environ.get("VOILA_REQUEST_URL", "").split("?", 1)[0] or "app.ipynb"
    return f"{base}?{query}"


def binder_link(query: str) -> str | None:
    """On Binder: the link that starts a fresh copy of this repository's app with ``query`` (from the pod's
    ``BINDER_LAUNCH_HOST`` and ``BINDER_PERSISTENT_REQUEST``); None elsewhere."""
    host, request = os.environ.get("BINDER_LAUNCH_HOST"), os.environ.get("BINDER_PERSISTENT_REQUEST")
    path = os.environ.get("SCRIPT_NAME", "")
    if not host or not request or "voila/render/" not in path:
        return None
    urlpath = "voila/render/" + path.split("voila/render/", 1)[1] + "?" + query
    return f"{host.rstrip('/')}/{request.strip('/')}?urlpath={urllib.parse.quote(urlpath, safe='/')}"


@dataclass(frozen=True)
class ShareLink:
    """The link of what is on screen: its query string, the record file it names (if it names one) and the ply."""

    query: str
    record_file: str
    ply: int


class ClassroomPanel(Panel):
    """The top bar's Share link and projector toggles, the share box and the notice of a link's wrong settings.
    Emits ``share`` (the share box opened or closed: the coordinator gives it the link) and ``projector`` (``on``)."""

    def __init__(self) -> None:
        super().__init__()
        # shared, frozen layouts and styles, except the layouts of the two boxes shown and hidden (their own)
        toggle, plain = fixed_style(ToggleButtonStyle), fixed_style(HTMLStyle)
        self.share_button = w.ToggleButton(value=False, icon="link", layout=fixed_layout(width="auto"), style=toggle)
        self.share_button.add_class("ssl-share-btn")
        self.projector_button = w.ToggleButton(value=False, icon="television", layout=fixed_layout(width="auto"),
                                               style=toggle)
        self.projector_button.add_class("ssl-projector-btn")
        self.share_box = w.HTML(layout=w.Layout(width="100%", display="none"), style=plain)
        self.share_box.add_class("ssl-share")
        self.link_note = w.HTML(layout=w.Layout(width="100%", display="none"), style=plain)
        self.link_note.add_class("ssl-link-note")
        self.css = w.HTML(PROJECTOR_CSS, layout=fixed_layout(display="none"), style=plain)
        self._problems: list[LinkProblem] = []
        self._link: ShareLink | None = None
        self.share_button.observe(lambda _c: self.emit("share"), "value")
        self.projector_button.observe(lambda c: self.emit("projector", on=bool(c["new"])), "value")

    @property
    def sharing(self) -> bool:
        """Whether the share box is open (its link is then kept up to date)."""
        return bool(self.share_button.value)

    def relabel(self, lang: str) -> None:
        """The toggles' labels and the notice in ``lang`` (the share box follows :meth:`show_link`)."""
        self.share_button.description = ctext(lang, "share")
        self.share_button.tooltip = ctext(lang, "share_tip")
        self.projector_button.description = ctext(lang, "projector")
        self.projector_button.tooltip = ctext(lang, "projector_tip")
        self._show_note()

    def note(self, problems: list[LinkProblem]) -> None:
        """Name a link's ``problems`` in the notice above the board (hidden when there are none)."""
        self._problems = list(problems)
        self._show_note()

    def _show_note(self) -> None:
        problems = self._problems
        if not problems:
            self.link_note.layout.display = "none"
            return
        lang = self.settings.lang
        items = "".join(f"<li>{html.escape(p.text(lang))}</li>" for p in problems)
        self.link_note.value = (f'<div class="ssl-link-problems" role="alert"><b>{html.escape(ctext(lang, "bad_head"))}'
                                f"</b><ul>{items}</ul></div>")
        self.link_note.layout.display = ""

    def show_link(self, link: ShareLink | None) -> None:
        """The share box with ``link`` (the link of what is on screen) while it is open; hidden else."""
        self._link = link
        if not self.sharing or link is None:
            self.share_box.layout.display = "none"
            return
        lang = self.settings.lang
        query = link.query
        parts = [f'<div class="ssl-share-row">{html.escape(ctext(lang, "share_intro"))} '
                 f'<a class="ssl-share-link" href="{html.escape(page_link(query))}" target="_blank">'
                 f"{html.escape(page_link(query))}</a></div>"]
        binder = binder_link(query)
        if binder:
            parts.append(f'<div class="ssl-share-row">{html.escape(ctext(lang, "share_binder"))} '
                         f'<a class="ssl-binder-link" href="{html.escape(binder)}" target="_blank">'
                         f"{html.escape(binder)}</a></div>")
        parts.append(f'<div class="ssl-share-row">{html.escape(ctext(lang, "share_query"))} '
                     f'<code class="ssl-share-query">?{html.escape(query)}</code></div>')
        if "record=" in query:
            parts.append(f'<div class="ssl-share-row ssl-share-note">'
                         f'{html.escape(ctext(lang, "share_record", file=link.record_file, ply=link.ply))}</div>')
        self.share_box.value = "".join(parts)
        self.share_box.layout.display = ""
