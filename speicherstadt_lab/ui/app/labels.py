"""Language: the top bar's EN/DE switch and the texts of the coordinator's own controls, each registered once."""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as w

from ...engine.i18n import LANGS
from ..shared_layout import fixed_layout
from .texts import TEXTS


def check_lang(lang: str) -> str:
    """``lang`` if it is a language of the app ("en" or "de"); else a ValueError naming the field."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, not {lang!r}")
    return lang


class Labels:
    """The language switch and the coordinator's own texts, a part of the coordinator: each control is registered once
    with the text key it shows (:meth:`add`), and :meth:`relabel` puts the switch's language on every one of them.

    It holds the switch and the registered widgets only; what else follows the language is the coordinator's."""

    def __init__(self, lang: str) -> None:
        self.switch = w.ToggleButtons(options=[("EN", "en"), ("DE", "de")], value=check_lang(lang),
                                      style={"button_width": "46px"}, layout=fixed_layout(width="auto"))
        self._texts: list[tuple[Any, str, str, bool]] = []

    @property
    def code(self) -> str:
        """The language chosen, "en" or "de"."""
        return str(self.switch.value)

    def set(self, lang: str) -> None:
        """Choose ``lang`` ("en" or "de"; a ValueError otherwise): the switch's observers do the rest."""
        self.switch.value = check_lang(lang)

    def add(self, widget: Any, trait: str, key: str, escape: bool = False) -> Any:
        """Register ``widget``'s ``trait`` as showing the text ``key`` (HTML-escaped if ``escape``); the widget."""
        self._texts.append((widget, trait, key, escape))
        return widget

    def relabel(self) -> None:
        """Put the texts of the language chosen on every registered control."""
        t = TEXTS[self.code]
        for widget, trait, key, escape in self._texts:
            setattr(widget, trait, html.escape(t[key]) if escape else t[key])
