"""Card catalogues of Packet Row: the card data, loaded from a data file and validated.

The package ships ``data/packet_row.toml``. Each ``[[cards]]`` entry is a card *type* with a ``count`` of
identical copies (identical cards are interchangeable in every rule, so the state holds types). A user
catalogue (TOML or JSON) replaces the default entirely, or starts with ``base = "default"`` and overrides
single cards by id, adds cards, or removes cards with ``remove = [...]``. Every problem raises
:class:`CatalogError` naming the card (or section) and the field.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Any

from ...engine.datafiles import is_key, read_catalog_file
from ...engine.errors import CatalogError

FORMAT = "speicherstadt-lab/packet-row-catalog/1"
BOARDS = ("guild", "docks", "market", "bank")
PLAYERS = (2, 3, 4, 5)

_INT, _POS, _GOOD, _DEST, _STR = "int", "pos", "good", "dest", "str"

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
#: Kinds that exist once as a type: the notation names them by kind (``captain``, ``merchant``, ...).
SINGLE_TYPE = ("assistant", "captain", "merchant", "banker")
_COMMON = {"id", "board", "kind", "count", "assumed", "note", "en", "de", "start"}
_ID = re.compile(r"^[a-z][a-z0-9_]*$")
#: Words of the ``fulfil`` notation that no contract, goods or gold id may be.
RESERVED = frozenset({"ship", "goods", "captain", "merchant", "future"})


@dataclass(frozen=True, slots=True)
class Card:
    """One card type of the catalogue; ``count`` copies are in the game. ``idx`` is its position."""

    idx: int
    id: str
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
    en: str | None = None
    de: str | None = None
    assumed: tuple[str, ...] = ()


@dataclass(frozen=True)
class Named:
    """A board, good or destination: id and names."""

    id: str
    en: str
    de: str
    colour: str = ""

    def name(self, lang: str = "en") -> str:
        return self.de if lang == "de" else self.en


@dataclass(frozen=True)
class Catalog:
    """A validated catalogue. ``raw`` is the merged data (what a state embeds); ``digest`` its hash."""

    name: str
    boards: tuple[Named, ...]
    goods: tuple[Named, ...]
    dests: tuple[Named, ...]
    cards: tuple[Card, ...]
    setup: dict[str, Any]
    raw: dict[str, Any] = field(repr=False)
    digest: str = ""
    is_default: bool = False

    def card(self, card_id: str) -> Card:
        return self.by_id[card_id]

    @cached_property
    def by_id(self) -> dict[str, Card]:
        return {c.id: c for c in self.cards}

    def deck(self, board: str) -> list[Card]:
        """The card types of a board's deck (starting contracts are not in it)."""
        return [c for c in self.cards if c.board == board and not c.start]

    @cached_property
    def start_contracts(self) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.start)

    def assumed_values(self) -> list[tuple[str, str, Any]]:
        """(card id, field, value) of every value marked assumed: what a user may want to correct."""
        return [(c.id, f, getattr(c, f)) for c in self.cards for f in c.assumed]


def _err(where: str, msg: str) -> CatalogError:
    return CatalogError(f"catalog {where}: {msg}")


def _check(where: str, name: str, value: Any, kind: str, goods: set[str], dests: set[str]) -> Any:
    if kind in (_INT, _POS):
        low = 1 if kind == _POS else 0
        if not isinstance(value, int) or isinstance(value, bool) or value < low:
            raise _err(where, f"field '{name}' must be a whole number ≥ {low}, not {value!r}")
        return value
    if kind == _STR:
        if not isinstance(value, str) or not value.strip():
            raise _err(where, f"field '{name}' must be a non-empty text, not {value!r}")
        return value
    if kind == _GOOD:
        if not is_key(value, goods):
            raise _err(where, f"field '{name}' must be one of the goods {sorted(goods)}, not {value!r}")
        return value
    if kind == _DEST:
        if not is_key(value, dests):
            raise _err(where, f"field '{name}' must be one of the destinations {sorted(dests)}, not {value!r}")
        return value
    raise AssertionError(kind)


@cache
def _default_text() -> str:
    return resources.files("speicherstadt_lab.data").joinpath("packet_row.toml").read_text(encoding="utf-8")


def default_raw() -> dict[str, Any]:
    return tomllib.loads(_default_text())


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """Apply a partial user catalogue on top of ``base`` (cards by id; setup by key; named lists by id)."""
    out = json.loads(json.dumps(base))
    unknown = set(over) - {"name", "setup", "cards", "remove", "boards", "goods", "destinations", "format", "game"}
    if unknown:
        raise _err("(top level)", f"unknown field(s) {sorted(unknown)}")
    if "name" in over:
        out["name"] = over["name"]
    if "setup" in over:
        if not isinstance(over["setup"], dict):
            raise _err("setup", "must be a table")
        out["setup"].update(over["setup"])
    for section in ("boards", "goods", "destinations"):
        if section in over:
            if not isinstance(over[section], list):
                raise _err(section, "must be a list of tables")
            ids = {x.get("id"): i for i, x in enumerate(out[section])}
            for x in over[section]:
                if not isinstance(x, dict) or "id" not in x:
                    raise _err(section, "every entry needs an 'id'")
                if x["id"] in ids:
                    out[section][ids[x["id"]]].update(x)
                else:
                    out[section].append(x)
    remove = over.get("remove", [])
    if not isinstance(remove, list):
        raise _err("remove", "must be a list of card ids")
    known = {c["id"] for c in out["cards"]}
    for cid in remove:
        if cid not in known:
            raise _err("remove", f"there is no card {cid!r} to remove")
    out["cards"] = [c for c in out["cards"] if c["id"] not in set(remove)]
    index = {c["id"]: i for i, c in enumerate(out["cards"])}
    cards = over.get("cards", [])
    if not isinstance(cards, list):
        raise _err("cards", "must be a list of tables")
    for c in cards:
        if not isinstance(c, dict) or not isinstance(c.get("id"), str):
            raise _err("cards", "every card needs a text 'id'")
        if c["id"] in index:
            merged = out["cards"][index[c["id"]]]
            if "kind" in c and c["kind"] != merged["kind"]:
                raise _err(f"card {c['id']!r}", f"field 'kind' cannot change from {merged['kind']!r} in an override")
            merged.update(c)
            if "assumed" not in c:  # a value the user states is no longer assumed
                merged["assumed"] = [f for f in merged.get("assumed", []) if f not in c]
        else:
            out["cards"].append(c)
            index[c["id"]] = len(out["cards"]) - 1
    return out


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
            _check(where, f, x.get(f), _STR, set(), set())
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
        _check("setup", f, setup.get(f), _POS if f == "dollars_per_vp" else _INT, set(), set())

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
    good_ids, dest_ids = {g.id for g in goods}, {d.id for d in dests}
    setup = _setup(raw)
    cards_raw = raw.get("cards")
    if not isinstance(cards_raw, list) or not cards_raw:
        raise _err("cards", "must be a non-empty list of cards")
    cards: list[Card] = []
    seen: set[str] = set()
    for i, c in enumerate(cards_raw):
        if not isinstance(c, dict):
            raise _err(f"cards[{i}]", "must be a table")
        cid = c.get("id")
        if not isinstance(cid, str) or not _ID.match(cid):
            raise _err(f"cards[{i}]", f"field 'id' must be lower case letters, digits and '_', not {cid!r}")
        where = f"card {cid!r}"
        if cid in seen:
            raise _err(where, "the id appears twice")
        seen.add(cid)
        kind = c.get("kind")
        if not is_key(kind, KINDS):
            raise _err(where, f"field 'kind' must be one of {sorted(KINDS)}, not {kind!r}")
        allowed_boards, spec = KINDS[kind]
        if kind in ("contract", "goods", "gold") and cid in RESERVED:
            raise _err(where, f"field 'id': {cid!r} is a word of the fulfil notation; choose another id")
        unknown = set(c) - _COMMON - set(spec)
        if unknown:
            raise _err(where, f"unknown field(s) {sorted(unknown)} for a {kind} card")
        board = c.get("board")
        if not is_key(board, allowed_boards):
            raise _err(where, f"field 'board' must be one of {list(allowed_boards)} for a {kind} card, not {board!r}")
        values: dict[str, Any] = {}
        for f, t in spec.items():
            if f not in c:
                raise _err(where, f"field '{f}' is missing")
            values[f] = _check(where, f, c[f], t, good_ids, dest_ids)
        count = _check(where, "count", c.get("count", 1), _POS, set(), set())
        start = c.get("start", False)
        if not isinstance(start, bool) or (start and kind != "contract"):
            raise _err(where, "field 'start' must be true or false, and only a contract can be a starting contract")
        if start and count != 1:
            raise _err(where, "field 'count' must be 1 for a starting contract (each is dealt to one player)")
        names = {}
        for f in ("en", "de"):
            if f in c or kind == "building":
                names[f] = _check(where, f, c.get(f), _STR, set(), set())
        assumed = c.get("assumed", [])
        if not isinstance(assumed, list) or any(not is_key(a, {*spec, "count"}) for a in assumed):
            raise _err(where, f"field 'assumed' must list some of the card's fields {sorted({*spec, 'count'})}")
        note = c.get("note")
        if note is not None and not isinstance(note, str):
            raise _err(where, "field 'note' must be a text")
        cards.append(Card(idx=len(cards), id=cid, board=board, kind=kind, count=count, start=start,
                          assumed=tuple(assumed), **names, **values))
    _check_notation(cards)
    for b in BOARDS:
        if not any(c.board == b and not c.start for c in cards):
            raise _err("cards", f"the {b} deck has no cards")
    canonical = json.dumps(raw, sort_keys=True, ensure_ascii=False)
    return Catalog(name=str(raw.get("name", "catalogue")), boards=boards, goods=goods, dests=dests,
                   cards=tuple(cards), setup=setup, raw=raw,
                   digest=hashlib.sha256(canonical.encode()).hexdigest()[:16], is_default=is_default)


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


@cache
def default_catalog() -> Catalog:
    return build(default_raw(), is_default=True)


def load_catalog(source: str | Path | dict[str, Any] | Catalog | None = None) -> Catalog:
    """The default catalogue (``None``), a catalogue file, or catalogue data (e.g. from a saved state)."""
    if source is None:
        return default_catalog()
    if isinstance(source, Catalog):
        return source
    data = source if isinstance(source, dict) else read_catalog_file(source)
    base = data.get("base")
    if base is not None:
        if base != "default":
            raise _err("base", f"the only base a catalogue can extend is 'default', not {base!r}")
        cat = build(_merge(default_raw(), {k: v for k, v in data.items() if k != "base"}))
    else:
        cat = build(data)
    if cat.digest == default_catalog().digest:
        return default_catalog()
    return cat
