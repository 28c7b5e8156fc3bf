"""Reading the lab's data files (card catalogues) and the serialization every game state shares."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from .errors import CatalogError, ScenarioError


def is_key(value: Any, table: Any) -> bool:
    """``value`` is a text found in ``table`` (a set or dict of ids). A list or object from a file is no key:
    ``value in table`` would raise TypeError for it instead of letting the caller name the field."""
    return isinstance(value, str) and value in table


def read_catalog_file(path: str | Path) -> dict[str, Any]:
    """A user's catalogue file (TOML, or JSON by its suffix) as data; CatalogError says what is wrong."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise CatalogError(f"catalog file {str(p)!r} cannot be read: {e.strerror or e}") from None
    try:
        data = json.loads(text) if p.suffix.lower() == ".json" else tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as e:
        kind = "JSON" if p.suffix.lower() == ".json" else "TOML"
        raise CatalogError(f"catalog file {str(p)!r} is not valid {kind}: {e}") from None
    if not isinstance(data, dict):
        raise CatalogError(f"catalog file {str(p)!r}: the top level must be a table/object")
    return data


def read_scenario_file(path: str | Path) -> Any:
    """A scenario file's data, read with ``json`` only (no code is ever run); ScenarioError if it cannot be read
    or is not JSON. Checking the content is the game's part (``new_game(game, scenario=...)``)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ScenarioError("", f"file {str(p)!r} cannot be read: {getattr(e, 'strerror', None) or e}") from None
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as e:
        raise ScenarioError("", f"file {str(p)!r} is not valid JSON: {e}") from None


class JsonState:
    """``to_json``, equality and hashing from a game state's ``to_dict`` (the lossless form)."""

    __slots__ = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data that ``load_state`` turns back into an equal state (the game's lossless form)."""
        raise NotImplementedError

    def to_json(self) -> str:
        """``to_dict`` as compact JSON text: what equality, hashing and files use."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

    def __eq__(self, other: object) -> bool:
        # to_dict names the game, so states of different games never compare equal
        return isinstance(other, JsonState) and self.to_dict() == other.to_dict()

    def __hash__(self) -> int:
        return hash(self.to_json())
