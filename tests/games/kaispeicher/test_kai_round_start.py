"""A round's start copies a part prepared once per (notation, players, first seat) (``kaispeicher._FRESH``; issue
27): these tests check that no position's later changes reach the prepared part or another position's, and that a
position read from its file, with a spy counter left over, still starts the spy step from zero."""

from __future__ import annotations

import json

import speicherstadt_lab as sl
from speicherstadt_lab.engine.rng import Rng
from speicherstadt_lab.games.speicherstadt import kaispeicher


def _play(s: sl.State, seed: int, decisions: int) -> sl.State:
    """``decisions`` random decisions from ``s``."""
    rng = Rng(seed, "kai-round-start")
    for _ in range(decisions):
        s = s.apply(rng.choice(s.legal_actions()))
    return s


def test_a_prepared_round_start_part_is_never_changed_by_the_positions_copied_from_it() -> None:
    a = sl.new_game(players=3, seed=8, expansion="kaispeicher")
    b = sl.new_game(players=3, seed=8, expansion="kaispeicher")
    key = (a.notation, a.n_players, a.first)
    fresh = kaispeicher._FRESH[key]
    before = repr(fresh)
    assert a.kai is not fresh and b.kai is not fresh and a.kai is not b.kai
    assert "top=()" in before and a.kai.top  # the prepared part has no row; the positions laid theirs
    b_top = b.kai.top
    a = _play(a, 1, 60)  # rounds of demand, reservations, purchases and new supplies
    assert repr(fresh) == before
    assert b.kai.top == b_top and b.kai.workers.left == (a.notation.workers,) * 3


def test_demand_end_resets_a_spy_counter_left_in_a_position_from_a_file() -> None:
    s = sl.new_game(players=2, seed=3, expansion="kaispeicher")
    rng = Rng(3, "kai-round-start")
    while not (s.phase == "demand" and s.apply(s.legal_actions()[0]).phase != "demand"):  # the last demand decision
        s = s.apply(rng.choice(s.legal_actions()))
    d = s.to_dict()
    d["kai"]["spy_turn"] = 1  # (a reserved card past ``rpos`` would be missing: the file check refuses that)
    odd = sl.load_state(json.dumps(d))
    assert odd.kai.spy_turn == 1
    after, plain = odd.apply(odd.legal_actions()[0]), s.apply(s.legal_actions()[0])
    assert after.kai.top == (-1,) * len(s.kai.top)
    assert after.to_json() == plain.to_json()  # the spy step found the same seats as after any demand
    kaispeicher.end_demand(odd, [])  # the rule itself, on the position read from the file (its own copy)
    assert (odd.phase, odd.kai.spy_turn, odd.kai.rpos) == ("spy", 0, 0)
