"""Packet Row's card data: the printed structure, the rulebook's example cards, assumed values, user catalogues."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.games.packet_row import default_catalog, load_catalog

CAT = default_catalog()


def kinds(board: str) -> Counter[str]:
    return Counter({k: sum(c.count for c in CAT.deck(board) if c.kind == k) for k in {c.kind for c in CAT.deck(board)}})


def test_the_printed_structure() -> None:
    assert kinds("guild") == Counter(contract=24, assistant=5, building=9)
    assert kinds("docks") == Counter(ship=18, captain=5, gold=10, building=9)
    assert kinds("market") == Counter(goods=28, merchant=5, building=9)
    assert kinds("bank") == Counter(money=24, banker=5, building=9)
    gold = Counter({c.bars: c.count for c in CAT.deck("docks") if c.kind == "gold"})
    assert gold == Counter({1: 5, 2: 5})
    goods = Counter()
    for c in CAT.deck("market"):
        if c.kind == "goods":
            goods[c.good] += c.count
    assert goods == Counter(dict.fromkeys(["grain", "cotton", "fur", "tobacco"], 7))
    starts = CAT.start_contracts
    assert len(starts) == 12 and Counter(c.good for c in starts) == Counter(dict.fromkeys(goods, 3))
    assert {d.id for d in CAT.dests} == {"gb", "fr", "nl", "se", "es", "de"}
    assert {c.en for c in CAT.cards if c.kind == "building"} == {"Church", "Library", "Town Hall", "University"}
    for board in ("guild", "docks", "market", "bank"):
        assert {c.en for c in CAT.deck(board) if c.kind == "building"} == {"Church", "Library", "Town Hall",
                                                                           "University"}


def test_the_rulebook_examples_are_real_cards() -> None:
    card = CAT.card
    assert all((c.cost, c.vp) == (18, 4) for c in CAT.cards if c.en == "University")
    assert all(c.cost == 15 for c in CAT.cards if c.en == "Library")
    assert (card("tobacco1").cost, card("tobacco3").cost, card("fur2").cost) == (2, 10, 6)
    assert (card("tobacco3").amount, card("fur2").amount) == (3, 2)
    assert (card("gold2").bars, card("gold2").cost) == (2, 9)
    nl = card("cotton_nl")
    assert (nl.good, nl.amount, nl.dest, nl.pays) == ("cotton", 3, "nl", 25)
    assert card("money4").value == 4
    es = card("start_fur_es")
    assert (es.start, es.good, es.amount, es.dest) == (True, "fur", 3, "es")
    # David's example: $35 + $15 + $15 from 4 cotton and 2 tobacco to one place, 2 tobacco to another.
    fr, t_fr, t_se = card("cotton_fr"), card("tobacco_fr"), card("tobacco_se")
    assert (fr.amount, fr.pays, t_fr.amount, t_fr.pays, t_se.amount, t_se.pays) == (4, 35, 2, 15, 2, 15)
    assert fr.dest == t_fr.dest
    assert {c.pays for c in CAT.cards if c.kind == "contract"} == {15, 25, 35}


def test_assumed_values_are_marked_and_printed_ones_are_not() -> None:
    assumed = {(cid, f) for cid, f, _ in CAT.assumed_values()}
    assert ("guild_church", "cost") in assumed and ("gold1", "cost") in assumed and ("money6", "value") in assumed
    assert ("fur_es", "pays") in assumed and ("ship_gb", "count") in assumed
    for printed in [("cotton_nl", "pays"), ("cotton_nl", "amount"), ("gold2", "cost"), ("tobacco1", "cost"),
                    ("tobacco3", "cost"), ("fur2", "cost"), ("market_university", "cost"), ("bank_library", "cost"),
                    ("money4", "value"), ("start_fur_es", "amount")]:
        assert printed not in assumed, printed
    header = Path(sl.__file__).with_name("data").joinpath("packet_row.toml").read_text(encoding="utf-8")[:4000]
    assert "Design of the assumed values" in header


def test_a_user_catalogue_overrides_cards_of_the_default(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('base = "default"\nname = "house rules"\n\n[[cards]]\nid = "gold1"\ncost = 5\n\n'
                    '[[cards]]\nid = "grain_gb"\npays = 40\n', encoding="utf-8")
    cat = load_catalog(path)
    assert cat.card("gold1").cost == 5 and cat.card("grain_gb").pays == 40 and cat.name == "house rules"
    assert ("gold1", "cost") not in {(c, f) for c, f, _ in cat.assumed_values()}
    s = sl.new_game("packet_row", players=3, seed=1, catalog=str(path))
    assert s.cat.card("gold1").cost == 5
    again = sl.load_state(s.to_json())
    assert again == s and again.cat.card("grain_gb").pays == 40
    assert json.loads(s.to_json())["catalog"]["name"] == "house rules"
    default = sl.new_game("packet_row", players=3, seed=1)
    assert json.loads(default.to_json())["catalog"] == "default"


def test_a_user_catalogue_can_remove_and_add_cards() -> None:
    data = {"base": "default", "remove": ["assistant"],
            "cards": [{"id": "guild_chapel", "board": "guild", "kind": "building", "en": "Chapel", "de": "Kapelle",
                       "cost": 4, "vp": 1, "count": 5}]}
    cat = load_catalog(data)
    assert "assistant" not in cat.by_id and cat.card("guild_chapel").count == 5
    s = sl.new_game("packet_row", players=4, seed=2, catalog=data)
    assert sum(1 for c in s.to_dict()["boards"]["guild"]["deck"] if c == "guild_chapel") + \
        sum(1 for c in s.supply("guild")["current"] + s.supply("guild")["future"] if c == "guild_chapel") == 5


@pytest.mark.parametrize(("cards", "where", "field"), [
    ([{"id": "gold1", "kind": "goods"}], "card 'gold1'", "kind"),
    ([{"id": "gold1", "cost": -1}], "card 'gold1'", "cost"),
    ([{"id": "fur_es", "good": "silk"}], "card 'fur_es'", "good"),
    ([{"id": "fur_es", "dest": "us"}], "card 'fur_es'", "dest"),
    ([{"id": "fur_es", "amount": 0}], "card 'fur_es'", "amount"),
    ([{"id": "ship_gb", "board": "bank"}], "card 'ship_gb'", "board"),
    ([{"id": "banker", "colour": "red"}], "card 'banker'", "colour"),
    ([{"id": "start_fur_es", "count": 2}], "card 'start_fur_es'", "count"),
    ([{"id": "fur_gb", "assumed": ["colour"]}], "card 'fur_gb'", "assumed"),
    ([{"id": "ship_gb2", "board": "docks", "kind": "ship", "dest": "gb"}], "card 'ship_gb2'", "kind"),
    ([{"id": "money4b", "board": "bank", "kind": "money", "value": 4}], "card 'money4b'", "kind"),
    ([{"id": "x_tower", "board": "guild", "kind": "building", "cost": 3, "vp": 1}], "card 'x_tower'", "en"),
    ([{"id": "goods", "board": "market", "kind": "goods", "good": "fur", "amount": 1, "cost": 1}], "card 'goods'",
     "id"),
    ([{"id": "Fur 9", "board": "market", "kind": "goods", "good": "fur", "amount": 1, "cost": 1}], "cards[", "id"),
    ([{"id": "fur9", "board": "market", "kind": "goods", "good": "fur", "cost": 1}], "card 'fur9'", "amount"),
])
def test_malformed_catalogues_are_rejected_naming_card_and_field(cards, where: str, field: str) -> None:
    with pytest.raises(sl.CatalogError) as info:
        load_catalog({"base": "default", "cards": cards})
    msg = str(info.value)
    assert where in msg and f"'{field}'" in msg, msg


@pytest.mark.parametrize(("data", "words"), [
    ({"base": "other"}, "base"),
    ({"base": "default", "remove": ["nothing"]}, "remove"),
    ({"base": "default", "setup": {"money": "lots"}}, "'money'"),
    ({"base": "default", "setup": {"current": {"2": 2}}}, "'current'"),
    ({"base": "default", "setup": {"bankers": {"2": [], "3": [2], "4": [3, 1], "5": [3, 1]}}}, "bankers.2"),
    ({"base": "default", "wild": 1}, "unknown field"),
    ({"base": "default", "goods": [{"id": "fur", "en": ""}]}, "'en'"),
])
def test_malformed_setup_sections_are_rejected(data, words: str) -> None:
    with pytest.raises(sl.CatalogError) as info:
        load_catalog(data)
    assert words in str(info.value)


def test_unreadable_files_are_catalog_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("cards = [", encoding="utf-8")
    with pytest.raises(sl.CatalogError, match="not valid TOML"):
        load_catalog(bad)
    with pytest.raises(sl.CatalogError, match="cannot be read"):
        load_catalog(tmp_path / "missing.json")
