"""Bots in Packet Row: GreedyBot's heuristic, MCTS, and the analysis tools on a Packet Row record."""

from __future__ import annotations

from typing import Any

import speicherstadt_lab as sl
from speicherstadt_lab.analysis import compare_actions, evaluate, wilson
from speicherstadt_lab.bots import RandomBot, make_bot
from speicherstadt_lab.bots.greedy import GreedyBot
from speicherstadt_lab.bots.mcts import auto_rollout
from speicherstadt_lab.bots.packet_row_greedy import PacketRowHeuristic
from speicherstadt_lab.records import record_game
from speicherstadt_lab.reviewing import review


def _play(seed: int, hero: int, players: int = 4) -> tuple[Any, int]:
    state = sl.new_game("packet_row", players=players, seed=seed)
    bots = [make_bot("greedy" if i == hero else "random", seed=seed * 10 + i) for i in range(players)]
    decisions = 0
    while not state.is_over:
        seat = state.to_move
        obs = state.observe(seat)
        action = bots[seat].choose(obs)
        decisions += seat == hero
        assert action in state.legal_actions()
        state = state.apply(action)
    return state, decisions


def test_greedy_beats_random_clearly() -> None:
    wins, decisions = 0.0, 0
    games = 40
    for g in range(games):
        state, d = _play(100 + g, hero=g % 4)
        winners = state.winners()
        wins += 1 / len(winners) if g % 4 in winners else 0.0
        decisions += d
    lo, _hi = wilson(wins / games, games)
    assert lo > 0.25, f"greedy win rate {wins / games:.2f} (lower bound {lo:.2f}) vs fair share 0.25"
    assert decisions > 10 * games  # the hero decided throughout (time per decision: benchmarks/bots.py)


def test_greedy_is_the_same_on_the_observation_and_the_full_state() -> None:
    state = sl.new_game("packet_row", players=3, seed=4)
    bot = GreedyBot(seed=3)
    rnd = RandomBot(seed=2)
    for _ in range(60):
        if state.is_over:
            break
        seat = state.to_move
        assert bot.choose(state.observe(seat)) == bot.choose(state)
        state = state.apply(rnd.choose(state.observe(seat)))


def test_greedy_values_fulfilling_and_buying_sensibly() -> None:
    """A complete contract is fulfilled; the harbour master prefers a board with something for him."""
    state = sl.new_game("packet_row", players=4, seed=1)
    rnd = RandomBot(seed=5)
    bot = GreedyBot(seed=1)
    fulfilled = 0
    for _ in range(400):
        if state.is_over:
            break
        obs = state.observe(state.to_move)
        acts = obs.legal_actions()
        fulfils = [a for a in acts if a.kind == "fulfil"]
        if fulfils:
            values = dict(zip(map(str, acts), PacketRowHeuristic(obs).action_values(acts), strict=True))
            best = max(values, key=values.__getitem__)
            assert values[str(fulfils[0])] > values.get("decline", -1e9)
            assert values[str(fulfils[0])] > values.get("done", -1e9)
            fulfilled += best.startswith("fulfil")
        state = state.apply(bot.choose(obs) if state.to_move == 0 else rnd.choose(obs))
    assert state.is_over


def test_bots_asked_with_a_starting_contract_to_fulfil_first_fulfil_and_take() -> None:
    """The issue-15 position: Blue has no money, but its open fur card and ship to Spain fulfil its secret starting
    contract. Greedy fulfils first (the pay buys a card) and then takes one; MCTS and greedy also play the seat
    whose contract does not fit, where declining is the only legal action."""
    from tests.support.positions import blue_with_open_fur_and_spain

    s = blue_with_open_fur_and_spain().apply("choose market")
    bot = GreedyBot(seed=1)
    first = bot.choose(s.observe(1))
    assert first.kind == "fulfil"
    s = s.apply(first)
    assert s.to_move == 1 and bot.choose(s.observe(1)).kind == "take"
    forced = blue_with_open_fur_and_spain("start_grain_gb").apply("choose market")
    for b in (bot, make_bot("mcts:iterations=20", seed=1)):
        assert str(b.choose(forced.observe(1))) == "decline"


def test_greedy_explain_and_projected_scores() -> None:
    state = sl.new_game("packet_row", players=4, seed=2)
    bot = GreedyBot()
    df = bot.explain(state.observe(0))
    assert list(df.columns) == ["action", "value"] and len(df) == len(state.legal_actions())
    proj = bot.projected_scores(state)
    assert len(proj) == 4 and all(p >= 2.0 for p in proj)  # $25 each at the start


def test_mcts_plays_packet_row_with_the_greedy_rollout() -> None:
    assert auto_rollout("packet_row") == "greedy" and auto_rollout("no such game") == "random"
    state = sl.new_game("packet_row", players=4, seed=3)
    bot = make_bot("mcts:iterations=30", seed=1)
    for _ in range(4):
        obs = state.observe(state.to_move)
        a = bot.choose(obs)
        assert a in state.legal_actions()
        state = state.apply(a)
    assert len(bot.explain(state.observe(state.to_move))) == len(state.legal_actions())


def test_evaluate_compare_actions_and_review_on_a_packet_row_record() -> None:
    rec = record_game(sl.new_game("packet_row", players=2, seed=8), [GreedyBot(seed=1), RandomBot(seed=2)])
    assert rec.end().state.is_over
    mid = rec.mainline()[len(rec.mainline()) // 2].state
    if mid.is_over:
        mid = rec.mainline()[1].state
    ev = evaluate(mid, rollouts=20, bot="greedy", processes=1)
    assert len(ev) == 2 and abs(ev["win_prob"].sum() - 1) < 1e-9
    cmp = compare_actions(mid, rollouts=8, bot="greedy", processes=1)
    assert set(cmp["action"]) == {str(a) for a in mid.legal_actions()}
    short = record_game(sl.new_game("packet_row", players=2, seed=9), [RandomBot(seed=3), RandomBot(seed=4)])
    node = short.mainline()[6]
    rv = review(short, rollouts=4, node=node, progress=False, processes=1, luck_rollouts=4)
    assert len(rv.decisions) >= 1
