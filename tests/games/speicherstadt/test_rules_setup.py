"""Set-up by player count, the stacked draw pile and bag, and their validation (rulebook: Game preparations)."""

from __future__ import annotations

from collections import Counter

import pytest

import speicherstadt_lab as sl
from tests.support.scenario import CAT, GOODS, card, cards_in_play, event_keys, events_of, stack_bag, stack_deck

REMOVED = {2: ["port", "fireman_d3"], 3: ["boatsmen_church", "fireman_d3"], 4: [], 5: ["boatsmen_church", "fireman_d3"]}
SEASON_SIZES = {"A": 12, "B": 13, "C": 13, "D": 15, "E": 1}


def test_catalogue_has_the_printed_card_counts() -> None:
    base = [c for c in CAT.cards if c.expansion is None]
    assert Counter(c.season for c in base) == SEASON_SIZES
    kinds = Counter(c.kind for c in base)
    assert kinds["ship"] == 15 and kinds["fire"] == 4 and kinds["contract"] == 10 and kinds["fireman"] == 10
    assert kinds["counting_office"] == 4 and kinds["merchant"] == 5
    assert Counter({g.id: g.count for g in CAT.goods if g.expansion is None}) == Counter(dict.fromkeys(GOODS, 9))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_removed_cards_by_player_count(players: int) -> None:
    s = sl.new_game(players=players, seed=11)
    assert sorted(s.to_dict()["removed"]) == sorted(REMOVED[players])
    deck = sl.standard_deck(players, 11)
    assert len(deck) == 54 - len(REMOVED[players])
    assert not set(deck) & set(REMOVED[players])
    assert Counter(deck) == Counter(cards_in_play(players))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_coins_offer_and_first_player(players: int) -> None:
    s = sl.new_game(players=players, seed=5)
    assert s.coins == (5,) * players
    assert len(s.offer) == players + 1 and None not in s.offer
    assert all(card(c).kind != "fire" for c in s.offer)
    assert s.round == 1 and s.phase == "demand" and s.to_move == 0 and s.first == 0
    assert s.workers == ((),) * (players + 1)
    assert all(s.player(i).cards == () and s.player(i).track == 0 for i in range(players))
    keys = ["fires", "contracts", "merchants", "counting_offices", "warehouse", "buildings", "chamber_of_commerce",
            "port"]
    assert s.score_breakdown(0) == dict.fromkeys(keys, 0)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [0, 1, 99])
def test_seasons_stacked_a_on_top_fire_4_at_the_bottom(players: int, seed: int) -> None:
    deck = sl.standard_deck(players, seed)
    seasons = [card(c).season for c in deck]
    assert seasons == sorted(seasons)  # A on top, then B, C, D
    assert deck[-1] == "fire_4"
    # The supply of round 1 takes the top cards of the pile, all from Winter (A).
    s = sl.new_game(players=players, seed=seed)
    assert list(s.offer) == deck[: players + 1]
    assert s.pile_size == len(deck) - players - 1


def test_standard_deck_is_reproducible_and_is_what_new_game_stacks() -> None:
    assert sl.standard_deck(4, 7) == sl.standard_deck(4, 7)
    assert sl.standard_deck(3, "abc") == sl.standard_deck(3, "abc")
    assert len({tuple(sl.standard_deck(4, s)) for s in range(5)}) == 5
    assert sl.new_game(players=4, seed=7) == sl.new_game(players=4, seed=7, deck=sl.standard_deck(4, 7))
    assert sl.new_game(players=4, seed=7).to_json() == sl.new_game(players=4, seed=7).to_json()
    assert sl.new_game(players=4, seed=7) != sl.new_game(players=4, seed=8)


def test_ships_revealed_get_three_cubes_from_the_bag_first_drawn_first() -> None:
    deck = stack_deck(3, ["coffee_roaster", "ship_b1", "warehouse", "ship_b2"])
    bag = stack_bag(["carpet", "tea", "tea", "saffron", "rubber", "coffee"])
    s = sl.new_game(players=3, deck=deck, bag=bag)
    assert s.offer == ("coffee_roaster", "ship_b1", "warehouse", "ship_b2")
    # Cargo is shown in catalogue order of the goods; the first ship gets the first three cubes drawn.
    assert s.cargo == ((), ("tea", "tea", "carpet"), (), ("coffee", "saffron", "rubber"))
    assert s.bag_size == 45 - 6
    assert s.to_dict()["bag"] == bag[6:]
    assert sum(s.to_dict()["stock"].values()) == 0
    assert events_of(s, "ship") == [{"space": 1, "goods": ["tea", "tea", "carpet"]},
                                   {"space": 3, "goods": ["coffee", "saffron", "rubber"]}]
    assert s.event_texts()[-2] == "The ship on water space 1 is loaded with tea, tea and carpet from the bag."
    assert s.event_texts("de")[-1] == ("Das Schiff auf Wasserfeld 3 wird mit Kaffee, Safran und Kautschuk aus dem "
                                       "Beutel beladen.")


def test_first_player_holds_the_metal_coin() -> None:
    s = sl.new_game(players=4, seed=1, first_player=2)
    assert s.first == 2 and s.to_move == 2
    assert event_keys(s)[0] == "round"
    assert s.event_texts()[0] == "Round 1 begins; Green holds the metal coin."
    named = sl.new_game(players=2, seed=1, names=["Ada", "Bo"], first_player=1)
    assert named.event_texts()[0] == "Round 1 begins; Bo holds the metal coin."


def test_deck_and_bag_round_trip_through_new_game() -> None:
    deck = stack_deck(5, ["ship_c3", "bank"])
    bag = stack_bag(["rubber"] * 9)
    s = sl.new_game(players=5, seed=3, deck=deck, bag=bag)
    d = s.to_dict()
    assert list(s.offer) + d["pile"] == deck
    assert s.cargo[0] == ("rubber",) * 3 and d["bag"] == bag[3:]


# ---- validation: a bad deck or bag is refused with a message naming the field --------------------------------


@pytest.mark.parametrize(
    ("players", "deck", "words"),
    [
        (4, lambda d: [*d[:-1], "dragon", d[-1]], ["deck", "unknown", "dragon"]),
        (4, lambda d: d[1:], ["deck", "missing", "coffee_roaster"]),
        (4, lambda d: [d[0], *d], ["deck", "extra", "coffee_roaster"]),
        (2, lambda d: ["port", *d], ["deck", "extra", "port"]),
        (3, lambda d: [*d[:-2], "boatsmen_church", d[-2], d[-1]], ["deck", "boatsmen_church"]),
        (4, lambda d: [d[-1], *d[:-1]], ["deck", "4th fire", "bottom"]),
    ],
)
def test_bad_deck_is_refused(players: int, deck, words: list[str]) -> None:
    base = stack_deck(players)
    assert base[0] == "coffee_roaster"
    with pytest.raises(ValueError) as info:
        sl.new_game(players=players, deck=deck(base))
    for w in words:
        assert w in str(info.value)


@pytest.mark.parametrize(
    ("bag", "words"),
    [
        (lambda b: [*b[:-1], "gold"], ["bag", "unknown", "gold"]),
        (lambda b: b[:-1], ["bag", "45", "9 coffee"]),
        (lambda b: [*b, "tea"], ["bag", "45"]),
        (lambda b: ["coffee" if g == "tea" and i == b.index("tea") else g for i, g in enumerate(b)],
         ["bag", "exactly"]),
    ],
)
def test_bad_bag_is_refused(bag, words: list[str]) -> None:
    with pytest.raises(ValueError) as info:
        sl.new_game(players=4, bag=bag(stack_bag()))
    for w in words:
        assert w in str(info.value)


@pytest.mark.parametrize("players", [1, 6, 0, "4", None])
def test_bad_player_count_is_refused(players) -> None:
    with pytest.raises(ValueError, match="players"):
        sl.new_game(players=players)


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"first_player": 4}, "first_player"),
    ({"first_player": -1}, "first_player"),
    ({"names": ["a", "b"]}, "names"),
    ({"names": ["a", "b", "c", ""]}, "names"),
    ({"expansion": "nonsense"}, "expansion"),
])
def test_bad_options_are_refused(kwargs: dict, field: str) -> None:
    with pytest.raises(ValueError, match=field):
        sl.new_game(players=4, **kwargs)


def test_stack_helpers_build_legal_inputs() -> None:
    """The scenario helpers themselves: a stacked deck is a permutation of the legal cards, the bag of 45 cubes."""
    for p in (2, 3, 4, 5):
        deck = stack_deck(p, ["ship_d5", "fire_3"], late_fires=True)
        assert Counter(deck) == Counter(cards_in_play(p)) and deck[-1] == "fire_4"
        assert deck[:2] == ["ship_d5", "fire_3"]
        assert deck[-3:] == ["fire_1", "fire_2", "fire_4"]
    with pytest.raises(ValueError):
        stack_deck(2, ["port"])
    assert Counter(stack_bag(["tea"] * 9)) == Counter(dict.fromkeys(GOODS, 9))
    with pytest.raises(ValueError):
        stack_bag(["tea"] * 10)
