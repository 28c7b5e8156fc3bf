"""The app's texts in English and German, kept in ``data/messages/app.toml`` (``[app.KEY]``)."""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

from ...engine.i18n import LANGS


def _load() -> dict[str, dict[str, str]]:
    ref = resources.files("speicherstadt_lab.data").joinpath("messages", "app.toml")
    table = tomllib.loads(ref.read_text(encoding="utf-8"))["app"]
    return {lang: {key: texts[lang] for key, texts in table.items()} for lang in LANGS}


#: ``TEXTS[lang][key]``: every text of the app (labels, messages, job names), per language.
TEXTS: dict[str, dict[str, str]] = _load()


def text(lang: str, key: str, **args: Any) -> str:
    """An app text in ``lang``, filled in."""
    return TEXTS[lang][key].format(**args)
