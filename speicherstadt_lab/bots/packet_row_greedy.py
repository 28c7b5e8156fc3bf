"""The Packet Row heuristic of :class:`~speicherstadt_lab.bots.greedy.GreedyBot`.

A seat's holdings (money, hand, ships) are worth dollars: money and money cards at face value, buildings their
victory points at $10 each (a little less early, when money still grows through contracts), contracts what they
would pay less what is still missing (goods units and a ship, dearer late in the game, when little is left to
buy), spare goods, ships, captains, merchants and assistants a little while the game runs, and bankers by the
money race. An action is worth the change it makes to the mover's holdings; choosing a board (or declining, in
the hope of a better board) is worth an estimate of the best cards the mover could take there.

Only public facts are read: the mover's own hand, the supplies, the deck sizes and everybody's money, so the
bot gives the same answer on ``state.observe(seat)`` as on the full state.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any, ClassVar

from ..engine.actions import Action

_DPV = 10.0  # dollars per victory point


class PacketRowHeuristic:
    """Values of the legal actions of the seat to move in a Packet Row position, in dollars."""

    # One is made at every move of a rollout: slots, no instance dict (faster attributes, one container less a move)
    __slots__ = ("_allocs", "_banker_table", "_by_start", "_cash", "_hand_parts", "_mine", "_mine_hand", "_mine_ships",
                 "_others", "_others_seat", "_shapes", "_tables", "_terms", "_wealths", "_worth", "amount",
                 "banker_mean", "banker_points", "building_weight", "dest", "final", "good", "kind", "n", "nt",
                 "progress", "seat", "ship_cost", "spare", "state", "unit_cost")

    _deck_sizes: ClassVar[dict[str, tuple[int, ...]]] = {}
    #: The greedy player remembers no choices here (``greedy._memo_pays``: the positions of rollouts hardly repeat).
    memo: ClassVar[bool] = False
    # By catalogue, then (progress, final): that stage's costs and weights, a dict of holdings by (hand, ships) and one
    # of the contracts' worth by the allocation's start (``_start_worth``), pure functions of these, asked ~11 times a
    # decision for mostly the same hands (every action's holdings, every rollout from the same position).
    # Remembering it made the greedy bot ~1.6x faster in the review's rollouts (profile in docs/review.md); the same
    # values. A holdings entry holds the hand's money cards' sum, weighted building points, bankers and contracts'
    # worth (``_held``), and the values of that hand with one card more (``_plus``).
    # ``_contracts_count``: the entries held, one card more counted as one (all are dropped at ``_MEMO_SIZE``).
    _contracts_memo: ClassVar[dict[str, dict[tuple[float, bool], tuple[Any, ...]]]] = {}
    _contracts_count: ClassVar[list[int]] = [0]
    _MEMO_SIZE: ClassVar[int] = 200_000
    # (money cards' sum, building points, bankers) by catalogue, then hand (``_parts``)
    _hand_memo: ClassVar[dict[str, dict[tuple[int, ...], tuple[int, int, int]]]] = {}
    # ``_summary`` by catalogue, then (hand, ships), and ``_allocate`` by catalogue, then its start; each emptied at
    # ``_SHAPES_SIZE`` entries (a kernel's memory: their entries are larger than the worths')
    _SHAPES_SIZE: ClassVar[int] = 50_000
    _shape_memo: ClassVar[dict[str, dict[tuple[Any, ...], tuple[Any, ...]]]] = {}
    _alloc_memo: ClassVar[dict[str, dict[tuple[Any, ...], tuple[Any, ...]]]] = {}
    # ``_context`` by (catalogue, players, notation)
    _contexts: ClassVar[dict[tuple[Any, ...], tuple[Any, tuple[Any, ...]]]] = {}
    # ``_progress`` by (catalogue, players, the decks' lengths)
    _progress_memo: ClassVar[dict[tuple[Any, ...], float]] = {}
    # everything ``__init__`` reads (``_setup``) by (notation id, players, final, the decks' lengths)
    _setups: ClassVar[dict[tuple[Any, ...], tuple[Any, ...]]] = {}

    def __init__(self, state: Any) -> None:
        self.state = state
        nt = self.nt = state.nt
        n = self.n = state.n_players
        self.seat: int | None = state.to_move
        final = self.final = state.phase in ("final", "over")
        if PacketRowHeuristic._contracts_count[0] > self._MEMO_SIZE:
            self._forget()
        # Made at every move of a rollout: what depends only on the catalogue and player count (``_context``) and
        # on (progress, final) is looked up, not recomputed (the set-up was ~1/10 of the heuristic, measured); now in
        # one look-up by the decks' lengths instead of three, and the seats' wealth read only when a banker is
        # valued: 2.4 -> 1.5 µs a position (the 3,219 positions of 30 greedy games, memos warm).
        key = (id(nt), n, final, *map(len, state.decks))
        hit = self._setups.get(key)
        if hit is None or hit[0] is not nt:
            hit = self._setup(state, key)
        (_, self.progress, self._banker_table, self.kind, self.good, self.dest, self.amount, self._terms,
         self._tables, self.banker_points, self.banker_mean, self._hand_parts, self._shapes, self._allocs,
         self.unit_cost, self.ship_cost, self.spare, self.building_weight, self._worth, self._by_start) = hit
        self._cash: float | None = None  # the value of any cash action at this position (``_cash_value``)
        self._mine: tuple[Any, ...] | None = None  # the mover's ``_held`` entry (``action_values``)
        self._mine_hand: tuple[int, ...] = ()
        self._mine_ships: tuple[int, ...] = ()
        self._others_seat: int | None = None  # the seat whose others' wealth ``_others`` holds (``_bankers_worth``)
        self._others: list[int] = []
        self._wealths: list[int] | None = None

    @property
    def wealth(self) -> list[int]:
        """Every seat's money with its money cards (``state._wealth``), the cards' sum read from the hand memo."""
        parts = self._hand_parts
        return [s.money + (parts.get(s.hand) or self._parts(s.hand))[0] for s in self.state.seats]

    @classmethod
    def _forget(cls) -> None:
        """Drop every stage's remembered holdings (``_MEMO_SIZE``): a kernel's memory."""
        for memo in list(cls._contracts_memo.values()):  # a copy: another thread may add a catalogue meanwhile
            memo.clear()
        cls._setups.clear()
        cls._contracts_count[0] = 0

    @classmethod
    def _setup(cls, state: Any, key: tuple[Any, ...]) -> tuple[Any, ...]:
        """(notation, progress, a banker's expected points by the number of richer seats, the ``_context``, the
        stage's costs, weights and memos) of a state, remembered by ``key``."""
        nt, final, n = state.nt, key[2], state.n_players
        context = cls._context(nt, n)
        p = cls._progress(state)
        points, mean = context[6], context[7]
        bankers = tuple([p * now + (1 - p) * 0.5 * (now + mean)
                         for now in [points[r] if r < len(points) else 0 for r in range(n)]])
        memo = context[-1]
        stage = memo.get((p, final))
        if stage is None:
            stage = memo[(p, final)] = (
                4.0 + 10.0 * p,  # what a missing goods unit will cost (dearer and rarer late)
                3.0 + 12.0 * p,  # a missing ship
                0.0 if final else 1.0 - p,  # weight of cards not (yet) needed for a contract
                _DPV / (1.0 + 0.6 * (1.0 - p)),  # dollars per building point
                {},  # holdings by (hand, ships) (``_held``)
                {})  # the contracts' worth by the allocation's start (``_start_worth``)
        hit = (nt, p, bankers, *context[:-1], *stage)
        if len(cls._setups) > cls._SHAPES_SIZE:
            cls._setups.clear()
        cls._setups[key] = hit
        return hit

    @classmethod
    def _context(cls, nt: Any, n: int) -> tuple[Any, ...]:
        """What the heuristic reads of a catalogue at a player count, and its memos (made once)."""
        key = (nt.cat.digest, n, id(nt))
        hit = cls._contexts.get(key)
        if hit is None or hit[0] is not nt:
            digest = nt.cat.digest
            points = nt.banker_points[n]
            kind, amount = nt.kind, nt.tables.amount
            terms = tuple(zip(nt.good, amount, nt.dest, nt.pays, strict=True))  # per card type, for ``_allocate``
            # per card type, for ``_summary``: gold bars, whether a contract, minus its pay, whether goods; and the
            # single types' cards (banker, captain, merchant, assistant)
            tables = (tuple(a if k == "gold" else 0 for k, a in zip(kind, amount, strict=True)),
                      tuple(k == "contract" for k in kind),
                      tuple(-p if k == "contract" else 0 for k, p in zip(kind, nt.pays, strict=True)),
                      tuple(k == "goods" for k in kind),
                      tuple(nt.single[k] for k in ("banker", "captain", "merchant", "assistant")))
            hit = cls._contexts[key] = (nt, (
                kind, nt.good, nt.dest, amount, terms, tables, points, sum(points) / n,
                cls._hand_memo.setdefault(digest, {}), cls._shape_memo.setdefault(digest, {}),
                cls._alloc_memo.setdefault(digest, {}), cls._contracts_memo.setdefault(digest, {})))
        return hit[1]

    @classmethod
    def _progress(cls, state: Any) -> float:
        """How far the game is: 0 at the start, about 1 when the end condition is reached."""
        nt = state.nt
        # a function of the catalogue, the player count and the decks' lengths: remembered by them (~1/3 of the
        # heuristic's set-up, which is made at every move of a rollout)
        key = (nt.cat.digest, state.n_players, *map(len, state.decks))
        progress = cls._progress_memo.get(key)
        if progress is not None:
            return progress
        sizes = cls._deck_sizes.get(nt.cat.digest)
        if sizes is None:
            sizes = tuple(max(1, sum(c.count for c in nt.cat.deck(b))) for b in ("guild", "docks", "market", "bank"))
            cls._deck_sizes[nt.cat.digest] = sizes
        used = sorted((1.0 - len(d) / s for d, s in zip(state.decks, sizes, strict=True)), reverse=True)
        k = nt.end_boards[state.n_players]
        progress = min(1.0, max(0.0, used[k - 1]))
        if len(cls._progress_memo) < cls._MEMO_SIZE:
            cls._progress_memo[key] = progress
        return progress

    # -- holdings -------------------------------------------------------------------------------

    def contracts_value(self, hand: tuple[int, ...], ships: tuple[int, ...]) -> float:
        """Contracts by what they pay less what is missing; spare items a little (dollars)."""
        return self._held(tuple(hand), tuple(ships))[3]

    def holdings(self, hand: tuple[int, ...], ships: tuple[int, ...]) -> tuple[Any, ...]:
        """The remembered entry of a hand and ships at this position's (progress, final), for ``plus_value``."""
        return self._worth.get((hand, ships)) or self._held(hand, ships)

    def _held(self, hand: tuple[int, ...], ships: tuple[int, ...]) -> tuple[Any, ...]:
        """(money cards' sum, building points × weight, bankers, contracts' worth, building points, the allocation's
        start, the values of one card more) of a hand and ships at this (progress, final), remembered."""
        key = (hand, ships)
        hit = self._worth.get(key)
        if hit is None:
            cash, vp, bankers, start = self._summary(hand, ships)
            worth = self._by_start.get(start)
            if worth is None:
                worth = self._start_worth(start)
            hit = self._worth[key] = (cash, self.building_weight * vp, bankers, worth, vp, start, {})
            PacketRowHeuristic._contracts_count[0] += 1
        return hit

    def _summary(self, hand: tuple[int, ...], ships: tuple[int, ...]) -> tuple[int, int, int, Any]:
        """(money cards' sum, building points, bankers, the allocation's start) of a hand and ships, which do not
        depend on how far the game is: remembered by hand and ships (emptied at ``_SHAPES_SIZE``).

        The start is what ``_allocate`` reads of the hand: (contracts dearest first (stable), goods units per good,
        gold bars, captains, merchants, assistants, ship destinations); a hand or ships with one card more is
        valued from it (``_plus``) without scanning the hand again."""
        hit = self._shapes.get((hand, ships))
        if hit is not None:
            return hit
        nt = self.nt
        gold_bars, is_contract, minus_pay, is_goods, (banker, captain, merchant, assistant) = self._tables
        # Each sum, count and filter over the hand in C through a per-card table instead of one loop testing each
        # card's kind: ~2.8x faster (measured on the hands of greedy games). The same whole numbers; the contracts
        # in the same (stable) order.
        contracts = list(filter(is_contract.__getitem__, hand))
        if len(contracts) > 1:
            contracts.sort(key=minus_pay.__getitem__)
        units = [0] * len(nt.goods)
        good, amount = self.good, self.amount
        for c in filter(is_goods.__getitem__, hand):
            units[good[c]] += amount[c]
        dest = self.dest
        start = (tuple(contracts), tuple(units), sum(map(gold_bars.__getitem__, hand)), hand.count(captain),
                 hand.count(merchant), hand.count(assistant), tuple([dest[s] for s in ships]))
        hit = (sum(map(nt.money_value.__getitem__, hand)), sum(map(nt.building_vp.__getitem__, hand)),
               hand.count(banker), start)
        if len(self._shapes) > self._SHAPES_SIZE:
            self._shapes.clear()
        self._shapes[(hand, ships)] = hit
        return hit

    def _start_worth(self, start: tuple[Any, ...]) -> float:
        """The contracts' worth at this (progress, final) of an allocation's start, remembered by it for this stage;
        the allocation itself by it for the catalogue."""
        # Many hands share a start (they differ in money cards, buildings, bankers, or were seen at another
        # progress): a review's decisions made 227,027 allocations of 23,663 starts and 231,366 worths of 17,310
        # (shape, progress) pairs (counted in the seed-2 game's review), so both are remembered.
        shape = self._allocs.get(start)
        if shape is None:
            shape = self._allocate(*start)
            if len(self._allocs) > self._SHAPES_SIZE:
                self._allocs.clear()
            self._allocs[start] = shape
        worth = self._by_start[start] = self._shape_worth(shape)
        PacketRowHeuristic._contracts_count[0] += 1
        return worth

    def _allocate(self, contracts: tuple[int, ...], units_at: tuple[int, ...], gold: int, captains: int,
                  merchants: int, assistants: int, dests: tuple[int, ...]) -> tuple[Any, int, int, int, int, int]:
        """((pays, units still needed, ship missing) per contract, dearest first; then the spare goods units, gold
        bars, ships, captains and merchants, and assistants): the hand's goods, gold, merchants, ships and captains
        given to its contracts, dearest first."""
        if not contracts:
            return ((), sum(units_at), gold, len(dests), captains + merchants, assistants)
        # (good, units, destination, pay) of each contract read from one tuple and min() written out as comparisons
        # (no count of goods is ever negative): 148 -> 37 ns a min() (timeit)
        terms = self._terms
        units = list(units_at)
        ship_dests = list(dests)
        served: list[int] = []
        shape: list[tuple[int, int, int]] = []
        for c in contracts:
            g, need, d, pay = terms[c]
            have = units[g]
            if have >= need:
                units[g] = have - need
                need = 0
            else:
                units[g] = 0
                need -= have
                if gold:
                    if gold >= need:
                        gold -= need
                        need = 0
                    else:
                        need -= gold
                        gold = 0
            if need and merchants:
                other = max(((units[h], h) for h in range(len(units)) if h != g and units[h] > 0), default=None)
                if other is not None:
                    merchants -= 1
                    use = min(other[0], need)
                    units[other[1]] -= other[0]
                    need -= use
            ship_missing = 0
            if d in served:
                pass
            elif d in ship_dests:
                ship_dests.remove(d)
                served.append(d)
            elif ship_dests and captains:
                captains -= 1
                ship_dests.pop()
                served.append(d)
            else:
                ship_missing = 1
            shape.append((pay, need, ship_missing))
        return (tuple(shape), sum(units), gold, len(ship_dests), captains + merchants, assistants)

    def _shape_worth(self, shape: tuple[Any, ...]) -> float:
        """The contracts' worth of an allocation at this (progress, final): the only part that depends on them."""
        contracts, units, gold, ships_left, helpers, assistants = shape
        total = 0.0
        final, unit_cost, ship_cost = self.final, self.unit_cost, self.ship_cost
        for pays, need, ship_missing in contracts:
            if not need and not ship_missing:
                total += 0.97 * pays
            elif not final:
                total += 0.75 * max(0.0, pays - need * unit_cost - ship_missing * ship_cost)
        spare = self.spare
        if spare:
            total += spare * (1.2 * units + 1.2 * gold + 1.5 * ships_left + 2.0 * helpers + 2.5 * assistants)
        return total

    def _plus(self, held: tuple[Any, ...], c: int) -> tuple[int, float, int, float]:
        """(money cards' sum, building points × weight, bankers, contracts' worth) of ``held``'s hand with card type
        ``c`` added last (a ship: its ships), from ``held``'s allocation start: the very values ``_held`` gives
        ``(*hand, c)`` (or ``(*ships, c)``), remembered in ``held``."""
        cash, vp_worth, bankers, worth, vp, start, plus = held
        k = self.kind[c]
        if k == "money":
            hit = (cash + self.nt.value[c], vp_worth, bankers, worth)
        elif k == "building":
            hit = (cash, self.building_weight * (vp + self.nt.vp[c]), bankers, worth)
        elif k == "banker":
            hit = (cash, vp_worth, bankers + 1, worth)
        else:
            contracts, units, gold, captains, merchants, assistants, dests = start
            if k == "goods":
                g = self.good[c]
                units = (*units[:g], units[g] + self.amount[c], *units[g + 1:])
            elif k == "contract":
                # the stable sort by pay of the hand with c last: after every contract paying as much or more
                pays = self.nt.pays
                p = pays[c]
                i = 0
                while i < len(contracts) and pays[contracts[i]] >= p:
                    i += 1
                contracts = (*contracts[:i], c, *contracts[i:])
            elif k == "ship":
                dests = (*dests, self.dest[c])
            elif k == "gold":
                gold += self.amount[c]
            elif k == "captain":
                captains += 1
            elif k == "merchant":
                merchants += 1
            elif k == "assistant":
                assistants += 1
            else:  # a kind no contract reads
                plus[c] = hit = (cash, vp_worth, bankers, worth)
                return hit
            start = (contracts, units, gold, captains, merchants, assistants, dests)
            more = self._by_start.get(start)
            if more is None:
                more = self._start_worth(start)
            hit = (cash, vp_worth, bankers, more)
        plus[c] = hit
        PacketRowHeuristic._contracts_count[0] += 1
        return hit

    def _bankers_worth(self, wealth: int, bankers: int, seat: int) -> float:
        """The bankers' expected points in dollars, by how many seats are richer (``self.wealth``) and the game's
        progress."""
        # Asked for ~6 holdings a move: the others' wealth sorted once per seat (the richer ones counted by bisect)
        # and a banker's expected points by that count once per (players, progress) (``_setup``), instead of a
        # generator over the seats and the formula each time: 630 -> 80 ns (timeit, 3 seats), the same numbers.
        # Written out in the loops over cards (``action_values``, ``board_value``).
        if self._others_seat != seat:
            self._others_of(seat)
        others = self._others
        return _DPV * bankers * self._banker_table[len(others) - bisect_right(others, wealth)]

    def _others_of(self, seat: int) -> None:
        """The other seats' wealth, sorted, for ``_bankers_worth`` (every seat's read once a position)."""
        if self._wealths is None:
            self._wealths = self.wealth
        self._others = sorted([w for i, w in enumerate(self._wealths) if i != seat])
        self._others_seat = seat

    def holdings_value(self, money: int, hand: tuple[int, ...], ships: tuple[int, ...], seat: int) -> float:
        """What a seat's money, hand and ships are worth in dollars (money cards, buildings' points, the contracts'
        worth, the bankers' expected points): the value actions are compared by."""
        # A hand's money cards, building points and bankers (whole numbers) are remembered by hand, as its contracts'
        # worth is: this loop was the largest single cost of Packet Row's greedy player (39 of 153 s of its live
        # analysis, profiled; 388k calls for 55k choices). The same sums, so the same values.
        # Now with the contracts' worth and the weighted building points in the same memo entry, by (hand, ships) for
        # this (progress, final): one look-up a holdings instead of two and a call (the heuristic's cut, measured
        # in docs/review.md). The same numbers in the same order, so the same values.
        cash, vp_worth, bankers, worth, _, _, _ = self._worth.get((hand, ships)) or self._held(hand, ships)
        wealth = money + cash
        value = wealth + vp_worth + worth
        if bankers:
            value += self._bankers_worth(wealth, bankers, seat)
        return value

    def plus_value(self, money: int, held: tuple[Any, ...], c: int, seat: int) -> float:
        """``holdings_value(money, (*hand, c), ships, seat)`` (a ship: ``(*ships, c)``) for ``held =
        holdings(hand, ships)``, the same number."""
        # The cards on offer valued from the mover's one memo entry, by card type (an int key), instead of a new
        # (hand + card, ships) key hashed and, at a new position, the hand scanned again per card: the seed-2
        # game's review (one process) took 23.0 -> 17.0 CPU s with this alone
        cash, vp_worth, bankers, worth = held[6].get(c) or self._plus(held, c)
        wealth = money + cash
        value = wealth + vp_worth + worth
        if bankers:
            value += self._bankers_worth(wealth, bankers, seat)
        return value

    def _parts(self, hand: tuple[int, ...]) -> tuple[int, int, int]:
        """(money cards' sum, building points, bankers) of a hand, remembered by hand."""
        parts = self._hand_parts.get(hand)
        if parts is None:
            nt = self.nt
            kind = self.kind
            cash = vp = bankers = 0
            for c in hand:
                k = kind[c]
                if k == "money":
                    cash += nt.value[c]
                elif k == "building":
                    vp += nt.vp[c]
                elif k == "banker":
                    bankers += 1
            parts = (cash, vp, bankers)
            if len(self._hand_parts) < self._MEMO_SIZE:
                self._hand_parts[hand] = parts
        return parts

    def projected_score(self, seat: int) -> float:
        """Heuristic final score: buildings and bankers as now, money and contracts' worth at $10 a point."""
        s = self.state.seats[seat]
        return self.holdings_value(s.money, s.hand, s.ships, seat) / _DPV

    # -- actions --------------------------------------------------------------------------------

    def action_values(self, actions: list[Action]) -> list[float]:
        """The value of each action for the seat to move: its holdings after the action against before, in dollars."""
        st = self.state
        seat = self.seat
        assert seat is not None
        s = st.seats[seat]
        money = s.money
        mine = self._mine = self._worth.get((s.hand, s.ships)) or self._held(s.hand, s.ships)
        self._mine_hand, self._mine_ships = s.hand, s.ships
        # holdings_value and, for a card of the current supply, card_gain and plus_value written out: two calls
        # less per card (as in board_value)
        cash, vp_worth, bankers, worth, _, _, plus = mine
        wealth = money + cash
        base = wealth + vp_worth + worth
        if bankers:
            base += self._bankers_worth(wealth, bankers, seat)
        board_index, current, cost = self.nt.board_index, st.current, self.nt.cost
        out = []
        for a in actions:
            k = a.kind
            if k == "take":
                args = a.args
                if args[1] == "future":
                    v = self._take_value(a, s, base)
                else:
                    c = current[board_index[args[0]]][args[-1]]
                    cash, vp_worth, bankers, worth = plus.get(c) or self._plus(mine, c)
                    wealth = money - cost[c] + cash
                    v = wealth + vp_worth + worth
                    if bankers:
                        if self._others_seat != seat:
                            self._others_of(seat)
                        others = self._others
                        v += _DPV * bankers * self._banker_table[len(others) - bisect_right(others, wealth)]
                    v -= base
            elif k == "fulfil":
                v = self._fulfil_value(a, s, base)
            elif k == "cash":
                # every cash action has the same value (``_cash_value`` reads the position only): valued once
                # (cProfile of the live analysis: 1.44 cash valuations a choice before, at most 1 now)
                v = self._cash if self._cash is not None else self._cash_value(a, s)
            elif k == "choose":
                b = self.nt.board_index[a.args[0]]
                v = self.board_value(b, s, base, others=st.phase == "choose" or not st._others_all_took())
                if st.phase == "decide":
                    v *= 0.8  # the harbour master gives up the current board for a hope
            elif k == "decline":
                rest = [self.board_value(b, s, base, others=True) for b in st._open_boards()]
                v = 0.3 * max(rest, default=0.0)
            else:  # pass, done
                v = 0.0
            out.append(v)
        return out

    def _entry(self, s: Any) -> tuple[Any, ...]:
        """The ``_held`` entry of ``s``'s hand and ships (the mover's, kept by ``action_values``, without a look-up)."""
        mine = self._mine
        if mine is not None and s.hand is self._mine_hand and s.ships is self._mine_ships:
            return mine
        return self._worth.get((s.hand, s.ships)) or self._held(s.hand, s.ships)

    def card_gain(self, c: int, s: Any, base: float, assistant: bool = False) -> float:
        """What taking card type ``c`` (paying its cost) adds to the mover's holdings."""
        nt = self.nt
        if not assistant:
            return self.plus_value(s.money - nt.cost[c], self._entry(s), c, self.seat) - base
        hand, ships = s.hand, s.ships
        hand = list(hand)
        hand.remove(nt.single["assistant"])
        hand = tuple(hand)
        if self.kind[c] == "ship":
            ships = (*ships, c)
        else:
            hand = (*hand, c)
        return self.holdings_value(s.money - nt.cost[c], hand, ships, self.seat) - base

    def _take_value(self, a: Action, s: Any, base: float) -> float:
        st, nt = self.state, self.nt
        b = nt.board_index[a.args[0]]
        future = a.args[1] == "future"
        c = (st.future if future else st.current)[b][a.args[-1]]
        return self.card_gain(c, s, base, assistant=future)

    def board_value(self, b: int, s: Any, base: float, others: bool) -> float:
        """What the mover may expect from a board: its best cards, the best ones likely gone to others first."""
        cost, money, seat = self.nt.cost, s.money, self.seat
        # card_gain and plus_value written out (no assistant here): 257,785 boards valued in 112,707 choices
        # (cProfile, live), each two calls less per card; only the gains above 0 kept (the others count as 0)
        held = self._entry(s)
        plus = held[6]
        # the three best gains above 0, best first (0 where fewer): what a sorted list of the gains clipped at 0 and
        # padded with zeros gave, without a list a board
        g1 = g2 = g3 = 0.0
        for c in self.state.current[b]:
            if c >= 0 and cost[c] <= money:
                cash, vp_worth, bankers, worth = plus.get(c) or self._plus(held, c)
                wealth = money - cost[c] + cash
                value = wealth + vp_worth + worth
                if bankers:
                    if self._others_seat != seat:
                        self._others_of(seat)  # type: ignore[arg-type]
                    others = self._others
                    value += _DPV * bankers * self._banker_table[len(others) - bisect_right(others, wealth)]
                value -= base
                if value > g3:
                    if value <= g2:
                        g3 = value
                    elif value <= g1:
                        g2, g3 = value, g2
                    else:
                        g1, g2, g3 = value, g1, g2
        if not others:
            return g1
        return 0.5 * g1 + 0.3 * g2 + 0.2 * g3

    def _fulfil_value(self, a: Action, s: Any, base: float) -> float:
        nt = self.nt
        option = nt.fulfil_of.get(a.text) or nt.fulfil_of[nt.parse(a.text).text]
        contracts, ships, uses = option
        captains = sum(1 for frm, to in ships if frm != to)
        merchants = sum(1 for _, target in uses if target >= 0)
        used = [*contracts, *(t for t, _ in uses), *([nt.single["captain"]] * captains),
                *([nt.single["merchant"]] * merchants)]
        hand = list(s.hand)
        for c in used:
            hand.remove(c)
        ship_list = list(s.ships)
        for frm, _ in ships:
            ship_list.remove(nt.ship_of[frm])
        pays = sum(nt.pays[c] for c in contracts)
        value = self.holdings_value(s.money + pays, tuple(hand), tuple(ship_list), self.seat) - base + 0.5
        # The same seat decides again: a card the pay makes affordable counts (asked when it cannot pay yet).
        return value + max(0.0, self._affordable_gain(s, pays))

    def _affordable_gain(self, s: Any, extra: int) -> float:
        """The best gain of a card on the board(s) being decided on that ``extra`` money would make affordable."""
        st = self.state
        if st.phase != "decide" or extra <= 0:
            return 0.0
        cost, money = self.nt.cost, s.money
        more = money + extra
        cards = [c for c in st.current[st.board] if c >= 0 and money < cost[c] <= more]
        if st.to_move == st.hm and st._others_all_took():
            current = st.current
            cards += [c for b in st._open_boards() for c in current[b] if c >= 0 and money < cost[c] <= more]
        # most often nothing becomes affordable: then the richer holdings are not valued (with the cash cut: 1.14
        # of these a choice before, 0.70 now, and 7.4 holdings valued a choice before, 6.1 now; cProfile, live)
        if not cards:
            return 0.0
        richer = _Money(s, extra)
        base = self.holdings_value(richer.money, s.hand, s.ships, self.seat)
        return max(self.card_gain(c, richer, base) for c in cards)

    def _cash_value(self, a: Action, s: Any) -> float:
        """Cash a money card only when the money buys a card on the board being decided on."""
        st = self.state
        if st.phase != "decide":
            self._cash = -0.1
            return -0.1
        extra = self._entry(s)[0]  # the money cards' sum, remembered with the hand's worth
        self._cash = 0.5 if self._affordable_gain(s, extra) > 1.0 else -0.1
        return self._cash


class _Money:
    """A seat with more money (for "what if I cashed my money cards")."""

    __slots__ = ("hand", "money", "ships")

    def __init__(self, s: Any, extra: int) -> None:
        self.money = s.money + extra
        self.hand = s.hand
        self.ships = s.ships
