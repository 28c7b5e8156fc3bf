"""The rules panel: the rules of the game on the board (its variant's sections, the current phase's first, marked
"now") and what each card kind in play does, in the app's language; opened from the top bar's "Rules" toggle."""

from __future__ import annotations

import html

from ...engine.protocol import get_game
from ..rules import rule_sections, rules_data, variant_keys, variant_title


class RulesPanel:
    """A part of :class:`~.lab.LabApp` (a mixin): the rules panel and its top-bar toggle."""

    # ---- rules panel ----------------------------------------------------------------------------------

    def _show_rules(self) -> None:
        """Fill the rules panel for the position on the board (its game, variant and phase) in the app's language."""
        lang = self.lang_code
        data = rules_data()
        st = self.node.state
        key = (lang, st.game, tuple(variant_keys(st)), st.phase)
        if getattr(self, "_rules_shown", None) == key:
            return  # the same game, variant, phase and language: the panel is right
        self._rules_shown = key
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
        if self.rules.children[0].value != body:
            self.rules.children[0].value = body
        self.rules.set_title(0, data["title"][lang].format(game=variant_title(st)))
        self.rules_button.description = data["button"][lang]
        self.rules_button.tooltip = data["button_tip"][lang]

    def _on_rules_button(self) -> None:
        """The top bar's toggle: show the rules panel (open, scrolled into view) or hide it."""
        shown = bool(self.rules_button.value)
        self.rules.layout.display = "" if shown else "none"
        self.rules.selected_index = 0 if shown else None
        if shown:
            self.tutorial_button.value = False  # the rules are the lab page's
            self._show_rules()

    def _on_rules_collapsed(self) -> None:
        """The panel's own header closed it: the top bar's toggle follows."""
        if self.rules.selected_index is None and self.rules_button.value:
            self.rules_button.value = False
