"""Message templates in English and German, kept in data files (``data/messages/*.toml``).

A template names its arguments in braces. Argument names carry their type by convention:
``seat*`` a seat number, ``card*`` a card id, ``good*`` a good id, ``seats*`` / ``goods*`` lists of those;
anything else is printed as it is. A ``Namer`` (supplied by the game state) turns ids into names.
"""

from __future__ import annotations

import re
import tomllib
from functools import cache
from importlib import resources
from typing import Any, Protocol

LANGS = ("en", "de")
_AND = {"en": " and ", "de": " und "}
_NOBODY = {"en": "nobody", "de": "niemand"}


_PLURAL = re.compile(r"\{(\w+)\|([^|}]*)\|([^}]*)\}")


def _plurals(template: str, args: dict[str, Any]) -> str:
    """Resolve ``{n|one|many}`` by the value of ``n``."""

    def pick(m: re.Match[str]) -> str:
        value = args.get(m.group(1))
        return m.group(2) if value in (1, -1) else m.group(3)

    return _PLURAL.sub(pick, template)


class Namer(Protocol):
    """What turns the ids in a message's arguments into names: the game state that fills the message."""
    def seat_name(self, seat: int, lang: str) -> str:
        """The seat's name in ``lang``."""
        ...
    def card_name(self, card: str, lang: str) -> str:
        """A card's name in ``lang``, from its id."""
        ...
    def good_name(self, good: str, lang: str) -> str:
        """A good's name in ``lang``, from its id."""
        ...


def _join(items: list[str], lang: str) -> str:
    if not items:
        return _NOBODY[lang]
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + _AND[lang] + items[-1]


def format_args(args: dict[str, Any], lang: str, namer: Namer | None) -> dict[str, Any]:
    """A message's arguments ready for its template in ``lang``: seats, cards and goods named by ``namer``, lists joined
    with "and", words with a table translated."""
    out: dict[str, Any] = {}
    for key, value in args.items():
        if namer is None:
            out[key] = _join([str(v) for v in value], lang) if isinstance(value, list | tuple) else value
        elif key.startswith("seats"):
            out[key] = _join([namer.seat_name(s, lang) for s in value], lang)
        elif key.startswith("goods"):
            out[key] = _join([namer.good_name(g, lang) for g in value], lang)
        elif key.startswith("cards"):
            out[key] = _join([namer.card_name(c, lang) for c in value], lang)
        elif key.startswith("seat") and isinstance(value, int):
            out[key] = namer.seat_name(value, lang)
        elif key.startswith("card") and isinstance(value, str):
            out[key] = namer.card_name(value, lang)
        elif key.startswith("good") and isinstance(value, str):
            out[key] = namer.good_name(value, lang)
        elif key in _WORD_TABLES and isinstance(value, str) and messages.has(key, value):
            out[key] = messages.text(key, value, lang, {})
        else:
            out[key] = value
    return out


def fill_template(template: str, lang: str, args: dict[str, Any], namer: Namer | None = None) -> str:
    """``template`` (a text in ``lang`` with ``{name}`` and ``{n|one|many}`` placeholders) filled in from ``args``;
    KeyError, IndexError or ValueError for a placeholder it cannot fill."""
    return _plurals(template, args).format(**format_args(args, lang, namer))


# Arguments whose values are words with a translation table of the same name (e.g. [place.hall]).
_WORD_TABLES = frozenset({"place", "moved", "phase", "need"})


class Messages:
    """All templates of all games, merged: ``[event.KEY]``, ``[rule.KEY]``, ``[explain.KEY]`` tables."""

    def __init__(self) -> None:
        self._tables: dict[str, dict[str, dict[str, str]]] = {}

    def add(self, data: dict[str, Any]) -> None:
        """Merge message tables (``{section: {key: {"en": ..., "de": ...}}}``) into these; a key given again replaces
        the old texts."""
        for section, entries in data.items():
            table = self._tables.setdefault(section, {})
            for key, texts in entries.items():
                table[key] = texts

    def has(self, section: str, key: str) -> bool:
        """Whether ``section`` has a message ``key``."""
        return key in self._tables.get(section, {})

    def keys(self, section: str) -> list[str]:
        """The keys of ``section``, sorted (none for an unknown section)."""
        return sorted(self._tables.get(section, {}))

    def text(self, section: str, key: str, lang: str, args: dict[str, Any], namer: Namer | None = None) -> str:
        """Message ``key`` of ``section`` in ``lang``, filled in from ``args`` (ids named by ``namer``); KeyError for an
        unknown message."""
        if lang not in LANGS:
            raise ValueError(f"language must be one of {LANGS}, not {lang!r}")
        texts = self._tables.get(section, {}).get(key)
        if texts is None:
            raise KeyError(f"no {section} message {key!r}")
        return fill_template(texts[lang], lang, args, namer)

    def rule_text(self, rule: str, lang: str, params: dict[str, Any], namer: Namer | None = None) -> str | None:
        """The text of a refusal's rule in ``lang``, or None when the rule has no message (the caller keeps its own
        text)."""
        if not self.has("rule", rule):
            return None
        return self.text("rule", rule, lang, params, namer)


messages = Messages()


@cache
def load_messages(name: str) -> None:
    """Load ``data/messages/NAME.toml`` into the shared table (once)."""
    ref = resources.files("speicherstadt_lab.data").joinpath("messages", f"{name}.toml")
    messages.add(tomllib.loads(ref.read_text(encoding="utf-8")))
