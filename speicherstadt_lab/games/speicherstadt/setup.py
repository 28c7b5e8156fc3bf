"""Set-up of Die Speicherstadt, loading a state from JSON, and the invariants every state keeps."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from ...engine.datafiles import is_key
from ...engine.errors import RecordError
from ...engine.events import Event
from ...engine.rng import Rng
from ...engine.setup import check_seats, consistent, seat_entries, state_catalog, state_field, state_seat, state_start
from . import kaispeicher as kai_rules
from .catalog import Catalog, load_catalog
from .state import PHASES, STATE_FORMAT, Notation, Seat, State, _bit, hooks_for

EXPANSIONS = (None, "kaispeicher")
_notations: dict[tuple[Any, ...], Notation] = {}


def play_goods(cat: Catalog, expansion: str | None) -> tuple[str, ...]:
    """The goods in play: the base game's, plus the expansion's when it is used (catalogue order)."""
    return tuple(g.id for g in cat.goods if g.expansion in (None, expansion))


def _notation(cat: Catalog, expansion: str | None) -> Notation:
    """The parser, action cache and per-step set-up numbers for a catalogue and expansion."""
    goods = play_goods(cat, expansion)
    key = (cat.digest, goods, expansion)
    if key not in _notations:
        nt = Notation(goods)
        nt.needs = tuple(tuple(c.goods.count(g) for g in goods) for c in cat.cards)
        nt.kinds = tuple(c.kind for c in cat.cards)
        nt.of_kind = {kind: frozenset(c.idx for c in cat.cards if c.kind == kind) for kind in set(nt.kinds)}
        st = cat.setup
        nt.spaces, nt.workers, nt.hall_cap = st["building_spaces"], st["workers"], st["hall_capacity"]
        nt.k_convert, nt.k_sell = st["hall_convert"], st["hall_sell"]
        nt.income = st["income"]
        if expansion is not None:
            ext = st.get(expansion, {})
            nt.workers = ext.get("workers", nt.workers)
            nt.income = ext.get("income", nt.income)
            nt.grey_workers = ext.get("grey_workers", 2)
            nt.break_cards = ext.get("break_cards", 2)
        _notations[key] = nt
    return _notations[key]


def _check_expansion(expansion: str | None) -> None:
    if expansion not in EXPANSIONS:
        raise ValueError(f"expansion: {expansion!r} is not available; choose from {list(EXPANSIONS)}")


def _check_players(cat: Catalog, players: Any) -> int:
    sizes = cat.setup["offer_size"]
    if not isinstance(players, int) or str(players) not in sizes:
        raise ValueError(f"players: Die Speicherstadt is for {min(map(int, sizes))} to {max(map(int, sizes))} "
                         f"players, not {players!r}")
    return players


_game_cards: dict[tuple[str, int, str | None], tuple[list[int], list[int]]] = {}


def game_cards(cat: Catalog, players: int, expansion: str | None = None) -> tuple[list[int], list[int]]:
    """(cards in play, cards removed to the box) for this player count (fresh lists, cached data)."""
    key = (cat.digest, players, expansion)
    if key not in _game_cards:
        _game_cards[key] = _compute_game_cards(cat, players, expansion)
    cards, removed = _game_cards[key]
    return list(cards), list(removed)


def _compute_game_cards(cat: Catalog, players: int, expansion: str | None) -> tuple[list[int], list[int]]:
    removed_ids = set(cat.setup.get("removed", {}).get(str(players), []))
    if expansion is not None:
        removed_ids |= set(cat.setup.get(expansion, {}).get("removed", {}).get(str(players), []))
    in_game = [c for c in cat.cards if c.expansion in (None, expansion)]
    removed = [c.idx for c in in_game if c.id in removed_ids]
    return [c.idx for c in in_game if c.id not in removed_ids], removed


def _standard_pile(cat: Catalog, players: int, seed: int | str, expansion: str | None) -> list[int]:
    cards, _ = game_cards(cat, players, expansion)
    rng = Rng(seed, "deck")
    pile: list[int] = []
    by_season: dict[str, list[int]] = {}
    for c in cards:
        by_season.setdefault(cat.cards[c].season, []).append(c)
    for season in ("A", "B", "C", "D", "E"):
        group = by_season.get(season, [])
        rng.shuffle(group)
        pile.extend(group)
    return pile


def standard_deck(players: int = 4, seed: int | str = 0, *, expansion: str | None = None,
                  catalog: str | Path | dict[str, Any] | Catalog | None = None) -> list[str]:
    """The draw pile ``new_game`` would stack with this seed: card ids, top first."""
    cat = load_catalog(catalog)
    _check_expansion(expansion)
    _check_players(cat, players)
    return [cat.cards[c].id for c in _standard_pile(cat, players, seed, expansion)]


def _bag_multiset(cat: Catalog, expansion: str | None) -> list[int]:
    """Every cube of the game, as indices into the goods in play."""
    out: list[int] = []
    for i, g in enumerate(g for g in cat.goods if g.expansion in (None, expansion)):
        out.extend([i] * g.count)
    return out


def _blank(cat: Catalog, expansion: str | None) -> State:
    """A state with its game-wide fields set; the callers fill in the position."""
    st = State.__new__(State)
    st._gen = 0
    st._legal = None
    st.cat = cat
    st.goods = play_goods(cat, expansion)
    st.notation = _notation(cat, expansion)
    st.expansion = expansion
    st.hooks = hooks_for(expansion)
    return st


def new_game(*, players: int = 4, seed: int | str = 0, deck: list[str] | None = None,
             bag: list[str] | None = None, first_player: int = 0, expansion: str | None = None,
             catalog: str | Path | dict[str, Any] | Catalog | None = None,
             names: list[str] | None = None) -> State:
    """A new game of Die Speicherstadt at its first decision (round 1, demand). The game's public
    ``new_game`` (``scenario.new_game``) also starts from a described position."""
    _check_expansion(expansion)
    cat = load_catalog(catalog)
    n = _check_players(cat, players)
    seat_names = check_seats(n, first_player, names)
    cards, removed = game_cards(cat, n, expansion)
    by_id = cat.by_id
    if deck is None:
        pile = _standard_pile(cat, n, seed, expansion)
    else:
        unknown = [x for x in deck if x not in by_id]
        if unknown:
            raise ValueError(f"deck: unknown card id(s) {unknown[:5]}")
        pile = [by_id[x].idx for x in deck]
        if Counter(pile) != Counter(cards):
            want, got = Counter(cards), Counter(pile)
            missing = [cat.cards[c].id for c in (want - got)]
            extra = [cat.cards[c].id for c in (got - want)]
            raise ValueError(f"deck: not the legal set of cards for {n} players (missing {missing}, extra {extra})")
        if cat.cards[pile[-1]].season != "E":
            raise ValueError("deck: the 4th fire (season E) must be at the bottom of the pile")
    goods = play_goods(cat, expansion)
    full_bag = _bag_multiset(cat, expansion)
    if bag is None:
        order = list(full_bag)
        Rng(seed, "bag").shuffle(order)
    else:
        gi = {g: i for i, g in enumerate(goods)}
        bad = [x for x in bag if x not in gi]
        if bad:
            raise ValueError(f"bag: unknown good(s) {bad[:5]}; goods are {list(goods)}")
        order = [gi[x] for x in bag]
        if Counter(order) != Counter(full_bag):
            counts = ", ".join(f"{g.count} {g.id}" for g in cat.goods if g.expansion in (None, expansion))
            raise ValueError(f"bag: must hold exactly the game's {len(full_bag)} cubes ({counts})")
    st = _blank(cat, expansion)
    st.names = seat_names
    st.n_players = n
    st.removed = tuple(removed)
    st.round = 1
    st.phase = "demand"
    st.first = first_player
    st.pile = tuple(pile)
    st.bag = tuple(order)
    st.stock = (0,) * len(goods)
    st.discard = ()
    st.offer_idx = ()
    st.cargo_idx = ()
    st.columns = []
    st.placed = 0
    st.space = 0
    st.bought = 0
    st.loading_turn = 0
    st.dock = ()
    st.moved = 0
    st.kai = None
    st.seats = [Seat(len(goods), cat.setup["coins"]) for _ in range(n)]
    st.to_move = None
    st.last_round = False
    st.last_action = None
    st.observer = None
    ev: list[Event] = []
    st._start_round(ev)
    st._advance(ev)
    st.events = tuple(ev)
    return st


# ---- loading a state ---------------------------------------------------------------------------


def from_dict(d: dict[str, Any]) -> State:
    """Rebuild a state from ``to_dict`` data; reject anything malformed or inconsistent, naming the field."""
    cat = state_catalog(d, STATE_FORMAT, load_catalog)
    expansion = d.get("expansion")
    if expansion not in EXPANSIONS:
        raise RecordError(f"state field 'expansion': {expansion!r} is not available")
    n = state_field(d, "players", int)
    if str(n) not in cat.setup["offer_size"]:
        raise RecordError(f"state field 'players': {n} is not a valid player count")
    by_id = cat.by_id
    goods = play_goods(cat, expansion)
    gi = {g: i for i, g in enumerate(goods)}

    def cards(key: str, v: Any) -> tuple[int, ...]:
        if not isinstance(v, list) or any(not is_key(x, by_id) for x in v):
            raise RecordError(f"state field '{key}': must be a list of card ids of the catalogue")
        return tuple(by_id[x].idx for x in v)

    def gl(key: str, v: Any) -> tuple[int, ...]:
        if not isinstance(v, list) or any(not is_key(x, gi) for x in v):
            raise RecordError(f"state field '{key}': must be a list of goods {list(goods)}")
        return tuple(gi[x] for x in v)

    st = _blank(cat, expansion)
    state_start(st, d, n, PHASES)
    st.removed = cards("removed", d.get("removed"))
    st.first = state_seat(state_field(d, "first", int), "first", n)
    st.to_move = state_seat(d.get("to_move"), "to_move", n, null=True)
    st.last_round = bool(state_field(d, "last_round", bool))
    st.pile = cards("pile", d.get("pile"))
    st.bag = gl("bag", d.get("bag"))
    stock = state_field(d, "stock", dict)
    if set(stock) != set(goods) or any(not isinstance(v, int) or v < 0 for v in stock.values()):
        raise RecordError("state field 'stock': must give a count ≥ 0 for every good")
    st.stock = tuple(stock[g] for g in goods)
    st.discard = cards("discard", d.get("discard"))
    offer = state_field(d, "offer", list)
    if any(x is not None and not is_key(x, by_id) for x in offer):
        raise RecordError("state field 'offer': must list card ids or null")
    st.offer_idx = tuple(by_id[x].idx if x is not None else -1 for x in offer)
    cargo = state_field(d, "cargo", list)
    cols = state_field(d, "columns", list)
    if len(cargo) != len(offer) or len(cols) != len(offer):
        raise RecordError("state fields 'cargo'/'columns': one entry per water space")
    st.cargo_idx = tuple(gl("cargo", c) for c in cargo)
    for c in cols:
        if not isinstance(c, list) or any(not isinstance(x, int) or not 0 <= x & ~8 < n or x >= 16 for x in c):
            raise RecordError("state field 'columns': lists of seats (a grey worker of seat s is s + 8)")
    st.columns = [tuple(c) for c in cols]
    st.placed = state_field(d, "placed", int)
    st.space = state_field(d, "space", int)
    bought = state_field(d, "bought", list)
    st.bought = sum(1 << i for i in bought if isinstance(i, int) and 0 <= i < n)
    st.loading_turn = state_field(d, "loading_turn", int)
    st.dock = gl("dock", d.get("dock"))
    st.moved = 0
    moved = d.get("moved", [])
    if not isinstance(moved, list):
        raise RecordError("state field 'moved': must be a list of [in|out, warehouse|hall, good]")
    for m in moved:
        if (not isinstance(m, list) or len(m) != 3 or m[0] not in ("in", "out") or m[1] not in ("warehouse", "hall")
                or not is_key(m[2], gi)):
            raise RecordError("state field 'moved': entries are [in|out, warehouse|hall, good]")
        st.moved |= 1 << _bit(("in", "out").index(m[0]), ("warehouse", "hall").index(m[1]), gi[m[2]], len(goods))
    st.seats = []
    for i, (where, s) in enumerate(seat_entries(d, n)):
        seat = Seat(len(goods), 0)
        seat.coins = state_field(s, "coins", int, where)
        if seat.coins < 0:
            raise RecordError(f"{where} field 'coins': negative")
        seat.track = state_field(s, "track", int, where)
        seat.cards = cards(f"seats[{i}].cards", s.get("cards"))
        contracts = state_field(s, "contracts", list, where)
        cs = []
        for c in contracts:
            if not isinstance(c, list) or len(c) != 2 or not is_key(c[0], by_id):
                raise RecordError(f"{where} field 'contracts': entries are [card id, [goods]]")
            cs.append((by_id[c[0]].idx, gl(f"seats[{i}].contracts", c[1])))
        seat.contracts = tuple(cs)
        seat.warehouse = gl(f"seats[{i}].warehouse", s.get("warehouse"))
        seat.hall = gl(f"seats[{i}].hall", s.get("hall"))
        seat.unload = gl(f"seats[{i}].unload", s.get("unload"))
        if expansion is not None:
            seat.breaks = state_field(s, "breaks", int, where)
            seat.grey = state_field(s, "grey", int, where)
            seat.delivered = state_field(s, "delivered", int, where)
        _derive(cat, seat, gi)
        st.seats.append(seat)
    st.kai = None
    if expansion is not None:
        st.kai = kai_rules.from_dict(d.get("kai"), n, by_id, gi,
                                     lambda f, m: RecordError(f"state field '{f}': {m}"))
    return consistent(st, check_invariants)  # type: ignore[no-any-return]


def _derive(cat: Catalog, seat: Seat, gi: dict[str, int]) -> None:
    """Per-seat values that follow from the cards owned."""
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


# ---- invariants --------------------------------------------------------------------------------


def check_invariants(st: State) -> list[str]:
    """Everything that must hold in every state; returns the violations (empty when all is well)."""
    problems: list[str] = []
    cat = st.cat
    n = st.n_players
    setup = cat.setup
    total = len(_bag_multiset(cat, st.expansion))
    cubes = len(st.bag) + sum(st.stock) + sum(len(c) for c in st.cargo_idx) + len(st.dock)
    kai = st.kai
    if kai is not None:
        cubes += sum(len(c) for c in kai.top_cargo) + sum(len(cs) for _c, _w, cs in kai.reserved[kai.rpos:])
    for s in st.seats:
        cubes += len(s.unload) + len(s.warehouse) + len(s.hall) + sum(len(p) for _, p in s.contracts)
    if cubes != total:
        problems.append(f"{cubes} cubes accounted for, not {total}")
    places: list[int] = [*st.pile, *st.discard, *st.removed, *(c for c in st.offer_idx if c >= 0)]
    if kai is not None:
        places += [c for c in kai.top if c >= 0] + [c for c, _w, _cs in kai.reserved[kai.rpos:]]
    for s in st.seats:
        places.extend(s.cards)
    expected, removed = game_cards(cat, n, st.expansion)
    if Counter(places) != Counter(expected + removed):
        problems.append("some card is missing or in two places")
    for i, s in enumerate(st.seats):
        if s.coins < 0:
            problems.append(f"seat {i} has negative coins")
        if len(s.warehouse) > (setup["warehouse_capacity"] if s.warehouse_cap else 0):
            problems.append(f"seat {i}'s warehouse holds {len(s.warehouse)} cubes")
        if len(s.hall) > setup["hall_capacity"]:
            problems.append(f"seat {i}'s market hall holds {len(s.hall)} cubes")
        own = set(s.cards)
        for ci, placed in s.contracts:
            card = cat.cards[ci]
            if ci not in own or card.kind != "contract":
                problems.append(f"seat {i} has a contract it does not own")
            elif Counter(st.goods[g] for g in placed) - Counter(card.goods):
                problems.append(f"seat {i} has goods on {card.id} that it does not take")
    for col in st.columns:
        if len(col) > setup["building_spaces"]:
            problems.append("more workers above a card than building spaces")
    if any(w & 7 >= n for col in st.columns for w in col):
        problems.append("a worker of a seat that does not play")
    regular = sum(1 for col in st.columns for w in col if w < 8)
    if kai is None and regular > n * setup["workers"]:
        problems.append("more workers placed than the players have")
    if st.phase in ("demand", "purchase", "loading") and st.to_move is None:
        problems.append(f"no seat to move in the {st.phase} phase")
    if kai is None and st.phase in ("spy", "fire"):
        problems.append(f"phase {st.phase!r} exists only with Kaispeicher")
    if kai is None and st.phase == "demand" and st.to_move != (st.first + st.placed) % n:
        problems.append("the seat to move in demand does not follow the metal coin")
    if kai is None and st.phase == "purchase" and (st.space >= len(st.columns) or not st.columns[st.space]
                                                   or st.to_move != st.columns[st.space][0]):
        problems.append("the seat to move in purchase is not the lowest worker")
    if st.phase == "loading" and st.to_move != (st.first + st.loading_turn) % n:
        problems.append("the seat to move in loading is out of turn")
    if st.phase == "over" and st.to_move is not None:
        problems.append("a seat is to move after the game is over")
    if kai is None and st.phase == "purchase" and st.to_move is not None and st.space < len(st.columns) \
            and st.columns[st.space]:
        price = len(st.columns[st.space])
        coins = st.seats[st.to_move].coins
        if coins < price:
            problems.append(f"seat {st.to_move} is asked to buy at price {price} with {coins} coins")
    if st.to_move is not None and not problems and len(st._compute_legal()) < 2:
        problems.append(f"seat {st.to_move} is asked to decide with fewer than two legal actions")
    return problems
