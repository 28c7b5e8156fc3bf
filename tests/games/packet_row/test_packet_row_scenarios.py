"""Packet Row scenarios: a position described as data, checked field by field, built, kept secret where it should be,
recorded and replayed exactly; and records that start at any legal position (``GameRecord.from_state``)."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.bots import make_bot
from speicherstadt_lab.engine.scenario import SCENARIO_FORMAT
from speicherstadt_lab.games.packet_row import check_invariants
from speicherstadt_lab.games.packet_row.scenario import build, public_part, rigged, scenario_setup, stacked_decks
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
from tests.support.paths import REPO
from tests.support.scenario_fields import common_errors, random_positions, record_tampered_refused, refused
from tests.support.scenario_fields import set_field as _set

SHIPPED = ("packet-row-captain", "packet-row-harbour-master", "packet-row-last-round", "packet-row-assistant")


def scenario(players: int = 3, **fields: Any) -> dict[str, Any]:
    return {"format": SCENARIO_FORMAT, "game": "packet_row", "players": players, **fields}


def exact(state: Any) -> dict[str, Any]:
    """The whole state, hidden order included, without the events and the action that led there."""
    d = state.to_dict()
    for key in ("events", "last_action"):
        d.pop(key)
    return d


def public(state: Any, seat: int | None = None) -> dict[str, Any]:
    """What ``seat`` (None: a spectator) sees, without the events and the action that led there."""
    d = state.view(seat)
    for key in ("events", "last_action"):
        d.pop(key)
    return d


def legal(state: Any) -> None:
    assert check_invariants(state) == []
    assert sl.load_state(state.to_json()) == state  # the state file loader's own checks agree


def positions(players: int, seed: int, every: int = 5) -> list[Any]:
    """Every ``every``-th position of a random game of Packet Row, and its end."""
    return random_positions(players, seed, every=every, game="packet_row")


def play(state: Any, seed: int, plies: int) -> list[Any]:
    """``state`` and the positions after up to ``plies`` random moves (a list, the first is ``state``)."""
    rng = random.Random(seed)
    out = [state]
    while len(out) <= plies and not out[-1].is_over:
        out.append(out[-1].apply(rng.choice(out[-1].legal_actions())))
    return out


# ---- a described position ---------------------------------------------------------------------------------

BASE = scenario(
    3, round=4, harbour_master=1,
    boards={"guild": {"current": ["tobacco_nl", "assistant"]}, "docks": {"current": ["captain", "ship_fr"]},
            "market": {"current": ["market_university", "fur2"]}, "bank": {"current": ["money5", "bank_church"]}},
    seats=[{"money": 14, "hand": ["grain2", "assistant"], "ships": ["ship_gb"]},
           {"money": 6, "hand": ["cotton_fr", "cotton3", "cotton1", "captain"], "ships": ["ship_es"]},
           {"money": 11, "hand": ["banker", "bank_church"]}])


def test_a_described_position_is_built_as_written() -> None:
    data = copy.deepcopy(BASE)
    data["seats"][2]["start"] = "start_fur_es"
    data["boards"]["market"]["next"] = ["fur3", "merchant"]
    data["boards"]["guild"]["discard"] = ["start_grain_gb", "fur_nl"]
    data["names"] = ["Ada", "Ben", "Cleo"]
    original = copy.deepcopy(data)
    s = sl.new_game("packet_row", scenario=data)
    assert data == original  # the caller's data is never changed
    legal(s)
    assert (s.round, s.phase, s.harbour_master, s.to_move) == (4, "choose", 1, 1)
    assert s.money == (14, 6, 11) and s.bank == 3 * 25 - 31  # money is conserved through the general supply
    assert s.player(1).ships == ("ship_es",) and set(s.player(1).hand) >= {"cotton_fr", "cotton3", "captain"}
    assert "start_fur_es" in s.player(2).hand and s.player(1).name == "Ben"
    assert s.supply("market")["current"] == ("market_university", "fur2")
    assert s.supply("market")["future"] == ("fur3", "merchant")  # a supply left out is dealt from `next` first
    assert s.supply("guild")["discard"] == ("start_grain_gb", "fur_nl")
    assert all(sum(1 for c in p.hand if c.startswith("start_")) == 1 for p in map(s.player, range(3)))
    assert [e.key for e in s.events] == ["pr_round"]
    assert "fulfil cotton_fr ship es captain fr goods cotton1 cotton3" in map(str, s.legal_actions())


def test_a_scenario_that_places_nothing_is_the_seeds_normal_set_up() -> None:
    for players in (2, 3, 4, 5):
        s = sl.new_game(scenario=scenario(players, seed=8))
        assert exact(s) == exact(sl.new_game("packet_row", players=players, seed=8))


def test_a_scenario_file_dispatches_to_its_game_and_saves_checked(tmp_path: Path) -> None:
    path = tmp_path / "lesson.json"
    save_scenario(BASE, path)
    assert json.loads(path.read_text()) == BASE and path.read_text() == scenario_text(BASE)
    assert exact(sl.new_game(scenario=path)) == exact(sl.new_game("packet_row", scenario=str(path)))
    assert sl.new_game(scenario=path).game == "packet_row"  # the game the scenario names, without saying it
    assert load_scenario(path) == BASE
    with pytest.raises(sl.ScenarioError):
        sl.new_game("speicherstadt", scenario=path)  # a game given explicitly is the game
    with pytest.raises(ValueError, match="inside the scenario"):
        sl.new_game("packet_row", players=3, scenario=BASE)
    with pytest.raises(sl.ScenarioError, match="'players'"):
        save_scenario(dict(BASE, players=6), tmp_path / "wrong.json")
    assert not (tmp_path / "wrong.json").exists()


# ---- errors name the field --------------------------------------------------------------------------------


ERRORS = [
    *common_errors("Packet Row"),
    (_set("harbour_master", 3), "harbour_master", "seat 0..2"),
    (_set("phase", "buy"), "phase", "one of"),
    (_set("title", "Lesson"), "title", '{"en"'),
    (_set("seed", True), "seed", "whole number or a text"),
    (_set("names", ["Ada"]), "names", "3 non-empty texts"),
    (_set("catalog", "mine.toml"), "catalog", "must be null"),
    (_set("boards.harbour", {}), "boards.harbour", "unknown field"),
    (_set("boards.guild.deck", []), "boards.guild.deck", "unknown field"),
    (_set("boards.guild.current", ["fur_xx"]), "boards.guild.current[0]", "unknown card id"),
    (_set("boards.guild.current", ["ship_de"]), "boards.guild.current[0]", "belongs to the docks board"),
    (_set("boards.guild.current", ["fur_de", "fur_es", "fur_gb"]), "boards.guild.current", "2 slot(s)"),
    (_set("boards.guild.current", ["start_fur_es"]), "boards.guild.current[0]", "is a starting contract"),
    (_set("boards.guild.current", [None, "assistant"]), "boards.guild.current[0]", "not in 'short'"),
    (_set("boards.guild.future", [None, "fur_de"]), "boards.guild.future[0]", "lie in its deck"),
    (_set("boards.guild.discard", ["ship_gb"]), "boards.guild.discard[0]", "belongs to the docks board"),
    (_set("boards.guild.next", ["ship_de"]), "boards.guild.next[0]", "not a card of the guild deck"),
    (_set("boards.guild.next", ["cotton_fr"]), "boards.guild.next[0]", "is at 'seats[1].hand[0]'"),
    (_set("boards.market.next", ["market_university", "market_university"]), "boards.market.next[1]",
     "only 1 of its copies"),
    (_set("boards.guild.current", ["cotton_fr"]), "seats[1].hand[0]", "placed already at 'boards.guild.current[0]'"),
    (_set("seats", [{}, {}]), "seats", "one entry per player"),
    (_set("seats.0.money", -1), "seats[0].money", "0 or more"),
    (_set("seats.0.coins", 3), "seats[0].coins", "unknown field"),
    (_set("seats.0.hand", ["ship_de"]), "seats[0].hand[0]", "ships lie open"),
    (_set("seats.0.ships", ["grain2"]), "seats[0].ships[0]", "not a ship"),
    (_set("seats.0.hand", ["start_fur_es"]), "seats[0].hand[0]", "is a starting contract"),
    (_set("seats.0.hand", ["cotton_fr"]), "seats[1].hand[0]", "placed already at 'seats[0].hand[0]'"),
    (_set("seats.0.start", "grain_gb"), "seats[0].start", "not a starting contract"),
    (_set("seats.0.pawn", ["market", "current", 0]), "seats[0].pawn", "only in the decide phase"),
    (_set("box", ["grain_gb"]), "box[0]", "not a starting contract"),
    (_set("chosen", ["market"]), "chosen", "only in the decide phase"),
    (_set("short", ["bank"]), "short", "the game has ended"),
    (_set("short", ["harbour"]), "short[0]", "must be a board"),
    (_set("to_move", 0), "to_move", "leave this out"),
]


@pytest.mark.parametrize(("change", "field", "words"), ERRORS, ids=[e[1] + ":" + e[2] for e in ERRORS])
def test_each_error_names_its_field_and_changes_nothing(change: Any, field: str, words: str) -> None:
    data = copy.deepcopy(BASE)
    change(data)
    refused(lambda d: sl.new_game("packet_row", scenario=d), data, field, words)


def test_the_base_scenario_of_the_error_table_is_legal() -> None:
    legal(sl.new_game("packet_row", scenario=copy.deepcopy(BASE)))


HARBOUR = shipped_scenario("packet-row-harbour-master")


@pytest.mark.parametrize(("change", "field", "words"), [
    (_set("chosen", []), "chosen", "give the boards chosen this round"),
    (_set("seats.1.pawn", ["bank", "current", 0]), "seats[1].pawn", "the harbour master takes last"),
    (_set("seats.0.pawn", ["guild", "current", 0]), "seats[0].pawn", "was not chosen this round"),
    (_set("seats.0.pawn", ["docks", "current", 0]), "seats[0].pawn", "holds 'gold1'"),
    (_set("seats.0.pawn", ["docks", "past", 2]), "seats[0].pawn", "must be null or [board"),
    (_set("seats.0.pawn", ["market", "current", 0]), "seats[2].pawn", "seat 0's pawn stands there already"),
    (_set("to_move", 0), "to_move", "took a card this round already"),
    (lambda d: (d["seats"][2].pop("pawn"), d["boards"]["market"]["current"].__setitem__(0, "grain1")),
     "seats[0].pawn", "so it decided before seat 2"),
    (_set("phase", "final"), "short", "the game ends once 2 board(s)"),
])
def test_the_round_s_rules_name_their_fields(change: Any, field: str, words: str) -> None:
    data = copy.deepcopy(HARBOUR)
    change(data)
    with pytest.raises(sl.ScenarioError) as info:
        sl.new_game(scenario=data)
    assert info.value.field == field and words in info.value.detail, str(info.value)


def test_the_end_needs_boards_that_cannot_be_filled_and_two_players_keep_their_removed_cards() -> None:
    data = scenario(3, phase="final", short=["guild"])
    with pytest.raises(sl.ScenarioError) as info:
        sl.new_game(scenario=data)
    assert info.value.field == "short[0]" and "lie in its deck" in info.value.detail
    market = [c.id for c in sl.new_game("packet_row", players=2).cat.deck("market") for _ in range(c.count)]
    data = scenario(2, boards={"market": {"discard": market[:-5]}})  # 5 left, fewer than the 6 removed unseen
    with pytest.raises(sl.ScenarioError) as info:
        sl.new_game(scenario=data)
    assert info.value.field == "boards.market" and "6 cards of each deck stay out" in info.value.detail


def test_a_scenario_that_is_no_object_or_names_no_game_with_scenarios_is_refused() -> None:
    with pytest.raises(sl.ScenarioError, match="must be an object"):
        sl.new_game("packet_row", scenario=[1, 2])
    with pytest.raises(sl.ScenarioError, match="Packet Row: 'packet_row'"):
        load_scenario(scenario(3, game="chess"))


# ---- scenario_of ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_scenario_of_any_position_gives_the_same_position(players: int) -> None:
    for state in positions(players, seed=players + 20, every=7):
        data = json.loads(json.dumps(scenario_of(state)))  # as a file holds it
        again = sl.new_game(scenario=data)
        assert public(again) == public(state), (state.round, state.phase)
        assert again.to_move == state.to_move
        full = sl.new_game(scenario=json.loads(json.dumps(scenario_of(state, hidden=True))))
        assert exact(full) == exact(state)  # with the hidden order the game goes on exactly as it would
        assert full.legal_actions() == state.legal_actions()


def test_a_position_with_its_own_catalogue_and_names_is_a_scenario_too() -> None:
    custom = {"base": "default", "cards": [{"id": "guild_church", "vp": 2}]}
    s = play(sl.new_game("packet_row", players=3, seed=2, catalog=custom, names=["Ann", "Bo", "Cy"]), 3, 9)[-1]
    data = json.loads(json.dumps(scenario_of(s, hidden=True)))
    assert data["catalog"]["cards"] and data["names"] == ["Ann", "Bo", "Cy"]
    again = sl.new_game(scenario=data)
    assert exact(again) == exact(s) and again.cat.by_id["guild_church"].vp == 2
    rec = GameRecord.from_state(s)
    assert GameRecord.from_json(rec.to_json()) == rec


def test_without_its_hidden_order_a_scenario_deals_the_secrets_from_its_seed() -> None:
    state = positions(4, seed=3, every=11)[3]
    data = scenario_of(state)
    assert "box" not in data and not any("next" in b for b in data["boards"].values())
    assert all("start" not in s or s["start"] is None for s in data["seats"])  # secret: left to the seed
    a, b = sl.new_game(scenario=dict(data, seed=1)), sl.new_game(scenario=dict(data, seed=2))
    assert public(a) == public(b) == public(state)
    assert a.hidden_parts() != b.hidden_parts()
    named = scenario_of(positions(3, seed=5)[-1])
    assert all(isinstance(s["start"], str) or s["start"] is None for s in named["seats"])  # the hands are shown


# ---- hidden information -----------------------------------------------------------------------------------


def test_secret_cards_are_only_in_the_scenario_never_in_another_seats_view() -> None:
    data = copy.deepcopy(BASE)
    data["seats"][0]["start"] = "start_tobacco_de"
    data["box"] = ["start_cotton_se"]
    data["boards"]["docks"]["next"] = ["docks_library", "gold2", "docks_university"]
    s = sl.new_game(scenario=data)
    assert "start_tobacco_de" in s.player(0).hand and s.hidden_parts()["box"][0] == "start_cotton_se"
    assert s.supply("docks")["future"] == ("docks_library", "gold2") and s.hidden_parts()["decks"]["docks"][0] == \
        "docks_university"
    for seat in (None, 1, 2):
        view = public(s, seat)
        rest = {k: v for k, v in view.items() if k != "start_contracts_unseen"}  # the candidates, as a multiset
        text = json.dumps(rest)
        assert "start_tobacco_de" not in text and "start_cotton_se" not in text
        assert view["seats"][0]["secret"] == 1
        assert view["boards"]["docks"]["deck"] == len(s.hidden_parts()["decks"]["docks"])  # a size, not an order
    assert "start_tobacco_de" in json.dumps(s.view(0))  # a seat knows its own
    text = describe(data, "en", s)[1]
    assert "start_" not in text


def test_a_record_keeps_the_secrets_in_its_hidden_set_up_and_a_seats_export_leaves_them_out() -> None:
    data = copy.deepcopy(BASE)
    data["seats"][0]["start"] = "start_tobacco_de"
    data["boards"]["docks"]["next"] = ["docks_library", "gold2", "docks_university"]
    rec = GameRecord.from_scenario(data)
    kept = rec.setup["scenario"]
    assert kept == public_part(data) and "start" not in kept["seats"][0] and "next" not in kept["boards"]["docks"]
    assert set(rec.setup) == {"scenario", "decks", "start_contracts"}
    assert rec.setup["start_contracts"][0] == "start_tobacco_de"
    rec.root.play_out([make_bot("greedy", seed=s) for s in range(3)])
    for seat in (1, 2):
        export = json.loads(rec.to_json(as_seat=seat))
        assert export["setup"]["decks"] is None and export["setup"]["start_contracts"] is None
        assert "start_tobacco_de" not in json.dumps(export["setup"])
        fulfilled = "start_tobacco_de" in json.dumps(rec.end().state.view(None)["boards"]["guild"]["discard"])
        assert (export["hidden"]["start_contracts"][0] == "start_tobacco_de") == (
            fulfilled or rec.end().state.phase in ("final", "over"))  # shown once the hands are shown
        seen = GameRecord.from_json(json.dumps(export))
        assert seen.is_observation
        for mine, theirs in zip(seen.mainline(), rec.mainline(), strict=True):
            assert public(mine.state, seat) == public(theirs.state, seat)
    middle = GameRecord.from_scenario(data)
    middle.root.play("choose market")
    export = json.loads(middle.to_json(as_seat=2))
    assert export["hidden"]["start_contracts"][0] is None  # not shown yet: seat 2 never saw it


# ---- records ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SHIPPED)
def test_a_record_of_a_scenario_game_round_trips_and_replays_exactly(name: str, tmp_path: Path) -> None:
    data = shipped_scenario(name)
    rec = GameRecord.from_scenario(data)
    assert rec.headers == {"scenario": data["title"]["en"]} and rec.seed == data["seed"]
    assert public(rec.initial) == public(sl.new_game(scenario=data))
    assert exact(rec.initial) == exact(sl.new_game(scenario=data))  # the seed's deal, materialized
    end = rec.root.play_out([make_bot("greedy", seed=s) for s in range(rec.initial.n_players)])
    assert end.state.is_over
    mid = rec.mainline()[min(3, len(rec.mainline()) - 1)]
    parts = mid.state.hidden_parts()
    deck = next(b for b, cards in parts["decks"].items() if len(cards) >= 2)
    chance = mid.rearrange(decks={deck: parts["decks"][deck][1:2]}, comment="what if")
    if not chance.state.is_over:
        chance.play(chance.state.legal_actions()[0])
    path = tmp_path / "game.json"
    rec.save(path)
    again = GameRecord.load(path)
    assert again == rec and again.to_json() == rec.to_json()
    for a, b in zip(again.nodes(), rec.nodes(), strict=True):
        assert a.state.to_dict() == b.state.to_dict()
    assert sl.new_game("packet_row", **rec.setup).to_dict() == rec.initial.to_dict()  # the set-up alone


def test_a_scenario_record_file_that_is_tampered_with_names_the_field() -> None:
    cases = [
        (lambda d: d["setup"]["scenario"]["seats"][0].update(money=-2), "setup.scenario.seats[0].money"),
        (lambda d: d["setup"]["decks"][0].pop(), "setup.decks[0]"),
        (lambda d: d["setup"]["decks"].pop(), "setup.decks"),
        (lambda d: d["setup"]["start_contracts"].__setitem__(0, "grain_gb"), "setup.start_contracts"),
        (lambda d: d["setup"]["scenario"]["boards"]["guild"].update(next=["fur_de"]),
         "setup.scenario.boards.guild.next"),
        (lambda d: d["setup"]["scenario"].update(box=["start_fur_es"]), "setup.scenario.box"),
        (lambda d: d["setup"].update(decks="all"), "setup.decks"),
    ]
    record_tampered_refused("packet-row-captain", cases)


def test_a_scenario_set_up_reshuffles_with_a_seed_like_any_set_up() -> None:
    state = positions(4, seed=6, every=9)[2]
    setup = scenario_setup(scenario_of(state, hidden=True))
    assert setup["scenario"] == public_part(scenario_of(state, hidden=True)) == scenario_of(state)
    kwargs = {"scenario": setup["scenario"]}  # the review's luck estimate: the set-up without its hidden order
    a, b = sl.new_game("packet_row", **kwargs, seed=1), sl.new_game("packet_row", **kwargs, seed=2)
    assert public(a) == public(b) == public(state) and a.hidden_parts() != b.hidden_parts()
    assert exact(sl.new_game("packet_row", **setup, seed=3)) == exact(state)  # the materialized order, any seed
    data = shipped_scenario("packet-row-harbour-master")
    lesson, decks, start = build(data)
    again, _decks, _start = build(public_part(data), seed=99, decks=decks, start_contracts=start)
    assert exact(again) == exact(lesson)
    by_board = dict(zip(("guild", "docks", "market", "bank"), decks, strict=True))  # as new_game's decks may be
    assert exact(build(public_part(data), decks=by_board, start_contracts=start)[0]) == exact(lesson)


# ---- records from any legal position ----------------------------------------------------------------------


def test_from_state_records_a_rigged_position_that_replays_exactly(tmp_path: Path) -> None:
    decks = stacked_decks(bottom=["fur_de", "fur3", "ship_de"])
    start = sl.new_game("packet_row", players=4, seed=3, decks=decks)
    state = rigged(start.apply("choose market"), 1, hand=["fur_de", "fur3"], ships=["ship_de"], money=31)
    rec = GameRecord.from_state(state)  # the issue: "decks: the guild deck is not the board's cards (missing ...)"
    assert set(rec.setup) == {"scenario", "decks", "start_contracts"}
    assert exact(rec.initial) == exact(state)
    line = play(state, seed=7, plies=40)
    node = rec.root
    for nxt in line[1:]:
        node = node.play(nxt.last_action)
        assert node.state == nxt  # the same states as the game played on from the rigged position
    path = tmp_path / "rigged.json"
    rec.save(path)
    again = GameRecord.load(path)
    assert again == rec
    for a, b in zip(again.mainline(), rec.mainline(), strict=True):
        assert a.state.to_dict() == b.state.to_dict()
    assert again.end().state == line[-1]


def test_from_state_keeps_the_fast_path_for_a_start_and_refuses_an_observation() -> None:
    start = sl.new_game("packet_row", players=3, seed=4)
    rec = GameRecord.from_state(start)
    assert rec.initial is start and "scenario" not in rec.setup and rec.setup["players"] == 3
    mid = play(start, seed=2, plies=12)[-1]
    assert exact(GameRecord.from_state(mid).initial) == exact(mid)
    with pytest.raises(ValueError, match="observation"):
        GameRecord.from_state(mid.observe(0))


# ---- the shipped examples ---------------------------------------------------------------------------------


def test_the_shipped_examples_load_are_legal_and_teach_what_they_say() -> None:
    names = [n for n in shipped_scenarios() if shipped_scenario(n)["game"] == "packet_row"]
    assert set(SHIPPED) <= set(names) and len(names) >= 3
    folder = Path(sl.__file__).parent / "data" / "scenarios"
    for name in names:
        data = shipped_scenario(name)
        state = sl.new_game(scenario=data)
        legal(state)
        assert load_scenario(folder / f"{name}.json") == data
        assert (folder / f"{name}.json").read_text(encoding="utf-8") == scenario_text(data)
        for lang in ("en", "de"):
            title, text = describe(data, lang, state)
            assert title and text and "{" not in text and data["title"][lang] and data["text"][lang]
    actions = {name: [str(a) for a in sl.new_game(scenario=shipped_scenario(name)).legal_actions()] for name in SHIPPED}
    assert "fulfil cotton_fr ship es captain fr goods cotton1 cotton3" in actions["packet-row-captain"]
    assert "take guild 0" in actions["packet-row-harbour-master"]  # a board nobody chose: everyone else took a card
    assert not any(a.startswith("take market") for a in actions["packet-row-harbour-master"])
    assert "take market future 0" in actions["packet-row-assistant"]
    last = sl.new_game(scenario=shipped_scenario("packet-row-last-round"))
    node = last.apply("choose bank")
    while node.phase == "decide":  # nobody takes a card: the others decline, the harbour master chooses on, then passes
        acts = [str(a) for a in node.legal_actions()]
        node = node.apply(next((a for a in acts if a in ("decline", "pass")), None)
                          or next(a for a in acts if a.startswith("choose")))
    assert node.phase in ("final", "over") and node.short_boards == ("bank",)


def test_the_documented_example_is_a_shipped_scenario() -> None:
    doc = (REPO / "docs" / "record-format.md").read_text(encoding="utf-8")
    section = doc.split("### Packet Row", 1)[1]
    data = json.loads(section.split("```json", 1)[1].split("```", 1)[0])
    assert data == shipped_scenario("packet-row-captain")  # it ships, for a teacher to copy
    legal(sl.new_game(scenario=data))
