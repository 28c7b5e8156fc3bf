"""The greedy player's memo of choices by public position (``bots/memo.py``): the key names exactly the public facts,
and a player that remembers plays the very same moves, and a review judges the very same numbers, as one that does
not."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

import speicherstadt_lab as sl
from speicherstadt_lab import analysis
from speicherstadt_lab.analysis import compare_actions
from speicherstadt_lab.bots import greedy, make_bot
from speicherstadt_lab.bots.memo import DecisionMemo, public_key


def _played(game: str, seed: int, **options: object) -> list[str]:
    rec = sl.record_game(sl.new_game(game, players=3, seed=seed, **options),
                         [make_bot("greedy", seed=s) for s in range(3)])
    return [nd.action for nd in rec.mainline()[1:]]


@pytest.fixture
def no_memo(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both memos switched off (and emptied) for the test."""
    for memo in (greedy._CHOICES, analysis._LEAVES):
        memo.clear()
        monkeypatch.setattr(memo, "enabled", False)


def test_the_key_is_the_public_position() -> None:
    state = sl.new_game(players=3, seed=4)
    key = public_key(state)
    assert public_key(state.determinize(1)) == key == public_key(state.determinize(2))  # hidden order only
    assert public_key(state.observe(None)) != key  # the observer is part of a position
    moved = state.apply(state.legal_actions()[0])
    assert public_key(moved) != key
    other = sl.new_game(players=3, seed=5)  # another supply
    assert public_key(other) != key
    hash(public_key(sl.new_game("packet_row", players=3, seed=1)))
    hash(public_key(sl.new_game(players=3, seed=1, expansion="kaispeicher")))


@pytest.mark.parametrize(("game", "options"), [("speicherstadt", {}), ("speicherstadt", {"expansion": "kaispeicher"})])
def test_a_remembering_player_plays_the_same_games(game: str, options: dict[str, str], no_memo: None,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    plain = [_played(game, seed, **options) for seed in (3, 8)]
    monkeypatch.setattr(greedy._CHOICES, "enabled", True)
    assert [_played(game, seed, **options) for seed in (3, 8)] == plain
    assert len(greedy._CHOICES) > 0
    # and again, now from the remembered choices
    assert [_played(game, seed, **options) for seed in (3, 8)] == plain


def test_a_remembering_review_judges_the_same_numbers(no_memo: None, monkeypatch: pytest.MonkeyPatch) -> None:
    warnings.simplefilter("ignore", RuntimeWarning)
    line = sl.record_game(sl.new_game(players=3, seed=2), [make_bot("greedy", seed=s) for s in range(3)]).mainline()
    states = [nd.state for nd in line[30:36]]  # neighbouring decisions: they reuse each other's positions
    plain = [compare_actions(s, rollouts=4, bot="greedy", seed=1, method="hybrid") for s in states]
    for memo in (greedy._CHOICES, analysis._LEAVES):
        monkeypatch.setattr(memo, "enabled", True)
    for _ in range(2):  # filling the memos, then reading them
        for s, df in zip(states, plain, strict=True):
            pd.testing.assert_frame_equal(compare_actions(s, rollouts=4, bot="greedy", seed=1, method="hybrid"), df)
    assert len(greedy._CHOICES) > 0 and len(analysis._LEAVES) > 0


def test_the_memo_is_bounded() -> None:
    memo = DecisionMemo(size=3)
    for k in range(7):
        memo.put(k, str(k))
    assert len(memo) <= 3 and memo.get(6) == "6" and memo.get(0) is None
    memo.enabled = False
    memo.put(9, "9")
    assert memo.get(9) is None
