"""Features of a Packet Row position for the learned value model (the "features" capability).

Per seat, from what every seat can see (``view(None)``: the cards taken from open supplies, money, ships;
never a secret starting contract): the projected score and its lead, money and the money cards in hand,
what can still be turned into money (contracts, goods units, gold bars, ships, captains and merchants),
bankers and buildings, and how much of the game is left (the cards still in the decks); and what is on
offer: the most a card on the open boards would add to the seat's holdings, by the greedy bot's public
judgement, and that against the other seats' best. (Without them the model could not tell one draw of the
boards from another: benchmarks/luck.py measured its luck at exactly 0; with them it is still small, ±0.002, so
the review measures luck with the hybrid's rollouts. Held-out Brier gained 0.001-0.004 per player count.)
"""

from __future__ import annotations

from typing import Any

NAMES = (
    "score", "score_lead", "score_vs_mean", "money", "money_lead", "money_cards", "contracts", "contract_pays",
    "goods_units", "gold_bars", "ships", "helpers", "bankers", "building_vp", "hand", "progress",
    "score_lead_x_progress", "money_lead_x_progress", "offer_best", "offer_best_lead",
)


def seat_features(state: Any) -> tuple[tuple[str, ...], list[list[float]]]:
    """(feature names, one row of numbers per seat)."""
    cat, nt = state.cat, state.nt
    n = state.n_players
    # what ``view(None)`` shows of each seat (no secret starting contract before the end), read from the seats
    # directly: building the whole view's ids and texts was ~1/3 of these features' cost (measured)
    start = nt.start
    hands = [s.hand if state.revealed else tuple(c for c in s.hand if not start[c]) for s in state.seats]
    scores = [float(state.score(i)) for i in range(n)]
    money = [float(s.money) for s in state.seats]
    left = sum(len(d) for d in state.decks)
    total = left + sum(len(h) + len(s.ships) for h, s in zip(hands, state.seats, strict=True))
    progress = 1.0 - left / max(1, total)
    best = _offer_best(state)
    rows: list[list[float]] = []
    # Each sum over a hand in C through a per-card table (0 for the cards it does not count) instead of a generator
    # over the hand's catalogue cards testing their kinds: the same whole numbers. With ``plus_value`` below, 100 ->
    # 77 µs a position (352 leaves of the seed-2 game's rollouts).
    money_cards, contracts, pays, units, bars, helpers, bankers, building_vp = _tables(cat, nt)
    for i, s in enumerate(state.seats):
        hand = hands[i]
        others = [x for j, x in enumerate(scores) if j != i] or [0.0]
        other_money = [x for j, x in enumerate(money) if j != i] or [0.0]
        lead = scores[i] - max(others)
        money_lead = money[i] - max(other_money)
        rows.append([
            scores[i], lead, scores[i] - sum(others) / len(others), money[i], money_lead,
            float(sum(map(money_cards.__getitem__, hand))),
            float(sum(map(contracts.__getitem__, hand))),
            float(sum(map(pays.__getitem__, hand))),
            float(sum(map(units.__getitem__, hand))),
            float(sum(map(bars.__getitem__, hand))),
            float(len(s.ships)),
            float(sum(map(helpers.__getitem__, hand))),
            float(sum(map(bankers.__getitem__, hand))),
            float(sum(map(building_vp.__getitem__, hand))),
            float(len(hand)), progress, lead * progress, money_lead * progress,
            best[i], best[i] - max((x for j, x in enumerate(best) if j != i), default=0.0),
        ])
    return NAMES, rows


_TABLES: dict[int, tuple[Any, tuple[tuple[int, ...], ...]]] = {}


def _tables(cat: Any, nt: Any) -> tuple[tuple[int, ...], ...]:
    """Per card type index, what each hand sum counts of it: a money card's value, 1 for a contract, a contract's
    pay, goods units, gold bars, 1 for a captain, merchant or assistant, 1 for a banker, a building's points; 0
    for the other cards (remembered per notation)."""
    hit = _TABLES.get(id(nt))
    if hit is None or hit[0] is not nt:
        cards = [cat.by_id[c] for c in nt.ids]

        def table(kinds: tuple[str, ...], of: Any) -> tuple[int, ...]:
            return tuple(of(c) if c.kind in kinds else 0 for c in cards)

        hit = _TABLES[id(nt)] = (nt, (
            table(("money",), lambda c: c.value), table(("contract",), lambda c: 1),
            table(("contract",), lambda c: c.pays), table(("goods",), lambda c: c.amount),
            table(("gold",), lambda c: c.bars), table(("captain", "merchant", "assistant"), lambda c: 1),
            table(("banker",), lambda c: 1), table(("building",), lambda c: c.vp)))
    return hit[1]


def _offer_best(state: Any) -> list[float]:
    """Per seat, in points: the most one affordable card on the open boards would add to its holdings (the
    greedy heuristic's dollars / 10), 0 if none would."""
    from ...bots.packet_row_greedy import PacketRowHeuristic

    h = PacketRowHeuristic(state)
    nt = state.nt
    cost = nt.cost
    cards = [c for board in state.current for c in board if c >= 0]
    out = []
    for i, s in enumerate(state.seats):
        # the public hand: a secret starting contract stays out (as in view(None)), so that the full state and
        # every observation give the same number
        held = s.hand if state.revealed else tuple(c for c in s.hand if not nt.start[c])
        base = h.holdings_value(s.money, held, s.ships, i)
        # each card valued from the hand's one memo entry (``plus_value``: the holdings with the card added, the
        # same number) instead of a new (hand + card, ships) key a card
        entry = h.holdings(held, s.ships)
        best = 0.0
        for c in cards:
            if cost[c] > s.money:
                continue
            best = max(best, h.plus_value(s.money - cost[c], entry, c, i) - base)
        out.append(best / 10.0)
    return out
