"""evaluate and compare_actions: sound statistics, fair vs oracle, common random numbers."""

from __future__ import annotations

import math

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.analysis import compare_actions, evaluate, wilson
from speicherstadt_lab.bots.greedy import GreedyBot
from speicherstadt_lab.engine.rng import Rng


def _greedy_until(seed: int, stop) -> sl.GameState:
    state = sl.new_game(players=4, seed=seed)
    bot, rng = GreedyBot(seed), Rng(seed)
    while not stop(state):
        state = state.apply(bot.act(state, rng))
    return state


def _mid_game(seed: int = 11) -> sl.GameState:
    return _greedy_until(seed, lambda s: s.round >= 5 and s.phase == "demand")


def _twins_mid_game():
    """Two round-3 states with equal public facts and different hidden pile (season D) and bag order."""
    deck = sl.standard_deck(players=4, seed=13)
    by_id = sl.default_catalog().by_id
    d0 = next(i for i, c in enumerate(deck) if by_id[c].season == "D")
    other = [*deck[:d0], *reversed(deck[d0:-1]), deck[-1]]
    bag = sl.new_game(players=4, seed=13).to_dict()["bag"]
    a = sl.new_game(players=4, seed=13, deck=deck, bag=bag)
    b = sl.new_game(players=4, seed=13, deck=other, bag=[*bag[:15], *reversed(bag[15:])])
    bot, rng = GreedyBot(1), Rng(1)
    while a.round < 3 or a.phase != "demand":
        act = bot.act(a, rng)
        a, b = a.apply(act), b.apply(act)
    assert a.observe(a.to_move).to_json() == b.observe(b.to_move).to_json()
    assert a.to_json() != b.to_json()
    return a, b


def test_wilson_interval():
    lo, hi = wilson(0.5, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert wilson(0.0, 50)[0] == 0.0 and 0 < wilson(0.0, 50)[1] < 0.1
    assert wilson(1.0, 50)[1] == 1.0


def test_evaluate_is_a_probability_table():
    state = _mid_game()
    df = evaluate(state, rollouts=120, seed=3)
    assert list(df.index) == [0, 1, 2, 3]
    assert list(df.columns) == ["win_prob", "win_lo", "win_hi", "score_mean", "score_std"]
    assert df["win_prob"].sum() == pytest.approx(1.0)
    assert ((df["win_lo"] <= df["win_prob"]) & (df["win_prob"] <= df["win_hi"])).all()
    assert (df["score_std"] >= 0).all() and df["score_std"].max() > 0
    assert df.attrs["rollouts"] == 120 and df.attrs["mode"] == "fair"
    again = evaluate(state, rollouts=120, seed=3)
    assert again.equals(df)  # seeded
    assert not evaluate(state, rollouts=120, seed=4).equals(df)


def test_evaluate_with_greedy_rollouts_tracks_the_leader():
    state = _greedy_until(2, lambda s: s.round >= 9 and s.phase == "demand")
    df = evaluate(state, rollouts=40, bot="greedy", seed=0, mode="oracle")
    leader = max(range(4), key=lambda i: (state.score(i), state.coins[i]))
    trailer = min(range(4), key=lambda i: (state.score(i), state.coins[i]))
    assert df["win_prob"].sum() == pytest.approx(1.0)
    assert df["win_prob"][leader] > df["win_prob"][trailer]
    assert df["score_mean"][leader] > df["score_mean"][trailer]


def test_fair_mode_ignores_the_hidden_order_and_oracle_uses_it():
    a, b = _twins_mid_game()
    fa, fb = evaluate(a, rollouts=80, seed=1), evaluate(b, rollouts=80, seed=1)
    assert fa.equals(fb)
    assert evaluate(a.observe(a.to_move), rollouts=80, seed=1).equals(fa)
    oa, ob = evaluate(a, rollouts=80, seed=1, mode="oracle"), evaluate(b, rollouts=80, seed=1, mode="oracle")
    assert not oa.equals(ob)


def test_fair_equals_oracle_when_nothing_is_hidden():
    # Last round, after the supply: the pile holds only fires (in fixed season order), no ship is to come.
    state = _greedy_until(4, lambda s: s.round == 10 and s.to_move is not None)
    fair = evaluate(state, rollouts=60, seed=2, mode="fair")
    assert fair.equals(evaluate(state, rollouts=60, seed=2, mode="oracle"))


def test_compare_actions_ranks_a_contract_completion_above_done():
    state = _greedy_until(3, lambda s: s.round == 10 and s.phase == "loading" and any(
        a.kind == "contract" and len(s.player(s.to_move).contracts[a.args[1]][1]) + 1
        == len(s.cat.card(s.player(s.to_move).contracts[a.args[1]][0]).goods) for a in s.legal_actions()))
    df = compare_actions(state, rollouts=40, seed=0)
    assert sorted(df["action"]) == sorted(str(a) for a in state.legal_actions())
    assert list(df["rank"]) == list(range(1, len(df) + 1))
    rank = df.set_index("action")["rank"]
    completing = next(str(a) for a in state.legal_actions() if a.kind == "contract")
    assert rank[completing] < rank["done"]
    best = df.iloc[0]
    assert best["score_mean"] >= df.set_index("action").loc["done", "score_mean"] + 4


def test_compare_actions_uses_common_random_numbers():
    state = _mid_game(5)
    a = state.legal_actions()[0]
    twice = compare_actions(state, rollouts=30, seed=7, actions=[a, a])
    cols = ["win_prob", "score_mean", "score_std"]
    assert twice.loc[0, cols].tolist() == twice.loc[1, cols].tolist()
    # Each action's row is exactly a fair evaluation of the position after it, rollout seeds shared.
    df = compare_actions(state, rollouts=30, seed=7).set_index("action")
    seat = state.to_move
    for act in state.legal_actions()[:3]:
        ev = evaluate(state.apply(act), rollouts=30, seed=7)
        assert df.loc[str(act), "win_prob"] == ev.loc[seat, "win_prob"]
        assert df.loc[str(act), "score_mean"] == ev.loc[seat, "score_mean"]


def test_processes_give_the_same_numbers():
    state = _mid_game(6)
    one = evaluate(state, rollouts=40, seed=5)
    two = evaluate(state, rollouts=40, seed=5, processes=2)
    assert two.equals(one)


def test_errors_and_finished_games():
    state = _mid_game()
    with pytest.raises(ValueError):
        evaluate(state, rollouts=10, mode="psychic")
    with pytest.raises(ValueError):
        evaluate(state, rollouts=0)
    final = _greedy_until(7, lambda s: s.is_over)
    df = evaluate(final, rollouts=5)
    assert df["score_std"].tolist() == [0.0] * 4
    assert math.isclose(df["win_prob"].sum(), 1.0)
    with pytest.raises(ValueError):
        compare_actions(final)


def test_compare_actions_by_the_hybrid_stops_at_the_next_round_and_asks_the_model() -> None:
    """method='hybrid': common random numbers as ever; where every rollout ends the game before the horizon it
    is exactly the full greedy comparison; elsewhere the leaves are the model's, not the end."""
    bot = GreedyBot(seed=1)
    state = sl.new_game(players=3, seed=8)
    early = None
    while state.round < 12 or len(state.legal_actions()) < 2:
        if early is None and state.round == 2 and len(state.legal_actions()) > 1:
            early = state
        state = state.apply(bot.choose(state.observe(state.to_move)))
    last = compare_actions(state, rollouts=6, bot="greedy", seed=3)
    hybrid_last = compare_actions(state, rollouts=6, bot="greedy", seed=3, method="hybrid")
    assert hybrid_last.equals(last) and hybrid_last.attrs["horizon"] == 1
    hybrid = compare_actions(early, rollouts=6, bot="greedy", seed=3, method="hybrid")
    full = compare_actions(early, rollouts=6, bot="greedy", seed=3)
    assert set(hybrid["action"]) == set(full["action"]) and hybrid["win_prob"].between(0, 1).all()
    assert not hybrid.set_index("action")["win_prob"].equals(full.set_index("action")["win_prob"])
    assert hybrid.attrs["method"] == "hybrid" and full.attrs["method"] == "rollouts"
    with pytest.raises(ValueError, match="method"):
        compare_actions(early, rollouts=2, method="model")


def test_judge_moves_stops_when_cancelled_and_is_unchanged_when_not() -> None:
    from speicherstadt_lab.analysis import Cancelled, judge_moves

    state = _mid_game()
    asked: list[int] = []

    def cancel_after_three() -> bool:
        asked.append(1)
        return len(asked) > 3

    with pytest.raises(Cancelled):
        judge_moves(state, rollouts=8, bot="greedy", method="hybrid", cancel=cancel_after_three)
    assert len(asked) == 4  # asked before each rollout: the fourth answer stopped it
    plain = judge_moves(state, rollouts=8, bot="greedy", method="hybrid")
    heard = judge_moves(state, rollouts=8, bot="greedy", method="hybrid", cancel=lambda: False)
    assert plain[0].equals(heard[0]) and plain[1].equals(heard[1])
