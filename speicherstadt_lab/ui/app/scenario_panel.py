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
from typing import Any

import anywidget
import ipywidgets as w
import traitlets

from ...engine.errors import RecordError, ScenarioError
from ...records import GameRecord, Node
from ...scenarios import describe, scenario_of, scenario_text, shipped_scenario, shipped_scenarios
from ..board import ASSETS
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


class ScenarioPanel(Panel):
    """The scenario panel, collapsed below the rules (``accordion``, the app's ``scenario_panel``), and the notice
    above the board (``note``, ``scenario_note``).

    Emits ``start`` (``source=None``: the text area's) when its button is pressed; the coordinator starts the record and
    calls :meth:`started` (or :meth:`forget`)."""

    def __init__(self) -> None:
        super().__init__()
        lay = w.Layout
        self._filled = ""  # the text last filled in by the app (a teacher's edits are never overwritten)
        self._started: dict[str, Any] | None = None  # the scenario the record on the board started from
        self._start_state: Any = None  # that record's first position
        self._relabeling = False
        self.note = Notice()
        self.note.add_class("ssl-scenario-note")
        self.pick = w.Dropdown(options=[("—", "")], value="", layout=lay(width="auto", max_width="260px"))
        self.current = w.Button(layout=lay(width="auto"))
        self.text = w.Textarea(rows=14, layout=lay(width="100%"))
        self.start = w.Button(button_style="warning", layout=lay(width="auto"))
        self.error = w.HTML(layout=lay(width="100%"))
        self._help = w.HTML(layout=lay(width="100%"))
        for widget, cls in ((self.pick, "ssl-scenario-pick"), (self.current, "ssl-scenario-current"),
                            (self.text, "ssl-scenario-text"), (self.start, "ssl-scenario-start"),
                            (self.error, "ssl-scenario-error"), (self.error, "ssl-msg")):
            widget.add_class(cls)
        self.pick.observe(self._on_pick, "value")
        self.current.on_click(lambda _b: self.fill())
        self.start.on_click(lambda _b: self.emit("start", source=None))
        body = w.VBox([self._help, w.HBox([self.pick, self.current],
                                          layout=lay(align_items="center", flex_flow="row wrap")),
                       self.text, self.start, self.error], layout=lay(width="100%"))
        self.accordion = w.Accordion(children=[body], layout=lay(width="100%"))
        self.accordion.selected_index = None
        self.accordion.add_class("ssl-scenario")
        self.accordion.observe(self._on_open, "selected_index")

    @property
    def started_with(self) -> dict[str, Any] | None:
        """The scenario the record on the board started from (None: it did not start from one)."""
        return self._started

    def show(self, node: Node, settings: Settings) -> None:
        """Follow ``node`` (what "this position" fills in) and relabel when the language changed; the first time,
        the text area gets the position."""
        first = self.node is None
        super().show(node, settings)
        if first:
            self.fill()

    def relabel(self, lang: str) -> None:
        """The panel's title, help, buttons and scenario list in ``lang``."""
        t = TEXTS[lang]
        self.accordion.set_title(0, t["scenario"])
        self._help.value = f'<div class="ssl-none">{html.escape(t["scenario_help"])}</div>'
        self.current.description = t["scenario_current"]
        self.start.description = t["scenario_start"]
        options = [(t["scenario_pick"], "")]
        for name in shipped_scenarios():
            title = describe(shipped_scenario(name), lang)[0]
            options.append((f"{title} ({name})" if title else name, name))
        if list(self.pick.options) != options:
            value = self.pick.value
            self._relabeling = True  # new options select the first one: the value is put back, nothing filled
            try:
                self.pick.options = options
                self.pick.value = value
            finally:
                self._relabeling = False
        self._show_note(scroll=False)

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
        """Opened: show the position on the board, unless the text was changed by hand."""
        if change["new"] == 0 and self.text.value == self._filled:
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
