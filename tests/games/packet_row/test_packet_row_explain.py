"""Packet Row: every legal action explains itself in English and German, with the position's numbers."""

from __future__ import annotations

import re

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.bots import RandomBot
from speicherstadt_lab.bots.greedy import GreedyBot
from speicherstadt_lab.engine.errors import IllegalAction
from speicherstadt_lab.games.packet_row.explain import explain_actions

_LEFT = re.compile(r"\{[^}]*\}")


def _games() -> list[tuple[int, int, object]]:
    return [(2, 3, RandomBot(seed=1)), (4, 5, RandomBot(seed=2)), (5, 6, GreedyBot(seed=3)), (3, 7, GreedyBot())]


@pytest.mark.parametrize(("players", "seed", "bot"), _games())
def test_every_legal_action_of_whole_games_explains_itself(players: int, seed: int, bot: object) -> None:
    state = sl.new_game("packet_row", players=players, seed=seed)
    kinds: set[str] = set()
    while not state.is_over:
        for lang in ("en", "de"):
            texts = explain_actions(state, lang)
            assert set(texts) == {str(a) for a in state.legal_actions()}
            for action, text in texts.items():
                assert text and not _LEFT.search(text), (action, text)
                assert "None" not in text, (action, text)
                kinds.add(action.split()[0])
        state = state.apply(bot.choose(state.observe(state.to_move)))  # type: ignore[attr-defined]
    assert {"choose", "take", "decline"} <= kinds


def test_the_numbers_of_the_position_appear() -> None:
    state = sl.new_game("packet_row", players=4, seed=1)
    text = state.explain_action("choose market", "en")
    cards = [state.card_name(c) for c in state.supply("market")["current"] if c]
    assert all(c in text for c in cards) and "$25" in text
    assert "Markt" in state.explain_action("choose market", "de")
    state = state.apply("choose market")
    take = next(a for a in state.legal_actions() if a.kind == "take")
    card = state.supply("market")["current"][take.args[-1]]
    cost = state.catalog.card(card).cost
    en = state.explain_action(take, "en")
    assert f"${cost}" in en or "costs nothing" in en
    assert state.card_name(card) in en and state.card_name(card, "de") in state.explain_action(take, "de")
    assert "decide again" in state.explain_action("decline", "en")


def test_a_fulfilment_names_its_contracts_and_payout() -> None:
    state = sl.new_game("packet_row", players=4, seed=1)
    bot = RandomBot(seed=4)
    for _ in range(2000):
        fulfils = [a for a in state.legal_actions() if a.kind == "fulfil"] if not state.is_over else []
        if fulfils:
            break
        assert not state.is_over
        state = state.apply(bot.choose(state))
    a = fulfils[0]
    nt = state.notation
    contracts = nt.fulfil_of[a.text][0]
    pays = sum(nt.pays[c] for c in contracts)
    for lang in ("en", "de"):
        text = state.explain_action(a, lang)
        assert f"${pays}" in text
        assert all(state.card_name(nt.ids[c], lang) in text for c in contracts)


def test_illegal_actions_raise_through_the_engine() -> None:
    state = sl.new_game("packet_row", players=4, seed=1)
    with pytest.raises(IllegalAction) as err:
        state.explain_action("decline", "en")
    assert err.value.rule == "pr.phase"
    with pytest.raises(IllegalAction):
        state.explain_action("take docks 0", "de")
    with pytest.raises(IllegalAction):
        state.explain_action("cash 4")
    with pytest.raises(IllegalAction) as err:
        state.explain_action("frobnicate", "en")
    assert err.value.rule == "pr.notation"
    with pytest.raises(ValueError):
        state.explain_action("choose docks", "fr")
