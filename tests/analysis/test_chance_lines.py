"""Honest chance comparisons: chance lines are compared on their own hidden order, a fair comparison of lines that
differ only in that order is warned about, and rollouts that all played the same game never claim a 95% band."""

from __future__ import annotations

import warnings

import pytest

from speicherstadt_lab.analysis import compare_lines, evaluate, wilson
from speicherstadt_lab.records import GameRecord


def _first_legal(state, rng):
    return state.legal_actions()[0]


def test_rollouts_that_were_all_one_game_report_one_sample() -> None:
    state = GameRecord.new(players=3, seed=1).root.state
    with pytest.warns(RuntimeWarning, match="same game"):
        df = evaluate(state, rollouts=10, bot=_first_legal, mode="oracle")
    assert df.attrs["games"] == 1
    assert df.attrs["interval"] == "one game: every rollout the same"
    for _, row in df.iterrows():
        assert (row.win_lo, row.win_hi) == pytest.approx(wilson(row.win_prob, 1))


def test_rollouts_that_differ_keep_their_sampling_band() -> None:
    state = GameRecord.new(players=3, seed=1).root.state
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        df = evaluate(state, rollouts=10, mode="fair")
    assert df.attrs["games"] > 1 and df.attrs["interval"] == "sampling"


def _chance_pair() -> tuple[object, object]:
    record = GameRecord.new(players=3, seed=1)
    node = record.root
    for _ in range(6):
        node = node.play(str(node.state.legal_actions()[0]))
    pile = node.state.hidden_parts()["pile"]
    swapped = [c for c, _season in pile]
    swapped[0], swapped[1] = swapped[1], swapped[0]
    return node, node.rearrange(pile=swapped[:2])


def test_compare_lines_evaluates_each_line_on_its_own_order() -> None:
    plain, chance = _chance_pair()
    df = compare_lines([plain, chance])
    assert sorted(df["line"].unique()) == [0, 1]
    assert df.attrs["mode"] == "oracle" and "own hidden order" in df.attrs["note"]
    assert set(df.columns) >= {"line", "seat", "win_prob", "win_lo", "win_hi", "score_mean"}


def test_a_fair_comparison_of_lines_differing_only_in_hidden_order_is_warned_about() -> None:
    plain, chance = _chance_pair()
    with pytest.warns(RuntimeWarning, match="differ only in hidden order"):
        df = compare_lines([plain, chance], mode="fair")
    assert "look the same" in df.attrs["note"]
