"""The scenario panel: start a game from a described situation, without code (``speicherstadt_lab.scenarios``).

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
from ...records import GameRecord
from ...scenarios import describe, scenario_of, scenario_text, shipped_scenario, shipped_scenarios
from ..board import ASSETS
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


class ScenarioPanel:
    """A part of :class:`~.lab.LabApp` (a mixin): the scenario panel, collapsed below the rules."""

    def _scenario_panel(self) -> w.Widget:
        """The panel's widgets (attributes ``scenario_*``), wired; relabelled when the language changes."""
        lay = w.Layout
        self._scenario_filled = ""  # the text last filled in by the app (a teacher's edits are never overwritten)
        self._scenario_started: dict[str, Any] | None = None  # the scenario the record on the board started from
        self.scenario_note = Notice()
        self.scenario_note.add_class("ssl-scenario-note")
        self.scenario_pick = w.Dropdown(options=[("—", "")], value="", layout=lay(width="auto", max_width="260px"))
        self.scenario_current = w.Button(layout=lay(width="auto"))
        self.scenario_text = w.Textarea(rows=14, layout=lay(width="100%"))
        self.scenario_start = w.Button(button_style="warning", layout=lay(width="auto"))
        self.scenario_error = w.HTML(layout=lay(width="100%"))
        self._scenario_help = w.HTML(layout=lay(width="100%"))
        for widget, cls in ((self.scenario_pick, "ssl-scenario-pick"), (self.scenario_current, "ssl-scenario-current"),
                            (self.scenario_text, "ssl-scenario-text"), (self.scenario_start, "ssl-scenario-start"),
                            (self.scenario_error, "ssl-scenario-error"), (self.scenario_error, "ssl-msg")):
            widget.add_class(cls)
        self.scenario_pick.observe(self._on_scenario_pick, "value")
        self.scenario_current.on_click(lambda _b: self.fill_scenario())
        self.scenario_start.on_click(lambda _b: self.start_scenario())
        body = w.VBox([self._scenario_help, w.HBox([self.scenario_pick, self.scenario_current],
                                                   layout=lay(align_items="center", flex_flow="row wrap")),
                       self.scenario_text, self.scenario_start, self.scenario_error], layout=lay(width="100%"))
        self.scenario_panel = w.Accordion(children=[body], layout=lay(width="100%"))
        self.scenario_panel.selected_index = None
        self.scenario_panel.add_class("ssl-scenario")
        self.scenario_panel.observe(self._on_scenario_open, "selected_index")
        self.lang.observe(lambda _c: self._relabel_scenario(), "value")
        self._relabel_scenario()
        self.fill_scenario()
        return self.scenario_panel

    def _relabel_scenario(self) -> None:
        lang = self.lang_code
        t = TEXTS[lang]
        self.scenario_panel.set_title(0, t["scenario"])
        self._scenario_help.value = f'<div class="ssl-none">{html.escape(t["scenario_help"])}</div>'
        self.scenario_current.description = t["scenario_current"]
        self.scenario_start.description = t["scenario_start"]
        options = [(t["scenario_pick"], "")]
        for name in shipped_scenarios():
            title = describe(shipped_scenario(name), lang)[0]
            options.append((f"{title} ({name})" if title else name, name))
        self._swap_options(self.scenario_pick, options)
        self._show_scenario_note(scroll=False)

    def _show_scenario_note(self, scroll: bool) -> None:
        """The notice above the board: the started scenario's title and text, filled in from its position, in the
        app's language (cleared when the record on the board did not start from a scenario). Without ``scroll``
        (a language switch) a notice the user closed stays closed."""
        data = self._scenario_started
        if data is None:
            self.scenario_note.clear()
            return
        if not scroll and not (self.scenario_note.title or self.scenario_note.body):
            return
        lang = self.lang_code
        start = self.record.initial
        title, body = describe(data, lang, start)
        if not title and not body:
            body = text(lang, "scenario_untitled", round=start.round)
        self.scenario_note.put_up(title, body, text(lang, "scenario_seats"), label=text(lang, "scenario_label"),
                                  close_label=text(lang, "scenario_close"), scroll=scroll)

    def _forget_scenario(self) -> None:
        """Another record is on the board (a new game, a loaded one): no scenario notice."""
        if hasattr(self, "scenario_note"):
            self._scenario_started = None
            self.scenario_note.clear()

    def _on_scenario_pick(self, change: dict[str, Any]) -> None:
        if change["new"] and not self._relabeling:
            self.fill_scenario(change["new"])

    def _on_scenario_open(self, change: dict[str, Any]) -> None:
        """Opened: show the position on the board, unless the text was changed by hand."""
        if change["new"] == 0 and self.scenario_text.value == self._scenario_filled:
            self.fill_scenario()

    def _scenario_say(self, message: str, error: bool = False, ok: bool = False) -> None:
        cls = "ssl-err" if error else "ssl-ok" if ok else ""
        self.scenario_error.value = f'<span class="{cls}">{html.escape(message)}</span>' if message else ""

    def fill_scenario(self, name: str | None = None) -> bool:
        """Put a scenario's JSON in the text area: the shipped scenario ``name``, or (None) the position on the
        board. False (and the reason on the error line) for a position that cannot be a scenario."""
        lang = self.lang_code
        if name:
            data = shipped_scenario(name)
        else:
            try:
                data = scenario_of(self.node.state)
            except ValueError as err:
                self._scenario_say(text(lang, "scenario_cannot", error=err), error=True)
                return False
        self._scenario_filled = self.scenario_text.value = scenario_text(data)
        self._scenario_say("")
        return True

    def start_scenario(self, source: str | dict[str, Any] | None = None) -> bool:
        """Start a new record from a scenario: ``source`` (JSON text or data), default the text area's. Every seat
        becomes human (nothing moves before the user does), and the scenario's title and text stand above the
        board. A wrong scenario changes nothing: the error line names the field, and the result is False."""
        if self._refuse_if_busy():
            return False
        lang = self.lang_code
        raw = self.scenario_text.value if source is None else source
        try:
            data = json.loads(raw) if isinstance(raw, str) else raw
        except (ValueError, RecursionError) as err:
            self._scenario_say(text(lang, "scenario_error", error=text(lang, "scenario_json", error=err)), error=True)
            return False
        if not isinstance(data, dict):  # a text would be read as a file's path: the panel takes the JSON itself
            self._scenario_say(text(lang, "scenario_error", error=ScenarioError("", "must be a JSON object {...}")),
                               error=True)
            return False
        try:
            record = GameRecord.from_scenario(data)
        except (RecordError, ValueError) as err:
            self._scenario_say(text(lang, "scenario_error", error=err), error=True)
            return False
        for seat in range(record.initial.n_players):  # the position stays as described until the user acts
            self.set_seat(seat, "human")
        self._use_record(record, record.root)
        self._scenario_started = data
        title = describe(data, lang)[0]
        said = (text(lang, "scenario_started", title=f"“{title}”") if title else
                text(lang, "scenario_untitled", round=record.initial.round))
        self._scenario_say(said, ok=True)
        self._say("")
        self._show_scenario_note(scroll=True)
        return True
