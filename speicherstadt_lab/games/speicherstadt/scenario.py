"""Scenarios of Die Speicherstadt: a position described as data, checked field by field and built into a state.

A scenario says what a teacher would say ("round 5, these cards on the water, Blue holds two contracts, the
next card is the 2nd fire") and nothing else: every card it does not place lies in the draw pile (season by
season, in the order a normal set-up with its ``seed`` gives), every cube it does not place is in the bag.
``new_game(scenario=data)`` calls :func:`build`; :func:`scenario_of` describes any position as such data, so a
position of a game can be saved as a scenario file and changed. The format is in ``docs/record-format.md``
(*Scenarios*); an error names the field at fault (:class:`ScenarioError`) and nothing is built.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from ...engine.datafiles import read_scenario_file
from ...engine.errors import RearrangeError, ScenarioError, shown
from ...engine.events import Event
from ...engine.rng import Rng
from ...engine.scenario import SCENARIO_FORMAT, ScenarioReader
from . import kaispeicher as kai_rules
from . import setup
from .catalog import Card, load_catalog
from .fields import derive
from .setup import EXPANSIONS, _bag_multiset, _blank, _standard_pile, check_invariants, game_cards
from .state import Seat, State, _bit

PHASES = ("demand", "purchase", "loading", "over")
#: A Die Speicherstadt scenario's own fields (besides format, game, title, text, catalog, players, seed, names).
FIELDS = ("expansion", "round", "first", "phase", "water", "cargo", "top", "top_cargo", "workers", "pile_next",
          "bag_next", "discard", "stock", "bought", "loading", "dock", "moved", "seats")
SEAT_FIELDS = ("coins", "track", "cards", "contracts", "warehouse", "hall", "unload")
KAI_SEAT_FIELDS = ("breaks", "grey", "delivered")
#: What a record's set-up keeps of a scenario: the rest, because its ``deck`` and ``bag`` hold the whole order.
RECORD_DROPS = ("seed", "pile_next", "bag_next")
_USED_UP = ("savings_bank", "thief")  # Kaispeicher cards that leave at once when bought


def read(data: Any) -> Any:
    """The scenario's data: ``data`` itself, or a ``.json`` file's content when it is a path (json only)."""
    return read_scenario_file(data) if isinstance(data, str | Path) else data


def new_game(*, scenario: dict[str, Any] | str | Path | None = None, players: int = 4, seed: int | str = 0,
             deck: list[str] | None = None, bag: list[str] | None = None, first_player: int = 0,
             expansion: str | None = None, catalog: Any = None, names: list[str] | None = None) -> State:
    """A new game of Die Speicherstadt at its first decision (round 1, demand), or from a described position.

    ``scenario``: start from a described position instead (a dict, or the path of a ``.json`` file read with
    json only; ``docs/record-format.md``). It holds the players, expansion, names and first player itself;
    ``seed`` shuffles what it leaves open (unless it has a seed of its own), and ``deck`` and ``bag`` are then
    the whole pile and bag at its start, as a record keeps them. Without it: ``setup.new_game``.
    """
    if scenario is None:
        return setup.new_game(players=players, seed=seed, deck=deck, bag=bag, first_player=first_player,
                              expansion=expansion, catalog=catalog, names=names)
    if players != 4 or first_player != 0 or expansion is not None or catalog is not None or names is not None:
        raise ValueError("scenario: give the players, first player, expansion, catalogue and names inside the "
                         "scenario, not as arguments")
    return build(scenario, seed=seed, deck=deck, bag=bag)[0]


def build(data: Any, *, seed: int | str = 0, deck: Any = None, bag: Any = None) -> tuple[State, list[str], list[str]]:
    """The position ``data`` describes, at its first decision, and the whole draw pile (top first) and bag (first
    drawn first) at its start, before the scenario's own supply or ships drew from them.

    ``data``: the scenario (a dict) or the path of a ``.json`` file. ``seed`` shuffles what the scenario leaves
    open when it has no ``seed`` of its own. ``deck`` and ``bag`` set the whole pile and bag instead of
    ``pile_next`` and ``bag_next`` (a record's set-up keeps them, so it rebuilds the same state whatever the seed).
    Raises :class:`ScenarioError` naming the field; nothing is half-built.
    """
    return _Builder(read(data), seed).run(deck, bag)


def scenario_setup(data: Any, seed: int | str = 0) -> dict[str, Any]:
    """The ``new_game`` arguments a record keeps for a game started from ``data``: ``{"scenario": ..., "deck":
    [...], "bag": [...]}``, the hidden order materialized.

    ``pile_next``, ``bag_next`` and ``seed`` are then in ``deck`` and ``bag`` and left out of ``scenario``."""
    data = read(data)
    _state, deck, bag = build(data, seed=seed)
    rest = {k: v for k, v in data.items() if k not in RECORD_DROPS}
    return {"scenario": json.loads(json.dumps(rest)), "deck": deck, "bag": bag}


class _Builder(ScenarioReader):
    """One scenario being checked and built (use :func:`build`)."""

    def __init__(self, data: Any, seed: int | str) -> None:
        super().__init__(data, game="speicherstadt", fields=FIELDS, seed=seed, load_catalog=load_catalog)
        self.d = self.data
        self.where: dict[int, str] = {}  # card -> the field that placed it

    # ---- the top level ------------------------------------------------------------------------------------

    def run(self, deck: Any, bag: Any) -> tuple[State, list[str], list[str]]:
        self._top()
        self._place_cards()
        self._cubes()
        self._people()
        st = self._hidden_order(self._state(), deck, bag)
        start_pile = [self.cat.cards[c].id for c in st.pile]
        start_bag = [st.goods[g] for g in st.bag]
        self._start(st)
        problems = check_invariants(st)
        if problems:
            raise ScenarioError("", "the position is not one the rules allow: " + "; ".join(problems[:3]))
        return st, start_pile, start_bag

    def _top(self) -> None:
        # format, game, title, text, catalogue, players, seed and names are checked by ScenarioReader
        d, n = self.d, self.n
        self.expansion = d.get("expansion")
        if self.expansion not in EXPANSIONS:
            raise ScenarioError("expansion", f"must be null or 'kaispeicher', not {shown(self.expansion)}")
        sizes = self.cat.setup["offer_size"]
        if str(n) not in sizes:  # a user's catalogue may lay out fewer player counts
            raise ScenarioError("players", f"must be {min(map(int, sizes))} to {max(map(int, sizes))}, not {n}")
        self.round = self.number("round", d.get("round", 1), low=1)
        self.first = self.seat("first", d.get("first", 0))
        self.phase = phase = self.one_of("phase", d.get("phase", "demand"), PHASES)
        self.kai = self.expansion is not None
        if self.kai and phase != "demand":
            raise ScenarioError("phase", "with Kaispeicher a scenario starts at the demand of a round, before the "
                                         "first worker")
        self.goods = tuple(g.id for g in self.cat.goods if g.expansion in (None, self.expansion))
        self.gi = {g: i for i, g in enumerate(self.goods)}
        cards, removed = game_cards(self.cat, n, self.expansion)
        self.in_game, self.removed = set(cards), removed
        self.k = int(sizes[str(n)])
        self.workers = self.cat.setup["workers"]
        if self.kai:
            self.workers = self.cat.setup.get(self.expansion, {}).get("workers", self.workers)

    # ---- small checks -------------------------------------------------------------------------------------

    # The checks of one value every game's scenario has (number, seat, entries, card_of) are ScenarioReader's.

    def _card(self, field: str, value: Any) -> Card:
        """The card ``value`` names, placed at ``field``: known, in this game, in one place only."""
        card: Card = self.card_of(field, value)
        if card.idx in self.removed:
            raise ScenarioError(field, f"card {value!r} is not in a game for {self.n} players (it stays in the box)")
        if card.idx not in self.in_game:
            raise ScenarioError(field, f"card {value!r} belongs to the expansion {card.expansion!r}, which this "
                                       "scenario does not use ('expansion')")
        if card.idx in self.where:
            raise ScenarioError(field, f"card {value!r} is already at '{self.where[card.idx]}'; a card cannot be in "
                                       "two places")
        if card.season == "E" and self.phase != "over":
            raise ScenarioError(field, f"card {value!r} (season 'E') lies at the bottom of the draw pile until the "
                                       "game ends")
        self.where[card.idx] = field
        return card

    def _on_water(self, field: str, value: Any) -> int:
        card = self._card(field, value)
        if card.kind == "fire":
            raise ScenarioError(field, f"card {value!r} is a fire; a fire burns when it is drawn and then lies in "
                                       "'discard'")
        return card.idx

    # ---- cards --------------------------------------------------------------------------------------------

    def _place_cards(self) -> None:
        d = self.d
        water = d.get("water")
        self.supply = water is None and self.phase == "demand"  # the round starts with a supply from the pile
        self.offer: list[int] = []
        if water is None:
            if self.phase == "purchase":
                raise ScenarioError("water", "give the cards on the water (null where one was sold) in purchase")
            if self.phase in ("loading", "over"):
                self.offer = [-1] * self.k
        else:
            water = self.entries("water", water)
            if not 1 <= len(water) <= self.k:
                raise ScenarioError("water", f"{self.n} players have {self.k} water spaces; give 1 to {self.k} "
                                             f"entries, not {len(water)}")
            for i, x in enumerate(water):
                if x is None:
                    if self.phase == "demand":
                        raise ScenarioError(f"water[{i}]", "a water space is empty only once its card was sold or "
                                                           "discarded (purchase, loading)")
                    self.offer.append(-1)
                elif self.phase in ("loading", "over"):
                    raise ScenarioError(f"water[{i}]", f"every card on the water is sold or discarded by the "
                                                       f"{self.phase} phase: give null or leave out 'water'")
                else:
                    self.offer.append(self._on_water(f"water[{i}]", x))
        self.top: list[int] = []
        top = d.get("top")
        if top is not None and not self.kai:
            raise ScenarioError("top", "the top row exists only with Kaispeicher")
        if self.kai and (top is None) != (water is None):
            raise ScenarioError("top" if top is None else "water", "with Kaispeicher give both 'water' and 'top' "
                                                                    "(the supply fills both), or neither")
        if top is not None:
            top = self.entries("top", top)
            if not len(top) <= self.k:
                raise ScenarioError("top", f"the top row has {self.k} spaces, not {len(top)}")
            self.top = [self._on_water(f"top[{i}]", x) for i, x in enumerate(top)]
        seats = d.get("seats")
        seats = [{}] * self.n if seats is None else self.entries("seats", seats)
        if len(seats) != self.n:
            raise ScenarioError("seats", f"give one entry per player ({self.n}), not {len(seats)}")
        self.seat_cards: list[list[int]] = []
        self.seat_contracts: list[list[tuple[Card, list[Any]]]] = []
        for i, s in enumerate(seats):
            self._seat_cards(i, s)
        discard = self.entries("discard", d.get("discard"))
        self.discard = [self._card(f"discard[{j}]", x).idx for j, x in enumerate(discard)]
        pile = [c for c in _standard_pile(self.cat, self.n, self.seed, self.expansion) if c not in self.where]
        if self.phase == "over":  # the game is over: what was never placed has left play
            self.discard += pile
            pile = []
        self.pile = pile

    def _seat_cards(self, i: int, s: Any) -> None:
        where = f"seats[{i}]"
        if not isinstance(s, dict):
            raise ScenarioError(where, f"must be an object, not {shown(s)}")
        allowed = SEAT_FIELDS + (KAI_SEAT_FIELDS if self.kai else ())
        for key in s:
            if key not in allowed:
                extra = " (breaks, grey and delivered only with Kaispeicher)" if key in KAI_SEAT_FIELDS else ""
                raise ScenarioError(f"{where}.{key}", f"unknown field; a seat has {', '.join(allowed)}{extra}")
        cards = []
        for j, x in enumerate(self.entries(f"{where}.cards", s.get("cards"))):
            field = f"{where}.cards[{j}]"
            card = self._card(field, x)
            if card.kind == "contract":
                raise ScenarioError(field, f"card {x!r} is a contract; contracts go in '{where}.contracts'")
            if card.kind == "fire":
                raise ScenarioError(field, f"card {x!r} is a fire; a burnt fire lies in 'discard'")
            if card.kind in _USED_UP:
                raise ScenarioError(field, f"card {x!r} is used up when it is bought; it lies in 'discard'")
            cards.append(card.idx)
        contracts = []
        for j, x in enumerate(self.entries(f"{where}.contracts", s.get("contracts"))):
            field = f"{where}.contracts[{j}]"
            goods: Any = []
            if isinstance(x, dict):
                if not set(x) <= {"card", "goods"} or "card" not in x:
                    raise ScenarioError(field, 'a contract is its card id, or {"card": id, "goods": [goods on it]}')
                x, goods = x["card"], x.get("goods")
                card = self._card(f"{field}.card", x)
            else:
                card = self._card(field, x)
            if card.kind != "contract":
                raise ScenarioError(field, f"card {x!r} is a {card.kind}, not a contract; it goes in '{where}.cards'")
            contracts.append((card, goods))
        self.seat_cards.append(cards)
        self.seat_contracts.append(contracts)

    # ---- cubes --------------------------------------------------------------------------------------------

    def _good(self, field: str, value: Any) -> int:
        """The good ``value`` names, one cube of it taken out of the bag for ``field``."""
        if not isinstance(value, str) or value not in self.gi:
            raise ScenarioError(field, f"unknown good {shown(value)}; goods are {', '.join(self.goods)}")
        g = self.gi[value]
        if self.left[g] <= 0:
            raise ScenarioError(field, f"the game has only {self.total[g]} {value} cubes, and every one is named "
                                       "already")
        self.left[g] -= 1
        return g

    def _goods(self, field: str, value: Any) -> tuple[int, ...]:
        return tuple(sorted(self._good(f"{field}[{j}]", x) for j, x in enumerate(self.entries(field, value))))

    def _cubes(self) -> None:
        d = self.d
        self.total = Counter(_bag_multiset(self.cat, self.expansion))
        self.left = Counter(self.total)
        self.cargo = self._cargo("cargo", "water", self.offer)
        self.top_cargo = self._cargo("top_cargo", "top", self.top)
        dock = d.get("dock")
        if dock is not None and self.phase != "loading":
            raise ScenarioError("dock", "cubes lie on the dock only in the loading phase")
        self.dock_given = dock is not None
        self.dock = self._goods("dock", dock)
        stock = d.get("stock")
        if stock is None:
            stock = {}
        if not isinstance(stock, dict):
            raise ScenarioError("stock", "must be an object: {good: number of cubes in the stock}")
        counts = [0] * len(self.goods)
        for name, count in stock.items():
            field = f"stock.{name}"
            if name not in self.gi:
                raise ScenarioError(field, f"unknown good; goods are {', '.join(self.goods)}")
            for _ in range(self.number(field, count, low=0)):
                counts[self._good(field, name)] += 1
        self.stock = tuple(counts)
        self.seats: list[Seat] = []
        raw = d.get("seats") or [{}] * self.n
        for i, s in enumerate(raw):
            self.seats.append(self._seat_goods(i, s))
        bag = list(_bag_multiset(self.cat, self.expansion))
        Rng(self.seed, "bag").shuffle(bag)
        rest, skip = [], self.total - self.left
        for g in bag:
            if skip[g]:
                skip[g] -= 1
            else:
                rest.append(g)
        self.bag = rest

    def _cargo(self, key: str, of: str, spaces: list[int]) -> list[tuple[int, ...] | None]:
        """The cubes on each ship of ``of`` (``water`` or ``top``); None where the bag is to fill a ship."""
        raw = self.d.get(key)
        if raw is None:
            return [None] * len(spaces)
        if not spaces and self.d.get(of) is None:
            raise ScenarioError(key, f"give it with '{of}' (without '{of}' the supply draws the ships' cubes)")
        raw = self.entries(key, raw)
        if len(raw) != len(spaces):
            raise ScenarioError(key, f"one entry per space of '{of}' ({len(spaces)}), not {len(raw)}")
        out: list[tuple[int, ...] | None] = []
        for i, (ci, cubes) in enumerate(zip(spaces, raw, strict=True)):
            field = f"{key}[{i}]"
            card = self.cat.cards[ci] if ci >= 0 else None
            if cubes is None:
                out.append(None)
                continue
            got = self._goods(field, cubes)
            if got and (card is None or card.kind != "ship"):
                what = f"card {card.id!r} is not a ship" if card is not None else "the space is empty"
                raise ScenarioError(field, f"{what}; only ships carry goods")
            if card is not None and card.kind == "ship" and len(got) > card.capacity:
                raise ScenarioError(field, f"ship {card.id!r} carries {card.capacity} cubes, not {len(got)}")
            out.append(got)
        return out

    def _seat_goods(self, i: int, s: dict[str, Any]) -> Seat:
        where = f"seats[{i}]"
        setup = self.cat.setup
        seat = Seat(len(self.goods), setup["coins"])
        seat.coins = self.number(f"{where}.coins", s.get("coins", setup["coins"]), low=0)
        seat.track = self.number(f"{where}.track", s.get("track", 0))
        contracts = []
        for j, (card, goods) in enumerate(self.seat_contracts[i]):
            field = f"{where}.contracts[{j}].goods"
            wants = Counter(card.goods)
            placed = []
            for m, x in enumerate(self.entries(field, goods)):
                placed.append(self._good(f"{field}[{m}]", x))
                if wants[x] <= 0:
                    raise ScenarioError(f"{field}[{m}]", f"contract {card.id!r} takes {', '.join(card.goods)}; no "
                                                         f"(more) {x}")
                wants[x] -= 1
            contracts.append((card.idx, tuple(placed)))
        seat.cards = (*self.seat_cards[i], *(c for c, _ in contracts))
        seat.contracts = tuple(contracts)
        derive(self.cat, seat, self.gi)
        seat.warehouse = self._goods(f"{where}.warehouse", s.get("warehouse"))
        if len(seat.warehouse) > (setup["warehouse_capacity"] if seat.warehouse_cap else 0):
            why = (f"holds {setup['warehouse_capacity']} cubes" if seat.warehouse_cap else
                   "is used only with a Warehouse card in the seat's 'cards'")
            raise ScenarioError(f"{where}.warehouse", f"the warehouse {why}, not {len(seat.warehouse)}")
        seat.hall = self._goods(f"{where}.hall", s.get("hall"))
        if len(seat.hall) > setup["hall_capacity"]:
            raise ScenarioError(f"{where}.hall", f"the market hall keeps {setup['hall_capacity']} cube(s), not "
                                                 f"{len(seat.hall)}")
        seat.unload = self._goods(f"{where}.unload", s.get("unload"))
        if seat.unload and self.phase not in ("purchase", "loading"):
            raise ScenarioError(f"{where}.unload", "cubes wait to be unloaded only from a ship bought this round "
                                                   "(purchase, loading)")
        if self.kai:
            cards = [self.cat.cards[c] for c in seat.cards]
            seat.breaks = self.number(f"{where}.breaks", s.get("breaks", sum(c.breaks for c in cards
                                                                           if c.kind == "coffee_break")), low=0)
            seat.grey = self.number(f"{where}.grey", s.get("grey", sum(c.workers for c in cards
                                                                     if c.kind == "warehouse_workers")), low=0)
            seat.delivered = self.number(f"{where}.delivered", s.get("delivered", 0), low=0)
        return seat

    # ---- workers, purchases, loading ----------------------------------------------------------------------

    def _people(self) -> None:
        d, n = self.d, self.n
        workers = d.get("workers")
        self.columns: list[tuple[int, ...]] = [()] * len(self.offer)
        if workers is not None:
            if self.phase not in ("demand", "purchase") or self.kai:
                raise ScenarioError("workers", "workers stand above the cards only in demand and purchase (with "
                                               "Kaispeicher a scenario starts before the first worker)")
            if self.supply:
                raise ScenarioError("workers", "give the cards on the 'water' that the workers stand above")
            self._columns(self.entries("workers", workers))
        regular = sum(len(c) for c in self.columns)
        self.placed = regular if self.phase == "demand" else n * self.workers
        if self.phase == "demand" and workers is not None:
            self._turn_order(regular)
        bought = self.entries("bought", d.get("bought"))
        if bought and self.phase == "demand":
            raise ScenarioError("bought", "nothing is bought before the purchase phase")
        self.bought = 0
        for j, s in enumerate(bought):
            i = self.seat(f"bought[{j}]", s)
            if self.bought >> i & 1:
                raise ScenarioError(f"bought[{j}]", f"seat {i} is named twice")
            self.bought |= 1 << i
        loading = d.get("loading")
        if loading is not None and self.phase != "loading":
            raise ScenarioError("loading", "the seat whose loading turn it is: only in the loading phase")
        self.loading_turn = n if self.phase == "over" else 0
        self.to_move: int | None = None
        if self.phase == "loading":
            seat = self.seat("loading", self.first if loading is None else loading)
            self.loading_turn = (seat - self.first) % n
            for k in range(self.loading_turn):
                s = (self.first + k) % n
                if self.seats[s].unload:
                    raise ScenarioError(f"seats[{s}].unload", f"seat {s} has loaded this round already (it is seat "
                                                              f"{seat}'s turn); its ship's cubes are gone")
            if self.dock_given:
                if self.seats[seat].unload:
                    raise ScenarioError(f"seats[{seat}].unload", f"seat {seat}'s turn has begun: its ships' cubes "
                                                                 "lie on the 'dock'")
                self.to_move = seat
        self.moved = self._moved(d.get("moved"))

    def _columns(self, workers: list[Any]) -> None:
        if len(workers) != len(self.offer):
            raise ScenarioError("workers", f"one list per water space ({len(self.offer)}), not {len(workers)}")
        spaces = self.cat.setup["building_spaces"]
        count: Counter[int] = Counter()
        for i, col in enumerate(workers):
            field = f"workers[{i}]"
            col = self.entries(field, col)
            if col and self.offer[i] < 0:
                raise ScenarioError(field, "no worker stands above an empty water space")
            if len(col) > spaces:
                raise ScenarioError(field, f"a card has {spaces} building spaces above it, not {len(col)}")
            seats = tuple(self.seat(f"{field}[{j}]", s) for j, s in enumerate(col))
            count.update(seats)
            self.columns[i] = seats
        for s, c in sorted(count.items()):
            if c > self.workers:
                raise ScenarioError("workers", f"seat {s} has {self.workers} workers, not {c}")

    def _turn_order(self, placed: int) -> None:
        """In demand the workers go down in turn from the metal coin: each seat has placed its share so far."""
        n = self.n
        if placed >= n * self.workers:
            raise ScenarioError("workers", "every worker is placed: the position is in the purchase phase "
                                           "(\"phase\": \"purchase\")")
        count = Counter(s for col in self.columns for s in col)
        for s in range(n):
            want = placed // n + (1 if (s - self.first) % n < placed % n else 0)
            if count[s] != want:
                raise ScenarioError("workers", f"workers are placed in turn from the metal coin (seat {self.first}): "
                                               f"after {placed} placements seat {s} has {want}, not {count[s]}")

    def _moved(self, raw: Any) -> int:
        moved = 0
        entries = self.entries("moved", raw)
        if entries and not self.dock_given:
            raise ScenarioError("moved", "cubes moved in or out this turn exist only once a loading turn has begun "
                                         "('dock')")
        for j, m in enumerate(entries):
            if (not isinstance(m, list) or len(m) != 3 or m[0] not in ("in", "out")
                    or m[1] not in ("warehouse", "hall") or m[2] not in self.gi):
                raise ScenarioError(f"moved[{j}]", 'an entry is ["in" or "out", "warehouse" or "hall", good]')
            moved |= 1 << _bit(("in", "out").index(m[0]), ("warehouse", "hall").index(m[1]), self.gi[m[2]],
                               len(self.goods))
        return moved

    # ---- the state ----------------------------------------------------------------------------------------

    def _state(self) -> State:
        # every field not given here takes its declared default (fields.py); one without a default is a TypeError
        return _blank(self.cat, self.expansion, names=self.names, n_players=self.n, removed=tuple(self.removed),
                      round=self.round, phase=self.phase, first=self.first, pile=tuple(self.pile), bag=tuple(self.bag),
                      stock=self.stock, discard=tuple(self.discard), offer_idx=tuple(self.offer),
                      cargo_idx=tuple(c or () for c in self.cargo), columns=list(self.columns), placed=self.placed,
                      space=len(self.offer) if self.phase in ("loading", "over") else 0, bought=self.bought,
                      loading_turn=self.loading_turn, dock=self.dock, moved=self.moved, seats=self.seats,
                      to_move=self.to_move)

    def _hidden_order(self, st: State, deck: Any, bag: Any) -> State:
        """``st`` with the next cards and cubes set (``pile_next``, ``bag_next``; or the whole ``deck`` and ``bag``
        of a record), checked by the rules' own ``rearranged``."""
        parts: dict[str, Any] = {}
        for part, key, whole, size in (("pile", "pile_next", deck, len(st.pile)),
                                       ("bag", "bag_next", bag, len(st.bag))):
            given = self.d.get(key)
            if whole is not None:
                if given is not None:
                    raise ScenarioError(key, "the record's 'deck' and 'bag' set the whole order; leave this out")
                name = "deck" if part == "pile" else "bag"
                if not isinstance(whole, list) or len(whole) != size:
                    raise ScenarioError(name, f"must list the whole {'draw pile' if part == 'pile' else 'bag'} at the "
                                              f"scenario's start ({size}), not {shown(whole)}")
                given, key = whole, name
            if given is None:
                continue
            if part == "pile":
                self._not_elsewhere(key, given)
            parts[part] = (key, given)
        if not parts:
            return st
        try:
            return st.rearranged(**{part: given for part, (_key, given) in parts.items()})
        except RearrangeError as e:
            part, _, rest = e.field.partition("[")
            key = parts[part][0] if part in parts else e.field
            detail = e.detail
            if key == "pile_next" and "season" in detail:
                detail += " (every card the scenario does not place lies in the pile: list the cards that are gone in "\
                          "'discard')"
            raise ScenarioError(f"{key}[{rest}" if rest else key, detail) from None

    def _not_elsewhere(self, key: str, given: Any) -> None:
        """A clearer message than "not in the draw pile" for a card the scenario placed somewhere else."""
        if self.phase == "over" and given:
            raise ScenarioError(key, "the game is over: the draw pile is empty")
        for k, x in enumerate(given if isinstance(given, list) else ()):
            card = self.cat.by_id.get(x) if isinstance(x, str) else None
            if card is not None and card.idx in self.where:
                raise ScenarioError(f"{key}[{k}]", f"card {x!r} is at '{self.where[card.idx]}', not in the draw pile")
            if card is not None and card.idx in self.removed:
                raise ScenarioError(f"{key}[{k}]", f"card {x!r} is not in a game for {self.n} players")

    def _start(self, st: State) -> None:
        """Draw what the scenario leaves to the bag and the pile, then run the automatic steps to a decision."""
        ev: list[Event] = []
        if self.supply:
            st._start_round(ev)
        else:
            cargo = list(st.cargo_idx)
            top_cargo: list[tuple[int, ...]] = []
            for spaces, given, out in ((self.offer, self.cargo, cargo), (self.top, self.top_cargo, top_cargo)):
                for i, (ci, cubes) in enumerate(zip(spaces, given, strict=True)):
                    card = self.cat.cards[ci] if ci >= 0 else None
                    if cubes is None and card is not None and card.kind == "ship":
                        cubes = tuple(sorted(st.bag[: card.capacity]))
                        st.bag = st.bag[card.capacity:]
                    if out is cargo:
                        cargo[i] = cubes or ()
                    else:
                        top_cargo.append(cubes or ())
            st.cargo_idx = tuple(cargo)
            if self.kai:
                st.kai = kai_rules.Kai(top=tuple(self.top), top_cargo=tuple(top_cargo),
                                       left=(st.notation.workers,) * self.n, turn=self.first)
            if self.phase != "over":
                st.last_round = all(self.cat.cards[c].kind == "fire" for c in st.pile)
            if self.phase == "demand" and not self.placed:
                ev.extend(self._supply_events(st))
        if self.phase == "over":
            st.last_round = True
            st.finish(ev)
        else:
            st._advance(ev)
        st.events = tuple(ev)

    def _supply_events(self, st: State) -> list[Event]:
        """The events of the round's start, as if its supply had just come out."""
        cards, goods = self.cat.cards, st.goods
        ev = [Event("round", {"round": st.round, "seat": st.first}),
              Event("supply", {"cards": [cards[c].id for c in st.offer_idx]})]
        if st.kai is not None:
            ev.append(Event("supply_top", {"cards": [cards[c].id for c in st.kai.top]}))
        ev += [Event("ship", {"space": s, "goods": [goods[g] for g in cs]}) for s, cs in enumerate(st.cargo_idx) if cs]
        if st.kai is not None:
            ev += [Event("ship_top", {"space": s, "goods": [goods[g] for g in cs]})
                   for s, cs in enumerate(st.kai.top_cargo) if cs]
        if st.last_round:
            ev.append(Event("last_round", {}))
        return ev


# ---- a position as a scenario ------------------------------------------------------------------------------


def scenario_of(state: State, *, hidden: bool = False, before_supply: bool = False) -> dict[str, Any]:
    """``state``'s position as a scenario (JSON-ready): ``new_game(scenario=scenario_of(state))`` gives the same
    public position, its first decision being the one ``state`` is at.

    ``hidden``: also name the whole hidden order (``pile_next``, ``bag_next``), so the game goes on exactly as it
    would from ``state``; without it the scenario's ``seed`` shuffles what is not public. ``before_supply``: for a
    position at the start of a round's demand, the round before its supply (the cards drawn and the fires that
    burned are put back on top of the pile), so the scenario's start shows the supply and its fires again.
    Kaispeicher positions can be scenarios at the start of a round's demand only (ValueError otherwise).
    """
    cards, goods = state.cat.cards, state.goods
    if state.phase not in PHASES:
        raise ValueError(f"scenario_of: a position in the {state.phase!r} phase cannot be a scenario; take one at the "
                         "start of the round's demand")
    kai = state.kai
    if kai is not None and not _kai_at_demand_start(state):
        raise ValueError("scenario_of: with Kaispeicher only a position at the start of a round's demand (before the "
                         "first worker) can be a scenario")
    out: dict[str, Any] = {"format": SCENARIO_FORMAT, "game": "speicherstadt", "expansion": state.expansion,
                           "players": state.n_players}
    if state.names:
        out["names"] = list(state.names)
    if not state.cat.is_default:
        out["catalog"] = state.cat.raw
    out.update({"round": state.round, "first": state.first, "phase": state.phase})
    tracks = [s.track for s in state.seats]
    discard = [cards[c].id for c in state.discard]
    if before_supply:
        pile_next, bag_next = _before_supply(state, tracks, discard)
    else:
        pile_next, bag_next = [], []
        offer = [cards[c].id if c >= 0 else None for c in state.offer_idx]
        if state.phase in ("demand", "purchase") or len(offer) != state.cat.setup["offer_size"][str(state.n_players)]:
            out["water"] = offer
        if any(state.cargo_idx):
            out["cargo"] = [[goods[g] for g in cs] for cs in state.cargo_idx]
        if kai is not None:
            out["top"] = [cards[c].id for c in kai.top]
            if any(kai.top_cargo):
                out["top_cargo"] = [[goods[g] for g in cs] for cs in kai.top_cargo]
        if any(state.columns):
            out["workers"] = [list(c) for c in state.columns]
    if state.bought:
        out["bought"] = [i for i in range(state.n_players) if state.bought >> i & 1]
    if state.phase == "loading":
        out["loading"] = (state.first + state.loading_turn) % state.n_players
        if state.to_move is not None:
            out["dock"] = [goods[g] for g in state.dock]
        if state.moved:
            out["moved"] = state.to_dict()["moved"]
    if discard:
        out["discard"] = discard
    if any(state.stock):
        out["stock"] = {g: v for g, v in zip(goods, state.stock, strict=True) if v}
    out["seats"] = [_seat_of(state, i, tracks[i]) for i in range(state.n_players)]
    if hidden:
        out["pile_next"] = [*pile_next, *(cards[c].id for c in state.pile)]
        out["bag_next"] = [*bag_next, *(goods[g] for g in state.bag)]
    else:
        if pile_next:
            out["pile_next"] = pile_next
        if bag_next:
            out["bag_next"] = bag_next
    return out


def _kai_at_demand_start(state: State) -> bool:
    kai = state.kai
    return (state.phase == "demand" and not kai.reserved and not kai.stopped and not kai.fire
            and kai.left == (state.notation.workers,) * state.n_players and not any(state.columns)
            and all(c >= 0 for c in kai.top) and kai.turn == state.first == state.to_move)  # no coffee break yet


def _before_supply(state: State, tracks: list[int], discard: list[str]) -> tuple[list[str], list[str]]:
    """The round before its supply: the cards it drew (fires first within a season) and the cubes its ships
    brought, as ``pile_next`` and ``bag_next``; ``tracks`` and ``discard`` are put back as they were before."""
    cards, goods = state.cat.cards, state.goods
    if state.kai is not None or state.phase != "demand" or state.placed \
            or not any(e.key == "supply" for e in state.events):
        raise ValueError("scenario_of: before_supply needs a position right after a round's supply (base game)")
    fires = [e for e in state.events if e.key in ("fire", "fire_tie")]
    burnt = [e.args["card"] for e in fires]
    if burnt and discard[-len(burnt):] != burnt:
        raise ValueError("scenario_of: the fires of this supply are not the last cards of the discard pile")
    del discard[len(discard) - len(burnt):]
    for e in fires:
        if e.key == "fire":
            for i in e.args["seats_plus"]:
                tracks[i] -= e.args["strength"]
            for i in e.args["seats_minus"]:
                tracks[i] += e.args["strength"]
    drawn = sorted([*burnt, *(cards[c].id for c in state.offer_idx)], key=lambda c: state.cat.by_id[c].season)
    return drawn, [goods[g] for cs in state.cargo_idx for g in cs]


def _seat_of(state: State, i: int, track: int) -> dict[str, Any]:
    cards, goods = state.cat.cards, state.goods
    s = state.seats[i]
    out: dict[str, Any] = {"coins": s.coins}
    if track:
        out["track"] = track
    contracts = {c for c, _ in s.contracts}
    own = [cards[c].id for c in s.cards if c not in contracts]
    if own:
        out["cards"] = own
    if s.contracts:
        out["contracts"] = [cards[c].id if not placed else {"card": cards[c].id, "goods": [goods[g] for g in placed]}
                            for c, placed in s.contracts]
    for key in ("warehouse", "hall", "unload"):
        held = getattr(s, key)
        if held:
            out[key] = [goods[g] for g in held]
    if state.kai is not None:
        out.update({"breaks": s.breaks, "grey": s.grey, "delivered": s.delivered})
    return out
