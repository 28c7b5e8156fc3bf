"""What Packet Row's rules remember for speed (a hand's cash actions, secret and whether it could fulfil a
contract; the fulfilments of a hand) is what they compute afresh, and the legal actions kept by ``_advance`` (which
looks fulfilments up only for a hand that could fulfil) are the full set: at every position of whole games, greedy
and random, 2 to 4 players; the scores as the rules say them plainly."""

from __future__ import annotations

from typing import Any

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.bots.greedy import GreedyBot
from speicherstadt_lab.engine.rng import Rng
from speicherstadt_lab.games.packet_row.notation import ROLE_CONTRACT, ROLE_ITEM, ROLE_START


def _forget(nt: Any) -> None:
    nt.tail_cache.clear()
    nt.hand_cache.clear()
    nt.secret_cache.clear()


def _fresh_breakdown(state: Any, seat: int) -> dict[str, int]:
    """Points by category from the cards' kinds (the rule written plainly)."""
    nt = state.nt

    def wealth(i: int) -> int:
        s = state.seats[i]
        return s.money + sum(nt.value[c] for c in s.hand if nt.kind[c] == "money")

    s = state.seats[seat]
    bankers = s.hand.count(nt.single["banker"])
    points = nt.banker_points[state.n_players]
    richer = sum(1 for i in range(state.n_players) if wealth(i) > wealth(seat))
    return {"buildings": sum(nt.vp[c] for c in s.hand if nt.kind[c] == "building"),
            "money": wealth(seat) // nt.dollars_per_vp,
            "bankers": bankers * points[richer] if bankers and richer < len(points) else 0}


@pytest.mark.parametrize(("players", "seed", "greedy"), [(2, 36, False), (3, 32, False), (4, 33, True), (3, 34, True)])
def test_remembered_hand_parts_and_scores_are_the_fresh_ones(players: int, seed: int, greedy: bool) -> None:
    state = sl.new_game("packet_row", players=players, seed=seed)
    bot, rng = GreedyBot(seed=seed, epsilon=0.1), Rng(seed)
    checked, looked = 0, set()
    while not state.is_over:
        nt = state.nt
        warm = (state._option_split(), state.legal_actions(), state.asked_for_secrecy())
        _forget(nt)
        assert (state._option_split(), state.legal_actions(), state.asked_for_secrecy()) == warm
        # the actions ``_advance`` kept (looking fulfilments up only for a hand that could fulfil) are the full set
        assert tuple(state.legal_actions()) == state._options(public=False)
        # what the hand could fulfil, read from its cards
        _, _, secret, may_public, may_full = state._option_split()
        role = [nt.role[c] for c in state.seats[state.to_move].hand]
        items = ROLE_ITEM in role
        assert may_public == (ROLE_CONTRACT in role and items)
        assert may_full == ((ROLE_CONTRACT in role or ROLE_START in role) and items)
        assert secret == (ROLE_START in role)
        looked.add(bool(state.seats[state.to_move].ships) and (may_public if secret else may_full))
        for i in range(players):
            assert state.score_breakdown(i) == _fresh_breakdown(state, i)
        checked += 1
        actions = state.legal_actions()
        state = state.apply(bot.act(state, rng) if greedy else actions[rng.below(len(actions))])
    for i in range(players):
        assert state.score_breakdown(i) == _fresh_breakdown(state, i)
    assert checked > 40
    assert looked == {True, False}  # the fulfilments were looked up at some positions and skipped at others
