"""Die Speicherstadt: the state and every rule of the base game.

A :class:`State` is immutable from the outside: ``apply`` clones it by hand (copy-on-write for the
per-seat data) and runs the rule for the action on the clone, then carries out every step that has no
real decision (supply, fires, forced passes, empty loading turns, income) until a seat must decide or
the game is over. Cards and goods are small ints inside; ids and names appear only at the edges.
"""

from __future__ import annotations

import itertools
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from ...engine.actions import Action
from ...engine.basestate import BaseState, Rule, SeatBase, SeatViewBase
from ...engine.errors import IllegalAction, RearrangeError, rearrange_texts
from ...engine.events import Event
from ...engine.events import make_event as _ev
from ...engine.i18n import load_messages, messages
from ...engine.notation import Notation as BaseNotation
from ...engine.rng import Rng
from ...engine.schema import Codec
from .fields import _PLACES, SEAT_FIELDS, STATE_FIELDS, _bit
from .grammar import GRAMMAR, SOURCES

STATE_FORMAT = "speicherstadt-lab/state/1"
PHASES = ("demand", "spy", "purchase", "loading", "fire", "over")  # "spy" and "fire" only with the expansion
load_messages("speicherstadt")
GREY = 8  # a worker in a column is its seat's number, plus GREY for a grey worker (an expansion's)


def _put(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    """``t`` with item ``i`` replaced (states share these tuples instead of copying lists)."""
    return (*t[:i], v, *t[i + 1:])


def _add(t: tuple[int, ...], i: int, d: int) -> tuple[int, ...]:
    """``t`` with ``d`` added to item ``i``."""
    return (*t[:i], t[i] + d, *t[i + 1:])


_IN, _OUT = 0, 1
_WAREHOUSE, _HALL = 0, 1




# ---- actions ----------------------------------------------------------------------------------


class Notation(BaseNotation):
    """Parsing (the grammar of ``grammar.py``) and canonical actions for one catalogue's goods (cached: parsing is
    on the hot path)."""

    grammar = GRAMMAR

    def __init__(self, goods: tuple[str, ...]) -> None:
        super().__init__()
        self.goods = goods
        self.order = {g: i for i, g in enumerate(goods)}
        self.domains = {"good": goods, "source": SOURCES}
        self.BUY = self.act("buy")
        self.PASS = self.act("pass")
        self.DONE = self.act("done")
        self.PLACE = [self.act("place", i) for i in range(16)]
        self.PLACE_ALL = [tuple(self.PLACE[:k]) for k in range(17)]
        self._hall: dict[tuple[Any, ...], tuple[Action, ...]] = {}
        self.loading: dict[tuple[Any, ...], tuple[Action, ...]] = {}  # State._loading_actions' base actions by key
        self.card_sums: dict[tuple[int, ...], tuple[int, ...]] = {}  # State.score_breakdown's sums by a seat's cards
        self.needs: tuple[tuple[int, ...], ...] = ()  # per card index, goods a contract takes, by good index
        self.kinds: tuple[str, ...] = ()  # per card index, its kind
        self.of_kind: dict[str, frozenset[int]] = {}  # per kind, the indices of its cards
        # set-up numbers read on every step (filled from the catalogue by setup._notation)
        self.spaces = 8
        self.workers = 3
        self.hall_cap = 1
        self.k_convert = 3
        self.k_sell = 2
        self.income = 1
        self.grey_workers = 0
        self.break_cards = 0

    def hall_actions(self, dock: tuple[int, ...], in_stock: tuple[bool, ...], k_convert: int,
                     k_sell: int) -> tuple[Action, ...]:
        """Market-hall conversions and sales for a (sorted) dock and the goods the stock holds (cached)."""
        key = (dock, in_stock, k_convert, k_sell)
        hit = self._hall.get(key)
        if hit is not None:
            return hit
        goods = self.goods
        out: list[Action] = []
        if len(dock) >= k_convert:
            for combo in _combos(dock, k_convert):
                given = tuple(goods[x] for x in combo)
                for t, present in enumerate(in_stock):
                    if present and t not in combo:
                        out.append(self.act("convert", *given, "to", goods[t]))
        if len(dock) >= k_sell:
            for combo in _combos(dock, k_sell):
                out.append(self.act("hallsell", *(goods[x] for x in combo)))
        result = tuple(out)
        if len(self._hall) < 50000:
            self._hall[key] = result
        return result

@lru_cache(maxsize=4096)
def _combos(dock: tuple[int, ...], k: int) -> tuple[tuple[int, ...], ...]:
    """Distinct multisets of ``k`` cubes from the (sorted) dock."""
    return tuple(sorted(set(itertools.combinations(dock, k))))


# The last pile's seasons (State.determinize): (pile, catalogue, ((cards, places) per season, first-come order)), one
# tuple replaced whole (threads never read one half written).
_SEASONS: list[tuple[Any, Any, Any]] = [(None, None, ())]


def _season_groups(pile: tuple[int, ...], cat: Any) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Per season of the pile, in the order the seasons first come: its cards and their places in the pile, in pile
    order (remembered for the last pile and catalogue, by identity: a pile tuple never changes)."""
    last = _SEASONS[0]
    if last[0] is pile and last[1] is cat:
        return last[2]  # type: ignore[no-any-return]
    cards = cat.cards
    by_season: dict[str, tuple[list[int], list[int]]] = {}
    for k, c in enumerate(pile):
        group = by_season.setdefault(cards[c].season, ([], []))
        group[0].append(c)
        group[1].append(k)
    groups = tuple((tuple(cs), tuple(ks)) for cs, ks in by_season.values())
    _SEASONS[0] = (pile, cat, groups)
    return groups


# ---- per-seat data ----------------------------------------------------------------------------


class Seat(SeatBase, schema=SEAT_FIELDS):
    """One seat's holdings. Shared between states until a rule changes it (copy-on-write). Its fields are declared
    in ``fields.py`` (SEAT_FIELDS), with what each means."""

    coins: int
    track: int
    cards: tuple[int, ...]
    contracts: tuple[tuple[int, tuple[int, ...]], ...]
    warehouse: tuple[int, ...]
    hall: tuple[int, ...]
    unload: tuple[int, ...]
    breaks: int
    grey: int
    delivered: int
    warehouse_cap: int
    firemen: int
    sells: tuple[int, ...]
    income_bonus: int
    delivers: tuple[int, ...]
    k_convert: int

    def __init__(self, n_goods: int, coins: int) -> None:
        SEAT_FIELDS.fill(self)  # every field its declared default
        self.coins = coins
        self.sells = self.delivers = (0,) * n_goods


class SeatView(SeatViewBase):
    """Read-only view of a seat with ids and names, for users: ``state.player(seat)``."""

    def __init__(self, state: State, seat: int) -> None:
        super().__init__(state, seat)
        s = state.seats[seat]
        g, c = state.goods, state.cat.cards
        self.coins = s.coins
        self.track = s.track + s.delivered
        self.cards = tuple(c[i].id for i in s.cards)
        self.warehouse = tuple(g[x] for x in s.warehouse)
        self.hall = tuple(g[x] for x in s.hall)
        self.contracts = tuple((c[i].id, tuple(g[x] for x in placed)) for i, placed in s.contracts)
        self.firemen = state.hooks.firemen(state, s)
        self.has_warehouse = s.warehouse_cap > 0
        self.unloading = tuple(g[x] for x in s.unload)
        self.breaks = s.breaks
        self.grey_workers = s.grey

    def __repr__(self) -> str:
        return f"<seat {self.seat} {self.name}: {self.coins} coins, {len(self.cards)} cards>"


# ---- the state --------------------------------------------------------------------------------

# The fields of a position are declared once, in fields.py (STATE_FIELDS): the slots, the clone (generated from it:
# the worker columns copied, the legal actions kept), the state file, view's masks and rearranged's changes.
class State(BaseState, game="speicherstadt", title="Speicherstadt", state_format=STATE_FORMAT, seat_texts="seat",
            seat_view=SeatView, seat_type=Seat, schema=STATE_FIELDS):
    """A position in a game of Die Speicherstadt. See ``docs`` and ``notation.md`` for the surface."""

    goods: tuple[str, ...]
    expansion: str | None
    first: int
    last_round: bool
    pile: tuple[int, ...]
    bag: tuple[int, ...]
    stock: tuple[int, ...]
    discard: tuple[int, ...]
    removed: tuple[int, ...]
    offer_idx: tuple[int, ...]
    cargo_idx: tuple[tuple[int, ...], ...]
    columns: list[tuple[int, ...]]
    placed: int
    space: int
    bought: int
    loading_turn: int
    dock: tuple[int, ...]
    moved: int
    hooks: Hooks  # the rules of this position's game: the base game's, or with an expansion's (register_expansion)
    kai: Any  # the expansion's part of the position (copy-on-write: part_set), None in the base game

    # -- protocol -------------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action the seat to move may take (≥ 2 whenever a seat is to move)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _rule_for(self, a: Action) -> Rule:
        """The rule for ``a`` in this phase, or the refusal (not the verb's phase, a verb this game does not have,
        or what the hooks' ``guards`` of the phase refuse)."""
        hooks = self.hooks
        rules = hooks.rules.get(a.kind)
        fn = rules.get(self.phase) if rules is not None else None
        if fn is None:
            raise self._refusal(a, rules)
        guard = hooks.guards.get(self.phase)
        if guard is not None:
            guard(self, a)
        return fn

    def _refusal(self, a: Action, rules: Mapping[str, Any] | None) -> IllegalAction:
        """Why ``a`` has no rule in this phase: the game is over, the verb is not available, or another phase's."""
        if self.phase == "over":
            return self.refuse("over", a)
        if rules is None:
            return self.refuse("not_available", a, verb=a.kind)
        return self.refuse("phase", a, verb=a.kind, need=next(iter(rules)), phase=self.phase)

    def refuse(self, rule: str, action: Action | str | None = None, **params: Any) -> IllegalAction:
        """The refusal naming ``rule``, its English text filled in with this game's names."""
        text = messages.rule_text(rule, "en", params, self) or rule
        err = IllegalAction(rule, text, action=str(action) if action is not None else None, **params)
        err.namer = self  # type: ignore[attr-defined]
        return err

    # -- names ----------------------------------------------------------------------------------

    def card_name(self, card: str, lang: str = "en") -> str:
        """A card's name in ``lang``, from its id."""
        return self.cat.card(card).name(lang)

    def good_name(self, good: str, lang: str = "en") -> str:
        """A good's name in ``lang``, from its id (the id itself for an unknown one)."""
        for g in self.cat.goods:
            if g.id == good:
                return g.de if lang == "de" else g.en
        return good

    def describe(self, event: Event, lang: str = "en") -> str:
        """An event in plain language."""
        return messages.text("event", event.key, lang, event.args, self)

    # -- public read-only surface ---------------------------------------------------------------

    @property
    def coins(self) -> tuple[int, ...]:
        """Every seat's coins, by seat."""
        return tuple(s.coins for s in self.seats)

    @property
    def offer(self) -> tuple[str | None, ...]:
        """The card ids on the water spaces, left to right (None where a card was bought or discarded)."""
        return tuple(self.cat.cards[c].id if c >= 0 else None for c in self.offer_idx)

    @property
    def cargo(self) -> tuple[tuple[str, ...], ...]:
        """The goods on each water space's ship, left to right (empty for a card that is no ship)."""
        return tuple(tuple(self.goods[g] for g in cs) for cs in self.cargo_idx)

    @property
    def workers(self) -> tuple[tuple[int, ...], ...]:
        """Per water space, the seats of the workers above it, lowest first (a grey worker: its owner)."""
        return tuple(tuple(w & 7 for w in col) for col in self.columns)

    @property
    def grey_workers(self) -> tuple[tuple[bool, ...], ...]:
        """Per water space and level, whether the worker there is a grey one (Kaispeicher's Warehouse Workers)."""
        return tuple(tuple(w >= 8 for w in col) for col in self.columns)

    def price(self, space: int) -> int:
        """What the card on water space ``space`` costs now: one coin per worker above it."""
        return len(self.columns[space])

    @property
    def pile_size(self) -> int:
        """How many cards are left in the draw pile (public; their order is not)."""
        return len(self.pile)

    @property
    def rounds_left(self) -> int:
        """About how many rounds follow this one (public: the pile's size over the water spaces filled a round)."""
        return max(1, len(self.pile) // max(1, len(self.offer)))

    @property
    def bag_size(self) -> int:
        """How many cubes are left in the bag (public; their order is not)."""
        return len(self.bag)

    @property
    def dock_goods(self) -> tuple[str, ...]:
        """The cubes waiting on the dock to be loaded this turn."""
        return tuple(self.goods[g] for g in self.dock)

    @property
    def loading_seat(self) -> int | None:
        """The seat whose loading turn it is (None outside the loading phase)."""
        return (self.first + self.loading_turn) % self.n_players if self.phase == "loading" else None

    # -- legal actions --------------------------------------------------------------------------

    def _compute_legal(self) -> tuple[Action, ...]:
        legal = self.hooks.legal.get(self.phase)
        return legal(self) if legal is not None else ()

    def _demand_actions(self) -> tuple[Action, ...]:
        """The base game's demand: a worker above any card whose column has room."""
        cap = self.notation.spaces
        place = self.notation.PLACE
        return tuple([place[i] for i, col in enumerate(self.columns) if len(col) < cap])

    def _purchase_actions(self) -> tuple[Action, ...]:
        """The base game's purchase: buy or pass (a seat that cannot pay is never asked)."""
        return (self.notation.BUY, self.notation.PASS)

    def _loading_actions(self) -> tuple[Action, ...]:
        i = (self.first + self.loading_turn) % self.n_players
        seat = self.seats[i]
        nt = self.notation
        k_convert = seat.k_convert or nt.k_convert
        in_stock = tuple([x > 0 for x in self.stock]) if len(self.dock) >= min(k_convert, nt.k_sell) else None
        # The base game's loading actions are a function of these (per catalogue: the notation's cache): remembered,
        # they cost a key instead of the lists below (the actions were ~5% of a review's profile; the same actions).
        key = (seat.contracts, seat.sells, seat.warehouse, seat.hall, seat.warehouse_cap, k_convert, self.dock,
               self.moved, in_stock)
        base = nt.loading.get(key)
        if base is None:
            base = self._base_loading_actions(seat, k_convert, in_stock)
            if len(nt.loading) >= 20000:  # bounded (a few MB), started afresh when full
                nt.loading.clear()
            nt.loading[key] = base
        return self.hooks.loading_end(self, i, seat, list(base))

    def _base_loading_actions(self, seat: Seat, k_convert: int, in_stock: tuple[bool, ...] | None
                              ) -> tuple[Action, ...]:
        """The base game's loading actions of ``seat`` (``in_stock``: the goods the stock holds, None when the dock
        is too small for the market hall), before the hooks' ``loading_end``."""
        goods = self.goods
        dock = self.dock
        out: list[Action] = []
        nt = self.notation
        act = nt.act
        hall_cap = nt.hall_cap
        moved = self.moved
        ng = len(goods)
        dg = sorted(set(dock))
        needs = self.notation.needs
        for g in dg:
            name = goods[g]
            for k, (ci, placed) in enumerate(seat.contracts):
                if needs[ci][g] > placed.count(g):
                    out.append(act("contract", name, k))
            if seat.sells[g]:
                out.append(act("sell", name))
            if len(seat.warehouse) < seat.warehouse_cap and not moved >> _bit(_OUT, _WAREHOUSE, g, ng) & 1:
                out.append(act("store", name))
            if len(seat.hall) < hall_cap and not moved >> _bit(_OUT, _HALL, g, ng) & 1:
                out.append(act("keep", name))
        for g in sorted(set(seat.warehouse)):
            if not moved >> _bit(_IN, _WAREHOUSE, g, ng) & 1 and self._take_useful(seat, g, "warehouse"):
                out.append(act("take", goods[g], "warehouse"))
        for g in sorted(set(seat.hall)):
            if not moved >> _bit(_IN, _HALL, g, ng) & 1 and self._take_useful(seat, g, "hall"):
                out.append(act("take", goods[g], "hall"))
        if in_stock is not None:
            out.extend(nt.hall_actions(dock, in_stock, k_convert, nt.k_sell))
        return tuple(out)

    def _loading_end(self, i: int, seat: Seat, out: list[Action]) -> tuple[Action, ...]:
        """The base game's loading actions are complete with ``done``."""
        out.append(self.notation.DONE)
        return tuple(out)

    def _take_useful(self, seat: Seat, g: int, place: str) -> bool:
        """A stored cube is offered for taking only if it could then do more than go back or expire."""
        if self.dock or len(seat.warehouse) + len(seat.hall) >= 2 or seat.sells[g]:
            return True
        name = self.goods[g]
        cards = self.cat.cards
        if any(cards[ci].goods.count(name) > placed.count(g) for ci, placed in seat.contracts):
            return True
        if place == "warehouse":
            return len(seat.hall) < self.cat.setup["hall_capacity"]
        return len(seat.warehouse) < seat.warehouse_cap

    # -- rules: demand --------------------------------------------------------------------------

    def _free_space(self, a: Action) -> int:
        """The water space ``place N`` names, or the refusal: no such space, or its column is full."""
        space: int = a.args[0]
        k = len(self.offer_idx)
        if not 0 <= space < k:
            raise self.refuse("demand_space", a, space=space, last=k - 1)
        if len(self.columns[space]) >= self.notation.spaces:
            raise self.refuse("demand_full", a, space=space, spaces=self.notation.spaces)
        return space

    def _r_place(self, a: Action, ev: list[Event]) -> None:
        """``place N``: the worker the hooks' ``worker`` picks goes above the card on water space N."""
        space = self._free_space(a)
        seat = self.to_move
        w = self.hooks.worker(self, seat, space, ev)
        col = self.columns[space] = (*self.columns[space], w)
        if len(col) >= self.notation.spaces:
            self._legal = None  # a column is full: the legal places change
            self.hooks.column_full(self, space)
        ev.append(_ev(Event, ("place" if w < GREY else "place_grey", {
            "seat": seat, "card": self.cat.cards[self.offer_idx[space]].id, "space": space, "price": len(col)})))

    def _worker(self, seat: int, space: int, ev: list[Event]) -> int:
        """The base game's worker: the seat's own, counted in ``placed``."""
        self.placed += 1
        return seat

    # -- rules: purchase ------------------------------------------------------------------------

    def _r_buy(self, a: Action, ev: list[Event]) -> None:
        s = self.space
        if s >= len(self.offer_idx):  # past the water spaces: the purchases the hooks add
            self.hooks.buy_more(self, a, ev)
            return
        col = self.columns[s]
        self.buy_card(col[0] & 7, self.offer_idx[s], self.cargo_idx[s], len(col), a, ev)  # a grey worker buys for
        self.cargo_idx = _put(self.cargo_idx, s, ())  # its owner
        self.offer_idx = _put(self.offer_idx, s, -1)
        self.columns[s] = ()

    def buy_card(self, seat_i: int, ci: int, cargo: tuple[int, ...], price: int, a: Action, ev: list[Event]) -> None:
        """``buy`` (``a``; or ``buy free``) of card ``ci`` with its ``cargo`` at ``price`` by seat ``seat_i``: paid, or
        free with the seat's free-purchase card, else the refusal; the card joins the seat with its effect."""
        seat = self.seats[seat_i]
        if a.args == ("free",):
            self._buy_free(seat_i, a, ev)
            price = 0
        elif seat.coins < price:
            raise self.refuse("purchase_price", a, price=price, seat=seat_i, coins=seat.coins)
        self.seat_add(seat_i, "coins", -price)
        ev.append(_ev(Event, ("buy", {"seat": seat_i, "card": self.cat.cards[ci].id, "price": price})))
        self._gain(seat_i, ci, cargo, ev)
        self._mark_bought(seat_i)

    def _buy_free(self, seat_i: int, a: Action, ev: list[Event]) -> None:
        """``buy free``: the seat's card that lets it buy a card free (the hooks' ``free_card``) is used up, or the
        refusal when it has none."""
        card = self.hooks.free_card(self, self.seats[seat_i])
        if card < 0:
            raise self.refuse("no_fish_market", a)
        self.drop_card(seat_i, card, ev)

    def _mark_bought(self, seat_i: int) -> None:
        """The seat bought a card this round (no extra income)."""
        self.bought |= 1 << seat_i

    def _gain(self, seat_i: int, ci: int, cargo: tuple[int, ...], ev: list[Event]) -> None:
        """A bought card joins the seat with its effect (a ship brings its cargo to be unloaded); a kind of card
        the hooks' ``gains`` name has its effect there first, and leaves at once if that says so."""
        seat = self._seat(seat_i)
        card = self.cat.cards[ci]
        kind = card.kind
        gain = self.hooks.gains.get(kind)
        if gain is not None and not gain(self, seat_i, ci, ev):
            self.discard_cards((ci,))  # used up when bought
            return
        seat.cards = (*seat.cards, ci)
        if kind == "contract":
            seat.contracts = (*seat.contracts, (ci, ()))
        elif kind == "ship":
            seat.unload = tuple(sorted(seat.unload + cargo))
        elif kind == "fireman":
            self.seat_add(seat_i, "firemen", card.value)
        elif kind == "merchant":
            self.seat_add_at(seat_i, "sells", self.cat_gidx[card.good], card.coins)
        elif kind == "warehouse":
            self.seat_set(seat_i, "warehouse_cap", self.cat.setup["warehouse_capacity"])
        elif kind == "bank":
            self.seat_add(seat_i, "income_bonus", card.income)

    def _r_pass(self, a: Action, ev: list[Event]) -> None:
        if self.space >= len(self.offer_idx):  # past the water spaces: the purchases the hooks add
            self.hooks.pass_more(self, a, ev)
            return
        self._withdraw(ev, "pass")

    def _withdraw(self, ev: list[Event], key: str) -> None:
        s = self.space
        col = self.columns[s]
        card = self.cat.cards[self.offer_idx[s]].id
        rest = col[1:]
        self.columns[s] = rest
        if key == "cannot_pay":
            ev.append(_ev(Event, (key, {"seat": col[0] & 7, "card": card, "price": len(col)})))
        elif rest:
            ev.append(_ev(Event, ("pass", {"seat": col[0] & 7, "card": card, "price": len(rest)})))
        else:
            ev.append(_ev(Event, ("pass_last", {"seat": col[0] & 7, "card": card})))
        if not rest:
            self._discard_offer(s, ev)

    def _discard_offer(self, s: int, ev: list[Event]) -> None:
        ci = self.offer_idx[s]
        cargo = self.cargo_idx[s]
        if cargo:
            self.to_stock(cargo)
            self.cargo_idx = _put(self.cargo_idx, s, ())
            goods = [self.goods[g] for g in cargo]
            ev.append(_ev(Event, ("discard_cargo", {"card": self.cat.cards[ci].id, "goods": goods})))
        else:
            ev.append(_ev(Event, ("discard", {"card": self.cat.cards[ci].id})))
        self.discard_cards((ci,))
        self.offer_idx = _put(self.offer_idx, s, -1)

    # -- rules: loading -------------------------------------------------------------------------

    def turn_seat(self) -> tuple[int, Seat]:
        """(seat index, its data owned by this state) of the seat whose loading turn it is."""
        i = (self.first + self.loading_turn) % self.n_players
        return i, self._seat(i)

    def take_from_dock(self, a: Action, goods: list[str]) -> list[int]:
        """Remove ``goods`` (names) from the dock or raise naming the missing one."""
        dock = list(self.dock)
        idx = self.cat_gidx
        out = []
        for name in goods:
            g = idx[name]
            if g not in dock:
                raise self.refuse("dock", a, good=name)
            dock.remove(g)
            out.append(g)
        self.dock = tuple(dock)
        return out

    def _r_contract(self, a: Action, ev: list[Event]) -> None:
        name, k = a.args
        i, seat = self.turn_seat()
        if k >= len(seat.contracts):
            raise self.refuse("contract_missing", a, k=k, count=len(seat.contracts))
        ci, placed = seat.contracts[k]
        card = self.cat.cards[ci]
        g = self.cat_gidx[name]
        if card.goods.count(name) <= placed.count(g):
            raise self.refuse("contract_good", a, k=k, card=card.id, good=name)
        self.take_from_dock(a, [name])
        placed = self.contract_load(i, k, g)
        ev.append(_ev(Event, ("contract", {"seat": i, "good": name, "k": k, "card": card.id})))
        self.cube_loaded(name)
        if len(placed) == len(card.goods):
            ev.append(_ev(Event, ("contract_done", {"seat": i, "k": k, "vp": card.vp})))

    def owned_card(self, seat: Seat, kind: str, good: str) -> int:
        """The seat's card of ``kind`` that names ``good`` (its merchant or delivery building for that good)."""
        cards = self.cat.cards
        return next(c for c in seat.cards if cards[c].kind == kind and cards[c].good == good)

    def _r_sell(self, a: Action, ev: list[Event]) -> None:
        name = a.args[0]
        i, seat = self.turn_seat()
        g = self.cat_gidx[name]
        if not seat.sells[g]:
            raise self.refuse("merchant", a, good=name)
        self.take_from_dock(a, [name])
        self.seat_add(i, "coins", seat.sells[g])
        self.to_stock((g,))
        merchant = self.cat.cards[self.owned_card(seat, "merchant", name)].id
        ev.append(_ev(Event, ("sell", {"seat": i, "good": name, "card": merchant, "coins": seat.sells[g]})))
        self.cube_loaded(name)

    def _r_store(self, a: Action, ev: list[Event]) -> None:
        _i, seat = self.turn_seat()
        if not seat.warehouse_cap:
            raise self.refuse("no_warehouse", a)
        if len(seat.warehouse) >= seat.warehouse_cap:
            raise self.refuse("warehouse_full", a, cap=seat.warehouse_cap)
        self._put_away(a, ev, _WAREHOUSE)

    def _r_keep(self, a: Action, ev: list[Event]) -> None:
        _i, seat = self.turn_seat()
        cap = self.cat.setup["hall_capacity"]
        if len(seat.hall) >= cap:
            raise self.refuse("hall_full", a, cap=cap)
        self._put_away(a, ev, _HALL)

    def _put_away(self, a: Action, ev: list[Event], where: int) -> None:
        """The cube ``a`` names goes from the dock into the seat's warehouse or market hall (``store``/``keep``,
        room checked by the caller); it may not come back out this turn."""
        name = a.args[0]
        i, seat = self.turn_seat()
        self._no_undo(a, _OUT, where, name)
        (g,) = self.take_from_dock(a, [name])
        if where == _WAREHOUSE:
            seat.warehouse = tuple(sorted((*seat.warehouse, g)))
        else:
            seat.hall = tuple(sorted((*seat.hall, g)))
        self.moved |= 1 << _bit(_IN, where, g, len(self.goods))
        ev.append(_ev(Event, (a.kind, {"seat": i, "good": name})))
        self.cube_loaded(name)

    def _r_take(self, a: Action, ev: list[Event]) -> None:
        name, place = a.args
        i, seat = self.turn_seat()
        g = self.cat_gidx[name]
        held = seat.warehouse if place == "warehouse" else seat.hall
        if g not in held:
            raise self.refuse("not_stored", a, good=name, place=place)
        where = _WAREHOUSE if place == "warehouse" else _HALL
        self._no_undo(a, _IN, where, name)
        if not self._take_useful(seat, g, place):
            raise self.refuse("pointless_take", a, good=name, place=place)
        rest = list(held)
        rest.remove(g)
        if place == "warehouse":
            seat.warehouse = tuple(rest)
        else:
            seat.hall = tuple(rest)
        self.to_dock(g)
        self.moved |= 1 << _bit(_OUT, where, g, len(self.goods))
        ev.append(_ev(Event, ("take_" + place, {"seat": i, "good": name})))

    def _no_undo(self, a: Action, direction: int, where: int, name: str) -> None:
        """Refuse a move that would undo one made this turn (same good, same store, other way)."""
        if self.moved >> _bit(direction, where, self.cat_gidx[name], len(self.goods)) & 1:
            raise self.refuse("undo", a, good=name, place=_PLACES[where], moved=("in", "out")[direction])

    def _r_convert(self, a: Action, ev: list[Event]) -> None:
        *given, _, target = a.args
        i, seat = self.turn_seat()
        k = seat.k_convert or self.notation.k_convert
        if len(given) != k:
            raise self.refuse("convert_count", a, count=k)
        if target in given:
            raise self.refuse("convert_other", a, good=target)
        t = self.cat_gidx[target]
        if not self.stock[t]:
            raise self.refuse("convert_stock", a, good=target)
        self.to_stock(self.take_from_dock(a, given))
        self.from_stock(t)
        self.to_dock(t)
        ev.append(_ev(Event, ("convert", {"seat": i, "goods": list(given), "good": target})))
        for name in given:
            self.cube_loaded(name)

    def _r_hallsell(self, a: Action, ev: list[Event]) -> None:
        i, _held = self.turn_seat()
        self.to_stock(self.take_from_dock(a, list(a.args)))
        self.seat_add(i, "coins", 1)
        ev.append(_ev(Event, ("hallsell", {"seat": i, "goods": list(a.args)})))
        for name in a.args:
            self.cube_loaded(name)

    def _r_done(self, a: Action, ev: list[Event]) -> None:
        i = (self.first + self.loading_turn) % self.n_players
        ev.append(_ev(Event, ("done", {"seat": i})))
        self._end_loading_turn(ev)

    def _end_loading_turn(self, ev: list[Event]) -> None:
        i = (self.first + self.loading_turn) % self.n_players
        if self.dock:
            self.to_stock(self.dock)
            ev.append(_ev(Event, ("expire", {"seat": i, "goods": [self.goods[g] for g in self.dock]})))
            self.dock = ()
        self.moved = 0
        self.hooks.turn_ended(self)
        self.loading_turn += 1
        self.to_move = None

    # -- automatic steps ------------------------------------------------------------------------

    def _advance(self, ev: list[Event]) -> None:
        """Carry out every step without a real decision, until a seat must choose or the game ends: the step of the
        phase (the hooks' ``steps``) runs until one says a seat decides."""
        steps = self.hooks.steps
        while not steps[self.phase](self, ev):
            pass

    def _demand_step(self, ev: list[Event]) -> bool:
        """The base game's demand: the workers go down in turn from the metal coin; a seat with one space left is
        placed there. Purchase follows once every worker stands."""
        n = self.n_players
        if self.placed < n * self.notation.workers:
            self.to_move = (self.first + self.placed) % n
            legal = self._legal
            if legal is None:
                legal = self._legal = self._compute_legal()
            if len(legal) >= 2:
                return True
            ev.append(_ev(Event, ("only_space", {"seat": self.to_move, "space": legal[0].args[0]})))
            self._r_place(legal[0], ev)
            return False
        self.begin_purchase()
        return False

    def _purchase_step(self, ev: list[Event]) -> bool:
        """Purchase, water space by water space from the left: the lowest worker buys or passes (one who cannot pay
        withdraws); then the purchases the hooks add (``purchase_more``), then loading."""
        s = self.space
        k = len(self.offer_idx)
        while s < k and (self.offer_idx[s] < 0 or not self.columns[s]):
            if self.offer_idx[s] >= 0:
                self._discard_offer(s, ev)
            s += 1
        self.space = s
        if s == k:
            if self.hooks.purchase_more(self, ev):  # it asked the seat that decides (``ask``)
                return True
            self.phase = "loading"
            self.loading_turn = 0
            self.to_move = None
            return False
        seat = self.columns[s][0] & 7
        if self.seats[seat].coins < len(self.columns[s]) and self.hooks.free_card(self, self.seats[seat]) < 0:
            self._withdraw(ev, "cannot_pay")
            return False
        self.to_move = seat
        self._legal = None
        return True

    def _loading_step(self, ev: list[Event]) -> bool:
        """Loading, seat by seat from the metal coin: a seat's ships unload onto the dock; a turn without a choice
        is carried out; income (and the next round, or the end) follows the last seat."""
        n = self.n_players
        if self.loading_turn >= n:
            self._income(ev)
            return self.phase == "over"
        if self.to_move is None:
            i = (self.first + self.loading_turn) % n
            seat = self.seats[i]
            if seat.unload:
                seat = self._seat(i)
                self.dock = seat.unload
                seat.unload = ()
                ev.append(_ev(Event, ("unload", {"seat": i, "goods": [self.goods[g] for g in self.dock]})))
            elif not seat.warehouse and not seat.hall and not self.hooks.loading_cards(self, seat):
                ev.append(_ev(Event, ("no_loading", {"seat": i})))
                self.loading_turn += 1
                return False
            self.to_move = i
        legal = self._loading_actions()
        if len(legal) >= 2:
            self._legal = legal
            return True
        if legal and legal[0].kind != "done":  # a waiting cube with one use is loaded there
            ev.append(_ev(Event, ("forced", {"seat": self.to_move, "action": legal[0].text})))
            self.hooks.rules[legal[0].kind]["loading"](self, legal[0], ev)
            return False
        if not self.dock:
            seat = self.seats[self.to_move]
            key = "no_loading_stored" if seat.warehouse or seat.hall else "no_loading"
            ev.append(_ev(Event, (key, {"seat": self.to_move})))
        self._end_loading_turn(ev)
        return False

    def _over_step(self, ev: list[Event]) -> bool:
        """The game is over: nobody is to move."""
        self.to_move = None
        self._legal = ()
        return True

    def cube_loaded(self, name: str) -> None:
        """A cube of ``name`` went onto a card (the hooks' ``cube_loaded`` hears of it)."""
        self.hooks.cube_loaded(self, name)

    def _income(self, ev: list[Event]) -> None:
        base = self.notation.income
        extra = self.cat.setup["income_if_nothing_bought"]
        for i in range(self.n_players):
            amount = base + self.seats[i].income_bonus + (0 if self.bought >> i & 1 else extra)
            self.seat_add(i, "coins", amount)
            ev.append(_ev(Event, ("income", {"seat": i, "coins": amount})))
        if self.last_round:
            if self.hooks.end_fires(self, ev):
                self.finish(ev)
            return
        self.first = (self.first + 1) % self.n_players
        ev.append(_ev(Event, ("metal_coin", {"seat": self.first})))
        self.round += 1
        self._start_round(ev)

    def _end_fires(self, ev: list[Event]) -> bool:
        """The base game's end: the fires left on the pile burn, in order; the game ends now."""
        while self.pile:
            self.resolve_fire(self.draw_card(), ev)
        return True

    def _start_round(self, ev: list[Event]) -> None:
        ev.append(_ev(Event, ("round", {"round": self.round, "seat": self.first})))
        self.bought = 0
        self.placed = 0
        self.space = 0
        self.loading_turn = 0
        self.dock = ()
        self.to_move = None
        self._legal = None
        self.offer_idx = ()
        self.cargo_idx = ()
        self.columns = []
        self.hooks.supply(self, ev)

    def _supply(self, ev: list[Event]) -> None:
        """The base game's supply: cards from the pile onto the water spaces (a fire burns when it is drawn, a ship
        brings cubes from the bag); demand follows."""
        need = self.cat.setup["offer_size"][str(self.n_players)] - len(self.offer_idx)
        cards, pile = self.cat.cards, self.pile
        laid: list[int] = []
        cargo: list[tuple[int, ...]] = []
        pos = 0
        # The bottom card (the 4th fire) is never drawn in a supply: it is resolved after the last round.
        while len(laid) < need and pos < len(pile) - 1:
            ci = pile[pos]
            pos += 1
            card = cards[ci]
            if card.kind == "fire":
                self.resolve_fire(ci, ev)
                continue
            laid.append(ci)
            cargo.append(self.draw_cubes(card.capacity) if card.kind == "ship" else ())
        self.draw_cards(pos)
        self.lay_out(laid, cargo)
        self.supply_drawn(ev)

    def supply_drawn(self, ev: list[Event]) -> None:
        """The round's supply lies out: its cards and the ships' cargo told (each row of the hooks' ``supply_rows``),
        the last round begun once only fires are left; demand follows."""
        cards, goods = self.cat.cards, self.goods
        rows = self.hooks.supply_rows(self)
        for key, row, _ship_key, _cargo in rows:
            ev.append(_ev(Event, (key, {"cards": [cards[c].id for c in row]})))
        for _key, _row, ship_key, cargo in rows:
            for s, cs in enumerate(cargo):
                if cs:
                    ev.append(_ev(Event, (ship_key, {"space": s, "goods": [goods[g] for g in cs]})))
        if all(cards[c].kind == "fire" for c in self.pile):
            self.last_round = True
            ev.append(_ev(Event, ("last_round", {})))
        self.phase = "demand"

    def _supply_rows(self) -> list[tuple[str, tuple[int, ...], str, tuple[tuple[int, ...], ...]]]:
        """The base game's supply lies on the water spaces: (event key, cards, ships' event key, cargo)."""
        return [("supply", self.offer_idx, "ship", self.cargo_idx)]

    def resolve_fire(self, ci: int, ev: list[Event]) -> tuple[list[int], list[int]] | None:
        """Score fire card ``ci`` (the one fire rule of the game, the expansion's too); the card is discarded.
        Returns (gainers, losers), or None for a tie (nobody gains or loses).

        The seats with the most firemen (the hooks' ``firemen``) gain its strength, those with the fewest lose it."""
        card = self.cat.cards[ci]
        firemen = self.hooks.firemen
        sums = [firemen(self, s) for s in self.seats]
        hi, lo = max(sums), min(sums)
        self.discard_cards((ci,))
        if hi == lo:
            ev.append(_ev(Event, ("fire_tie", {"card": card.id, "strength": card.strength, "total": hi})))
            return None
        plus = [i for i, v in enumerate(sums) if v == hi]
        minus = [i for i, v in enumerate(sums) if v == lo]
        for i in plus:
            self.seat_add(i, "track", card.strength)
        for i in minus:
            self.seat_add(i, "track", -card.strength)
        ev.append(_ev(Event, ("fire", {"card": card.id, "strength": card.strength, "seats_plus": plus,
                                 "seats_minus": minus, "sums": sums})))
        return plus, minus

    def finish(self, ev: list[Event]) -> None:
        """The game ends: nobody is to move; every seat's final score and the winners told."""
        self.phase = "over"
        self.to_move = None
        self._legal = ()
        for i in range(self.n_players):
            ev.append(_ev(Event, ("final", {"seat": i, "score": self.score(i), "coins": self.seats[i].coins})))
        ev.append(_ev(Event, ("game_over", {"seats": self.winners()})))

    # -- scoring --------------------------------------------------------------------------------

    def score_breakdown(self, seat: int) -> dict[str, int]:
        """Points by category if the game ended now (final once over); ``fires`` are points won/lost."""
        s = self.seats[seat]
        table = self.cat.setup["counting_office_points"]
        # What the cards add up to, remembered by the seat's cards (per catalogue: the notation's cache); seven
        # passes over the cards were ~3/4 of a score in the profile of a review, a score ~3% of it (the same sums).
        # The seat's cards are listed only where they are read: for the sums, and for an expansion's extras (the
        # list made at every score cost a remembered score 1.08 -> 0.66 µs).
        nt = self.notation
        cards: list[Any] | None = None
        sums = nt.card_sums.get(s.cards)
        if sums is None:
            cards = [self.cat.cards[c] for c in s.cards]
            sums = (sum(1 for c in cards if c.kind == "counting_office"), sum(1 for c in cards if c.kind == "ship"),
                    sum(c.vp for c in cards if c.kind == "merchant"),
                    sum(c.vp_per_good for c in cards if c.kind == "warehouse"),
                    sum(c.vp for c in cards if c.kind == "building"),
                    sum(c.vp_per_coin for c in cards if c.kind == "chamber_of_commerce"),
                    sum(c.vp_per_ship for c in cards if c.kind == "port"))
            if len(nt.card_sums) >= 10000:  # bounded, started afresh when full
                nt.card_sums.clear()
            nt.card_sums[s.cards] = sums
        offices, ships, merchants, per_good, buildings, per_coin, per_ship = sums
        contracts = 0
        for ci, placed in s.contracts:
            card = self.cat.cards[ci]
            if len(placed) == len(card.goods):
                contracts += card.vp
        out = {
            "fires": s.track,
            "contracts": contracts,
            "merchants": merchants,
            "counting_offices": table[min(offices, len(table) - 1)],
            "warehouse": per_good * len(s.warehouse),
            "buildings": buildings,
            "chamber_of_commerce": per_coin * s.coins,
            "port": per_ship * ships,
        }
        extras = self.hooks.score_extras
        if extras is not _NO_EXTRAS:  # the base game's adds nothing
            out.update(extras(self, s, cards if cards is not None else [self.cat.cards[c] for c in s.cards]))
        return out

    def _tiebreak(self, seat: int) -> int:
        """Ties on points go to the most coins."""
        return self.seats[seat].coins  # type: ignore[no-any-return]

    # -- hidden information ---------------------------------------------------------------------

    def determinize(self, seed: int | str) -> State:
        """Same public facts; the order of the pile (within each season) and of the bag resampled."""
        rng = Rng(seed, "determinize")
        new = self._same_position()
        new._legal = self._legal
        # The pile's cards and places per season, in the order the seasons first come (shuffled in that order), are
        # kept for the last pile (a review's rollouts determinize the same position again and again: reading the
        # seasons afresh cost a determinization 55 -> 50 µs; the same shuffles, the same pile).
        groups = _season_groups(self.pile, self.cat)
        pile: list[int] = [0] * len(self.pile)
        for cards, places in groups:
            group = list(cards)
            rng.shuffle(group)
            for k, c in zip(places, group, strict=True):
                pile[k] = c
        new.pile = tuple(pile)
        new.observer = None
        bag = list(self.bag)
        rng.shuffle(bag)
        new.bag = tuple(bag)
        return new

    def rearranged(self, pile: Sequence[str] | None = None, bag: Sequence[str] | None = None) -> State:
        """The same position with the hidden, undrawn order set by hand: a *chance variation* ("what if the
        4th fire had come a round earlier?").

        Every public fact stays (the pile's season sequence and its and the bag's multisets); this state is
        unchanged.

        ``pile``: card ids of the next cards of the draw pile, top first (a prefix, or the whole pile); the
        other cards follow in their current order, each season's in its own positions. A card keeps to its
        season's positions (the order of the seasons is public; the bottom card, the last fire alone in its
        season, never moves). ``bag``: the next goods drawn from the bag, in order; the rest follow in their
        current order. A card not in the pile, a card named twice, a card where another season's card lies, a
        good more often than the bag holds it, or a wrong type raise :class:`RearrangeError` naming the field
        (``pile[2]``, ``bag[0]``). On an observation (from ``observe``) the result is a full state (``observer``
        None), as from ``determinize``: its order is the one asked for, the rest stays the placeholder's.
        With Kaispeicher the hidden order is the same pile and bag (its top row is open).
        """
        new_pile = self.pile if pile is None else self._rearranged_pile(pile)
        new_bag = self.bag if bag is None else self._rearranged_bag(bag)
        new = self.schema.with_hidden(self._same_position(), pile=new_pile, bag=new_bag)  # only hidden fields change
        new.observer = None
        return new  # type: ignore[no-any-return]

    def _rearranged_pile(self, pile: Sequence[str]) -> tuple[int, ...]:
        """The draw pile with ``pile`` on top (checked), the other cards after it in their order per season."""
        names = rearrange_texts(pile, "pile", "card ids")
        cards, by_id = self.cat.cards, self.cat.by_id
        seasons = [cards[c].season for c in self.pile]
        in_pile = set(self.pile)
        named: dict[int, int] = {}
        for k, cid in enumerate(names):
            field = f"pile[{k}]"
            card = by_id.get(cid)
            if card is None:
                raise RearrangeError(field, f"unknown card id {cid!r}")
            if card.idx not in in_pile:
                raise RearrangeError(field, f"card {cid!r} is not in the draw pile (it was drawn, bought or "
                                            "removed, or is not in this game)")
            if card.idx in named:
                raise RearrangeError(field, f"card {cid!r} is named twice (also pile[{named[card.idx]}])")
            if card.season != seasons[k]:
                raise RearrangeError(field, f"card {cid!r} (season {card.season!r}) cannot come where a card of "
                                            f"season {seasons[k]!r} lies; the order of the seasons is public")
            named[card.idx] = k
        rest: dict[str, list[int]] = {}
        for c in self.pile:
            if c not in named:
                rest.setdefault(cards[c].season, []).append(c)
        its = {se: iter(group) for se, group in rest.items()}
        return (*named, *(next(its[se]) for se in seasons[len(named):]))

    def _rearranged_bag(self, bag: Sequence[str]) -> tuple[int, ...]:
        """The bag with ``bag`` drawn first (checked), the other cubes after them in their order."""
        names = rearrange_texts(bag, "bag", "goods")
        order = self.notation.order
        left = Counter(self.bag)
        first: list[int] = []
        for k, name in enumerate(names):
            g = order.get(name)
            if g is None:
                raise RearrangeError(f"bag[{k}]", f"unknown good {name!r}; goods are {', '.join(self.goods)}")
            if not left[g]:
                have = self.bag.count(g)
                raise RearrangeError(f"bag[{k}]", f"{name!r} is named {first.count(g) + 1} times so far, but the "
                                                  f"bag holds only {have}")
            left[g] -= 1
            first.append(g)
        skip = Counter(first)
        rest = []
        for g in self.bag:
            if skip[g]:
                skip[g] -= 1
            else:
                rest.append(g)
        return (*first, *rest)

    def hidden_parts(self) -> dict[str, Any]:
        """What is still to come and can be rearranged (``rearranged``), JSON-ready, in the current order:
        ``{"pile": [[card id, season], ...] top first, "bag": [good, ...] first drawn first}``.

        This REVEALS the hidden order (for analysis, where the lab shows it; never to a bot or in play). On an
        observation it is the observation's placeholder order, which reveals nothing.
        """
        cards = self.cat.cards
        return {"pile": [[cards[c].id, cards[c].season] for c in self.pile],
                "bag": [self.goods[g] for g in self.bag]}

    def fingerprint(self) -> int:
        """A stable 32-bit digest of the position as every seat sees it (no hidden order), for per-position seeds.

        Equal for states that differ only in the hidden pile/bag order; the same in every process and Python.
        """
        seats = tuple((x.coins, x.track, x.cards, x.contracts, x.warehouse, x.hall, x.unload) for x in self.seats)
        key = (self.round, self.phase, self.first, self.placed, self.space, self.loading_turn, self.to_move,
               self.dock, self.moved, self.stock, self.offer_idx, self.cargo_idx, tuple(self.columns), seats,
               len(self.pile), self.last_action)
        return zlib.crc32(repr(self.hooks.fingerprint(self, key)).encode())

    def observe(self, seat: int | None) -> State:
        """The state as ``seat`` sees it: hidden orders replaced by a canonical one that reveals nothing.

        Bots get this. The pile keeps its public season sequence, each season's cards in catalogue
        order; the bag is sorted. ``determinize`` on it samples a full state consistent with all public facts.
        """
        new = self._same_position()
        new._legal = self._legal
        seasons = [self.cat.cards[c].season for c in self.pile]
        by_season: dict[str, list[int]] = {}
        for c, se in zip(self.pile, seasons, strict=True):
            by_season.setdefault(se, []).append(c)
        its = {se: iter(sorted(g)) for se, g in by_season.items()}
        new.pile = tuple(next(its[se]) for se in seasons)
        new.bag = tuple(sorted(self.bag))
        new.observer = seat if seat is not None else -1
        return new

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """JSON-ready dict of what ``seat`` may see (every seat sees the same in this game): the state's data with
        each hidden field masked as its declaration says (``fields.py``), and ``hidden``, what is hidden."""
        d = self.to_dict()
        d["seat"] = seat
        return self.schema.view(self, d)

    # -- serialization --------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole position as JSON-ready data (pile and bag order and catalogue included): ``load_state`` rebuilds it
        exactly. Each field is written as declared in ``fields.py``."""
        schema = self.schema
        return {**self._dict_head(**schema.encode(self, "head")), **schema.encode(self), **self._dict_tail(),
                **schema.encode(self, "end")}

    @property
    def cat_gidx(self) -> dict[str, int]:
        """Each good in play by its index (the notation's order)."""
        return self.notation.order

    # -- the interface of the rules -------------------------------------------------------------
    # What the rules change a position with, inside ``apply``'s copy-on-write; the expansion's rules (kaispeicher.py)
    # change it only through these, as the base rules do: a seat through ``seat_add``, ``seat_set`` and
    # ``seat_add_at`` (engine/basestate.py) and the contract moves below, the expansion's part through ``part_set``,
    # the rows, pile, bag, stock and dock through the methods after them; a purchase through ``buy_card``, a loading
    # turn through ``turn_seat``, ``take_from_dock`` and ``cube_loaded``, a refusal through ``refuse`` (all above).

    def contract_load(self, seat_i: int, k: int, g: int) -> tuple[int, ...]:
        """A cube of good ``g`` onto seat ``seat_i``'s contract ``k`` (checked by the caller); the contract's cubes
        now."""
        seat = self._seat(seat_i)
        ci, placed = seat.contracts[k]
        placed = (*placed, g)
        seat.contracts = _put(seat.contracts, k, (ci, placed))
        return placed

    def contract_unload(self, seat_i: int, k: int, g: int) -> None:
        """A cube of good ``g`` taken off seat ``seat_i``'s contract ``k`` (it holds one)."""
        seat = self._seat(seat_i)
        ci, placed = seat.contracts[k]
        rest = list(placed)
        rest.remove(g)
        seat.contracts = _put(seat.contracts, k, (ci, tuple(rest)))

    def part_set(self, name: str, value: Any) -> None:
        """Set field ``name`` of the expansion's part of this position (``kai``) to ``value``, a new immutable value
        (never one changed in place); the part is owned by this state first (copy-on-write)."""
        part = self.kai
        if part._gen != self._gen:
            part = self.kai = part.clone(self._gen)
        setattr(part, name, value)

    def part_update(self, **changes: Any) -> None:
        """Set several fields of the expansion's part at once, as ``part_set`` does each."""
        part = self.kai
        if part._gen != self._gen:
            part = self.kai = part.clone(self._gen)
        for name, value in changes.items():
            setattr(part, name, value)

    def set_part(self, part: Any) -> None:
        """A new expansion's part of this position (a round's start, or a copy with a rule's changes made at once),
        owned by this state."""
        part._gen = self._gen
        self.kai = part

    def ask(self, seat: int | None, legal: tuple[Action, ...] | None = None) -> None:
        """``seat`` decides now (None: nobody yet), with ``legal`` its legal actions (None: computed on demand)."""
        self.to_move = seat
        self._legal = legal

    def enter(self, phase: str) -> None:
        """The position moves on to ``phase``; the step of that phase finds the seat to decide."""
        self.phase = phase
        self.to_move = None
        self._legal = None

    def begin_purchase(self) -> None:
        """Purchase begins at the leftmost water space."""
        self.enter("purchase")
        self.space = 0


    def draw_card(self) -> int:
        """The top card of the draw pile, taken off it."""
        ci = self.pile[0]
        self.pile = self.pile[1:]
        return ci

    def draw_cards(self, k: int) -> tuple[int, ...]:
        """The top ``k`` cards of the draw pile, taken off it (a supply reads them in ``pile`` first, then takes
        them at once: the pile is copied once, not once a card)."""
        taken = self.pile[:k]
        self.pile = self.pile[k:]
        return taken


    def draw_cubes(self, k: int) -> tuple[int, ...]:
        """The next ``k`` cubes from the bag (sorted: a ship's cargo)."""
        cubes = self.bag[:k]
        self.bag = self.bag[k:]
        return tuple(sorted(cubes))


    def lay_out(self, cards: Sequence[int], cargo: Sequence[tuple[int, ...]]) -> None:
        """``cards`` (with the ships' ``cargo``, one entry a card) go onto the next water spaces, no worker above them
        yet."""
        self.offer_idx = (*self.offer_idx, *cards)
        self.cargo_idx = (*self.cargo_idx, *cargo)
        self.columns.extend([()] * len(cards))


    def to_stock(self, goods: Iterable[int]) -> None:
        """Cubes back to the general stock."""
        stock = list(self.stock)
        for g in goods:
            stock[g] += 1
        self.stock = tuple(stock)


    def from_stock(self, g: int) -> None:
        """A cube of good ``g`` taken from the general stock (it holds one)."""
        self.stock = _add(self.stock, g, -1)


    def to_dock(self, g: int) -> None:
        """A cube of good ``g`` onto the dock of the seat whose loading turn it is."""
        self.dock = tuple(sorted((*self.dock, g)))


    def discard_cards(self, cards: Iterable[int]) -> None:
        """Cards onto the discard pile."""
        self.discard = (*self.discard, *cards)


    def drop_card(self, seat_i: int, card: int, ev: list[Event]) -> None:
        """A card used up by a seat (a one-use card) leaves it for the discard pile."""
        seat = self._seat(seat_i)
        cards = list(seat.cards)
        cards.remove(card)
        seat.cards = tuple(cards)
        self.discard_cards((card,))
        ev.append(_ev(Event, ("discarded", {"seat": seat_i, "card": self.cat.cards[card].id})))


    def swap_workers(self, s1: int, l1: int, s2: int, l2: int) -> None:
        """The workers at level ``l1`` above water space ``s1`` and at ``l2`` above ``s2`` change places."""
        cols = self.columns
        w1, w2 = cols[s1][l1], cols[s2][l2]
        c1 = list(cols[s1])
        c1[l1] = w2
        cols[s1] = tuple(c1)
        c2 = list(cols[s2])
        c2[l2] = w1
        cols[s2] = tuple(c2)


_RULES: dict[str, dict[str, Rule]] = {
    "place": {"demand": State._r_place},
    "buy": {"purchase": State._r_buy},
    "pass": {"purchase": State._r_pass},
    "contract": {"loading": State._r_contract},
    "sell": {"loading": State._r_sell},
    "store": {"loading": State._r_store},
    "keep": {"loading": State._r_keep},
    "take": {"loading": State._r_take},
    "convert": {"loading": State._r_convert},
    "hallsell": {"loading": State._r_hallsell},
    "done": {"loading": State._r_done},
}


# ---- hook points -------------------------------------------------------------------------------------
# The rules never import what plugs into them. A position's ``hooks`` are the rules of its game: the base game's
# (BASE_HOOKS), or those an expansion registered (register_expansion: kaispeicher.py, when it is imported). The base
# rules call them at every point where an expansion changes the flow, with no test of which game it is; the
# expansion's own part of a position is the ``kai`` field, changed through ``part_set``. Explanations and the notebook
# rendering register as capabilities. The package's __init__ imports the expansion before any state exists and names
# the capabilities' modules in ``State.plugins_later``, imported when one is first asked for (BaseState.plugin).

Step = Callable[[State, list[Event]], bool]


def _nothing(*_args: Any) -> None:
    """A hook point where the base game does nothing."""


def _no_pieces(state: State) -> tuple[int, list[int]]:
    """The base game keeps no cubes and no cards outside the base position's fields."""
    return 0, []


def _base_flow(state: State) -> list[str]:
    """What the base game's order of play keeps (the invariants' part that an expansion may change)."""
    problems = []
    n, setup, cols = state.n_players, state.cat.setup, state.columns
    if sum(1 for col in cols for w in col if w < GREY) > n * setup["workers"]:
        problems.append("more workers placed than the players have")
    if state.phase in ("spy", "fire"):
        problems.append(f"phase {state.phase!r} exists only with Kaispeicher")
    if state.phase == "demand" and state.to_move != (state.first + state.placed) % n:
        problems.append("the seat to move in demand does not follow the metal coin")
    if state.phase == "purchase":
        if state.space >= len(cols) or not cols[state.space] or state.to_move != cols[state.space][0]:
            problems.append("the seat to move in purchase is not the lowest worker")
        elif state.to_move is not None and state.seats[state.to_move].coins < len(cols[state.space]):
            problems.append(f"seat {state.to_move} is asked to buy at price {len(cols[state.space])} with "
                            f"{state.seats[state.to_move].coins} coins")
    return problems


def _refuse_more(state: State, a: Action, ev: list[Event]) -> None:
    raise AssertionError("the base game has no purchases past the water spaces")


@dataclass(frozen=True)
class Hooks:
    """The rules of one game at the points where an expansion changes them (the base game's: ``BASE_HOOKS``).

    Each is a function of the state being built inside ``apply`` (and its arguments); a hook that changes the
    position does so through the state's interface (``seat_add``, ``part_set``, ``ask``, ``to_stock``, ...)."""

    name: str | None = None  # the expansion's name (None: the base game)
    # phases: the rule of each verb, the automatic step and the legal actions of each phase
    rules: Mapping[str, Mapping[str, Rule]] = field(default_factory=dict)  # verb -> phase -> rule(state, action, ev)
    steps: Mapping[str, Step] = field(default_factory=dict)  # phase -> step(state, ev): True once a seat decides
    legal: Mapping[str, Callable[[State], tuple[Action, ...]]] = field(default_factory=dict)  # phase -> actions
    guards: Mapping[str, Callable[[State, Action], None]] = field(default_factory=dict)  # phase -> a check that
    # refuses an action before its rule
    # supply
    supply: Callable[[State, list[Event]], None] = State._supply  # a round's supply, the rows emptied
    supply_rows: Callable[[State], list[Any]] = State._supply_rows  # (key, cards, ship key, cargo) per row laid out
    # demand and purchase
    worker: Callable[[State, int, int, list[Event]], int] = State._worker  # the worker a seat places above a space
    column_full: Callable[[State, int], None] = _nothing  # the column above a water space has no room left
    purchase_more: Step = lambda state, ev: False  # purchases after the water spaces: True when a seat decides
    buy_more: Rule = _refuse_more  # ``buy`` of such a purchase
    pass_more: Rule = _refuse_more  # ``pass`` of such a purchase
    free_card: Callable[[State, Seat], int] = lambda state, seat: -1  # the seat's card that buys free, or -1
    gains: Mapping[str, Callable[[State, int, int, list[Event]], bool]] = field(default_factory=dict)
    # (kind -> gain(state, seat, card, events): what a bought card of that kind does first; False: it leaves at once)
    # loading
    loading_end: Callable[[State, int, Seat, list[Action]], tuple[Action, ...]] = State._loading_end
    loading_cards: Callable[[State, Seat], bool] = lambda state, seat: False  # a turn without unloaded or stored cubes
    cube_loaded: Callable[[State, str], None] = _nothing  # a cube of that good went onto a card
    turn_ended: Callable[[State], None] = _nothing  # a loading turn ends
    # fires and scoring
    firemen: Callable[[State, Seat], int] = lambda state, seat: seat.firemen  # what a seat's firemen count at a fire
    end_fires: Step = State._end_fires  # after the last round: True when the game ends now
    score_extras: Callable[[State, Seat, list[Any]], dict[str, int]] = lambda state, seat, cards: {}
    # a position's data
    seat_fields: tuple[str, ...] = ()  # seat fields the game adds to a state's data (fields.py: SEAT_FIELDS)
    part: Codec | None = None  # how the expansion's part of a position (``kai``) is written and read
    # invariants (setup.check_invariants)
    part_pieces: Callable[[State], tuple[int, list[int]]] = _no_pieces  # (cubes, cards) the expansion's part holds
    flow_problems: Callable[[State], list[str]] = _base_flow  # what the order of play keeps, violated
    fingerprint: Callable[[State, Any], Any] = lambda state, key: key  # the public key, with the expansion's part

    def __reduce__(self) -> tuple[Any, ...]:
        return hooks_for, (self.name,)  # a pickled position names its rules (they are functions, some lambdas)


BASE_HOOKS = Hooks(
    rules=_RULES,
    steps={"demand": State._demand_step, "purchase": State._purchase_step, "loading": State._loading_step,
           "over": State._over_step},
    legal={"demand": State._demand_actions, "purchase": State._purchase_actions, "loading": State._loading_actions},
)
_HOOKS: dict[str | None, Hooks] = {None: BASE_HOOKS}
_NO_EXTRAS = BASE_HOOKS.score_extras  # the base game's score extras: none (score_breakdown skips the call)
CAPABILITIES = State.plugins  # "explain": explain_action(state, action, lang); "html": state_html(state)


def register_expansion(name: str, verbs: Mapping[str, Mapping[str, Rule]], **hooks: Any) -> Hooks:
    """Plug an expansion's rules in; returns the expansion's :class:`Hooks`, which its positions use
    (``hooks_for(name)``).

    ``verbs`` (phase -> verb -> rule) adds the rules of its verbs, each of ``hooks`` replaces the base game's hook of
    that name (``steps`` and ``legal`` add to or replace the base game's phases)."""
    rules = {verb: dict(phases) for verb, phases in _RULES.items()}
    for phase, rules_of in verbs.items():
        for verb, rule in rules_of.items():
            rules.setdefault(verb, {})[phase] = rule
    for key in ("steps", "legal"):
        hooks[key] = {**getattr(BASE_HOOKS, key), **hooks.get(key, {})}
    _HOOKS[name] = replace(BASE_HOOKS, name=name, rules=rules, **hooks)
    return _HOOKS[name]


def hooks_for(expansion: str | None) -> Hooks:
    """The rules of a game with ``expansion`` (None: the base game); ValueError for one not registered."""
    try:
        return _HOOKS[expansion]
    except KeyError:
        raise ValueError(f"expansion: {expansion!r} is not registered") from None
