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


@pytest.mark.parametrize("expansion", [None, "kaispeicher"])
def test_remembered_seasons_of_the_pile_give_the_fresh_determinizations(expansion: str | None) -> None:
    from speicherstadt_lab.games.speicherstadt import state as rules

    kw = {"expansion": expansion} if expansion else {}
    state = sl.new_game(players=4, seed=23, **kw)
    rng = Rng(23)
    while not state.is_over:
        warm = [state.determinize(seed).to_json() for seed in (1, 2, 1)]  # the second and third from the memory
        assert warm[0] == warm[2]
        rules._SEASONS[0] = (None, None, ())
        assert [state.determinize(seed).to_json() for seed in (1, 2)] == warm[:2]
        seasons = [state.cat.cards[c].season for c in state.pile]
        pile = state.determinize(3).pile
        assert sorted(pile) == sorted(state.pile) and [state.cat.cards[c].season for c in pile] == seasons
        actions = state.legal_actions()
        state = state.apply(actions[rng.below(len(actions))])
