"""The analysis app driven from Python: its controls, the board's click messages, jobs, save and load."""

from __future__ import annotations

import html
import json
import threading
from typing import Any

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.analysis import compare_actions
from speicherstadt_lab.records import GameRecord
from speicherstadt_lab.ui.app import TEXTS, LabApp
from speicherstadt_lab.ui.app.live_panel import LIVE_ROLLOUTS
from speicherstadt_lab.ui.clicks import act_message
from tests.support.app import GatedBot, tree_items

HUMANS = ["human", "human", "human"]


@pytest.fixture
def app() -> LabApp:
    """Three human seats, seed 1, charts at once (no delay)."""
    a = LabApp(players=3, seed=1, seats=HUMANS, chart_delay=0)
    yield a
    a.close()


def click(app: LabApp, kind: str, **args: Any) -> bool:
    """A click on the board, as the browser reports it: the action message of the verb ``kind`` with ``args``."""
    return app.board.handle_message(act_message(kind, args))


def series(app: LabApp, line: str, name: str, seat: int = 0) -> Any:
    """The chart's trace of ``seat`` for ``name`` (projected, coins, win_prob, band) on the main line or branch."""
    for tr in app.chart.to_figure().data:
        meta = tr.meta or {}
        if meta.get("seat") == seat and meta.get("line") == line and meta.get("series") == name:
            return tr
    raise AssertionError(f"no {line} {name} trace for seat {seat}")


# ---- new game and clicks -----------------------------------------------------------------------------


def test_new_game_builds_the_record_and_the_seat_controls(app: LabApp) -> None:
    app.new_game(players=4, seed=9, seats=["human", "greedy", "random", "mcts"])
    app.wait()
    assert app.record.initial.n_players == 4 and app.record.seed == 9
    assert app.players.value == 4 and app.seed.value == 9
    assert [d.value for d in app.seat_kinds[:4]] == ["human", "greedy", "random", "mcts"]
    assert [r.layout.display for r in app.panels.seats.rows] == [None] * 4 + ["none"]  # rows stay; extra ones hide
    assert "ssl-seats-4" in app.panels.seats.box._dom_classes and "ssl-seats-3" not in app.panels.seats.box._dom_classes
    assert app.node is app.record.root and app.board.state is app.record.initial
    assert app.board.model["round"] == 1 and len(app.board.model["seats"]) == 4
    assert app.tree.tree == {"root": 0, "line": []}
    assert app.seat_spec(3) == f"mcts:{app.mcts_strength.value}"
    with pytest.raises(ValueError, match="players"):
        app.new_game(players=6)
    with pytest.raises(ValueError, match="unknown bot"):
        app.set_seat(0, "grandmaster")


def test_board_clicks_play_and_the_bots_answer_by_themselves() -> None:
    app = LabApp(players=3, seed=1, seats=["human", "greedy", "random"], chart_delay=0)
    assert app.auto.value
    assert click(app, kind="place", space=2)
    app.wait()
    path = app.record.path_to(app.node)
    assert [n.action for n in path[1:2]] == ["place 2"]
    assert [n.by if isinstance(n.by, str) else n.by["bot"] for n in path[1:]] == ["human", "greedy", "random"]
    assert app.state.to_move == 0 and app.board.state is app.state
    assert app.board.model["prompt"].startswith("Red")
    assert [i["a"] for i in tree_items(app)] == [n.action for n in path[1:]]
    app.auto.value = False
    assert click(app, kind="place", space=0)
    app.wait()
    assert app.node.ply == 4 and app.state.to_move == 1  # the greedy seat waits for "bot move"


def test_a_refused_click_shows_on_the_board_and_changes_nothing(app: LabApp) -> None:
    before = app.node
    assert not click(app, kind="buy")
    assert app.board.error and app.node is before and not before.children
    with pytest.raises(sl.IllegalAction):
        app.play("buy")
    assert app.node is before and not before.children


# ---- navigation and variations -----------------------------------------------------------------------


def play_plies(app: LabApp, n: int) -> None:
    for _ in range(n):
        app.play(str(app.state.legal_actions()[0]))


def test_navigation_moves_the_board_along_the_line(app: LabApp) -> None:
    play_plies(app, 6)
    end = app.node
    app.back()
    assert app.node is end.parent and app.board.state is end.parent.state
    assert app.slider.value == 5 and app.slider.max == 6
    assert app.position.value.startswith("<b>Ply 5 of 6</b>")
    app.first()
    assert app.node is app.record.root and app.first_button.disabled and app.back_button.disabled
    app.forward()
    assert app.node.ply == 1
    app.slider.value = 4  # the slider drives the board
    assert app.node.ply == 4 and app.board.state is app.node.state
    app.last()
    assert app.node is end and app.forward_button.disabled and app.last_button.disabled
    app.goto_ply(2)
    assert app.node is app.record.mainline()[2]
    assert app.board.model["log"], "the event log shows the moves before the position"


def test_a_different_action_at_an_earlier_node_is_a_variation_in_the_tree(app: LabApp) -> None:
    for action in ("place 2", "place 3", "place 0"):
        app.play(action)
    app.goto_ply(1)
    alt = app.play("place 1")  # blue plays elsewhere: a variation at ply 2
    assert not alt.is_mainline() and alt.parent is app.record.mainline()[1]
    assert app.record.branch_points() == [app.record.mainline()[1]]
    assert [n.action for n in app.record.mainline()[1:]] == ["place 2", "place 3", "place 0"]
    items = tree_items(app)
    forked = next(i for i in items if "v" in i)
    assert forked["a"] == "place 3" and forked["v"][0][0]["a"] == "place 1"
    assert app.tree.current == forked["v"][0][0]["i"]
    assert "variation" in app.position.value and app.promote_button.layout.display != "none"
    # the same action again reuses the node
    app.goto_ply(1)
    assert app.play("place 3") is app.record.mainline()[2]
    # a click on the tree goes there
    assert app.tree.handle_message({"kind": "goto", "id": forked["v"][0][0]["i"]})
    assert app.node is alt
    assert not app.tree.handle_message({"kind": "goto", "id": "x"})
    app.promote()
    assert alt.is_mainline() and app.promote_button.layout.display == "none"
    assert tree_items(app)[1]["a"] == "place 1"


# ---- bots and jobs ---------------------------------------------------------------------------------------


def test_bot_move_records_the_bot_and_shows_its_reasons(app: LabApp) -> None:
    app.auto.value = False  # the test moves the bot (a bot to move would start by itself)
    app.set_seat(0, "mcts:iterations=30")
    assert app.bot_move()
    app.wait()
    node = app.node
    assert node.ply == 1 and node.by["bot"] == "mcts" and node.by["iterations"] == 30
    page = app.explanation.value
    for word in ("visits", "exp. points", "win share (%)", "Why Red chose"):
        assert word in page
    phrase = html.escape(node.parent.state.phrase_action(node.action, "en"))  # the move in words, notation on hover
    assert f'class="ssl-chosen"><td title="{node.action}">{phrase}</td>' in page
    app.back()
    assert "After a bot" in app.explanation.value
    app.forward()
    assert "visits" in app.explanation.value


def test_a_seat_plays_an_opponent_level_with_its_rating_in_the_hover(app: LabApp) -> None:
    app.auto.value = False
    options = [v for _, v in app.seat_kinds[1].options]
    assert [v for v in options if v.startswith("level:")] == [f"level:{n}" for n in range(1, 7)]
    app.set_seat(0, "level:3")
    dd = app.seat_kinds[0]
    assert dd.label == "Level 3" and "Steady" in dd.tooltip and "95% interval" in dd.tooltip
    assert app.seat_kinds[1].tooltip is None  # a human seat has no level hover
    assert app.bot_move()
    app.wait()
    assert app.node.ply == 1 and app.node.by["bot"] == "greedy"  # level 3 is the greedy bot
    app.set_lang("de")
    assert dd.value == "level:3" and dd.label == "Stufe 3" and "Solide" in dd.tooltip


def test_a_search_that_played_its_greedy_move_shows_the_greedy_reasons(app: LabApp) -> None:
    """A search with ``search_share`` (level 4) plays the greedy move at the decisions it does not search: the reasons
    beside the board are then the greedy values that chose it, not a search that did not decide."""
    app.auto.value = False
    app.set_seat(0, "mcts:iterations=6,search_share=0")
    assert len(app.node.state.legal_actions()) > 1
    assert app.bot_move()
    app.wait()
    assert app.node.by["bot"] == "mcts" and app.node.by["search_share"] == 0
    page = app.explanation.value
    assert "value" in page and "visits" not in page


def test_bot_move_on_a_human_seat_uses_the_stand_in(app: LabApp) -> None:
    assert app.bot_move()
    app.wait()
    assert app.node.by["bot"] == "greedy" and "value" in app.explanation.value


def test_play_to_round_end_and_to_game_end(app: LabApp) -> None:
    app.set_seat(1, "random")
    assert app.play_to_round_end()
    app.wait()
    assert app.state.round == 2 and app.node.parent.state.round == 1
    assert app.board.state is app.state and app.slider.value == app.node.ply
    assert app.play_to_end()
    app.wait()
    assert app.state.is_over and app.node is app.record.end()
    assert app.board.model["phase"] == "over" and app.board.model["ranking"]
    assert not app.bot_move()
    assert "over" in app.message.value


def gate_seat(app: LabApp, seat: int) -> GatedBot:
    """Seat ``seat`` is played by a GatedBot (the app asks ``bot_for``, which reads its bot cache). The bots no
    longer move by themselves: the test starts the jobs (a bot to move would start at once)."""
    app.auto.value = False
    app.set_seat(seat, "mcts:seconds=1")
    bot = GatedBot()
    app._bots[seat] = (app.seat_spec(seat), bot)
    return bot


def test_only_one_job_at_a_time_and_cancel_stops_it() -> None:
    app = LabApp(players=3, seed=2, seats=HUMANS, chart_delay=0)
    assert app.state.to_move == 0
    bot = gate_seat(app, 0)
    assert app.play_to_end()
    assert bot.thinking.wait(60)
    assert app.busy and not app.cancel_button.disabled and app.bot_button.disabled
    assert not app.bot_move() and not app.compute_win_chances()
    assert "Busy" in app.message.value
    before = app.node
    click(app, kind="place", space=0)
    assert "bots are moving" in app.board.error
    assert app.node is before
    app.back()
    assert app.node is before, "navigation waits for the bots"
    app.cancel()
    bot.gate.set()
    app.wait()
    assert app.node is before, "a move found after cancel is not played"
    assert not app.busy and app.cancel_button.disabled and not app.bot_button.disabled
    assert "Cancelled" in app.message.value and not app.state.is_over


def test_bots_answer_a_move_made_while_win_chances_are_computed(app: LabApp) -> None:
    app.set_seat(1, "random")
    app.rollout_bot.value = "random"  # 400 quick rollouts: long enough to overlap the move, short to wait for
    app.rollouts.value = 400
    assert app.compute_win_chances()
    app.play("place 2")  # the board stays playable during an evaluation
    assert app.busy and "Busy" not in app.message.value
    app.wait()
    assert app.node.ply == 2 and app.node.by["bot"] == "random" and app.state.to_move == 2


def test_a_failing_job_reports_its_error_and_frees_the_app(app: LabApp, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_a: Any, **_k: Any) -> Any:
        raise RuntimeError("rollouts exploded")

    monkeypatch.setattr("speicherstadt_lab.ui.app.charts_panel.evaluate", broken)
    assert app.compute_win_chances()
    app.wait()
    assert "rollouts exploded" in app.message.value and not app.busy


def test_long_work_leaves_the_kernel_thread_free(app: LabApp) -> None:
    bot = gate_seat(app, 0)
    assert app.bot_move()  # returns while the bot still thinks: the search runs in a thread
    assert bot.thinking.wait(60) and app.busy
    assert any(t.name.startswith("speicherstadt-lab-bot") for t in threading.enumerate())
    app.x_mode.value = "round"  # the controls still work meanwhile
    bot.gate.set()
    app.wait()
    assert app.node.ply == 1


# ---- charts --------------------------------------------------------------------------------------------


def test_charts_follow_the_game_and_overlay_a_variation(app: LabApp) -> None:
    play_plies(app, 5)
    score = series(app, "main", "projected")
    assert list(score.x) == [0, 1, 2, 3, 4, 5]
    assert app.chart.to_figure().layout.shapes[0].x0 == 5
    app.goto_ply(2)
    assert app.chart.to_figure().layout.shapes[0].x0 == 2
    assert not any((tr.meta or {}).get("line") == "branch" for tr in app.chart.to_figure().data)
    app.play(next(str(a) for a in app.state.legal_actions() if str(a) != app.node.children[0].action))
    play_plies(app, 2)
    dashed = series(app, "branch", "coins", seat=1)
    assert dashed.line.dash == "dash" and list(dashed.x) == [2, 3, 4, 5]
    assert list(series(app, "main", "coins", seat=1).x) == [0, 1, 2, 3, 4, 5]
    app.x_mode.value = "round"
    assert list(series(app, "main", "coins").x) == [0]
    assert app.chart.to_figure().layout.xaxis2.title.text == "round"


def test_win_chances_are_computed_along_the_line_and_drawn(app: LabApp) -> None:
    app.auto.value = False  # the bots play to the round's end, no further
    app.set_seat(0, "random")
    app.set_seat(1, "random")
    app.set_seat(2, "random")
    app.play_to_round_end()
    app.wait()
    app.rollouts.value = 20
    positions = app.win_positions()
    assert positions[0] is app.record.root and app.node in positions
    assert app.compute_win_chances()
    app.wait()
    line = series(app, "main", "win_prob")
    assert sorted(line.x) == sorted(float(n.ply) for n in positions)
    assert all(0 <= y <= 1 for y in line.y)
    said = app.message.value
    assert f"Win chances: {len(positions)} positions, 20 play-outs each, in fair mode" in said
    assert "reshuffles what no player can see" in said  # what "fair mode" means, said where it is used
    totals = [sum(series(app, "main", "win_prob", s).y[k] for s in range(3)) for k in range(len(line.y))]
    assert all(abs(t - 1) < 1e-9 for t in totals), "win shares split ties: they sum to 1 per position"


def test_win_chances_of_a_variation_are_dashed_from_the_last_shared_position(app: LabApp) -> None:
    app.auto.value = False  # the bots play to the round's end, no further
    for seat in range(3):
        app.set_seat(seat, "random")
    app.play_to_round_end()
    app.wait()
    app.goto_ply(3)
    main_next = app.node.children[0].action
    app.play(next(str(a) for a in app.state.legal_actions() if str(a) != main_next))
    app.play_to_round_end()
    app.wait()
    app.rollouts.value = 10
    assert app.compute_win_chances()
    app.wait()
    main = series(app, "main", "win_prob")
    dashed = series(app, "branch", "win_prob")
    assert list(main.x) == [0.0, float(app.record.end().ply)]
    assert dashed.line.dash == "dash" and dashed.x[0] == 0.0 and dashed.x[-1] == float(app.node.ply)


def test_a_new_app_draws_its_first_charts_when_a_page_has_drawn_the_chart() -> None:
    """The first board does not wait for the charts (below the fold, and they need pandas; benchmarks/app.py): the app
    is made with an empty chart, and the page's ``shown`` (the chart's view has drawn) asks for the figure."""
    app = LabApp(players=2, seed=3, seats=["human", "human"], chart_delay=600)
    assert app.chart.figure["data"] == [], "the charts were drawn before a page showed them"
    app.flush_charts()
    assert app.chart.figure["data"] == [], "nothing was pending: a page has not asked yet"
    assert app.chart.handle_message({"kind": "shown"})
    app.flush_charts()  # the timer the page's message started, at once
    assert app.chart.figure["data"] and app.chart.to_figure().layout.shapes[0].x0 == 0
    figure = app.chart.figure
    assert app.chart.handle_message({"kind": "shown"})  # a second view: the figure is there, nothing is redrawn
    app.flush_charts()
    assert app.chart.figure is figure
    app.close()


def test_charts_wait_for_the_last_move_then_follow() -> None:
    app = LabApp(players=2, seed=3, seats=["human", "human"], chart_delay=0.2)
    app.refresh_charts()  # the first charts, which a new app leaves until a page has drawn its chart
    app.play(str(app.state.legal_actions()[0]))
    app.play(str(app.state.legal_actions()[0]))
    assert app.chart.to_figure().layout.shapes[0].x0 == 0, "not yet: the charts lag behind quick clicks"
    app.wait()
    assert app.chart.to_figure().layout.shapes[0].x0 == 2


# ---- save and load --------------------------------------------------------------------------------------


def test_save_and_load_round_trip_with_variations(app: LabApp) -> None:
    for action in ("place 2", "place 3", "place 0"):
        app.play(action)
    app.goto_ply(1)
    app.play("place 1")
    text = app.save_json()
    other = LabApp(players=2, seed=5, seats=["human", "human"], chart_delay=0)
    assert other.load_json(text)
    assert other.record == app.record and other.record == GameRecord.from_json(text)
    assert other.node is other.record.end() and other.players.value == 3
    assert "Loaded a record: 3 plies" in other.message.value
    assert any("v" in item for item in tree_items(other))
    assert other.board.state.to_dict() == other.record.end().state.to_dict()


def test_the_save_button_sends_the_record_to_the_browser(app: LabApp) -> None:
    app.play("place 1")
    sent: list[dict[str, Any]] = []
    app.saver.send = sent.append  # type: ignore[method-assign]
    assert app.saver.handle_message({"kind": "save"})
    assert not app.saver.handle_message({"kind": "other"})
    (msg,) = sent
    assert msg["kind"] == "file" and msg["name"].endswith(".json") and "3p" in msg["name"]
    assert json.loads(msg["text"])["moves"][0]["action"] == "place 1"


@pytest.mark.parametrize("text", ['{"format": "speicherstadt-lab/1"}', "{not json", '{"format": "chess/1"}'])
def test_a_malformed_record_shows_its_error_and_changes_nothing(app: LabApp, text: str) -> None:
    app.play("place 2")
    record, node = app.record, app.node
    with pytest.raises(sl.RecordError) as err:
        GameRecord.from_json(text)
    assert not app.load_json(text)
    assert app.record is record and app.node is node and app.board.state is node.state
    assert str(err.value) in json.loads(json.dumps(app.message.value.replace("&#x27;", "'").replace("&quot;", '"')))
    assert "ssl-err" in app.message.value


def test_the_load_button_reads_a_file_and_refuses_a_bad_one(app: LabApp) -> None:
    good = LabApp(players=2, seed=4, seats=["human", "human"], chart_delay=0)
    good.play("place 1")
    payload = good.save_json().encode()
    assert app.loader.handle_message({"kind": "load", "name": "game.json"}, [memoryview(payload)])
    assert app.record == good.record and "Loaded a record: 1 plies" in app.message.value
    assert not app.loader.handle_message({"kind": "load", "name": "x.json"}, [])
    assert app.loader.handle_message({"kind": "load", "name": "x.json"}, [memoryview(b"\xff\xfe not text")])
    assert "not UTF-8" in app.message.value and app.record == good.record


# ---- language ---------------------------------------------------------------------------------------------


def test_language_switch_reaches_the_board_the_controls_and_the_charts(app: LabApp) -> None:
    app.play("place 2")
    app.set_seat(2, "mcts")
    app.mcts_strength.value = "iterations=500"
    app.x_mode.value = "round"
    app.set_lang("de")
    assert app.seat_kinds[2].value == "mcts" and app.mcts_strength.value == "iterations=500"
    assert app.x_mode.value == "round" and app.x_mode.options[1] == ("nach Runde", "round")
    assert app.chart.to_figure().layout.xaxis2.title.text == "Runde"
    app.x_mode.value = "ply"
    assert app.board.lang == "de" and app.board.model["lang"] == "de"
    assert app.bot_button.description == TEXTS["de"]["bot"] and app.new_button.description == "Neues Spiel"
    assert app.chart.to_figure().layout.annotations[0].text == "<b>Voraussichtliche Punkte</b>"
    assert series(app, "main", "projected").name == "Rot"
    assert [label for label, _ in app.seat_kinds[0].options][:2] == ["Mensch", "Zufall"]
    assert app.seat_kinds[0].value == "human"
    assert "Zug 1 von 1" in app.position.value
    assert app.board.handle_message({"kind": "lang", "lang": "en"})  # the board's own EN/DE buttons
    assert app.lang.value == "en" and app.bot_button.description == "Bot move"
    with pytest.raises(ValueError):
        app.set_lang("fr")


def test_close_stops_the_work_and_closes_the_widgets() -> None:
    app = LabApp(players=2, seed=1, seats=["mcts:seconds=1", "human"], chart_delay=5)
    assert app.busy
    app.close()
    assert not app.busy and app.board.comm is None and app.chart.comm is None and app.widget.comm is None


def test_the_game_chooser_starts_kaispeicher_and_packet_row_games_with_their_boards() -> None:
    from speicherstadt_lab.ui.board import Board
    from speicherstadt_lab.ui.packet_row_board import PacketRowBoard

    app = LabApp()
    try:
        app.new_game(players=3, seed=2, game="kaispeicher", seats=["human", "human", "human"])
        assert isinstance(app.board, Board) and app.state.expansion == "kaispeicher"
        assert app.state.kai.top and app.board.state is app.state
        assert any(str(a).startswith("reserve") for a in app.state.legal_actions())
        app.play("reserve 0")
        assert app.node.ply == 1 and app.state.kai.reserved
        saved = app.save_json()
        app.new_game(players=4, seed=5, game="packet_row", seats=["human"] * 4)
        assert isinstance(app.board, PacketRowBoard) and app.state.game == "packet_row"
        assert app._main.children[0] is app.board
        app.load_json(saved)
        assert isinstance(app.board, Board) and app.game.value == "kaispeicher"
        assert app.node.ply == 1 and app.node.action == "reserve 0"  # the end of the loaded main line
        with pytest.raises(ValueError, match="game must be one of"):
            app.new_game(game="chess")
    finally:
        app.close()


# ---- live analysis -------------------------------------------------------------------------------------


def test_live_analysis_follows_every_step_and_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    app = LabApp(players=3, seed=1, seats=HUMANS, threaded=False, chart_delay=0)
    try:
        assert 'data-ply="0"' in app.live_box.value and "%" in app.live_box.value
        app.play(str(app.state.legal_actions()[0]))
        assert 'data-ply="1"' in app.live_box.value
        win, best = app.live_result()
        assert win["win_prob"].sum() == pytest.approx(1.0) and len(best) == 3
        # the table is every seat after the mover's best move, from the same rollouts: its band is theirs, and
        # the panel says so where it is shown
        assert win.attrs["interval"] == "sampling" and "Wilson, 20 play-outs" in app.live_box.value
        assert best["win_prob"].is_monotonic_decreasing
        assert set(best["action"]) <= {str(a) for a in app.state.legal_actions()}
        # ranked as the review ranks (the hybrid comparison, whose losses were checked against play-outs)
        same = compare_actions(app.state, rollouts=LIVE_ROLLOUTS, bot="greedy", method="hybrid", horizon=2)
        cols = ["action", "win_prob", "win_lo", "win_hi", "score_mean"]
        assert best.equals(same[cols].head(3).reset_index(drop=True))
        assert all(a in app.live_box.value for a in best["action"])
        app.live.value = False
        assert app.live_box.value == ""
        app.forward()
        app.back()
        assert app.live_box.value == ""
        app.live.value = True
        assert f'data-ply="{app.node.ply}"' in app.live_box.value
        def no_model(*_a: Any, **_k: Any) -> Any:
            raise FileNotFoundError("no value model")

        monkeypatch.setattr("speicherstadt_lab.ui.app.live_panel.load_model", no_model)
        app.new_game(players=3, seed=2, game="packet_row", seats=HUMANS)
        assert "No value model" in app.live_box.value  # a game without a model: it says so
    finally:
        app.close()


def test_the_win_chart_draws_from_the_model_before_any_rollouts(app: LabApp) -> None:
    play_plies(app, 4)
    app.flush_charts()
    win = [tr for tr in app.chart.to_figure().data if (tr.meta or {}).get("series") == "win_prob"]
    assert win and all(len(tr.y) >= 1 for tr in win)
    assert sum(tr.y[-1] for tr in win if (tr.meta or {}).get("line") == "main") == pytest.approx(1.0, abs=1e-6)
