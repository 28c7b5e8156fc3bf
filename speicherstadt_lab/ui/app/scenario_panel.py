"""The scenario panel: start a game from a described situation, without code (``speicherstadt_lab.scenarios``).

A picker of the shipped scenarios and a "this position" button fill a text area with a scenario's JSON; a
teacher changes numbers and ids and starts a new record whose root is that scenario. A wrong scenario changes
nothing: the panel's error line names the field at fault.
"""

from __future__ import annotations

import html
import json
from typing import Any

import ipywidgets as w

from ...engine.errors import RecordError, ScenarioError
from ...records import GameRecord
from ...scenarios import describe, scenario_of, scenario_text, shipped_scenario, shipped_scenarios
from .texts import TEXTS, text


class ScenarioPanel:
    """A part of :class:`~.lab.LabApp` (a mixin): the scenario panel, collapsed below the rules."""

    def _scenario_panel(self) -> w.Widget:
        """The panel's widgets (attributes ``scenario_*``), wired; relabelled when the language changes."""
        lay = w.Layout
        self._scenario_filled = ""  # the text last filled in by the app (a teacher's edits are never overwritten)
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
        """Start a new record from a scenario: ``source`` (JSON text or data), default the text area's. A wrong
        scenario changes nothing: the error line names the field, and the result is False."""
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
        self._use_record(record, record.root)
        title = describe(data, lang)[0]
        self._scenario_say(text(lang, "scenario_started", title=f"“{title}”" if title else ""), ok=True)
        self._say("")
        self._maybe_autoplay()
        return True
