"""Packet Row: the round with the harbour master's choices, refills of the chosen boards, the end of the game.

Rulebook (seed 004): "Spielablauf", "Neue Runde vorbereiten", "Ende des Spiels", and the example round
(Anna, Ben, Cedric, David). Positions are stacked through the public set-up (``decks=``) and played through
the notation.
"""

from __future__ import annotations

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.games.packet_row import check_invariants, standard_decks
from speicherstadt_lab.games.packet_row.scenario import rigged, stacked_decks

ANNA, BEN, CEDRIC, DAVID = 0, 1, 2, 3


def play(state, *actions):
    for k, text in enumerate(actions):
        try:
            state = state.apply(text)
        except sl.IllegalAction as e:
            raise AssertionError(f"step {k} {text!r} refused ({e.rule}): {e}") from e
        assert not check_invariants(state), check_invariants(state)
    return state


def keys(state):
    return [e.key for e in state.events]


def legal(state):
    return {str(a) for a in state.legal_actions()}


def refusal(state, action):
    with pytest.raises(sl.IllegalAction) as info:
        state.apply(action)
    return info.value


def example_round_start():
    """The rulebook's example: Anna is harbour master of a 4-player game; Market and Docks as described."""
    decks = stacked_decks({
        "market": ["market_library", "tobacco1", "grain2", "tobacco3", "fur2", "cotton1", "grain1", "fur1"],
        "docks": ["ship_nl", "docks_church", "captain", "gold2", "ship_gb", "ship_fr", "gold1", "ship_es"],
    })
    return sl.new_game("packet_row", players=4, decks=decks, names=["Anna", "Ben", "Cedric", "David"])


def test_the_rulebook_example_round() -> None:
    s = example_round_start()
    assert s.phase == "choose" and s.to_move == ANNA and s.harbour_master == ANNA
    guild, bank = s.supply("guild"), s.supply("bank")
    s = play(s, "choose market")
    assert s.to_move == BEN  # the player left of the harbour master decides first
    assert {"take market 0", "take market 1", "take market 2", "decline"} <= legal(s)
    s = play(s, "take market 0")  # Ben takes the Library for $15
    assert s.money[BEN] == 10 and "market_library" in s.player(BEN).hand
    assert s.player(BEN).pawn == ("market", "current", 0)
    assert s.to_move == CEDRIC
    s = play(s, "decline")
    assert s.to_move == DAVID
    assert "take market future 0" not in legal(s)  # the 3 tobacco lies in the future supply
    assert refusal(s, "take market future 0").rule == "pr.assistant"
    s = play(s, "take market 1")  # 1 tobacco for $2
    assert s.money[DAVID] == 23 and s.to_move == ANNA
    # Anna declines the Market by choosing a new board; Ben and David are skipped.
    assert {"choose guild", "choose docks", "choose bank"} <= legal(s) and "decline" not in legal(s)
    assert refusal(s, "decline").rule == "pr.hm_decline"
    assert refusal(s, "choose market").rule == "pr.board_chosen"
    s = play(s, "choose docks")
    assert s.pending == (CEDRIC, ANNA) and s.to_move == CEDRIC
    s = play(s, "decline")
    assert s.to_move == ANNA
    assert refusal(s, "take market 2").rule == "pr.take_board"  # never from a board chosen earlier
    s = play(s, "take docks 0")  # the Dutch ship, free: the round ends at once
    assert s.player(ANNA).ships == ("ship_nl",) and s.money[ANNA] == 25
    assert "pr_round_ends_take" in keys(s)
    # The new round: Ben is harbour master; every pawn is back.
    assert s.round == 2 and s.phase == "choose" and s.to_move == BEN and s.harbour_master == BEN
    assert all(s.player(i).pawn is None for i in range(4))
    # Market and Docks were refilled: the rest discarded, the future moved down plus 1 card, 2 new future cards.
    market = s.supply("market")
    assert market["discard"] == ("grain2",)
    assert market["current"] == ("tobacco3", "fur2", "cotton1") and market["future"] == ("grain1", "fur1")
    docks = s.supply("docks")
    assert docks["discard"] == ("docks_church", "captain")
    assert docks["current"] == ("gold2", "ship_gb", "ship_fr") and docks["future"] == ("gold1", "ship_es")
    # Nothing changes on the boards nobody chose.
    assert s.supply("guild") == guild and s.supply("bank") == bank
    texts = s.event_texts("de")
    assert any("Hafenmeister" in t and "Ben" in t for t in texts)


def test_harbour_master_taking_ends_the_round_though_others_took_nothing() -> None:
    s = play(example_round_start(), "choose market", "decline", "decline", "decline", "take market 2")
    assert s.round == 2 and s.to_move == BEN
    assert "grain2" in s.player(ANNA).hand and s.money[ANNA] == 19
    assert all(len(s.player(i).hand) == 1 for i in (BEN, CEDRIC, DAVID))  # only their starting contracts
    assert s.supply("docks")["current"] == ("ship_nl", "docks_church", "captain")  # never chosen


def test_when_all_others_took_the_harbour_master_takes_here_or_from_an_unchosen_board_or_passes() -> None:
    s = play(example_round_start(), "choose market", "take market 0", "take market 1", "take market 2")
    assert s.to_move == ANNA
    options = legal(s)
    assert "take docks 0" in options and "take guild 0" in options and "take bank 0" in options
    assert "pass" in options
    assert not any(o.startswith("choose") for o in options)  # no choosing without taking
    assert refusal(s, "choose docks").rule == "pr.choose_all_took"
    after = play(s, "take docks 0")  # taking from another board chooses it: the Docks refill too
    assert after.round == 2
    assert after.supply("docks")["current"] == ("gold2", "ship_gb", "ship_fr")
    passed = play(s, "pass")
    assert passed.round == 2 and "pr_pass" in keys(passed)
    assert passed.supply("docks")["current"] == ("ship_nl", "docks_church", "captain")  # not chosen: unchanged


def test_only_seats_still_holding_a_pawn_decide_again_and_a_round_can_end_with_no_board_left() -> None:
    s = play(example_round_start(), "choose market", "take market 0", "decline", "decline")
    s = play(s, "choose docks", "decline", "decline", "choose guild", "decline", "decline", "choose bank")
    assert s.pending == (CEDRIC, DAVID, ANNA)
    s = play(s, "decline", "decline")
    assert s.to_move == ANNA
    assert "pass" in legal(s) and not any(o.startswith("choose") for o in legal(s))
    s = play(s, "pass")
    assert s.round == 2 and s.harbour_master == BEN
    # All four boards were chosen, so all four refill.
    assert all(len(s.supply(b)["discard"]) == 3 - (b == "market") for b in ("guild", "docks", "market", "bank"))


def test_a_seat_that_cannot_pay_declines_automatically_like_a_declining_seat() -> None:
    decks = stacked_decks({"market": ["market_university", "market_library", "market_town_hall"]})
    s = sl.new_game("packet_row", players=3, decks=decks)
    s = rigged(s, 1, money=5)
    s = play(s, "choose market")
    # Blue ($5) cannot pay for anything, holds no money card and no open card a starting contract could use: the
    # engine declines for it, with the event of a decline by choice (notes, entry 9).
    assert s.to_move == 2
    assert "pr_decline" in keys(s) and "pr_forced_decline" not in keys(s)
    assert "Blue takes no card from the Market." in s.event_texts()


def test_cash_a_money_card_at_any_decision_to_pay() -> None:
    decks = stacked_decks({"market": ["market_university", "market_library", "market_town_hall", "tobacco3"]})
    s = sl.new_game("packet_row", players=3, decks=decks)
    s = rigged(s, 1, hand=["money8"], money=12)
    s = play(s, "choose market")
    assert s.to_move == 1
    assert "take market 0" not in legal(s) and "cash 8" in legal(s)
    assert refusal(s, "take market 0").rule == "pr.cost"
    assert refusal(s, "cash 5").rule == "pr.cash"
    s = play(s, "cash 8")
    assert s.to_move == 1 and s.money[1] == 20 and "take market 0" in legal(s)
    s = play(s, "take market 0")
    assert s.money[1] == 2 and "market_university" in s.player(1).hand


def test_assistant_takes_from_the_future_supply_and_is_discarded() -> None:
    s = example_round_start()
    s = rigged(s, BEN, hand=["assistant"])
    s = play(s, "choose market")
    assert "take market future 0" in legal(s) and "take market future 1" in legal(s)
    s = play(s, "take market future 0")  # 3 tobacco for $10
    assert s.money[BEN] == 15 and "tobacco3" in s.player(BEN).hand and "assistant" not in s.player(BEN).hand
    assert s.supply("guild")["discard"] == ("assistant",)
    assert s.supply("market")["future"] == (None, "fur2")
    assert s.player(BEN).pawn == ("market", "future", 0)
    s = play(s, "decline", "decline", "take market 0")
    # Refill with one future card left: it moves down and the deck tops the current supply up to 3.
    assert s.supply("market")["current"] == ("fur2", "cotton1", "grain1")


def test_first_harbour_master_and_seat_order_follow_first_player() -> None:
    s = sl.new_game("packet_row", players=5, seed=3, first_player=3)
    assert s.to_move == 3 and s.harbour_master == 3
    s = s.apply("choose bank")
    assert s.pending == (4, 0, 1, 2, 3)


# ---- the end of the game ----------------------------------------------------------------------------------------


def focus(state, boards: tuple[str, ...]) -> str:
    """The harbour master chooses the first of ``boards`` with cards and takes its cheapest card; nobody else
    takes anything. So the boards run out one after the other."""
    options = legal(state)
    if state.phase == "choose":
        return next(f"choose {b}" for b in boards if f"choose {b}" in options)
    if state.to_move != state.harbour_master:
        return "decline"
    takes = [o for o in options if o.startswith(f"take {state.current_board} ") and "future" not in o]
    if takes:
        supply = state.supply(state.current_board)["current"]
        return min(takes, key=lambda o: state.cat.card(supply[int(o.split()[-1])]).cost)
    return next((f"choose {b}" for b in boards if f"choose {b}" in options), "pass")


def drain(players: int, boards: tuple[str, ...], seed: int = 0) -> tuple[object, list[object]]:
    """Play ``focus`` until the game ends; returns the first state after the end and every state before."""
    s = sl.new_game("packet_row", players=players, seed=seed)
    seen = []
    while s.phase in ("choose", "decide"):
        seen.append(s)
        s = s.apply(focus(s, boards))
        assert not check_invariants(s), check_invariants(s)
    return s, seen


@pytest.mark.parametrize(("players", "needed"), [(2, 1), (3, 1), (4, 2), (5, 3)])
def test_the_game_ends_when_enough_boards_cannot_fill_their_current_supply(players: int, needed: int) -> None:
    order = ("bank", "market", "docks", "guild")
    end, seen = drain(players, order)
    assert end.phase in ("final", "over") and "pr_game_ends" in keys(end)
    assert end.short_boards == order[:needed]  # one after the other, as the focus empties them
    short = [e for e in end.events if e.key == "pr_short"]
    assert short[-1].args["count"] == needed and short[-1].args["threshold"] == needed
    # Before that, play went on with fewer unfillable boards (and an empty board could not be chosen).
    assert max(len(x.short_boards) for x in seen) == needed - 1
    for x in seen:
        for b in x.short_boards:
            if x.phase == "choose" and not any(x.supply(b)["current"]):
                assert f"choose {b}" not in legal(x)
                assert refusal(x, f"choose {b}").rule == "pr.board_empty"


def test_an_unfillable_future_supply_alone_does_not_end_the_game() -> None:
    # 4 players: the Market deck keeps 42 - 3 - 2 = 37 cards; after 12 refills (3 cards each) 1 is left, which
    # fills the current supply; the future supply stays empty and the game goes on.
    end, seen = drain(4, ("market", "bank", "docks", "guild"), seed=5)
    future_short = [x for x in seen if "pr_future_short" in keys(x)]
    assert future_short, "the market's future supply ran out before its current supply"
    first = future_short[0]
    assert first.short_boards == () and first.phase in ("choose", "decide")
    assert first.supply("market")["future"] == (None, None) and None not in first.supply("market")["current"]
    assert end.short_boards[0] == "market"


def test_two_players_remove_six_cards_per_deck_unseen() -> None:
    decks = standard_decks(2, 7)
    s = sl.new_game("packet_row", players=2, seed=7)
    d = s.to_dict()
    for b in ("guild", "docks", "market", "bank"):
        assert d["boards"][b]["removed"] == decks[b][:6]
        assert d["boards"][b]["current"] == decks[b][6:8]
        assert d["boards"][b]["future"] == decks[b][8:10]
        assert s.view(0)["boards"][b]["removed"] == 6
        assert "removed" not in str(s.view(0)["boards"][b]["discard"])
    assert "pr_removed" in [e.key for e in s.events]
    three = sl.new_game("packet_row", players=3, seed=7).to_dict()
    assert all(three["boards"][b]["removed"] == [] for b in ("guild", "docks", "market", "bank"))


@pytest.mark.parametrize(("players", "current"), [(2, 2), (3, 2), (4, 3), (5, 4)])
def test_supplies_money_and_starting_contracts_by_player_count(players: int, current: int) -> None:
    s = sl.new_game("packet_row", players=players, seed=1)
    for b in ("guild", "docks", "market", "bank"):
        sup = s.supply(b)
        assert len(sup["current"]) == current and None not in sup["current"]
        assert len(sup["future"]) == 2 and None not in sup["future"]
    assert s.money == (25,) * players
    for i in range(players):
        hand = s.player(i).hand
        assert len(hand) == 1 and s.cat.card(hand[0]).start
    assert len(s.to_dict()["box"]) == 12 - players
