"""Phase 4, Loading: ships, contracts, merchants, the warehouse and the market hall (rulebook pp. 2-3)."""

from __future__ import annotations

import pytest

import speicherstadt_lab as sl
from tests.support.scenario import (
    Collector,
    drive,
    event_keys,
    events_of,
    passive,
    places,
    play,
    red_buys_three,
    stack_bag,
    stack_deck,
)

STOCK0 = {"coffee": 0, "tea": 0, "saffron": 0, "rubber": 0, "carpet": 0}


def stock(s: sl.GameState) -> dict[str, int]:
    return s.to_dict()["stock"]


def legal(s: sl.GameState) -> list[str]:
    return [str(a) for a in s.legal_actions()]


def refused(s: sl.GameState, text: str, rule: str) -> sl.IllegalAction:
    """Apply ``text``, expect a refusal for ``rule``, and check that nothing changed."""
    before = s.to_json()
    with pytest.raises(sl.IllegalAction) as info:
        s.apply(text)
    assert info.value.rule == rule, str(info.value)
    assert s.to_json() == before
    return info.value


# ---- ships --------------------------------------------------------------------------------------------------


def test_ships_are_emptied_in_the_round_they_are_bought() -> None:
    deck = stack_deck(4, ["ship_b1", "ship_b2", "coffee_roaster", "tea_taster", "spice_trader"], late_fires=True)
    s = sl.new_game(players=4, deck=deck, bag=stack_bag(["tea", "tea", "carpet", "rubber", "coffee", "coffee"]))
    s = play(s, *places(0, 2, 3, 4, 1, 2, 3, 4, 2, 3, 4, 2))
    s = s.apply("buy")  # Red buys ship_b1 at 1 ...
    assert s.cargo[0] == () and s.player(0).unloading == ("tea", "tea", "carpet")
    s = s.apply("buy")  # ... and ship_b2
    assert s.player(0).unloading == ("coffee", "coffee", "tea", "tea", "rubber", "carpet")
    s = play(s, *["pass"] * 10)
    assert s.phase == "loading" and s.to_move == 0
    assert events_of(s, "unload") == [{"seat": 0, "goods": ["coffee", "coffee", "tea", "tea", "rubber", "carpet"]}]
    assert s.event_texts()[-1] == "Red unloads coffee, coffee, tea, tea, rubber and carpet."
    assert s.dock_goods == ("coffee", "coffee", "tea", "tea", "rubber", "carpet")
    assert s.player(0).unloading == ()
    bag = s.bag_size
    s = s.apply("done")
    # Unused cubes expire to the stock, never back into the bag; the ships stay with Red, empty.
    assert events_of(s, "expire") == [{"seat": 0, "goods": ["coffee", "coffee", "tea", "tea", "rubber", "carpet"]}]
    assert s.event_texts()[1] == "coffee, coffee, tea, tea, rubber and carpet of Red expire to the stock."
    assert s.event_texts("de")[1] == "Kaffee, Kaffee, Tee, Tee, Kautschuk und Teppich von Rot verfallen in den Vorrat."
    assert stock(s) == {"coffee": 2, "tea": 2, "saffron": 0, "rubber": 1, "carpet": 1}
    assert s.bag_size == bag - 3 * sum(1 for c in s.offer if c and c.startswith("ship"))
    assert s.player(0).cards == ("ship_b1", "ship_b2")
    assert s.round == 2 and s.dock_goods == ()


def test_loading_order_runs_from_the_first_player_clockwise_and_skips_seats_with_nothing_to_do() -> None:
    deck = stack_deck(4, ["ship_b1", "ship_b2", "ship_b3", "coffee_roaster", "tea_taster"], late_fires=True)
    s = sl.new_game(players=4, deck=deck, bag=stack_bag(["coffee"] * 3 + ["tea"] * 3 + ["saffron"] * 3),
                    first_player=2)
    # Turn order Green, Yellow, Red, Blue: Green takes ship 1, Yellow ship 2, Red ship 0, Blue nothing.
    s = play(s, *places(1, 2, 0, 3, 3, 3, 3, 4, 4, 4, 4, 3))
    s = play(s, "buy", "buy", "buy")
    s = play(s, *["pass"] * 9)
    order, texts = [], []
    while s.phase == "loading":
        order.append(s.loading_seat)
        assert s.to_move == s.loading_seat
        s = s.apply("done")
        texts += s.event_texts()
    assert order == [2, 3, 0]  # Blue (1) bought nothing and is not asked ...
    assert "Blue has no goods to load." in texts  # ... which is recorded
    assert s.round == 2 and s.first == 3


# ---- Blue's loading example (English rulebook, page 3) -------------------------------------------------------


def blue_example() -> tuple[sl.GameState, sl.GameState]:
    """Real play up to the rulebook's situation; returns (round 1 loading, Blue's round 2 loading turn).

    Round 1: Blue buys the Tea Taster, the small contract (coffee + carpet) and a ship with coffee, coffee,
    saffron, and puts one coffee on the contract (the rest expires, so the stock then holds a coffee).
    Round 2: Blue holds the metal coin and buys the large contract (coffee, tea, rubber, carpet) and two
    ships bringing rubber, tea, carpet and rubber, tea, saffron.
    """
    top = ["tea_taster", "contract_b1", "ship_b1", "coffee_roaster", "spice_trader",
           "contract_b3", "ship_b2", "ship_b3", "carpet_trader", "vulcanizer"]
    bag = ["coffee", "coffee", "saffron", "rubber", "tea", "carpet", "rubber", "tea", "saffron"]
    s = sl.new_game(players=4, deck=stack_deck(4, top, late_fires=True), bag=stack_bag(bag))
    s = play(s, *places(3, 0, 4, 3, 4, 1, 3, 4, 3, 2, 4, 3))
    s = play(s, "buy", "buy", "buy", *["pass"] * 9)
    r1 = s
    assert s.loading_seat == 1 and s.dock_goods == ("coffee", "coffee", "saffron")
    s = play(s, "contract coffee 0", "done")
    assert s.round == 2 and s.first == 1 and s.coins[1] == 3
    assert s.cargo[1:3] == (("tea", "rubber", "carpet"), ("tea", "saffron", "rubber"))
    s = play(s, *places(0, 3, 4, 3, 1, 4, 3, 4, 2, 3, 4, 3))
    s = play(s, "buy", "buy", "buy", *["pass"] * 9)
    return r1, s


def test_blue_loading_example_from_the_rulebook() -> None:
    r1, s = blue_example()
    assert r1.player(1).cards == ("tea_taster", "contract_b1", "ship_b1")
    assert s.phase == "loading" and s.to_move == 1 and s.coins[1] == 0
    blue = s.player(1)
    assert blue.contracts == (("contract_b1", ("coffee",)), ("contract_b3", ()))
    assert s.dock_goods == ("tea", "tea", "saffron", "rubber", "rubber", "carpet")
    assert stock(s)["coffee"] == 1
    # The alternatives the rulebook mentions are open: the carpet would complete the small contract,
    # and rubber, tea and saffron could be converted into the coffee in the stock.
    assert "contract carpet 0" in legal(s)
    assert "convert tea saffron rubber to coffee" in legal(s)

    s = s.apply("contract rubber 1")
    s = s.apply("contract tea 1")
    assert s.player(1).contracts[1] == ("contract_b3", ("rubber", "tea"))
    assert s.event_texts() == ["Blue places tea on contract 1 (Contract)."]
    s = s.apply("keep carpet")
    assert s.player(1).hall == ("carpet",)
    assert s.event_texts() == ["Blue keeps carpet in the market hall."]
    s = s.apply("sell tea")
    assert s.coins[1] == 1
    assert s.event_texts() == ["Blue sells tea to the Tea Taster for 1 coin."]
    assert s.event_texts("de") == ["Blau verkauft Tee an Teeverkoster für 1 Münze."]
    s = s.apply("hallsell saffron rubber")
    assert events_of(s, "hallsell") == [{"seat": 1, "goods": ["saffron", "rubber"]}]
    assert s.event_texts()[0] == "Blue sells saffron and rubber at the market hall for 1 coin."
    # Both ships are unloaded and the carpet was just kept (taking it back out would undo that): Blue has
    # nothing left to decide, so the turn ends by itself; nothing expires, the others had nothing to load.
    keys = event_keys(s)
    assert "expire" not in keys and "done" not in keys
    assert set(keys[1:keys.index("income")]) <= {"no_loading", "no_loading_stored"}
    blue = s.player(1)
    assert blue.contracts == (("contract_b1", ("coffee",)), ("contract_b3", ("rubber", "tea")))
    assert blue.hall == ("carpet",)
    assert events_of(s, "income")[1] == {"seat": 1, "coins": 1}
    assert s.coins[1] == 3  # 0 + Tea Taster 1 + market hall 1 + income 1
    assert stock(s) == {"coffee": 1, "tea": 1, "saffron": 2, "rubber": 1, "carpet": 0}
    assert s.score_breakdown(1)["contracts"] == 0  # neither contract complete yet
    assert s.score_breakdown(1)["merchants"] == 1

    # Later round: Blue buys nothing, but takes the carpet out of the hall and completes the small contract.
    s = drive(s, passive, until=lambda x: x.phase == "loading")
    assert s.round == 3 and s.to_move == 1 and s.dock_goods == ()
    assert legal(s) == ["take carpet hall", "done"]
    s = s.apply("take carpet hall")
    assert s.dock_goods == ("carpet",) and s.player(1).hall == ()
    s = s.apply("contract carpet 0")
    assert events_of(s, "contract_done") == [{"seat": 1, "k": 0, "vp": 5}]
    assert s.event_texts()[:2] == ["Blue places carpet on contract 0 (Contract).",
                                   "Blue has completed contract 0: 5 points at the end."]
    assert s.event_texts("de")[1] == "Blau hat Auftrag 0 erfüllt: 5 Punkte am Spielende."
    # Nothing is left to do, so Blue's turn ends by itself and the round moves on.
    assert s.round == 4
    assert s.score_breakdown(1)["contracts"] == 5
    assert s.player(1).contracts[0] == ("contract_b1", ("coffee", "carpet"))


# ---- contracts ------------------------------------------------------------------------------------------------


def test_contract_takes_matching_goods_only_partial_fill_and_never_more() -> None:
    _, s = blue_example()
    e = refused(s, "contract saffron 0", "contract_good")
    assert str(e) == ("Loading: contract 0 (Contract) has no free saffron space; "
                      "a cube must match a free symbol of its type.")
    refused(s, "contract coffee 0", "contract_good")  # its coffee space is already taken
    refused(s, "contract saffron 1", "contract_good")
    e = refused(s, "contract tea 2", "contract_missing")
    assert "you own 2 contracts" in str(e)
    s = play(s, "contract tea 1")
    refused(s, "contract tea 1", "contract_good")  # only one tea space
    assert "contract tea 1" not in legal(s) and "contract rubber 1" in legal(s)
    # A free space but no such cube on the dock.
    s = play(s, "contract rubber 1")
    refused(s, "contract coffee 1", "dock")
    assert s.player(1).contracts[1] == ("contract_b3", ("tea", "rubber"))


# ---- merchants, warehouse, market hall -------------------------------------------------------------------------


def test_merchant_buys_its_good_for_one_coin_each() -> None:
    s = red_buys_three(["tea_taster", "ship_b1", "ship_b2", "coffee_roaster", "spice_trader"],
                       ["tea", "tea", "carpet", "tea", "carpet", "carpet"])
    assert s.dock_goods == ("tea", "tea", "tea", "carpet", "carpet", "carpet")
    assert "sell tea" in legal(s) and "sell carpet" not in legal(s)
    e = refused(s, "sell carpet", "merchant")
    assert str(e) == "Loading: you own no merchant who buys carpet."
    assert s.explain(e, "de") == "Verladung: du hast keinen Kaufmann, der Teppich kauft."
    bag = s.bag_size
    s = play(s, "sell tea", "sell tea", "sell tea")
    assert s.coins[0] == 2 + 3
    assert stock(s) == {**STOCK0, "tea": 3}
    assert "sell tea" not in legal(s)
    refused(s, "sell tea", "dock")
    s = s.apply("done")
    assert stock(s) == {**STOCK0, "tea": 3, "carpet": 3}
    ships = sum(1 for c in s.offer if c.startswith("ship"))
    assert s.bag_size == bag - 3 * ships  # only the new round's ships draw from it; nothing went back into it
    assert s.coins[0] == 5 + 1
    assert s.score_breakdown(0)["merchants"] == 1


def test_warehouse_holds_at_most_four_cubes_at_any_time() -> None:
    s = red_buys_three(["warehouse", "ship_b1", "ship_b2", "coffee_roaster", "tea_taster",
                        "ship_b3", "spice_trader", "carpet_trader", "vulcanizer", "counting_office_a"],
                       ["coffee", "tea", "saffron", "rubber", "carpet", "carpet", "rubber", "rubber", "tea"])
    s = play(s, "store coffee", "store tea", "store saffron")
    assert s.player(0).warehouse == ("coffee", "tea", "saffron")
    s = s.apply("store carpet")
    assert s.player(0).warehouse == ("coffee", "tea", "saffron", "carpet")
    assert events_of(s, "store") == [{"seat": 0, "good": "carpet"}]
    assert s.event_texts() == ["Red puts carpet into the warehouse."]
    assert not [a for a in legal(s) if a.startswith("store")]
    e = refused(s, "store rubber", "warehouse_full")
    assert str(e) == "Loading: there may be no more than 4 goods cubes in a warehouse at any time."
    # Taking back a cube stored in this same turn would only undo that move.
    refused(s, "take tea warehouse", "undo")
    s = s.apply("done")
    assert s.player(0).warehouse == ("coffee", "tea", "saffron", "carpet")
    assert stock(s) == {**STOCK0, "rubber": 1, "carpet": 1}

    # Round 2: Red buys another ship. The warehouse is full, so a new cube goes in only for one taken out.
    s = drive(s, Collector({0: {"ship_b3"}}), until=lambda x: x.phase == "loading")
    assert s.to_move == 0 and s.dock_goods == ("tea", "rubber", "rubber")
    assert not [a for a in legal(s) if a.startswith("store")]
    refused(s, "store rubber", "warehouse_full")
    s = s.apply("take coffee warehouse")
    assert s.player(0).warehouse == ("tea", "saffron", "carpet")
    assert s.event_texts() == ["Red takes coffee out of the warehouse."]
    refused(s, "store coffee", "undo")
    s = s.apply("store rubber")
    assert s.player(0).warehouse == ("tea", "saffron", "rubber", "carpet")
    refused(s, "store tea", "warehouse_full")
    s = s.apply("done")
    assert events_of(s, "expire") == [{"seat": 0, "goods": ["coffee", "tea", "rubber"]}]
    assert s.player(0).warehouse == ("tea", "saffron", "rubber", "carpet")
    assert s.score_breakdown(0)["warehouse"] == 4


def test_storing_needs_the_warehouse() -> None:
    s = red_buys_three(["tea_taster", "ship_b1", "ship_b2", "coffee_roaster", "spice_trader"],
                       ["coffee", "coffee", "coffee"])
    assert not s.player(0).has_warehouse
    assert not [a for a in legal(s) if a.startswith("store")]
    e = refused(s, "store coffee", "no_warehouse")
    assert str(e) == "Loading: only the owner of the Warehouse can store goods."


def test_market_hall_keep_at_most_one_and_sell_two_for_a_coin() -> None:
    s = red_buys_three(["tea_taster", "ship_b1", "ship_b2", "coffee_roaster", "spice_trader"],
                       ["coffee", "coffee", "saffron", "rubber", "carpet", "carpet"])
    s = s.apply("keep saffron")
    assert s.player(0).hall == ("saffron",)
    assert not [a for a in legal(s) if a.startswith("keep")]
    e = refused(s, "keep coffee", "hall_full")
    assert str(e) == "Loading: you may keep no more than 1 goods cube in the market hall."
    s = s.apply("hallsell coffee carpet")
    assert s.coins[0] == 3 and stock(s) == {**STOCK0, "coffee": 1, "carpet": 1}
    assert events_of(s, "hallsell") == [{"seat": 0, "goods": ["coffee", "carpet"]}]
    assert s.event_texts("de") == ["Rot verkauft Kaffee und Teppich in der Markthalle für 1 Münze."]
    refused(s, "hallsell coffee coffee", "dock")  # only one coffee left on the dock
    s = s.apply("hallsell coffee rubber")
    # One carpet is left: the hall is full and the saffron was kept this turn, so there is nothing left to
    # decide; the turn ends by itself and the carpet expires.
    assert events_of(s, "hallsell") == [{"seat": 0, "goods": ["coffee", "rubber"]}]
    assert events_of(s, "expire") == [{"seat": 0, "goods": ["carpet"]}]
    assert events_of(s, "income")[0] == {"seat": 0, "coins": 1}
    assert s.coins[0] == 2 + 1 + 1 + 1
    assert s.player(0).hall == ("saffron",)  # the kept cube stays for a later round
    assert s.round == 2


def test_market_hall_converts_three_cubes_into_one_other_from_the_stock_only() -> None:
    s = red_buys_three(["tea_taster", "ship_b1", "ship_b2", "coffee_roaster", "spice_trader"],
                       ["tea", "carpet", "carpet", "carpet", "rubber", "rubber"])
    assert s.dock_goods == ("tea", "rubber", "rubber", "carpet", "carpet", "carpet")
    assert stock(s) == STOCK0 and s.bag_size > 0
    # The stock is empty: converting is impossible even though the bag is full of cubes.
    assert not [a for a in legal(s) if a.startswith("convert")]
    e = refused(s, "convert carpet carpet carpet to coffee", "convert_stock")
    assert str(e) == ("Loading: the stock holds no coffee; the market hall takes goods from the stock only, "
                      "never from the bag.")
    assert "Vorrat" in s.explain(e, "de")
    # Selling the tea puts it into the stock; now three carpets can become that tea.
    s = s.apply("sell tea")
    assert stock(s) == {**STOCK0, "tea": 1}
    assert [a for a in legal(s) if a.startswith("convert")] == ["convert rubber rubber carpet to tea",
                                                               "convert rubber carpet carpet to tea",
                                                               "convert carpet carpet carpet to tea"]
    e = refused(s, "convert tea carpet carpet to tea", "convert_other")
    refused(s, "convert rubber carpet carpet to carpet", "convert_other")
    # Notation sorts the given goods: any order means the same action.
    s = s.apply("convert carpet CARPET   carpet to tea")
    assert s.dock_goods == ("tea", "rubber", "rubber")
    assert stock(s) == {**STOCK0, "carpet": 3}
    assert events_of(s, "convert") == [{"seat": 0, "goods": ["carpet", "carpet", "carpet"], "good": "tea"}]
    assert s.event_texts() == ["Red converts carpet, carpet and carpet into tea at the market hall."]
    s = s.apply("sell tea")
    assert s.coins[0] == 4 and stock(s) == {**STOCK0, "carpet": 3, "tea": 1}


def test_unused_cubes_expire_to_the_stock_and_the_bag_only_shrinks() -> None:
    s = sl.new_game(players=3, seed=21)
    bags = [s.bag_size]
    total_stock = [0]
    while s.round < 6 and not s.is_over:
        s = s.apply(passive(s))
        bags.append(s.bag_size)
        total_stock.append(sum(stock(s).values()))
    assert bags == sorted(bags, reverse=True)
    assert bags[-1] < bags[0]
    # Everything revealed was declined: every cube drawn is now in the stock.
    assert total_stock[-1] + sum(len(c) for c in s.cargo) == 45 - s.bag_size
