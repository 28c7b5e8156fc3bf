"""GreedyBot: a rule-based player that values every legal action with a heuristic (Packet Row: packet_row_greedy).

All Speicherstadt knowledge lives in :class:`SpeicherstadtHeuristic` (what a card, a cube or a coin is
worth to a seat); :class:`GreedyBot` only asks it for action values and picks the best one. A greedy
player for another game supplies another heuristic with the same ``action_values`` method.

The heuristic reads only public facts: the offer, cargo, workers, every seat's holdings and the
*multiset* of cards still in the pile (their order is hidden and never used), so it gives the same
answer on ``state.observe(seat)`` as on the full state.
"""

from __future__ import annotations

import itertools
import operator
from typing import Any, ClassVar

import pandas as pd

from ..engine.actions import Action
from ..engine.protocol import GameState, get_game
from ..engine.rng import Rng
from . import register_bot
from .memo import _SKIP, DecisionMemo, _multiset, classify_fields, identity, public_key

# Chance that one future ship (3 random cubes of 5 goods) carries a given good: 1 - (4/5)**3.
_SHIP_HIT = 1 - 0.8**3
_EPS = 0.01  # loading actions worth less than this are not worth doing: the seat ends its turn


class _Zero(dict):  # type: ignore[type-arg]
    """A count by key that reads 0 for a missing key (as a Counter does, without its costly set-up)."""

    def __missing__(self, key: Any) -> int:
        return 0


#: A worker column's seats (a grey worker: its owner's), by the column (``SpeicherstadtHeuristic._columns``).
_SEATS_OF: dict[tuple[int, ...], tuple[int, ...]] = {}

#: The kinds of cards the heuristic counts (``_SeatFacts.kinds``), each 0; and the goods in play, each 0, by the goods.
_KIND_ZEROS = dict.fromkeys(("counting_office", "ship", "port", "chamber_of_commerce", "fireman", "building",
                             "merchant", "delivery"), 0)
_ZEROS: dict[tuple[str, ...], dict[str, int]] = {}


class _SeatFacts:
    """One seat's holdings, read once per decision from the public surface."""

    __slots__ = ("chamber", "coins", "contracts", "cv", "delivers", "firemen", "hall", "has_warehouse", "kinds",
                 "missing_total", "offices", "port", "sells", "ships", "warehouse")

    def __init__(self, state: Any, seat: Any) -> None:
        # Read from the rules' own seat (card indices, good indices), not from ``state.player(i)``: the view spelled
        # every card and good out as ids for this to look them up again (~1/3 of the facts' cost; same facts).
        goods, cat_cards = state.goods, state.cat.cards
        self.coins: int = seat.coins
        self.firemen: int = state.hooks.firemen(state, seat)
        self.warehouse: list[str] = [goods[x] for x in seat.warehouse]
        self.hall: list[str] = [goods[x] for x in seat.hall]
        self.has_warehouse: bool = seat.warehouse_cap > 0
        self.contracts: list[tuple[Any, list[str]]] = [(cat_cards[c], [goods[x] for x in p])
                                                       for c, p in seat.contracts]
        # One pass over the cards into zero-default dicts (three Counters and four passes were ~1/4 of the facts'
        # cost in the profile of a review; the same counts).
        # Every good and every kind read here is there from the start, copied from a dict of zeros: a read of one the
        # seat has none of is a dict hit, not a ``__missing__`` call (the facts 3.1 -> 2.9 µs a seat, and each such read
        # ~3x cheaper); any other key still reads 0.
        zeros = _ZEROS.get(goods)
        if zeros is None:
            zeros = _ZEROS[goods] = dict.fromkeys(goods, 0)
        sells, delivers, kinds = _Zero(zeros), _Zero(zeros), _Zero(_KIND_ZEROS)
        for ci in seat.cards:
            c = cat_cards[ci]
            kind = c.kind
            kinds[kind] += 1
            if kind == "merchant":
                sells[c.good] += c.coins
            elif kind == "delivery":
                delivers[c.good] += c.points
        self.offices = kinds["counting_office"]
        self.ships = kinds["ship"]
        self.port = kinds["port"] > 0
        self.chamber = kinds["chamber_of_commerce"] > 0
        self.sells: dict[str, int] = sells
        self.delivers: dict[str, int] = delivers  # Kaispeicher's delivery buildings: points per cube
        self.kinds: dict[str, int] = kinds
        self.missing_total = sum(len(c.goods) - len(p) for c, p in self.contracts)
        self.cv = 1.0


def _same_inputs(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Two heuristics' inputs alike: the catalogue and the seats the same objects, the rest equal."""
    # The seats compared by ``map(operator.is_, ...)``: a generator over ``zip`` cost ~2x (0.98 -> 0.52 µs; the same
    # answer).
    return (len(a) == len(b) and a[0] is b[0] and a[1:6] == b[1:6]
            and all(map(operator.is_, a[6:], b[6:])))


class SpeicherstadtHeuristic:
    """Values of cards, cubes and coins for every seat at one decision point of Die Speicherstadt.

    Units are victory points. A coin is worth about one point early and almost nothing in the last
    round (only the tie-break), unless the seat owns the Chamber of Commerce.
    """

    _catalog_info: ClassVar[dict[str, tuple[dict[str, Any], int]]] = {}
    # The last decision's inputs and what was read and valued from them. Between the decisions of a phase only the
    # workers and the seat to move change, so the next decision reuses the seats' facts and the card values
    # (60 greedy rollouts of 3-player games: 41 -> 29 ms each; the same choices, tested).
    _last: ClassVar[tuple[tuple[Any, ...], SpeicherstadtHeuristic] | None] = None
    # The last pile read: (the pile, its catalogue, (fires' strengths, ships, counting offices)).
    _pile: ClassVar[tuple[Any, Any, tuple[list[int], int, int]] | None] = None

    def __init__(self, state: GameState) -> None:
        s: Any = state
        cat = s.cat
        self.state = s
        self.phase: str = s.phase
        self.kai = kai = getattr(s, "kai", None)
        # What the facts and values below depend on: the seats (shared, never changed once a state is made: by
        # identity), the offer, its cargo, the pile's multiset, the round and the Kaispeicher rows (by value).
        key = (cat, s.round, s.offer_idx, s.cargo_idx, s.pile,
               None if kai is None else (kai.top, kai.top_cargo, kai.reserved), *s.seats)
        last = SpeicherstadtHeuristic._last
        if last is not None and _same_inputs(last[0], key):
            self.__dict__.update(last[1].__dict__)  # then this position's own (a filtered copy cost more)
            self.state, self.phase, self.kai = s, s.phase, kai
            self.columns = self._columns(s)
            return
        self.n: int = s.n_players
        self.by_id, self.total_rounds = self._catalog(cat, self.n)
        self.office_points: list[int] = list(cat.setup["counting_office_points"])
        self.hall_cap: int = cat.setup["hall_capacity"]
        self.warehouse_cap: int = cat.setup["warehouse_capacity"]
        self.workers: int = s.notation.workers
        self.rounds_after = max(0, self.total_rounds - s.round)  # full rounds after the current one
        # Public multiset of the pile (its order is hidden; only kinds and counts are used). The pile changes only at
        # a supply, so its counts are kept for the last pile read (by identity: a tuple never changes); reading it
        # afresh at every new heuristic was ~1/6 of making one in the profile of a review (the same counts).
        hit = SpeicherstadtHeuristic._pile
        if hit is not None and hit[0] is s.pile and hit[1] is cat:
            self.fires_future, self.ships_future, self.offices_future = hit[2]
        else:
            pile = [cat.cards[c] for c in s.pile]
            self.fires_future = [c.strength for c in pile if c.kind == "fire"]
            self.ships_future = sum(1 for c in pile if c.kind == "ship")
            self.offices_future = sum(1 for c in pile if c.kind == "counting_office")
            SpeicherstadtHeuristic._pile = (s.pile, cat, (self.fires_future, self.ships_future, self.offices_future))
        # The rules' card and good indices read directly (the ``offer`` and ``cargo`` properties spelled them out as
        # ids and names through generators first; the same cards and lists).
        goods, cards = s.goods, cat.cards
        self.offer = [cards[c] if c >= 0 else None for c in s.offer_idx]
        self.cargo = [[goods[g] for g in cs] for cs in s.cargo_idx]
        # Kaispeicher: the top row and the reservation column follow the water spaces as "virtual spaces"
        # so every card is valued the same way; they have no building spaces (empty columns).
        self.top_at = self.res_at = len(self.offer)
        if kai is not None:
            self.offer += [cat.cards[c] if c >= 0 else None for c in kai.top]
            self.cargo += [[s.goods[g] for g in cs] for cs in kai.top_cargo]
            self.res_at = len(self.offer)
            self.offer += [cat.cards[c] for c, _w, _cs in kai.reserved]
            self.cargo += [[s.goods[g] for g in cs] for _c, _w, cs in kai.reserved]
        self.columns = self._columns(s)
        self.ships_now = sum(1 for c in self.offer if c is not None and c.kind == "ship")
        self._seats: list[_SeatFacts | None] = [None] * self.n
        self._base_cv = 0.05 if self.rounds_after == 0 else min(1.0, 0.35 + 0.2 * self.rounds_after)
        self._values: dict[tuple[int, int], float] = {}
        self._theirs: dict[tuple[int, int], list[tuple[float, float]]] = {}  # (seat, space): the others' (value, cv)
        self._rivals: dict[tuple[int, int, int], tuple[int, float]] = {}  # (seat, space, workers): (hot, rivals)
        self._chance: dict[tuple[int, bool], float] = {}  # good_chance by its arguments
        self._needed: dict[tuple[int, str], bool] = {}  # needed by its arguments
        self._fires: dict[tuple[int, int], float] = {}  # fire_outcome by its arguments
        SpeicherstadtHeuristic._last = (key, self)

    def _columns(self, s: Any) -> list[tuple[int, ...]]:
        """Per (virtual) space, the seats of the workers above it, lowest first."""
        # The rules' columns read directly (``s.workers`` made a tuple of tuples through generators first, which
        # was ~1/3 of making a heuristic in the profile of a review; the same lists). Each column's seats are
        # remembered by the column (a tuple, shared by the positions after it): a list made per column and heuristic
        # cost ~1.8x (1.04 -> 0.58 µs a heuristic; the same seats, as tuples: nothing here changes them).
        seats_of = _SEATS_OF
        columns = []
        for c in s.columns:
            t = seats_of.get(c)
            if t is None:
                if len(seats_of) >= 4096:
                    seats_of.clear()
                t = seats_of[c] = tuple([w & 7 for w in c])
            columns.append(t)
        return columns + [() for _ in range(len(self.offer) - len(columns))]

    def seat(self, i: int) -> _SeatFacts:
        """Seat ``i``'s facts (read on first use: most decisions need only the mover's)."""
        f = self._seats[i]
        if f is None:
            f = _SeatFacts(self.state, self.state.seats[i])
            f.cv = max(self._base_cv, 1.0) if f.chamber else self._base_cv
            self._seats[i] = f
        return f

    @classmethod
    def _catalog(cls, cat: Any, n: int) -> tuple[dict[str, Any], int]:
        """Card lookup and the number of rounds of an ``n``-player game (cached per catalogue)."""
        key = f"{cat.digest}:{n}"
        hit = cls._catalog_info.get(key)
        if hit is None:
            from ..games.speicherstadt import game_cards

            cards, _ = game_cards(cat, n)
            regular = sum(1 for c in cards if cat.cards[c].kind != "fire")
            hit = (cat.by_id, regular // cat.setup["offer_size"][str(n)])
            cls._catalog_info[key] = hit
        return hit

    # -- building blocks ------------------------------------------------------------------------

    def expected_ships(self, seat: int, include_current: bool) -> float:
        """Ships the seat may expect to buy from here on (a fair share, slightly favoured)."""
        ships = self.ships_future + (self.ships_now if include_current else 0)
        return 1.2 * ships / self.n

    def good_chance(self, seat: int, include_current: bool) -> float:
        """Chance the seat gets one specific missing good in time; lower when it needs many goods."""
        # Remembered per seat (and phase: the heuristic's inputs are the same): asked ~3 times a valuing (same value).
        key = (seat, include_current)
        p = self._chance.get(key)
        if p is None:
            f = self.seat(seat)
            load = max(1.0, f.missing_total / 4)
            p = self._chance[key] = 1 - (1 - _SHIP_HIT) ** (self.expected_ships(seat, include_current) / load)
        return p

    def contract_value(self, seat: int, card: Any, placed: list[str], include_current: bool = True) -> float:
        """Points expected from a contract: its VP times the chance of filling what it still needs."""
        f = self.seat(seat)
        held = f.warehouse + f.hall
        m = 0
        for g in set(card.goods):
            m += max(0, card.goods.count(g) - placed.count(g) - held.count(g))
        return card.vp * self.good_chance(seat, include_current) ** m

    def contract_gain(self, seat: int, k: int, good: str) -> float:
        """What placing ``good`` on the seat's contract ``k`` now adds (0 if it does not fit)."""
        f = self.seat(seat)
        card, placed = f.contracts[k]
        if card.goods.count(good) <= placed.count(good):
            return 0.0
        m = len(card.goods) - len(placed)
        p = self.good_chance(seat, include_current=False)
        return card.vp * (p ** (m - 1) - p**m)

    def best_contract_gain(self, seat: int, good: str) -> float:
        """What a cube of ``good`` adds on the seat's best contract for it (0 if none takes it)."""
        f = self.seat(seat)
        return max((self.contract_gain(seat, k, good) for k in range(len(f.contracts))), default=0.0)

    def needed(self, seat: int, good: str) -> bool:
        """Whether an open contract of the seat still lacks ``good`` beyond the cubes it holds."""
        key = (seat, good)  # remembered as ``good_chance`` (asked for every cube move of a loading decision)
        hit = self._needed.get(key)
        if hit is None:
            f = self.seat(seat)
            held = (f.warehouse + f.hall).count(good)
            missing = sum(c.goods.count(good) - p.count(good) for c, p in f.contracts)
            hit = self._needed[key] = missing > held
        return hit

    def store_value(self, seat: int, good: str) -> float:
        """A cube in the warehouse: 1 VP at the end, more if a contract still needs it."""
        return (0.8 if self.rounds_after > 2 else 1.0) + (0.6 if self.needed(seat, good) else 0.0)

    def keep_value(self, seat: int, good: str) -> float:
        """A cube in the market hall: no points, only future use."""
        if self.rounds_after == 0:
            return 0.0
        return 0.6 if self.needed(seat, good) else 0.15

    def cubes_value(self, seat: int, goods: list[str]) -> float:
        """Value of receiving ``goods`` now (a ship's cargo): contracts first, then merchants, then storage."""
        f = self.seat(seat)
        p = self.good_chance(seat, include_current=False)
        # Open slots per contract: [gain of its next cube, missing count, VP, missing goods].
        opens = []
        for c, placed in f.contracts:
            missing = list(c.goods)
            for g in placed:
                missing.remove(g)
            if missing:
                m = len(missing)
                opens.append([c.vp * (p ** (m - 1) - p**m), m, c.vp, missing])
        left = list(goods)
        total = 0.0
        while left and opens:  # greedily fill the contract slot that gains most
            best, bk, bg = 0.0, None, ""
            for o in opens:
                if o[0] > best:
                    for g in left:
                        if g in o[3]:
                            best, bk, bg = o[0], o, g
                            break
            if bk is None:
                break
            total += best
            left.remove(bg)
            bk[3].remove(bg)
            m = bk[1] = bk[1] - 1
            bk[0] = bk[2] * (p ** (m - 1) - p**m) if m else 0.0
        room = (self.warehouse_cap - len(f.warehouse)) if f.has_warehouse else 0
        rest = 0
        for g in left:
            if f.sells[g]:
                total += f.cv * f.sells[g]
            elif room > 0:
                room -= 1
                total += self.store_value(seat, g) * 0.8
            else:
                rest += 1
        if rest and len(f.hall) < self.hall_cap:
            total += 0.15 if self.rounds_after else 0.0
            rest -= 1
        return total + f.cv * (rest // 2)

    def fire_outcome(self, seat: int, mine: int) -> float:
        """Points the seat expects from the remaining fires if its firemen sum were ``mine``."""
        # Remembered per (seat, mine), as ``good_chance`` (asked twice for every Fireman card of every seat, and for
        # every projected score: 55,000 times in the decisions of a review, 10,400 of them for a value already
        # worked out; the same value).
        key = (seat, mine)
        v = self._fires.get(key)
        if v is not None:
            return v
        others = [self.seat(i).firemen for i in range(self.n) if i != seat]
        sums = [*others, mine]
        hi, lo = max(sums), min(sums)
        if hi == lo:
            v = 0.0
        else:
            sign = 1 if mine == hi else (-1 if mine == lo else 0)
            v = sign * float(sum(self.fires_future))
        self._fires[key] = v
        return v

    # -- cards ------------------------------------------------------------------------------------

    def card_value(self, seat: int, space: int) -> float:
        """What the card on water space ``space`` (with its cargo) is worth to ``seat``, in points."""
        key = (seat, space)
        v = self._values.get(key)
        if v is None:
            v = self._values[key] = self._card_value(seat, space)
        return v

    def _card_value(self, seat: int, space: int) -> float:
        card = self.offer[space]
        if card is None:
            return 0.0
        f = self.seat(seat)
        kind = card.kind
        r = self.rounds_after
        if kind == "contract":
            return self.contract_value(seat, card, [])
        if kind == "ship":
            return self.cubes_value(seat, self.cargo[space]) + (1.0 if f.port else 0.0)
        if kind == "merchant":
            ships = self.ships_future + self.ships_now
            expect = 3 * ships / 5 / self.n * 1.2 * 0.6
            in_sight = sum(c.count(card.good) for c in self.cargo) * 0.2
            return card.vp + min(1.0, 0.35 + 0.2 * r) * card.coins * (expect + in_sight)
        if kind == "warehouse":
            return 1.5 + min(2.0, 0.25 * (self.ships_future + self.ships_now)) * 0.8
        if kind == "counting_office":
            k = min(f.offices, len(self.office_points) - 2)
            marginal = self.office_points[k + 1] - self.office_points[k]
            return marginal + 0.4 * min(self.offices_future, len(self.office_points) - 2 - k)
        if kind == "fireman":
            if not self.fires_future:
                return 0.0
            delta = self.fire_outcome(seat, f.firemen + card.value) - self.fire_outcome(seat, f.firemen)
            return 0.75 * delta + 0.15 * card.value * len(self.fires_future)
        if kind == "bank":
            return 0.05 if r == 0 else 0.7 * (r + 1)
        if kind == "building":
            return float(card.vp)
        if kind == "chamber_of_commerce":
            return card.vp_per_coin * (f.coins + 1.0 * r)
        if kind == "port":
            return card.vp_per_ship * (f.ships + self.expected_ships(seat, include_current=True) * 0.8)
        return self._kai_card_value(seat, card, f)

    def _kai_card_value(self, seat: int, card: Any, f: _SeatFacts) -> float:
        """Kaispeicher's cards, in the same units (points), judged by what is left of the game."""
        kind, r = card.kind, self.rounds_after
        ships = self.ships_future + self.ships_now
        fires = len(self.fires_future)
        if kind == "delivery":
            in_sight = 0.3 * sum(c.count(card.good) for c in self.cargo)
            return card.points * (3 * ships / 8 / self.n * 1.2 * 0.6 + in_sight)
        if kind == "press":
            return card.vp_per_fireman * (f.kinds["fireman"] + 0.3 * r)
        if kind == "mayor":
            return 2.0 + 0.3 * f.kinds["building"]  # doubles the best pure point building the seat will own
        if kind == "harbour_tour":
            return card.vp_per_building * (f.kinds["building"] + 0.2 * r)
        if kind == "deichtorhallen":
            return card.vp_per_trader * (f.kinds["merchant"] + 0.2 * r)
        if kind == "accountant":
            return card.vp_per_contract * (len(f.contracts) + 0.3 * r)
        if kind in ("savings_bank", "thief"):
            coins = card.coins if kind == "savings_bank" else card.coins * (self.n - 1)
            return f.cv * coins
        if kind == "fire_engine":
            return 0.5 * fires * (1.0 if f.firemen else 0.3)
        if kind == "fire_chief":
            return 0.6 * (sum(self.fires_future) / max(1, fires)) if fires else 0.0
        if kind == "insurance":
            return 0.5 * sum(self.fires_future) / max(1, self.n)
        if kind in ("fish_market", "warehouse_workers"):
            return 1.5 if r else 0.0
        if kind in ("auction_hall", "smuggler", "truck", "spy", "coffee_break", "harbour_master"):
            return 1.0 if r else 0.2
        return 0.0

    def surplus(self, seat: int, space: int, price: int) -> float:
        """What the card on water space ``space`` is worth to ``seat`` beyond its ``price`` in coins (at the seat's coin
        value)."""
        f = self.seat(seat)
        return self.card_value(seat, space) - f.cv * price

    def projected_score(self, seat: int) -> float:
        """Points the seat may expect at the end: its score now plus what its holdings promise.

        Open contracts count at VP times their fill chance, coins at their current worth, remaining
        fires by the current firemen standings; used to cut rollouts short.
        """
        f = self.seat(seat)
        st = self.state
        value = float(st.score(seat))
        for c, placed in f.contracts:
            if len(placed) < len(c.goods):
                value += self.contract_value(seat, c, placed, include_current=False)
        if not f.chamber:
            value += f.cv * f.coins
        value += 0.6 * self.fire_outcome(seat, f.firemen)
        if f.hall and self.rounds_after:
            value += 0.2
        return value

    # -- decisions --------------------------------------------------------------------------------

    def action_values(self, actions: list[Action]) -> list[float]:
        """A value for each legal action of the seat to move (higher is better)."""
        if self.phase == "demand":
            return self._demand_values(actions)
        if self.phase == "purchase":
            return self._purchase_values(actions)
        if self.phase == "loading":
            return self._loading_values(actions)
        if self.phase == "fire":
            ci = self.kai.fire[0]
            strength = self.state.cat.cards[ci].strength
            return [strength - 2.5 if a.kind == "double" else strength - self.seat(self.state.to_move).cv * 2
                    if a.kind == "insure" else 0.0 for a in actions]
        if self.phase == "spy":
            return [self._spy_value(a) for a in actions]
        return [0.0] * len(actions)

    def _spy_value(self, a: Action) -> float:
        """Swapping a worker: worth it when it puts me first in line for a card I want (else keep the Spy)."""
        if a.kind != "spy":
            return 0.3
        me = self.state.to_move
        s1, l1, s2, l2 = a.args
        gain = 0.0
        if l2 == 0:
            gain += max(0.0, self.surplus(me, s2, len(self.columns[s2])))
        if l1 == 0:
            gain -= max(0.0, self.surplus(me, s1, len(self.columns[s1])))
        return gain

    def _demand_values(self, actions: list[Action]) -> list[float]:
        """Placing a worker: chance to end up first in line times the card's surplus over the likely price."""
        me = self.state.to_move
        # Workers placed, mine among them, and the columns I head (what I am committed to pay), in one pass over the
        # columns (three sums over generators cost ~2.8x: 1.2 -> 0.43 µs for 6 columns; the same counts).
        placed = mine_placed = committed = 0
        for c in self.columns:
            placed += len(c)
            mine_placed += c.count(me)
            if c and c[0] == me:
                committed += len(c)
        left_others = self.n * self.workers - placed - (self.workers - mine_placed)
        share = min(1.0, left_others / max(1, self.n))  # the same for every action: computed once
        f = self.seat(me)
        others = [i for i in range(self.n) if i != me]
        card_value = self.card_value
        out = []
        for a in actions:
            if a.kind in ("reserve", "break", "stop"):
                out.append(self._kai_demand_value(a, me))
                continue
            s = a.args[0]
            col = self.columns[s]
            pos = len(col)
            card = self.offer[s]
            if card is None:
                out.append(-1.0)
                continue
            # The other seats' value of the card and of a coin, read once for both sums below and kept for the
            # phase's later decisions (``surplus`` twice per seat cost ~1/3 of valuing a demand decision in the
            # profile of a review; the same numbers).
            both = self._rivals.get((me, s, pos))
            if both is None:
                theirs = self._theirs.get((me, s))
                if theirs is None:
                    theirs = self._theirs[(me, s)] = [(card_value(i, s), self.seat(i).cv) for i in others]
                # Others likely to join above me: seats that would still want the card at a higher price; and the
                # best rival's surplus (the first largest, as ``max``; 0.0 for none). One loop: a ``sum`` and a
                # ``max`` over generators cost ~3.5x (1.0 -> 0.29 µs for 2 rivals; the same numbers, the same
                # operations on them).
                hot = 0
                rivals = None
                for v, cv in theirs:
                    if v - cv * (pos + 2) > 0.5:
                        hot += 1
                    r = v - cv * (pos + 1)
                    if rivals is None or r > rivals:
                        rivals = r
                both = self._rivals[(me, s, pos)] = (hot, 0.0 if rivals is None else rivals)
            hot, rivals = both
            extra = (hot if hot < 2 else 2) * share * 0.5
            final_len = pos + 1 + extra
            my_price = final_len - pos
            p_get = 1.0
            deny = 0.0
            for j, b in enumerate(col):
                if b == me:  # my own worker below: adding another only raises my own price
                    p_get = 0.0
                    break
                price_b = final_len - j
                fb = self.seat(b)
                passes = fb.coins < price_b or self.surplus(b, s, round(price_b)) < 0
                p_get *= 0.85 if passes else 0.15
                if not passes:
                    deny += 0.15 * fb.cv  # I raise an opponent's price by a coin
            if f.coins - committed < my_price:
                p_get *= 0.3
            gain = self.card_value(me, s) - f.cv * my_price
            # Worth a worker only if I would buy at the expected price; taking it also denies rivals.
            out.append(deny + (p_get * (gain + 0.15 * max(0.0, rivals)) if gain > 0 else 0.0))
        return out

    def _kai_demand_value(self, a: Action, me: int) -> float:
        """Reserving a top-row card (only I may buy it, at about the column's size), or waiting."""
        if a.kind == "reserve":
            space = self.top_at + a.args[0]
            price = len(self.kai.reserved) + 1.5
            gain = self.card_value(me, space) - self.seat(me).cv * price
            return gain if gain > 0 else 0.0
        return 0.05 if a.kind == "break" else 0.0

    def _purchase_values(self, actions: list[Action]) -> list[float]:
        """Buying: the card's surplus over the price, unless coins are better kept for a later card."""
        me = self.state.to_move
        space = self.state.space
        if space >= self.top_at:  # Kaispeicher: a reserved card, bought only by its reserver
            vspace = self.res_at + self.kai.rpos
            price = len(self.kai.reserved) - self.kai.rpos
            value = self.card_value(me, vspace)
            return [value - 1.5 if a.args == ("free",) else
                    value - self.seat(me).cv * price if a.kind == "buy" else 0.0 for a in actions]
        col = self.columns[space]
        price = len(col)
        f = self.seat(me)
        buy = self.surplus(me, space, price)
        if len(col) > 1 and col[1] == me:
            buy = -1.0  # my next worker gets the same card one coin cheaper
        else:
            # Keep coins for a better card later in the row that I am first in line for.
            left = f.coins - price
            for t in range(space + 1, len(self.offer)):
                c = self.columns[t]
                if self.offer[t] is not None and c and c[0] == me:
                    later = self.surplus(me, t, len(c))
                    if later > buy and left < len(c):
                        buy = min(buy, -0.01)
                    if later > 0:
                        left -= len(c)
        free = self.card_value(me, space) - 1.5  # the Fish Market is worth keeping for a better card
        return [free if a.args == ("free",) else buy if a.kind == "buy" else 0.0 for a in actions]

    def _alt(self, seat: int, good: str, hallsell: bool = True) -> float:
        """Best simple use of one dock cube other than a contract or conversion."""
        f = self.seat(seat)
        best = 0.0
        if f.sells[good]:
            best = f.cv * f.sells[good]
        if f.has_warehouse and len(f.warehouse) < self.warehouse_cap:
            best = max(best, self.store_value(seat, good))
        if len(f.hall) < self.hall_cap:
            best = max(best, self.keep_value(seat, good))
        if hallsell:
            best = max(best, 0.5 * f.cv)
        return best

    def _loading_values(self, actions: list[Action]) -> list[float]:
        """Loading: each cube move against letting the cube expire (value 0); ``done`` when nothing gains."""
        me = self.state.to_move
        f = self.seat(me)
        out = []
        for a in actions:
            kind, args = a.kind, a.args
            if kind == "contract":
                v = self.contract_gain(me, args[1], args[0]) + 0.02
            elif kind == "sell":
                v = f.cv * f.sells[args[0]]
            elif kind == "store":
                v = self.store_value(me, args[0])
            elif kind == "keep":
                v = self.keep_value(me, args[0])
            elif kind == "take":
                g, where = args
                held = self.store_value(me, g) if where == "warehouse" else self.keep_value(me, g)
                use = self.best_contract_gain(me, g)
                if where == "hall" and self.rounds_after == 0:
                    use = max(use, self._alt(me, g, hallsell=False) if f.has_warehouse else 0.0, f.cv * f.sells[g])
                v = use - held - 0.05
            elif kind == "convert":
                *given, _, target = args
                v = self.best_contract_gain(me, target) - sum(self._alt(me, g) for g in given)
            elif kind == "hallsell":
                v = f.cv - sum(self._alt(me, g, hallsell=False) for g in args)
            elif kind == "deliver":
                v = float(f.delivers[args[0]])
            elif kind in ("auction", "smuggle"):
                g = args[-1]
                v = max(self.best_contract_gain(me, g), float(f.delivers[g]), f.cv * f.sells[g]) - 0.8
            elif kind == "truck":
                g, k1, k2 = args
                c1, placed1 = f.contracts[k1]
                v = self.contract_gain(me, k2, g) - (c1.vp if len(placed1) == len(c1.goods) else 0.3)
            else:  # done: the remaining dock cubes expire
                v = _EPS
            out.append(v)
        return out


# game -> (its GameInfo, its heuristic class): looking the capability up on every rollout move cost ~5% of a greedy
# rollout (importlib on each call; profile in docs/review.md). Kept only while the game's registration is the same.
_HEURISTICS: dict[str, tuple[Any, Any]] = {}


#: The greedy player's remembered choices by public position (``act``; every GreedyBot shares them: the choice does
#: not depend on the bot's seed, only the draw among ties does). An entry is ~0.7 kB with the numbered key (measured
#: with tracemalloc; ~1.5 kB with ``public_key``'s), so 12,000 hold ~9 MB of a kernel, and the numbers a few MB more:
#: ~30 decisions of a review (a decision's rollouts left ~375 positions).
_CHOICES = DecisionMemo(12_000)


def _heuristic_class(state: GameState) -> Any:
    """The heuristic class the game's plugin declares (its "heuristic" capability), looked up once per registration;
    ValueError for a game that declares none."""
    info = get_game(state.game)
    hit = _HEURISTICS.get(state.game)
    if hit is not None and hit[0] is info:
        return hit[1]
    cls = info.capability("heuristic")
    if cls is None:
        raise ValueError(f"bot: the greedy bot needs a heuristic, and {state.game!r} declares none "
                         "(its GameInfo has no 'heuristic' capability); use the random or MCTS bot")
    _HEURISTICS[state.game] = (info, cls)
    return cls


class _Numbers:
    """Small ints standing for values by equality (a seat's fields, a hidden field's multiset): equal values get
    the same number while both are remembered, and a number never stands for two values (it is never reused).

    Bounded: when full it starts afresh (a value seen again then gets a new number: a memo entry missed, never a
    wrong one). A number is hashed and compared in one step, a seat's fields in ~16."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._of: dict[Any, int] = {}
        self._next = itertools.count()

    def of(self, value: Any) -> int:
        """The number of ``value`` (hashable)."""
        n = self._of.get(value)
        if n is None:
            if len(self._of) >= self.size:
                self._of = {}
            n = self._of[value] = next(self._next)
        return n


def _numbered_keyer(cls: type, heuristic: Any, size: int = 20_000) -> Any:
    """``key(state)`` for states of ``cls`` and the heuristic class ``heuristic``: the heuristic, the state class and
    the same facts as ``memo.public_key`` (the fields its schema declares, each read as ``public_key`` reads it, in
    one flat tuple), with each seat, the expansion's part and each hidden field's multiset replaced by its number
    (:class:`_Numbers`, holding ``size`` values); equal keys exactly where ``public_key``'s are equal, up to a restart
    of the numbers when ``size`` are held, which only splits (a value numbered again gets a new number, never an old
    one). None where ``public_key`` gives none (no declared schema)."""
    schema = getattr(cls, "schema", None)
    if schema is None:
        return None
    plain, hidden, lists, parts, contexts = classify_fields(schema)  # as memo._keyer reads them
    # ~12,000 values in a whole review of a 3-player game (its memo of choices holds as many positions); an entry
    # is a few hundred bytes, so 20,000 hold a few MB.
    numbers = _Numbers(size)
    # A seat or part is never changed once its position is made (copy-on-write), so its number is kept by identity
    # for the positions that share it (the object held, so no other takes its id while the entry lives).
    by_object: dict[int, tuple[Any, int]] = {}
    getters: dict[type, Any] = {}
    # A hidden field changes only with a draw: the last tuple read and its multiset's number, per field.
    last: list[tuple[Any, int]] = [(None, -1) for _ in hidden]
    pinned: set[tuple[int, ...]] = set()

    def number(obj: Any) -> int:
        hit = by_object.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]
        kind = obj.__class__
        get = getters.get(kind)
        if get is None:
            names = tuple(f.name for f in kind.schema.fields if f.name not in _SKIP)
            get = getters[kind] = operator.attrgetter(*names) if len(names) > 1 else (
                lambda o, n=names[0]: (getattr(o, n),))
        n = numbers.of((kind, get(obj)))
        if len(by_object) >= 1024:
            by_object.clear()
        by_object[id(obj)] = (obj, n)
        return n

    def pin(objs: tuple[Any, ...], ids: tuple[int, ...]) -> None:
        for o in objs:
            identity(o)
        pinned.add(ids)

    def hidden_number(i: int, v: Any) -> tuple[Any, int]:
        pair = last[i] = (v, numbers.of(("hidden", i, _multiset(v))))
        return pair

    # Written out for the schema's fields, one statement each (the same key built in loops cost ~1.8x: 3.1 against
    # 1.7 µs a position).
    lines = ["def key(st):", f"    objs = ({''.join(f'st.{n}, ' for n in contexts)})",
             "    ids = tuple(map(id, objs))", "    if ids not in pinned:", "        pin(objs, ids)"]
    for i, n in enumerate(hidden):
        lines += [f"    h{i} = last[{i}]", f"    if h{i}[0] is not st.{n}:",
                  f"        h{i} = hidden_number({i}, st.{n})"]
    parts_code = "".join(f"None if (p{i} := st.{n}) is None else number(p{i}), " for i, n in enumerate(parts))
    lines.append(f"    return (heuristic, kind, {''.join(f'st.{n}, ' for n in plain)}ids, "
                 f"{''.join(f'h{i}[1], ' for i in range(len(hidden)))}"
                 f"{''.join(f'tuple(st.{n}), ' for n in lists)}{parts_code}*map(number, st.seats))")
    space: dict[str, Any] = {"pinned": pinned, "pin": pin, "last": last, "hidden_number": hidden_number,
                             "number": number, "heuristic": heuristic, "kind": cls}
    exec("\n".join(lines), space)  # code made from the schema's own field names (as engine/schema.py's copier)
    key: Any = space["key"]
    return key


#: ``key(state)`` by heuristic class and state class (``_memo_key``).
_KEYERS: dict[Any, dict[type, Any]] = {}


def _keyer_for(kind: type, cls: Any) -> Any:
    """``key(state)`` of ``_memo_key`` for states of ``kind`` and the heuristic class ``cls``."""
    if not getattr(cls, "memo", True):
        return lambda st: None
    keyer = _numbered_keyer(kind, cls)
    if keyer is None:
        def keyer(st: Any) -> Any:
            key = public_key(st)
            return None if key is None else (cls, key)
    return keyer


def _memo_key(state: GameState, cls: Any) -> Any:
    """The key ``act`` remembers the choice at ``state`` by: the game's heuristic class ``cls`` (so another heuristic
    registered for the game never reads this one's choices) and the public key; None where nothing is remembered: a
    heuristic that says ``memo = False``. Packet Row's does: its rollouts draw cards all along and a fair rollout
    resamples the other seats' secret contracts, so a review's rollouts found 108 remembered choices in 29,834 (2,223
    keyed by the mover's observation), less than a key costs.

    The public key with numbers for the seats, the expansion's part and the hidden multisets (``_numbered_keyer``):
    ``public_key`` and the memo's lookups with it were ~1/5 of a review's CPU in a sampled profile; a numbered key and
    its hash cost 2.1 µs a position against 4.9 (same equal keys)."""
    keyers = _KEYERS.get(cls)
    if keyers is None:
        keyers = _KEYERS[cls] = {}
    kind = state.__class__
    keyer = keyers.get(kind)
    if keyer is None:
        keyer = keyers[kind] = _keyer_for(kind, cls)
    return keyer(state)


def heuristic_for(state: GameState) -> Any:
    """The heuristic the game's plugin declares (its "heuristic" capability), for ``state``."""
    return _heuristic_class(state)(state)


class GreedyBot:
    """A rule-based player (Speicherstadt, Packet Row): takes the legal action its heuristic values most.

    ``epsilon`` is the chance of a uniformly random action instead (for varied rollouts); ties and
    that chance are drawn from a generator seeded by (seed, position), so equal seeds replay equally.
    """

    name = "greedy"

    def __init__(self, seed: int = 0, epsilon: float = 0.0) -> None:
        self.seed = seed
        self.epsilon = float(epsilon)

    def params(self) -> dict[str, Any]:
        """Name, seed and exploration rate ``epsilon``: all it takes to make this bot again."""
        return {"bot": self.name, "seed": self.seed, "epsilon": self.epsilon}

    def __repr__(self) -> str:
        return f"GreedyBot(seed={self.seed}, epsilon={self.epsilon})"

    def _rng(self, obs: GameState) -> Rng:
        # A cheap key: the bot's choice is a function of the observation, the key only breaks ties.
        return Rng(self.seed, "greedy", obs.round, obs.phase, obs.to_move, obs.last_action, len(obs.events))

    def choose(self, obs: GameState) -> Action:
        """The best action by the game's heuristic (a random one with probability ``epsilon``), seeded per position."""
        return self.act(obs, self._rng(obs))

    def act(self, state: GameState, rng: Rng) -> Action:
        """The choice at ``state`` with ``rng`` for ties (fast path for rollouts; public facts only)."""
        actions = state.legal_actions()
        if len(actions) == 1:
            return actions[0]
        if self.epsilon and rng.random() < self.epsilon:
            return actions[rng.below(len(actions))]
        # The heuristic is a function of the public position: its tied best actions are remembered by the position's
        # public key (~10 µs against ~0.5-1 ms for valuing the actions), and a tie is still drawn from ``rng``, so the
        # moves are the very same. Rollouts replay positions often (the 20 of an action share every move up to the
        # next draw; neighbouring decisions of a review pass through each other's): measured in docs/review.md.
        # (The class looked up once for the key and the values: the registry was read twice a move before.)
        cls = _heuristic_class(state)
        key = _memo_key(state, cls)
        ties = _CHOICES.get(key) if key is not None else None
        if ties is None:
            values = cls(state).action_values(actions)
            best = max(values)
            ties = tuple([a for a, v in zip(actions, values, strict=True) if v >= best - 1e-9])
            if key is not None:
                _CHOICES.put(key, ties)
        return ties[0] if len(ties) == 1 else ties[rng.below(len(ties))]

    def projected_scores(self, state: GameState) -> list[float]:
        """Heuristic final scores of every seat (an evaluator for truncated rollouts)."""
        h = heuristic_for(state)
        return [h.projected_score(i) for i in range(state.n_players)]

    def explain(self, obs: GameState) -> pd.DataFrame:
        """The heuristic value of every legal action, best first (the bot plays the top row)."""
        actions = obs.legal_actions()
        values = heuristic_for(obs).action_values(actions)
        df = pd.DataFrame({"action": [str(a) for a in actions], "value": values})
        return df.sort_values("value", ascending=False, kind="stable").reset_index(drop=True)


register_bot("greedy", GreedyBot)
