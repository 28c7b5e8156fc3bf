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

from typing import Any, ClassVar

from ..engine.actions import Action

_DPV = 10.0  # dollars per victory point


class PacketRowHeuristic:
    """Values of the legal actions of the seat to move in a Packet Row position, in dollars."""

    _deck_sizes: ClassVar[dict[str, tuple[int, ...]]] = {}
    #: The greedy player remembers no choices here (``greedy._memo_pays``: the positions of rollouts hardly repeat).
    memo: ClassVar[bool] = False
    # By catalogue, then (progress, final): that stage's costs and weights and contracts_value by (hand, ships), a
    # pure function of these, asked ~11 times a decision for mostly the same hands (every action's holdings, every
    # rollout from the same position). Remembering it made the greedy bot ~1.6x faster in the review's rollouts
    # (profile in docs/review.md); the same values. Each entry also holds the hand's money cards' sum, weighted
    # building points and bankers (``_held``).
    # ``_contracts_count``: the entries held (all are dropped at ``_MEMO_SIZE``).
    _contracts_memo: ClassVar[dict[str, dict[tuple[float, bool], tuple[Any, ...]]]] = {}
    _contracts_count: ClassVar[list[int]] = [0]
    _MEMO_SIZE: ClassVar[int] = 200_000
    # (money cards' sum, building points, bankers) by catalogue, then hand (``holdings_value``)
    _hand_memo: ClassVar[dict[str, dict[tuple[int, ...], tuple[int, int, int]]]] = {}
    # ``_shape`` by catalogue, then (hand, ships); emptied at ``_SHAPES_SIZE`` entries (a kernel's memory: its entries
    # are larger than the worths')
    _SHAPES_SIZE: ClassVar[int] = 50_000
    _shape_memo: ClassVar[dict[str, dict[tuple[Any, ...], tuple[Any, ...]]]] = {}
    # ``_context`` by (catalogue, players, notation)
    _contexts: ClassVar[dict[tuple[Any, ...], tuple[Any, tuple[Any, ...]]]] = {}
    # ``_progress`` by (catalogue, players, the decks' lengths)
    _progress_memo: ClassVar[dict[tuple[Any, ...], float]] = {}

    def __init__(self, state: Any) -> None:
        self.state = state
        nt = self.nt = state.nt
        n = self.n = state.n_players
        self.seat: int | None = state.to_move
        p = self.progress = self._progress(state)
        final = self.final = state.phase in ("final", "over")
        # Made at every move of a rollout: what depends only on the catalogue and player count (``_context``) and
        # on (progress, final) is looked up, not recomputed (the set-up was ~1/10 of the heuristic, measured).
        (self.kind, self.good, self.dest, self.amount, self.banker_points, self.banker_mean, self._hand_parts,
         self._shapes, memo) = self._context(nt, n)
        if PacketRowHeuristic._contracts_count[0] > self._MEMO_SIZE:
            memo.clear()
            PacketRowHeuristic._contracts_count[0] = 0
        # the contracts' worth at this (progress, final) by (hand, ships): a 2-tuple key instead of a 4-tuple made in
        # each of the ~7 holdings valued a move
        hit = memo.get((p, final))
        if hit is None:
            hit = memo[(p, final)] = (
                4.0 + 10.0 * p,  # what a missing goods unit will cost (dearer and rarer late)
                3.0 + 12.0 * p,  # a missing ship
                0.0 if final else 1.0 - p,  # weight of cards not (yet) needed for a contract
                _DPV / (1.0 + 0.6 * (1.0 - p)),  # dollars per building point
                {})
        self.unit_cost, self.ship_cost, self.spare, self.building_weight, self._worth = hit
        self._cash: float | None = None  # the value of any cash action at this position (``_cash_value``)
        # every seat's money with its money cards (``state._wealth``), the cards' sum read from the hand memo
        parts = self._hand_parts
        self.wealth = [s.money + (parts.get(s.hand) or self._parts(s.hand))[0] for s in state.seats]

    @classmethod
    def _context(cls, nt: Any, n: int) -> tuple[Any, ...]:
        """What the heuristic reads of a catalogue at a player count, and its memos (made once)."""
        key = (nt.cat.digest, n, id(nt))
        hit = cls._contexts.get(key)
        if hit is None or hit[0] is not nt:
            digest = nt.cat.digest
            points = nt.banker_points[n]
            hit = cls._contexts[key] = (nt, (
                nt.kind, nt.good, nt.dest, nt.tables.amount, points, sum(points) / n,
                cls._hand_memo.setdefault(digest, {}), cls._shape_memo.setdefault(digest, {}),
                cls._contracts_memo.setdefault(digest, {})))
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

    def _held(self, hand: tuple[int, ...], ships: tuple[int, ...]) -> tuple[int, float, int, float]:
        """(money cards' sum, building points × weight, bankers, contracts' worth) of a hand and ships, remembered."""
        key = (hand, ships)
        hit = self._worth.get(key)
        if hit is None:
            cash, vp, bankers = self._parts(hand)
            hit = self._worth[key] = (cash, self.building_weight * vp, bankers, self._contracts_value(hand, ships))
            PacketRowHeuristic._contracts_count[0] += 1
        return hit

    def _contracts_value(self, hand: tuple[int, ...], ships: tuple[int, ...]) -> float:
        # What the contracts lack does not depend on how far the game is (``_shape``, remembered by hand and ships:
        # the worth's memo is per progress and missed ~1 holdings in 5); only this sum does, in the same order.
        shape = self._shapes.get((hand, ships))
        if shape is None:
            shape = self._shape(hand, ships)
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

    def _shape(self, hand: tuple[int, ...], ships: tuple[int, ...]) -> tuple[Any, int, int, int, int, int]:
        """((pays, units still needed, ship missing) per contract, dearest first; then the spare goods units, gold
        bars, ships, captains and merchants, and assistants) of a hand and ships, remembered."""
        kind, good, dest, amount, pays = self.kind, self.good, self.dest, self.amount, self.nt.pays
        contracts = sorted((c for c in hand if kind[c] == "contract"), key=lambda c: -pays[c])
        units = [0] * len(self.nt.goods)
        cards: list[tuple[int, int]] = []  # (amount, good) of goods cards, for merchants
        gold = 0
        captains = merchants = assistants = 0
        for c in hand:
            k = kind[c]
            if k == "goods":
                units[good[c]] += amount[c]
                cards.append((amount[c], good[c]))
            elif k == "gold":
                gold += amount[c]
            elif k == "captain":
                captains += 1
            elif k == "merchant":
                merchants += 1
            elif k == "assistant":
                assistants += 1
        ship_dests = [dest[s] for s in ships]
        served: set[int] = set()
        shape: list[tuple[int, int, int]] = []
        for c in contracts:
            g, need = good[c], amount[c]
            use = min(units[g], need)
            units[g] -= use
            need -= use
            if need and gold:
                use = min(gold, need)
                gold -= use
                need -= use
            if need and merchants:
                other = max(((units[h], h) for h in range(len(units)) if h != g and units[h] > 0), default=None)
                if other is not None:
                    merchants -= 1
                    use = min(other[0], need)
                    units[other[1]] -= other[0]
                    need -= use
            d = dest[c]
            ship_missing = 0
            if d in served:
                pass
            elif d in ship_dests:
                ship_dests.remove(d)
                served.add(d)
            elif ship_dests and captains:
                captains -= 1
                ship_dests.pop()
                served.add(d)
            else:
                ship_missing = 1
            shape.append((pays[c], need, ship_missing))
        out = (tuple(shape), sum(units), gold, len(ship_dests), captains + merchants, assistants)
        if len(self._shapes) > self._SHAPES_SIZE:
            self._shapes.clear()
        self._shapes[(hand, ships)] = out
        return out

    def holdings_value(self, money: int, hand: tuple[int, ...], ships: tuple[int, ...], seat: int) -> float:
        """What a seat's money, hand and ships are worth in dollars (money cards, buildings' points, the contracts'
        worth, the bankers' expected points): the value actions are compared by."""
        # A hand's money cards, building points and bankers (whole numbers) are remembered by hand, as its contracts'
        # worth is: this loop was the largest single cost of Packet Row's greedy player (39 of 153 s of its live
        # analysis, profiled; 388k calls for 55k choices). The same sums, so the same values.
        # Now with the contracts' worth and the weighted building points in the same memo entry, by (hand, ships) for
        # this (progress, final): one look-up a holdings instead of two and a call (the heuristic's cut, measured
        # in docs/review.md). The same numbers in the same order, so the same values.
        cash, vp_worth, bankers, worth = self._worth.get((hand, ships)) or self._held(hand, ships)
        wealth = money + cash
        value = wealth + vp_worth + worth
        if bankers:
            richer = sum(1 for i, w in enumerate(self.wealth) if i != seat and w > wealth)
            now = self.banker_points[richer] if richer < len(self.banker_points) else 0
            p = self.progress
            value += _DPV * bankers * (p * now + (1 - p) * 0.5 * (now + self.banker_mean))
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
        base = self.holdings_value(s.money, s.hand, s.ships, seat)
        out = []
        for a in actions:
            k = a.kind
            if k == "take":
                v = self._take_value(a, s, base)
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

    def card_gain(self, c: int, s: Any, base: float, assistant: bool = False) -> float:
        """What taking card type ``c`` (paying its cost) adds to the mover's holdings."""
        nt = self.nt
        hand, ships = s.hand, s.ships
        if assistant:
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
        nt = self.nt
        cost, kind, money, hand, ships, seat = nt.cost, self.kind, s.money, s.hand, s.ships, self.seat
        # card_gain written out (no assistant here): 257,785 boards valued in 112,707 choices (cProfile, live), each
        # a call less per card
        value = self.holdings_value
        gains = []
        for c in self.state.current[b]:
            if c >= 0 and cost[c] <= money:
                if kind[c] == "ship":
                    gains.append(value(money - cost[c], hand, (*ships, c), seat) - base)
                else:
                    gains.append(value(money - cost[c], (*hand, c), ships, seat) - base)
        gains.sort(reverse=True)
        gains = [max(0.0, g) for g in gains] + [0.0, 0.0, 0.0]
        if not others:
            return gains[0]
        return 0.5 * gains[0] + 0.3 * gains[1] + 0.2 * gains[2]

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
        st, nt = self.state, self.nt
        if st.phase != "decide" or extra <= 0:
            return 0.0
        boards = [st.board]
        if st.to_move == st.hm and st._others_all_took():
            boards += st._open_boards()
        richer = _Money(s, extra)
        cost, money = nt.cost, s.money
        cards = [c for b in boards for c in st.current[b] if c >= 0 and money < cost[c] <= richer.money]
        # most often nothing becomes affordable: then the richer holdings are not valued (with the cash cut: 1.14
        # of these a choice before, 0.70 now, and 7.4 holdings valued a choice before, 6.1 now; cProfile, live)
        if not cards:
            return 0.0
        base = self.holdings_value(richer.money, s.hand, s.ships, self.seat)
        return max(self.card_gain(c, richer, base) for c in cards)

    def _cash_value(self, a: Action, s: Any) -> float:
        """Cash a money card only when the money buys a card on the board being decided on."""
        st = self.state
        if st.phase != "decide":
            self._cash = -0.1
            return -0.1
        extra = self._parts(s.hand)[0]  # the money cards' sum, remembered by hand
        self._cash = 0.5 if self._affordable_gain(s, extra) > 1.0 else -0.1
        return self._cash


class _Money:
    """A seat with more money (for "what if I cashed my money cards")."""

    __slots__ = ("hand", "money", "ships")

    def __init__(self, s: Any, extra: int) -> None:
        self.money = s.money + extra
        self.hand = s.hand
        self.ships = s.ships
