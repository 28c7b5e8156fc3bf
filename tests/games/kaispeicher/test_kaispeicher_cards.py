"""Kaispeicher's cards in loading and at the end (seed 002, "Die neuen Handelskarten", and the online notes):
delivery buildings, the 3-coin traders, contracts for the new goods, point buildings, Press, Mayor, Harbour
Tour, Deichtorhallen, Accountant, Harbour Master, Savings Bank, Thief, Auction Hall, Smuggler and Truck.
"""

from __future__ import annotations

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.games.speicherstadt import check_invariants
from tests.support.kai_scenario import (
    CAT,
    KAI,
    card,
    drive,
    events_of,
    kai,
    kai_game,
    legal,
    passive,
    play,
    red_loading,
    refused,
    rigged,
    stock,
    texts,
)

# ---- delivery buildings ----------------------------------------------------------------------------------------

DELIVERY = [("coffee_roastery", "coffee", "Kaffeerösterei", "Kaffee"), ("tea_house", "tea", "Teestube", "Tee"),
            ("spice_store", "saffron", "Gewürzspeicher", "Safran"), ("rubber_factory", "rubber", "Gummifabrik",
                                                                      "Kautschuk"),
            ("carpet_store", "carpet", "Teppichlager", "Teppich")]


@pytest.mark.parametrize(("building", "good", "de", "good_de"), DELIVERY)
def test_a_delivery_building_gives_two_points_per_cube_on_the_track(building: str, good: str, de: str,
                                                                     good_de: str) -> None:
    s = red_loading(dock=[good, good, "glass"], cards=[building])
    assert f"deliver {good}" in legal(s) and "deliver glass" not in legal(s)
    s = s.apply(f"deliver {good}")
    assert events_of(s, "deliver") == [{"seat": 0, "good": good, "card": building, "points": 2}]
    name = CAT.card(building).name("en")
    assert texts(s, "deliver") == [f"Red delivers {good} to the {name}: +2 points."]
    assert texts(s, "deliver", "de") == [f"Rot liefert {good_de} an {de}: +2 Punkte."]
    assert s.player(0).track == 2 and s.score_breakdown(0)["deliveries"] == 2
    assert s.score_breakdown(0)["fires"] == 0  # kept apart from fire points
    assert stock(s)[good] == 1 and s.dock_goods == (good, "glass")
    s = s.apply(f"deliver {good}")
    assert s.player(0).track == 4 and s.score(0) == 4 and stock(s)[good] == 2
    refused(s, "deliver glass", "no_delivery")
    refused(s, f"deliver {good}", "dock")
    assert not check_invariants(s)


def test_delivered_points_stay_when_the_building_is_kept_and_do_not_count_at_fires() -> None:
    s = kai_game(2, later=["fire_1"])
    s = rigged(s, 0, cards=["coffee_roastery"], delivered=6)
    s = rigged(s, 1, cards=["fireman_k1"])
    assert s.score_breakdown(0)["deliveries"] == 6 and s.player(0).track == 6
    s = drive(s, passive, until=lambda x: x.round == 2)
    assert events_of(s, "fire")[0]["sums"] == [0, 1]
    assert s.player(0).track == 6 - card("fire_1").strength and s.score_breakdown(0)["deliveries"] == 6


# ---- the 3-coin traders -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("trader", "good", "de", "good_de"), [("tailor", "cloth", "Schneiderin", "Tuch"),
                                                               ("glassblower", "glass", "Glasbläser", "Glas"),
                                                               ("ropemaker", "hemp", "Seilmacher", "Hanf")])
def test_the_new_traders_pay_three_coins_per_cube(trader: str, good: str, de: str, good_de: str) -> None:
    s = red_loading(dock=[good, good, "coffee"], cards=[trader])
    assert s.coins[0] == 4
    assert f"sell {good}" in legal(s) and "sell coffee" not in legal(s)
    s = s.apply(f"sell {good}")
    assert events_of(s, "sell") == [{"seat": 0, "good": good, "card": trader, "coins": 3}]
    assert texts(s, "sell", "de") == [f"Rot verkauft {good_de} an {de} für 3 Münzen."]
    assert s.coins[0] == 7 and stock(s)[good] == 1
    s = s.apply(f"sell {good}")
    assert s.coins[0] == 10
    assert s.score_breakdown(0)["merchants"] == 0  # no victory point, unlike the base game's merchants
    refused(s, "sell coffee", "merchant")


# ---- contracts for the new goods ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("contract", "goods", "vp"), [("contract_hemp", ["hemp"], 4), ("contract_cloth", ["cloth"], 4),
                                                      ("contract_glass", ["glass"], 4),
                                                      ("contract_hemp2", ["hemp", "hemp"], 8),
                                                      ("contract_cloth2", ["cloth", "cloth"], 8),
                                                      ("contract_glass2", ["glass", "glass"], 8)])
def test_contracts_for_the_new_goods(contract: str, goods: list[str], vp: int) -> None:
    assert list(card(contract).goods) == goods and card(contract).vp == vp
    s = red_loading(dock=[*goods, "coffee"], contracts=[(contract, [])])
    good = goods[0]
    assert f"contract {good} 0" in legal(s) and "contract coffee 0" not in legal(s)
    for _ in goods[:-1]:
        s = s.apply(f"contract {good} 0")
        assert s.score_breakdown(0)["contracts"] == 0  # points only when the contract is complete
    s = s.apply(f"contract {good} 0")
    assert events_of(s, "contract_done") == [{"seat": 0, "k": 0, "vp": vp}]
    assert s.player(0).contracts == ((contract, tuple(goods)),)
    assert s.score_breakdown(0)["contracts"] == vp
    refused(s, "contract coffee 0", "contract_good")


# ---- point buildings and end-of-game cards -----------------------------------------------------------------------

PURE = {"lighthouse": 1, "playhouse": 2, "davidwache": 3, "music_hall": 4, "town_hall": 5, "boatsmen_church": 3,
        "st_michaelis": 4}
TRADERS = ["coffee_roaster", "tea_taster", "spice_trader", "carpet_trader", "vulcanizer", "tailor", "glassblower",
           "ropemaker"]


def scoring(players: int = 4, **rig: object) -> sl.GameState:
    """Round 1 with Red's holdings rigged; the rows show cards no scoring test needs."""
    k = players + 1
    water = ["spice_store", "rubber_factory", "carpet_store", "spy", "coffee_break", "fire_chief"][:k]
    top = ["fish_market", "harbour_master", "insurance", "warehouse_workers", "savings_bank", "thief"][:k]
    return rigged(kai_game(players, water, top), 0, **rig)


def test_the_catalogue_has_seven_pure_point_buildings_and_eight_traders() -> None:
    cards = [c for c in CAT.cards if c.expansion in (None, KAI)]
    assert {c.id: c.vp for c in cards if c.kind == "building"} == PURE
    assert sorted(c.id for c in cards if c.kind == "merchant") == sorted(TRADERS)


@pytest.mark.parametrize("building", ["lighthouse", "playhouse", "davidwache", "music_hall", "town_hall"])
def test_point_buildings(building: str) -> None:
    s = scoring(cards=[building])
    assert s.score_breakdown(0)["buildings"] == PURE[building] == s.score(0)


def test_the_point_buildings_of_both_games_add_up() -> None:
    s = scoring(cards=list(PURE))
    assert s.score_breakdown(0)["buildings"] == 22


def test_the_press_gives_a_point_per_fireman() -> None:
    s = scoring(cards=["press", "fireman_k1", "fireman_a1", "fireman_k5"])
    assert s.score_breakdown(0)["press"] == 3
    s = scoring(cards=["press"])
    assert s.score_breakdown(0)["press"] == 0
    s = scoring(cards=["press", "fireman_k5", "fire_engine"])  # the Fire Engine doubles a value, not a card
    assert s.score_breakdown(0)["press"] == 1


def test_the_mayor_doubles_the_best_pure_point_building() -> None:
    s = scoring(cards=["mayor", "lighthouse", "town_hall", "playhouse"])
    assert s.score_breakdown(0)["buildings"] == 8 and s.score_breakdown(0)["mayor"] == 5
    s = scoring(cards=["mayor", "boatsmen_church", "st_michaelis"])
    assert s.score_breakdown(0)["mayor"] == 4
    s = scoring(cards=["mayor"])
    assert s.score_breakdown(0)["mayor"] == 0


def test_the_mayor_ignores_cards_that_are_not_pure_point_buildings() -> None:
    s = scoring(cards=["mayor", "lighthouse", "chamber_of_commerce", "counting_office_a", "coffee_roaster",
                       "port", "ship_b1", "harbour_tour", "accountant"], contracts=[("contract_a1", ["coffee", "tea"])],
                coins=12)
    b = s.score_breakdown(0)
    assert b["chamber_of_commerce"] == 12 and b["contracts"] == 5
    assert b["mayor"] == 1  # only the Lighthouse counts


def test_the_mayor_is_removed_with_two_three_and_five_players() -> None:
    for players in (2, 3, 5):
        with pytest.raises(ValueError, match="neither on the pile"):
            scoring(players, cards=["mayor"])


def test_the_harbour_tour_gives_a_point_per_pure_point_building() -> None:
    s = scoring(cards=["harbour_tour", "lighthouse", "st_michaelis", "davidwache", "coffee_roaster", "bank",
                       "counting_office_a"])
    assert s.score_breakdown(0)["harbour_tour"] == 3
    assert scoring(cards=["harbour_tour"]).score_breakdown(0)["harbour_tour"] == 0


def test_deichtorhallen_gives_a_point_per_trader() -> None:
    s = scoring(cards=["deichtorhallen", "coffee_roaster", "tailor", "ropemaker", "glassblower", "coffee_roastery",
                       "warehouse"])
    b = s.score_breakdown(0)
    assert b["deichtorhallen"] == 4  # the Coffee Roastery (a delivery building) and the Warehouse are no traders
    assert b["merchants"] == 1
    s = scoring(cards=["deichtorhallen", *TRADERS])
    assert s.score_breakdown(0)["deichtorhallen"] == 8


def test_the_accountant_gives_a_point_per_contract_fulfilled_or_not() -> None:
    s = scoring(cards=["accountant"], contracts=[("contract_a1", ["coffee", "tea"]), ("contract_hemp", []),
                                                 ("contract_b3", ["coffee"])])
    b = s.score_breakdown(0)
    assert b["accountant"] == 3 and b["contracts"] == 5
    assert scoring(cards=["accountant"]).score_breakdown(0)["accountant"] == 0


def test_more_than_four_counting_offices_still_give_14() -> None:
    s = scoring(cards=["counting_office_a", "counting_office_b", "counting_office_c", "counting_office_d1",
                       "counting_office_d2", "counting_office_d3"])
    assert s.score_breakdown(0)["counting_offices"] == 14


def test_the_final_score_includes_the_expansion_categories() -> None:
    s = kai_game(4)
    s = rigged(s, 0, cards=["town_hall", "mayor", "harbour_tour", "accountant", "press", "fireman_k2"],
               contracts=[("contract_hemp", ["hemp"])], delivered=4)
    s = drive(s, passive)
    b = s.score_breakdown(0)
    assert s.is_over and b["buildings"] == 5 and b["mayor"] == 5 and b["harbour_tour"] == 1
    assert b["accountant"] == 1 and b["press"] == 1 and b["contracts"] == 4 and b["deliveries"] == 4
    assert s.score(0) == sum(b.values())
    assert events_of(s, "final")[0]["score"] == s.score(0)


# ---- the Harbour Master --------------------------------------------------------------------------------------------


def test_the_harbour_master_exchanges_two_for_one_instead_of_three() -> None:
    s = red_loading(dock=["coffee", "tea", "saffron"], cards=["harbour_master"], stock=["glass", "rubber"])
    opts = legal(s)
    converts = [a for a in opts if a.startswith("convert ")]
    assert "convert coffee tea to glass" in converts and "convert tea saffron to rubber" in converts
    assert all(len(a.split()) == 5 for a in converts)  # two goods, never three
    assert "hallsell coffee tea" in opts  # the hall sale is unchanged
    refused(s, "convert coffee tea saffron to glass", "convert_count")
    s = s.apply("convert coffee tea to glass")
    assert events_of(s, "convert") == [{"seat": 0, "goods": ["coffee", "tea"], "good": "glass"}]
    assert s.dock_goods == ("saffron", "glass")
    assert stock(s)["coffee"] == 1 and stock(s)["tea"] == 1 and stock(s)["glass"] == 0
    s = s.apply("convert saffron glass to rubber")  # as often as wanted
    assert s.dock_goods == ("rubber",) and "harbour_master" in s.player(0).cards


def test_without_the_harbour_master_the_exchange_is_three_for_one() -> None:
    s = red_loading(dock=["coffee", "tea", "saffron"], stock=["glass"])
    assert "convert coffee saffron tea to glass" not in legal(s)
    assert "convert coffee tea saffron to glass" in legal(s)
    err = refused(s, "convert coffee tea to glass", "convert_count")
    assert "3" in str(err)


# ---- Savings Bank and Thief --------------------------------------------------------------------------------------


def buy_first(players: int, wanted: str, **rig: dict) -> sl.GameState:
    """Red places alone on water space 0 (``wanted``) and buys it for 1; stops right after the purchase."""
    s = kai_game(players, [wanted])
    for seat, kw in rig.items():
        s = rigged(s, int(seat[1:]), **kw)

    def policy(x: sl.GameState) -> str:
        if x.phase == "demand":
            if x.to_move == 0 and not x.workers[0]:
                return "place 0"
            spaces = [int(a.split()[1]) for a in legal(x) if a.startswith("place ") and a != "place 0"]
            return f"place {min(spaces, key=lambda i: (len(x.workers[i]), i))}"
        return "buy"

    return drive(s, policy, until=lambda x: x.phase == "purchase" and x.to_move == 0 and x.space == 0)


def test_the_savings_bank_gives_four_coins_and_is_discarded() -> None:
    s = buy_first(2, "savings_bank").apply("buy")
    assert events_of(s, "savings_bank") == [{"seat": 0, "coins": 4}]
    assert texts(s, "savings_bank") == ["Red takes 4 coins from the Savings Bank."]
    assert texts(s, "savings_bank", "de") == ["Rot erhält 4 Münzen von der Sparkasse."]
    assert s.coins[0] == 5 - 1 + 4
    assert "savings_bank" not in s.player(0).cards and "savings_bank" in s.to_dict()["discard"]
    s = drive(s, passive, until=lambda x: x.round == 2)
    assert events_of(s, "income")[0] == {"seat": 0, "coins": 2}  # it counts as a card bought


def test_the_thief_takes_a_coin_from_each_other_player_who_has_one() -> None:
    s = buy_first(4, "thief", s2={"coins": 0}, s3={"coins": 1})
    s = s.apply("buy")
    assert events_of(s, "thief") == [{"seat": 0, "seats": [1, 3]}]
    assert texts(s, "thief") == ["Red's thief takes a coin from Blue and Yellow."]
    assert texts(s, "thief", "de") == ["Der Dieb von Rot nimmt Blau und Gelb eine Münze ab."]
    assert s.coins == (5 - 1 + 2, 4, 0, 0)
    assert "thief" not in s.player(0).cards and "thief" in s.to_dict()["discard"]


def test_the_thief_when_nobody_has_a_coin() -> None:
    s = buy_first(2, "thief", s1={"coins": 0})
    s = s.apply("buy")
    assert events_of(s, "thief") == [{"seat": 0, "seats": []}]
    assert s.coins[1] == 0 and s.coins[0] == 4
    for lang in ("en", "de"):
        text = texts(s, "thief", lang)[0]
        assert text.strip() and "{" not in text


# ---- the Auction Hall -----------------------------------------------------------------------------------------


def test_the_auction_hall_takes_a_good_from_the_stock_that_must_be_loaded_at_once() -> None:
    s = red_loading(cards=["auction_hall"], contracts=[("contract_glass2", [])], stock=["glass", "hemp"],
                    dock=["coffee"])
    assert "auction glass" in legal(s) and "auction hemp" in legal(s)  # hemp could go to the market hall
    s = s.apply("auction glass")
    assert events_of(s, "auction") == [{"seat": 0, "good": "glass"}]
    assert texts(s, "auction") == ["Red takes glass from the stock at the Auction Hall and must load it now."]
    assert texts(s, "auction", "de") == ["Rot nimmt in der Auktionshalle Glas aus dem Vorrat und muss sie sofort "
                                         "verladen."]
    assert events_of(s, "discarded") == [{"seat": 0, "card": "auction_hall"}]
    assert "auction_hall" not in s.player(0).cards and stock(s)["glass"] == 0
    assert s.dock_goods == ("coffee", "glass") and kai(s)["pending"] == "glass"
    # Only moves that load the glass: no done, nothing with the coffee alone.
    assert "done" not in legal(s) and "keep coffee" not in legal(s)
    assert "contract glass 0" in legal(s) and "keep glass" in legal(s)
    refused(s, "done", "pending")
    s = s.apply("contract glass 0")
    assert kai(s)["pending"] is None and "done" in legal(s) and "keep coffee" in legal(s)
    assert not check_invariants(s)


def test_regression_a_pending_cube_blocks_moves_that_do_not_load_it() -> None:
    """Regression: only ``done``, ``auction`` and ``smuggle`` check the pending cube in ``apply``; ``keep coffee``
    is not among the legal actions but is accepted, and the glass then expires without being loaded."""
    s = red_loading(cards=["auction_hall"], contracts=[("contract_glass2", [])], stock=["glass"], dock=["coffee"])
    s = s.apply("auction glass")
    assert "keep coffee" not in legal(s)
    err = refused(s, "keep coffee", "pending")
    assert "glass" in str(err)


def test_regression_a_pending_cube_with_a_single_use_is_loaded_not_expired() -> None:
    """Regression: when the pending cube has exactly one legal use, the engine ends the loading turn (as it does
    when ``done`` is the only action) and the cube expires, instead of carrying out that one action
    ("Du musst diese Ware sofort verladen"; notation.md: a step with one legal action is carried out)."""
    s = red_loading(cards=["auction_hall"], contracts=[("contract_glass2", [])], hall=["coffee"], stock=["glass"])
    s = rigged(s, 0, dock=[])
    assert legal(s) == ["auction glass", "done"]
    s = s.apply("auction glass")  # the glass can only go onto the glass contract (the hall is full)
    assert s.player(0).contracts == (("contract_glass2", ("glass",)),)
    assert stock(s)["glass"] == 0


def test_the_auction_hall_gives_its_owner_a_loading_turn_without_cubes() -> None:
    s = kai_game(2)
    s = rigged(s, 1, cards=["auction_hall"], contracts=[("contract_hemp", [])], stock=["hemp"])
    s = drive(s, passive, until=lambda x: x.phase == "loading")
    assert s.to_move == 1 and s.dock_goods == () and legal(s)[-1] == "done" and "auction hemp" in legal(s)
    s = play(s, "auction hemp", "contract hemp 0")
    assert s.player(1).contracts == (("contract_hemp", ("hemp",)),)
    assert s.round == 2  # nothing left to do: the turn ends by itself


def test_auction_hall_refusals() -> None:
    s = red_loading(cards=["auction_hall"], contracts=[("contract_glass2", [])], stock=["hemp"], dock=["coffee"])
    refused(s, "auction glass", "convert_stock")  # no glass in the stock
    refused(red_loading(dock=["coffee"], stock=["glass"]), "auction glass", "no_card")
    s = red_loading(cards=["auction_hall"], contracts=[("contract_glass2", [])], stock=["glass", "tea"],
                    dock=["coffee"]).apply("auction glass")
    refused(s, "auction tea", "pending")  # the glass must be loaded first (and the card is used up)


def test_regression_the_auction_hall_offers_a_good_no_card_could_take() -> None:
    """Regression: ``kaispeicher._has_use`` ends with ``len(dock) + 1 >= min(seat.k_convert, k_sell)``, and
    ``seat.k_convert`` is 0 without the Harbour Master, so every good always "has a use": rule ``no_use`` can
    never be given, and a cube that cannot be loaded is taken and then expires (here the hemp)."""
    # A good that no card of Red's could take: hall full, no warehouse, no trader or contract, dock empty.
    s = red_loading(cards=["auction_hall"], contracts=[("contract_a1", [])], hall=["coffee"], stock=["hemp", "tea"])
    s = rigged(s, 0, dock=[])
    assert s.to_move == 0 and "auction tea" in legal(s) and "auction hemp" not in legal(s)
    refused(s, "auction hemp", "no_use")


# ---- the Smuggler -------------------------------------------------------------------------------------------------


def smuggler(**red: object) -> sl.GameState:
    """Red owns the Smuggler and a coffee+carpet contract; Blue has coffee on an unfinished contract and
    a finished one."""
    return red_loading(dock=["carpet"], cards=["smuggler"], contracts=[("contract_b1", [])],
                       others={1: {"contracts": [("contract_a1", ["coffee"]), ("contract_a3",
                                                                               ["coffee", "saffron", "carpet"])]}},
                       **red)


def test_the_smuggler_steals_from_an_unfinished_contract_of_another_player() -> None:
    s = smuggler()
    assert [a for a in legal(s) if a.startswith("smuggle")] == ["smuggle 1 0 coffee"]
    s = s.apply("smuggle 1 0 coffee")
    assert events_of(s, "smuggle") == [{"seat": 0, "seat_other": 1, "good": "coffee", "k": 0}]
    assert texts(s, "smuggle") == ["Red's smuggler steals coffee from Blue's contract 0 and must load it now."]
    assert texts(s, "smuggle", "de") == ["Der Schmuggler von Rot stiehlt Kaffee von Auftrag 0 von Blau und muss sie "
                                         "sofort verladen."]
    assert events_of(s, "discarded") == [{"seat": 0, "card": "smuggler"}]
    assert s.player(1).contracts[0] == ("contract_a1", ())
    assert s.dock_goods == ("coffee", "carpet") and kai(s)["pending"] == "coffee"
    assert "done" not in legal(s)
    refused(s, "done", "pending")
    s = s.apply("contract coffee 0")
    assert "done" in legal(s)
    s = play(s, "contract carpet 0")
    assert s.player(0).contracts == (("contract_b1", ("coffee", "carpet")),)
    assert s.score_breakdown(0)["contracts"] == 5
    assert not check_invariants(s)


def test_smuggler_refusals() -> None:
    s = smuggler()
    refused(s, "smuggle 1 1 coffee", "smuggle_target")  # a finished contract
    refused(s, "smuggle 1 0 tea", "smuggle_target")  # no tea on it
    refused(s, "smuggle 0 0 coffee", "smuggle_target")  # one's own contract
    refused(s, "smuggle 1 5 coffee", "smuggle_target")  # no such contract
    refused(smuggler().apply("smuggle 1 0 coffee").apply("contract coffee 0"), "smuggle 1 0 coffee", "no_card")
    no_card = red_loading(dock=["carpet"], others={1: {"contracts": [("contract_a1", ["coffee"])]}})
    refused(no_card, "smuggle 1 0 coffee", "no_card")


def test_regression_smuggle_from_a_seat_that_does_not_exist() -> None:
    """Regression: ``smuggle 7 0 coffee`` raises KeyError ("no seat message '7'") while the refusal text is
    rendered, instead of IllegalAction with rule ``smuggle_target``."""
    refused(smuggler(), "smuggle 7 0 coffee", "smuggle_target")


def test_regression_smuggled_cube_must_be_loaded_before_other_moves() -> None:
    """ENGINE BUG (as for the Auction Hall): ``contract carpet 0`` is not legal while the stolen coffee waits,
    but ``apply`` accepts it."""
    s = smuggler().apply("smuggle 1 0 coffee")
    assert "contract carpet 0" not in legal(s)
    refused(s, "contract carpet 0", "pending")


def test_a_second_card_cannot_be_used_while_a_cube_is_pending() -> None:
    s = smuggler(stock=["tea"])
    s = rigged(s, 0, cards=["auction_hall"])
    assert "auction tea" in legal(s)
    s = s.apply("smuggle 1 0 coffee")
    refused(s, "auction tea", "pending")


# ---- the Truck ----------------------------------------------------------------------------------------------------


def truck() -> sl.GameState:
    """4 players; Red owns the Truck and three contracts, nothing on the dock."""
    s = red_loading(4, dock=["glass"], cards=["truck"],
                    contracts=[("contract_a3", ["coffee", "saffron"]), ("contract_a1", ["tea"]),
                               ("contract_b1", ["carpet"])])
    return rigged(s, 0, dock=[])


def test_the_truck_moves_up_to_three_cubes_between_own_contracts_then_is_gone() -> None:
    s = truck()
    assert s.to_move == 0
    assert [a for a in legal(s) if a.startswith("truck")] == ["truck coffee 0 1", "truck coffee 0 2",
                                                              "truck carpet 2 0"]
    s = s.apply("truck coffee 0 1")
    assert events_of(s, "truck") == [{"seat": 0, "good": "coffee", "k": 0, "k_to": 1}]
    assert texts(s, "truck") == ["Red's truck moves coffee from contract 0 to contract 1."]
    assert texts(s, "truck", "de") == ["Der LKW von Rot bringt Kaffee von Auftrag 0 auf Auftrag 1."]
    assert events_of(s, "discarded") == [{"seat": 0, "card": "truck"}]
    assert "truck" not in s.player(0).cards and kai(s)["truck"] == 2
    assert s.player(0).contracts == (("contract_a3", ("saffron",)), ("contract_a1", ("tea", "coffee")),
                                     ("contract_b1", ("carpet",)))
    assert s.score_breakdown(0)["contracts"] == 5
    s = s.apply("truck carpet 2 0")
    assert kai(s)["truck"] == 1
    s = s.apply("truck coffee 1 0")
    assert s.player(0).contracts == (("contract_a3", ("saffron", "carpet", "coffee")), ("contract_a1", ("tea",)),
                                     ("contract_b1", ()))
    assert s.score_breakdown(0)["contracts"] == 8
    # Three moves made: no Truck left and nothing else to do, so Red's loading turn ends by itself.
    assert s.round == 2 and kai(s)["truck"] == -1


def test_the_truck_may_stop_after_fewer_moves() -> None:
    s = truck().apply("truck coffee 0 1").apply("truck carpet 2 0")
    assert s.to_move == 0 and kai(s)["truck"] == 1
    assert [a for a in legal(s) if a.startswith("truck")] == ["truck carpet 0 2", "truck coffee 1 0",
                                                              "truck coffee 1 2"]
    s = s.apply("done")
    assert s.round == 2 and kai(s)["truck"] == -1 and "truck" not in s.player(0).cards


def test_the_truck_is_one_use_even_with_moves_left() -> None:
    s = truck().apply("truck coffee 0 1")
    s = s.apply("done")
    s = drive(s, passive, until=lambda x: x.round == 2)
    assert "truck" not in s.player(0).cards and kai(s)["truck"] == -1


def test_truck_refusals() -> None:
    s = truck()
    refused(s, "truck tea 0 1", "truck_move")  # no tea on contract 0
    refused(s, "truck coffee 0 0", "truck_move")  # to the same contract
    refused(s, "truck coffee 0 5", "truck_move")  # no such contract
    refused(s, "truck saffron 0 1", "contract_good")  # contract 1 takes no saffron
    refused(red_loading(4, dock=["coffee"], contracts=[("contract_a3", ["coffee"]), ("contract_a1", [])]),
            "truck coffee 0 1", "no_card")


def test_the_truck_is_removed_with_two_three_and_five_players() -> None:
    for players in (2, 3, 5):
        with pytest.raises(ValueError, match="neither on the pile"):
            rigged(kai_game(players), 0, cards=["truck"])
