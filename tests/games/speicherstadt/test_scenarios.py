"""Scenarios: a position described as data, checked field by field, built, recorded and replayed exactly."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.bots import make_bot
from speicherstadt_lab.games.speicherstadt import check_invariants
from speicherstadt_lab.games.speicherstadt.scenario import SCENARIO_FORMAT, build, scenario_setup
from speicherstadt_lab.records import GameRecord
from speicherstadt_lab.scenarios import (
    describe,
    load_scenario,
    save_scenario,
    scenario_of,
    scenario_text,
    shipped_scenario,
    shipped_scenarios,
)
from speicherstadt_lab.ui import tutorial
from tests.support.paths import REPO
from tests.support.scenario_fields import common_errors, random_positions, record_tampered_refused, refused
from tests.support.scenario_fields import set_field as _set

OFFER = {2: 3, 3: 4, 4: 5, 5: 6}


def scenario(players: int = 3, **fields: Any) -> dict[str, Any]:
    return {"format": SCENARIO_FORMAT, "game": "speicherstadt", "players": players, **fields}


def public(state: Any) -> dict[str, Any]:
    """What every seat sees, without the events that led there (a seat's cards as a set: contracts come last)."""
    d = state.view(None)
    for key in ("events", "last_action"):
        d.pop(key)
    d["seats"] = [dict(s, cards=sorted(s["cards"])) for s in d["seats"]]
    return d


def exact(state: Any) -> dict[str, Any]:
    """The whole state, hidden order included, without the events that led there."""
    d = state.to_dict()
    for key in ("events", "last_action"):
        d.pop(key)
    d["seats"] = [dict(s, cards=sorted(s["cards"])) for s in d["seats"]]
    return d


def legal(state: Any) -> None:
    assert check_invariants(state) == []
    assert sl.load_state(state.to_json()) == state  # the state file loader's own checks agree


# ---- valid scenarios --------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_described_position_is_built_as_written(players: int) -> None:
    water = ["ship_b1", "contract_b2", "fireman_b2", "counting_office_b", "fireman_b3", "ship_b3"][: OFFER[players]]
    seats = [{"coins": 2 + i, "cards": ["fireman_a1"] if i == 0 else [], "track": -i} for i in range(players)]
    seats[-1] = {"coins": 9, "cards": ["warehouse", "ship_b4"], "contracts": [{"card": "contract_a1",
                                                                               "goods": ["coffee"]}],
                 "warehouse": ["tea", "tea"], "hall": ["rubber"]}
    cargo = [["coffee", "tea", "carpet"]] + [None] * (len(water) - 1)  # None: the bag fills the ship
    data = scenario(players, round=4, first=1, water=water, cargo=cargo, discard=["fire_1"], stock={"saffron": 2},
                    seats=seats, pile_next=["contract_a2"], bag_next=["saffron"],
                    names=[f"P{i}" for i in range(players)], seed=4)
    original = copy.deepcopy(data)
    s = sl.new_game(scenario=data)
    assert data == original  # the caller's data is never changed
    legal(s)
    assert (s.round, s.phase, s.first, s.to_move) == (4, "demand", 1, 1)
    assert list(s.offer) == water and s.cargo[0] == ("coffee", "tea", "carpet")  # in the goods' order
    assert [e.key for e in s.events][:2] == ["round", "supply"]
    assert s.coins == tuple(x["coins"] for x in seats)
    last = s.player(players - 1)
    assert last.contracts == (("contract_a1", ("coffee",)),) and last.warehouse == ("tea", "tea")
    assert last.hall == ("rubber",) and last.has_warehouse
    assert s.player(players - 1).name == f"P{players - 1}"
    assert "fire_1" in s.to_dict()["discard"] and s.stock[s.goods.index("saffron")] == 2
    assert s.hidden_parts()["pile"][0][0] == "contract_a2"
    if "ship_b3" in water:  # the bag's next cube went onto the ship the scenario left to the bag
        assert "saffron" in s.cargo[water.index("ship_b3")]
    else:
        assert s.hidden_parts()["bag"][0] == "saffron"
    # play the round to its end: the next supply starts with pile_next
    nxt = s
    while nxt.round == 4:
        nxt = nxt.apply(nxt.legal_actions()[0])
    assert nxt.offer[0] == "contract_a2"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_without_water_the_round_starts_with_a_supply_from_pile_next(players: int) -> None:
    next_cards = ["fire_1", "ship_b1", "contract_b1", "fireman_b1", "ship_b2", "contract_b2", "fireman_b2"]
    season_a = [c.id for c in sl.default_catalog().cards if c.season == "A" and c.expansion is None]
    gone = [c for c in season_a if c != "fireman_a1"]  # the earlier season's cards have left play
    data = scenario(players, round=5, pile_next=next_cards[: OFFER[players] + 1], bag_next=["tea", "tea", "tea"],
                    discard=gone, seats=[{"cards": ["fireman_a1"]}] + [{}] * (players - 1))
    s = sl.new_game(scenario=data)
    legal(s)
    keys = [e.key for e in s.events]
    assert keys[:2] == ["round", "fire"] and "supply" in keys
    fire = next(e for e in s.events if e.key == "fire")
    assert fire.args["seats_plus"] == [0]  # the only seat with a fireman gains the fire's points
    assert s.player(0).track == 2 and list(s.offer) == next_cards[1: OFFER[players] + 1]
    assert s.cargo[0][:3] == ("tea", "tea", "tea")[: len(s.cargo[0])]


def test_positions_in_purchase_loading_and_at_the_end() -> None:
    purchase = sl.new_game(scenario=scenario(3, phase="purchase", water=[None, "ship_b1", "fireman_a1", "bank"],
                                             workers=[[], [2, 0, 1], [1], [0]], bought=[1],
                                             seats=[{"coins": 3}, {"coins": 1, "cards": ["spice_trader"]}, {}]))
    legal(purchase)
    assert purchase.to_move == 2 and purchase.space == 1 and purchase.price(1) == 3
    loading = sl.new_game(scenario=scenario(3, phase="loading", first=2, loading=0, bought=[0, 1],
                                            seats=[{"cards": ["ship_b2", "spice_trader"], "unload": ["tea", "tea"]},
                                                   {"cards": ["ship_b1"], "unload": ["coffee"]}, {}]))
    legal(loading)
    assert loading.to_move == 0 and loading.dock_goods == ("tea", "tea")
    assert loading.events[0].key == "unload"  # the seat's turn begins: its ship unloads
    end = sl.new_game(scenario=scenario(2, phase="over", round=16,
                                        seats=[{"coins": 3, "track": 4, "cards": ["fireman_a1"]}, {"coins": 1}]))
    legal(end)
    assert end.is_over and end.winners() == [0] and [e.key for e in end.events][-1] == "game_over"


def test_kaispeicher_scenarios_start_at_a_rounds_demand() -> None:
    s = sl.new_game(scenario=scenario(3, expansion="kaispeicher", round=3, first=2,
                                      seats=[{"cards": ["coffee_break"]}, {}, {"coins": 8}]))
    legal(s)
    assert s.phase in ("demand", "fire") and s.player(0).breaks > 0 and s.kai.top
    again = sl.new_game(scenario=json.loads(json.dumps(scenario_of(s, hidden=True))))
    assert exact(again) == exact(s)
    with pytest.raises(sl.ScenarioError, match="'phase'"):
        sl.new_game(scenario=scenario(3, expansion="kaispeicher", phase="loading"))


def test_a_scenario_file_is_read_with_json_and_saved_checked(tmp_path: Path) -> None:
    data = scenario(4, round=2, water=["ship_b1", "fireman_a1", "bank", "spice_trader", "warehouse"])
    path = tmp_path / "lesson.json"
    save_scenario(data, path)
    assert json.loads(path.read_text()) == data and path.read_text() == scenario_text(data)
    assert public(sl.new_game(scenario=path)) == public(sl.new_game(scenario=str(path)))
    assert load_scenario(path) == data
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(sl.ScenarioError, match="not valid JSON"):
        sl.new_game(scenario=bad)
    with pytest.raises(sl.ScenarioError, match="cannot be read"):
        sl.new_game(scenario=tmp_path / "missing.json")
    wrong = dict(data, players=7)
    with pytest.raises(sl.ScenarioError, match="'players'"):
        save_scenario(wrong, tmp_path / "wrong.json")
    assert not (tmp_path / "wrong.json").exists()
    with pytest.raises(ValueError, match="inside the scenario"):
        sl.new_game(players=3, scenario=data)


# ---- errors name the field --------------------------------------------------------------------------------

BASE = scenario(3, round=3, water=["ship_b1", "fireman_a1", "contract_a1", "bank"],
                seats=[{"coins": 4, "cards": ["warehouse"], "contracts": ["contract_a2"]}, {}, {}])


ERRORS = [
    *common_errors("speicherstadt"),  # (a scenario of "packet_row" starts Packet Row's: its own errors)
    (_set("first", 3), "first", "seat 0..2"),
    (_set("phase", "spy"), "phase", "one of"),
    (_set("expansion", "harbour"), "expansion", "kaispeicher"),
    (_set("water.1", "fire_2"), "water[1]", "is a fire"),
    (_set("water.1", "nonsense"), "water[1]", "unknown card id"),
    (_set("water.1", "ship_b1"), "water[1]", "already at 'water[0]'"),
    (_set("water.1", "boatsmen_church"), "water[1]", "not in a game for 3 players"),
    (_set("water.1", "fire_4"), "water[1]", "bottom of the draw pile"),
    (_set("water.1", "spy"), "water[1]", "expansion"),
    (_set("water.1", None), "water[1]", "empty only once its card was sold"),
    (_set("cargo", [["tea"], [], []]), "cargo", "one entry per space"),
    (_set("cargo", [["tea"], ["tea"], None, None]), "cargo[1]", "not a ship"),
    (_set("cargo", [["tea"] * 5, None, None, None]), "cargo[0]", "carries"),
    (_set("seats.1.cards", ["ship_b2", "contract_b1"]), "seats[1].cards[1]", "contracts go in 'seats[1].contracts'"),
    (_set("seats.1.contracts", ["fireman_b1"]), "seats[1].contracts[0]", "not a contract"),
    (_set("seats.1.cards", ["fire_1"]), "seats[1].cards[0]", "burnt fire lies in 'discard'"),
    (_set("seats.1.cards", ["bank"]), "seats[1].cards[0]", "already at 'water[3]'"),
    (_set("seats.0.contracts", [{"card": "contract_a2", "goods": ["glass"]}]), "seats[0].contracts[0].goods[0]",
     "unknown good"),
    (_set("seats.0.contracts", [{"card": "contract_a2", "goods": ["coffee", "coffee", "coffee"]}]),
     "seats[0].contracts[0].goods[0]", "no (more)"),
    (_set("seats.0.warehouse", ["tea"] * 5), "seats[0].warehouse", "holds 4 cubes"),
    (_set("seats.1.warehouse", ["tea"]), "seats[1].warehouse", "Warehouse card"),
    (_set("seats.1.hall", ["tea", "tea"]), "seats[1].hall", "market hall keeps"),
    (_set("seats.1.unload", ["tea"]), "seats[1].unload", "ship bought this round"),
    (_set("seats.1.coins", -1), "seats[1].coins", "0 or more"),
    (_set("seats.1.grey", 1), "seats[1].grey", "only with Kaispeicher"),
    (_set("seats", [{}, {}]), "seats", "one entry per player"),
    (_set("stock", {"coffee": 10}), "stock.coffee", "only 9 coffee cubes"),
    (_set("stock", {"hemp": 1}), "stock.hemp", "unknown good"),
    (_set("discard", ["ship_b1"]), "discard[0]", "already at 'water[0]'"),
    (_set("pile_next", ["ship_b1"]), "pile_next[0]", "is at 'water[0]'"),
    (_set("pile_next", ["fire_3"]), "pile_next[0]", "list the cards that are gone in 'discard'"),
    (_set("pile_next", ["coffee_roaster", "coffee_roaster"]), "pile_next[1]", "named twice"),
    (_set("bag_next", ["coffee"] * 10), "bag_next[9]", "holds only"),
    (_set("bag_next", ["gold"]), "bag_next[0]", "unknown good"),
    (_set("workers", [[], [], [], [0, 0, 0, 1, 1, 1, 2, 2, 2]]), "workers[3]", "building spaces"),
    (_set("workers", [[2, 2, 2, 2], [], [], []]), "workers", "seat 2 has 3 workers, not 4"),
    (_set("workers", [[1], [], [], []]), "workers", "in turn from the metal coin"),
    (_set("workers", [[0], [9], [], []]), "workers[1][0]", "seat 0..2"),
    (_set("bought", [1]), "bought", "nothing is bought before the purchase"),
    (_set("dock", ["tea"]), "dock", "only in the loading phase"),
    (_set("loading", 1), "loading", "only in the loading phase"),
    (_set("title", "Lesson"), "title", '{"en"'),
]


@pytest.mark.parametrize(("change", "field", "words"), ERRORS, ids=[e[1] + ":" + e[2] for e in ERRORS])
def test_each_error_names_its_field_and_changes_nothing(change: Any, field: str, words: str) -> None:
    data = copy.deepcopy(BASE)
    change(data)
    refused(lambda d: sl.new_game(scenario=d), data, field, words)


def test_the_base_scenario_of_the_error_table_is_legal() -> None:
    legal(sl.new_game(scenario=copy.deepcopy(BASE)))


@pytest.mark.parametrize(("phase", "fields", "field", "words"), [
    ("purchase", {}, "water", "give the cards on the water"),
    ("loading", {"water": ["ship_b1"]}, "water[0]", "sold or discarded"),
    ("loading", {"loading": 1, "seats": [{"unload": ["tea"]}, {}, {}]}, "seats[0].unload", "loaded this round"),
    ("loading", {"loading": 1, "dock": ["tea"], "seats": [{}, {"unload": ["tea"]}, {}]}, "seats[1].unload",
     "lie on the 'dock'"),
    ("loading", {"moved": [["in", "hall", "tea"]]}, "moved", "'dock'"),
    ("demand", {"water": ["bank", "ship_b1", "fireman_a1", "contract_a1"], "workers": [[0, 1, 2]] * 3 + [[]]},
     "workers", "every worker is placed"),
    ("over", {"pile_next": ["ship_b1"]}, "pile_next", "the draw pile is empty"),
])
def test_phase_rules_name_their_fields(phase: str, fields: dict[str, Any], field: str, words: str) -> None:
    data = scenario(3, phase=phase, **fields)
    with pytest.raises(sl.ScenarioError) as info:
        sl.new_game(scenario=data)
    assert info.value.field == field and words in info.value.detail, str(info.value)


def test_a_scenario_that_is_no_object_or_of_no_such_game_is_refused() -> None:
    with pytest.raises(sl.ScenarioError, match="must be an object"):
        sl.new_game(scenario=[1, 2])
    with pytest.raises(sl.ScenarioError, match="must be an object"):
        GameRecord.from_scenario(7)
    with pytest.raises(sl.ScenarioError, match="'game'"):
        load_scenario({"format": SCENARIO_FORMAT, "game": "chess", "players": 2})
    with pytest.raises(sl.ScenarioError, match="'game'"):  # the game asked for is the game built
        sl.new_game("speicherstadt", scenario={"format": SCENARIO_FORMAT, "game": "packet_row", "players": 3})


# ---- scenario_of ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_scenario_of_any_position_gives_the_same_public_position(players: int) -> None:
    for state in random_positions(players, seed=players + 10):
        data = json.loads(json.dumps(scenario_of(state)))  # as a file holds it
        again = sl.new_game(scenario=data)
        assert public(again) == public(state), (state.round, state.phase)
        assert again.to_move == state.to_move and again.legal_actions() == state.legal_actions()
        full = sl.new_game(scenario=json.loads(json.dumps(scenario_of(state, hidden=True))))
        assert exact(full) == exact(state)  # with the hidden order the game goes on exactly as it would


def test_before_supply_replays_the_rounds_supply_and_its_fires() -> None:
    seen = 0
    for state in random_positions(3, seed=4, every=1):
        if state.phase == "demand" and state.placed == 0 and any(e.key == "supply" for e in state.events):
            data = scenario_of(state, hidden=True, before_supply=True)
            assert "water" not in data
            again = sl.new_game(scenario=data)
            assert exact(again) == exact(state)
            keys = ("fire", "fire_tie", "supply", "ship")
            assert [e for e in again.events if e.key in keys] == [e for e in state.events if e.key in keys]
            seen += 1
    assert seen >= 10
    with pytest.raises(ValueError, match="before_supply"):
        scenario_of(sl.new_game(players=3, seed=1).apply("place 0"), before_supply=True)


def test_kaispeicher_positions_become_scenarios_at_a_rounds_start_only() -> None:
    starts = 0
    for state in random_positions(4, seed=2, expansion="kaispeicher", every=1):
        try:
            data = scenario_of(state, hidden=True)
        except ValueError as err:
            assert "Kaispeicher" in str(err) or "phase" in str(err)
            continue
        assert exact(sl.new_game(scenario=data)) == exact(state)
        starts += 1
    assert starts >= 5


# ---- records ----------------------------------------------------------------------------------------------


def test_a_record_of_a_scenario_game_round_trips_and_replays_exactly(tmp_path: Path) -> None:
    data = shipped_scenario("tutorial-3-fire")
    rec = GameRecord.from_scenario(data)
    assert rec.headers == {"scenario": "Fire"} and rec.seed == 11
    assert set(rec.setup) == {"scenario", "deck", "bag"} and "pile_next" not in rec.setup["scenario"]
    assert public(rec.initial) == public(sl.new_game(scenario=data))
    end = rec.root.play_out([make_bot("greedy", seed=s) for s in range(3)])
    mid = rec.mainline()[12]
    nxt = mid.state.hidden_parts()["pile"]
    chance = mid.rearrange(pile=[nxt[1][0]] if nxt[1][1] == nxt[0][1] else [nxt[0][0]], comment="what if")
    chance.play(chance.state.legal_actions()[0])
    path = tmp_path / "game.json"
    rec.save(path)
    text = path.read_text()
    assert json.loads(text)["format"] == "speicherstadt-lab/2"
    again = GameRecord.load(path)
    assert again == rec and again.to_json() == rec.to_json()
    for a, b in zip(again.nodes(), rec.nodes(), strict=True):
        assert a.state.to_dict() == b.state.to_dict()
    assert again.end().state.to_dict() == end.state.to_dict() and end.state.is_over
    # the set-up alone recreates the start: new_game(**setup)
    assert sl.new_game(**rec.setup).to_dict() == rec.initial.to_dict()


def test_a_seat_export_of_a_scenario_record_loads_as_an_observation() -> None:
    rec = GameRecord.from_scenario(shipped_scenario("tutorial-2-purchase"))
    rec.root.play_out([make_bot("random", seed=s) for s in range(3)])
    text = rec.to_json(as_seat=2)
    data = json.loads(text)
    assert data["setup"]["deck"] is None and data["setup"]["bag"] is None and data["setup"]["seed"] is None
    seen = GameRecord.from_json(text)
    assert seen.is_observation
    for mine, theirs in zip(seen.mainline(), rec.mainline(), strict=True):
        a, b = mine.state.view(2), theirs.state.view(2)
        a.pop("observer")
        b.pop("observer")
        assert a == b
    assert seen.to_json() == text


def test_a_scenario_record_file_that_is_tampered_with_names_the_field() -> None:
    cases = [
        (lambda d: d["setup"]["scenario"]["seats"][0].update(coins=-2), "setup.scenario.seats[0].coins"),
        (lambda d: d["setup"].update(deck=d["setup"]["deck"][:-1]), "setup.deck"),
        (lambda d: d["setup"]["deck"].__setitem__(0, "fire_4"), "setup.deck[0]"),
        (lambda d: d["setup"]["bag"].__setitem__(0, "gold"), "setup.bag[0]"),
        (lambda d: d["setup"]["scenario"].update(pile_next=["ship_b1"]), "setup.scenario.pile_next"),
        (lambda d: d.update(format="speicherstadt-lab/1"), "setup.scenario"),
    ]
    record_tampered_refused("tutorial-1-demand", cases)


def test_a_scenario_set_up_reshuffles_with_a_seed_like_any_set_up() -> None:
    setup = scenario_setup(shipped_scenario("tutorial-1-demand"))
    kwargs = {"scenario": setup["scenario"]}  # the review's luck estimate: the set-up without its hidden order
    a, b = sl.new_game(**kwargs, seed=1), sl.new_game(**kwargs, seed=2)
    assert public(a) == public(b) and a.hidden_parts() != b.hidden_parts()


def test_from_state_starts_a_record_at_a_position_in_a_game_from_its_scenario() -> None:
    state = sl.new_game(players=3, seed=1).apply("place 0")
    rec = GameRecord.from_state(state)
    assert set(rec.setup) == {"scenario", "deck", "bag"} and exact(rec.initial) == exact(state)
    assert rec.setup["scenario"]["workers"][0] == [0]
    assert public(GameRecord.from_scenario(scenario_of(state)).initial) == public(state)


# ---- the shipped files and the tutorial -------------------------------------------------------------------


def test_every_shipped_scenario_loads_is_legal_and_is_laid_out_for_people() -> None:
    names = shipped_scenarios()
    assert {f"tutorial-{n}-{k}" for n, k in enumerate(tutorial.KEYS, 1)} <= set(names)
    folder = Path(sl.__file__).parent / "data" / "scenarios"
    for name in names:
        data = shipped_scenario(name)
        state = sl.new_game(scenario=data)  # the game the scenario names (and test_packet_row_scenarios.py)
        if data["game"] == "speicherstadt":
            legal(state)
        assert sl.load_state(state.to_json()) == state  # the game's invariants hold
        assert (folder / f"{name}.json").read_text(encoding="utf-8") == scenario_text(data)
        for lang in ("en", "de"):
            title, text = describe(data, lang, state)
            assert title and text and "{" not in text


def test_the_tutorial_loads_its_lessons_from_the_shipped_files() -> None:
    lessons = {lesson.key: lesson for lesson in tutorial.lessons()}
    assert list(lessons) == list(tutorial.KEYS)
    assert lessons["demand"].state.phase == "demand" and lessons["demand"].state.round == 1
    purchase = lessons["purchase"].state
    assert purchase.phase == "purchase" and len(purchase.workers[purchase.space]) >= 2
    assert any(e.key == "fire" for e in lessons["fire"].state.events)
    loading = lessons["loading"].state
    assert loading.phase == "loading" and loading.dock and loading.events[0].key == "unload"
    assert lessons["end"].state.is_over
    assert str(purchase.price(purchase.space)) in lessons["purchase"].intro("en")
    assert "Nachfrage" in lessons["demand"].intro("de") and "{" not in lessons["end"].intro("de")
    assert tutorial.refused_conversion() is not None


def test_the_lesson_files_can_be_made_again_from_the_recorded_game(tmp_path: Path) -> None:
    record = tutorial.tutorial_record()
    paths = tutorial.write_lesson_scenarios(tmp_path, record)
    assert [p.stem for p in paths] == [f"tutorial-{n}-{k}" for n, k in enumerate(tutorial.KEYS, 1)]
    from_record = {lesson.key: lesson.state for lesson in tutorial.lessons(record)}
    for path, key in zip(paths, tutorial.KEYS, strict=True):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["title"] == shipped_scenario(path.stem)["title"]  # the texts are kept
        assert public(sl.new_game(scenario=data)) == public(from_record[key])


def test_build_returns_the_whole_start_order_that_recreates_it() -> None:
    data = shipped_scenario("tutorial-3-fire")
    state, deck, bag = build(data)
    assert deck[:5] == data["pile_next"] and bag[:3] == data["bag_next"]
    again, _deck, _bag = build({k: v for k, v in data.items() if k not in ("pile_next", "bag_next", "seed")},
                               seed=99, deck=deck, bag=bag)
    assert again.to_dict() == state.to_dict()


def test_the_documented_example_is_a_legal_scenario() -> None:
    doc = (REPO / "docs" / "record-format.md").read_text(encoding="utf-8")
    section = doc.split("## Scenarios", 1)[1]
    data = json.loads(section.split("```json", 1)[1].split("```", 1)[0])
    assert data == shipped_scenario("example-coffee-or-fire")  # it ships, for a teacher to copy
    state = sl.new_game(scenario=data)
    legal(state)
    assert state.to_move == 1 and state.player(1).name == "Ben"
    assert [c for c, _season in state.hidden_parts()["pile"][:3]] == data["pile_next"]
    title, text = describe(data, "de", state)
    assert title == "Kaffee oder der Brand?" and "Ben setzt zuerst" in text
    rec = GameRecord.from_scenario(data)
    assert GameRecord.from_json(rec.to_json()) == rec
