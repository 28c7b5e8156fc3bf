"""The board model (state → what the view draws) and click validation, without any widget library."""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.ui.model import (
    KINDS,
    ClickError,
    board_model,
    card_text,
    click_to_action,
    highlight,
    ink,
    short_labels,
)
from tests.support.clicks import KAISPEICHER_CLICKS
from tests.support.models import all_texts
from tests.support.scenario import RandomPolicy, drive, passive, play, red_buys_three

BRACES = re.compile(r"[{}]")


def purchase_state() -> sl.GameState:
    s = sl.new_game(players=4, seed=7)
    return drive(s, passive, until=lambda x: x.phase == "purchase")


def loading_state() -> sl.GameState:
    """Red owns the Warehouse and a coffee+tea contract; coffee, tea, carpet on the dock; the stock holds
    saffron and rubber (from an unsold ship), so the market hall can convert."""
    return red_buys_three(["warehouse", "contract_a1", "ship_b1", "ship_b2"],
                          ["coffee", "tea", "carpet", "saffron", "rubber", "rubber"])


def merchant_state() -> sl.GameState:
    return red_buys_three(["coffee_roaster", "contract_a1", "ship_b1"], ["coffee", "tea", "carpet"])


def over_state() -> sl.GameState:
    return drive(sl.new_game(players=3, seed=5), passive)


# ---- every phase -----------------------------------------------------------------------------------


def test_demand_model() -> None:
    s = sl.new_game(players=4, seed=7)
    m = board_model(s)
    assert m["phase"] == "demand" and m["round"] == 1 and m["to_move"] == 0 and m["can_act"]
    assert [p["current"] for p in m["phases"]] == [True, False, False]
    assert len(m["spaces"]) == len(s.offer) == 5
    assert [sp["card"]["id"] for sp in m["spaces"]] == list(s.offer)
    assert all(sp["legal"] and sp["price"] == 0 and sp["slots"] == 8 for sp in m["spaces"])
    assert m["legal"] == [str(a) for a in s.legal_actions()]
    assert m["prompt"].startswith("Red: place a worker")
    assert m["pile"]["count"] == len(s.pile)
    assert {x["season"]: x["count"] for x in m["pile"]["seasons"] if x["count"]} == s.view(None)["pile"]["by_season"]
    assert [f["id"] for f in m["pile"]["fires"]] == ["fire_1", "fire_2", "fire_3", "fire_4"]
    assert [f["strength"] for f in m["pile"]["fires"]] == [2, 3, 4, 5]
    assert m["bag"] == len(s.bag) == 45 and "pile" not in json.dumps(m["bag"])
    assert [x["count"] for x in m["stock"]] == list(s.stock)
    assert m["discard"] == {"count": 0, "label": "0 cards", "last": None}
    assert m["dock"] is None
    seats = m["seats"]
    assert [x["name"] for x in seats] == ["Red", "Blue", "Green", "Yellow"]
    assert [x["first"] for x in seats] == [True, False, False, False]
    assert [x["to_move"] for x in seats] == [True, False, False, False]
    assert all(x["coins"] == 5 and x["score"] == 0 and x["hall"]["cap"] == 1 for x in seats)
    assert len({x["colour"] for x in seats}) == 4 and len({x["shape"] for x in seats}) == 4
    json.dumps(m)  # JSON-ready


def test_demand_workers_and_prices_follow_the_state() -> None:
    s = play(sl.new_game(players=4, seed=7), "place 2", "place 2", "place 0")
    m = board_model(s)
    assert m["spaces"][2]["workers"] == [0, 1] and m["spaces"][2]["price"] == 2
    assert m["spaces"][0]["workers"] == [2] and m["spaces"][0]["price_label"] == "price 1"
    assert "Red, Blue" in m["spaces"][2]["title"]
    assert m["to_move"] == 3 and m["prompt"].startswith("Yellow")


def test_full_column_is_not_legal() -> None:
    s = play(sl.new_game(players=4, seed=7), *["place 1"] * 8)
    m = board_model(s)
    assert m["spaces"][1]["workers"] == [0, 1, 2, 3, 0, 1, 2, 3]
    assert not m["spaces"][1]["legal"] and "place 1" not in m["legal"]
    assert m["spaces"][0]["legal"]


def test_purchase_model() -> None:
    s = purchase_state()
    m = board_model(s)
    sp = s.space
    assert m["phase"] == "purchase" and [p["current"] for p in m["phases"]] == [False, True, False]
    assert m["legal"] == ["buy", "pass"]
    cur = [x for x in m["spaces"] if x["current"]]
    assert len(cur) == 1 and cur[0]["index"] == sp
    assert cur[0]["decider"] == s.workers[sp][0] == s.to_move
    assert cur[0]["buy_label"] == f"Buy for {s.price(sp)}"
    assert not any(x["legal"] for x in m["spaces"])
    assert m["prompt"] == (f"{s.seat_name(s.to_move)}: buy the {s.cat.card(s.offer[sp]).en} for {s.price(sp)} "
                           f"coin{'s' if s.price(sp) != 1 else ''}, or pass.")


def test_loading_model() -> None:
    s = loading_state()
    m = board_model(s)
    assert m["phase"] == "loading" and m["to_move"] == 0
    assert all(x["card"] is None for x in m["spaces"][:3])
    dock = m["dock"]
    assert dock["seat"] == 0 and dock["label"] == "Dock of Red"
    assert dock["goods"] == ["coffee", "tea", "carpet"]
    assert dock["moves"]["coffee"] == ["contract coffee 0", "store coffee", "keep coffee"]
    assert dock["moves"]["carpet"] == ["store carpet", "keep carpet"]
    assert sorted(t for ts in dock["moves"].values() for t in ts) == sorted(
        t for t in m["legal"] if t.split()[0] in ("contract", "sell", "store", "keep"))
    assert "convert coffee tea carpet to saffron" in dock["convert"]
    assert "convert coffee tea carpet to coffee" not in dock["convert"]
    assert len(dock["hallsell"]) == 3 and dock["take"] == []
    red = m["seats"][0]
    assert red["loading"] and red["warehouse"] == {"has": True, "cap": 4, "goods": []}
    (contract,) = red["contracts"]
    assert contract["card"]["id"] == "contract_a1" and contract["vp"] == 5 and not contract["done"]
    assert contract["slots"] == [{"good": "coffee", "filled": False}, {"good": "tea", "filled": False}]
    kinds = {g["kind"]: [c["id"] for c in g["cards"]] for g in red["groups"]}
    assert kinds == {"warehouse": ["warehouse"], "ship": ["ship_b1"]}
    assert m["seats"][1]["warehouse"]["has"] is False
    assert [x["count"] for x in m["stock"]] == [0, 0, 1, 2, 0]


def test_loading_model_after_moves() -> None:
    s = play(loading_state(), "contract coffee 0", "store tea")
    m = board_model(s)
    red = m["seats"][0]
    assert red["contracts"][0]["slots"] == [{"good": "coffee", "filled": True}, {"good": "tea", "filled": False}]
    assert red["warehouse"]["goods"] == ["tea"]
    assert m["dock"]["goods"] == ["carpet"]
    assert m["dock"]["moves"] == {"carpet": [t for t in m["legal"] if t.endswith(" carpet")]}
    s = play(loading_state(), "contract coffee 0", "contract tea 0")
    red = board_model(s)["seats"][0]
    assert red["contracts"][0]["done"] and red["score"] == s.score(0) == 5
    assert ["contracts", 5] in red["breakdown"]


def test_loading_model_offers_taking_stored_cubes_back() -> None:
    policy = RandomPolicy(3)
    s = drive(sl.new_game(players=3, seed=2), policy,
              until=lambda x: any(a.kind == "take" for a in x.legal_actions()))
    m = board_model(s)
    takes = [str(a) for a in s.legal_actions() if a.kind == "take"]
    assert takes and m["dock"]["take"] == takes
    good, place = takes[0].split()[1:]
    assert m["dock"]["take_labels"][takes[0]] == f"Take {good} back onto the dock"
    seat = m["seats"][s.to_move]
    assert good in seat[place]["goods"]


def test_loading_merchant_and_unloading_seats() -> None:
    s = merchant_state()
    m = board_model(s)
    assert "sell coffee" in m["dock"]["moves"]["coffee"]
    merchants = [g for g in m["seats"][0]["groups"] if g["kind"] == "merchant"]
    assert merchants[0]["cards"][0]["good"] == "coffee"
    assert merchants[0]["label"] == "Merchants"


def test_over_model() -> None:
    s = over_state()
    m = board_model(s)
    assert s.is_over and m["phase"] == "over" and not m["can_act"] and m["legal"] == []
    assert m["phases"] == [{"id": "over", "name": "game over", "current": True}]
    winners = s.winners()
    assert [x["winner"] for x in m["seats"]] == [i in winners for i in range(3)]
    assert m["prompt"].startswith("The game is over. Winner:")
    assert [x["score"] for x in m["seats"]] == [s.score(i) for i in range(3)]
    assert m["dock"] is None and m["pile"]["fires"] == []
    ranking = m["ranking"]
    assert [r["seat"] for r in ranking][: len(winners)] == sorted(winners) and ranking[0]["rank"] == 1
    assert [r["rank"] for r in ranking] == sorted(s.ranks())
    assert ranking[0]["label"] == f"{s.score(ranking[0]['seat'])} points, {s.coins[ranking[0]['seat']]} " + (
        "coin" if s.coins[ranking[0]["seat"]] == 1 else "coins")
    assert board_model(sl.new_game(players=3, seed=5))["ranking"] is None
    assert m["discard"]["count"] == len(s.discard) and m["discard"]["last"] is not None


# ---- seat, language, texts ---------------------------------------------------------------------


def test_seat_that_is_not_to_move_sees_nothing_legal() -> None:
    s = sl.new_game(players=4, seed=7)
    m = board_model(s, seat=2)
    assert not m["can_act"] and m["legal"] == [] and not any(x["legal"] for x in m["spaces"])
    assert m["prompt"] == "Waiting for Red." and m["viewer"] == 2
    assert board_model(s, seat=0)["can_act"]
    with pytest.raises(ValueError, match="seat"):
        board_model(s, seat=4)


def test_language_switch() -> None:
    s = loading_state()
    en, de = board_model(s, "en"), board_model(s, "de")
    assert en["labels"]["warehouse"] == "Warehouse" and de["labels"]["warehouse"] == "Lager"
    assert de["round_label"] == "Runde 1" and de["dock"]["label"] == "Kai von Rot"
    assert [x["name"] for x in de["seats"]] == ["Rot", "Blau", "Grün", "Gelb"]
    assert [g["name"] for g in de["goods"]] == ["Kaffee", "Tee", "Safran", "Kautschuk", "Teppich"]
    assert de["seats"][0]["contracts"][0]["card"]["name"] == "Auftrag"
    assert de["prompt"].startswith("Rot: verlade")
    assert de["legal"] == en["legal"]  # notation never changes with the language
    for m in (en, de):
        leftovers = [t for t in all_texts(m) if BRACES.search(t)]
        assert not leftovers
    with pytest.raises(ValueError, match="language"):
        board_model(s, "fr")


def test_short_labels_tell_seats_and_goods_apart_in_both_languages() -> None:
    assert short_labels(["Rot", "Blau", "Grün", "Gelb", "Lila"]) == ["R", "B", "Gr", "Ge", "L"]
    assert len(set(short_labels(["Kaffee", "Tee", "Safran", "Kautschuk", "Teppich"]))) == 5
    assert len(set(short_labels(["coffee", "tea", "saffron", "rubber", "carpet"]))) == 5
    assert len(set(short_labels(["Ann", "Ann", "Bob"]))) == 3


def test_ink_reads_on_its_colour() -> None:
    assert ink("#000000") == "#ffffff" and ink("#ffffff") == "#1d1a16"
    assert ink("#E6B800") == "#1d1a16"  # dark text on the yellow seat
    assert ink("#0072B2") == "#ffffff"


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_card_has_an_effect_text(lang: str) -> None:
    s = sl.new_game(players=5, seed=1)
    for card in s.cat.cards:
        text = card_text(s, card.id, lang)
        assert text and not BRACES.search(text), (card.id, text)
    assert "coffee" in card_text(s, "coffee_roaster") and "Kaffee" in card_text(s, "coffee_roaster", "de")
    assert "11 points" in card_text(s, "contract_b3")
    assert "coffee, tea, rubber and carpet" in card_text(s, "contract_b3")
    assert "2/5/9/14" in card_text(s, "counting_office_a")
    assert "worth 5" in card_text(s, "fireman_d5")
    assert "1 extra coin" in card_text(s, "bank")


# ---- the log and the highlight -------------------------------------------------------------------


def test_log_newest_first_with_actors() -> None:
    s0 = sl.new_game(players=4, seed=7)
    s1 = s0.apply("place 1")
    s2 = s1.apply("place 3")
    m = board_model(s2, log=[s0, s1])
    actions = [e["action"] for e in m["log"]]
    assert actions == ["place 3", "place 1", None]
    assert [e["actor"] for e in m["log"]] == [1, 0, None]
    assert m["log"][0]["newest"] and not m["log"][1]["newest"]
    assert m["log"][0]["texts"] == s2.event_texts("en")
    assert board_model(s2, "de", log=[s0, s1])["log"][0]["texts"] == s2.event_texts("de")


def test_highlight_of_a_placement_and_a_purchase() -> None:
    s0 = sl.new_game(players=4, seed=7)
    s1 = s0.apply("place 3")
    h = highlight(s1, s0)
    assert h == {"action": "place 3", "actor": 0, "spaces": [3], "seats": [0], "cards": [], "events": ["place"]}
    s = purchase_state()
    sp, buyer, card = s.space, s.to_move, s.offer[s.space]
    after = s.apply("buy")
    h = highlight(after, s)
    assert h["action"] == "buy" and h["actor"] == buyer
    assert sp in h["spaces"] and card in h["cards"] and buyer in h["seats"]
    assert highlight(s0)["action"] is None


# ---- clicks --------------------------------------------------------------------------------------


VALID = [
    ({"kind": "act", "verb": "place", "args": {"space": 2}}, "place 2"),
    ({"kind": "act", "verb": "buy", "args": {}}, "buy"),
    ({"kind": "act", "verb": "pass", "args": {}}, "pass"),
    ({"kind": "act", "verb": "done", "args": {}}, "done"),
    ({"kind": "act", "verb": "contract", "args": {"good": "coffee", "index": 0}}, "contract coffee 0"),
    ({"kind": "act", "verb": "sell", "args": {"good": "tea"}}, "sell tea"),
    ({"kind": "act", "verb": "store", "args": {"good": "carpet"}}, "store carpet"),
    ({"kind": "act", "verb": "keep", "args": {"good": "saffron"}}, "keep saffron"),
    ({"kind": "act", "verb": "take", "args": {"good": "rubber", "source": "warehouse"}}, "take rubber warehouse"),
    ({"kind": "act", "verb": "take", "args": {"good": "rubber", "source": "hall"}}, "take rubber hall"),
    ({"kind": "act", "verb": "convert", "args": {"goods": ["coffee", "tea", "carpet"], "to": "saffron"}},
     "convert coffee tea carpet to saffron"),
    ({"kind": "act", "verb": "hallsell", "args": {"goods": ["tea", "carpet"]}}, "hallsell tea carpet"),
    ({"kind": "act", "verb": "place", "args": {"space": 2.0}}, "place 2"),
]


@pytest.mark.parametrize(("msg", "text"), VALID, ids=[t for _, t in VALID])
def test_click_to_action(msg: dict, text: str) -> None:
    s = sl.new_game(players=4, seed=7)
    assert click_to_action(s, msg) == text
    s.parse_action(text)  # always well-formed notation


def test_every_kind_has_a_valid_example() -> None:
    assert {m["verb"] for m, _ in VALID} | {m["verb"] for m, _ in KAISPEICHER_CLICKS} == set(KINDS)


BOGUS = [
    ("not a dict", "not_object", None),
    (["place", 1], "not_object", None),
    ({}, "kind", None),
    ({"kind": "fly"}, "kind", None),
    ({"kind": 3}, "kind", None),
    ({"kind": None}, "kind", None),
    ({"kind": "place", "space": 2}, "kind", None),  # the flat shape of before: an action is {kind: "act", verb, args}
    ({"kind": "act", "args": {"space": 2}}, "missing", "verb"),
    ({"kind": "act", "verb": "place"}, "missing", "args"),
    ({"kind": "act", "verb": "fly", "args": {}}, "verb", "verb"),
    ({"kind": "act", "verb": ["place"], "args": {}}, "verb", "verb"),
    ({"kind": "act", "verb": "choose", "args": {"board": "docks"}}, "verb", "verb"),  # Packet Row's verb
    ({"kind": "act", "verb": "place", "args": [2]}, "args", "args"),
    ({"kind": "act", "verb": "place", "args": None}, "args", "args"),
    ({"kind": "act", "verb": "place", "args": {"space": 2}, "space": 2}, "extra", "space"),
    ({"kind": "act", "verb": "place", "args": {}}, "missing", "space"),
    ({"kind": "act", "verb": "place", "args": {"space": "2"}}, "int", "space"),
    ({"kind": "act", "verb": "place", "args": {"space": -1}}, "int", "space"),
    ({"kind": "act", "verb": "place", "args": {"space": 10**30}}, "int", "space"),
    ({"kind": "act", "verb": "place", "args": {"space": math.nan}}, "int", "space"),
    ({"kind": "act", "verb": "place", "args": {"space": math.inf}}, "int", "space"),
    ({"kind": "act", "verb": "place", "args": {"space": 1.5}}, "int", "space"),
    ({"kind": "act", "verb": "place", "args": {"space": True}}, "int", "space"),
    ({"kind": "act", "verb": "place", "args": {"space": None}}, "int", "space"),
    ({"kind": "act", "verb": "place", "args": {"space": 1, "junk": 1}}, "extra", "junk"),
    ({"kind": "act", "verb": "buy", "args": {"price": 0}}, "extra", "price"),
    ({"kind": "act", "verb": "contract", "args": {"good": "coffee"}}, "missing", "index"),
    ({"kind": "act", "verb": "contract", "args": {"good": "gold", "index": 0}}, "good", "good"),
    ({"kind": "act", "verb": "contract", "args": {"good": "coffee", "index": [0]}}, "int", "index"),
    ({"kind": "act", "verb": "sell", "args": {"good": 5}}, "good", "good"),
    ({"kind": "act", "verb": "sell", "args": {"good": "COFFEE"}}, "good", "good"),
    ({"kind": "act", "verb": "store", "args": {"good": "coffee warehouse"}}, "good", "good"),
    ({"kind": "act", "verb": "take", "args": {"good": "tea", "source": "bag"}}, "choice", "source"),
    ({"kind": "act", "verb": "take", "args": {"good": "tea", "source": ["hall"]}}, "choice", "source"),
    ({"kind": "act", "verb": "convert", "args": {"goods": ["coffee", "tea"], "to": "carpet"}}, "list", "goods"),
    ({"kind": "act", "verb": "convert", "args": {"goods": "coffee tea carpet", "to": "saffron"}}, "list", "goods"),
    ({"kind": "act", "verb": "convert", "args": {"goods": ["coffee", "tea", 7], "to": "saffron"}}, "good", "goods"),
    ({"kind": "act", "verb": "convert", "args": {"goods": ["coffee", "tea", "carpet"], "to": None}}, "good", "to"),
    ({"kind": "act", "verb": "hallsell", "args": {"goods": ["tea", "tea", "tea"]}}, "list", "goods"),
    ({"kind": "act", "verb": "hallsell", "args": {"goods": {"a": 1}}}, "list", "goods"),
]


@pytest.mark.parametrize(("msg", "key", "field"), BOGUS, ids=[repr(m)[:40] for m, _, _ in BOGUS])
def test_bogus_clicks_are_refused_naming_the_field(msg: object, key: str, field: str | None) -> None:
    s = sl.new_game(players=4, seed=7)
    with pytest.raises(ClickError) as info:
        click_to_action(s, msg)
    err = info.value
    assert err.key == key
    for lang in ("en", "de"):
        text = err.text(lang, s)
        assert text.startswith("Board:" if lang == "en" else "Brett:")
        if field is not None:
            assert f"'{field}'" in text
    assert len(str(err)) < 300  # huge values are shortened, not echoed


def test_model_imports_without_the_widget_stack() -> None:
    code = ("import sys, speicherstadt_lab.ui, speicherstadt_lab.ui.model; "
            "print(sorted(m for m in ('ipywidgets', 'anywidget', 'traitlets') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("game", ["speicherstadt", "packet_row"])
def test_the_seats_colours_are_the_games_declared_palette(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """One palette: the boards' tokens take ``GameInfo.seat_colours`` (the charts' and the move list's too), so a
    game that declares other colours gets them on its board, with a readable ink on each."""
    import dataclasses

    from speicherstadt_lab.engine import protocol
    from speicherstadt_lab.ui import model as ui_model
    from speicherstadt_lab.ui.packet_row_model import board_model as packet_row_model

    state = sl.new_game(game, players=4, seed=3)
    build = board_model if game == "speicherstadt" else packet_row_model
    declared = protocol.get_game(game).seat_colours
    assert [s["colour"] for s in build(state)["seats"]] == list(declared[:4])
    palette = ("#000000", "#ffffff", "#123456")
    info = dataclasses.replace(protocol.get_game(game), seat_colours=palette)
    monkeypatch.setattr(ui_model, "get_game", lambda name: info)
    seats = build(state)["seats"]
    assert [s["colour"] for s in seats] == ["#000000", "#ffffff", "#123456", "#000000"]
    assert [s["ink"] for s in seats[:2]] == ["#ffffff", "#1d1a16"]
