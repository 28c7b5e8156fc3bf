"""Card catalogues: full and partial user files (TOML, JSON), their effect in play, and clear rejections."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.games.speicherstadt import check_invariants
from tests.support.scenario import Collector, drive, events_of, places, play, red_buys_three, stack_deck

DEFAULT_TEXT = resources.files("speicherstadt_lab.data").joinpath("speicherstadt.toml").read_text(encoding="utf-8")


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


# ---- full catalogues ---------------------------------------------------------------------------------------------


def test_full_toml_file_equal_to_the_default_is_the_default(tmp_path: Path) -> None:
    path = write(tmp_path, "copy.toml", DEFAULT_TEXT)
    assert sl.load_catalog(path) is sl.default_catalog()
    assert sl.new_game(players=4, seed=2, catalog=path) == sl.new_game(players=4, seed=2)
    assert sl.new_game(players=4, seed=2, catalog=str(path)).to_dict()["catalog"] == "default"


def test_full_toml_file_with_changes_is_used(tmp_path: Path) -> None:
    text = DEFAULT_TEXT.replace("coins = 5\n", "coins = 7\n", 1).replace("strength = 2\n", "strength = 6\n", 1)
    path = write(tmp_path, "mine.toml", text)
    cat = sl.load_catalog(path)
    assert cat is not sl.default_catalog() and cat.card("fire_1").strength == 6
    s = sl.new_game(players=3, seed=1, catalog=path)
    assert s.coins == (7, 7, 7)
    # The catalogue travels with the state: a saved game reloads with the same cards.
    again = sl.load_state(s.to_json())
    assert again == s and again.to_dict()["catalog"]["setup"]["coins"] == 7


def test_json_catalogue_file(tmp_path: Path) -> None:
    path = write(tmp_path, "override.json", json.dumps(
        {"base": "default", "setup": {"coins": 4}, "cards": [{"id": "bank", "income": 2}]}))
    s = sl.new_game(players=2, seed=3, catalog=path)
    assert s.coins == (4, 4)
    assert s.cat.card("bank").income == 2
    full = write(tmp_path, "full.json", json.dumps(sl.default_catalog().raw))
    assert sl.load_catalog(full) is sl.default_catalog()


# ---- partial overrides and their effect in play -----------------------------------------------------------------


def test_override_of_a_fire_strength_changes_the_fire_in_play(tmp_path: Path) -> None:
    path = write(tmp_path, "fire.toml", 'base = "default"\n[[cards]]\nid = "fire_1"\nstrength = 7\n')
    deck = stack_deck(4, ["fireman_a2", "coffee_roaster", "tea_taster", "spice_trader", "carpet_trader",
                          "fire_1", "ship_b1", "ship_b2", "bank", "warehouse", "contract_a1"], late_fires=True)
    s = sl.new_game(players=4, deck=deck, catalog=path)
    s = drive(s, Collector({1: {"fireman_a2"}}), until=lambda x: x.round == 2)
    assert events_of(s, "fire") == [{"card": "fire_1", "strength": 7, "seats_plus": [1], "seats_minus": [0, 2, 3],
                                     "sums": [0, 2, 0, 0]}]
    assert "1st Fire (7): Blue +7, Red, Green and Yellow −7." in s.event_texts()
    assert [s.player(i).track for i in range(4)] == [-7, 7, -7, -7]


def test_override_of_contract_goods_changes_what_the_contract_takes(tmp_path: Path) -> None:
    path = write(tmp_path, "contract.toml",
                 'base = "default"\n[[cards]]\nid = "contract_a1"\ngoods = ["saffron", "carpet"]\nvp = 6\n')
    s = red_buys_three(["tea_taster", "contract_a1", "ship_b1", "coffee_roaster", "spice_trader"],
                       ["tea", "saffron", "carpet"], catalog=path)
    legal = [str(a) for a in s.legal_actions()]
    assert "contract saffron 0" in legal and "contract carpet 0" in legal and "contract tea 0" not in legal
    with pytest.raises(sl.IllegalAction) as info:
        s.apply("contract tea 0")
    assert info.value.rule == "contract_good"
    s = play(s, "contract saffron 0", "contract carpet 0")
    assert events_of(s, "contract_done") == [{"seat": 0, "k": 0, "vp": 6}]
    assert s.score_breakdown(0)["contracts"] == 6


def test_override_of_setup_building_spaces_and_a_forced_placement(tmp_path: Path) -> None:
    """With 2 building spaces per card and 2 players, the last workers have one place left: the engine places them."""
    s = sl.new_game(players=2, deck=stack_deck(2), catalog={"base": "default", "setup": {"building_spaces": 2}})
    s = play(s, *places(0, 0, 1))
    assert [str(a) for a in s.legal_actions()] == ["place 1", "place 2"]
    s = s.apply("place 1")
    assert s.phase == "purchase" and s.workers == ((0, 1), (0, 1), (0, 1))
    assert events_of(s, "place")[-2:] == [{"seat": 0, "card": "spice_trader", "space": 2, "price": 1},
                                          {"seat": 1, "card": "spice_trader", "space": 2, "price": 2}]
    with pytest.raises(sl.IllegalAction) as info:
        play(sl.new_game(players=2, deck=stack_deck(2), catalog={"base": "default", "setup": {"building_spaces": 2}}),
             *places(0, 0)).apply("place 0")
    assert info.value.rule == "demand_full" and "all 2 building spaces" in str(info.value)


def test_remove_takes_cards_out_of_the_game(tmp_path: Path) -> None:
    path = write(tmp_path, "remove.toml", 'base = "default"\nremove = ["st_michaelis", "ship_d5"]\n')
    deck = sl.standard_deck(4, 6, catalog=path)
    assert len(deck) == 52 and "st_michaelis" not in deck and "ship_d5" not in deck
    with pytest.raises(ValueError, match="st_michaelis"):
        sl.new_game(players=4, catalog=path, deck=[*sl.standard_deck(4, 6)])
    s = sl.new_game(players=4, seed=6, catalog=path)
    seen: list[sl.GameState] = []
    s = drive(s, Collector({}), seen=seen)
    assert s.is_over and not any(check_invariants(x) for x in seen[::10])
    offered = {c for x in seen for c in x.offer if c}
    assert "st_michaelis" not in offered and "ship_d5" not in offered and "st_michaelis" not in s.cat.by_id


def test_added_card_joins_the_deck() -> None:
    cat = {"base": "default", "cards": [{"id": "st_nikolai", "en": "St. Nikolai", "de": "St. Nikolai",
                                         "season": "D", "kind": "building", "vp": 5}]}
    deck = sl.standard_deck(2, 1, catalog=cat)
    assert "st_nikolai" in deck and len(deck) == 53
    assert sl.load_catalog(cat).card("st_nikolai").vp == 5


def test_assumed_values_are_listed_and_an_override_clears_them(tmp_path: Path) -> None:
    listed = sl.default_catalog().assumed_values()
    assert ("fire_1", "strength", 2) in listed and ("fire_4", "strength", 5) in listed
    assert ("contract_b3", "goods", ("coffee", "tea", "rubber", "carpet")) in listed
    assert ("fireman_a1", "value", 1) in listed
    assert not [x for x in listed if x[0] == "fireman_d3"]  # its value 3 is confirmed
    base = [x for x in listed if sl.default_catalog().card(x[0]).expansion is None]
    assert {f for _, f, _ in base} == {"goods", "value", "strength"}
    assert len([x for x in base if x[1] == "goods"]) == 10 and len([x for x in base if x[1] == "strength"]) == 4
    kai = {f for cid, f, _ in listed if sl.default_catalog().card(cid).expansion == "kaispeicher"}
    assert kai == {"goods", "value", "capacity"}  # new contracts, firemen and ships
    for cid, fld, value in listed:
        assert getattr(sl.default_catalog().card(cid), fld) == value
    cat = sl.load_catalog(write(tmp_path, "c.toml", 'base = "default"\n[[cards]]\nid = "fire_1"\nstrength = 3\n'))
    assert [x for x in cat.assumed_values() if x[0] == "fire_1"] == []
    assert len(cat.assumed_values()) == len(listed) - 1


# ---- rejected catalogues: CatalogError naming the card and the field --------------------------------------------


BAD = [
    ("bad.toml", 'base = "default"\n[[cards]\nid = "x"\n', ["not valid TOML"]),
    ("bad.json", '{"base": "default", "cards": [', ["not valid JSON"]),
    ("unknown.toml", 'base = "default"\n[[cards]]\nid = "fire_1"\nstrenght = 4\n', ["'fire_1'", "strenght"]),
    ("good.toml", 'base = "default"\n[[cards]]\nid = "contract_b1"\ngoods = ["coffee", "gold"]\n',
     ["'contract_b1'", "'goods'", "gold"]),
    ("merchant.toml", 'base = "default"\n[[cards]]\nid = "tea_taster"\ngood = "beer"\n', ["'tea_taster'", "'good'"]),
    ("missing.toml", 'base = "default"\n[[cards]]\nid = "fireman_x"\nen = "X"\nde = "X"\nseason = "A"\n'
                     'kind = "fireman"\n', ["'fireman_x'", "'value'", "missing"]),
    ("kindchange.toml", 'base = "default"\n[[cards]]\nid = "fire_1"\nkind = "ship"\n', ["'fire_1'", "'kind'"]),
    ("kind.toml", 'base = "default"\n[[cards]]\nid = "n"\nen = "N"\nde = "N"\nseason = "A"\nkind = "dragon"\n',
     ["'n'", "'kind'", "dragon"]),
    ("negative.toml", 'base = "default"\n[[cards]]\nid = "fire_2"\nstrength = -1\n', ["'fire_2'", "'strength'"]),
    ("season.toml", 'base = "default"\n[[cards]]\nid = "bank"\nseason = "F"\n', ["'bank'", "'season'"]),
    ("remove.toml", 'base = "default"\nremove = ["nope"]\n', ["remove", "nope"]),
    ("base.toml", 'base = "mine"\n', ["base", "mine"]),
    ("setup.toml", 'base = "default"\n[setup]\ncoins = "five"\n', ["setup", "'coins'"]),
    ("removefire.toml", 'base = "default"\nremove = ["fire_4"]\n', ["4th fire"]),
    # found by make soak's fuzzing: a base-game card naming an expansion good set up and then crashed a purchase
    ("expgood.toml", 'base = "default"\n[[cards]]\nid = "tea_taster"\ngood = "cloth"\n',
     ["'tea_taster'", "'good'", "cloth", "not in play"]),
]


@pytest.mark.parametrize(("name", "text", "words"), BAD, ids=[b[0] for b in BAD])
def test_malformed_catalogue_is_rejected_naming_card_and_field(tmp_path: Path, name: str, text: str,
                                                             words: list[str]) -> None:
    path = write(tmp_path, name, text)
    with pytest.raises(sl.CatalogError) as info:
        sl.load_catalog(path)
    for w in words:
        assert w in str(info.value)
    with pytest.raises(sl.CatalogError):
        sl.new_game(players=4, catalog=path)


def test_full_catalogue_with_a_duplicate_id_is_rejected(tmp_path: Path) -> None:
    dup = DEFAULT_TEXT + '\n[[cards]]\nid = "bank"\nen = "Bank"\nde = "Bank"\nseason = "C"\nkind = "bank"\nincome = 1\n'
    with pytest.raises(sl.CatalogError, match=r"card 'bank'.*twice"):
        sl.load_catalog(write(tmp_path, "dup.toml", dup))


def test_missing_catalogue_file_is_reported(tmp_path: Path) -> None:
    with pytest.raises(sl.CatalogError, match="cannot be read"):
        sl.load_catalog(tmp_path / "nowhere.toml")


def test_catalog_error_is_a_value_error() -> None:
    assert issubclass(sl.CatalogError, ValueError)


# ---- notebook display ---------------------------------------------------------------------------------------------


def test_repr_html_is_a_table_with_seat_names_and_the_offer() -> None:
    s = sl.new_game(players=3, deck=stack_deck(3, ["ship_b1", "bank"]), names=["Ada", "Bo <b>", "Cem"])
    html = s._repr_html_()
    assert "<table" in html and "</table>" in html
    for name in ("Ada", "Cem", "Bo &lt;b&gt;"):
        assert name in html
    assert "Bo <b>" not in html  # names are escaped
    for cid in s.offer:
        assert s.card_name(cid) in html
    assert "Ship" in html and "Bank" in html
    html = sl.new_game(players=4, seed=1)._repr_html_()
    assert all(n in html for n in ("Red", "Blue", "Green", "Yellow"))
