"""The validated defaults (``evaluate``'s quick judgement, ``review``'s hybrid) and the fast review's machinery:
reused rollouts give the very same numbers, a pool judges the same as one process, results arrive one by one,
a cancel stops the review."""

from __future__ import annotations

import itertools
import warnings

import pandas as pd
import pytest

import speicherstadt_lab as sl
from speicherstadt_lab import analysis
from speicherstadt_lab.analysis import compare_actions, evaluate, quick_evaluate
from speicherstadt_lab.bots.greedy import GreedyBot
from speicherstadt_lab.reviewing import HYBRID_LEVELS, REVIEW_ROLLOUTS, _Stretches, review
from tests.support.games import greedy_record


def test_evaluate_without_arguments_is_the_quick_judgement() -> None:
    state = greedy_record(plies=30).end().state
    default = evaluate(state)
    pd.testing.assert_frame_equal(default, quick_evaluate(state))
    assert default.attrs["method"] == "hybrid" and default.attrs["judgement"] == "quick"
    assert default.attrs["bot"] == "greedy" and default.attrs["rollouts"] == 12
    assert default.attrs["interval"] == "measured" and default.attrs["units"]["score_mean"] == "points"
    # the random rollouts by name, as before
    rolled = evaluate(state, rollouts=30)
    assert rolled.attrs["method"] == "rollouts" and rolled.attrs["bot"] == "random" and rolled.attrs["rollouts"] == 30
    assert evaluate(state, method="rollouts", rollouts=30).equals(rolled)
    assert evaluate(state, method="model").attrs["method"] == "model"


@pytest.mark.usefixtures("toy_game")  # a game the lab ships no value model for
def test_evaluate_without_a_model_falls_back_to_rollouts() -> None:
    state = sl.new_game("toy_race", players=3, seed=4)
    with pytest.raises((ValueError, FileNotFoundError)):
        evaluate(state, method="model")
    df = evaluate(state, seed=0)
    assert df.attrs["method"] == "rollouts" and df.attrs["rollouts"] == 1000 and df.attrs["bot"] == "random"


def test_review_without_arguments_is_the_hybrid_review() -> None:
    rec = greedy_record(plies=12)
    rv = review(rec, progress=False, luck=False, processes=1)
    assert rv.settings["value"] == "hybrid" and rv.settings["rollouts"] == REVIEW_ROLLOUTS["hybrid"] == 20
    assert rv.settings["thresholds"] == HYBRID_LEVELS and rv.settings["bot"] == "greedy"
    assert review(rec, value="rollouts", rollouts=3, progress=False, luck=False).settings["value"] == "rollouts"
    with pytest.raises(ValueError, match="value"):
        review(rec, value="quick", progress=False)


@pytest.mark.parametrize("game", ["speicherstadt", "packet_row"])
def test_reused_rollouts_give_the_same_numbers(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A greedy spec lets rollouts from the same start be reused; a bot object (no reuse) must agree exactly."""
    line = greedy_record(game, plies=200).mainline()
    late = [nd.state for nd in line[-12:-1:3] if not nd.state.is_over]
    for state in late:
        fast = compare_actions(state, rollouts=6, bot="greedy", seed=1, method="hybrid")
        plain = compare_actions(state, rollouts=6, bot=GreedyBot(seed=analysis.derive_seed(1, "bot")), seed=1,
                                method="hybrid")
        pd.testing.assert_frame_equal(fast, plain)
        ev = evaluate(state, rollouts=8, bot="greedy", method="hybrid", mode="oracle")
        ev_plain = evaluate(state, rollouts=8, bot=GreedyBot(seed=analysis.derive_seed(0, "bot")), method="hybrid",
                            mode="oracle")
        assert ev[["win_prob", "score_mean"]].equals(ev_plain[["win_prob", "score_mean"]])
    # and reuse really happens in Die Speicherstadt (Packet Row's greedy player meets ties, drawn from its stream, in
    # most rollouts, so there is little to reuse): in oracle mode every rollout starts alike
    if game != "speicherstadt":
        return
    warnings.simplefilter("ignore", RuntimeWarning)  # "all rollouts played the same game": what is tested here
    calls = []
    real = analysis.playout
    monkeypatch.setattr(analysis, "playout", lambda *a, **k: calls.append(1) or real(*a, **k))
    states = [nd.state for nd in line[10:60:10]]
    for state in states:
        evaluate(state, rollouts=20, bot="greedy", method="hybrid", mode="oracle")
    assert len(calls) < 10 * len(states)  # without ties a single playout stands for all 20


def test_a_pooled_review_arrives_one_by_one_and_agrees() -> None:
    rec = greedy_record(plies=16)
    serial = review(rec, rollouts=3, progress=False, luck=False, processes=1)
    seen: list[tuple[int, int]] = []
    again = greedy_record(plies=16)
    pooled = review(again, rollouts=3, progress=False, luck=False, processes=2,
                    on_result=lambda done, total: seen.append((done, total)))
    pd.testing.assert_frame_equal(serial.decisions, pooled.decisions)
    n = len(serial.decisions)
    assert seen == [(i, n) for i in range(1, n + 1)]
    # skip keeps what was judged; a cancel stops and says so
    skipped = review(again, rollouts=3, progress=False, luck=False, processes=1, skip=lambda nd: nd.ply <= 8)
    assert len(skipped.decisions) == n - 8
    fresh = greedy_record(plies=16)
    count: list[int] = []
    stopped = review(fresh, rollouts=3, progress=False, luck=False, processes=1,
                     on_result=lambda done, total: count.append(done), cancel=lambda: len(count) >= 3)
    assert len(stopped.decisions) == 3 and stopped.settings.get("cancelled") is True
    assert sum("review" in nd.annotations for nd in fresh.mainline()[1:]) == 3


@pytest.mark.parametrize(("jobs", "workers"), [(1, 2), (2, 2), (7, 2), (40, 2), (41, 3), (5, 8)])
def test_a_pool_hands_out_every_job_once_in_stretches_of_neighbours(jobs: int, workers: int) -> None:
    stretches = _Stretches(jobs, workers)
    taken: dict[int, list[int]] = {w: [] for w in range(workers)}
    # worker 0 is twice as fast as the others: it uses up its stretch and takes over the back of another's
    order = [w for _ in range(jobs) for w in [0, 0, *range(1, workers)]]
    for w in order:
        i = stretches.next(w)
        if i is not None:
            taken[w].append(i)
    handed = sorted(i for seq in taken.values() for i in seq)
    assert handed == list(range(jobs))
    assert all(stretches.next(w) is None for w in range(workers))
    # each worker walks forward, jumping back only when it takes over another stretch (at most a few times)
    for seq in taken.values():
        jumps = sum(1 for a, b in itertools.pairwise(seq) if b != a + 1)
        assert jumps <= 3, seq
    if jobs >= 2 * workers:  # every worker starts at its own stretch
        assert [taken[w][0] for w in range(workers)] == [w * jobs // workers for w in range(workers)]
