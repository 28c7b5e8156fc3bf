"""The app's scenario panel driven from Python: fill, change, start; a wrong scenario changes nothing."""

from __future__ import annotations

import json

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.records import GameRecord
from speicherstadt_lab.scenarios import scenario_of, shipped_scenario
from speicherstadt_lab.ui.app import TEXTS, LabApp


@pytest.fixture
def app() -> LabApp:
    a = LabApp(players=3, seed=1, seats=["human"] * 3, threaded=False, chart_delay=0)
    yield a
    a.close()


def test_the_panel_shows_the_position_on_the_board_and_the_shipped_scenarios(app: LabApp) -> None:
    assert "ssl-scenario" in app.scenario_panel._dom_classes
    assert json.loads(app.scenario_text.value) == scenario_of(app.state)
    app.play("place 0")
    app.scenario_panel.selected_index = 0  # opened: the text follows the board (it was not changed by hand)
    assert json.loads(app.scenario_text.value) == scenario_of(app.state)
    names = [v for _label, v in app.scenario_pick.options if v]
    assert "tutorial-2-purchase" in names
    app.scenario_pick.value = "tutorial-2-purchase"
    assert json.loads(app.scenario_text.value) == shipped_scenario("tutorial-2-purchase")


def test_starting_a_scenario_makes_a_record_whose_root_is_it(app: LabApp) -> None:
    app.fill_scenario("tutorial-4-loading")
    data = json.loads(app.scenario_text.value)
    data["seats"][0]["coins"] = 7  # a teacher changes a number
    app.scenario_text.value = json.dumps(data)
    assert app.start_scenario()
    assert app.node is app.record.root and app.record.setup["scenario"]["seats"][0]["coins"] == 7
    assert app.state.phase == "loading" and app.state.coins[0] == 7
    assert "ssl-ok" in app.scenario_error.value and "Loading" in app.scenario_error.value
    assert app.record.headers == {"scenario": "Loading"}
    app.play(str(app.state.legal_actions()[0]))
    again = GameRecord.from_json(app.save_json())  # the saved record replays the scenario game exactly
    assert again == app.record and again.end().state.to_dict() == app.state.to_dict()


@pytest.mark.parametrize(("change", "field"), [
    (lambda d: d["seats"][1].setdefault("cards", []).append("contract_b1"), "seats[1].cards"),
    (lambda d: d.update(players=7), "players"),
    (lambda d: d.update(water=["fire_1"]), "water[0]"),
    (lambda d: d.update(bag_next=["gold"]), "bag_next[0]"),
])
def test_a_wrong_scenario_changes_nothing_and_names_the_field(app: LabApp, change: object, field: str) -> None:
    app.play("place 1")
    record, node = app.record, app.node
    data = scenario_of(app.state)
    change(data)  # type: ignore[operator]
    app.scenario_text.value = json.dumps(data)
    assert not app.start_scenario()
    assert app.record is record and app.node is node and len(record.nodes()) == 2
    assert f"scenario field &#x27;{field}" in app.scenario_error.value and "ssl-err" in app.scenario_error.value


def test_text_that_is_not_a_json_object_is_refused(app: LabApp) -> None:
    record = app.record
    assert not app.start_scenario("{players: 3")
    assert "not valid JSON" in app.scenario_error.value
    assert not app.start_scenario('"somewhere/lesson.json"')  # a text is never read as a file's path
    assert "JSON object" in app.scenario_error.value and app.record is record


def test_the_panel_speaks_german(app: LabApp) -> None:
    app.set_lang("de")
    assert app.scenario_panel.get_title(0) == TEXTS["de"]["scenario"]
    assert app.scenario_start.description == "Szenario starten"
    assert any(label.startswith("Kauf") for label, _v in app.scenario_pick.options)
    app.scenario_text.value = json.dumps({"format": "speicherstadt-lab/scenario/1", "game": "speicherstadt",
                                          "players": 1})
    assert not app.start_scenario()
    assert "Das Szenario ist fehlerhaft" in app.scenario_error.value and "players" in app.scenario_error.value
    for key in ("scenario", "scenario_help", "scenario_pick", "scenario_current", "scenario_start",
                "scenario_error", "scenario_json", "scenario_started", "scenario_cannot"):
        assert TEXTS["en"][key] and TEXTS["de"][key]


def test_packet_row_positions_are_scenarios_too(app: LabApp) -> None:
    app.new_game(game="packet_row")
    assert app.fill_scenario()  # this position, as Packet Row scenario JSON
    data = json.loads(app.scenario_text.value)
    assert data["game"] == "packet_row" and app.scenario_error.value == ""
    names = [v for _label, v in app.scenario_pick.options if v]
    assert any(n.startswith("packet-row-") for n in names)
    assert app.start_scenario(shipped_scenario("packet-row-captain"))
    assert app.state.game == "packet_row" and app.game.value == "packet_row"
    assert app.start_scenario(shipped_scenario("tutorial-1-demand"))  # a scenario of another game starts it
    assert app.state.game == "speicherstadt" and app.game.value == "speicherstadt"


def test_kaispeicher_scenario_sets_the_chooser(app: LabApp) -> None:
    data = {"format": "speicherstadt-lab/scenario/1", "game": "speicherstadt", "expansion": "kaispeicher",
            "players": 4, "round": 2, "seed": 3}
    assert app.start_scenario(data)
    assert app.game.value == "kaispeicher" and app.players.value == 4 and app.seed.value == 3
    assert sl.load_state(app.state.to_json()) == app.state
