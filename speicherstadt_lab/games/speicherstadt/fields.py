"""Die Speicherstadt's state fields, declared once (``engine/schema.py``): each field of a position and of a seat with
its type, whether it is hidden, how a transition copies it and how a state file writes it. The state's slots and
clone, ``to_dict``/``from_dict``, the set-up's and a scenario's new position, ``view``'s masks and what
``rearranged`` may change all come from :data:`STATE_FIELDS` and :data:`SEAT_FIELDS`.

Inside, cards and goods are small ints (indices into the catalogue and the goods in play); the codecs write them
as ids, as the state format always has (``docs/record-format.md``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...engine.basestate import base_fields
from ...engine.datafiles import is_key
from ...engine.errors import RecordError
from ...engine.schema import BOOL, INT, SEAT, SEAT_OR_NONE, Codec, Field, Schema
from ...engine.setup import seat_entries, state_field

_PLACES = ("warehouse", "hall")


def _bit(direction: int, where: int, good: int, n_goods: int) -> int:
    """Bit of ``State.moved`` that records a move of ``good`` into/out of a store during this loading turn."""
    return (direction * 2 + where) * n_goods + good


# ---- codecs: ids in the file, indices inside ---------------------------------------------------------------------


def _cards_in(d: dict[str, Any], key: str, st: Any, where: str) -> tuple[int, ...]:
    v, by_id = d.get(key), st.cat.by_id
    if not isinstance(v, list) or any(not is_key(x, by_id) for x in v):
        raise RecordError(f"{where} field '{key}': must be a list of card ids of the catalogue")
    return tuple(by_id[x].idx for x in v)


def _goods_of(v: Any, key: str, st: Any, where: str) -> tuple[int, ...]:
    gi = st.notation.order
    if not isinstance(v, list) or any(not is_key(x, gi) for x in v):
        raise RecordError(f"{where} field '{key}': must be a list of goods {list(st.goods)}")
    return tuple(gi[x] for x in v)


def _stock_in(d: dict[str, Any], key: str, st: Any, where: str) -> tuple[int, ...]:
    stock = state_field(d, key, dict, where)
    if set(stock) != set(st.goods) or any(not isinstance(v, int) or v < 0 for v in stock.values()):
        raise RecordError(f"{where} field '{key}': must give a count ≥ 0 for every good")
    return tuple(stock[g] for g in st.goods)


def _offer_in(d: dict[str, Any], key: str, st: Any, where: str) -> tuple[int, ...]:
    offer, by_id = state_field(d, key, list, where), st.cat.by_id
    if any(x is not None and not is_key(x, by_id) for x in offer):
        raise RecordError(f"{where} field '{key}': must list card ids or null")
    return tuple(by_id[x].idx if x is not None else -1 for x in offer)


def _per_space(d: dict[str, Any], st: Any, where: str) -> None:
    if len(state_field(d, "cargo", list, where)) != len(st.offer_idx) or \
            len(state_field(d, "columns", list, where)) != len(st.offer_idx):
        raise RecordError(f"{where} fields 'cargo'/'columns': one entry per water space")


def _cargo_in(d: dict[str, Any], key: str, st: Any, where: str) -> tuple[tuple[int, ...], ...]:
    _per_space(d, st, where)
    return tuple(_goods_of(c, key, st, where) for c in d[key])


def _columns_in(d: dict[str, Any], key: str, st: Any, where: str) -> list[tuple[int, ...]]:
    _per_space(d, st, where)
    n = st.n_players
    for c in d[key]:
        if not isinstance(c, list) or any(not isinstance(x, int) or not 0 <= x & ~8 < n or x >= 16 for x in c):
            raise RecordError(f"{where} field '{key}': lists of seats (a grey worker of seat s is s + 8)")
    return [tuple(c) for c in d[key]]


def _bought_in(d: dict[str, Any], key: str, st: Any, where: str) -> int:
    return sum(1 << i for i in state_field(d, key, list, where) if isinstance(i, int) and 0 <= i < st.n_players)


def _moved_out(moved: int, st: Any) -> list[list[str]]:
    g = st.goods
    return [[("in", "out")[d], _PLACES[w], g[x]] for d in (0, 1) for w in (0, 1) for x in range(len(g))
            if moved >> _bit(d, w, x, len(g)) & 1]


def _moved_in(d: dict[str, Any], key: str, st: Any, where: str) -> int:
    gi = st.notation.order
    raw = d.get(key, [])
    if not isinstance(raw, list):
        raise RecordError(f"{where} field '{key}': must be a list of [in|out, warehouse|hall, good]")
    moved = 0
    for m in raw:
        if (not isinstance(m, list) or len(m) != 3 or m[0] not in ("in", "out") or m[1] not in _PLACES
                or not is_key(m[2], gi)):
            raise RecordError(f"{where} field '{key}': entries are [in|out, warehouse|hall, good]")
        moved |= 1 << _bit(("in", "out").index(m[0]), _PLACES.index(m[1]), gi[m[2]], len(gi))
    return moved


def _contracts_in(d: dict[str, Any], key: str, st: Any, where: str) -> tuple[tuple[int, tuple[int, ...]], ...]:
    by_id = st.cat.by_id
    out = []
    for c in state_field(d, key, list, where):
        if not isinstance(c, list) or len(c) != 2 or not is_key(c[0], by_id):
            raise RecordError(f"{where} field '{key}': entries are [card id, [goods]]")
        out.append((by_id[c[0]].idx, _goods_of(c[1], key, st, where)))
    return tuple(out)


def _coins_in(d: dict[str, Any], key: str, st: Any, where: str) -> int:
    coins = state_field(d, key, int, where)
    if coins < 0:
        raise RecordError(f"{where} field '{key}': negative")
    return coins  # type: ignore[no-any-return]


def _seats_out(seats: list[Any], st: Any) -> list[dict[str, Any]]:
    return [SEAT_FIELDS.encode(s, state=st) for s in seats]


def _seats_in(d: dict[str, Any], key: str, st: Any, where: str) -> list[Any]:
    out = []
    for w, s in seat_entries(d, st.n_players):
        seat = st.seat_type(len(st.goods), 0)  # the rules' seat type; its fields are declared here
        SEAT_FIELDS.decode(s, seat, state=st, where=w)
        derive(st.cat, seat, st.notation.order)
        out.append(seat)
    return out


def derive(cat: Any, seat: Any, gi: dict[str, int]) -> None:
    """A seat's values that follow from the cards it owns (its fields without a codec)."""
    sells = [0] * len(gi)
    delivers = [0] * len(gi)
    for ci in seat.cards:
        c = cat.cards[ci]
        if c.kind == "fireman":
            seat.firemen += c.value
        elif c.kind == "merchant":
            sells[gi[c.good]] += c.coins
        elif c.kind == "warehouse":
            seat.warehouse_cap = cat.setup["warehouse_capacity"]
        elif c.kind == "bank":
            seat.income_bonus += c.income
        elif c.kind == "harbour_master":
            seat.k_convert = c.convert
        elif c.kind == "delivery":
            delivers[gi[c.good]] += c.points
    seat.sells = tuple(sells)
    seat.delivers = tuple(delivers)


def _part_out(part: Any, st: Any) -> Any:
    return st.hooks.part.encode(part, st)


def _part_in(d: dict[str, Any], key: str, st: Any, where: str) -> Any:
    return st.hooks.part.decode(d, key, st, where)


def _ids(cs: Any, st: Any) -> list[str]:
    cards = st.cat.cards
    return [cards[c].id for c in cs]


def _goods_out(xs: Any, st: Any) -> list[str]:
    g = st.goods
    return [g[x] for x in xs]


CARDS = Codec(_ids, _cards_in)
GOODS = Codec(_goods_out, lambda d, k, st, w: _goods_of(d.get(k), k, st, w))


def _pile_mask(pile: tuple[int, ...], st: Any) -> dict[str, Any]:
    cards = st.cat.cards
    return {"count": len(pile), "by_season": dict(sorted(Counter(cards[c].season for c in pile).items())),
            "fires": [cards[c].id for c in pile if cards[c].kind == "fire"],
            "unseen": sorted(cards[c].id for c in pile)}


def _bag_mask(bag: tuple[int, ...], st: Any) -> dict[str, Any]:
    return {"count": len(bag), "goods": {g: bag.count(i) for i, g in enumerate(st.goods)}}


def _with_expansion(name: str) -> Any:
    """Present where the position's rules add seat field ``name`` (an expansion's ``seat_fields``)."""
    return lambda st: name in st.hooks.seat_fields


# ---- the fields --------------------------------------------------------------------------------------------------

#: A seat's fields. Those without a codec follow from its cards (:func:`derive`).
SEAT_FIELDS = Schema(
    Field("_gen", int, copy="generation", default=0),
    Field("coins", int, Codec(lambda v, st: v, _coins_in)),
    Field("track", int, INT, default=0),  # points won or lost during the game (fires)
    Field("cards", tuple, CARDS, default=()),
    Field("contracts", tuple, Codec(lambda cs, st: [[st.cat.cards[c].id, _goods_out(p, st)] for c, p in cs],
                                    _contracts_in), default=()),  # (card, goods placed)
    Field("warehouse", tuple, GOODS, default=()),  # sorted goods
    Field("hall", tuple, GOODS, default=()),
    Field("unload", tuple, GOODS, default=()),  # cubes on ships bought this round, until loading
    # the expansion's (written where its rules list them in ``seat_fields``)
    Field("breaks", int, INT, present=_with_expansion("breaks"), default=0),  # break cards left
    Field("grey", int, INT, present=_with_expansion("grey"), default=0),  # grey workers left
    Field("delivered", int, INT, present=_with_expansion("delivered"), default=0),  # points won by deliveries
    # derived from the cards owned
    Field("warehouse_cap", int, default=0),  # 0: no Warehouse
    Field("firemen", int, default=0),
    Field("sells", tuple, default=()),  # coins per cube a merchant pays, by good
    Field("income_bonus", int, default=0),
    Field("delivers", tuple, default=()),  # points per cube a delivery building gives, by good
    Field("k_convert", int, default=0),  # 0: the market hall's rate; 2 with the Harbour Master
)

#: A position's fields, in the order of the state file. A clone copies the water spaces' worker columns (changed in
#: place) and keeps the legal actions (``_advance`` resets them except where it knows they still hold: demand).
STATE_FIELDS = Schema(
    *base_fields(keeps_legal=True),
    # the game's context: the same for every position of a game, never written (the catalogue and expansion are)
    Field("goods", tuple),  # the goods in play
    Field("notation", object),  # parser, action cache, set-up numbers
    Field("hooks", object),  # the rules of this position's game (state.Hooks)
    Field("expansion", str | None, Codec(lambda v, st: v, lambda d, k, st, w: d.get(k)), at="head"),
    Field("first", int, SEAT),  # the seat holding the metal coin
    Field("to_move", int | None, SEAT_OR_NONE, default=None),
    Field("last_round", bool, BOOL, default=False),
    Field("pile", tuple, CARDS, hidden="pile order", mask=_pile_mask),  # the draw pile, top first
    Field("bag", tuple, GOODS, hidden="bag order", mask=_bag_mask),  # goods, first drawn first
    Field("stock", tuple, Codec(lambda s, st: {st.goods[i]: v for i, v in enumerate(s)}, _stock_in)),
    Field("discard", tuple, CARDS, default=()),
    Field("removed", tuple, CARDS),  # cards put back in the box for this player count
    Field("offer_idx", tuple, Codec(lambda o, st: [st.cat.cards[c].id if c >= 0 else None for c in o], _offer_in),
          key="offer", default=()),  # the card on each water space, -1 where it was bought or discarded
    Field("cargo_idx", tuple, Codec(lambda cs, st: [_goods_out(c, st) for c in cs], _cargo_in), key="cargo",
          default=()),  # the goods on each water space's ship
    Field("columns", list, Codec(lambda cs, st: [list(c) for c in cs], _columns_in), copy="list",
          default=list),  # per water space, the workers above it (a seat, + GREY for a grey worker)
    Field("placed", int, INT, default=0),  # workers placed this round
    Field("space", int, INT, default=0),  # the water space being bought
    Field("bought", int, Codec(lambda b, st: [i for i in range(st.n_players) if b >> i & 1], _bought_in),
          default=0),  # seats that bought this round, as bits
    Field("loading_turn", int, INT, default=0),
    Field("dock", tuple, GOODS, default=()),  # cubes waiting to be loaded this turn
    Field("moved", int, Codec(_moved_out, _moved_in), default=0),  # moves into/out of the stores this turn (bits)
    Field("seats", list, Codec(_seats_out, _seats_in), copy="list"),  # copy-on-write seats (BaseState._seat)
    Field("kai", object, Codec(_part_out, _part_in), copy="cow", at="end", present=lambda st: st.expansion is not None,
          default=None),  # the expansion's part (copy-on-write: part_set), None in the base game
)
