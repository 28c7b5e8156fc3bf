"""Packet Row's action grammar, declared once: each verb, its arguments' kinds and the click that makes it
(``engine/grammar.py`` reads it for parsing, clicks, forms and the action catalogue).

A fulfilment (``fulfil CONTRACT... ship DEST [captain DEST]... goods CARD [merchant GOOD]...``) is three click
fields, each of its own kind (registered here); the notation checks the whole (``Notation.fulfil_words``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...engine.grammar import Arg, ArgKind, Bad, FormError, Grammar, Verb, register_kind, show_value
from .catalog import BOARDS

SUPPLIES = ("current", "future")
MAX_PARTS = 12  # no list in a fulfil click is longer
FULFIL_SLOTS = 64  # catalogue ids of fulfilments: the k-th legal one (at most 12 were legal at once in random games)


class _Part(ArgKind):
    """One part of a fulfilment: its words up to the next part's keyword (``ship``, ``goods``) in the notation; in
    a click, a list of card ids or of ``{key: id, opt: id}`` objects."""

    def __init__(self, keyword: str, stop: tuple[str, ...], key: str = "", opt: str = "", opt_domain: str = "",
                 kinds: tuple[str, ...] = ()) -> None:
        self.keyword = keyword  # the word each item starts with ("" for contracts, which are ids alone)
        self.stop = stop
        self.key, self.opt, self.opt_domain, self.kinds = key, opt, opt_domain, kinds

    def parse(self, arg: Arg, ctx: Any, words: list[str], i: int, bad: Bad,
              later: Sequence[Arg] = ()) -> tuple[tuple[Any, ...], int]:
        """The words up to the next part (at least one)."""
        j = i
        while j < len(words) and words[j] not in self.stop:
            j += 1
        if j == i or (self.keyword and words[i] != self.keyword):
            raise FormError
        return tuple(words[i:j]), j

    def click(self, arg: Arg, ctx: Any, value: Any, numbers: Callable[[str], int], error: Any) -> tuple[Any, ...]:
        """The part's words from a click's list (each item checked, naming ``field[k]``)."""
        if not isinstance(value, list | tuple) or len(value) > MAX_PARTS:
            raise error("list", field=arg.name, top=MAX_PARTS, got=show_value(value))
        if not value:
            raise error("empty", field=arg.name)
        words: list[str] = []
        for k, item in enumerate(value):
            field = f"{arg.name}[{k}]"
            if not self.key:
                words.append(_card(ctx, item, field, ("contract",), error))
                continue
            if not isinstance(item, dict):
                raise error("object", field=field, got=show_value(item))
            if self.key not in item:
                raise error("missing", kind=field, field=self.key)
            for f in item:
                if f not in (self.key, self.opt):
                    raise error("extra", kind=field, field=f if isinstance(f, str) else show_value(f))
            if self.kinds:
                words.append(_card(ctx, item[self.key], f"{field}.{self.key}", self.kinds, error))
            else:
                words += [self.keyword, _choice(ctx, item[self.key], f"{field}.{self.key}", "dest", error)]
            if item.get(self.opt) is not None:
                words += [self.opt, _choice(ctx, item[self.opt], f"{field}.{self.opt}", self.opt_domain, error)]
        return (self.keyword, *words) if self.kinds else tuple(words)

    def values(self, arg: Arg, ctx: Any, limits: Mapping[str, Any]) -> list[tuple[Any, ...]] | None:
        """No closed domain: the catalogue numbers the legal fulfilments (the verb's ``slots``)."""
        return None

    def span(self, arg: Arg, later: Sequence[Arg], args: tuple[Any, ...], i: int) -> int:
        """The words up to the next part's keyword."""
        j = i
        while j < len(args) and args[j] not in self.stop:
            j += 1
        return j - i

    def fields(self, arg: Arg, values: tuple[Any, ...]) -> Any:
        """The click's list: contract ids, or ``{key: id, opt: id or None}`` per item."""
        words = [str(w) for w in values]
        if not self.key:
            return words
        if self.kinds:
            words = words[1:]  # after "goods"
        items: list[dict[str, Any]] = []
        k = 0
        while k < len(words):
            if not self.kinds:  # "ship DEST"
                k += 1
            item = {self.key: words[k], self.opt: None}
            k += 1
            if k < len(words) and words[k] == self.opt:
                item[self.opt] = words[k + 1]
                k += 2
            items.append(item)
        return items


def _card(ctx: Any, v: Any, field: str, kinds: tuple[str, ...], error: Any) -> str:
    card = ctx.cat.by_id.get(v) if isinstance(v, str) else None
    if card is None or card.kind not in kinds:
        raise error("card", field=field, kinds=", ".join(kinds), got=show_value(v))
    return str(v)


def _choice(ctx: Any, v: Any, field: str, domain: str, error: Any) -> str:
    allowed = ctx.domain(domain)
    if not isinstance(v, str) or v not in allowed:
        raise error("choice", field=field, allowed=", ".join(allowed), got=show_value(v))
    return v


register_kind("fulfil_contracts", _Part("", ("ship", "goods")))
register_kind("fulfil_ships", _Part("ship", ("goods",), key="dest", opt="captain", opt_domain="dest"))
register_kind("fulfil_goods", _Part("goods", (), key="card", opt="merchant", opt_domain="good",
                                   kinds=("goods", "gold")))


GRAMMAR = Grammar(
    game="packet_row",
    verbs=(
        Verb("choose", (Arg("board", "one", "board", what="board", hint="BOARD"),)),
        Verb("take", (Arg("board", "one", "board", what="board", hint="BOARD"),
                      Arg("supply", "flag", hint="SUPPLY", choices=SUPPLIES),
                      Arg("slot", "int", "slots", what="the slot", hint="N")), order=("supply", "board", "slot")),
        Verb("decline"),
        Verb("pass"),
        Verb("cash", (Arg("value", "int", "money", what="the value", hint="N"),)),
        Verb("fulfil", (Arg("contracts", "fulfil_contracts", hint="CONTRACT..."),
                        Arg("ships", "fulfil_ships", hint="ship DEST [captain DEST]..."),
                        Arg("goods", "fulfil_goods", hint="goods CARD [merchant GOOD]...")),
             slots=FULFIL_SLOTS, build="fulfil_words"),
        Verb("done"),
    ),
    # the action catalogue's bounds: slots of a supply row (2 in the published game), money card values
    limits={"slots": 4, "money": 21},
)

DOMAINS = {"board": BOARDS}  # the rest (dest, good) come from the catalogue
