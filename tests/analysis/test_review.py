"""Game review: flags on constructed decisions, luck at every supply, annotations that survive JSON."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.analysis import evaluate
from speicherstadt_lab.reviewing import (
    CALIBRATED_ROLLOUTS,
    FLOORS,
    HYBRID_LEVELS,
    THRESHOLDS,
    Review,
    classify,
    outcomes,
    review,
    thresholds_for,
)
from tests.support.scenario import Collector, stack_bag, stack_deck


def bag_with(first: Sequence[str], last: Sequence[str]) -> list[str]:
    """The 45 cubes: ``first`` drawn first, ``last`` drawn last (by the last ship), the rest in between."""
    bag = stack_bag(first)
    middle = bag[len(first):]
    for g in last:
        middle.reverse()
        middle.remove(g)
        middle.reverse()
    return [*first, *middle, *last]


def record_until(state: sl.GameState, policy: Callable[[Any], str], until: Callable[[Any], bool]
                 ) -> tuple[sl.GameRecord, sl.Node]:
    """A record of ``state`` played by ``policy`` until ``until`` holds; the record and its last node."""
    record = sl.GameRecord.from_state(state)
    node = record.root
    while not until(node.state):
        node = node.play(policy(node.state))
    return record, node


def reviewed_moves(record: sl.GameRecord, node: sl.Node, *actions: str) -> Iterator[tuple[sl.Node, Review]]:
    """Each of ``actions`` played at ``node`` (all of them first), then, one at a time as asked for, its node and its
    review from ``node`` on (no value model, the calibrated rollouts)."""
    children = [node.play(a) for a in actions]
    for child in children:
        yield child, review(record, value=None, rollouts=CALIBRATED_ROLLOUTS, node=child, since=node, progress=False)


def last_round_loading() -> tuple[sl.GameRecord, sl.Node]:
    """2 players. Red bought the 11-point contract (coffee, tea, rubber, carpet) in round 1 and put coffee, tea and
    rubber on it; nobody buys anything after that until the last round, where Red buys a ship with a carpet and the
    Carpet Trader. The node is Red's last loading turn."""
    deck = stack_deck(2, ["contract_b3", "ship_b1", "coffee_roaster"], late_fires=True,
                      bottom=["ship_d5", "carpet_trader", "bank"])
    state = sl.new_game(players=2, deck=deck, bag=bag_with(["coffee", "tea", "rubber"], ["carpet", "coffee", "tea"]))
    red = Collector({0: {"contract_b3", "ship_b1", "ship_d5", "carpet_trader"}})
    record, node = record_until(state, red, lambda s: s.last_round and s.phase == "loading" and s.to_move == 0)
    s = node.state
    assert s.player(0).contracts == (("contract_b3", ("coffee", "tea", "rubber")),)
    assert s.player(0).cards == ("contract_b3", "ship_b1", "ship_d5", "carpet_trader")
    assert s.dock_goods == ("coffee", "tea", "carpet")
    return record, node


def test_selling_the_cube_that_completes_an_11_point_contract_is_a_mistake() -> None:
    record, node = last_round_loading()
    moves = reviewed_moves(record, node, "sell carpet", "contract carpet 0")
    bad, rv = next(moves)
    assert len(rv.decisions) == 1 and len(rv.luck) == 0
    row = rv.decisions.iloc[0]
    assert (row["ply"], row["seat"], row["action"], row["best_action"]) == (bad.ply, 0, "sell carpet",
                                                                            "contract carpet 0")
    assert row["score_loss"] >= 10 and row["flag"] == "mistake"
    assert bad.annotations["review"]["flag"] == "mistake"
    _good, rv = next(moves)
    row = rv.decisions.iloc[0]
    assert row["action"] == row["best_action"] == "contract carpet 0"
    assert row["win_loss"] == 0 and row["score_loss"] == 0 and row["flag"] == ""


def last_round_purchase() -> tuple[sl.GameRecord, sl.Node]:
    """2 players. Blue bought the Boatsmen Church (3 points) in round 1; in the last round Red alone stands above
    St. Michaelis (4 points, price 1) and decides on it: buying wins the game, passing loses it."""
    deck = stack_deck(2, ["boatsmen_church", "coffee_roaster", "tea_taster"], late_fires=True,
                      bottom=["st_michaelis", "bank", "warehouse"])
    state = sl.new_game(players=2, deck=deck)
    both = Collector({0: {"st_michaelis"}, 1: {"boatsmen_church"}})
    record, node = record_until(state, both, lambda s: s.last_round and s.phase == "purchase" and s.space == 0)
    s = node.state
    assert s.to_move == 0 and s.workers[0] == (0,) and s.offer[0] == "st_michaelis"
    assert (s.score(0), s.score(1)) == (0, 3) and s.player(0).cards == ()
    return record, node


def test_passing_on_the_building_that_wins_the_game_is_a_mistake() -> None:
    record, node = last_round_purchase()
    moves = reviewed_moves(record, node, "pass", "buy")
    row = next(moves)[1].decisions.iloc[0]
    assert (row["action"], row["best_action"]) == ("pass", "buy")
    assert row["win_loss"] >= THRESHOLDS["mistake"]["win"] and row["flag"] == "mistake"
    row = next(moves)[1].decisions.iloc[0]
    assert row["action"] == row["best_action"] == "buy" and row["flag"] == ""


def test_classify_and_the_thresholds() -> None:
    inacc, mistake = THRESHOLDS["inaccuracy"], THRESHOLDS["mistake"]
    assert classify(0.0, 0.0) == ""
    assert classify(inacc["win"], 0.0) == classify(0.0, inacc["score"]) == "inaccuracy"
    assert classify(mistake["win"], 0.0) == classify(0.0, mistake["score"]) == "mistake"
    assert classify(inacc["win"] - 0.01, inacc["score"] - 0.1) == ""
    assert thresholds_for(CALIBRATED_ROLLOUTS) == THRESHOLDS
    wide = thresholds_for(CALIBRATED_ROLLOUTS // 4)  # a quarter of the rollouts: twice the noise, twice the levels
    assert wide["mistake"]["win"] == pytest.approx(2 * mistake["win"])
    assert wide["inaccuracy"]["score"] == pytest.approx(2 * inacc["score"])
    fine = thresholds_for(4 * CALIBRATED_ROLLOUTS)
    assert fine["inaccuracy"]["win"] == pytest.approx(max(inacc["win"] / 2, FLOORS["inaccuracy"]["win"]))
    assert thresholds_for(10**6) == FLOORS


def random_record(players: int, seed: int, **kw: Any) -> sl.GameRecord:
    bots = [sl.make_bot("random", seed=seed + i) for i in range(players)]
    return sl.record_game(sl.new_game(players=players, seed=seed, **kw), bots)


def test_luck_rows_for_every_supply_and_decision_rows_for_every_decision() -> None:
    record = random_record(2, 3)
    node = next(nd for nd in record.mainline() if nd.state.round == 4)
    rv = review(record, value=None, rollouts=2, luck_rollouts=6, node=node, progress=False)
    path = record.path_to(node)
    assert list(rv.decisions["ply"]) == [nd.ply for nd in path[1:]]
    assert list(rv.decisions["action"]) == [nd.action for nd in path[1:]]
    assert list(rv.decisions["seat"]) == [nd.actor for nd in path[1:]]
    assert (rv.decisions["win_loss"] >= 0).all() and (rv.decisions["score_loss"] >= 0).all()
    assert set(rv.decisions["flag"]) <= {"", "inaccuracy", "mistake"}
    luck = rv.luck
    assert sorted(set(luck["round"])) == [1, 2, 3, 4]
    assert luck.groupby("round").size().tolist() == [2, 2, 2, 2]
    assert luck.groupby("round")["luck"].sum().abs().max() < 1e-3  # win probabilities sum to 1 before and after
    for rnd, rows in luck.groupby("round"):
        after = path[rows["ply"].iloc[0]].state
        assert after.round == rnd and after.phase == "demand"
        assert rows["revealed"].iloc[0] == ", ".join(c for c in after.offer if c is not None)
        assert (rows["luck"] == (rows["win_after"] - rows["win_before"]).round(4)).all()
    first_in_round = {nd.state.round: nd.ply for nd in reversed(path)}
    assert dict(zip(luck["round"], luck["ply"], strict=False)) == first_in_round
    summary = rv.summary()
    assert list(summary.index) == [0, 1]
    assert summary["decisions"].sum() == len(rv.decisions)
    assert summary["luck"].sum() == pytest.approx(0, abs=1e-3)
    assert summary["mistakes"].sum() == (rv.decisions["flag"] == "mistake").sum()


def test_the_luck_evaluation_before_a_supply_uses_evaluates_own_seeds() -> None:
    """``outcomes`` from the public observation's determinizations is exactly ``evaluate``: the two sides of a
    supply are measured alike."""
    state = random_record(2, 5).mainline()[30].state
    public = state.observe(None)
    wins, scores = outcomes(public.determinize, 6, None, 4)
    ev = evaluate(state, rollouts=6, seed=4)
    assert wins == list(ev["win_prob"]) and scores == list(ev["score_mean"])
    # the hybrid's luck: rollouts cut short and scored by the model, again exactly evaluate's
    wins, scores = outcomes(public.determinize, 6, "greedy", 4, horizon=1)
    ev = evaluate(state, rollouts=6, bot="greedy", seed=4, method="hybrid", horizon=1)
    assert wins == pytest.approx(list(ev["win_prob"])) and scores == pytest.approx(list(ev["score_mean"]))


def test_the_review_is_saved_in_the_record_and_read_back_after_json() -> None:
    record = random_record(2, 7)
    node = next(nd for nd in record.mainline() if nd.state.round == 2)
    rv = review(record, value=None, rollouts=2, luck_rollouts=4, node=node, seed=3, progress=False)
    assert record.root.annotations["review"]["rollouts"] == 2 and record.root.annotations["review"]["seed"] == 3
    assert "luck" in record.root.annotations  # round 1's supply belongs to the start position
    text = record.to_json()
    again = sl.GameRecord.from_json(text)
    back = Review.from_record(again, node=again.path_to(again.end())[node.ply])
    assert back.decisions.equals(rv.decisions)
    assert back.luck.equals(rv.luck)
    assert back.settings == rv.settings
    assert back.summary().equals(rv.summary())
    with pytest.raises(ValueError):
        Review.from_record(random_record(2, 8))


def test_a_kaispeicher_review_measures_both_rows() -> None:
    record = random_record(2, 11, expansion="kaispeicher")
    line = record.mainline()
    k = next(i for i, nd in enumerate(line) if nd.state.round == 2)  # its action ended round 1: round 2's supply
    rv = review(record, value=None, rollouts=2, luck_rollouts=4, node=line[k + 3], since=line[k - 1], progress=False)
    assert list(rv.decisions["ply"]) == [k, k + 1, k + 2, k + 3]
    assert list(rv.luck["round"]) == [2, 2] and list(rv.luck["seat"]) == [0, 1]
    after = line[rv.luck["ply"].iloc[0]].state
    revealed = rv.luck["revealed"].iloc[0].split(", ")
    assert revealed == [*after.offer, *after.to_dict()["kai"]["top"]] and len(revealed) == 2 * 3


def test_processes_give_the_same_numbers() -> None:
    record = random_record(2, 13)
    mid = record.mainline()[12]
    node = record.mainline()[16]
    serial = review(record, value=None, rollouts=3, node=node, since=mid, progress=False, luck=False)
    pooled = review(record, value=None, rollouts=3, node=node, since=mid, progress=False, luck=False, processes=2)
    assert len(serial.decisions) == 4
    assert serial.decisions.equals(pooled.decisions)


def test_since_must_be_on_the_line() -> None:
    record = random_record(2, 2)
    other = record.mainline()[3].parent.play(next(a for a in record.mainline()[2].state.legal_actions()
                                                  if str(a) != record.mainline()[3].action))
    with pytest.raises(ValueError):
        review(record, rollouts=2, since=other, progress=False)
    with pytest.raises(ValueError):
        review(record, rollouts=1, progress=False)



def test_review_with_the_value_model_measures_losses_and_luck_without_noise() -> None:
    """value='model': search still ranks the moves, the model measures the chosen and the best one, and the
    luck of a supply is the model after it against its mean over the draws that could have come."""
    from speicherstadt_lab.bots import make_bot as _make

    rec = sl.GameRecord.new(players=3, seed=21)
    node = rec.root
    bot = _make("greedy", seed=2)
    while node.state.round < 3:
        node = node.play(bot.choose(node.state.observe(node.state.to_move)))
    rv = review(rec, rollouts=4, value="model", progress=False, luck_rollouts=12)
    assert rv.settings["value"] == "model" and len(rv.decisions) == len(rec.mainline()) - 1
    assert rv.settings["thresholds"] == FLOORS  # no sampling noise: the floors, not the 4-rollout levels
    assert (rv.decisions["win_loss"] >= 0).all() and (rv.decisions["best_win_prob"] <= 1).all()
    assert len(rv.luck) > 0 and rv.luck.filter(like="win").abs().le(1).all().all()
    again = review(rec, rollouts=4, value="model", progress=False, luck_rollouts=12)
    assert again.decisions.equals(rv.decisions) and again.luck.equals(rv.luck)
    with pytest.raises(ValueError, match="value"):
        review(rec, rollouts=4, value="oracle", progress=False)


def test_review_by_the_hybrid_finds_and_measures_with_the_hybrid_comparison() -> None:
    """value='hybrid': each decision is compare_actions(method='hybrid') with greedy players; the best move,
    the losses and the flag (at HYBRID_LEVELS) come from it; the luck is the model's; reproducible."""
    from speicherstadt_lab.analysis import compare_actions
    from speicherstadt_lab.bots import make_bot as _make

    rec = sl.GameRecord.new(players=3, seed=21)
    node = rec.root
    bots = [_make("greedy", seed=2), _make("random", seed=3), _make("greedy", seed=4)]
    while node.state.round < 3:
        node = node.play(bots[node.state.to_move].choose(node.state.observe(node.state.to_move)))
    rv = review(rec, rollouts=4, value="hybrid", progress=False, luck_rollouts=12)
    assert rv.settings["value"] == "hybrid" and rv.settings["thresholds"] == HYBRID_LEVELS
    assert rv.settings["horizon"] == 2
    assert rv.settings["bot"] == "greedy"  # what the hybrid rolls out with, whatever bot says
    assert len(rv.decisions) == len(rec.mainline()) - 1 and len(rv.luck) > 0
    path = rec.mainline()
    for row in rv.decisions.itertuples():
        before = path[row.ply - 1].state
        df = compare_actions(before, rollouts=4, bot="greedy", seed=0, method="hybrid",
                             horizon=2).set_index("action")  # Die Speicherstadt's review_horizon
        assert row.best_action == df.index[0]
        assert row.win_loss == pytest.approx(max(0.0, df["win_prob"].iloc[0] - df.loc[row.action, "win_prob"]),
                                             abs=1e-4)
        assert row.flag == classify(row.win_loss, row.score_loss, HYBRID_LEVELS)
    assert (rv.decisions["flag"] != "").any()  # the random seat's moves lose enough to be flagged
    again = review(rec, rollouts=4, value="hybrid", progress=False, luck_rollouts=12)
    assert again.decisions.equals(rv.decisions) and again.luck.equals(rv.luck)


def test_the_hybrid_review_plays_as_many_rounds_as_the_game_declares() -> None:
    """GameInfo.hybrid_horizon sets how many rounds the hybrid review's rollouts play before the model scores
    them (Packet Row's rounds are short: 6, chosen on tuning games); ``horizon`` overrides it; a horizon that is
    not a whole number of rounds ≥ 1 is refused before any work."""
    from speicherstadt_lab.analysis import compare_actions
    from speicherstadt_lab.bots import make_bot as _make
    from speicherstadt_lab.engine.protocol import get_game

    assert get_game("speicherstadt").hybrid_horizon == 1 and get_game("packet_row").hybrid_horizon == 6
    # Die Speicherstadt's review compares moves two rounds deep; Packet Row's takes its hybrid_horizon
    assert get_game("speicherstadt").review_horizon == 2 and get_game("packet_row").review_horizon is None
    rec = sl.GameRecord.new(players=3, seed=8, game="packet_row")
    node = rec.root
    bots = [_make("greedy", seed=k) for k in range(3)]
    for _ in range(4):
        node = node.play(bots[node.state.to_move].choose(node.state.observe(node.state.to_move)))
    rv = review(rec, rollouts=2, value="hybrid", progress=False, luck=False)
    assert rv.settings["horizon"] == 6
    path = rec.mainline()
    for row in rv.decisions.itertuples():
        df = compare_actions(path[row.ply - 1].state, rollouts=2, bot="greedy", seed=0, method="hybrid", horizon=6)
        assert row.best_action == df["action"].iloc[0]
    assert review(rec, rollouts=2, value="hybrid", progress=False, luck=False, horizon=1).settings["horizon"] == 1
    for bad in (0, 1.5, "6"):
        with pytest.raises(ValueError, match="horizon"):
            review(rec, rollouts=2, value="hybrid", progress=False, horizon=bad)  # type: ignore[arg-type]
    assert "horizon" not in review(rec, value=None, rollouts=2, progress=False, luck=False).settings
