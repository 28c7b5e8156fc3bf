"""What the games' scenarios share (``docs/record-format.md``, *Scenarios*): the format's name, the fields every
scenario has (format, game, title and text, catalogue, players, seed, names), and the checks a game's builder makes
of one value at a time.

A game's scenario module subclasses :class:`ScenarioReader` with its own fields and builds the position; every
check here raises :class:`ScenarioError` naming the field as the scenario writes it (``seats[1].hand[0]``), so a
wrong scenario builds nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .errors import CatalogError, ScenarioError, shown
from .protocol import get_game, scenario_data

__all__ = ["COMMON_FIELDS", "SCENARIO_FORMAT", "ScenarioReader", "in_order", "is_count", "named_first",
           "scenario_data"]

SCENARIO_FORMAT = "speicherstadt-lab/scenario/1"
#: The fields every game's scenario has; a game adds its own.
COMMON_FIELDS = ("format", "game", "title", "text", "catalog", "players", "seed", "names")
LANGS = ("en", "de")


def is_count(value: Any) -> bool:
    """A whole number that is no bool (JSON's true counts nothing)."""
    return isinstance(value, int) and not isinstance(value, bool)


class ScenarioReader:
    """A scenario's data read field by field for one game.

    Made with the game's name, its own top-level fields and its catalogue loader, it checks the common fields at once
    and keeps ``data``, ``cat`` (the catalogue), ``n`` (the player count), ``seed`` (the scenario's, else the caller's)
    and ``names``; its methods check one value."""

    def __init__(self, data: Any, *, game: str, fields: Sequence[str], seed: int | str,
                 load_catalog: Callable[[Any], Any]) -> None:
        if not isinstance(data, dict):
            raise ScenarioError("", f"must be an object (JSON), not {shown(data)}")
        info = get_game(game)
        known = (*COMMON_FIELDS, *fields)
        for key in data:
            if key not in known:
                raise ScenarioError(str(key), f"unknown field; a scenario of {info.title} has {', '.join(known)}")
        self.data = data
        if data.get("format") != SCENARIO_FORMAT:
            raise ScenarioError("format", f"must be {SCENARIO_FORMAT!r}, not {shown(data.get('format'))}")
        if data.get("game") != game:
            raise ScenarioError("game", f"this is a scenario of {info.title} ({game!r}), not {shown(data.get('game'))}")
        for key in ("title", "text"):
            self._for_people(key, data.get(key))
        raw = data.get("catalog")
        if raw is not None and not isinstance(raw, dict):  # a scenario never names a file to read
            raise ScenarioError("catalog", "must be null (the default catalogue) or the catalogue's data (an object)")
        try:
            self.cat = load_catalog(raw)
        except (CatalogError, ValueError) as e:
            raise ScenarioError("catalog", str(e)) from None
        self.n = self.number("players", data.get("players"), low=info.min_players, high=info.max_players)
        own = data.get("seed")
        if own is not None and (isinstance(own, bool) or not isinstance(own, int | str)):
            raise ScenarioError("seed", f"must be a whole number or a text, not {shown(own)}")
        self.seed = seed if own is None else own
        names = data.get("names")
        if names is not None and not (isinstance(names, list) and len(names) == self.n
                                      and all(isinstance(x, str) and x for x in names)):
            raise ScenarioError("names", f"must be null or {self.n} non-empty texts, one per seat")
        self.names: tuple[str, ...] | None = tuple(names) if names else None

    @staticmethod
    def _for_people(key: str, value: Any) -> None:
        """``title`` and ``text``: null or ``{"en": text, "de": text}`` (either language may be left out)."""
        if value is None:
            return
        if not isinstance(value, dict) or any(k not in LANGS or not isinstance(v, str) for k, v in value.items()):
            raise ScenarioError(key, 'must be null or {"en": text, "de": text}')

    # ---- one value ----------------------------------------------------------------------------------------

    @staticmethod
    def number(field: str, value: Any, low: int | None = None, high: int | None = None) -> int:
        """``value`` as a whole number within ``low``..``high`` (either may be open)."""
        if not is_count(value):
            raise ScenarioError(field, f"must be a whole number, not {shown(value)}")
        if low is not None and high is not None and not low <= value <= high:
            raise ScenarioError(field, f"must be {low} to {high}, not {value}")
        if low is not None and value < low:
            raise ScenarioError(field, f"must be {low} or more, not {value}")
        return int(value)

    def seat(self, field: str, value: Any) -> int:
        """``value`` as a seat of this game (0 to players - 1)."""
        if not is_count(value) or not 0 <= value < self.n:
            raise ScenarioError(field, f"must be a seat 0..{self.n - 1}, not {shown(value)}")
        return int(value)

    def card_of(self, field: str, value: Any) -> Any:
        """The catalogue's card that ``value`` names (its id)."""
        if not isinstance(value, str):
            raise ScenarioError(field, f"must be a card id (text), not {shown(value)}")
        card = self.cat.by_id.get(value)
        if card is None:
            raise ScenarioError(field, f"unknown card id {value!r}")
        return card

    @staticmethod
    def entries(field: str, value: Any) -> list[Any]:
        """``value`` as a list (null or left out: empty)."""
        if value is None:
            return []
        if not isinstance(value, list):
            raise ScenarioError(field, f"must be a list, not {shown(value)}")
        return value

    @staticmethod
    def one_of(field: str, value: Any, options: Sequence[str]) -> str:
        """``value``, which must be one of ``options``."""
        if not isinstance(value, str) or value not in options:
            raise ScenarioError(field, f"must be one of {', '.join(options)}, not {shown(value)}")
        return value

    @staticmethod
    def section(field: str, value: Any, keys: Sequence[str]) -> dict[str, Any]:
        """``value`` as an object whose keys are among ``keys`` (null or left out: empty)."""
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise ScenarioError(field, f"must be an object, not {shown(value)}")
        for key in value:
            if key not in keys:
                raise ScenarioError(f"{field}.{key}", f"unknown field; '{field}' has {', '.join(keys)}")
        return value


def named_first(named: Sequence[Any], order: Sequence[Any]) -> list[Any]:
    """``named`` followed by the items of ``order`` that ``named`` does not take (a multiset: each named item takes one
    copy, the first left): how a scenario's "next" cards come before the rest of a seeded order."""
    skip: dict[Any, int] = {}
    for x in named:
        skip[x] = skip.get(x, 0) + 1
    rest = []
    for x in order:
        if skip.get(x, 0):
            skip[x] -= 1
        else:
            rest.append(x)
    return [*named, *rest]


def in_order(order: Sequence[Any], counts: dict[Any, int]) -> list[Any]:
    """The items of ``order`` that ``counts`` holds, each at most as often as it says, in ``order``'s order: a seeded
    order cut down to what a scenario leaves open."""
    left = dict(counts)
    out = []
    for x in order:
        if left.get(x, 0) > 0:
            left[x] -= 1
            out.append(x)
    return out
