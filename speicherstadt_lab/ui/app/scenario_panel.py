"""The scenario panel (a :class:`~.panel.Panel`): start a game from a described situation, without code
(``speicherstadt_lab.scenarios``).

A picker of the shipped scenarios and a "this position" button fill a text area with a scenario's JSON; a
teacher changes numbers and ids and starts a new record whose root is that scenario. A wrong scenario changes
nothing: the panel's error line names the field at fault.

A scenario starts where it says: every seat is the user's (human), so no bot moves away from the described
position before the user acts (a seat set to a bot afterwards starts at once if it is to move), and its title
and text stand in a notice above the board, which the page is scrolled to.
"""

from __future__ import annotations

import html
import json
from typing import Any, NamedTuple

import anywidget
import ipywidgets as w
import traitlets

from ...engine.errors import RecordError, ScenarioError
from ...records import GameRecord, Node
from ...scenarios import describe, scenario_of, scenario_text, shipped_scenario, shipped_scenarios
from ..board import ASSETS
from ..shared_layout import fixed_layout
from .panel import Panel, Settings
from .texts import TEXTS, text


class Notice(anywidget.AnyWidget):
    """A notice above the board (``widgets/notice.js``): a label, a title, a text and a line of advice. ``seq``
    counts the times it was put up to be read: the page scrolls to it then. Its close button clears it."""

    _esm = ASSETS / "notice.js"
    _css = ASSETS / "notice.css"
    label = traitlets.Unicode("").tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    body = traitlets.Unicode("").tag(sync=True)
    note = traitlets.Unicode("").tag(sync=True)
    close_label = traitlets.Unicode("Close").tag(sync=True)
    seq = traitlets.Int(0).tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.layout.display = "none"
        self.on_msg(lambda _w, content, _b: self.handle_message(content))

    def handle_message(self, msg: Any) -> bool:
        """``{"kind": "close"}`` from the close button: the notice is cleared. Anything else is refused (False)."""
        if not (isinstance(msg, dict) and msg.get("kind") == "close"):
            return False
        self.clear()
        return True

    def put_up(self, title: str, body: str, note: str = "", label: str = "", close_label: str = "Close",
               scroll: bool = True) -> None:
        """Show these texts; with ``scroll`` the page is brought to them (``seq`` counts up)."""
        self.layout.display = None
        with self.hold_sync():
            self.label, self.title, self.body, self.note, self.close_label = label, title, body, note, close_label
            if scroll:
                self.seq += 1

    def clear(self) -> None:
        """Nothing to read: the notice is hidden."""
        with self.hold_sync():
            self.label = self.title = self.body = self.note = ""
        self.layout.display = "none"


class ScenarioBody(NamedTuple):
    """The scenario panel's controls inside its accordion, made on first use (:attr:`ScenarioPanel.body`)."""

    help: w.HTML
    pick: w.Dropdown
    current: w.Button
    text: w.Textarea
    start: w.Button
    error: w.HTML


class ScenarioPanel(Panel):
    """The scenario panel, collapsed below the rules (``accordion``, the app's ``scenario_panel``), and the notice
    above the board (``note``, ``scenario_note``).

    The accordion's controls (``pick``, ``current``, ``text``, ``start``, ``error``) are made when it is first opened or
    a control is first asked for (a page opens with the panel collapsed: its widgets are not sent before the board).

    Emits ``start`` (``source=None``: the text area's) when its button is pressed; the coordinator starts the record and
    calls :meth:`started` (or :meth:`forget`)."""

    def __init__(self) -> None:
        super().__init__()
        self._filled = ""  # the text last filled in by the app (a teacher's edits are never overwritten)
        self._started: dict[str, Any] | None = None  # the scenario the record on the board started from
        self._start_state: Any = None  # that record's first position
        self._relabeling = False
        self._body: ScenarioBody | None = None
        self.note = Notice()
        self.note.add_class("ssl-scenario-note")
        self._holder = w.VBox(layout=fixed_layout(width="100%"))  # the controls go in here when made
        self.accordion = w.Accordion(children=[self._holder], layout=fixed_layout(width="100%"))
        self.accordion.selected_index = None
        self.accordion.add_class("ssl-scenario")
        self.accordion.observe(self._on_open, "selected_index")

    @property
    def body(self) -> ScenarioBody:
        """The accordion's controls, made on first use in the language last shown, the text area holding the position
        last shown."""
        return self._body if self._body is not None else self._make()

    def _make(self) -> ScenarioBody:
        if self._body is None:
            lay = w.Layout
            body = self._body = ScenarioBody(
                help=w.HTML(layout=lay(width="100%")),
                pick=w.Dropdown(options=[("—", "")], value="", layout=lay(width="auto", max_width="260px")),
                current=w.Button(layout=lay(width="auto")), text=w.Textarea(rows=14, layout=lay(width="100%")),
                start=w.Button(button_style="warning", layout=lay(width="auto")),
                error=w.HTML(layout=lay(width="100%")))
            for widget, cls in ((body.pick, "ssl-scenario-pick"), (body.current, "ssl-scenario-current"),
                                (body.text, "ssl-scenario-text"), (body.start, "ssl-scenario-start"),
                                (body.error, "ssl-scenario-error"), (body.error, "ssl-msg")):
                widget.add_class(cls)
            body.pick.observe(self._on_pick, "value")
            body.current.on_click(lambda _b: self.fill())
            body.start.on_click(lambda _b: self.emit("start", source=None))
            self._relabel_body(body, self.settings.lang)
            self._holder.children = (body.help, w.HBox([body.pick, body.current],
                                                       layout=lay(align_items="center", flex_flow="row wrap")),
                                     body.text, body.start, body.error)
            if self.node is not None:
                self.fill()
        return self._body

    @property
    def pick(self) -> w.Dropdown:
        """The picker of the shipped scenarios."""
        return self.body.pick

    @property
    def current(self) -> w.Button:
        """The "this position" button."""
        return self.body.current

    @property
    def text(self) -> w.Textarea:
        """The text area with the scenario's JSON."""
        return self.body.text

    @property
    def start(self) -> w.Button:
        """The button that starts the scenario."""
        return self.body.start

    @property
    def error(self) -> w.HTML:
        """The panel's message line (what is wrong, naming the field; or that the scenario started)."""
        return self.body.error

    @property
    def started_with(self) -> dict[str, Any] | None:
        """The scenario the record on the board started from (None: it did not start from one)."""
        return self._started

    def show(self, node: Node, settings: Settings) -> None:
        """Follow ``node`` (what "this position" fills in) and relabel when the language changed; the controls, once
        made, get the position the first time."""
        first = self.node is None
        super().show(node, settings)
        if first and self._body is not None:
            self.fill()

    def relabel(self, lang: str) -> None:
        """The panel's title, and once made its help, buttons and scenario list, in ``lang``."""
        self.accordion.set_title(0, TEXTS[lang]["scenario"])
        if self._body is not None:
            self._relabel_body(self._body, lang)
        self._show_note(scroll=False)

    def _relabel_body(self, body: ScenarioBody, lang: str) -> None:
        t = TEXTS[lang]
        body.help.value = f'<div class="ssl-none">{html.escape(t["scenario_help"])}</div>'
        body.current.description = t["scenario_current"]
        body.start.description = t["scenario_start"]
        options = [(t["scenario_pick"], "")]
        for name in shipped_scenarios():
            title = describe(shipped_scenario(name), lang)[0]
            options.append((f"{title} ({name})" if title else name, name))
        if list(body.pick.options) != options:
            value = body.pick.value
            self._relabeling = True  # new options select the first one: the value is put back, nothing filled
            try:
                body.pick.options = options
                body.pick.value = value
            finally:
                self._relabeling = False

    def _show_note(self, scroll: bool) -> None:
        """The notice above the board: the started scenario's title and text, filled in from its position, in the
        app's language (cleared when the record on the board did not start from a scenario). Without ``scroll``
        (a language switch) a notice the user closed stays closed."""
        data = self._started
        if data is None:
            self.note.clear()
            return
        if not scroll and not (self.note.title or self.note.body):
            return
        lang = self.settings.lang
        start = self._start_state
        title, body = describe(data, lang, start)
        if not title and not body:
            body = text(lang, "scenario_untitled", round=start.round)
        self.note.put_up(title, body, text(lang, "scenario_seats"), label=text(lang, "scenario_label"),
                         close_label=text(lang, "scenario_close"), scroll=scroll)

    def forget(self) -> None:
        """Another record is on the board (a new game, a loaded one): no scenario notice."""
        self._started = self._start_state = None
        self.note.clear()

    def _on_pick(self, change: dict[str, Any]) -> None:
        if change["new"] and not self._relabeling:
            self.fill(change["new"])

    def _on_open(self, change: dict[str, Any]) -> None:
        """Opened: the controls (made now the first time), the position on the board unless the text was changed by
        hand."""
        if change["new"] != 0:
            return
        if self._body is None:
            self._make()  # the controls, with the position on the board
        elif self.text.value == self._filled:
            self.fill()

    def say(self, message: str, error: bool = False, ok: bool = False) -> None:
        """A line on the panel's error line (``error``: red, ``ok``: green; empty: cleared)."""
        cls = "ssl-err" if error else "ssl-ok" if ok else ""
        self.error.value = f'<span class="{cls}">{html.escape(message)}</span>' if message else ""

    def fill(self, name: str | None = None, node: Node | None = None) -> bool:
        """Put a scenario's JSON in the text area: the shipped scenario ``name``, or (None) ``node``'s position
        (default: the node last shown).

        False (and the reason on the error line) for a position that cannot be a scenario."""
        lang = self.settings.lang
        if name:
            data = shipped_scenario(name)
        else:
            node = node or self.node
            if node is None:
                return False
            try:
                data = scenario_of(node.state)
            except ValueError as err:
                self.say(text(lang, "scenario_cannot", error=err), error=True)
                return False
        self._filled = self.text.value = scenario_text(data)
        self.say("")
        return True

    def read(self, source: str | dict[str, Any] | None = None) -> tuple[GameRecord, dict[str, Any]] | None:
        """The record a scenario starts and the scenario's data: ``source`` (JSON text or data), default the text
        area's. A wrong scenario: None, and the error line names the field."""
        lang = self.settings.lang
        raw = self.text.value if source is None else source
        try:
            data = json.loads(raw) if isinstance(raw, str) else raw
        except (ValueError, RecursionError) as err:
            self.say(text(lang, "scenario_error", error=text(lang, "scenario_json", error=err)), error=True)
            return None
        if not isinstance(data, dict):  # a text would be read as a file's path: the panel takes the JSON itself
            self.say(text(lang, "scenario_error", error=ScenarioError("", "must be a JSON object {...}")), error=True)
            return None
        try:
            record = GameRecord.from_scenario(data)
        except (RecordError, ValueError) as err:
            self.say(text(lang, "scenario_error", error=err), error=True)
            return None
        return record, data

    def started(self, data: dict[str, Any], start: Any) -> None:
        """The record on the board started from scenario ``data`` at position ``start``: say so and put its
        notice up above the board (the page scrolls to it)."""
        lang = self.settings.lang
        self._started, self._start_state = data, start
        title = describe(data, lang)[0]
        said = (text(lang, "scenario_started", title=f"“{title}”") if title else
                text(lang, "scenario_untitled", round=start.round))
        self.say(said, ok=True)
        self._show_note(scroll=True)
