"""Phases 2 and 3 of a round: Demand (workers) and Purchase (left to right, falling price)."""

from __future__ import annotations

import pytest

import speicherstadt_lab as sl
from tests.support.scenario import event_keys, events_of, passive, places, play, stack_bag, stack_deck

# With stack_deck the rest of the pile follows the catalogue, so round 1 offers the five merchants (4 players).
MERCHANTS = ("coffee_roaster", "tea_taster", "spice_trader", "carpet_trader", "vulcanizer")


def four() -> sl.GameState:
    return sl.new_game(players=4, deck=stack_deck(4))


# ---- demand -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "first"), [(2, 0), (3, 2), (4, 1), (5, 4)])
def test_three_workers_each_clockwise_from_the_metal_coin(players: int, first: int) -> None:
    s = sl.new_game(players=players, seed=4, first_player=first)
    movers = []
    while s.phase == "demand":
        movers.append(s.to_move)
        s = s.apply(passive(s))
    assert movers == [(first + k) % players for k in range(3 * players)]
    assert s.phase == "purchase"
    # Nobody has bought or withdrawn yet: every worker of the demand phase is still on the board.
    placed = sorted(w for col in s.workers for w in col)
    assert placed == sorted(list(range(players)) * 3)


def test_each_seat_places_exactly_three_workers_then_purchase_begins() -> None:
    s = four()
    s = play(s, *places(0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0))
    assert s.phase == "demand" and s.to_move == 3
    assert sorted(w for col in s.workers for w in col) == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3]
    s = s.apply("place 1")
    assert s.phase == "purchase"
    assert s.workers == ((0, 1, 2), (1, 2, 3), (2, 3), (3, 0), (0, 1))


def test_worker_goes_to_the_lowest_free_building_space_and_raises_the_price() -> None:
    s = four()
    assert s.price(2) == 0
    s1 = s.apply("place 2")
    assert s1.workers[2] == (0,) and s1.price(2) == 1
    assert events_of(s1, "place") == [{"seat": 0, "card": "spice_trader", "space": 2, "price": 1}]
    s2 = s1.apply("place 2")
    assert s2.workers[2] == (0, 1) and s2.price(2) == 2
    assert s2.event_texts() == ["Blue places a worker above the Spice Trader (water space 2, price now 2)."]
    assert s2.event_texts("de") == ["Blau setzt einen Arbeiter über Gewürzhändler (Wasserfeld 2, Preis jetzt 2)."]
    assert s1.workers[2] == (0,)  # the earlier state is unchanged


def test_several_own_workers_on_one_card_are_allowed() -> None:
    s = sl.new_game(players=2, deck=stack_deck(2))
    s = play(s, *places(0, 1, 0, 1, 0))
    assert s.workers[0] == (0, 0, 0) and s.workers[1] == (1, 1)
    s = s.apply("place 0")
    assert s.phase == "purchase" and s.workers[0] == (0, 0, 0, 1)
    assert s.to_move == 0 and s.price(0) == 4


def test_at_most_eight_workers_above_a_card() -> None:
    s = play(four(), *places(*[0] * 8))
    assert s.workers[0] == (0, 1, 2, 3, 0, 1, 2, 3)
    assert "place 0" not in [str(a) for a in s.legal_actions()]
    assert [str(a) for a in s.legal_actions()] == ["place 1", "place 2", "place 3", "place 4"]
    before = s.to_json()
    with pytest.raises(sl.IllegalAction) as info:
        s.apply("place 0")
    assert info.value.rule == "demand_full"
    assert str(info.value) == ("Demand: all 8 building spaces above water space 0 are occupied, "
                               "so no further worker can go there.")
    assert "Gebäudefelder" in s.explain(info.value, "de")
    assert s.to_json() == before


@pytest.mark.parametrize("text", ["place 5", "place 15", "place 99"])
def test_a_water_space_that_does_not_exist_is_refused(text: str) -> None:
    s = four()
    before = s.to_json()
    with pytest.raises(sl.IllegalAction) as info:
        s.apply(text)
    assert info.value.rule == "demand_space"
    assert "the spaces are 0 to 4" in str(info.value)
    assert s.to_json() == before


# ---- purchase -----------------------------------------------------------------------------------------------


def test_purchase_runs_left_to_right_and_the_lowest_worker_decides_first() -> None:
    s = sl.new_game(players=2, deck=stack_deck(2))
    # Red 2, Blue 0, Red 1, Blue 2, Red 0, Blue 1.
    s = play(s, *places(2, 0, 1, 2, 0, 1))
    assert s.workers == ((1, 0), (0, 1), (0, 1))
    assert s.phase == "purchase" and s.to_move == 1 and s.price(0) == 2
    s = s.apply("buy")
    assert s.player(1).cards == ("coffee_roaster",) and s.coins == (5, 3)
    assert s.workers[0] == () and s.offer[0] is None
    assert s.to_move == 0 and s.price(1) == 2  # next card to the right
    s = s.apply("pass")
    assert s.to_move == 1 and s.price(1) == 1
    s = s.apply("pass")
    assert events_of(s, "pass_last") == [{"seat": 1, "card": "tea_taster"}]
    assert events_of(s, "discard") == [{"card": "tea_taster"}]
    assert s.to_move == 0 and s.price(2) == 2


def test_rulebook_purchase_example() -> None:
    """Reconstructs the quick guide's purchase example (page B is not among the seeds).

    Several workers of different seats sit above a card; the lowest (Red) passes, so the price drops
    by one and the next (Blue) buys it at the lower price; the other workers go back. Around it: a card
    nobody wanted, a card everybody declines, and a seat that cannot pay the price when its turn comes.
    """
    s = four()
    assert s.offer == MERCHANTS
    # Red, Blue, Green, Yellow three times: space 0 gets Red/Blue/Green, space 1 Yellow, space 2 nobody,
    # space 3 Red/Green/Yellow, space 4 Blue/Red/Blue/Green/Yellow.
    s = play(s, *places(0, 0, 0, 1, 3, 4, 3, 3, 4, 4, 4, 4))
    assert s.workers == ((0, 1, 2), (3,), (), (0, 2, 3), (1, 0, 1, 2, 3))
    assert s.phase == "purchase" and s.to_move == 0 and s.price(0) == 3

    s = s.apply("pass")  # Red declines at 3
    assert s.workers[0] == (1, 2) and s.price(0) == 2 and s.to_move == 1
    assert s.event_texts() == ["Red passes on the Coffee Roaster; the price drops to 2."]
    assert s.event_texts("de") == ["Rot verzichtet auf Kaffeeröster; der Preis sinkt auf 2."]

    s = s.apply("buy")  # Blue buys at the lower price; Green's worker goes back
    assert s.coins == (5, 3, 5, 5) and s.player(1).cards == ("coffee_roaster",)
    assert s.workers[0] == () and s.offer[0] is None
    assert s.event_texts() == ["Blue pays 2 coins for the Coffee Roaster."]
    assert s.event_texts("de") == ["Blau zahlt 2 Münzen für Kaffeeröster."]
    assert s.to_move == 3

    s = s.apply("buy")  # Yellow alone above the Tea Taster: price 1; the Spice Trader had no worker
    assert s.coins == (5, 3, 5, 4)
    assert events_of(s, "buy") == [{"seat": 3, "card": "tea_taster", "price": 1}]
    assert events_of(s, "discard") == [{"card": "spice_trader"}]
    assert s.event_texts()[1] == "Nobody buys the Spice Trader; it goes to the discard pile."
    assert s.to_move == 0 and s.price(3) == 3

    s = play(s, "pass", "pass")  # Red, Green decline; Yellow is asked at 1
    assert s.to_move == 3 and s.price(3) == 1
    s = s.apply("pass")
    assert event_keys(s)[:3] == ["pass_last", "discard", "cannot_pay"]
    # Blue has 3 coins and the Vulcanizer costs 5: Blue is passed automatically, Red is asked at 4.
    assert events_of(s, "cannot_pay") == [{"seat": 1, "card": "vulcanizer", "price": 5}]
    assert s.event_texts()[2] == "Blue cannot pay 5 for the Vulcanizer and passes."
    assert s.event_texts("de")[2] == "Blau kann 5 für Vulkaniseur nicht bezahlen und verzichtet."
    assert s.to_move == 0 and s.price(4) == 4

    s = s.apply("pass")  # Red declines; Blue's second worker is next at 3, which Blue can pay
    assert s.to_move == 1 and s.price(4) == 3
    s = s.apply("buy")
    assert s.player(1).cards == ("coffee_roaster", "vulcanizer")
    assert s.to_dict()["discard"] == ["spice_trader", "carpet_trader"]
    # Income follows (no ships, no loading): 1 coin, +1 for those who bought nothing.
    assert events_of(s, "income") == [{"seat": 0, "coins": 2}, {"seat": 1, "coins": 1},
                                      {"seat": 2, "coins": 2}, {"seat": 3, "coins": 1}]
    assert s.coins == (7, 1, 7, 5)
    assert s.round == 2 and s.phase == "demand" and s.first == 1 and s.to_move == 1


def test_a_seat_that_cannot_pay_is_passed_with_an_event() -> None:
    s = play(four(), *places(*[0] * 8, 1, 2, 3))
    before = s
    s = s.apply("place 4")
    # Price 8, 7, 6 exceed 5 coins: Red, Blue and Green are passed; Yellow can pay 5 and is asked.
    assert events_of(s, "cannot_pay") == [
        {"seat": 0, "card": "coffee_roaster", "price": 8},
        {"seat": 1, "card": "coffee_roaster", "price": 7},
        {"seat": 2, "card": "coffee_roaster", "price": 6},
    ]
    assert s.event_texts()[-3] == "Red cannot pay 8 for the Coffee Roaster and passes."
    assert s.to_move == 3 and s.price(0) == 5 and s.workers[0] == (3, 0, 1, 2, 3)
    assert [str(a) for a in s.legal_actions()] == ["buy", "pass"]
    s = s.apply("buy")
    assert s.coins == (5, 5, 5, 0) and s.player(3).cards == ("coffee_roaster",)
    assert before.phase == "demand"


def test_card_nobody_wants_is_discarded_and_an_unbought_ships_cubes_go_to_the_stock() -> None:
    deck = stack_deck(3, ["ship_b1", "coffee_roaster", "ship_b2", "tea_taster"])
    bag = stack_bag(["carpet", "carpet", "tea", "rubber", "saffron", "coffee"])
    s = sl.new_game(players=3, deck=deck, bag=bag)
    assert s.cargo[0] == ("tea", "carpet", "carpet") and s.cargo[2] == ("coffee", "saffron", "rubber")
    # Turn order Red, Blue, Green: nobody goes on ship_b1; Red and Blue on the Coffee Roaster;
    # Green, Red, Blue, Green on ship_b2; Green, Red, Blue on the Tea Taster.
    s = play(s, *places(1, 1, 2, 2, 2, 3, 3, 3))
    bag_size = s.bag_size
    s = s.apply("place 2")
    assert s.workers == ((), (0, 1), (2, 0, 1, 2), (2, 0, 1))
    assert events_of(s, "discard_cargo") == [{"card": "ship_b1", "goods": ["tea", "carpet", "carpet"]}]
    assert s.event_texts()[-1] == ("Nobody buys the Ship; it goes to the discard pile and its tea, carpet and carpet "
                                   "to the stock.")
    assert s.to_dict()["stock"] == {"coffee": 0, "tea": 1, "saffron": 0, "rubber": 0, "carpet": 2}
    assert s.cargo[0] == () and s.offer[0] is None
    assert s.to_move == 0  # Red is lowest above the Coffee Roaster
    s = play(s, *["pass"] * 9)  # everyone declines everything
    assert s.to_dict()["discard"] == ["ship_b1", "coffee_roaster", "ship_b2", "tea_taster"]
    assert s.to_dict()["stock"] == {"coffee": 1, "tea": 1, "saffron": 1, "rubber": 1, "carpet": 2}
    assert s.bag_size == bag_size  # never back into the bag
    assert s.coins == (7, 7, 7)
    assert s.round == 2


def test_buying_returns_all_workers_and_pays_into_the_stock_not_to_other_seats() -> None:
    s = play(four(), *places(0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4))
    assert s.price(0) == 4
    s = s.apply("buy")
    assert s.coins == (1, 5, 5, 5)
    # Red's workers went back from space 0 only; at space 1 Red (1 coin left) cannot pay 2 and is passed.
    assert s.workers[0] == () and s.workers[1] == (1,)
    assert events_of(s, "cannot_pay") == [{"seat": 0, "card": "tea_taster", "price": 2}]
    assert s.to_move == 1 and s.price(1) == 1


def test_price_counts_every_worker_above_the_card_including_own() -> None:
    s = sl.new_game(players=2, deck=stack_deck(2))
    s = play(s, *places(0, 1, 0, 2, 0, 2))
    assert s.workers[0] == (0, 0, 0) and s.price(0) == 3
    s = s.apply("pass")
    assert s.price(0) == 2 and s.to_move == 0
    s = s.apply("buy")
    assert s.coins == (3, 5) and s.player(0).cards == ("coffee_roaster",)
