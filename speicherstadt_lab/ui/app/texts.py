"""The app's texts in English and German, kept in ``data/messages/app.toml`` (``[app.KEY]``)."""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

from ...engine.i18n import LANGS


def load_texts(name: str) -> dict[str, dict[str, str]]:
    """``data/messages/NAME.toml``'s ``[NAME.KEY]`` texts as ``{lang: {key: text}}`` (a panel's own texts)."""
    ref = resources.files("speicherstadt_lab.data").joinpath("messages", f"{name}.toml")
    table = tomllib.loads(ref.read_text(encoding="utf-8"))[name]
    return {lang: {key: texts[lang] for key, texts in table.items()} for lang in LANGS}


#: ``TEXTS[lang][key]``: every text of the app (labels, messages, job names), per language.
TEXTS: dict[str, dict[str, str]] = load_texts("app")


def text(lang: str, key: str, **args: Any) -> str:
    """An app text in ``lang``, filled in."""
    return TEXTS[lang][key].format(**args)
