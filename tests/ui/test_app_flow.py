"""What a user trips over in the app (issue 23), driven from Python: bots that start when the seat to move
becomes a bot, the bot buttons at the end of a game, a scenario's start, and the line after a chance variation.
Their browser twins are in ``test_browser_flow.py``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.bots import make_bot
from speicherstadt_lab.scenarios import describe, shipped_scenario
from speicherstadt_lab.ui.app import LabApp
from tests.support.app import GatedBot, round_start_with_a_fire

HUMANS = ["human"] * 3


@pytest.fixture
def app() -> Iterator[LabApp]:
    """Three human seats, bots move by themselves, long work in the calling thread."""
    a = LabApp(players=3, seed=1, seats=HUMANS, threaded=False, chart_delay=0)
    yield a
    a.close()


def play_buttons(app: LabApp) -> list[bool]:
    """Whether "Bot move", "To end of round" and "To end of game" are disabled."""
    return [app.bot_button.disabled, app.round_button.disabled, app.end_button.disabled]


# ---- 1. the bots start when the seat to move becomes a bot ----------------------------------------------


def test_the_bots_start_when_the_seat_to_move_becomes_a_bot(app: LabApp) -> None:
    app.seat_kinds[1].value = "greedy"  # as the dropdowns do; seat 0 is to move, so nothing starts yet
    app.seat_kinds[2].value = "greedy"
    assert app.node is app.record.root and not app.busy
    app.seat_kinds[0].value = "greedy"
    assert app.state.is_over and app.node is app.record.end()
    assert {n.by["bot"] for n in app.record.mainline()[1:]} == {"greedy"}


def test_the_bots_start_when_bots_are_told_to_move_by_themselves(app: LabApp) -> None:
    app.auto.value = False
    for seat in range(3):
        app.set_seat(seat, "greedy")
    assert app.node is app.record.root
    app.auto.value = True
    assert app.state.is_over


def test_the_bots_stop_at_the_next_human_seat_and_new_game_sets_seats_before_they_start(app: LabApp) -> None:
    app.set_seat(1, "random")
    app.set_seat(0, "greedy")  # seat 0 plays, seat 1 plays, seat 2 (human) is to move
    assert [n.by["bot"] for n in app.record.mainline()[1:]] == ["greedy", "random"] and app.state.to_move == 2
    old = app.record
    app.new_game(seed=3, seats=["greedy", "human", "greedy"])  # the bots start in the new game, not the old one
    assert len(old.nodes()) == 3, "seat 2 was to move in the old game when it became a bot: no bot moved there"
    assert app.record.seed == 3 and app.node.ply == 1 and app.state.to_move == 1


def test_a_language_switch_or_a_seat_not_to_move_starts_nothing(app: LabApp) -> None:
    for seat in range(3):
        app.set_seat(seat, "greedy")
    assert app.state.is_over
    app.goto_ply(5)  # stepping through a game never lets the bots play on from there
    node = app.node
    app.set_lang("de")  # relabels the seat dropdowns: their values come and go
    app.set_seat((node.state.to_move + 1) % 3, "random")
    assert app.node is node and not node.children[1:]


def test_unticking_auto_stops_the_bots_after_their_move() -> None:
    app = LabApp(players=3, seed=2, seats=HUMANS, chart_delay=0)
    try:
        app.auto.value = False
        for seat in (1, 2):
            app.set_seat(seat, "random")
        app.set_seat(0, "mcts:seconds=1")
        bot = GatedBot()
        app._bots[0] = (app.seat_spec(0), bot)
        app.auto.value = True
        assert bot.thinking.wait(60) and app.busy and app._job is not None and app._job.kind == "auto"
        app.auto.value = False
        bot.gate.set()
        app.wait()
        assert app.node.ply == 1 and not app.busy
    finally:
        app.close()


# ---- 2. the bot buttons where the game is over ----------------------------------------------------------


def test_the_bot_buttons_are_off_where_the_game_is_over_and_while_bots_play(app: LabApp) -> None:
    assert play_buttons(app) == [False] * 3
    assert app.play_to_end()
    assert app.state.is_over and play_buttons(app) == [True] * 3
    app.back()
    assert play_buttons(app) == [False] * 3
    app.forward()
    assert play_buttons(app) == [True] * 3
    assert not app.play_to_round_end() and not app.play_to_end() and not app.bot_move()
    assert "over" in app.message.value and app.node is app.record.end()


def test_the_bot_buttons_are_off_while_a_job_plays() -> None:
    app = LabApp(players=3, seed=2, seats=HUMANS, chart_delay=0)
    try:
        app.auto.value = False
        app.set_seat(0, "mcts:seconds=1")
        bot = GatedBot()
        app._bots[0] = (app.seat_spec(0), bot)
        assert app.bot_move()
        assert bot.thinking.wait(60) and play_buttons(app) == [True] * 3
        bot.gate.set()
        app.wait()
        assert app.node.ply == 1 and play_buttons(app) == [False] * 3
    finally:
        app.close()


# ---- 3. starting a scenario -------------------------------------------------------------------------------


def test_a_scenario_starts_where_it_says_with_its_text_in_view() -> None:
    app = LabApp(players=3, seed=1, seats=["human", "greedy", "greedy"], threaded=False, chart_delay=0)
    try:
        data = shipped_scenario("example-coffee-or-fire")  # Ben (seat 1, a bot here) is first to place
        assert app.start_scenario(data)
        assert app.node is app.record.root and app.state.to_move == 1, "no bot moved away from the scenario"
        assert [app.seat_spec(k) for k in range(3)] == HUMANS  # every seat is the user's, to study it
        title, body = describe(data, "en", app.state)
        note = app.scenario_note
        assert note.title == title and note.body == body and "Ben is first to place" in body
        assert note.seq == 1 and note.layout.display != "none"  # shown, and the page is brought to it
        assert "“Coffee or the fire?”" in app.scenario_error.value
        app.set_seat(1, "greedy")  # the user lets a bot play the seat to move: it does
        assert app.node.ply >= 1 and app.record.root.children[0].by["bot"] == "greedy"
        app.set_lang("de")
        assert note.title == "Kaffee oder der Brand?" and "Ben setzt zuerst" in note.body
        assert not note.handle_message({"kind": "open"}) and note.title  # only the close button's message
        assert note.handle_message({"kind": "close"}) and note.layout.display == "none" and not note.body
        app.set_lang("en")
        assert note.layout.display == "none", "closed by the user: a language switch does not bring it back"
        app.scenario_note.put_up("t", "b")
        app.new_game()
        assert note.layout.display == "none" and not note.title
    finally:
        app.close()


def test_a_lesson_shows_its_text_and_a_scenario_without_title_is_named(app: LabApp) -> None:
    app.set_seat(2, "greedy")
    app.scenario_pick.value = "tutorial-2-purchase"
    assert app.start_scenario()
    assert app.scenario_note.title == "Purchase" and "Red decides now: buy or pass." in app.scenario_note.body
    assert "Vulcanizer" in app.scenario_note.body and app.seat_spec(2) == "human"
    app.play("pass")
    app.fill_scenario()  # this position, as a scenario: it has no title
    assert app.start_scenario()
    assert "scenario ." not in app.scenario_error.value and "without a title" in app.scenario_error.value
    assert app.scenario_note.title == "" and "round 1" in app.scenario_note.body.lower()
    assert app.scenario_note.seq == 2


# ---- 4. after a chance variation ------------------------------------------------------------------------


def finished_record(seed: int = 4) -> sl.GameRecord:
    return sl.record_game(sl.new_game(players=3, seed=seed), [make_bot("greedy", seed=i) for i in range(3)])


def test_the_event_list_after_a_chance_variation_shows_each_event_once(app: LabApp) -> None:
    assert app.load_json(finished_record().to_json())
    node, fire = round_start_with_a_fire(app.record)
    app.goto(node)
    before = app.board.model["log"]
    child = app.make_chance_variation(pile=[fire])
    assert child is not None and app.node is child
    assert app.board.model["log"] == before  # a chance step moves no piece and tells nothing new
    app.play(str(app.state.legal_actions()[0]))
    log = app.board.model["log"]
    assert [e["action"] for e in log[1:]] == [e["action"] for e in before[: len(log) - 1]]


def test_the_bots_play_on_after_a_chance_variation(app: LabApp) -> None:
    assert app.load_json(finished_record().to_json())
    app.auto.value = False
    for seat in range(3):
        app.set_seat(seat, "greedy")
    app.auto.value = True  # at the end of the game: nothing to play
    node, fire = round_start_with_a_fire(app.record)
    app.goto(node)
    assert app.node is node
    child = app.make_chance_variation(pile=[fire])
    assert child is not None and app.state.is_over and app.record.path_to(app.node)[node.ply + 1] is child


def test_the_what_if_panel_says_in_one_line_why_it_is_closed_in_play(app: LabApp) -> None:
    assert not app.whatif_open() and app.whatif_make.disabled and app.panels.whatif.buttons.layout.display == "none"
    assert "Closed while a person plays" in app.whatif_info.value and "hidden order" in app.whatif_info.value
    app.set_lang("de")
    assert "Geschlossen, solange ein Mensch spielt" in app.whatif_info.value
    app.auto.value = False
    for seat in range(3):
        app.set_seat(seat, "greedy")  # analysis: the panel opens
    assert app.whatif_open() and app.panels.whatif.buttons.layout.display is None and not app.whatif_make.disabled
