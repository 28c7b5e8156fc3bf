"""The rules panel: the rules of the game on the board (its variant's sections, the current phase's first, marked
"now") and what each card kind in play does, in the app's language; opened from the top bar's "Rules" toggle."""

from __future__ import annotations

import html

import ipywidgets as w
from ipywidgets.widgets.widget_bool import ToggleButtonStyle
from ipywidgets.widgets.widget_string import HTMLStyle

from ...engine.protocol import get_game
from ...records import Node
from ..rules import rule_sections, rules_data, variant_keys, variant_title
from ..shared_layout import fixed_layout, fixed_style
from .panel import Panel, Settings


class RulesPanel(Panel):
    """The rules panel (``accordion``, the app's ``rules``) and its top-bar toggle (``button``, ``rules_button``).

    Emits ``opened`` when the toggle opens it (the lab page is then the one to show)."""

    def __init__(self) -> None:
        super().__init__()
        self._shown: tuple[object, ...] | None = None
        # the panel's own layout (shown and hidden); the rest shared and frozen
        self.accordion = w.Accordion(children=[w.HTML(layout=fixed_layout(), style=fixed_style(HTMLStyle))],
                                     layout=w.Layout(width="100%", display="none"))
        self.accordion.selected_index = None
        self.accordion.add_class("ssl-rules-panel")
        self.button = w.ToggleButton(value=False, icon="book", layout=fixed_layout(width="auto"),
                                     style=fixed_style(ToggleButtonStyle))
        self.button.add_class("ssl-rules-btn")
        self.button.observe(lambda _c: self._on_button(), "value")
        self.accordion.observe(lambda _c: self._on_collapsed(), "selected_index")

    def show(self, node: Node, settings: Settings) -> None:
        """Fill the panel for ``node``'s position (its game, variant and phase) in the settings' language."""
        super().show(node, settings)
        self._draw()

    def _draw(self) -> None:
        """Draw the rules of the node last shown (redrawn only when its game, variant, phase or language change)."""
        if self.node is None:
            return
        lang = self.settings.lang
        data = rules_data()
        st = self.node.state
        key = (lang, st.game, tuple(variant_keys(st)), str(st.phase))
        if self._shown == key:
            return  # the same game, variant, phase and language: the panel is right
        self._shown = key
        now = html.escape(data["now"][lang])
        parts = []
        for s in rule_sections(st, lang):
            mark = f' <span class="ssl-rules-now">{now}</span>' if s["now"] else ""
            cls = "ssl-rule ssl-rule-now" if s["now"] else "ssl-rule"
            parts.append(f'<li class="{cls}" data-key="{html.escape(s["key"])}"><b>{html.escape(s["title"])}.</b>'
                         f'{mark} {html.escape(s["text"])}</li>')
        cards = ""
        kinds = get_game(st.game).capability("card_kinds")  # what each kind of card does, if the game says
        if kinds is not None:
            items = "".join(f"<li><b>{html.escape(k['kind_name'])}</b> ({html.escape(k['name'])}): "
                            f"{html.escape(k['text'])}</li>" for k in kinds(st, lang))
            cards = f"<h4>{html.escape(data['cards_title'][lang])}</h4><ul>{items}</ul>"
        body = (f'<div class="ssl-rules" data-game="{html.escape(st.game)}" data-phase="{html.escape(str(st.phase))}">'
                f'<ol class="ssl-rules-list">{"".join(parts)}</ol>{cards}</div>')
        if self.accordion.children[0].value != body:
            self.accordion.children[0].value = body
        self.accordion.set_title(0, data["title"][lang].format(game=variant_title(st)))
        self.button.description = data["button"][lang]
        self.button.tooltip = data["button_tip"][lang]

    def _on_button(self) -> None:
        """The top bar's toggle: show the rules panel (open, scrolled into view) or hide it."""
        shown = bool(self.button.value)
        self.accordion.layout.display = "" if shown else "none"
        self.accordion.selected_index = 0 if shown else None
        if shown:
            self.emit("opened")  # the rules are the lab page's: the coordinator shows it
            self._draw()

    def _on_collapsed(self) -> None:
        """The panel's own header closed it: the top bar's toggle follows."""
        if self.accordion.selected_index is None and self.button.value:
            self.button.value = False
