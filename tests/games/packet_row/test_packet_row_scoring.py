"""Packet Row: the end of the game and scoring (rulebook "Punktwertung", "Bankier").

Buildings score their VP, every $10 one VP, bankers by wealth rank (2-3 players: 2 VP each for the richest,
ties share; 4-5 players: 3 VP each for the richest, 1 VP each for the second richest, no second place after
a tie for the richest); ties are broken by money. At the end seats may still fulfil; money cards are cashed.
"""

from __future__ import annotations

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.games.packet_row import check_invariants
from speicherstadt_lab.games.packet_row.scenario import rigged, stacked_decks

BANKERS = ["banker"] * 5


def table(players: int, money: list[int], bankers: list[int], extra: dict[int, list[str]] | None = None):
    """A new game where seat i has ``money[i]`` dollars and ``bankers[i]`` bankers (plus ``extra[i]`` cards)."""
    extra = extra or {}
    wanted = [c for i in range(players) for c in ["banker"] * bankers[i] + extra.get(i, [])]
    s = sl.new_game("packet_row", players=players, decks=stacked_decks(bottom=wanted))
    for i in range(players):
        s = rigged(s, i, hand=["banker"] * bankers[i] + extra.get(i, []), money=money[i])
    return s


def bankers(state) -> list[int]:
    return [state.score_breakdown(i)["bankers"] for i in range(state.n_players)]


@pytest.mark.parametrize("players", [2, 3])
def test_two_or_three_players_the_richest_gets_two_per_banker(players: int) -> None:
    money = [40, 30, 20][:players]
    s = table(players, money, [2, 1, 1][:players])
    assert bankers(s) == [4, 0, 0][:players]


def test_two_or_three_players_a_tie_for_the_richest_shares() -> None:
    s = table(3, [40, 40, 20], [1, 2, 1])
    assert bankers(s) == [2, 4, 0]


def test_four_or_five_players_richest_three_second_one() -> None:
    s = table(4, [50, 40, 30, 20], [1, 2, 1, 1])
    assert bankers(s) == [3, 2, 0, 0]
    s = table(5, [20, 40, 50, 40, 10], [1, 1, 1, 1, 1])
    assert bankers(s) == [0, 1, 3, 1, 0]  # a tie for second: both score 1 per banker


def test_four_or_five_players_a_tie_for_the_richest_gives_no_second_place() -> None:
    s = table(4, [50, 50, 40, 20], [1, 1, 2, 0])
    assert bankers(s) == [3, 3, 0, 0]


def test_money_cards_count_as_money_for_scoring() -> None:
    s = table(4, [30, 31, 10, 10], [1, 0, 0, 0], {0: ["money2"]})
    assert bankers(s) == [3, 0, 0, 0]  # $30 + the $2 card beats $31
    assert s.score_breakdown(0)["money"] == 3


def test_buildings_and_money_points_and_the_money_tie_break() -> None:
    buildings = {0: ["guild_university", "market_church"], 1: ["bank_library", "docks_church"]}
    s = table(3, [29, 30, 19], [0, 0, 0], buildings)
    assert s.score_breakdown(0) == {"buildings": 5, "money": 2, "bankers": 0}
    assert s.score_breakdown(1) == {"buildings": 4, "money": 3, "bankers": 0}
    assert s.scores() == (7, 7, 1)
    assert s.winners() == [1]  # equal points: more money wins
    assert s.ranks() == [2, 1, 3]
    t = table(2, [30, 30], [0, 0])
    assert t.winners() == [0, 1] and t.ranks() == [1, 1]


def test_score_breakdown_sums_to_the_score() -> None:
    s = table(5, [55, 12, 33, 33, 9], [2, 1, 1, 0, 1], {2: ["docks_town_hall"]})
    for i in range(5):
        assert sum(s.score_breakdown(i).values()) == s.score(i)


def _to_the_end(state):
    """Every harbour master chooses the Bank and takes its cheapest card; the others decline."""
    while state.phase in ("choose", "decide"):
        options = [str(a) for a in state.legal_actions()]
        if state.phase == "choose":
            pick = next((o for o in options if o == "choose bank"), next(o for o in options if o.startswith("choose")))
        elif state.to_move != state.harbour_master:
            pick = "decline"
        else:
            takes = [o for o in options if o.startswith(f"take {state.current_board} ") and "future" not in o]
            pick = takes[0] if takes else next((o for o in options if o.startswith("choose")), "pass")
        state = state.apply(pick)
        assert not check_invariants(state)
    return state


def test_the_final_phase_asks_who_can_fulfil_then_cashes_and_scores() -> None:
    order = ["start_grain_gb", "start_fur_es", "start_tobacco_de",
             *(c for c in ["start_grain_fr", "start_grain_de", "start_cotton_nl", "start_cotton_se", "start_cotton_es",
                           "start_fur_gb", "start_fur_nl", "start_tobacco_fr", "start_tobacco_se"])]
    decks = stacked_decks(bottom=["grain2", "ship_gb", "money5", "fur3", "ship_es"])
    s = sl.new_game("packet_row", players=3, decks=decks, start_contracts=order)
    s = rigged(s, 0, hand=["grain2", "money5"], ships=["ship_gb"])
    s = rigged(s, 1, hand=["fur3"], ships=["ship_es"])
    # Keep the rigged cards: nobody but the harbour master takes, and he takes from the Bank only.
    s = _to_the_end(s)
    assert s.phase == "final"
    assert "pr_game_ends" in [e.key for e in s.events]
    revealed = {e.args["seat"]: e.args["card"] for e in s.events if e.key == "pr_reveal"}
    assert revealed == {0: "start_grain_gb", 1: "start_fur_es", 2: "start_tobacco_de"}
    assert s.view(2)["seats"][0]["hand"].count("start_grain_gb") == 1  # hands are shown at the end
    assert s.view(2)["seats"][0]["secret"] == 0
    asked = []
    while not s.is_over:
        asked.append(s.to_move)
        options = [str(a) for a in s.legal_actions()]
        assert "done" in options and "cash 5" not in options
        fulfil = [o for o in options if o.startswith("fulfil")]
        s = s.apply(fulfil[0] if fulfil else "done")
    assert set(asked) == {0, 1}
    assert all(s.player(i).hand.count("money5") == 0 for i in range(3))
    assert "pr_cash_end" in [e.key for e in s.events] and s.events[-1].key == "pr_game_over"
    assert not check_invariants(s)
    assert s.legal_actions() == [] and s.to_move is None
    with pytest.raises(sl.IllegalAction) as info:
        s.apply("done")
    assert info.value.rule == "pr.over"


def test_a_finished_game_has_final_events_in_both_languages() -> None:
    s = sl.new_game("packet_row", players=2, seed=3)
    rng = sl.Rng(3, "scoring")
    while not s.is_over:
        s = s.apply(rng.choice(s.legal_actions()))
    finals = [e for e in s.events if e.key == "pr_final"]
    assert [e.args["seat"] for e in finals] == [0, 1]
    assert [e.args["score"] for e in finals] == list(s.scores())
    assert "Sieger" in s.describe(s.events[-1], "de") and "Winner" in s.describe(s.events[-1])
