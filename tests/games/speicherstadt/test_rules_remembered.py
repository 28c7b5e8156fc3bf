"""What the rules remember for speed (the loading actions and the sums of a seat's cards, per catalogue) is what they
compute afresh: at every position of whole random games, base game and Kaispeicher."""

from __future__ import annotations

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.engine.rng import Rng


@pytest.mark.parametrize("expansion", [None, "kaispeicher"])
def test_remembered_loading_actions_and_card_sums_are_the_fresh_ones(expansion: str | None) -> None:
    kw = {"expansion": expansion} if expansion else {}
    loading = 0
    for players, seed in ((3, 21), (5, 22)):
        state = sl.new_game(players=players, seed=seed, **kw)
        rng = Rng(seed)
        while not state.is_over:
            nt = state.notation
            if state.phase == "loading":
                warm = state._loading_actions()
                nt.loading.clear()
                assert state._loading_actions() == warm
                loading += 1
            warm_scores = [state.score_breakdown(i) for i in range(players)]
            nt.card_sums.clear()
            assert [state.score_breakdown(i) for i in range(players)] == warm_scores
            actions = state.legal_actions()
            state = state.apply(actions[rng.below(len(actions))])
    assert loading > 20  # loading decisions were checked
