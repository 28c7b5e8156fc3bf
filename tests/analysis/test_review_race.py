"""The hybrid review's race (``compare_actions(race=...)``, ``review(search="race")``): the actions that run it to the
end carry exactly the full comparison's numbers, a dropped one the numbers of the rollouts it had, the move played is
never dropped, and the full comparison (the default) stays what it was."""

from __future__ import annotations

import pandas as pd
import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.analysis import compare_actions, race_drops
from speicherstadt_lab.reviewing import RACE, REVIEW_KEY, Review, review
from tests.support.games import greedy_record

COLS = ["win_prob", "score_mean"]




@pytest.mark.parametrize("game", ["speicherstadt", "packet_row"])
def test_a_race_keeps_the_full_numbers_of_every_action_it_kept(game: str) -> None:
    rec = greedy_record(game, 40)
    states = [nd for nd in rec.mainline()[1:] if len(nd.parent.state.legal_actions()) > 2][:3]
    assert states
    dropped = 0
    for nd in states:
        state = nd.parent.state
        full = compare_actions(state, rollouts=8, bot="greedy", seed=1, method="hybrid").set_index("action")
        # the weakest action by the full comparison is the one kept: it must run to the end whatever happens
        keep = str(full.index[-1])
        raced = compare_actions(state, rollouts=8, bot="greedy", seed=1, method="hybrid", race=(3, 5), keep=[keep])
        assert raced.attrs["race"] == (3, 5) and sorted(raced["action"]) == sorted(full.index)
        assert list(raced["rollouts"]) == sorted(raced["rollouts"], reverse=True)  # judged longest first
        by = raced.set_index("action")
        assert by.loc[keep, "rollouts"] == 8 or (by["rollouts"] < 8).all()  # kept, or alone in the end
        for action, row in by.iterrows():
            n = int(row["rollouts"])
            assert n in (3, 5, 8)
            if n == 8:  # ran the whole race: the very numbers of the full comparison
                assert row[COLS].tolist() == full.loc[action, COLS].tolist()
            else:  # dropped: the numbers of its first n rollouts, which are the full comparison's first n
                dropped += 1
                alone = compare_actions(state, rollouts=n, bot="greedy", seed=1, method="hybrid",
                                        actions=[action]).set_index("action")
                assert row[COLS].tolist() == alone.loc[action, COLS].tolist()
        top = raced.loc[0]
        assert top["rollouts"] == raced["rollouts"].max()
    assert dropped  # the race did drop something on these positions, or it tested nothing


def test_race_drops_only_what_is_clearly_behind() -> None:
    def leaves(wins: list[float], scores: list[float]) -> list[tuple[list[float], list[float], bool]]:
        return [([s, 0.0], [w, 1 - w], True) for w, s in zip(wins, scores, strict=True)]

    lead = leaves([0.6, 0.7, 0.5, 0.6], [30, 31, 29, 30])
    assert race_drops(lead, leaves([0.2, 0.3, 0.1, 0.2], [30, 31, 29, 30]), 0)  # far behind on every rollout
    assert not race_drops(lead, leaves([0.7, 0.2, 0.6, 0.5], [30, 31, 29, 30]), 0)  # behind on average, noisily
    assert not race_drops(lead, lead, 0)
    # win shares never differ (a seat without a chance): the points decide
    flat = leaves([0.0] * 4, [20, 21, 19, 20])
    assert race_drops(flat, leaves([0.0] * 4, [15, 16, 14, 15]), 0)
    assert not race_drops(flat, leaves([0.0] * 4, [20, 21, 19, 20]), 0)
    # with Student's t (z=None) a gap must be larger to count at so few rollouts
    close = leaves([0.45, 0.65, 0.5, 0.55], [30, 31, 29, 30])
    assert race_drops(lead, close, 0, z=0.5) and not race_drops(lead, close, 0, z=None)


def test_the_review_races_by_default_and_compares_fully_by_name() -> None:
    raced_rec = greedy_record("speicherstadt", 14)
    full_rec = greedy_record("speicherstadt", 14)
    raced = review(raced_rec, progress=False, luck=False, processes=1, rollouts=8)
    full = review(full_rec, progress=False, luck=False, processes=1, rollouts=8, search="full")
    assert raced.settings["search"] == "race" and full.settings["search"] == "full"
    assert tuple(sorted(RACE)) == RACE
    screened = 0
    for a, b in zip(raced_rec.mainline()[1:], full_rec.mainline()[1:], strict=True):
        ra, fa = a.annotations[REVIEW_KEY], b.annotations[REVIEW_KEY]
        assert "screened" not in fa
        short = ra.get("screened", {})
        screened += len(short)
        # the move played runs the race to the end, unless it is left alone in the lead earlier (no loss to measure)
        assert a.action not in short or (ra["best"] == a.action and ra["win_loss"] == ra["score_loss"] == 0)
        for action, numbers in ra["actions"].items():
            if action not in short:
                assert numbers == fa["actions"][action]
        if ra["best"] == fa["best"]:  # the same best move: the same loss, flag and interval
            assert (ra["win_loss"], ra["score_loss"], ra["flag"]) == (fa["win_loss"], fa["score_loss"], fa["flag"])
            if ra["best"] != a.action:
                assert ra["gain_ci"] == fa["gain_ci"]
    assert screened
    # what was saved reads back, and a record saved before the race (no "search", no "screened") too
    again = Review.from_record(sl.GameRecord.from_json(raced_rec.to_json()))
    pd.testing.assert_frame_equal(again.decisions, raced.decisions)
    for nd in raced_rec.mainline()[1:]:
        nd.annotations[REVIEW_KEY].pop("screened", None)
    raced_rec.root.annotations[REVIEW_KEY].pop("search")
    assert len(Review.from_record(raced_rec).decisions) == len(raced.decisions)
    with pytest.raises(ValueError, match="search"):
        review(full_rec, progress=False, luck=False, search="fast")
