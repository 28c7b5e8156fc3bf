"""The app's move list: moves grouped by round with the seats' colours, the review's glyphs, chance variations,
comments on any node (saved with the record), keyboard steps (validated like board clicks), one language switch
and tabs that fit."""

from __future__ import annotations

import html
from collections.abc import Iterator
from typing import Any

import pytest

from speicherstadt_lab.engine.protocol import get_game
from speicherstadt_lab.records import GameRecord, Node
from speicherstadt_lab.reviewing import REVIEW_KEY
from speicherstadt_lab.ui.app import LabApp
from speicherstadt_lab.ui.app.movelist import COMMENT_MAX, GLYPHS, STEPS, MoveListError, clean_comment, step_of
from speicherstadt_lab.ui.board import Board
from tests.support.app import tree_items


@pytest.fixture
def app() -> Iterator[LabApp]:
    """Three human seats, seed 1, everything in the calling thread, no live analysis."""
    a = LabApp(players=3, seed=1, seats=["human"] * 3, threaded=False, chart_delay=0)
    a.live.value = False
    yield a
    a.close()


def play_plies(app: LabApp, n: int) -> None:
    for _ in range(n):
        app.play(str(app.state.legal_actions()[0]))


items = tree_items  # every item of the tree view's data, depth first (tests.support.app)


def item_of(app: LabApp, node: Node) -> dict[str, Any]:
    return next(i for i in items(app) if app.node_by_id(i["i"]) is node)


def message(app: LabApp) -> str:
    return html.unescape(app.message.value)


# ---- the tree's data -----------------------------------------------------------------------------------------


def test_moves_carry_ply_round_seat_and_a_head_where_a_round_starts(app: LabApp) -> None:
    while app.state.round == 1:
        play_plies(app, 1)
    play_plies(app, 2)
    line = app.record.mainline()
    got = app.tree.tree["line"]
    assert [i["i"] for i in got] == [app.panels.moves.ident(n) for n in line[1:]]
    for item, node in zip(got, line[1:], strict=True):
        assert item["p"] == node.ply and item["s"] == node.actor and item["a"] == node.action
        assert item["r"] == node.parent.state.round  # the round the move was made in
    heads = [(i["p"], i["r"], i["h"]) for i in got if "h" in i]
    first_of_two = next(n.ply for n in line[1:] if n.parent.state.round == 2)
    assert heads == [(1, 1, "round"), (first_of_two, 2, "round")]
    assert app.tree.tree["root"] == app.panels.moves.ident(app.record.root) and "c" not in app.tree.tree


def test_a_variation_and_the_line_after_it_go_on_with_the_round(app: LabApp) -> None:
    play_plies(app, 4)
    app.goto_ply(1)
    other = next(str(a) for a in app.state.legal_actions() if str(a) != app.record.mainline()[2].action)
    alt = app.play(other)
    main = app.tree.tree["line"]
    forked = main[1]
    assert forked["v"][0][0]["i"] == app.panels.moves.ident(alt) and forked["v"][0][0]["h"] == "more"
    assert main[2]["h"] == "more" and main[2]["r"] == 1  # round 1 goes on after the variation
    assert "h" not in main[3]


def test_the_seats_colours_are_the_games(app: LabApp) -> None:
    colours = get_game("speicherstadt").seat_colours
    assert [s["colour"] for s in app.tree.seats] == list(colours[:3])
    assert [s["name"] for s in app.tree.seats] == ["Red", "Blue", "Green"]
    app.new_game(players=2, game="packet_row", seats=["human", "human"])
    assert [s["colour"] for s in app.tree.seats] == list(get_game("packet_row").seat_colours[:2])


def test_flagged_moves_carry_the_reviews_glyph(app: LabApp) -> None:
    play_plies(app, 4)
    line = app.record.mainline()
    line[1].annotations[REVIEW_KEY] = {"flag": "mistake", "best": "place 0"}
    line[2].annotations[REVIEW_KEY] = {"flag": "inaccuracy", "best": "place 1"}
    line[3].annotations[REVIEW_KEY] = {"flag": "", "best": line[3].action}
    app.panels.moves.refresh()
    got = app.tree.tree["line"]
    assert [(i.get("f"), i.get("g")) for i in got] == [("mistake", "?"), ("inaccuracy", "?!"), (None, None),
                                                       (None, None)]
    assert GLYPHS == {"inaccuracy": "?!", "mistake": "?"}


def test_a_chance_variation_is_its_own_kind_of_branch_and_survives_save_and_load(app: LabApp) -> None:
    play_plies(app, 3)
    at = app.record.mainline()[2]
    bag = at.state.hidden_parts()["bag"]
    chance = at.rearrange(bag=[bag[-1]])
    app.goto(chance)
    item = item_of(app, chance)
    assert item["k"] == "chance" and item["s"] is None and item["a"].startswith("~ bag: ")
    assert item["r"] == at.state.round and item["p"] == 3
    assert item_of(app, at.children[0])["v"][0][0] is item  # a variation of the move it replaces
    assert app.tree.current == item["i"]
    assert app.load_json(app.save_json())
    again = next(i for i in items(app) if i.get("k") == "chance")
    assert again["a"] == chance.action and again["s"] is None


# ---- comments -----------------------------------------------------------------------------------------------


def test_comments_on_any_node_show_in_the_tree_and_survive_save_and_load(app: LabApp) -> None:
    play_plies(app, 3)
    node = app.record.mainline()[2]
    app.set_comment("  A strong placement.\r\nThe second line. ", node)
    assert node.comment == "A strong placement.\nThe second line."
    app.set_comment("The start: everyone even.", app.record.root)
    assert item_of(app, node)["c"] == node.comment and app.tree.tree["c"] == "The start: everyone even."
    assert app.comment.value == ""  # the box shows the node on the board, which has no comment
    app.goto(node)
    assert app.comment.value == node.comment
    assert app.load_json(app.save_json())
    loaded = app.record.mainline()[2]
    assert loaded.comment == "A strong placement.\nThe second line."
    assert app.record.root.comment == "The start: everyone even."
    assert item_of(app, loaded)["c"] == loaded.comment and app.tree.tree["c"] == app.record.root.comment
    app.set_comment("", loaded)
    assert loaded.comment is None and "c" not in item_of(app, loaded)


def test_the_comment_box_edits_the_node_it_shows(app: LabApp) -> None:
    play_plies(app, 2)
    node = app.node
    app.comment.value = "Why not place 3?"  # what the browser sends when the box loses the focus
    assert node.comment == "Why not place 3?" and item_of(app, node)["c"] == "Why not place 3?"
    app.back()
    assert app.comment.value == "" and node.comment == "Why not place 3?"
    app.comment.value = "Before the question."
    assert app.node.comment == "Before the question." and node.comment == "Why not place 3?"
    app.comment.value = "x" * (COMMENT_MAX + 1)  # refused: a message, the box shows the comment again
    assert f"at most {COMMENT_MAX} characters" in message(app) and "field 'comment'" in message(app)
    assert app.node.comment == "Before the question." and app.comment.value == "Before the question."


@pytest.mark.parametrize(("value", "words"), [
    (5, "must be text, not 5"),
    (["a"], "must be text"),
    ("x" * (COMMENT_MAX + 1), f"at most {COMMENT_MAX} characters, not {COMMENT_MAX + 1}"),
    ("bell\x07", "control character '\\x07'"),
])
def test_a_bad_comment_is_refused_naming_the_field(app: LabApp, value: Any, words: str) -> None:
    with pytest.raises(MoveListError, match="field 'comment'") as err:
        app.set_comment(value)
    assert words in str(err.value) and isinstance(err.value, ValueError)
    assert app.node.comment is None
    assert "Feld 'comment'" in err.value.text("de")


def test_clean_comment_keeps_plain_text() -> None:
    assert clean_comment(None) is None and clean_comment("   ") is None
    assert clean_comment("a\tb\nc") == "a\tb\nc" and clean_comment("ü ✓") == "ü ✓"
    assert clean_comment("x" * COMMENT_MAX) == "x" * COMMENT_MAX


# ---- keyboard steps -------------------------------------------------------------------------------------


def key(app: LabApp, to: Any, **extra: Any) -> bool:
    """A key pressed anywhere on the page, as the page reports it (through the move list)."""
    return app.tree.handle_message({"kind": "step", "to": to, **extra})


def test_the_keys_step_through_the_line(app: LabApp) -> None:
    play_plies(app, 5)
    end = app.node
    assert key(app, "prev") and app.node is end.parent and app.board.state is end.parent.state
    assert key(app, "first") and app.node is app.record.root
    assert app.tree.current == app.panels.moves.ident(app.record.root)
    assert key(app, "prev") and app.node is app.record.root  # nothing before the start
    assert key(app, "next") and app.node.ply == 1
    assert key(app, "last") and app.node is end
    assert key(app, "next") and app.node is end
    assert message(app) == "" and not app.board.error


def test_every_press_counts_however_fast(app: LabApp) -> None:
    play_plies(app, 10)
    for _ in range(8):  # sent before the page saw any of them move: each is a step from where the last one left
        assert key(app, "prev")
    assert app.node.ply == 2
    assert key(app, "next") and key(app, "next") and app.node.ply == 4


@pytest.mark.parametrize(("msg", "words"), [
    ({"kind": "step"}, "needs the field 'to'"),
    ({"kind": "step", "to": "up"}, "field 'to' must be one of first, prev, next, last, not 'up'"),
    ({"kind": "step", "to": 1}, "field 'to'"),
    ({"kind": "step", "to": "next", "by": 2}, "unexpected field 'by'"),
    ({"kind": "step", "to": "next", "from": 0}, "unexpected field 'from'"),
])
def test_a_bogus_step_is_refused_naming_the_field(app: LabApp, msg: dict[str, Any], words: str) -> None:
    play_plies(app, 2)
    app.back()
    before = app.node
    assert not app.tree.handle_message(msg)
    assert words in message(app) and app.node is before


def test_step_of_checks_the_shape() -> None:
    assert step_of({"kind": "step", "to": "last"}) == "last"
    with pytest.raises(MoveListError, match="unknown message kind 'x'"):
        step_of({"kind": "x", "to": "next"})
    with pytest.raises(MoveListError, match="message object"):
        step_of("next")
    with pytest.raises(MoveListError) as err:
        step_of({"kind": "step", "to": "up"})
    assert "Feld 'to'" in err.value.text("de")
    assert STEPS == ("first", "prev", "next", "last")


def test_a_board_takes_no_steps(app: LabApp) -> None:
    """The keys are the move list's (one listener per page): a board refuses a step like any unknown click."""
    play_plies(app, 2)
    assert not app.board.handle_message({"kind": "step", "to": "prev", "rev": app.board.model["rev"]})
    assert "unknown click kind 'step'" in app.board.error and app.node.ply == 2
    with pytest.raises(ValueError, match="to: must be one of"):
        app.step("sideways")


def test_a_board_alone_keeps_its_language_switch_and_takes_no_steps() -> None:
    board = Board()
    assert board.lang_switch
    assert not board.handle_message({"kind": "step", "to": "next", "rev": board.model["rev"]})
    assert "unknown click kind 'step'" in board.error


# ---- one language switch, tabs that fit -------------------------------------------------------------------


def test_one_language_switch_sets_every_text(app: LabApp) -> None:
    assert not app.board.lang_switch
    app.set_lang("de")
    assert app.board.lang == "de" and app.board.model["lang"] == "de"
    assert app.tree.labels["chance"] == "Zufall" and app.comment.placeholder.startswith("Kommentar")
    app.new_game(players=2, game="packet_row", seats=["human", "human"])  # a new board view: still none
    assert not app.board.lang_switch and app.board.lang == "de"
    app.tutorial_button.value = True  # the lessons page follows the top bar's switch: its board has none either
    assert app._tutorial_box.children and not app.lesson_board.lang_switch and app.lesson_board.lang == "de"
    app.set_lang("en")
    assert app.lesson_board.lang == "en"


def test_the_live_analysis_follows_the_switch_too() -> None:
    app = LabApp(players=3, seed=1, seats=["human"] * 3, threaded=False, chart_delay=0)
    try:
        assert "win chance" in app.live_box.value  # the game's value model ships with the lab
        app.set_lang("de")
        assert "Siegchance" in app.live_box.value and "win chance" not in app.live_box.value
    finally:
        app.close()


def test_the_chart_tabs_size_to_their_labels(app: LabApp) -> None:
    assert app.x_mode.style.button_width == "auto" and "ssl-tabs" in app.x_mode._dom_classes


def test_a_record_with_comments_keeps_them_in_the_file(app: LabApp) -> None:
    play_plies(app, 2)
    app.set_comment("Hier stimmt etwas nicht.")
    rec = GameRecord.from_json(app.save_json())
    assert rec.mainline()[2].comment == "Hier stimmt etwas nicht."
