"""Fires, income, the last round and final scoring (rulebook: Income, End of the game, Fire, trade cards)."""

from __future__ import annotations

import json

import pytest

import speicherstadt_lab as sl
from tests.support.scenario import (
    Collector,
    card,
    drive,
    event_keys,
    events_of,
    next_round,
    passive,
    refusal,
    rigged,
    stack_bag,
    stack_deck,
)

STRENGTH = {f"fire_{k}": card(f"fire_{k}").strength for k in (1, 2, 3, 4)}
ROUNDS = {2: 16, 3: 12, 4: 10, 5: 8}


def firemen_game(players: int, wants: dict[int, set[str]], round2: list[str], first_cards: list[str]) -> sl.GameState:
    """Round 1 offers ``first_cards``; each seat buys what it wants; returns the state at round 2's first decision.

    ``round2`` are the cards on top of the pile after round 1 (fires among them are revealed at once).
    """
    deck = stack_deck(players, [*first_cards, *round2], late_fires=True)
    s = sl.new_game(players=players, deck=deck)
    s = drive(s, Collector(wants), until=lambda x: x.round == 2)
    for seat, cards in wants.items():
        assert set(s.player(seat).cards) == cards
    return s


# ---- fires -------------------------------------------------------------------------------------------------


def test_fire_is_resolved_the_moment_it_is_revealed_highest_plus_lowest_minus() -> None:
    s = firemen_game(4, {0: {"fireman_a2"}, 1: {"fireman_a1"}},
                     ["fire_1", "ship_b1", "ship_b2", "bank", "warehouse", "contract_a1"],
                     ["fireman_a2", "fireman_a1", "coffee_roaster", "tea_taster", "spice_trader"])
    n = STRENGTH["fire_1"]
    assert [s.player(i).firemen for i in range(4)] == [2, 1, 0, 0]
    assert events_of(s, "fire") == [{"card": "fire_1", "strength": n, "seats_plus": [0], "seats_minus": [2, 3],
                                     "sums": [2, 1, 0, 0]}]
    assert f"1st Fire ({n}): Red +{n}, Green and Yellow −{n}." in s.event_texts()
    assert f"1. Brand ({n}): Rot +{n}, Grün und Gelb −{n}." in s.event_texts("de")
    assert [s.player(i).track for i in range(4)] == [n, 0, -n, -n]
    assert [s.score_breakdown(i)["fires"] for i in range(4)] == [n, 0, -n, -n]
    # The fire is halted for, discarded, and replaced: the water spaces are full again.
    assert s.offer == ("ship_b1", "ship_b2", "bank", "warehouse", "contract_a1")
    assert s.to_dict()["discard"][-1] == "fire_1"
    keys = event_keys(s)
    assert keys.index("fire") < keys.index("supply")


def test_ties_for_highest_all_receive_the_points() -> None:
    s = firemen_game(4, {0: {"fireman_a2"}, 1: {"fireman_b2"}, 2: {"fireman_a1"}},
                     ["fire_2", "ship_b1", "ship_b2", "bank", "warehouse", "contract_a1"],
                     ["fireman_a2", "fireman_b2", "fireman_a1", "coffee_roaster", "tea_taster"])
    n = STRENGTH["fire_2"]
    assert [s.player(i).track for i in range(4)] == [n, n, 0, -n]
    assert f"2nd Fire ({n}): Red and Blue +{n}, Yellow −{n}." in s.event_texts()


def test_all_equal_sums_nobody_gains_or_loses() -> None:
    s = firemen_game(2, {0: {"fireman_a1"}, 1: {"fireman_b1"}}, ["fire_1", "ship_b1", "ship_b2", "bank"],
                     ["fireman_a1", "fireman_b1", "coffee_roaster"])
    assert [s.player(i).firemen for i in range(2)] == [1, 1]
    assert events_of(s, "fire") == []
    n = STRENGTH["fire_1"]
    assert events_of(s, "fire_tie") == [{"card": "fire_1", "strength": n, "total": 1}]
    assert (f"1st Fire ({n}): every player has 1 in firemen; nobody gains or loses points."
            in s.event_texts())
    assert s.player(0).track == s.player(1).track == 0
    assert s.offer == ("ship_b1", "ship_b2", "bank")


def test_fire_in_the_first_supply_with_nobody_holding_firemen() -> None:
    s = sl.new_game(players=3, deck=stack_deck(3, ["fire_1", "coffee_roaster"], late_fires=True))
    assert event_keys(s)[:3] == ["round", "fire_tie", "supply"]
    assert len(s.offer) == 4 and s.offer[0] == "coffee_roaster"
    assert s.to_dict()["discard"] == ["fire_1"]


def test_several_fires_in_a_row_are_all_resolved_and_the_offer_still_fills() -> None:
    s = firemen_game(4, {3: {"fireman_c4"}},
                     ["fire_1", "fire_2", "ship_b1", "fire_3", "ship_b2", "bank", "warehouse", "contract_a1"],
                     ["fireman_c4", "coffee_roaster", "tea_taster", "spice_trader", "carpet_trader"])
    fires = events_of(s, "fire")
    assert [f["card"] for f in fires] == ["fire_1", "fire_2", "fire_3"]
    assert all(f["seats_plus"] == [3] and f["seats_minus"] == [0, 1, 2] for f in fires)
    total = STRENGTH["fire_1"] + STRENGTH["fire_2"] + STRENGTH["fire_3"]
    assert [s.player(i).track for i in range(4)] == [-total, -total, -total, total]
    assert s.offer == ("ship_b1", "ship_b2", "bank", "warehouse", "contract_a1")
    assert s.to_dict()["discard"][-3:] == ["fire_1", "fire_2", "fire_3"]
    # A ship revealed between two fires is loaded as usual.
    assert all(len(c) == 3 for c in s.cargo[:2])


# ---- income and the metal coin ----------------------------------------------------------------------------


def test_income_one_coin_plus_one_if_nothing_bought_plus_one_with_the_bank() -> None:
    deck = stack_deck(4, ["bank", "coffee_roaster", "tea_taster", "spice_trader", "carpet_trader"], late_fires=True)
    s = sl.new_game(players=4, deck=deck)
    s = drive(s, Collector({0: {"bank"}, 1: {"coffee_roaster"}}), until=lambda x: x.round == 2)
    assert events_of(s, "income") == [{"seat": 0, "coins": 2}, {"seat": 1, "coins": 1},
                                      {"seat": 2, "coins": 2}, {"seat": 3, "coins": 2}]
    assert s.coins == (5 - 1 + 2, 5 - 1 + 1, 7, 7)
    assert "Red receives 2 coins of income." in s.event_texts()
    assert "Blue receives 1 coin of income." in s.event_texts()
    assert "Blau erhält 1 Münze Einkommen." in s.event_texts("de")
    s = next_round(s)  # nobody buys anything in round 2
    assert events_of(s, "income") == [{"seat": 0, "coins": 3}, {"seat": 1, "coins": 2},
                                      {"seat": 2, "coins": 2}, {"seat": 3, "coins": 2}]
    assert "Rot erhält 3 Münzen Einkommen." in s.event_texts("de")
    assert s.coins == (9, 7, 9, 9)


@pytest.mark.parametrize(("players", "first"), [(4, 0), (5, 3), (2, 1)])
def test_metal_coin_passes_to_the_left_each_round(players: int, first: int) -> None:
    s = sl.new_game(players=players, seed=2, first_player=first)
    firsts = [s.first]
    for _ in range(players + 1):
        s = next_round(s)
        assert events_of(s, "metal_coin") == [{"seat": s.first}]
        assert s.to_move == s.first  # demand starts with the holder of the metal coin
        firsts.append(s.first)
    assert firsts == [(first + k) % players for k in range(players + 2)]
    assert f"{('Red', 'Blue', 'Green', 'Yellow', 'Purple')[s.first]} receives the metal coin." in s.event_texts()


# ---- end of the game ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [3, 8])
def test_game_lasts_16_12_10_8_rounds_and_ends_with_the_4th_fire(players: int, seed: int) -> None:
    s = sl.new_game(players=players, seed=seed)
    last_round_starts = []
    while not s.is_over:
        if "last_round" in event_keys(s):
            last_round_starts.append(s)
        prev = s
        s = s.apply(passive(s))
    assert s.round == ROUNDS[players]
    assert [x.round for x in last_round_starts] == [ROUNDS[players]]
    pile = last_round_starts[0].to_dict()["pile"]
    assert pile in (["fire_4"], ["fire_3", "fire_4"])
    # Every water space was filled in every round.
    assert len(last_round_starts[0].offer) == players + 1
    assert "Only fires are left on the pile: this is the last round." in last_round_starts[0].event_texts()
    # The final transition: income, the remaining fire(s), final scores, game over.
    keys = event_keys(s)
    fire_at = [i for i, e in enumerate(s.events) if e.key in ("fire", "fire_tie")]
    assert [s.events[i].args["card"] for i in fire_at] == pile
    assert min(fire_at) > max(i for i, k in enumerate(keys) if k == "income")
    assert keys[-players - 1:] == ["final"] * players + ["game_over"]
    assert s.phase == "over" and s.to_move is None and s.legal_actions() == []
    assert s.pile_size == 0 and prev.round == s.round
    assert refusal(s, "done").rule == "over"


def test_third_fire_directly_above_the_fourth_both_resolved_after_the_last_round() -> None:
    deck = stack_deck(4, ["fireman_a2", "coffee_roaster", "tea_taster", "spice_trader", "carpet_trader"],
                      bottom=["fire_3"])
    assert deck[-2:] == ["fire_3", "fire_4"]
    s = sl.new_game(players=4, deck=deck)
    s = drive(s, Collector({2: {"fireman_a2"}}), until=lambda x: x.round == 2)
    seen: list[sl.GameState] = []
    s = drive(s, passive, seen=seen)
    last = [x for x in seen if "last_round" in event_keys(x)]
    assert len(last) == 1 and last[0].round == 10 and last[0].to_dict()["pile"] == ["fire_3", "fire_4"]
    assert s.round == 10 and s.is_over
    keys = event_keys(s)
    fires = events_of(s, "fire")
    assert [f["card"] for f in fires] == ["fire_3", "fire_4"]
    assert keys.index("fire") > max(i for i, k in enumerate(keys) if k == "income")
    assert keys[-5:] == ["final"] * 4 + ["game_over"]
    # Green held the only fireman through all four fires.
    total = sum(STRENGTH.values())
    assert [s.player(i).track for i in range(4)] == [-total, -total, total, -total]
    assert s.winners() == [2]
    assert events_of(s, "game_over") == [{"seats": [2]}]
    assert s.event_texts()[-1] == "The game is over. Winner: Green."
    assert s.event_texts("de")[-1] == "Das Spiel ist vorbei. Sieger: Grün."


def test_third_fire_not_last_is_resolved_mid_game_and_the_4th_alone_at_the_end() -> None:
    deck = stack_deck(4, ["fireman_a2", "coffee_roaster", "tea_taster", "spice_trader", "carpet_trader"],
                      bottom=["ship_d1", "ship_d2", "ship_d3", "ship_d4", "ship_d5", "port"])
    assert deck[-8:-6] == ["fire_3", "ship_d1"]
    s = sl.new_game(players=4, deck=deck)
    s = drive(s, Collector({2: {"fireman_a2"}}), until=lambda x: x.round == 2)
    seen: list[sl.GameState] = []
    s = drive(s, passive, seen=seen)
    fire3 = [x for x in seen if any(e.args.get("card") == "fire_3" for e in x.events if e.key == "fire")]
    # The last six cards above the 4th fire are the round-10 offer plus one: fire_3 comes up in round 9's supply.
    assert len(fire3) == 1 and fire3[0].round == 9 and fire3[0].phase == "demand"
    assert event_keys(fire3[0]).index("fire") < event_keys(fire3[0]).index("supply")
    assert fire3[0].offer[-1] == "ship_d1"
    assert [f["card"] for f in events_of(s, "fire")] == ["fire_4"]
    assert s.round == 10


def test_a_full_game_scores_every_card_kind() -> None:
    """Real play with scripted players: each seat collects one family of cards, then the final scoring."""
    top = ["counting_office_a", "boatsmen_church", "port", "tea_taster", "spice_trader",
           "counting_office_b", "st_michaelis", "warehouse", "fireman_b3", "carpet_trader",
           "counting_office_d1", "chamber_of_commerce", "ship_b1", "contract_a1", "vulcanizer",
           "counting_office_d2", "ship_c1", "coffee_roaster", "ship_b2", "contract_a2"]
    wants = {
        0: {"counting_office_a", "counting_office_b", "counting_office_d1", "counting_office_d2"},
        1: {"boatsmen_church", "st_michaelis", "chamber_of_commerce", "fireman_b3"},
        2: {"port", "warehouse", "ship_b1", "ship_b2"},
        3: {"contract_a1", "ship_c1", "coffee_roaster"},
    }
    # ship_b1 (round 3), then ship_c1 and ship_b2 (round 4) draw from the bag in this order.
    bag = ["rubber", "rubber", "saffron", "coffee", "tea", "coffee", "carpet", "carpet", "saffron"]
    s = sl.new_game(players=4, deck=stack_deck(4, top), bag=stack_bag(bag))
    s = drive(s, Collector(wants), check=True)
    assert s.is_over and s.round == 10
    for seat, cards in wants.items():
        assert set(s.player(seat).cards) == cards

    b = [s.score_breakdown(i) for i in range(4)]
    assert b[0]["counting_offices"] == 14  # 4 counting offices
    assert b[1]["buildings"] == 3 + 4  # Boatsmen Church and St. Michaelis
    assert b[1]["chamber_of_commerce"] == s.coins[1] > 0  # 1 point per coin, coins kept
    assert b[2]["port"] == 2  # two ships
    assert s.player(2).warehouse == ("saffron", "saffron", "rubber", "rubber") and b[2]["warehouse"] == 4
    assert s.player(3).contracts == (("contract_a1", ("coffee", "tea")),) and b[3]["contracts"] == 5
    assert b[3]["merchants"] == 1
    # Blue's fireman (3) was the only one: +N at every fire for Blue, -N for everyone else.
    total = sum(STRENGTH.values())
    assert [x["fires"] for x in b] == [-total, total, -total, -total]
    # With the rest of the pile in catalogue order the 3rd fire lies directly above the 4th: both end the game.
    assert [f["card"] for f in events_of(s, "fire")] == ["fire_3", "fire_4"]
    for i in range(4):
        assert s.score(i) == sum(b[i].values())
        others = {k: v for k, v in b[i].items() if v}
        assert set(others) <= {"fires", "counting_offices", "buildings", "chamber_of_commerce", "port", "warehouse",
                               "contracts", "merchants"}
    assert events_of(s, "final") == [{"seat": i, "score": s.score(i), "coins": s.coins[i]} for i in range(4)]
    assert events_of(s, "game_over") == [{"seats": s.winners()}]
    best = max(s.scores())
    assert s.winners() == [i for i in range(4) if s.score(i) == best]


# ---- scoring table, card by card (holdings rigged through to_dict / load_state) ---------------------------------


def blank() -> sl.GameState:
    """A 4-player game whose first offer holds five ships, so every other card is still on the pile."""
    return sl.new_game(players=4, deck=stack_deck(4, ["ship_b1", "ship_b2", "ship_b3", "ship_b4", "ship_b5"]))


@pytest.mark.parametrize(("offices", "points"), [(0, 0), (1, 2), (2, 5), (3, 9), (4, 14)])
def test_counting_offices_score_2_5_9_14(offices: int, points: int) -> None:
    ids = ["counting_office_a", "counting_office_b", "counting_office_d1", "counting_office_d2"][:offices]
    s = rigged(blank(), 1, cards=ids)
    assert s.score_breakdown(1)["counting_offices"] == points
    assert s.score(1) == points


def test_contracts_score_only_when_complete() -> None:
    s = rigged(blank(), 0, contracts=[("contract_a1", ["coffee", "tea"]), ("contract_b2", ["tea", "rubber"]),
                                      ("contract_c3", ["coffee", "saffron", "rubber", "carpet"]),
                                      ("contract_b3", [])])
    assert s.score_breakdown(0)["contracts"] == card("contract_a1").vp + card("contract_c3").vp == 5 + 11
    assert s.score(0) == 16


def test_buildings_merchants_warehouse_chamber_port_and_fires() -> None:
    s = rigged(blank(), 2, cards=["boatsmen_church", "st_michaelis", "chamber_of_commerce", "port", "warehouse",
                                  "coffee_roaster", "vulcanizer", "ship_c1", "ship_c2", "ship_d1"],
               warehouse=["tea", "tea", "carpet"], coins=9, track=-4)
    assert s.score_breakdown(2) == {"fires": -4, "contracts": 0, "merchants": 2, "counting_offices": 0,
                                    "warehouse": 3, "buildings": 7, "chamber_of_commerce": 9, "port": 3}
    assert s.score(2) == -4 + 2 + 3 + 7 + 9 + 3
    # The same cards with no coins, no ships and an empty warehouse.
    poor = rigged(blank(), 2, cards=["chamber_of_commerce", "port", "warehouse"], coins=0)
    assert poor.score(2) == 0


def test_winner_tie_break_on_coins() -> None:
    s = rigged(rigged(blank(), 0, track=6, coins=3), 1, track=6, coins=8)
    assert s.scores()[:2] == (6, 6)
    assert s.winners() == [1]
    assert s.ranks() == [2, 1, 3, 3]
    s = rigged(s, 0, coins=8)
    assert s.winners() == [0, 1] and s.ranks() == [1, 1, 3, 3]


def test_tie_break_decides_the_game_over_event() -> None:
    """Play to the last round, give Red and Yellow equal points, Yellow more coins; the game-over names Yellow."""
    s = drive(sl.new_game(players=4, seed=4), passive, until=lambda x: x.round == 10)
    d = json.loads(s.to_json())
    assert d["last_round"]
    s = rigged(rigged(s, 0, track=3, coins=1), 3, track=3, coins=2)
    s = drive(s, passive)
    assert s.is_over and s.scores()[0] == s.scores()[3] == 3
    assert s.coins[0] < s.coins[3]
    assert events_of(s, "game_over") == [{"seats": [3]}]
    assert s.event_texts()[-1] == "The game is over. Winner: Yellow."
