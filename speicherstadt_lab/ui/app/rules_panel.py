"""The rules panel: the phases and what each card kind does, in the app's language."""

from __future__ import annotations

import html
import tomllib
from importlib import resources
from typing import Any

from ...engine.protocol import get_game


class RulesPanel:
    """A part of :class:`~.lab.LabApp` (a mixin): the rules panel."""

    # ---- rules panel ----------------------------------------------------------------------------------

    def _show_rules(self) -> None:
        lang = self.lang_code
        data = _rules_data()
        st = self.record.initial
        phases = "".join(f"<li>{p[lang]}</li>" for p in data["phase"])
        cards = ""
        kinds = get_game(st.game).capability("card_kinds")  # what each kind of card does, if the game says
        if kinds is not None:
            items = "".join(f"<li><b>{html.escape(k['kind_name'])}</b> ({html.escape(k['name'])}): "
                            f"{html.escape(k['text'])}</li>" for k in kinds(st, lang))
            cards = f"<h4>{html.escape(data['cards_title'][lang])}</h4><ul>{items}</ul>"
        self.rules.children[0].value = (f'<div class="ssl-rules" style="font-size:13px">'
                                        f"<h4>{html.escape(data['phases_title'][lang])}</h4><ol>{phases}</ol>{cards}"
                                        "</div>")
        self.rules.set_title(0, data["title"][lang])


_RULES: dict[str, Any] = {}


def _rules_data() -> dict[str, Any]:
    """The rules panel's texts (``data/messages/rules_panel.toml``), read once."""
    if not _RULES:
        path = resources.files("speicherstadt_lab") / "data" / "messages" / "rules_panel.toml"
        _RULES.update(tomllib.loads(path.read_text(encoding="utf-8")))
    return _RULES
