"""Kaispeicher (seed 002, section "Kaispeicher", and the online version's notes): set-up, the top row and
reservations, four workers, break cards and grey workers, the Spy and the Fish Market, income, the new
fire cards (Fire Chief, Insurance, Fire Engine), the length of the game, the refusals of the expansion's
rules, records and simulation.

The loading and scoring cards are in ``test_kaispeicher_cards.py``.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.games.speicherstadt import check_invariants
from tests.support.kai_scenario import (
    CAT,
    GOODS,
    KAI,
    OFFER,
    ROUNDS,
    card,
    cards_in_play,
    drive,
    events_of,
    kai,
    kai_bag,
    kai_deck,
    kai_game,
    legal,
    next_round,
    passive,
    play,
    refused,
    removed_cards,
    rigged,
    seat_dict,
    stock,
    texts,
)

REMOVED = {
    2: ["port", "fireman_d3", "mayor", "truck"],
    3: ["boatsmen_church", "fireman_d3", "mayor", "truck"],
    4: [],
    5: ["boatsmen_church", "fireman_d3", "mayor", "truck"],
}
STRENGTH = {f"fire_{k}": card(f"fire_{k}").strength for k in (1, 2, 3, 4)}


def cubes_on_board(s: sl.GameState) -> int:
    return sum(len(c) for c in s.cargo) + sum(len(c) for c in kai(s)["top_cargo"])


# ---- set-up ----------------------------------------------------------------------------------------------------


def test_the_expansion_has_50_cards_and_9_cubes() -> None:
    new = [c for c in CAT.cards if c.expansion == KAI]
    assert len(new) == 50
    assert Counter(c.season for c in new) == {"A": 12, "B": 12, "C": 12, "D": 14}
    assert Counter(c.season for c in CAT.cards if c.expansion in (None, KAI)) == {"A": 24, "B": 25, "C": 25,
                                                                                    "D": 29, "E": 1}
    kinds = Counter(c.kind for c in new)
    # 6 ships (0/2/2/2), 6 contracts (0/2/2/2), 2 counting offices (0/0/1/1), 5 firemen (2/1/1/1)
    assert kinds["ship"] == 6 and kinds["contract"] == 6 and kinds["counting_office"] == 2 and kinds["fireman"] == 5
    assert kinds["delivery"] == 5 and kinds["merchant"] == 3 and kinds["building"] == 5
    assert sorted(c.capacity for c in new if c.kind == "ship") == [1, 1, 1, 2, 2, 2]
    assert sorted(c.value for c in new if c.kind == "fireman") == [1, 2, 3, 4, 5]
    small = [c for c in new if c.kind == "contract" and len(c.goods) == 1]
    medium = [c for c in new if c.kind == "contract" and len(c.goods) == 2]
    assert len(small) == len(medium) == 3
    assert {c.vp for c in small} == {4} and {c.vp for c in medium} == {8}
    assert {g for c in new if c.kind == "contract" for g in c.goods} == {"hemp", "cloth", "glass"}
    assert {g.id: g.count for g in CAT.goods if g.expansion == KAI} == {"hemp": 3, "cloth": 3, "glass": 3}
    assert len(GOODS) == 8


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_set_up_by_player_count(players: int) -> None:
    s = sl.new_game(players=players, seed=21, expansion=KAI)
    d = s.to_dict()
    assert sorted(d["removed"]) == sorted(REMOVED[players]) == sorted(removed_cards(players))
    assert len(cards_in_play(players)) == 104 - len(REMOVED[players])
    assert s.coins == (5,) * players
    k = OFFER[players]
    # Both rows: as many cards as one more than the number of players.
    assert len(s.offer) == k and None not in s.offer
    assert len(d["kai"]["top"]) == k and None not in d["kai"]["top"]
    # 4 workers each; the grey workers and the break cards are set aside.
    assert d["kai"]["left"] == [4] * players and d["kai"]["reserved"] == []
    assert all((x["grey"], x["breaks"], x["delivered"]) == (0, 0, 0) for x in d["seats"])
    # All 54 cubes in the bag, bar those already on ships.
    bag = Counter(s.view(0)["bag"]["goods"])
    on_ships = Counter(g for cs in [*s.cargo, *d["kai"]["top_cargo"]] for g in cs)
    assert s.bag_size + cubes_on_board(s) == 54
    assert bag + on_ships == Counter({"coffee": 9, "tea": 9, "saffron": 9, "rubber": 9, "carpet": 9,
                                      "hemp": 3, "cloth": 3, "glass": 3})
    assert s.phase == "demand" and s.to_move == 0
    assert not check_invariants(s)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [0, 7])
def test_the_pile_is_stacked_by_season_with_fire_4_at_the_bottom(players: int, seed: int) -> None:
    deck = sl.standard_deck(players, seed, expansion=KAI)
    assert len(deck) == 104 - len(REMOVED[players])
    assert Counter(deck) == Counter(cards_in_play(players))
    seasons = [card(c).season for c in deck]
    assert seasons == sorted(seasons) and deck[-1] == "fire_4"
    s = sl.new_game(players=players, seed=seed, expansion=KAI)
    k = OFFER[players]
    assert list(s.offer) == deck[:k] and kai(s)["top"] == deck[k: 2 * k]  # water spaces first, then the top row
    assert s.pile_size == len(deck) - 2 * k


def test_the_base_game_is_unchanged() -> None:
    s = sl.new_game(players=4, seed=21)
    d = s.to_dict()
    assert "kai" not in d and s.expansion is None
    assert s.bag_size + sum(len(c) for c in s.cargo) == 45
    assert len(sl.standard_deck(4, 21)) == 54
    assert not any(card(c).expansion for c in sl.standard_deck(2, 21))
    assert "breaks" not in d["seats"][0]
    assert "deliveries" not in s.score_breakdown(0)


def test_stacked_decks_and_bags_are_checked_against_the_expansion() -> None:
    with pytest.raises(ValueError, match="deck: not the legal set"):
        sl.new_game(players=4, expansion=KAI, deck=sl.standard_deck(4, 1))
    with pytest.raises(ValueError, match="54 cubes"):
        sl.new_game(players=4, expansion=KAI, bag=kai_bag()[:45])
    with pytest.raises(ValueError, match="deck: not the legal set"):  # the Mayor is not in a 2-player game
        sl.new_game(players=2, expansion=KAI, deck=[*kai_deck(3)[:-1], "mayor", "fire_4"])
    with pytest.raises(ValueError, match="expansion"):
        sl.new_game(players=4, expansion="kaispeicher2")
    assert len(kai_bag()) == 54 and Counter(kai_bag(["glass"] * 3)) == Counter(kai_bag())


# ---- the top row --------------------------------------------------------------------------------------------


def test_supply_fills_the_water_spaces_then_the_top_row_and_loads_ships_in_both() -> None:
    s = kai_game(3, ["ship1_b", "tailor", "ship2_b", "spy"], ["lighthouse", "ship2_c", "ship1_c", "playhouse"],
                 bag=["hemp", "cloth", "glass", "coffee", "tea", "rubber"])
    # Cubes come from the bag in the order the ships are revealed: water spaces left to right, then the top row.
    assert s.cargo == (("hemp",), (), ("cloth", "glass"), ())
    assert kai(s)["top_cargo"] == [[], ["coffee", "tea"], ["rubber"], []]
    assert s.bag_size == 54 - 6
    assert texts(s, "supply_top") == ["Top row: Lighthouse, Ship, Ship and Playhouse."]
    assert texts(s, "supply_top", "de") == ["Obere Reihe: Leuchtturm, Schiff, Schiff und Schauspielhaus."]
    assert texts(s, "ship_top") == ["The ship in the top row's space 1 is loaded with coffee and tea from the bag.",
                                    "The ship in the top row's space 2 is loaded with rubber from the bag."]
    assert texts(s, "ship_top", "de")[1] == "Das Schiff auf Feld 2 der oberen Reihe wird mit Kautschuk aus dem " \
                                            "Beutel beladen."
    assert texts(s, "ship") == ["The ship on water space 0 is loaded with hemp from the bag.",
                                "The ship on water space 2 is loaded with cloth and glass from the bag."]


def test_a_fire_drawn_for_the_top_row_is_resolved_and_replaced() -> None:
    water = ["tailor", "glassblower", "spy"]
    deck = kai_deck(2, [*water, "lighthouse", "fire_1", "playhouse", "fish_market"])
    s = sl.new_game(players=2, expansion=KAI, deck=deck, bag=kai_bag())
    assert s.offer == tuple(water)
    assert kai(s)["top"] == ["lighthouse", "playhouse", "fish_market"]
    assert events_of(s, "fire_tie") == [{"card": "fire_1", "strength": STRENGTH["fire_1"], "total": 0}]
    assert s.to_dict()["discard"] == ["fire_1"]


# ---- reservations ---------------------------------------------------------------------------------------------


def reservation_round() -> sl.GameState:
    """2 players. Red reserves the ship (top space 1), Blue the Spy (0), Red the hemp contract (2).

    Then Blue, Red, Blue, Red, Blue place on the water spaces: 0 [Blue], 1 [Red, Red], 2 [Blue, Blue].
    """
    s = kai_game(2, ["lighthouse", "playhouse", "tailor"], ["spy", "ship2_b", "contract_hemp"], bag=["hemp", "glass"])
    assert legal(s) == ["place 0", "place 1", "place 2", "reserve 0", "reserve 1", "reserve 2"]
    s = s.apply("reserve 1")
    assert kai(s)["top"] == ["spy", None, "contract_hemp"]
    assert kai(s)["top_cargo"] == [[], [], []]
    assert texts(s, "reserve") == ["Red reserves the Ship (1 card reserved)."]
    assert texts(s, "reserve", "de") == ["Rot reserviert Schiff (1 Karte reserviert)."]
    assert legal(s) == ["place 0", "place 1", "place 2", "reserve 0", "reserve 2"]
    refused(s, "reserve 1", "reserve_space")
    s = play(s, "reserve 0", "reserve 2")
    assert texts(s, "reserve") == ["Red reserves the Contract (3 cards reserved)."]
    assert texts(s, "reserve", "de") == ["Rot reserviert Auftrag (3 Karten reserviert)."]
    # The column: each new card above the one reserved last, with the reserving worker on it.
    assert kai(s)["reserved"] == [["ship2_b", 0, ["hemp", "glass"]], ["spy", 1, []], ["contract_hemp", 0, []]]
    assert kai(s)["left"] == [2, 3]
    assert legal(s) == ["place 0", "place 1", "place 2"]
    return play(s, "place 0", "place 1", "place 2", "place 1", "place 2")


def test_reserving_takes_a_top_row_card_into_the_column_with_a_worker() -> None:
    s = reservation_round()
    assert s.phase == "purchase" and s.workers == ((1,), (0, 0), (1, 1))
    assert kai(s)["left"] == [0, 0]


def test_reserved_cards_are_offered_bottom_first_to_their_reserver_at_the_number_left() -> None:
    s = play(reservation_round(), *["pass"] * 5)  # nobody buys on the water spaces
    assert s.coins == (5, 5)
    # The ship (bottom): Red, price 3 = reserved cards in the column.
    assert s.phase == "purchase" and s.to_move == 0 and legal(s) == ["buy", "pass"]
    s = s.apply("buy")
    assert events_of(s, "buy") == [{"seat": 0, "card": "ship2_b", "price": 3}]
    assert s.coins == (2, 5) and s.player(0).unloading == ("hemp", "glass")
    # The Spy: only Blue, who reserved it, decides; 2 cards are left, so the price is 2. Declining is free.
    assert s.to_move == 1
    s = s.apply("pass")
    assert s.coins == (2, 5)
    assert texts(s, "discard_reserved") == ["The reserved Spy is not bought and goes to the discard pile."]
    assert texts(s, "discard_reserved", "de") == ["Die reservierte Karte Spitzel wird nicht gekauft und kommt auf "
                                                  "den Ablagestapel."]
    assert s.to_dict()["discard"][-1] == "spy"
    # The hemp contract (top): Red at price 1.
    assert s.to_move == 0
    s = s.apply("buy")
    assert events_of(s, "buy") == [{"seat": 0, "card": "contract_hemp", "price": 1}]
    assert s.coins == (1, 5) and s.player(0).cards == ("ship2_b", "contract_hemp")
    assert s.phase == "loading" and s.dock_goods == ("hemp", "glass")
    assert not check_invariants(s)


def test_a_declined_reserved_ship_returns_its_cubes_to_the_stock() -> None:
    s = play(reservation_round(), *["pass"] * 5, "pass")
    assert events_of(s, "discard_reserved") == [{"card": "ship2_b"}]
    assert stock(s)["hemp"] == 1 and stock(s)["glass"] == 1
    assert s.coins == (5, 5)


def test_a_reserver_who_cannot_pay_is_passed_by_the_engine() -> None:
    s = rigged(reservation_round(), 0, coins=2)  # the ship costs 3
    s = play(s, *["pass"] * 5)
    assert events_of(s, "cannot_pay")[-1] == {"seat": 0, "card": "ship2_b", "price": 3}
    assert events_of(s, "discard_reserved")[0] == {"card": "ship2_b"}
    assert s.to_move == 1  # the Spy is next, for Blue at 2


def test_unreserved_top_row_cards_leave_when_demand_ends() -> None:
    s = kai_game(2, ["lighthouse", "playhouse", "tailor"], ["spy", "ship2_b", "contract_hemp"], bag=["hemp", "glass"])
    s = play(s, "reserve 0", *["place 0", "place 1", "place 2"] * 2)
    assert s.phase == "demand" and kai(s)["top"] == [None, "ship2_b", "contract_hemp"]
    s = s.apply("place 2")
    assert s.phase == "purchase"
    assert events_of(s, "top_discard") == [{"cards": ["ship2_b", "contract_hemp"]}]
    assert texts(s, "top_discard") == ["Unreserved cards of the top row go to the discard pile: Ship and Contract."]
    assert texts(s, "top_discard", "de") == ["Nicht reservierte Karten der oberen Reihe kommen auf den Ablagestapel: "
                                             "Schiff und Auftrag."]
    assert kai(s)["top"] == [None, None, None]
    assert s.to_dict()["discard"] == ["ship2_b", "contract_hemp"]
    assert stock(s)["hemp"] == 1 and stock(s)["glass"] == 1  # the unreserved ship's cubes go to the stock
    assert not check_invariants(s)


def test_every_seat_places_four_workers() -> None:
    s = kai_game(3)
    placed = 0
    while s.phase == "demand":
        s = s.apply(passive(s))
        placed += 1
    assert placed == 12 and sum(len(c) for c in s.workers) == 12


# ---- income ---------------------------------------------------------------------------------------------------


def test_income_is_two_plus_one_if_nothing_was_bought() -> None:
    s = play(reservation_round(), *["pass"] * 5, "buy", "pass", "pass", "done")
    # Red bought the ship; Blue bought nothing.
    assert events_of(s, "income") == [{"seat": 0, "coins": 2}, {"seat": 1, "coins": 3}]
    assert s.coins == (2 + 2, 5 + 3)
    assert "Red receives 2 coins of income." in s.event_texts()


def test_income_with_the_bank() -> None:
    s = rigged(kai_game(2), 1, cards=["bank"])
    s = next_round(s)
    assert events_of(s, "income") == [{"seat": 0, "coins": 3}, {"seat": 1, "coins": 4}]


# ---- the new ships -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("ship", "cubes"), [("ship1_b", 1), ("ship2_b", 2), ("ship1_c", 1), ("ship2_c", 2),
                                             ("ship1_d", 1), ("ship2_d", 2)])
def test_new_ships_carry_one_or_two_crates(ship: str, cubes: int) -> None:
    s = kai_game(2, [ship], bag=["glass", "cloth", "hemp"])
    assert s.cargo[0] == (("glass",), ("cloth", "glass"))[cubes - 1]  # the cargo is shown sorted
    assert s.bag_size == 54 - cubes - cubes_on_board(s) + len(s.cargo[0])
    s = play(s, "place 0")
    s = drive(s, lambda x: "buy" if x.phase == "purchase" and x.to_move == 0 and x.offer[0] == ship
              else passive(x), until=lambda x: x.phase == "loading")
    assert ship in s.player(0).cards
    assert len(s.dock_goods) == cubes


# ---- demand: the Coffee Break ----------------------------------------------------------------------------------


def test_buying_the_coffee_break_gives_two_break_cards() -> None:
    s = kai_game(2, ["coffee_break"])
    s = drive(s, lambda x: "place 0" if x.phase == "demand" and x.to_move == 0 and not x.workers[0]
              else ("buy" if x.phase == "purchase" and x.offer[0] == "coffee_break" else passive(x)),
              until=lambda x: x.phase == "loading" or x.round > 1)
    assert s.player(0).cards == ("coffee_break",)
    assert s.player(0).breaks == 2 and seat_dict(s, 0)["breaks"] == 2


def break_game() -> sl.GameState:
    """2 players, round 1, Red to place with the Coffee Break and its two break cards."""
    s = rigged(kai_game(2), 0, cards=["coffee_break"], breaks=2)
    assert s.to_move == 0 and "break" in legal(s)
    return s


def test_a_break_card_lets_the_others_place_first_and_the_card_goes_after_two() -> None:
    s = break_game()
    s = s.apply("break")
    assert texts(s, "break") == ["Red plays a break card and places later (1 left)."]
    assert texts(s, "break", "de") == ["Rot spielt eine Pausenkarte und setzt später (1 übrig)."]
    assert s.to_move == 1 and kai(s)["left"] == [4, 4] and s.player(0).breaks == 1
    s = s.apply("place 0")
    assert s.to_move == 0 and "break" in legal(s)
    s = s.apply("break")
    assert s.player(0).breaks == 0
    assert events_of(s, "discarded") == [{"seat": 0, "card": "coffee_break"}]
    assert texts(s, "discarded") == ["Red's Coffee Break is used up and goes to the discard pile."]
    assert texts(s, "discarded", "de") == ["Kaffeepause von Rot ist aufgebraucht und kommt auf den Ablagestapel."]
    assert "coffee_break" not in s.player(0).cards and s.to_dict()["discard"] == ["coffee_break"]
    assert s.to_move == 1 and kai(s)["left"] == [4, 3]
    s = s.apply("place 1")
    assert "break" not in legal(s)
    refused(s, "break", "no_break")


def test_no_break_once_the_others_have_placed_their_own_workers() -> None:
    s = break_game()
    s = play(s, "break", *["place 0"] * 7)  # Blue, Red, Blue, Red, Blue, Red, Blue: Blue is done, Red has 1 left
    assert kai(s)["left"] == [1, 0] and s.to_move == 0
    assert s.player(0).breaks == 1 and "break" not in legal(s)
    refused(s, "break", "break_late")


def test_no_break_for_a_player_placing_grey_workers() -> None:
    s = rigged(kai_game(2), 0, cards=["coffee_break", "warehouse_workers"], breaks=2, grey=2)
    s = play(s, *["place 0"] * 8)  # Red's and Blue's own workers are placed; Red has grey workers left
    assert kai(s)["left"] == [0, 0] and s.phase == "demand" and s.to_move == 0
    assert "break" not in legal(s) and "stop" in legal(s)
    refused(s, "break", "break_late")


def test_no_break_when_the_others_have_only_grey_workers_left() -> None:
    """Online notes: no break because an opponent with the Warehouse Workers may still place grey workers."""
    s = rigged(kai_game(2), 0, cards=["coffee_break"], breaks=2)
    s = rigged(s, 1, cards=["warehouse_workers"], grey=2)
    s = play(s, "break", *["place 0"] * 7)  # Blue has placed its own four, Red has one left
    assert kai(s)["left"] == [1, 0] and s.to_move == 0 and s.player(1).grey_workers == 2
    assert s.player(0).breaks == 1 and "break" not in legal(s)
    refused(s, "break", "break_late")
    s = s.apply("place 1")
    assert s.to_move == 1 and "stop" in legal(s)  # now Blue's grey workers


# ---- demand: the Warehouse Workers (grey workers) ----------------------------------------------------------------


def test_buying_the_warehouse_workers_gives_two_grey_workers() -> None:
    s = kai_game(2, ["warehouse_workers"])
    s = drive(s, lambda x: "place 0" if x.phase == "demand" and x.to_move == 0 and not x.workers[0]
              else ("buy" if x.phase == "purchase" and x.offer[0] == "warehouse_workers" else passive(x)),
              until=lambda x: x.round > 1)
    assert s.player(0).cards == ("warehouse_workers",) and s.player(0).grey_workers == 2


def grey_game() -> sl.GameState:
    """2 players, Red owns the Warehouse Workers with both grey workers."""
    return rigged(kai_game(2, ["lighthouse", "playhouse", "tailor"]), 0, cards=["warehouse_workers"], grey=2)


def test_grey_workers_come_after_the_own_workers_and_buy_for_their_owner() -> None:
    s = grey_game()
    assert "stop" not in legal(s)
    refused(s, "stop", "stop_early")
    s = play(s, "place 1", "place 0", "place 2", "place 0", "place 2", "place 0", "place 2", "place 0")
    # Red's own four are placed; Red may now place a grey worker or stop. Blue is done.
    assert kai(s)["left"] == [0, 0] and s.phase == "demand" and s.to_move == 0
    assert "stop" in legal(s) and "place 1" in legal(s)
    s = s.apply("place 1")
    assert events_of(s, "place_grey") == [{"seat": 0, "card": "playhouse", "space": 1, "price": 2}]
    assert texts(s, "place_grey") == ["Red places a grey worker above the Playhouse (water space 1, price now 2)."]
    assert texts(s, "place_grey", "de") == ["Rot setzt einen grauen Arbeiter über Schauspielhaus (Wasserfeld 1, "
                                            "Preis jetzt 2)."]
    assert s.workers[1] == (0, 0) and s.grey_workers[1] == (False, True)  # the second one is grey
    assert s.player(0).grey_workers == 1 and "warehouse_workers" in s.player(0).cards
    s = s.apply("place 0")  # the second grey worker: the card is used up
    assert events_of(s, "discarded") == [{"seat": 0, "card": "warehouse_workers"}]
    assert texts(s, "discarded", "de") == ["Lagerarbeiter von Rot ist aufgebraucht und kommt auf den Ablagestapel."]
    assert s.player(0).grey_workers == 0 and "warehouse_workers" not in s.player(0).cards
    assert "warehouse_workers" in s.to_dict()["discard"]
    assert s.phase == "purchase" and s.columns == [(1, 1, 1, 1, 8), (0, 8), (0, 0, 0)]  # grey: seat + 8
    assert s.workers == ((1, 1, 1, 1, 0), (0, 0), (0, 0, 0))
    # Blue passes on the Lighthouse at 5, 4, 3 and 2; then Red's grey worker is lowest and buys for Red at 1.
    s = play(s, "pass", "pass", "pass", "pass")
    assert s.to_move == 0 and s.price(0) == 1
    s = s.apply("buy")
    assert events_of(s, "buy") == [{"seat": 0, "card": "lighthouse", "price": 1}]
    assert s.coins[0] == 4 and "lighthouse" in s.player(0).cards


def test_grey_workers_are_optional_and_leave_the_game_after_purchase() -> None:
    s = grey_game()
    s = play(s, *["place 0"] * 8)
    assert s.to_move == 0 and legal(s)[-1] == "stop"
    s = s.apply("place 1")  # one grey worker
    assert s.phase == "demand" and s.to_move == 0
    s = s.apply("stop")
    assert texts(s, "grey_stop") == ["Red places no more grey workers this round."]
    assert texts(s, "grey_stop", "de") == ["Rot setzt in dieser Runde keine grauen Arbeiter mehr."]
    assert s.phase == "purchase" and s.player(0).grey_workers == 1
    s = next_round(s)
    # The placed grey worker is gone; the other one is still Red's, with the card.
    assert s.player(0).grey_workers == 1 and "warehouse_workers" in s.player(0).cards
    assert not any(w >= 8 for col in s.workers for w in col)
    s = play(s, *["place 0"] * 8)
    assert s.to_move == 0 and "stop" in legal(s)  # asked again in the new round


def test_a_grey_worker_may_reserve_and_its_owner_buys_the_card() -> None:
    s = grey_game()
    s = play(s, "place 0", "reserve 0", *["place 1", "place 2"] * 3)
    assert s.to_move == 0 and "reserve 1" in legal(s)
    s = play(s, "reserve 1", "stop")
    # Blue's worker, then Red's grey one
    assert kai(s)["reserved"] == [["coffee_roaster", 1, []], ["tea_taster", 8, []]]
    s = drive(s, passive, until=lambda x: x.phase == "purchase" and x.space >= 3 and x.to_move == 0)
    assert kai(s)["rpos"] == 1 and s.coins[0] >= 1
    s = s.apply("buy")
    assert events_of(s, "buy")[0] == {"seat": 0, "card": "tea_taster", "price": 1}
    assert "tea_taster" in s.player(0).cards


def test_a_seat_without_grey_workers_is_not_asked_after_its_own_workers() -> None:
    s = play(grey_game(), *["place 0"] * 8)
    assert kai(s)["left"] == [0, 0] and s.to_move == 0
    s = s.apply("place 1")
    assert s.phase == "demand" and s.to_move == 0  # Blue has no grey workers: Red again
    s = s.apply("place 2")
    assert s.phase == "purchase"  # both grey workers placed: nothing left to ask


# ---- the Spy -------------------------------------------------------------------------------------------------


def spy_game() -> sl.GameState:
    """2 players: Blue has the lowest worker on the Lighthouse, Red owns the Spy. Demand done."""
    s = rigged(kai_game(2, ["lighthouse", "playhouse", "tailor"], first_player=1), 0, cards=["spy"])
    s = play(s, "place 0", "place 0", "place 1", "place 1", "reserve 0", "place 2", "place 2", "place 2")
    assert s.phase == "spy" and s.to_move == 0
    return s


def test_the_spy_swaps_two_workers_before_purchase_and_is_discarded() -> None:
    s = spy_game()
    assert s.workers == ((1, 0), (1, 0), (0, 1, 0))
    opts = legal(s)
    assert opts[-1] == "pass" and "spy 0 1 0 0" in opts and "spy 2 0 0 0" in opts
    assert all(o.split()[0] in ("spy", "pass") for o in opts)
    assert len(opts) == 4 * 3 + 1  # 4 own workers on building spaces x 3 others, and pass
    s = s.apply("spy 0 1 0 0")
    assert events_of(s, "spy") == [{"seat": 0, "seat_other": 1, "space": 0, "space_other": 0}]
    assert texts(s, "spy") == ["Red's spy swaps a worker above water space 0 with Blue's above water space 0."]
    assert texts(s, "spy", "de") == ["Der Spitzel von Rot tauscht einen Arbeiter über Wasserfeld 0 mit dem von Blau "
                                     "über Wasserfeld 0."]
    assert events_of(s, "discarded") == [{"seat": 0, "card": "spy"}]
    assert "spy" not in s.player(0).cards
    # Purchase starts with the swapped workers: Red is now lowest on the Lighthouse.
    assert s.phase == "purchase" and s.workers[0] == (0, 1) and s.to_move == 0
    s = next_round(s)
    s = drive(s, passive, until=lambda x: x.phase != "demand")
    assert s.phase == "purchase"  # no Spy any more: no spy step


def test_spy_swap_across_spaces() -> None:
    s = spy_game().apply("spy 2 0 1 0")
    assert s.workers == ((1, 0), (0, 0), (1, 1, 0))


def test_the_spy_can_be_kept_for_a_later_round() -> None:
    s = spy_game().apply("pass")
    assert texts(s, "spy_pass") == ["Red keeps the Spy for later."]
    assert texts(s, "spy_pass", "de") == ["Rot behält den Spitzel für später."]
    assert s.phase == "purchase" and "spy" in s.player(0).cards and s.workers[0] == (1, 0)
    s = next_round(s)
    s = drive(s, passive, until=lambda x: x.phase != "demand")
    assert s.phase == "spy" and s.to_move == 0


def test_the_spy_swaps_only_workers_on_building_spaces() -> None:
    """Engine's reading (rules notes K6): reserving workers cannot be swapped, so an owner whose workers all
    stand on reservations is not asked."""
    s = rigged(kai_game(3), 0, cards=["spy"])
    s = play(s, "reserve 0", "place 0", "place 0", "reserve 1", "place 1", "place 1", "reserve 2", "place 2",
             "place 2", "reserve 3", "place 3", "place 3")
    assert s.phase == "purchase" and "spy" in s.player(0).cards
    assert all(0 not in col for col in s.workers)


def test_spy_refusals() -> None:
    s = spy_game()
    refused(s, "spy 0 0 0 1", "spy_swap")  # the first worker must be one's own
    refused(s, "spy 0 1 2 0", "spy_swap")  # the second must be another player's
    refused(s, "spy 0 1 0 5", "spy_swap")  # no such level
    refused(s, "spy 9 0 0 0", "spy_swap")  # no such space
    refused(s, "buy", "phase")


# ---- the Fish Market ----------------------------------------------------------------------------------------


def test_the_fish_market_takes_one_card_for_free_once() -> None:
    s = rigged(kai_game(2, ["lighthouse", "playhouse", "tailor"]), 0, cards=["fish_market"])
    s = play(s, "place 0", "place 0", "place 0", "place 0", "place 1", "place 1", "place 2", "place 2")
    assert s.phase == "purchase" and s.to_move == 0 and s.price(0) == 4
    assert legal(s) == ["buy", "buy free", "pass"]
    s = s.apply("buy free")
    assert events_of(s, "buy") == [{"seat": 0, "card": "lighthouse", "price": 0}]
    assert events_of(s, "discarded") == [{"seat": 0, "card": "fish_market"}]
    assert s.coins == (5, 5) and s.player(0).cards == ("lighthouse",)
    s = drive(s, passive, until=lambda x: x.phase == "purchase" and x.to_move == 0)
    assert legal(s) == ["buy", "pass"]
    refused(s, "buy free", "no_fish_market")


def test_the_fish_market_owner_is_asked_even_without_coins() -> None:
    s = rigged(kai_game(2, ["lighthouse"]), 0, cards=["fish_market"], coins=0)
    s = play(s, "place 0", "place 0", *["place 1", "place 2"] * 3)
    assert s.phase == "purchase" and s.to_move == 0 and s.price(0) == 2
    assert legal(s) == ["buy free", "pass"]
    refused(s, "buy", "purchase_price")
    s = s.apply("buy free")
    assert s.player(0).cards == ("lighthouse",) and s.coins[0] == 0


def test_the_fish_market_on_a_reserved_card() -> None:
    s = rigged(kai_game(2, top=["town_hall"]), 1, cards=["fish_market"])
    s = play(s, "place 0", "reserve 0", *["place 0", "place 1"] * 3)
    s = drive(s, passive, until=lambda x: x.phase == "purchase" and x.to_move == 1 and x.space >= 3)
    assert legal(s) == ["buy", "buy free", "pass"]
    s = s.apply("buy free")
    assert events_of(s, "buy") == [{"seat": 1, "card": "town_hall", "price": 0}]
    assert events_of(s, "income")[1] == {"seat": 1, "coins": 2}
    assert s.coins[1] == 5 + 2 and s.player(1).cards == ("town_hall",)


# ---- fires: the new firemen, Fire Engine, Fire Chief, Insurance ---------------------------------------------------


def fire_game(players: int = 2, *, fire: str = "fire_1", **holdings: dict) -> sl.GameState:
    """Round 1 demand with ``fire`` coming up in round 2's supply; ``holdings[seat]`` rigs seat ``seat``."""
    s = kai_game(players, later=[fire])
    for seat, kw in holdings.items():
        s = rigged(s, int(seat[1:]), **kw)
    return s


def test_new_firemen_values() -> None:
    assert {c: card(c).value for c in ("fireman_k1", "fireman_k2", "fireman_k3", "fireman_k4", "fireman_k5")} == {
        "fireman_k1": 1, "fireman_k2": 2, "fireman_k3": 3, "fireman_k4": 4, "fireman_k5": 5}
    assert [card(c).season for c in ("fireman_k1", "fireman_k2", "fireman_k3", "fireman_k4", "fireman_k5")] == [
        "A", "A", "B", "C", "D"]


def test_a_fire_scores_the_new_firemen() -> None:
    s = fire_game(3, s0={"cards": ["fireman_k3"]}, s1={"cards": ["fireman_k1", "fireman_k2"]})
    s = next_round(s)
    n = STRENGTH["fire_1"]
    assert events_of(s, "fire") == [{"card": "fire_1", "strength": n, "seats_plus": [0, 1], "seats_minus": [2],
                                     "sums": [3, 3, 0]}]
    assert s.phase == "demand" and [s.player(i).track for i in range(3)] == [n, n, -n]


def test_the_fire_engine_doubles_the_best_fireman() -> None:
    s = fire_game(2, s0={"cards": ["fireman_k5", "fireman_a1", "fire_engine"]},
                  s1={"cards": ["fireman_k4", "fireman_k3", "fireman_k2", "fireman_b3"]})
    s = next_round(s)
    # Red: 5 + 1 + 5 (the best doubled) = 11; Blue: 4 + 3 + 2 + 3 = 12.
    assert events_of(s, "fire")[0]["sums"] == [11, 12]
    assert events_of(s, "fire")[0]["seats_plus"] == [1]
    assert "fire_engine" in s.player(0).cards  # kept: it works at every fire
    s2 = fire_game(2, s0={"cards": ["fireman_k5", "fireman_a2", "fire_engine"]},
                   s1={"cards": ["fireman_k4", "fireman_k3", "fireman_k2", "fireman_b3"]})
    s2 = next_round(s2)
    # Red: 5 + 2 + 5 = 12, a tie: nobody scores
    assert events_of(s2, "fire_tie") == [{"card": "fire_1", "strength": STRENGTH["fire_1"], "total": 12}]


def test_the_seats_firemen_figure_includes_the_fire_engine() -> None:
    """The online notes: 'Die Gesamtsumme der Feuerwehrmänner in der Spielerinfo beinhaltet den verdoppelten Wert.'"""
    from speicherstadt_lab.games.speicherstadt import kaispeicher

    s = rigged(kai_game(2), 0, cards=["fireman_k5", "fireman_a1", "fire_engine"])
    assert s.player(0).firemen == 11 == kaispeicher.firemen_total(s, s.seats[0])
    assert s.seats[0].firemen == 6  # the cards alone


def test_the_fire_engine_without_firemen_adds_nothing() -> None:
    s = fire_game(2, s0={"cards": ["fire_engine"]}, s1={"cards": ["fireman_k1"]})
    s = next_round(s)
    assert events_of(s, "fire")[0]["sums"] == [0, 1]


def test_the_fire_chief_doubles_the_points_of_a_fire_it_gains_at_once() -> None:
    s = fire_game(2, s0={"cards": ["fireman_k3", "fire_chief"]})
    s = drive(s, passive, until=lambda x: x.phase == "fire")
    n = STRENGTH["fire_1"]
    assert s.round == 2 and s.to_move == 0 and legal(s) == ["double", "pass"]
    assert [s.player(i).track for i in range(2)] == [n, -n]  # the fire is scored first
    s = s.apply("double")
    assert events_of(s, "fire_chief") == [{"seat": 0, "points": n}]
    assert texts(s, "fire_chief") == [f"Red's Fire Chief doubles the fire's points: +{n} more."]
    assert texts(s, "fire_chief", "de") == [f"Der Einsatzleiter von Rot verdoppelt die Brandpunkte: +{n} zusätzlich."]
    assert events_of(s, "discarded") == [{"seat": 0, "card": "fire_chief"}]
    assert s.player(0).track == 2 * n and s.score_breakdown(0)["fires"] == 2 * n
    assert "fire_chief" not in s.player(0).cards
    # The supply goes on: both rows are full again and demand begins.
    assert s.phase == "demand" and None not in s.offer and None not in kai(s)["top"]


def test_the_fire_chief_can_wait_for_a_later_fire() -> None:
    s = fire_game(2, s0={"cards": ["fireman_k3", "fire_chief"]})
    s = drive(s, passive, until=lambda x: x.phase == "fire")
    s = s.apply("pass")
    assert texts(s, "fire_pass") == ["Red does not use the Fire Chief this time."]
    assert texts(s, "fire_pass", "de") == ["Rot nutzt Einsatzleiter diesmal nicht."]
    assert "fire_chief" in s.player(0).cards and s.player(0).track == STRENGTH["fire_1"]
    assert s.phase == "demand"


def test_the_fire_chief_is_not_asked_at_a_fire_its_owner_does_not_gain_at() -> None:
    s = fire_game(2, s0={"cards": ["fire_chief"]}, s1={"cards": ["fireman_k1"]})
    s = next_round(s)
    assert s.phase == "demand" and s.player(0).track == -STRENGTH["fire_1"]
    assert "fire_chief" in s.player(0).cards


def test_insurance_pays_two_coins_to_cancel_the_loss() -> None:
    s = fire_game(2, s0={"cards": ["insurance"]}, s1={"cards": ["fireman_k1"]})
    s = drive(s, passive, until=lambda x: x.phase == "fire")
    n = STRENGTH["fire_1"]
    assert s.to_move == 0 and legal(s) == ["insure", "pass"] and s.player(0).track == -n
    coins = s.coins[0]
    s = s.apply("insure")
    assert events_of(s, "insured") == [{"seat": 0, "coins": 2, "points": n}]
    assert texts(s, "insured") == [f"Red pays 2 coins to the Insurance and loses no points ({n} back)."]
    assert texts(s, "insured", "de") == [f"Rot zahlt 2 Münzen an die Versicherung und verliert keine Punkte "
                                         f"({n} zurück)."]
    assert s.player(0).track == 0 and s.coins[0] == coins - 2
    assert "insurance" in s.player(0).cards  # used every time, never discarded
    assert s.phase == "demand"


def test_insurance_declined() -> None:
    s = fire_game(2, s0={"cards": ["insurance"]}, s1={"cards": ["fireman_k1"]})
    s = drive(s, passive, until=lambda x: x.phase == "fire").apply("pass")
    assert texts(s, "fire_pass") == ["Red does not use the Insurance this time."]
    assert texts(s, "fire_pass", "de") == ["Rot nutzt Versicherung diesmal nicht."]
    assert s.player(0).track == -STRENGTH["fire_1"] and "insurance" in s.player(0).cards


def test_insurance_is_asked_at_every_fire_while_its_owner_has_two_coins() -> None:
    s = kai_game(2, later=["fire_1", "fire_2"])
    s = rigged(rigged(s, 0, cards=["insurance"], coins=0), 1, cards=["fireman_k1"])
    s = drive(s, passive, until=lambda x: x.phase == "fire")
    assert s.coins[0] == 3 and s.to_move == 0  # income 3 (nothing bought)
    s = s.apply("insure")
    # The 2nd fire comes up in the same supply: Red loses again but has only 1 coin, so is not asked.
    assert s.phase == "demand" and s.coins[0] == 1
    assert [e["card"] for e in events_of(s, "fire")] == ["fire_2"]
    assert s.player(0).track == -STRENGTH["fire_2"]


def test_fire_chief_is_asked_before_insurance() -> None:
    s = fire_game(2, s0={"cards": ["insurance"]}, s1={"cards": ["fireman_k1", "fire_chief"]})
    s = drive(s, passive, until=lambda x: x.phase == "fire")
    assert s.to_move == 1 and legal(s) == ["double", "pass"]
    refused(s, "insure", "fire_decision")
    s = s.apply("double")
    assert s.phase == "fire" and s.to_move == 0 and legal(s) == ["insure", "pass"]
    refused(s, "double", "fire_decision")
    s = s.apply("insure")
    n = STRENGTH["fire_1"]
    assert [s.player(i).track for i in range(2)] == [0, 2 * n]
    assert s.phase == "demand"


def test_fire_chief_is_asked_before_insurance_even_when_insurance_sits_first() -> None:
    s = fire_game(3, s1={"cards": ["insurance"]}, s2={"cards": ["fireman_k1", "fire_chief"]}, s0={"cards": [
        "fireman_a1"]})
    s = drive(s, passive, until=lambda x: x.phase == "fire")
    # Round 2: Blue holds the metal coin. Red and Green gain, Blue loses; Green's Fire Chief comes first.
    assert s.first == 1 and s.to_move == 2 and legal(s) == ["double", "pass"]
    s = s.apply("pass")
    assert s.to_move == 1 and legal(s) == ["insure", "pass"]


def end_game(*, fires: tuple[str, ...] = ("fire_4",), **holdings: dict) -> sl.GameState:
    """2 players in the last round: only ``fires`` are left on the pile (rigged ``holdings`` per seat)."""
    s = kai_game(2)
    for seat, kw in holdings.items():
        s = rigged(s, int(seat[1:]), **kw)
    d = json.loads(s.to_json())
    d["discard"].extend(c for c in d["pile"] if c not in fires)
    d["pile"] = [c for c in d["pile"] if c in fires]
    d["last_round"] = True
    return sl.load_state(json.dumps(d))


def test_the_fire_chief_is_used_automatically_at_the_fourth_fire() -> None:
    s = end_game(s0={"cards": ["fireman_k3", "fire_chief"]})
    s = drive(s, passive)
    n = STRENGTH["fire_4"]
    assert s.is_over
    assert events_of(s, "fire_chief") == [{"seat": 0, "points": n}]
    assert s.score_breakdown(0)["fires"] == 2 * n and s.score_breakdown(1)["fires"] == -n


def test_at_the_end_the_third_fire_asks_and_the_fourth_is_automatic() -> None:
    s = end_game(fires=("fire_3", "fire_4"), s0={"cards": ["fireman_k3", "fire_chief"]})
    s = drive(s, passive, until=lambda x: x.phase == "fire")
    assert s.to_move == 0 and legal(s) == ["double", "pass"]
    assert events_of(s, "fire")[0]["card"] == "fire_3"
    s = s.apply("pass")  # keep it for the 4th fire, where it is played by itself
    assert s.is_over
    n3, n4 = STRENGTH["fire_3"], STRENGTH["fire_4"]
    assert events_of(s, "fire_chief") == [{"seat": 0, "points": n4}]
    assert s.score_breakdown(0)["fires"] == n3 + 2 * n4


def test_insurance_is_asked_at_the_fires_at_the_end() -> None:
    s = end_game(s0={"cards": ["insurance"]}, s1={"cards": ["fireman_k1"]})
    s = drive(s, passive, until=lambda x: x.phase == "fire" or x.is_over)
    assert s.phase == "fire" and s.to_move == 0 and legal(s) == ["insure", "pass"]
    s = s.apply("insure")
    assert s.is_over and s.score_breakdown(0)["fires"] == 0
    assert events_of(s, "game_over")


# ---- the length of the game -------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_game_lasts_16_12_10_8_rounds(players: int) -> None:
    s = sl.new_game(players=players, seed=players, expansion=KAI)
    seen_last = []
    while not s.is_over:
        s = s.apply(passive(s))
        if any(e.key == "last_round" for e in s.events):
            seen_last.append(s.round)
    assert s.round == ROUNDS[players] and seen_last == [ROUNDS[players]]
    assert s.pile_size == 0
    fires = [c for c in s.to_dict()["discard"] if card(c).kind == "fire"]
    assert sorted(fires) == ["fire_1", "fire_2", "fire_3", "fire_4"] and fires[-1] == "fire_4"
    assert not check_invariants(s)


@pytest.mark.parametrize("players", [2, 5])
def test_a_stacked_game_with_late_fires_also_lasts_the_full_length(players: int) -> None:
    s = kai_game(players)
    s = drive(s, passive)
    assert s.round == ROUNDS[players]


# ---- refusals ----------------------------------------------------------------------------------------------------


def test_expansion_verbs_are_refused_in_the_base_game() -> None:
    s = sl.new_game(players=2, seed=1)
    for text in ("reserve 0", "break", "stop", "spy 0 0 0 0", "double", "insure", "deliver coffee",
                 "auction coffee", "smuggle 1 0 coffee", "truck coffee 0 1"):
        err = refused(s, text, "not_available")
        assert text.split()[0] in str(err)
    refused(s, "buy free", "phase")
    s = drive(s, passive, until=lambda x: x.phase == "purchase")
    refused(s, "buy free", "no_fish_market")


def test_expansion_verbs_are_refused_in_the_wrong_phase() -> None:
    s = kai_game(2)
    refused(s, "double", "phase")
    refused(s, "spy 0 0 0 0", "phase")
    refused(s, "deliver coffee", "phase")
    refused(s, "reserve 5", "reserve_space")
    refused(s, "place 3", "demand_space")


def test_expansion_notation_parses_and_prints_back() -> None:
    s = kai_game(2)
    for text in ("reserve 2", "break", "stop", "spy 1 0 2 3", "pass", "double", "insure", "buy", "buy free",
                 "deliver coffee", "auction glass", "smuggle 1 0 hemp", "truck cloth 0 2", "convert tea hemp to glass",
                 "convert coffee tea saffron to glass"):
        assert str(s.parse_action(text)) == text
    assert str(s.parse_action("  CONVERT  hemp tea TO glass ")) == "convert tea hemp to glass"
    for bad in ("reserve", "reserve x", "spy 1 2 3", "buy cheap", "convert tea to glass", "smuggle x 0 tea",
                "deliver gold", "truck tea 0"):
        refused(s, bad, "notation")


def test_every_kaispeicher_rule_has_a_refusal_case() -> None:
    """Each ``[rule.*]`` of messages/kaispeicher.toml is exercised by a test in these files (by name)."""
    import tomllib
    from importlib import resources
    from pathlib import Path

    toml = resources.files("speicherstadt_lab") / "data" / "messages" / "kaispeicher.toml"
    rules = set(tomllib.loads(toml.read_text(encoding="utf-8"))["rule"])
    assert rules == {"reserve_space", "no_break", "break_late", "stop_early", "spy_swap", "fire_decision",
                     "no_fish_market", "no_delivery", "no_card", "pending", "no_use", "smuggle_target",
                     "truck_move", "convert_count"}
    here = Path(__file__).parent
    source = (here / "test_kaispeicher.py").read_text() + (here / "test_kaispeicher_cards.py").read_text()
    for rule in rules:
        assert f'"{rule}")' in source, f"no refused(..., {rule!r}) in the Kaispeicher tests"


# ---- state, records, simulation ------------------------------------------------------------------------------


def test_state_round_trip_keeps_the_expansion() -> None:
    from speicherstadt_lab.bots import RandomBot

    bot = RandomBot(seed=1)
    s = drive(sl.new_game(players=3, seed=5, expansion=KAI), lambda x: str(bot.choose(x.observe(x.to_move))),
              until=lambda x: x.round == 3)
    back = sl.load_state(s.to_json())
    assert back == s and back.expansion == KAI and back.to_json() == s.to_json()
    assert legal(back) == legal(s)


def test_regression_game_record_of_an_expansion_game_round_trips() -> None:
    """Regression: ``SpeicherstadtRecords.setup_of`` rebuilds the deck as discard + water spaces +
    pile and the bag as water-space cargo + bag; with Kaispeicher round 1 also drew the top row (after the water
    spaces) and its ships' cubes, so ``GameRecord.new(..., expansion="kaispeicher")`` fails with "deck: not the
    legal set of cards". Expected: deck = discard + offer + top row + pile, bag = cargo + top-row cargo + bag."""
    from speicherstadt_lab.records import GameRecord

    rec = GameRecord.new(players=3, seed=4, expansion=KAI)
    assert rec.setup["expansion"] == KAI and len(rec.setup["bag"]) == 54
    assert sl.new_game(players=3, **{k: v for k, v in rec.setup.items() if k != "players"}) == rec.initial
    node = rec.root
    for _ in range(60):
        node = node.play(passive(node.state))
    back = GameRecord.from_json(rec.to_json())
    assert back == rec and back.end().state == node.state


def test_regression_game_record_from_a_kaispeicher_bot_game() -> None:
    """Regression (as above): ``record_game`` on an expansion game fails the same way."""
    from speicherstadt_lab.bots import RandomBot
    from speicherstadt_lab.records import GameRecord, record_game

    rec = record_game(sl.new_game(players=2, seed=9, expansion=KAI), [RandomBot(seed=1), RandomBot(seed=2)])
    assert rec.end().state.is_over
    back = GameRecord.from_json(rec.to_json())
    assert back == rec and back.end().state.scores() == rec.end().state.scores()


def test_simulate_plays_the_expansion() -> None:
    from speicherstadt_lab.simulation import simulate

    df = simulate(4, 3, ["random"] * 3, seed=2, executor="serial", progress=False, expansion=KAI)
    assert len(df) == 12 and set(df["rounds"]) == {ROUNDS[3]}
    assert "pts_deliveries" in df.columns and "pts_mayor" in df.columns
    again = simulate(4, 3, ["random"] * 3, seed=2, executor="serial", progress=False, expansion=KAI)
    assert df.equals(again)
    base = simulate(2, 3, ["random"] * 3, seed=2, executor="serial", progress=False)
    assert "pts_deliveries" not in base.columns
