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
    # contracts_value by catalogue, then (hand, ships, progress, final): a pure function of these, asked ~11 times a
    # decision for mostly the same hands (every action's holdings, every rollout from the same position). Remembering
    # it made the greedy bot ~1.6x faster in the review's rollouts (profile in docs/review.md); the same values.
    _contracts_memo: ClassVar[dict[str, dict[tuple[Any, ...], float]]] = {}
    _MEMO_SIZE: ClassVar[int] = 200_000
    # (money cards' sum, building points, bankers) by catalogue, then hand (``holdings_value``)
    _hand_memo: ClassVar[dict[str, dict[tuple[int, ...], tuple[int, int, int]]]] = {}
    # ``_progress`` by (catalogue, players, the decks' lengths)
    _progress_memo: ClassVar[dict[tuple[Any, ...], float]] = {}

    def __init__(self, state: Any) -> None:
        self.state = state
        nt = self.nt = state.nt
        self.n: int = state.n_players
        self.seat: int | None = state.to_move
        self.progress = self._progress(state)
        p = self.progress
        self.final = state.phase in ("final", "over")
        self.unit_cost = 4.0 + 10.0 * p  # what a missing goods unit will cost (dearer and rarer late)
        self.ship_cost = 3.0 + 12.0 * p
        self.spare = 0.0 if self.final else 1.0 - p  # weight of cards not (yet) needed for a contract
        self.building_weight = _DPV / (1.0 + 0.6 * (1.0 - p))
        self.kind, self.good, self.dest = nt.kind, nt.good, nt.dest
        self.amount = nt.tables.amount
        points = nt.banker_points[self.n]
        self.banker_points = points
        self.banker_mean = sum(points) / self.n
        memo = PacketRowHeuristic._contracts_memo.get(nt.cat.digest)
        if memo is None or len(memo) > self._MEMO_SIZE:
            memo = PacketRowHeuristic._contracts_memo[nt.cat.digest] = {}
        self._memo = memo
        parts = PacketRowHeuristic._hand_memo.get(nt.cat.digest)
        if parts is None:
            parts = PacketRowHeuristic._hand_memo[nt.cat.digest] = {}
        self._hand_parts = parts
        # every seat's money with its money cards (``state._wealth``), the cards' sum read from the hand memo
        self.wealth = [s.money + self._parts(s.hand)[0] for s in state.seats]

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
        key = (tuple(hand), tuple(ships), self.progress, self.final)
        value = self._memo.get(key)
        if value is None:
            value = self._memo[key] = self._contracts_value(hand, ships)
        return value

    def _contracts_value(self, hand: tuple[int, ...], ships: tuple[int, ...]) -> float:
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
        total = 0.0
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
            if not need and not ship_missing:
                total += 0.97 * pays[c]
            elif not self.final:
                total += 0.75 * max(0.0, pays[c] - need * self.unit_cost - ship_missing * self.ship_cost)
        spare = self.spare
        if spare:
            total += spare * (1.2 * sum(units) + 1.2 * gold + 1.5 * len(ship_dests)
                              + 2.0 * (captains + merchants) + 2.5 * assistants)
        return total

    def holdings_value(self, money: int, hand: tuple[int, ...], ships: tuple[int, ...], seat: int) -> float:
        """What a seat's money, hand and ships are worth in dollars (money cards, buildings' points, the contracts'
        worth, the bankers' expected points): the value actions are compared by."""
        # A hand's money cards, building points and bankers (whole numbers) are remembered by hand, as its contracts'
        # worth is: this loop was the largest single cost of Packet Row's greedy player (39 of 153 s of its live
        # analysis, profiled; 388k calls for 55k choices). The same sums, so the same values.
        cash, vp, bankers = self._hand_parts.get(hand) or self._parts(hand)
        wealth = money + cash
        value = wealth + self.building_weight * vp + self.contracts_value(hand, ships)
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
                v = self._cash_value(a, s)
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
        if self.kind[c] == "ship":
            ships = (*ships, c)
        else:
            hand = (*hand, c)
        return self.holdings_value(s.money - nt.cost[c], tuple(hand), tuple(ships), self.seat) - base

    def _take_value(self, a: Action, s: Any, base: float) -> float:
        st, nt = self.state, self.nt
        b = nt.board_index[a.args[0]]
        future = a.args[1] == "future"
        c = (st.future if future else st.current)[b][a.args[-1]]
        return self.card_gain(c, s, base, assistant=future)

    def board_value(self, b: int, s: Any, base: float, others: bool) -> float:
        """What the mover may expect from a board: its best cards, the best ones likely gone to others first."""
        cost = self.nt.cost
        gains = sorted((self.card_gain(c, s, base) for c in self.state.current[b] if c >= 0 and cost[c] <= s.money),
                       reverse=True)
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
        base = self.holdings_value(richer.money, s.hand, s.ships, self.seat)
        gains = [self.card_gain(c, richer, base) for b in boards for c in st.current[b]
                 if c >= 0 and s.money < nt.cost[c] <= richer.money]
        return max(gains, default=0.0)

    def _cash_value(self, a: Action, s: Any) -> float:
        """Cash a money card only when the money buys a card on the board being decided on."""
        st, nt = self.state, self.nt
        if st.phase != "decide":
            return -0.1
        extra = sum(nt.value[c] for c in s.hand if self.kind[c] == "money")
        return 0.5 if self._affordable_gain(s, extra) > 1.0 else -0.1


class _Money:
    """A seat with more money (for "what if I cashed my money cards")."""

    __slots__ = ("hand", "money", "ships")

    def __init__(self, s: Any, extra: int) -> None:
        self.money = s.money + extra
        self.hand = s.hand
        self.ships = s.ships
