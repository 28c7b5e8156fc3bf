"""The expansion's workers and turn (``Kai.workers``, one shared :class:`Workers` object per value; issue 27).

A demand rule passes the turn on itself (``_chosen``) and the demand step reads the seat from it: these tests check
that the turn is the seat to move at every demand decision, that a position read back from its file plays on exactly
as the original, and that a copy of a position keeps one object per value.
"""

from __future__ import annotations

import copy

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.engine.rng import Rng
from speicherstadt_lab.games.speicherstadt.kaispeicher import Kai, workers


@pytest.mark.parametrize("players", [2, 5])
def test_the_turn_is_the_seat_to_move_and_a_reloaded_position_plays_on_alike(players: int) -> None:
    s = sl.new_game(players=players, seed=31 + players, expansion="kaispeicher")
    rng = Rng(players, "kai-workers")
    demand = 0
    while not s.is_over:
        legal = s.legal_actions()
        if s.phase == "demand":
            demand += 1
            assert s.kai.turn == s.to_move
            assert list(s.kai.left) == s.to_dict()["kai"]["left"] and len(s.kai.left) == players
        a = rng.choice(legal)
        t = s.apply(a)
        if s.phase == "demand" and demand % 7 == 0:  # from the file (no demand board, no ready-made turn): the same
            again = sl.load_state(s.to_json())
            assert again.legal_actions() == legal
            assert again.apply(a).to_json() == t.to_json()
        s = t
    assert demand > 50


def test_workers_are_one_object_per_value_and_copies_keep_it() -> None:
    s = sl.new_game(players=3, seed=5, expansion="kaispeicher")
    assert workers(s.kai.left, s.kai.turn) is s.kai.workers
    assert copy.deepcopy(s).kai.workers is s.kai.workers
    with pytest.raises(ValueError, match="worker counts"):
        Kai(left=(4, 16, 4), turn=0)
    part = Kai(left=(4, 3), turn=1)
    part.turn = 0  # a fresh part of no position: its own to change
    assert (part.left, part.turn) == ((4, 3), 0) and "left=(4, 3), stopped=0, turn=0" in repr(part)
