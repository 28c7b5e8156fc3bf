"""Card catalogues: the card data of Die Speicherstadt, loaded from a data file and validated.

The package ships ``data/speicherstadt.toml``. A user catalogue (TOML or JSON) either replaces it
entirely or starts with ``base = "default"`` and overrides single cards by id, adds cards, or removes
cards with ``remove = [...]``. Every problem is reported with the card id and field name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine.catalog import CardCatalog, CatalogFiles, assumed_fields, card_entries, card_values, check_value
from ...engine.catalog import catalog_error as _err
from ...engine.datafiles import is_key

FORMAT = "speicherstadt-lab/catalog/1"
SEASONS = ("A", "B", "C", "D", "E")

_INT, _GOOD, _GOODS, _STR = "int", "good", "goods", "str"  # value types of engine.catalog.check_value

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
        """The card's name in ``lang`` ("en" or "de")."""
        return self.de if lang == "de" else self.en


@dataclass(frozen=True)
class Good:
    """A kind of goods cube: id, names, colour on the board, how many cubes the bag holds (``expansion``: only
    in play with it)."""

    id: str
    en: str
    de: str
    colour: str
    count: int
    expansion: str | None = None


@dataclass(frozen=True, kw_only=True)
class Catalog(CardCatalog[Card]):
    """A validated catalogue. ``raw`` is the merged data (what a record embeds); ``digest`` its hash."""

    goods: tuple[Good, ...]

    def good_index(self) -> dict[str, int]:
        """Each good's position among all goods of the catalogue (the expansion's included)."""
        return {g.id: i for i, g in enumerate(self.goods)}


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
            check_value(where, f, g.get(f), _STR)
        check_value(where, "count", g.get("count"), _INT)
        goods.append(Good(g["id"], g["en"], g["de"], g["colour"], g["count"], g.get("expansion")))
    good_ids = {g.id for g in goods}
    if len(good_ids) != len(goods):
        raise _err("goods", "good ids must be unique")

    setup = raw.get("setup")
    if not isinstance(setup, dict):
        raise _err("setup", "is missing or not a table")
    for f in _SETUP_INTS:
        check_value("setup", f, setup.get(f), _INT)
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
                check_value("setup", f"{exp_name}.{f}", ext[f], _INT)
        if not isinstance(ext.get("removed", {}), dict):
            raise _err("setup", f"field '{exp_name}.removed' must map player counts to lists of card ids")
        expansions[exp_name] = ext
    removed = setup.get("removed", {})
    if not isinstance(removed, dict):
        raise _err("setup", "field 'removed' must map player counts to lists of card ids")

    cards: list[Card] = []
    seen: set[str] = set()
    for where, cid, c in card_entries(raw, lambda cid: isinstance(cid, str) and cid != "", "a non-empty text"):
        seen.add(cid)
        kind, values = card_values(where, c, KIND_FIELDS, _COMMON, {_GOOD: good_ids})
        spec = KIND_FIELDS[kind]
        for f in ("en", "de"):
            check_value(where, f, c.get(f), _STR)
        if not is_key(c.get("season"), SEASONS):
            raise _err(where, f"field 'season' must be one of {list(SEASONS)}, not {c.get('season')!r}")
        assumed = assumed_fields(where, c, spec)
        exp = c.get("expansion")
        if exp is not None and not isinstance(exp, str):
            raise _err(where, "field 'expansion' must be a text")
        cards.append(Card(idx=len(cards), id=cid, en=c["en"], de=c["de"], season=c["season"], kind=kind,
                          expansion=exp, assumed=assumed, **values))
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
    return Catalog(name=str(raw.get("name", "catalogue")), goods=tuple(goods), cards=tuple(cards), setup=setup,
                   raw=raw, is_default=is_default)


_FILES = CatalogFiles("speicherstadt.toml", Catalog, build, sections=("goods",))
default_raw = _FILES.default_raw  # the default catalogue's data, a fresh copy to change
default_catalog = _FILES.default_catalog  # the default catalogue (built once)
load_catalog = _FILES.load_catalog  # the default (None), a catalogue file, or catalogue data (e.g. from a record)
