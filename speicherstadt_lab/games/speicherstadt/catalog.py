"""Card catalogues: the card data of Die Speicherstadt, loaded from a data file and validated.

The package ships ``data/speicherstadt.toml``. A user catalogue (TOML or JSON) either replaces it
entirely or starts with ``base = "default"`` and overrides single cards by id, adds cards, or removes
cards with ``remove = [...]``. Every problem is reported with the card id and field name.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Any

from ...engine.datafiles import is_key, read_catalog_file
from ...engine.errors import CatalogError

FORMAT = "speicherstadt-lab/catalog/1"
SEASONS = ("A", "B", "C", "D", "E")

_INT, _GOOD, _GOODS, _STR = "int", "good", "goods", "str"

# kind -> its own fields and their types (Kaispeicher kinds are added by the expansion's data).
KIND_FIELDS: dict[str, dict[str, str]] = {
    "merchant": {"good": _GOOD, "coins": _INT, "vp": _INT},
    "warehouse": {"vp_per_good": _INT},
    "counting_office": {},
    "contract": {"goods": _GOODS, "vp": _INT},
    "fireman": {"value": _INT},
    "ship": {"capacity": _INT},
    "fire": {"strength": _INT},
    "bank": {"income": _INT},
    "building": {"vp": _INT},
    "chamber_of_commerce": {"vp_per_coin": _INT},
    "port": {"vp_per_ship": _INT},
    # Kaispeicher
    "delivery": {"good": _GOOD, "points": _INT},
    "press": {"vp_per_fireman": _INT},
    "mayor": {},
    "harbour_tour": {"vp_per_building": _INT},
    "deichtorhallen": {"vp_per_trader": _INT},
    "accountant": {"vp_per_contract": _INT},
    "spy": {},
    "fish_market": {},
    "harbour_master": {"convert": _INT},
    "savings_bank": {"coins": _INT},
    "thief": {"coins": _INT},
    "auction_hall": {},
    "smuggler": {},
    "truck": {"moves": _INT},
    "coffee_break": {"breaks": _INT},
    "warehouse_workers": {"workers": _INT},
    "fire_chief": {},
    "insurance": {"cost": _INT},
    "fire_engine": {},
}
_COMMON = {"id", "en", "de", "season", "kind", "assumed", "expansion", "note"}
_SETUP_INTS = (
    "coins",
    "workers",
    "income",
    "income_if_nothing_bought",
    "building_spaces",
    "warehouse_capacity",
    "hall_capacity",
    "hall_convert",
    "hall_sell",
)


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the catalogue. ``idx`` is its position; rules work on indices, records on ids."""

    idx: int
    id: str
    en: str
    de: str
    season: str
    kind: str
    good: str | None = None
    goods: tuple[str, ...] = ()
    vp: int = 0
    coins: int = 0
    value: int = 0
    strength: int = 0
    capacity: int = 0
    income: int = 0
    vp_per_good: int = 0
    vp_per_coin: int = 0
    vp_per_ship: int = 0
    points: int = 0
    vp_per_fireman: int = 0
    vp_per_building: int = 0
    vp_per_trader: int = 0
    vp_per_contract: int = 0
    convert: int = 0
    cost: int = 0
    moves: int = 0
    breaks: int = 0
    workers: int = 0
    expansion: str | None = None
    assumed: tuple[str, ...] = ()

    def name(self, lang: str = "en") -> str:
        return self.de if lang == "de" else self.en


@dataclass(frozen=True)
class Good:
    id: str
    en: str
    de: str
    colour: str
    count: int
    expansion: str | None = None


@dataclass(frozen=True)
class Catalog:
    """A validated catalogue. ``raw`` is the merged data (what a record embeds); ``digest`` its hash."""

    name: str
    goods: tuple[Good, ...]
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

    def good_index(self) -> dict[str, int]:
        return {g.id: i for i, g in enumerate(self.goods)}

    def assumed_values(self) -> list[tuple[str, str, Any]]:
        """(card id, field, value) of every value marked assumed: what a user may want to correct."""
        out = []
        for c in self.cards:
            for f in c.assumed:
                out.append((c.id, f, getattr(c, f)))
        return out


def _err(where: str, msg: str) -> CatalogError:
    return CatalogError(f"catalog {where}: {msg}")


def _check_type(where: str, name: str, value: Any, kind: str, goods: set[str]) -> Any:
    if kind == _INT:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise _err(where, f"field '{name}' must be a whole number ≥ 0, not {value!r}")
        return value
    if kind == _STR:
        if not isinstance(value, str) or not value.strip():
            raise _err(where, f"field '{name}' must be a non-empty text, not {value!r}")
        return value
    if kind == _GOOD:
        if not is_key(value, goods):
            raise _err(where, f"field '{name}' must be one of the goods {sorted(goods)}, not {value!r}")
        return value
    if kind == _GOODS:
        if not isinstance(value, list) or not value or any(not is_key(v, goods) for v in value):
            raise _err(where, f"field '{name}' must be a non-empty list of goods from {sorted(goods)}, not {value!r}")
        return tuple(value)
    raise AssertionError(kind)


@cache
def _default_raw_text() -> str:
    return resources.files("speicherstadt_lab.data").joinpath("speicherstadt.toml").read_text(encoding="utf-8")


def default_raw() -> dict[str, Any]:
    return tomllib.loads(_default_raw_text())


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """Apply a partial user catalogue on top of ``base``."""
    out = json.loads(json.dumps(base))
    if "name" in over:
        out["name"] = over["name"]
    if "setup" in over:
        if not isinstance(over["setup"], dict):
            raise _err("setup", "must be a table")
        for k, v in over["setup"].items():
            out.setdefault("setup", {})[k] = v
    if "goods" in over:
        if not isinstance(over["goods"], list):
            raise _err("goods", "must be a list of tables")
        ids = {g.get("id"): i for i, g in enumerate(out["goods"])}
        for g in over["goods"]:
            if not isinstance(g, dict) or "id" not in g:
                raise _err("goods", "every entry needs an 'id'")
            if g["id"] in ids:
                out["goods"][ids[g["id"]]].update(g)
            else:
                out["goods"].append(g)
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
            # A value the user states is no longer assumed.
            if "assumed" not in c:
                merged["assumed"] = [f for f in merged.get("assumed", []) if f not in c]
        else:
            out["cards"].append(c)
            index[c["id"]] = len(out["cards"]) - 1
    return out


def build(raw: dict[str, Any], *, is_default: bool = False) -> Catalog:
    """Validate merged catalogue data and build a :class:`Catalog`."""
    fmt = raw.get("format", FORMAT)
    if fmt != FORMAT:
        raise _err("format", f"must be {FORMAT!r}, not {fmt!r}")
    goods_raw = raw.get("goods")
    if not isinstance(goods_raw, list) or not goods_raw:
        raise _err("goods", "must be a non-empty list of goods")
    goods: list[Good] = []
    for i, g in enumerate(goods_raw):
        where = f"goods[{i}]"
        if not isinstance(g, dict):
            raise _err(where, "must be a table")
        unknown = set(g) - {"id", "en", "de", "colour", "count", "expansion"}
        if unknown:
            raise _err(where, f"unknown field(s) {sorted(unknown)}")
        for f in ("id", "en", "de", "colour"):
            _check_type(where, f, g.get(f), _STR, set())
        _check_type(where, "count", g.get("count"), _INT, set())
        goods.append(Good(g["id"], g["en"], g["de"], g["colour"], g["count"], g.get("expansion")))
    good_ids = {g.id for g in goods}
    if len(good_ids) != len(goods):
        raise _err("goods", "good ids must be unique")

    setup = raw.get("setup")
    if not isinstance(setup, dict):
        raise _err("setup", "is missing or not a table")
    for f in _SETUP_INTS:
        _check_type("setup", f, setup.get(f), _INT, set())
    if setup["workers"] < 1 or setup["building_spaces"] < 1:
        raise _err("setup", "'workers' and 'building_spaces' must be at least 1")
    cop = setup.get("counting_office_points")
    if not isinstance(cop, list) or len(cop) < 2 or any(not isinstance(x, int) for x in cop):
        raise _err("setup", "field 'counting_office_points' must be a list of whole numbers, [0, 2, 5, ...]")
    offer = setup.get("offer_size")
    if not isinstance(offer, dict) or not offer or any(
            k not in ("2", "3", "4", "5") or isinstance(v, bool) or not isinstance(v, int) or v < 1
            for k, v in offer.items()):
        raise _err("setup", "field 'offer_size' must map player counts 2-5 to the number of water spaces (≥ 1)")
    expansions: dict[str, dict[str, Any]] = {}
    for exp_name in ("kaispeicher",):
        ext = setup.get(exp_name)
        if ext is None:
            continue
        if not isinstance(ext, dict):
            raise _err("setup", f"field '{exp_name}' must be a table")
        for f in ("workers", "income", "grey_workers", "break_cards"):
            if f in ext:
                _check_type("setup", f"{exp_name}.{f}", ext[f], _INT, set())
        if not isinstance(ext.get("removed", {}), dict):
            raise _err("setup", f"field '{exp_name}.removed' must map player counts to lists of card ids")
        expansions[exp_name] = ext
    removed = setup.get("removed", {})
    if not isinstance(removed, dict):
        raise _err("setup", "field 'removed' must map player counts to lists of card ids")

    cards_raw = raw.get("cards")
    if not isinstance(cards_raw, list) or not cards_raw:
        raise _err("cards", "must be a non-empty list of cards")
    cards: list[Card] = []
    seen: set[str] = set()
    for i, c in enumerate(cards_raw):
        if not isinstance(c, dict):
            raise _err(f"cards[{i}]", "must be a table")
        cid = c.get("id")
        if not isinstance(cid, str) or not cid:
            raise _err(f"cards[{i}]", "field 'id' must be a non-empty text")
        where = f"card {cid!r}"
        if cid in seen:
            raise _err(where, "the id appears twice")
        seen.add(cid)
        kind = c.get("kind")
        if not is_key(kind, KIND_FIELDS):
            raise _err(where, f"field 'kind' must be one of {sorted(KIND_FIELDS)}, not {kind!r}")
        spec = KIND_FIELDS[kind]
        unknown = set(c) - _COMMON - set(spec)
        if unknown:
            raise _err(where, f"unknown field(s) {sorted(unknown)} for a {kind} card")
        for f in ("en", "de"):
            _check_type(where, f, c.get(f), _STR, set())
        if not is_key(c.get("season"), SEASONS):
            raise _err(where, f"field 'season' must be one of {list(SEASONS)}, not {c.get('season')!r}")
        values: dict[str, Any] = {}
        for f, t in spec.items():
            if f not in c:
                raise _err(where, f"field '{f}' is missing")
            values[f] = _check_type(where, f, c[f], t, good_ids)
        assumed = c.get("assumed", [])
        if not isinstance(assumed, list) or any(not is_key(a, spec) for a in assumed):
            raise _err(where, f"field 'assumed' must list some of the card's fields {sorted(spec)}")
        exp = c.get("expansion")
        if exp is not None and not isinstance(exp, str):
            raise _err(where, "field 'expansion' must be a text")
        cards.append(
            Card(
                idx=len(cards),
                id=cid,
                en=c["en"],
                de=c["de"],
                season=c["season"],
                kind=kind,
                expansion=exp,
                assumed=tuple(assumed),
                **values,
            )
        )
        # a card of the base game (or of one expansion) may only name goods that are in play with it
        usable = {g.id for g in goods if g.expansion in (None, exp)}
        for f, t in spec.items():
            named = [values[f]] if t == _GOOD else list(values[f]) if t == _GOODS else []
            odd = [g for g in named if g not in usable]
            if odd:
                raise _err(where, f"field '{f}': {odd[0]!r} is not in play with this card "
                                  f"({'the base game' if exp is None else exp})")
    for players, ids in removed.items():
        if not isinstance(ids, list) or any(not is_key(x, seen) for x in ids):
            raise _err("setup", f"field 'removed.{players}' must list card ids of this catalogue")
    for exp_name, ext in expansions.items():
        for players, ids in ext.get("removed", {}).items():
            if not isinstance(ids, list) or any(not is_key(x, seen) for x in ids):
                raise _err("setup", f"field '{exp_name}.removed.{players}' must list card ids of this catalogue")
    finals = [c for c in cards if c.season == "E"]
    if len(finals) != 1 or finals[0].kind != "fire":
        raise _err("cards", "there must be exactly one card in season 'E', and it must be a fire (the 4th fire)")
    canonical = json.dumps(raw, sort_keys=True, ensure_ascii=False)
    return Catalog(
        name=str(raw.get("name", "catalogue")),
        goods=tuple(goods),
        cards=tuple(cards),
        setup=setup,
        raw=raw,
        digest=hashlib.sha256(canonical.encode()).hexdigest()[:16],
        is_default=is_default,
    )


@cache
def default_catalog() -> Catalog:
    return build(default_raw(), is_default=True)


def load_catalog(source: str | Path | dict[str, Any] | Catalog | None = None) -> Catalog:
    """The default catalogue (``None``), a catalogue file, or catalogue data (e.g. from a record)."""
    if source is None:
        return default_catalog()
    if isinstance(source, Catalog):
        return source
    data = source if isinstance(source, dict) else read_catalog_file(source)
    base = data.get("base")
    if base is not None:
        if base != "default":
            raise _err("base", f"the only base a catalogue can extend is 'default', not {base!r}")
        merged = _merge(default_raw(), {k: v for k, v in data.items() if k != "base"})
        cat = build(merged)
    else:
        cat = build(data)
    if cat.digest == default_catalog().digest:
        return default_catalog()
    return cat
