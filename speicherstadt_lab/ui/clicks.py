"""Board clicks of Die Speicherstadt (with Kaispeicher): a browser message checked for its shape and turned
into notation, or refused with a :class:`ClickError` naming the field. The rules judge the action after.
"""

from __future__ import annotations

import math
from typing import Any

from ..engine.i18n import load_messages, messages

load_messages("speicherstadt_cards")  # the [click.*] refusal texts

MAX_INT = 99  # no click field is ever larger: bigger numbers are refused before the rules see them
CLICK_FIELDS: dict[str, tuple[str, ...]] = {
    "place": ("space",),
    "buy": (),
    "pass": (),
    "contract": ("good", "index"),
    "sell": ("good",),
    "store": ("good",),
    "keep": ("good",),
    "take": ("good", "source"),
    "convert": ("goods", "to"),
    "hallsell": ("goods",),
    "done": (),
    # Kaispeicher
    "reserve": ("space",),
    "break": (),
    "stop": (),
    "spy": ("space", "level", "space_other", "level_other"),
    "double": (),
    "insure": (),
    "buyfree": (),
    "deliver": ("good",),
    "auction": ("good",),
    "smuggle": ("seat", "index", "good"),
    "truck": ("good", "from", "to"),
}
KINDS = tuple(CLICK_FIELDS)


# ---- clicks --------------------------------------------------------------------------------------


class ClickError(ValueError):
    """A browser message the board refuses before the rules see it; ``text(lang)`` explains it (from the
    message table ``TABLE``: each board has its own)."""

    TABLE = "click"

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(self.text("en"))

    def text(self, lang: str = "en", namer: Any = None) -> str:
        return messages.text(self.TABLE, self.key, lang, self.params, namer)


def show_value(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def click_kind(msg: Any, fields_by_kind: dict[str, tuple[str, ...]], error: Any) -> str:
    """The ``kind`` of a click message whose fields are exactly those of its kind, or ``error(key, ...)``
    naming what is wrong (not an object, an unknown kind, a missing or an unexpected field). Every game's
    board checks its clicks' shape with this, each with its own table and error texts."""
    if not isinstance(msg, dict):
        raise error("not_object", got=show_value(msg))
    kind = msg.get("kind")
    if not isinstance(kind, str) or kind not in fields_by_kind:
        raise error("kind", got=show_value(kind), kinds=", ".join(fields_by_kind))
    fields = fields_by_kind[kind]
    for f in fields:
        if f not in msg:
            raise error("missing", kind=kind, field=f)
    for f in msg:
        if f != "kind" and f not in fields:
            raise error("extra", kind=kind, field=f if isinstance(f, str) else show_value(f))
    return kind


def _int(msg: dict[str, Any], field: str) -> int:
    v = msg[field]
    if isinstance(v, bool) or not isinstance(v, int | float) or (isinstance(v, float) and (
            not math.isfinite(v) or not v.is_integer())) or not 0 <= v <= MAX_INT:
        raise ClickError("int", field=field, top=MAX_INT, got=show_value(v))
    return int(v)


def _good(state: Any, msg: dict[str, Any], field: str, value: Any = None) -> str:
    v = msg[field] if value is None else value
    if not isinstance(v, str) or v not in state.goods:
        raise ClickError("good", field=field, allowed=", ".join(state.goods), got=show_value(v))
    return v


def _goods_list(state: Any, msg: dict[str, Any], field: str, count: int) -> list[str]:
    v = msg[field]
    if not isinstance(v, list | tuple) or len(v) != count:
        raise ClickError("list", field=field, count=count, got=show_value(v))
    return [_good(state, msg, field, g) for g in v]


def click_to_action(state: Any, msg: Any) -> str:
    """The notation text of a browser click, or :class:`ClickError` naming the field at fault.

    Checks only the message's shape (kind, fields, types, ranges, goods); the rules judge the action.
    """
    kind = click_kind(msg, CLICK_FIELDS, ClickError)
    if kind == "place":
        return f"place {_int(msg, 'space')}"
    if kind in ("buy", "pass", "done"):
        return kind
    if kind == "contract":
        return f"contract {_good(state, msg, 'good')} {_int(msg, 'index')}"
    if kind in ("sell", "store", "keep"):
        return f"{kind} {_good(state, msg, 'good')}"
    if kind == "take":
        good = _good(state, msg, "good")
        source = msg["source"]
        if source not in ("warehouse", "hall"):
            raise ClickError("choice", field="source", allowed="warehouse, hall", got=show_value(source))
        return f"take {good} {source}"
    if kind == "convert":
        given = _goods_list(state, msg, "goods", _convert_count(state))
        return f"convert {' '.join(given)} to {_good(state, msg, 'to')}"
    if kind == "hallsell":
        given = _goods_list(state, msg, "goods", state.cat.setup.get("hall_sell", 2))
        return f"hallsell {' '.join(given)}"
    return _kai_click(state, kind, msg)


def _convert_count(state: Any) -> int:
    """Cubes given in one exchange: the market hall's 3, or the Harbour Master's 2 for its owner."""
    k = state.cat.setup.get("hall_convert", 3)
    if state.kai is not None and state.phase == "loading" and state.to_move is not None:
        return state.seats[state.to_move].k_convert or k
    return k


def _kai_click(state: Any, kind: str, msg: dict[str, Any]) -> str:
    """The notation of the expansion's clicks (shape only, like the base game's: the rules judge them)."""
    if kind in ("break", "stop", "double", "insure"):
        return kind
    if kind == "buyfree":
        return "buy free"
    if kind == "reserve":
        return f"reserve {_int(msg, 'space')}"
    if kind == "spy":
        return "spy " + " ".join(str(_int(msg, f)) for f in ("space", "level", "space_other", "level_other"))
    if kind in ("deliver", "auction"):
        return f"{kind} {_good(state, msg, 'good')}"
    if kind == "smuggle":
        return f"smuggle {_int(msg, 'seat')} {_int(msg, 'index')} {_good(state, msg, 'good')}"
    return f"truck {_good(state, msg, 'good')} {_int(msg, 'from')} {_int(msg, 'to')}"
