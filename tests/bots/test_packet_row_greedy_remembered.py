"""What Packet Row's greedy heuristic remembers for speed (a hand's sums and allocation start, the contracts' worth
by start, a hand with one card more, the set-up by the decks' lengths) gives the values it computes afresh: at
every position of whole games, every action's value with warm memos equals the value with every memo emptied,
and a hand with one card more (``plus_value``) equals that hand valued as a new one (``holdings_value``)."""

from __future__ import annotations

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.bots.greedy import GreedyBot
from speicherstadt_lab.bots.packet_row_greedy import PacketRowHeuristic
from speicherstadt_lab.engine.rng import Rng


def _forget_all() -> None:
    PacketRowHeuristic._forget()
    for memos in (PacketRowHeuristic._shape_memo, PacketRowHeuristic._alloc_memo, PacketRowHeuristic._hand_memo):
        for memo in memos.values():
            memo.clear()


@pytest.mark.parametrize(("players", "seed"), [(2, 41), (3, 42), (4, 43)])
def test_remembered_values_are_the_fresh_ones(players: int, seed: int) -> None:
    state = sl.new_game("packet_row", players=players, seed=seed)
    bot, rng = GreedyBot(seed=seed, epsilon=0.2), Rng(seed)
    kinds: set[str] = set()
    while not state.is_over:
        actions = state.legal_actions()
        warm = PacketRowHeuristic(state).action_values(actions)
        warm_again = PacketRowHeuristic(state).action_values(actions)  # every entry now remembered
        _forget_all()
        h = PacketRowHeuristic(state)
        assert h.action_values(actions) == warm == warm_again
        cards = {c for row in (*state.current, *state.future) for c in row if c >= 0}
        for i, s in enumerate(state.seats):
            entry = h.holdings(s.hand, s.ships)
            for c in sorted(cards):
                kinds.add(h.kind[c])
                hand, ships = (s.hand, (*s.ships, c)) if h.kind[c] == "ship" else ((*s.hand, c), s.ships)
                money = s.money - state.nt.cost[c]
                assert h.plus_value(money, entry, c, i) == h.holdings_value(money, hand, ships, i)
        state = state.apply(bot.act(state, rng))
    # every kind a card adds in its own way came by (the merchant, one card type, not in every game)
    assert {"contract", "goods", "gold", "ship", "captain", "money", "banker", "building"} <= kinds
