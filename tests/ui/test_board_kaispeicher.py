"""The board view with the Kaispeicher expansion: model content of every expansion step, and its clicks."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.games.speicherstadt.setup import game_cards
from speicherstadt_lab.ui import Board
from speicherstadt_lab.ui.clicks import act_message
from speicherstadt_lab.ui.model import ClickError, board_model, click_to_action, highlight
from tests.support.clicks import KAISPEICHER_CLICKS
from tests.support.models import all_texts
from tests.support.scenario import play

CAT = sl.default_catalog()
KAI = "kaispeicher"
BRACES = re.compile(r"[{}]")


# ---- scenarios: a stacked deck, and holdings rigged through to_dict/load_state ---------------------------


def kai_deck(players: int, top: Sequence[str] = (), *, fire_at: int | None = None) -> list[str]:
    """A legal expansion pile: ``top`` first (water spaces, then the top row), the rest in catalogue order.

    Every fire goes to the bottom (before the 4th), unless ``fire_at`` puts the 1st fire at that position.
    """
    idx, _ = game_cards(CAT, players, KAI)
    legal = [CAT.cards[i].id for i in idx]
    final = [c for c in legal if CAT.card(c).season == "E"]
    rest = list((Counter(legal) - Counter([*top, *final])).elements())
    rest.sort(key=legal.index)
    fires = [c for c in rest if CAT.card(c).kind == "fire"]
    middle = [c for c in rest if c not in fires]
    pile = [*top, *middle]
    if fire_at is not None:
        pile.insert(fire_at, fires.pop(0))
    return [*pile, *fires, *final]


def rig(state: Any, seat: int, *, cards: Sequence[str] = (), contracts: Sequence[tuple[str, Sequence[str]]] = (),
        unload: Sequence[str] = (), coins: int | None = None, breaks: int | None = None,
        grey: int | None = None) -> Any:
    """``state`` with extra holdings for ``seat`` (cards from the pile, cubes from the bag)."""
    d = json.loads(state.to_json())
    s = d["seats"][seat]
    for cid in [*cards, *(c for c, _ in contracts)]:
        d["pile"].remove(cid)
        s["cards"].append(cid)
    for cid, goods in contracts:
        s["contracts"].append([cid, list(goods)])
    for g in [*(g for _, gs in contracts for g in gs), *unload]:
        d["bag"].remove(g)
    s["unload"] = sorted([*s["unload"], *unload], key=list(state.goods).index)
    for key, value in (("coins", coins), ("breaks", breaks), ("grey", grey)):
        if value is not None:
            s[key] = value
    return sl.load_state(json.dumps(d))


def quiet(state: Any) -> str:
    """Nobody buys or uses a special card: workers on the emptiest water space, pass, done."""
    legal = [str(a) for a in state.legal_actions()]
    if state.phase == "demand":
        places = [int(t.split()[1]) for t in legal if t.startswith("place ")]
        if places:
            return f"place {min(places, key=lambda i: (len(state.workers[i]), i))}"
        return "stop" if "stop" in legal else legal[0]
    if state.phase == "loading":
        return "done"
    return "pass"


def until(state: Any, goal: Any, policy: Any = quiet, steps: int = 500) -> Any:
    for _ in range(steps):
        if goal(state):
            return state
        state = state.apply(policy(state))
    raise AssertionError(f"goal not reached: {state!r}")


WATER = ["tailor", "fireman_k1", "counting_office_a", "spice_trader", "tea_taster"]
TOP = ["fireman_a2", "coffee_roastery", "lighthouse", "playhouse", "ship2_b"]


def demand_state() -> Any:
    """4 players; Red holds the Coffee Break (2 break cards), Blue the Warehouse Workers (2 grey workers)."""
    s = sl.new_game(players=4, expansion=KAI, deck=kai_deck(4, [*WATER, *TOP]))
    s = rig(s, 0, cards=["coffee_break"], breaks=2)
    return rig(s, 1, cards=["warehouse_workers"], grey=2)


def grey_state() -> Any:
    """Blue has placed its four workers and one grey worker; Blue places its second grey worker next."""
    s = play(demand_state(), "reserve 1", "reserve 4", "place 0", "place 1", "break")
    return until(s, lambda x: x.phase == "demand" and x.to_move == 1 and x.seats[1].grey == 1
                 and any(w >= 8 for c in x.columns for w in c))


def spy_state() -> Any:
    s = sl.new_game(players=4, expansion=KAI, deck=kai_deck(4, [*WATER, *TOP]))
    s = rig(s, 2, cards=["spy"])
    s = play(s, "place 0", "reserve 2", "place 1", "place 3")
    return until(s, lambda x: x.phase == "spy")


def fire_state() -> Any:
    """Round 2's supply draws the 1st fire: Blue (most firemen) holds the Fire Chief, Red (fewest) the Insurance."""
    s = sl.new_game(players=4, expansion=KAI, deck=kai_deck(4, [*WATER, *TOP], fire_at=10))
    s = rig(s, 0, cards=["insurance"])
    s = rig(s, 1, cards=["fire_chief", "fireman_b3"])
    s = rig(s, 2, cards=["fireman_a1"])
    s = rig(s, 3, cards=["fireman_b1"])
    return until(s, lambda x: x.phase == "fire")


def reserved_state() -> Any:
    """Red holds the Fish Market and reserved the Lighthouse; the water cards are all passed on."""
    s = sl.new_game(players=4, expansion=KAI, deck=kai_deck(4, [*WATER, *TOP]))
    s = rig(s, 0, cards=["fish_market"])
    s = play(s, "reserve 2", "reserve 0")
    return until(s, lambda x: x.phase == "purchase" and x.space >= len(x.offer_idx))


def loading_state() -> Any:
    """Red loads: coffee, tea, hemp on the dock; Red owns the Tea House (deliveries of tea), the Auction Hall,
    the Smuggler, the Truck and the Harbour Master, and two contracts (a tea on the first, the second takes
    tea); Blue's unfinished contract holds a coffee."""
    s = sl.new_game(players=4, expansion=KAI, deck=kai_deck(4, [*WATER, *TOP]))
    s = rig(s, 0, cards=["tea_house", "auction_hall", "smuggler", "truck", "harbour_master"],
            contracts=[("contract_a1", ["tea"]), ("contract_b2", [])], unload=["coffee", "tea", "hemp"])
    s = rig(s, 1, contracts=[("contract_a3", ["coffee"])])
    return until(s, lambda x: x.phase == "loading" and x.to_move == 0)


def ids(entries: list[dict[str, Any]]) -> list[str | None]:
    return [e["card"]["id"] if e["card"] else None for e in entries]


# ---- demand: the top row, reservations, break cards, grey workers --------------------------------------


def test_demand_model_shows_the_top_row_and_the_seats_extras() -> None:
    s = demand_state()
    m = board_model(s)
    kai = m["kai"]
    assert m["phase"] == "demand" and [p["id"] for p in m["phases"]] == ["demand", "purchase", "loading"]
    assert [sp["card"]["id"] for sp in m["spaces"]] == WATER and ids(kai["top"]) == TOP
    assert all(t["legal"] and t["action"] == f"reserve {t['index']}" for t in kai["top"])
    assert kai["top"][4]["card"]["kind"] == "ship" and len(kai["top"][4]["cargo"]) == 2
    assert kai["top"][1]["card"]["badge"] == "+2" and "2 points on the track" in kai["top"][1]["card"]["text"]
    assert kai["reserved"] == [] and kai["reserved_label"] == "Reserved"
    assert kai["top_click"] == "click a card to reserve it"
    assert [b["kind"] for b in kai["buttons"]] == ["break"] and kai["buttons"][0]["label"] == "Break (2 left)"
    assert kai["hint"].startswith("A break card skips this placement")
    assert kai["spy"] == {} and kai["fire"] is None
    assert m["prompt"] == ("Red: place a worker above a card or reserve a card of the top row "
                           "(16 of 16 still to place this round).")
    assert all(sp["grey"] == [] for sp in m["spaces"])
    red, blue = m["seats"][0], m["seats"][1]
    assert red["kai"]["breaks"] == 2 and red["kai"]["breaks_label"] == "2 breaks" and red["kai"]["grey"] == 0
    assert blue["kai"]["grey"] == 2 and blue["kai"]["grey_label"] == "2 grey"
    assert red["groups"] == [] and blue["groups"] == []  # Coffee Break and Warehouse Workers are counters
    assert red["kai"]["specials"] == [] and red["kai"]["delivered"] == 0
    json.dumps(m)


def test_reservations_stack_bottom_first_with_their_prices() -> None:
    s0 = demand_state()
    s1 = s0.apply("reserve 1")
    s = s1.apply("reserve 4")
    m = board_model(s, log=[s0, s1])
    kai = m["kai"]
    assert ids(kai["top"]) == ["fireman_a2", None, "lighthouse", "playhouse", None]
    assert not kai["top"][1]["legal"] and "reserve 1" not in m["legal"]
    res = kai["reserved"]
    assert [r["card"]["id"] for r in res] == ["coffee_roastery", "ship2_b"]  # bottom first
    assert [(r["seat"], r["grey"], r["price"]) for r in res] == [(0, False, 2), (1, False, 1)]
    assert res[1]["cargo"] == [s0.goods[g] for g in s0.kai.top_cargo[4]] and len(res[1]["cargo"]) == 2
    assert res[0]["price_label"] == "price 2" and "Reserved by Red; it costs 2" in res[0]["title"]
    assert not any(r["current"] for r in res)
    assert kai["top_hint"].endswith("(price 3 if it comes up first).")
    h = highlight(s, s1)
    assert h["action"] == "reserve 4" and h["actor"] == 1 and h["cards"] == ["ship2_b"] and h["spaces"] == []
    assert m["log"][0]["texts"] == ["Blue reserves the Ship (2 cards reserved)."]


def test_grey_workers_on_the_board_and_the_stop_button() -> None:
    s = grey_state()
    m = board_model(s)
    greys = [(sp["index"], k) for sp in m["spaces"] for k, g in enumerate(sp["grey"]) if g]
    assert len(greys) == 1
    space, level = greys[0]
    sp = m["spaces"][space]
    assert sp["workers"][level] == 1  # the owner's seat, as for every worker
    assert "Blue (grey worker)" in sp["title"]
    assert sp["price"] == len(s.workers[space])
    assert m["prompt"] == "Blue: place a grey worker (1 left) or stop placing them this round."
    kai = m["kai"]
    assert [b["kind"] for b in kai["buttons"]] == ["stop"] and kai["buttons"][0]["label"] == "Stop placing grey workers"
    assert kai["hint"].startswith("Your own workers are all placed")
    assert m["seats"][1]["kai"]["grey"] == 1
    assert m["seats"][0]["kai"]["breaks"] == 1  # Red played one break card
    de = board_model(s, "de")
    assert "Blau (grauer Arbeiter)" in de["spaces"][space]["title"]
    assert de["kai"]["buttons"][0]["label"] == "Keine grauen Arbeiter mehr setzen"


def test_grey_worker_reservation_and_purchase_for_its_owner() -> None:
    s = grey_state()
    grey_reserve = next(t for t in map(str, s.legal_actions()) if t.startswith("reserve "))
    s = s.apply(grey_reserve)
    res = board_model(s)["kai"]["reserved"]
    assert (res[-1]["seat"], res[-1]["grey"]) == (1, True) and "Blue (grey worker)" in res[-1]["title"]
    s = until(s, lambda x: x.phase == "purchase" and x.space >= len(x.offer_idx))
    m = board_model(s)
    cur = [r for r in m["kai"]["reserved"] if r["current"]]
    assert len(cur) == 1 and cur[0]["seat"] == s.to_move == 0  # Red's reservation comes up first (bottom)
    assert cur[0]["price"] == 3 and cur[0]["buy_label"] == "Buy for 3" and cur[0]["decider_label"] == "Red decides"
    s = s.apply("pass")
    m = board_model(s)
    assert [r["pos"] for r in m["kai"]["reserved"]] == [1, 2]  # resolved cards leave the column
    assert m["kai"]["reserved"][0]["current"] and m["kai"]["reserved"][0]["price"] == 2


# ---- spy, fire, purchase -----------------------------------------------------------------------------


def test_spy_step_model() -> None:
    s = spy_state()
    m = board_model(s)
    assert m["phase"] == "spy" and [p["id"] for p in m["phases"]] == ["demand", "spy", "purchase", "loading"]
    assert [p["id"] for p in m["phases"] if p["current"]] == ["spy"]
    assert m["prompt"].startswith("Green: use the Spy before the purchase?")
    kai = m["kai"]
    legal = [str(a) for a in s.legal_actions()]
    swaps = sorted(f"spy {src} {s2} {l2}" for src, targets in kai["spy"].items() for s2, l2 in targets)
    assert swaps == sorted(t for t in legal if t.startswith("spy "))
    for src in kai["spy"]:
        space, level = map(int, src.split())
        assert m["spaces"][space]["workers"][level] == 2  # only Green's own workers are sources
    assert [b["kind"] for b in kai["buttons"]] == ["pass"] and kai["buttons"][0]["label"] == "Keep the Spy"
    assert kai["spy_hint"].startswith("Spy: click one of your workers")
    assert ids(kai["top"]) == [None] * 5  # unreserved top-row cards left at the end of demand
    specials = m["seats"][2]["kai"]["specials"]
    assert [(c["id"], c["use"], c["active"]) for c in specials] == [("spy", "once", True)]
    assert board_model(s, seat=0)["kai"]["spy"] == {}  # another seat's board offers nothing


def test_spy_click_swaps_and_pass_keeps_the_spy() -> None:
    s = spy_state()
    text = next(str(a) for a in s.legal_actions() if a.kind == "spy")
    s1, l1, s2, l2 = (int(x) for x in text.split()[1:])
    board = Board(s)
    assert board.handle_message(act_message("spy", {"space": s1, "level": l1, "space_other": s2, "level_other": l2}))
    assert board.state == s.apply(text) and board.error == ""
    assert board.highlight["spaces"] == sorted({s1, s2})
    assert not any(c["kind"] == "spy" for c in board.model["seats"][2]["kai"]["specials"])
    board = Board(s)
    assert board.handle_message({"kind": "act", "verb": "pass", "args": {}}) and board.state == s.apply("pass")
    board = Board(s)
    own = [(sp, lv) for sp, col in enumerate(s.columns) for lv, w in enumerate(col) if w == 2]
    sp, lv = own[0]
    assert not board.handle_message(act_message("spy", space=sp, level=lv, space_other=sp, level_other=lv))
    assert board.state is s and board.error.startswith("Spy: swap one of your own workers")


def test_fire_step_model_fire_chief_then_insurance() -> None:
    s = fire_state()
    m = board_model(s)
    assert m["phase"] == "fire" and [p["id"] for p in m["phases"]] == ["fire", "demand", "purchase", "loading"]
    fire = m["kai"]["fire"]
    assert fire["card"]["id"] == "fire_1" and fire["strength"] == 2 and fire["context"] == "supply"
    assert fire["decision"] == "double" and fire["seat"] == 1 and fire["waiting"] == [0]
    assert fire["label"] == "1st Fire: strength 2"
    assert [(x["seat"], x["total"], x["delta"]) for x in fire["totals"]] == [(0, 0, -2), (1, 3, 2), (2, 1, 0),
                                                                            (3, 1, 0)]
    assert [(b["kind"], b["label"]) for b in m["kai"]["buttons"]] == [
        ("double", "Double with the Fire Chief (+2)"), ("pass", "Not this time")]
    assert m["prompt"] == "Blue: use the Fire Chief to gain 2 more points at this fire?"
    assert [(c["id"], c["use"], c["active"]) for c in m["seats"][1]["kai"]["specials"]] == [
        ("fire_chief", "once", True)]
    assert [(c["id"], c["use"], c["active"]) for c in m["seats"][0]["kai"]["specials"]] == [
        ("insurance", "ability", False)]
    assert m["seats"][1]["firemen"] == 3
    board = Board(s)
    assert not board.handle_message({"kind": "act", "verb": "insure", "args": {}}) and board.state is s
    assert board.error == "Fire: the decision now is not 'insure'."
    assert board.handle_message({"kind": "act", "verb": "pass", "args": {}})
    t = board.state
    m = board_model(t, "de")
    assert t.to_move == 0 and m["kai"]["fire"]["decision"] == "insure" and m["kai"]["fire"]["waiting"] == []
    assert [(b["kind"], b["label"]) for b in m["kai"]["buttons"]] == [
        ("insure", "Versichern: 2 zahlen, 2 zurück"), ("pass", "Diesmal nicht")]
    assert m["prompt"].startswith("Rot: 2 Münzen an die Versicherung zahlen")
    assert board.handle_message({"kind": "act", "verb": "insure", "args": {}})
    assert board.state == t.apply("insure") and board.state.coins[0] == t.coins[0] - 2
    assert board.state.phase == "demand" and board.model["kai"]["fire"] is None


def test_fire_chief_double_click() -> None:
    s = fire_state()
    board = Board(s)
    assert board.handle_message({"kind": "act", "verb": "double", "args": {}})
    assert board.state == s.apply("double") and board.state.player(1).track == s.player(1).track + 2


def test_reserved_purchase_with_the_fish_market() -> None:
    s = reserved_state()
    m = board_model(s)
    assert m["prompt"] == "Red: buy the reserved Lighthouse for 2 coins, or pass."
    assert not any(sp["current"] for sp in m["spaces"])
    res = m["kai"]["reserved"]
    assert [(r["card"]["id"], r["seat"], r["price"], r["current"]) for r in res] == [
        ("lighthouse", 0, 2, True), ("fireman_a2", 1, 1, False)]
    assert res[0]["buy_label"] == "Buy for 2" and res[0]["decider_label"] == "Red decides"
    assert [(b["kind"], b["action"], b["label"]) for b in m["kai"]["buttons"]] == [("buyfree", "buy free", "Free")]
    assert m["kai"]["labels"]["free_title"].startswith("Take the card for free with the Fish Market")
    assert [(c["id"], c["active"]) for c in m["seats"][0]["kai"]["specials"]] == [("fish_market", True)]
    board = Board(s)
    assert board.handle_message({"kind": "act", "verb": "buyfree", "args": {}})
    t = board.state
    assert t == s.apply("buy free") and t.coins[0] == s.coins[0] and "lighthouse" in t.player(0).cards
    assert "fish_market" not in t.player(0).cards
    assert board.model["kai"]["reserved"][0]["current"] and board.model["kai"]["reserved"][0]["seat"] == 1
    board = Board(s)
    assert board.handle_message({"kind": "act", "verb": "buy", "args": {}}) and board.state.coins[0] == s.coins[0] - 2


def test_water_purchase_offers_the_fish_market_too() -> None:
    s = sl.new_game(players=4, expansion=KAI, deck=kai_deck(4, [*WATER, *TOP]))
    s = rig(s, 0, cards=["fish_market"])
    s = until(s, lambda x: x.phase == "purchase" and x.to_move == 0)
    m = board_model(s)
    cur = [sp for sp in m["spaces"] if sp["current"]]
    assert len(cur) == 1 and cur[0]["decider"] == 0
    assert "buy free" in m["legal"] and [b["kind"] for b in m["kai"]["buttons"]] == ["buyfree"]


# ---- loading: deliveries, Auction Hall, Smuggler, Truck, Harbour Master -------------------------------


def test_loading_model_with_every_new_action() -> None:
    s = loading_state()
    m = board_model(s)
    dock = m["dock"]
    assert dock["goods"] == ["coffee", "tea", "hemp"]
    assert dock["moves"]["tea"] == ["contract tea 1", "keep tea", "deliver tea"]
    assert dock["deliver"] == ["deliver tea"]
    assert dock["auction"] == ["coffee", "saffron"] and dock["auction_label"] == "Auction Hall: take from the stock"
    assert dock["smuggle"] == ["smuggle 1 0 coffee"]
    assert dock["truck"] == ["truck tea 0 1"] and dock["truck_label"].startswith("Truck (3 moves)")
    assert dock["k_convert"] == 2 and dock["convert_label"] == "Exchange 2 for:"
    assert "Harbour Master" in dock["hint"] and dock["pending"] is None
    assert "convert tea hemp to coffee" in dock["convert"]
    red = m["seats"][0]
    assert [g["kind"] for g in red["groups"]] == ["delivery"]
    assert red["groups"][0]["cards"][0]["good"] == "tea" and red["groups"][0]["label"] == "Deliveries"
    assert [(c["id"], c["use"], c["active"]) for c in red["kai"]["specials"]] == [
        ("auction_hall", "once", True), ("smuggler", "once", True), ("truck", "once", True),
        ("harbour_master", "ability", True)]
    assert red["kai"]["delivers"] and red["kai"]["delivered_label"] == "+0 delivered"
    assert m["seats"][1]["contracts"][0]["slots"][0] == {"good": "coffee", "filled": True}
    assert m["prompt"] == "Red: load your goods, then click Done."
    de = board_model(s, "de")
    assert de["dock"]["convert_label"] == "2 tauschen gegen:" and de["seats"][0]["groups"][0]["label"] == "Abnehmer"


def test_deliver_click_scores_on_the_track() -> None:
    s = loading_state()
    board = Board(s)
    assert board.handle_message({"kind": "act", "verb": "deliver", "args": {"good": "tea"}})
    t = board.state
    assert t == s.apply("deliver tea") and t.seats[0].delivered == 2
    red = board.model["seats"][0]
    assert red["kai"]["delivered"] == 2 and red["kai"]["delivered_label"] == "+2 delivered"
    assert red["track"] == 2 and ["deliveries", 2] in red["breakdown"]


def test_auction_click_then_the_cube_must_be_loaded() -> None:
    s = loading_state()
    board = Board(s)
    assert board.handle_message({"kind": "act", "verb": "auction", "args": {"good": "coffee"}})
    t = board.state
    assert t == s.apply("auction coffee")
    m = board.model
    assert m["dock"]["pending"] == "coffee" and m["dock"]["pending_label"] == "The coffee must be loaded now."
    assert m["prompt"] == "Red: load the coffee onto one of your cards now."
    assert "done" not in m["legal"] and all("coffee" in x for x in m["legal"])
    assert not board.handle_message({"kind": "act", "verb": "done", "args": {}}) and board.state is t
    assert "must be loaded onto one of your cards first" in board.error
    assert board.handle_message({"kind": "act", "verb": "contract", "args": {"good": "coffee", "index": 0}})
    assert board.model["dock"]["pending"] is None and "done" in board.model["legal"]


def test_smuggle_click_steals_from_another_contract() -> None:
    s = loading_state()
    board = Board(s)
    assert not board.handle_message({"kind": "act", "verb": "smuggle", "args": {"seat": 0, "index": 0, "good": "tea"}})
    assert board.state is s and board.error.startswith("Loading: the Smuggler steals")
    assert board.handle_message({"kind": "act", "verb": "smuggle", "args": {"seat": 1, "index": 0, "good": "coffee"}})
    t = board.state
    assert t == s.apply("smuggle 1 0 coffee") and t.player(1).contracts[0][1] == ()
    assert board.model["dock"]["pending"] == "coffee" and board.model["dock"]["goods"].count("coffee") == 2


def test_truck_click_moves_a_cube_and_shows_the_moves_left() -> None:
    s = loading_state()
    board = Board(s)
    assert not board.handle_message({"kind": "act", "verb": "truck", "args": {"good": "tea", "from": 1, "to": 0}})
    assert board.state is s and board.error
    assert board.handle_message({"kind": "act", "verb": "truck", "args": {"good": "tea", "from": 0, "to": 1}})
    t = board.state
    assert t == s.apply("truck tea 0 1")
    red = board.model["seats"][0]
    assert [c["slots"] for c in red["contracts"]][1][0] == {"good": "tea", "filled": True}
    truck = [c for c in red["kai"]["specials"] if c["kind"] == "truck"]
    assert len(truck) == 1 and truck[0]["use"] == "in_use" and truck[0]["use_label"] == "2 moves left"
    assert board.model["dock"]["truck_label"].startswith("Truck (2 moves)")


def test_harbour_master_exchanges_two_for_one() -> None:
    s = loading_state()
    board = Board(s)
    assert not board.handle_message(act_message("convert", {"goods": ["coffee", "tea", "hemp"], "to": "saffron"}))
    assert board.state is s and board.error == (
        "Board: the field 'goods' must be a list of 2 goods, not ['coffee', 'tea', 'hemp'].")
    assert board.handle_message({"kind": "act", "verb": "convert", "args": {"goods": ["tea", "hemp"], "to": "coffee"}})
    assert board.state == s.apply("convert tea hemp to coffee")
    assert board.model["dock"]["goods"] == ["coffee", "coffee"]


# ---- clicks: every new kind, valid and bogus -----------------------------------------------------------


VALID = KAISPEICHER_CLICKS  # (tests.support.clicks: the base board's tests count these kinds too)


@pytest.mark.parametrize(("msg", "text"), VALID, ids=[t for _, t in VALID])
def test_new_clicks_to_action(msg: dict, text: str) -> None:
    s = demand_state()
    assert click_to_action(s, msg) == text
    assert str(s.parse_action(text)) == text


def test_every_new_kind_has_a_valid_example() -> None:
    assert {m["verb"] for m, _ in VALID} == {"reserve", "break", "stop", "spy", "double", "insure", "buyfree",
                                            "deliver", "auction", "smuggle", "truck"}


BOGUS = [
    ({"kind": "act", "verb": "reserve", "args": {}}, "missing", "space"),
    ({"kind": "act", "verb": "reserve", "args": {"space": -1}}, "int", "space"),
    ({"kind": "act", "verb": "reserve", "args": {"space": "0"}}, "int", "space"),
    ({"kind": "act", "verb": "reserve", "args": {"space": 0, "seat": 1}}, "extra", "seat"),
    ({"kind": "act", "verb": "break", "args": {"now": True}}, "extra", "now"),
    ({"kind": "act", "verb": "stop", "args": {"space": 0}}, "extra", "space"),
    ({"kind": "act", "verb": "spy", "args": {"space": 0, "level": 1, "space_other": 2}}, "missing", "level_other"),
    (act_message("spy", {"space": 0, "level": 1.5, "space_other": 2, "level_other": 0}), "int", "level"),
    (act_message("spy", {"space": 0, "level": 1, "space_other": None, "level_other": 0}), "int", "space_other"),
    (act_message("spy", {"space": 0, "level": 1, "space_other": 2, "level_other": 100}), "int", "level_other"),
    ({"kind": "act", "verb": "double", "args": {"points": 2}}, "extra", "points"),
    ({"kind": "act", "verb": "insure", "args": {"coins": 2}}, "extra", "coins"),
    ({"kind": "act", "verb": "buyfree", "args": {"free": True}}, "extra", "free"),
    ({"kind": "act", "verb": "deliver", "args": {}}, "missing", "good"),
    ({"kind": "act", "verb": "deliver", "args": {"good": "gold"}}, "good", "good"),
    ({"kind": "act", "verb": "auction", "args": {"good": ["hemp"]}}, "good", "good"),
    ({"kind": "act", "verb": "smuggle", "args": {"seat": 1, "index": 0}}, "missing", "good"),
    ({"kind": "act", "verb": "smuggle", "args": {"seat": "Blue", "index": 0, "good": "tea"}}, "int", "seat"),
    ({"kind": "act", "verb": "smuggle", "args": {"seat": 1, "index": True, "good": "tea"}}, "int", "index"),
    ({"kind": "act", "verb": "truck", "args": {"good": "tea", "from": 0}}, "missing", "to"),
    ({"kind": "act", "verb": "truck", "args": {"good": "tea", "from": "0", "to": 1}}, "int", "from"),
    ({"kind": "act", "verb": "truck", "args": {"good": "tea", "from": 0, "to": 1, "moves": 3}}, "extra", "moves"),
    ({"kind": "act", "verb": "truck", "args": {"good": "wine", "from": 0, "to": 1}}, "good", "good"),
    ({"kind": "act", "verb": "buy", "args": {"free": True}}, "extra", "free"),
]


@pytest.mark.parametrize(("msg", "key", "field"), BOGUS, ids=[repr(m)[:50] for m, _, _ in BOGUS])
def test_bogus_new_clicks_are_refused_naming_the_field(msg: dict, key: str, field: str) -> None:
    s = demand_state()
    with pytest.raises(ClickError) as info:
        click_to_action(s, msg)
    assert info.value.key == key
    for lang in ("en", "de"):
        assert f"'{field}'" in info.value.text(lang, s)
    board = Board(s)
    before = dict(board.model)
    assert not board.handle_message(msg)
    assert board.state is s and board.model == before and board.error.startswith("Board:")


def test_new_goods_are_only_goods_of_an_expansion_game() -> None:
    base = sl.new_game(players=4, seed=7)
    with pytest.raises(ClickError) as info:
        click_to_action(base, {"kind": "act", "verb": "deliver", "args": {"good": "hemp"}})
    assert info.value.key == "good" and "hemp" not in info.value.params["allowed"]


@pytest.mark.parametrize("msg", [m for m, _ in VALID], ids=[t for _, t in VALID])
def test_new_clicks_in_the_base_game_are_refused_by_the_rules(msg: dict) -> None:
    if msg["args"].get("good") in ("hemp", "glass", "cloth"):
        msg = {**msg, "args": {**msg["args"], "good": "tea"}}
    s = sl.new_game(players=4, seed=7)
    board = Board(s)
    before = dict(board.model)
    assert not board.handle_message(msg)
    assert board.state is s and board.model == before
    if msg["verb"] == "buyfree":  # a 'buy': the base game refuses it in demand, and without a Fish Market
        assert board.error.startswith("Phases: 'buy' belongs to the purchase phase")
        purchase = until(s, lambda x: x.phase == "purchase")
        board = Board(purchase)
        assert not board.handle_message(msg) and board.state is purchase
        assert board.error == "Purchase: only the Fish Market lets you take a card for free."
    else:
        assert board.error.startswith("Rules: '") and "is not possible in this game" in board.error


@pytest.mark.parametrize(("msg", "rule"), [
    ({"kind": "act", "verb": "reserve", "args": {"space": 9}}, "reserve_space"),
    ({"kind": "act", "verb": "stop", "args": {}}, "stop_early"),
    ({"kind": "act", "verb": "double", "args": {}}, "phase"),
    ({"kind": "act", "verb": "buyfree", "args": {}}, "phase"),
    ({"kind": "act", "verb": "deliver", "args": {"good": "tea"}}, "phase"),
])
def test_new_clicks_at_the_wrong_moment_change_nothing(msg: dict, rule: str) -> None:
    s = demand_state()
    board = Board(s)
    before = dict(board.model)
    assert not board.handle_message(msg)
    assert board.state is s and board.model == before
    with pytest.raises(sl.IllegalAction) as info:
        s.apply(click_to_action(s, msg))
    assert info.value.rule == rule and board.error == s.explain(info.value, "en")


def test_reserve_and_break_clicks_apply() -> None:
    s = demand_state()
    board = Board(s)
    assert board.handle_message({"kind": "act", "verb": "reserve", "args": {"space": 2}})
    assert board.state == s.apply("reserve 2") and board.highlight["cards"] == ["lighthouse"]
    board = Board(s)
    assert board.handle_message({"kind": "act", "verb": "break", "args": {}})
    assert board.state == s.apply("break") and board.model["seats"][0]["kai"]["breaks"] == 1
    t = grey_state()
    board = Board(t)
    assert board.handle_message({"kind": "act", "verb": "stop", "args": {}}) and board.state == t.apply("stop")


# ---- the whole model: languages, seat boards, the base game untouched --------------------------------------


SCENARIOS = [demand_state, grey_state, spy_state, fire_state, reserved_state, loading_state]


@pytest.mark.parametrize("make", SCENARIOS, ids=[f.__name__ for f in SCENARIOS])
def test_every_expansion_text_in_both_languages(make: Any) -> None:
    s = make()
    for lang in ("en", "de"):
        m = board_model(s, lang)
        json.dumps(m)
        leftovers = [t for t in all_texts(m) if BRACES.search(t)]
        assert not leftovers
        for seat in m["seats"]:
            assert all(c["text"] for c in seat["kai"]["specials"])
    en, de = board_model(s, "en"), board_model(s, "de")
    assert en["legal"] == de["legal"]
    assert en["kai"]["top_label"] == "Top row" and de["kai"]["top_label"] == "Obere Reihe"


@pytest.mark.parametrize("make", SCENARIOS, ids=[f.__name__ for f in SCENARIOS])
def test_a_board_for_another_seat_offers_no_expansion_action(make: Any) -> None:
    s = make()
    other = (s.to_move + 1) % s.n_players
    m = board_model(s, seat=other)
    assert not m["can_act"] and m["kai"]["buttons"] == [] and m["kai"]["spy"] == {} and m["kai"]["hint"] == ""
    assert not any(t["legal"] for t in m["kai"]["top"])
    if m["dock"]:
        assert m["dock"]["deliver"] == m["dock"]["auction"] == m["dock"]["smuggle"] == m["dock"]["truck"] == []


def test_base_game_model_has_no_expansion_part() -> None:
    s = sl.new_game(players=4, seed=7)
    m = board_model(s)
    assert "kai" not in m and all("grey" not in sp for sp in m["spaces"])
    assert all("kai" not in seat for seat in m["seats"])
    assert [p["id"] for p in m["phases"]] == ["demand", "purchase", "loading"]


def test_board_widget_with_an_expansion_game() -> None:
    s0 = demand_state()
    board = Board(s0)
    assert {k: v for k, v in board.model.items() if k != "rev"} == board_model(s0, "en", None)
    s1 = s0.apply("reserve 0")
    board.state = s1
    assert [e["action"] for e in board.model["log"]] == ["reserve 0", None]
    assert board.model["kai"]["reserved"][0]["card"]["id"] == "fireman_a2"
    board.lang = "de"
    assert board.model["kai"]["reserved"][0]["price_label"] == "Preis 1"


def test_a_random_expansion_game_draws_at_every_step() -> None:
    from tests.support.scenario import RandomPolicy

    policy = RandomPolicy(17)
    s = sl.new_game(players=3, seed=5, expansion=KAI)
    prev = None
    seen: set[str] = set()
    while not s.is_over:
        m = board_model(s, log=[prev] if prev else [])
        seen.add(m["phase"])
        highlight(s, prev)
        prev, s = s, s.apply(policy(s))
    m = board_model(s)
    assert m["phase"] == "over" and m["ranking"] and {"demand", "purchase", "loading"} <= seen
