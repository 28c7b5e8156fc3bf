"""Card catalogues of Packet Row: the card data, loaded from a data file and validated.

The package ships ``data/packet_row.toml``. Each ``[[cards]]`` entry is a card *type* with a ``count`` of
identical copies (identical cards are interchangeable in every rule, so the state holds types). A user
catalogue (TOML or JSON) replaces the default entirely, or starts with ``base = "default"`` and overrides
single cards by id, adds cards, or removes cards with ``remove = [...]``. Every problem raises
:class:`CatalogError` naming the card (or section) and the field.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ...engine.catalog import CardCatalog, CatalogFiles, assumed_fields, card_entries, card_values, check_value
from ...engine.catalog import catalog_error as _err
from ...engine.datafiles import is_key

FORMAT = "speicherstadt-lab/packet-row-catalog/1"
BOARDS = ("guild", "docks", "market", "bank")
PLAYERS = (2, 3, 4, 5)

_INT, _POS, _GOOD, _DEST = "int", "pos", "good", "dest"  # value types of engine.catalog.check_value

# kind -> (boards it may lie on, its own fields and their types)
KINDS: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    "contract": (("guild",), {"good": _GOOD, "amount": _POS, "dest": _DEST, "pays": _INT}),
    "assistant": (("guild",), {}),
    "ship": (("docks",), {"dest": _DEST}),
    "captain": (("docks",), {}),
    "gold": (("docks",), {"bars": _POS, "cost": _INT}),
    "goods": (("market",), {"good": _GOOD, "amount": _POS, "cost": _INT}),
    "merchant": (("market",), {}),
    "money": (("bank",), {"value": _POS}),
    "banker": (("bank",), {}),
    "building": (BOARDS, {"cost": _INT, "vp": _INT}),
}
_SPECS = {kind: spec for kind, (_, spec) in KINDS.items()}
#: Kinds that exist once as a type: the notation names them by kind (``captain``, ``merchant``, ...).
SINGLE_TYPE = ("assistant", "captain", "merchant", "banker")
_COMMON = {"id", "board", "kind", "count", "assumed", "note", "en", "de", "start"}
_ID = re.compile(r"^[a-z][a-z0-9_]*$")
#: Words of the ``fulfil`` notation that no contract, goods or gold id may be.
RESERVED = frozenset({"ship", "goods", "captain", "merchant", "future"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Card:
    """One card type of the catalogue; ``count`` copies are in the game. ``idx`` is its position. ``en``/``de``:
    a name of its own (buildings); the other cards are named by their values (``State.card_name``)."""

    idx: int
    id: str
    en: str | None = None
    de: str | None = None
    board: str
    kind: str
    count: int = 1
    start: bool = False
    good: str | None = None
    amount: int = 0
    dest: str | None = None
    pays: int = 0
    bars: int = 0
    cost: int = 0
    value: int = 0
    vp: int = 0
    assumed: tuple[str, ...] = ()


@dataclass(frozen=True)
class Named:
    """A board, good or destination: id and names."""

    id: str
    en: str
    de: str
    colour: str = ""

    def name(self, lang: str = "en") -> str:
        """The name in ``lang`` ("en" or "de")."""
        return self.de if lang == "de" else self.en


@dataclass(frozen=True, kw_only=True)
class Catalog(CardCatalog[Card]):
    """A validated catalogue. ``raw`` is the merged data (what a state embeds); ``digest`` its hash."""

    boards: tuple[Named, ...]
    goods: tuple[Named, ...]
    dests: tuple[Named, ...]

    def deck(self, board: str) -> list[Card]:
        """The card types of a board's deck (starting contracts are not in it)."""
        return [c for c in self.cards if c.board == board and not c.start]

    @cached_property
    def start_contracts(self) -> tuple[Card, ...]:
        """The starting contracts, dealt one to each seat (secret until fulfilled)."""
        return tuple(c for c in self.cards if c.start)


def _named(raw: dict[str, Any], section: str, with_colour: bool = False) -> tuple[Named, ...]:
    items = raw.get(section)
    if not isinstance(items, list) or not items:
        raise _err(section, "must be a non-empty list")
    out: list[Named] = []
    for i, x in enumerate(items):
        where = f"{section}[{i}]"
        if not isinstance(x, dict):
            raise _err(where, "must be a table")
        allowed = {"id", "en", "de"} | ({"colour"} if with_colour else set())
        unknown = set(x) - allowed
        if unknown:
            raise _err(where, f"unknown field(s) {sorted(unknown)}")
        for f in sorted(allowed):
            check_value(where, f, x.get(f), "str")
        if not _ID.match(x["id"]) or x["id"] in RESERVED:
            raise _err(where, f"field 'id' {x['id']!r} must be lower case letters, digits and '_' (not a keyword)")
        out.append(Named(x["id"], x["en"], x["de"], x.get("colour", "")))
    if len({n.id for n in out}) != len(out):
        raise _err(section, "ids must be unique")
    return tuple(out)


def _player_map(setup: dict[str, Any], key: str, check: Any, required: bool = True) -> dict[str, Any]:
    m = setup.get(key, {} if not required else None)
    if not isinstance(m, dict) or (required and {str(p) for p in PLAYERS} - set(m)):
        raise _err("setup", f"field '{key}' must map every player count {list(PLAYERS)} to a value")
    for k, v in m.items():
        if k not in {str(p) for p in PLAYERS} or not check(v):
            raise _err("setup", f"field '{key}.{k}' is not valid ({v!r})")
    return m


def _setup(raw: dict[str, Any]) -> dict[str, Any]:
    setup = raw.get("setup")
    if not isinstance(setup, dict):
        raise _err("setup", "is missing or not a table")
    for f in ("money", "future", "dollars_per_vp"):
        check_value("setup", f, setup.get(f), _POS if f == "dollars_per_vp" else _INT)

    def pos_int(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and v >= 1

    def nat(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and v >= 0

    _player_map(setup, "current", pos_int)
    _player_map(setup, "removed", nat, required=False)
    _player_map(setup, "end_boards", lambda v: pos_int(v) and v <= len(BOARDS))
    _player_map(setup, "bankers", lambda v: isinstance(v, list) and v != [] and all(nat(x) for x in v))
    unknown = set(setup) - {"money", "future", "dollars_per_vp", "current", "removed", "end_boards", "bankers"}
    if unknown:
        raise _err("setup", f"unknown field(s) {sorted(unknown)}")
    return setup


def build(raw: dict[str, Any], *, is_default: bool = False) -> Catalog:
    """Validate merged catalogue data and build a :class:`Catalog`."""
    fmt = raw.get("format", FORMAT)
    if fmt != FORMAT:
        raise _err("format", f"must be {FORMAT!r}, not {fmt!r}")
    if raw.get("game", "packet_row") != "packet_row":
        raise _err("game", f"must be 'packet_row', not {raw.get('game')!r}")
    boards = _named(raw, "boards")
    if tuple(b.id for b in boards) != BOARDS:
        raise _err("boards", f"must be exactly {list(BOARDS)} in this order")
    goods = _named(raw, "goods", with_colour=True)
    dests = _named(raw, "destinations")
    keys = {_GOOD: {g.id for g in goods}, _DEST: {d.id for d in dests}}
    setup = _setup(raw)
    cards: list[Card] = []
    for where, cid, c in card_entries(raw, lambda cid: isinstance(cid, str) and bool(_ID.match(cid)),
                                      "lower case letters, digits and '_'"):
        kind, values = card_values(where, c, _SPECS, _COMMON, keys)
        if kind in ("contract", "goods", "gold") and cid in RESERVED:
            raise _err(where, f"field 'id': {cid!r} is a word of the fulfil notation; choose another id")
        board = c.get("board")
        allowed_boards = KINDS[kind][0]
        if not is_key(board, allowed_boards):
            raise _err(where, f"field 'board' must be one of {list(allowed_boards)} for a {kind} card, not {board!r}")
        count = check_value(where, "count", c.get("count", 1), _POS)
        start = c.get("start", False)
        if not isinstance(start, bool) or (start and kind != "contract"):
            raise _err(where, "field 'start' must be true or false, and only a contract can be a starting contract")
        if start and count != 1:
            raise _err(where, "field 'count' must be 1 for a starting contract (each is dealt to one player)")
        names = {f: check_value(where, f, c.get(f), "str") for f in ("en", "de") if f in c or kind == "building"}
        assumed = assumed_fields(where, c, {*_SPECS[kind], "count"})
        note = c.get("note")
        if note is not None and not isinstance(note, str):
            raise _err(where, "field 'note' must be a text")
        cards.append(Card(idx=len(cards), id=cid, board=board, kind=kind, count=count, start=start,
                          assumed=assumed, **names, **values))
    _check_notation(cards)
    for b in BOARDS:
        if not any(c.board == b and not c.start for c in cards):
            raise _err("cards", f"the {b} deck has no cards")
    return Catalog(name=str(raw.get("name", "catalogue")), boards=boards, goods=goods, dests=dests,
                   cards=tuple(cards), setup=setup, raw=raw, is_default=is_default)


def _check_notation(cards: list[Card]) -> None:
    """The notation names ships by destination, money cards by value and single-type kinds by kind."""
    by_key: dict[tuple[str, Any], str] = {}
    for c in cards:
        key: tuple[str, Any] | None = None
        if c.kind == "ship":
            key = ("ship", c.dest)
        elif c.kind == "money":
            key = ("money", c.value)
        elif c.kind in SINGLE_TYPE:
            key = (c.kind, None)
        if key is None:
            continue
        if key in by_key:
            what = {"ship": f"ship to {key[1]!r}", "money": f"money card of value {key[1]}"}.get(key[0], key[0])
            raise _err(f"card {c.id!r}", f"field 'kind': there is already a {what} ({by_key[key]!r}); give the "
                                         "existing card a larger 'count' instead")
        by_key[key] = c.id


_FILES = CatalogFiles("packet_row.toml", Catalog, build, sections=("boards", "goods", "destinations"),
                      fields=("name", "setup", "cards", "remove", "boards", "goods", "destinations", "format", "game"))
default_raw = _FILES.default_raw  # the default catalogue's data, a fresh copy to change
default_catalog = _FILES.default_catalog  # the default catalogue (built once)
load_catalog = _FILES.load_catalog  # the default (None), a catalogue file, or catalogue data (e.g. from a state)
