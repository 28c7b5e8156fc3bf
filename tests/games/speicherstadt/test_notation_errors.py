"""Refusals name their rule in English and German and change nothing; the notation round-trips; events read well."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable
from importlib import resources

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.engine.i18n import messages
from speicherstadt_lab.games.speicherstadt import check_invariants
from tests.support.scenario import (
    GOODS,
    SEATS_DE,
    SEATS_EN,
    RandomPolicy,
    drive,
    events_of,
    passive,
    places,
    play,
    red_buys_three,
    refusal,
    stack_deck,
)


def demand() -> sl.GameState:
    return sl.new_game(players=4, deck=stack_deck(4))


def purchase() -> sl.GameState:
    return play(demand(), *places(0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 0, 1))


def loading_red() -> sl.GameState:
    """Red's loading turn: Tea Taster, contract_a1 (coffee + tea) and a ship with tea, saffron, carpet."""
    return red_buys_three(["tea_taster", "contract_a1", "ship_b1", "coffee_roaster", "spice_trader"],
                          ["tea", "saffron", "carpet"])


def loading_warehouse() -> sl.GameState:
    """Red owns the Warehouse and two ships: coffee, coffee, tea, tea, rubber, carpet on the dock."""
    return red_buys_three(["warehouse", "ship_b1", "ship_b2", "coffee_roaster", "spice_trader"],
                          ["coffee", "coffee", "tea", "tea", "rubber", "carpet"])


def game_over() -> sl.GameState:
    return drive(sl.new_game(players=5, seed=1), passive)


def edited(s: sl.GameState, change: Callable[[dict], None]) -> sl.GameState:
    d = json.loads(s.to_json())
    change(d)
    return sl.load_state(json.dumps(d))


def red_cannot_pay() -> sl.GameState:
    """Only a loaded state can ask a seat that cannot pay (the engine passes such seats by itself)."""
    s = purchase()
    assert s.to_move == 0 and s.price(0) == 3

    def broke(d: dict) -> None:
        d["seats"][0]["coins"] = 2

    return edited(s, broke)


def red_pointless_hall() -> sl.GameState:
    """A loaded state: Red to load with only a saffron in the hall, which nothing could use."""
    s = loading_red()

    def hall_only(d: dict) -> None:
        d["bag"].extend(d["dock"])
        d["dock"] = []
        d["bag"].remove("saffron")
        d["seats"][0]["hall"] = ["saffron"]

    return edited(s, hall_only)


def fill_hall(s: sl.GameState) -> sl.GameState:
    return s.apply("keep carpet")


def fill_warehouse(s: sl.GameState) -> sl.GameState:
    return play(s, "store coffee", "store coffee", "store tea", "store tea")


# (rule, state factory, action): every refusal the rules know, with one action that triggers it.
CASES: list[tuple[str, Callable[[], sl.GameState], object]] = [
    ("notation", demand, "plce 2"),
    ("notation", demand, "convert tea"),
    ("notation", demand, "place x"),
    ("notation", demand, "place -1"),
    ("notation", demand, ""),
    ("notation", demand, "place"),
    ("notation", demand, "place 1 2"),
    ("notation", loading_red, "sell gold"),
    ("notation", loading_red, "take tea attic"),
    ("notation", loading_red, "contract tea first"),
    ("notation", loading_red, "convert tea saffron carpet into coffee"),
    ("notation", demand, 5),
    ("notation", demand, None),
    ("over", game_over, "done"),
    ("over", game_over, "place 0"),
    ("phase", demand, "buy"),
    ("phase", demand, "done"),
    ("phase", purchase, "place 0"),
    ("phase", loading_red, "pass"),
    ("not_available", demand, sl.Action("reserve", (1,))),
    ("demand_space", demand, "place 5"),
    ("demand_full", lambda: play(demand(), *places(*[2] * 8)), "place 2"),
    ("dock", loading_red, "keep coffee"),
    ("dock", loading_red, "hallsell tea tea"),
    ("dock", lambda: loading_red().apply("sell tea"), "convert saffron carpet carpet to tea"),
    ("contract_missing", loading_red, "contract tea 1"),
    ("contract_good", loading_red, "contract carpet 0"),
    ("merchant", loading_red, "sell carpet"),
    ("no_warehouse", loading_red, "store tea"),
    ("warehouse_full", lambda: fill_warehouse(loading_warehouse()), "store rubber"),
    ("hall_full", lambda: fill_hall(loading_red()), "keep tea"),
    ("undo", lambda: loading_warehouse().apply("store coffee"), "take coffee warehouse"),
    ("undo", lambda: loading_red().apply("keep tea"), "take tea hall"),
    ("not_stored", loading_red, "take tea hall"),
    ("not_stored", loading_red, "take tea warehouse"),
    ("convert_other", loading_red, "convert tea saffron carpet to tea"),
    ("convert_stock", loading_red, "convert tea saffron carpet to coffee"),
]


@pytest.mark.parametrize(("rule", "make", "action"), CASES, ids=[f"{r}:{a}" for r, _, a in CASES])
def test_refusal_names_its_rule_in_english_and_german_and_changes_nothing(rule: str, make, action) -> None:
    s = make()
    before = s.to_json()
    legal_before = [str(a) for a in s.legal_actions()]
    with pytest.raises(sl.IllegalAction) as info:
        s.apply(action)
    err = info.value
    assert isinstance(err, ValueError)
    assert err.rule == rule
    en, de = str(err), s.explain(err, "de")
    assert en and de and en != de
    if isinstance(action, str | sl.Action):
        # (For a non-text argument the raised message quotes it differently; noted in the report.)
        assert s.explain(err, "en") == en
        assert en == messages.text("rule", rule, "en", err.params, s)
    for text in (en, de):
        assert not re.search(r"\{\w+(\|[^}]*)?\}", text), text  # every placeholder filled
        assert "seat" not in text.lower().split()  # seats appear by name, not number
    # Nothing changed.
    assert s.to_json() == before
    assert [str(a) for a in s.legal_actions()] == legal_before
    if isinstance(action, str):
        assert " ".join(action.lower().split()) not in legal_before  # a refused action is never listed


# Rules whose refusal no loadable state can reach: the state invariants reject every state that would offer them.
GUARDED_BY_INVARIANTS = {"purchase_price": red_cannot_pay, "pointless_take": red_pointless_hall}


def test_every_rule_with_a_message_has_a_refusal_case() -> None:
    """Each ``[rule.*]`` text of Die Speicherstadt is exercised above (a new rule needs a new case)."""
    text = resources.files("speicherstadt_lab.data").joinpath("messages", "speicherstadt.toml").read_text("utf-8")
    assert {r for r, _, _ in CASES} | set(GUARDED_BY_INVARIANTS) == set(tomllib.loads(text)["rule"])


@pytest.mark.parametrize("rule", sorted(GUARDED_BY_INVARIANTS))
def test_states_that_would_reach_a_defensive_refusal_do_not_load(rule: str) -> None:
    """A seat asked to buy what it cannot pay, or to load with nothing it could do, is an inconsistent state."""
    with pytest.raises(sl.RecordError, match="inconsistent"):
        GUARDED_BY_INVARIANTS[rule]()


def test_loaded_state_never_lists_a_refused_buy() -> None:
    """A seat that cannot pay is never asked in play; a loaded state asking it must be rejected or not list 'buy'.

    (Found by this test: ``load_state`` used to accept such a state and list ``buy``; the invariants now reject it.)
    """
    s = purchase()
    d = json.loads(s.to_json())
    d["seats"][0]["coins"] = 2
    try:
        loaded = sl.load_state(json.dumps(d))
    except sl.RecordError:
        return
    assert check_invariants(loaded) or "buy" not in [str(a) for a in loaded.legal_actions()]


def test_refusal_texts_name_the_specifics() -> None:
    s = loading_red()
    e = refusal(s, "plce 2")
    assert str(e).startswith(
        "Notation: 'plce 2' is not an action (unknown verb 'plce'; verbs are buy, pass, done, place")
    assert s.explain(e, "de").startswith("Notation: 'plce 2' ist keine Aktion")
    e = refusal(s, "contract tea 1")
    assert str(e) == ("Loading: there is no contract 1; you own 1 contract, numbered from 0 in order of purchase.")
    assert s.explain(e, "de") == ("Verladung: es gibt keinen Auftrag 1; du hast 1 Auftrag, gezählt ab 0 in "
                                  "Kaufreihenfolge.")
    e = refusal(s, "buy")
    assert str(e) == "Phases: 'buy' belongs to the purchase phase, but the game is in the loading phase."
    e = refusal(s, "take coffee hall")
    assert str(e) == "Loading: there is no coffee in your market hall."
    assert s.explain(e, "de") == "Verladung: in deinem Speicher (Markthalle) liegt kein Kaffee."


def test_legal_actions_are_accepted_and_illegal_ones_refused_consistently() -> None:
    """Whatever is listed is applied; every well-formed action not listed is refused (a random game)."""
    s = sl.new_game(players=3, seed=12)
    policy = RandomPolicy(12)
    probes = ["place 0", "place 3", "place 4", "buy", "pass", "done",
              *(f"{v} {g}" for v in ("sell", "store", "keep") for g in GOODS),
              *(f"contract {g} {k}" for g in GOODS for k in (0, 1)),
              *(f"take {g} {p}" for g in GOODS for p in ("warehouse", "hall")),
              "hallsell tea tea", "hallsell coffee carpet", "convert tea tea tea to coffee",
              "convert coffee saffron rubber to carpet"]
    checked = 0
    while not s.is_over:
        listed = {str(a) for a in s.legal_actions()}
        assert len(listed) >= 2 and s.to_move is not None
        for text in listed:
            s.apply(text)  # every listed action is accepted
        for text in probes:
            if text in listed:
                continue
            with pytest.raises(sl.IllegalAction):
                s.apply(text)
            checked += 1
        s = s.apply(policy(s))
    assert checked > 1000


# ---- notation round trip ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_str_and_parse_round_trip_for_every_legal_action(players: int) -> None:
    seen: list[sl.GameState] = []
    drive(sl.new_game(players=players, seed=40 + players), RandomPolicy(players), seen=seen, check=True)
    kinds = set()
    for k, s in enumerate(seen):
        for a in s.legal_actions():
            text = str(a)
            kinds.add(a.kind)
            assert text == " ".join(text.split()) and text == text.lower()
            assert s.parse_action(text) == a and str(s.parse_action(text)) == text
            shouty = "  " + "   ".join(text.upper().split()) + " "
            assert s.parse_action(shouty) == a
            assert str(s.parse_action(shouty)) == text
        if k % 7 == 0 and s.legal_actions():
            a = s.legal_actions()[-1]
            assert s.apply(str(a).upper()) == s.apply(a)
    assert {"place", "buy", "pass", "done"} <= kinds
    assert len(kinds) >= 7


def test_goods_in_convert_and_hallsell_are_written_in_canonical_order() -> None:
    s = loading_red()
    assert s.parse_action("convert carpet saffron tea to coffee") == s.parse_action(
        "convert tea saffron carpet to coffee")
    assert str(s.parse_action("convert CARPET saffron   tea to coffee")) == "convert tea saffron carpet to coffee"
    assert str(s.parse_action("hallsell carpet tea")) == "hallsell tea carpet"
    assert "hallsell tea carpet" in [str(a) for a in s.legal_actions()]
    assert s.apply("hallsell carpet tea") == s.apply("hallsell tea carpet")


# ---- events ---------------------------------------------------------------------------------------------------------


def test_state_keeps_the_events_of_the_transition_that_produced_it() -> None:
    s0 = demand()
    s1 = s0.apply("place 0")
    s2 = s1.apply("place 0")
    assert [e.key for e in s1.events] == ["place"] and s1.events[0].args["seat"] == 0
    assert [e.key for e in s2.events] == ["place"] and s2.events[0].args["seat"] == 1
    assert s1.events[0].args["seat"] == 0  # unchanged by the later apply
    assert s1.last_action == "place 0" and s0.last_action is None
    assert [e.key for e in s0.events][:1] == ["round"]
    # Events survive the JSON round trip.
    assert sl.load_state(s2.to_json()).events == s2.events


def test_event_texts_in_english_and_german() -> None:
    s = purchase()
    assert s.to_move == 0 and s.workers[0] == (0, 1, 2)
    s = s.apply("pass")
    assert s.event_texts() == ["Red passes on the Coffee Roaster; the price drops to 2."]
    s = s.apply("buy")
    assert s.event_texts() == ["Blue pays 2 coins for the Coffee Roaster."]
    assert s.event_texts("de") == ["Blau zahlt 2 Münzen für Kaffeeröster."]
    s = s.apply("buy")
    assert s.event_texts()[0] == "Green pays 3 coins for the Tea Taster."
    for seat in range(4):
        assert s.describe(sl.Event("income", {"seat": seat, "coins": 1}), "en") == \
            f"{SEATS_EN[seat]} receives 1 coin of income."
        assert s.describe(sl.Event("income", {"seat": seat, "coins": 2}), "de") == \
            f"{SEATS_DE[seat]} erhält 2 Münzen Einkommen."
    fire = sl.Event("fire", {"card": "fire_1", "strength": 2, "seats_plus": [1], "seats_minus": [2, 3],
                             "sums": [1, 3, 0, 0]})
    assert s.describe(fire) == "1st Fire (2): Blue +2, Green and Yellow −2."
    assert s.describe(fire, "de") == "1. Brand (2): Blau +2, Grün und Gelb −2."
    with pytest.raises(ValueError):
        s.describe(fire, "fr")


def test_custom_seat_names_appear_in_events_and_refusals() -> None:
    s = sl.new_game(players=2, seed=3, names=["Ada", "Bruno"])
    s = play(s, *places(0, 0, 1, 1, 2, 2))
    assert s.event_texts()[-1].startswith("Bruno places a worker")
    s = s.apply("pass")
    assert s.event_texts() == [f"Ada passes on the {s.card_name(s.offer[0])}; the price drops to 1."]
    assert events_of(s, "pass")[0]["seat"] == 0


def test_every_event_of_random_games_has_english_and_german_text() -> None:
    keys = set()
    for players in (2, 4):
        seen: list[sl.GameState] = []
        drive(sl.new_game(players=players, seed=players), RandomPolicy(100 + players), seen=seen)
        for s in seen:
            for ev in s.events:
                keys.add(ev.key)
                en, de = s.describe(ev, "en"), s.describe(ev, "de")
                assert en and de
                assert not re.search(r"[{}]", en + de)
                assert "[" not in en and "'" not in en.replace("'s", "")
    assert {"round", "supply", "place", "buy", "pass", "income", "metal_coin", "final", "game_over"} <= keys
