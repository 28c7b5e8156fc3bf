"""Set-up of Die Speicherstadt, loading a state from JSON, and the invariants every state keeps."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from ...engine.errors import RecordError
from ...engine.events import Event
from ...engine.rng import Rng
from ...engine.setup import check_seats, started, state_catalog, state_field, state_from_data
from .catalog import Catalog, load_catalog
from .state import PHASES, STATE_FORMAT, Notation, Seat, State, hooks_for

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


def _context(cat: Catalog, expansion: str | None) -> dict[str, Any]:
    """The fields every position of a game shares: its catalogue, expansion, goods in play, notation and rules."""
    return {"cat": cat, "goods": play_goods(cat, expansion), "notation": _notation(cat, expansion),
            "expansion": expansion, "hooks": hooks_for(expansion)}


def _blank(cat: Catalog, expansion: str | None, **fields: Any) -> State:
    """A new position: its game-wide fields and ``fields`` set, every other field its declared default (a field
    without one that is not given is a TypeError naming it: no new field is forgotten here or in a scenario)."""
    return State.schema.build(State, **_context(cat, expansion), **fields)  # type: ignore[no-any-return]


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
    st = _blank(cat, expansion, names=seat_names, n_players=n, removed=tuple(removed), round=1, phase="demand",
                first=first_player, pile=tuple(pile), bag=tuple(order), stock=(0,) * len(goods),
                seats=[Seat(len(goods), cat.setup["coins"]) for _ in range(n)])
    ev: list[Event] = []
    st._start_round(ev)
    return started(st, ev)  # type: ignore[no-any-return]


# ---- loading a state ---------------------------------------------------------------------------


def from_dict(d: dict[str, Any]) -> State:
    """A position of Die Speicherstadt (with its expansion's part) from ``to_dict`` data, each field as ``fields.py``
    declares it; a RecordError names the field of anything malformed or inconsistent."""
    cat = state_catalog(d, STATE_FORMAT, load_catalog)
    expansion = d.get("expansion")
    if expansion not in EXPANSIONS:
        raise RecordError(f"state field 'expansion': {expansion!r} is not available")
    n = state_field(d, "players", int)
    if str(n) not in cat.setup["offer_size"]:
        raise RecordError(f"state field 'players': {n} is not a valid player count")
    # the game's own fields at ("body", "end"): a seat's derived values follow from its cards
    return state_from_data(State, d, n, PHASES, _context(cat, expansion), check_invariants,  # type: ignore[no-any-return]
                           at=("body", "end"))


# ---- invariants --------------------------------------------------------------------------------


def check_invariants(st: State) -> list[str]:
    """Everything that must hold in every state; returns the violations (empty when all is well)."""
    problems: list[str] = []
    cat = st.cat
    n = st.n_players
    setup = cat.setup
    total = len(_bag_multiset(cat, st.expansion))
    part_cubes, part_cards = st.hooks.part_pieces(st)  # what an expansion's part of the position holds
    cubes = len(st.bag) + sum(st.stock) + sum(len(c) for c in st.cargo_idx) + len(st.dock) + part_cubes
    for s in st.seats:
        cubes += len(s.unload) + len(s.warehouse) + len(s.hall) + sum(len(p) for _, p in s.contracts)
    if cubes != total:
        problems.append(f"{cubes} cubes accounted for, not {total}")
    places: list[int] = [*st.pile, *st.discard, *st.removed, *(c for c in st.offer_idx if c >= 0), *part_cards]
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
    if st.phase in ("demand", "purchase", "loading") and st.to_move is None:
        problems.append(f"no seat to move in the {st.phase} phase")
    problems += st.hooks.flow_problems(st)  # the order of play: the base game's, or an expansion's
    if st.phase == "loading" and st.to_move != (st.first + st.loading_turn) % n:
        problems.append("the seat to move in loading is out of turn")
    if st.phase == "over" and st.to_move is not None:
        problems.append("a seat is to move after the game is over")
    if st.to_move is not None and not problems and len(st._compute_legal()) < 2:
        problems.append(f"seat {st.to_move} is asked to decide with fewer than two legal actions")
    return problems
