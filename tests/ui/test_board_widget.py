"""The board widget in plain Python (no front end): assets, traits, and the message handler."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.ui import Board
from speicherstadt_lab.ui.board import ASSETS, CSS_PARTS, PARTS, find_assets
from speicherstadt_lab.ui.model import KINDS, board_model, click_to_action
from speicherstadt_lab.ui.widget_base import assemble
from tests.support.paths import REPO
from tests.support.scenario import RandomPolicy, drive, passive, play, red_buys_three


def loading_state() -> sl.GameState:
    return red_buys_three(["warehouse", "contract_a1", "ship_b1", "ship_b2"],
                          ["coffee", "tea", "carpet", "saffron", "rubber", "rubber"])


# ---- assets ----------------------------------------------------------------------------------------


def test_assets_resolve_and_are_not_empty() -> None:
    assert ASSETS == REPO / "widgets"  # a source checkout (editable install) uses the repo's folder
    js = (ASSETS / "board.js").read_text(encoding="utf-8")
    css = (ASSETS / "board.css").read_text(encoding="utf-8")
    assert "export default" in js and "render" in js and ".ssl-board" in css
    board = Board()
    # the module: the shared helpers, the regions, the entry last (its one export); the CSS: shared, then the board's
    assert board._esm == assemble(ASSETS, PARTS) and board._esm.rstrip().endswith(js.rstrip())
    assert PARTS[0] == "common.js" and PARTS[-1] == "board.js" and board._esm.count("export default") == 1
    assert board._css == assemble(ASSETS, CSS_PARTS) and board._css.rstrip().endswith(css.rstrip())
    assert not re.search(r"""(import\s.*from\s+["']https?:|@import|url\(\s*["']?https?:)""", board._esm + board._css)
    assert not re.search(r"^\s*import\s", board._esm, re.M)  # one module: the parts import nothing


def test_find_assets_prefers_the_installed_folder(tmp_path: Path) -> None:
    wheel, repo, empty = tmp_path / "pkg" / "widgets", tmp_path / "repo" / "widgets", tmp_path / "none"
    for d in (wheel, repo):
        d.mkdir(parents=True)
        (d / "board.js").write_text("export default {}")
        (d / "board.css").write_text(".x{}")
    assert find_assets(wheel, repo) == wheel
    assert find_assets(empty, repo) == repo
    (wheel / "board.css").unlink()
    assert find_assets(wheel, repo) == repo
    with pytest.raises(FileNotFoundError, match=r"board\.js"):
        find_assets(empty, wheel)


def test_a_missing_part_of_a_module_is_named(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text("const a = 1;\n")
    (tmp_path / "b.js").write_text("export default { a };\n")
    assert assemble(tmp_path, ("a.js", "b.js")) == "/* ---- a.js ---- */\nconst a = 1;\n\n/* ---- b.js ---- */\n" \
        "export default { a };\n"
    with pytest.raises(FileNotFoundError, match=r"'board/gone\.js'"):
        assemble(tmp_path, ("a.js", "board/gone.js"))


def test_javascript_sends_only_the_models_messages_and_covers_every_verb() -> None:
    js = re.sub(r"//[^\n]*|/\*.*?\*/", "", Board._esm, flags=re.S)  # the code, not its comments
    # the page spells no click: an action is the model's own message ({kind: "act", verb, args}), sent as it is
    assert set(re.findall(r'kind: "(\w+)"', js)) == {"lang"}  # the keys ← → Home End are the move list's (tree.js)
    assert "send(entry.msg)" in js and "verb:" not in js
    looked_up = set(re.findall(r'find\("(\w+)"', js))
    assert "c.find(b.kind)" in js  # the expansion's decision buttons: the model's kinds
    assert looked_up | {"break", "stop", "double", "insure"} == set(KINDS)


def test_the_assembled_module_has_each_name_once() -> None:
    """The parts share one module scope: a top-level name defined twice would be a SyntaxError in the browser."""
    names = re.findall(r"^(?:function|const|let|class)\s+(\w+)", Board._esm, re.M)
    assert len(names) == len(set(names)), sorted(n for n in set(names) if names.count(n) > 1)


# ---- construction and traits -----------------------------------------------------------------------


def test_board_in_plain_python() -> None:
    s = sl.new_game(players=4, seed=7)
    board = Board(s)
    assert board.state is s and board.lang == "en" and board.seat is None and board.error == ""
    assert board.model == {**board_model(s, "en", None), "rev": 0}
    assert board.highlight["action"] is None
    assert {"model", "lang", "error", "highlight"} <= set(board.keys)
    assert "state" not in board.keys and "seat" not in board.keys
    assert Board().state.phase == "demand"


def test_setting_the_state_redraws_and_logs() -> None:
    s0 = sl.new_game(players=4, seed=7)
    board = Board(s0)
    s1 = s0.apply("place 4")
    board.state = s1
    assert board.model["spaces"][4]["workers"] == [0]
    assert board.highlight["action"] == "place 4" and board.highlight["spaces"] == [4]
    assert [e["action"] for e in board.model["log"]] == ["place 4", None]
    board.state = sl.new_game(players=3, seed=1)  # another game: a fresh log
    assert [e["action"] for e in board.model["log"]] == [None]
    assert len(board.model["seats"]) == 3


def test_show_with_history() -> None:
    s0 = sl.new_game(players=4, seed=7)
    s1 = s0.apply("place 1")
    s2 = s1.apply("place 2")
    board = Board()
    board.show(s2, [s0, s1])
    assert [e["action"] for e in board.model["log"]] == ["place 2", "place 1", None]
    assert board.highlight["actor"] == 1


def test_language_switch_by_trait_and_by_message() -> None:
    board = Board(sl.new_game(players=4, seed=7))
    board.handle_message({"kind": "act", "verb": "buy", "args": {}})
    assert board.error.startswith("Phases:")
    board.lang = "de"
    assert board.model["lang"] == "de" and board.model["seats"][0]["name"] == "Rot"
    assert board.error.startswith("Phasen:")  # the refusal is shown again in the new language
    assert board.handle_message({"kind": "lang", "lang": "en"})
    assert board.lang == "en" and board.model["labels"]["stock"] == "Stock"
    assert not board.handle_message({"kind": "lang", "lang": "fr"})
    assert board.lang == "en" and "'fr'" in board.error
    assert not board.handle_message({"kind": "lang"})
    assert "'lang'" in board.error
    assert not board.handle_message({"kind": "lang", "lang": "de", "x": 1})
    assert board.lang == "en" and "'x'" in board.error
    with pytest.raises(Exception, match="lang"):
        board.lang = "fr"


# ---- clicks, valid -----------------------------------------------------------------------------------


def test_place_click_applies_and_clears_the_error() -> None:
    s = sl.new_game(players=4, seed=7)
    board = Board(s)
    board.handle_message({"kind": "act", "verb": "pass", "args": {}})
    assert board.error
    assert board.handle_message({"kind": "act", "verb": "place", "args": {"space": 3}})
    assert board.state == s.apply("place 3") and board.error == ""
    assert board.model["spaces"][3]["workers"] == [0] and board.model["to_move"] == 1


def test_click_through_the_comm_path() -> None:
    """The same handler runs for a real front-end message (ipywidgets' custom-message dispatch)."""
    board = Board(sl.new_game(players=4, seed=7))
    board._handle_custom_msg({"kind": "act", "verb": "place", "args": {"space": 0}}, [])
    assert board.state.last_action == "place 0"
    board._handle_custom_msg({"kind": "act", "verb": "place", "args": {"space": "zero"}}, [])
    assert "'space'" in board.error and board.state.last_action == "place 0"


def test_buy_and_pass_clicks() -> None:
    s = drive(sl.new_game(players=4, seed=7), passive, until=lambda x: x.phase == "purchase")
    board = Board(s)
    assert board.handle_message({"kind": "act", "verb": "pass", "args": {}})
    assert board.state == s.apply("pass")
    s2 = board.state
    assert s2.phase == "purchase" and s2.to_move == 1  # the next worker above the same card decides
    assert board.handle_message({"kind": "act", "verb": "buy", "args": {}})
    assert board.state == s2.apply("buy") and board.state.player(1).coins == s2.player(1).coins - 2


@pytest.mark.parametrize(
    ("msgs", "texts"),
    [
        ([{"kind": "act", "verb": "contract", "args": {"good": "coffee", "index": 0}}], ["contract coffee 0"]),
        ([{"kind": "act", "verb": "store", "args": {"good": "tea"}}], ["store tea"]),
        ([{"kind": "act", "verb": "keep", "args": {"good": "carpet"}}], ["keep carpet"]),
        ([{"kind": "act", "verb": "convert", "args": {"goods": ["coffee", "tea", "carpet"], "to": "rubber"}}],
         ["convert coffee tea carpet to rubber"]),
        ([{"kind": "act", "verb": "hallsell", "args": {"goods": ["tea", "carpet"]}}], ["hallsell tea carpet"]),
        ([{"kind": "act", "verb": "done", "args": {}}], ["done"]),
    ],
)
def test_loading_clicks(msgs: list[dict], texts: list[str]) -> None:
    s = loading_state()
    board = Board(s)
    for msg in msgs:
        assert board.handle_message(msg), board.error
    assert board.state == play(s, *texts)


def test_sell_and_take_clicks() -> None:
    s = red_buys_three(["coffee_roaster", "contract_a1", "ship_b1"], ["coffee", "tea", "carpet"])
    board = Board(s)
    assert board.handle_message({"kind": "act", "verb": "sell", "args": {"good": "coffee"}})
    assert board.state.coins[0] == s.coins[0] + 1
    # a cube stored in an earlier turn comes back with "take"
    t = drive(sl.new_game(players=3, seed=2), RandomPolicy(3),
              until=lambda x: any(a.kind == "take" for a in x.legal_actions()))
    text = next(str(a) for a in t.legal_actions() if a.kind == "take")
    _, good, source = text.split()
    board = Board(t)
    assert board.handle_message({"kind": "act", "verb": "take", "args": {"good": good, "source": source}})
    assert board.state == t.apply(text)


# ---- clicks, refused -------------------------------------------------------------------------------


ILLEGAL = [
    ({"kind": "act", "verb": "place", "args": {"space": 7}}, "demand_space"),
    ({"kind": "act", "verb": "buy", "args": {}}, "phase"),
    ({"kind": "act", "verb": "done", "args": {}}, "phase"),
    ({"kind": "act", "verb": "sell", "args": {"good": "coffee"}}, "phase"),
]


@pytest.mark.parametrize(("msg", "rule"), ILLEGAL, ids=[str(m) for m, _ in ILLEGAL])
def test_illegal_clicks_in_demand_change_nothing(msg: dict, rule: str) -> None:
    s = sl.new_game(players=4, seed=7)
    board = Board(s)
    before = dict(board.model)
    assert not board.handle_message(msg)
    assert board.state is s and board.model == before
    with pytest.raises(sl.IllegalAction) as info:
        s.apply(click_text(msg))
    assert info.value.rule == rule
    assert board.error == s.explain(info.value, "en")
    board.lang = "de"
    assert board.error == s.explain(info.value, "de")


def click_text(msg: dict) -> str:
    return click_to_action(sl.new_game(players=4, seed=7), msg)


LOADING_ILLEGAL = [
    {"kind": "act", "verb": "contract", "args": {"good": "carpet", "index": 0}},
    {"kind": "act", "verb": "contract", "args": {"good": "coffee", "index": 5}},
    {"kind": "act", "verb": "sell", "args": {"good": "coffee"}},
    {"kind": "act", "verb": "store", "args": {"good": "saffron"}},
    {"kind": "act", "verb": "take", "args": {"good": "tea", "source": "hall"}},
    {"kind": "act", "verb": "convert", "args": {"goods": ["coffee", "tea", "carpet"], "to": "coffee"}},
    {"kind": "act", "verb": "hallsell", "args": {"goods": ["saffron", "rubber"]}},
    {"kind": "act", "verb": "place", "args": {"space": 0}},
    {"kind": "act", "verb": "pass", "args": {}},
]


@pytest.mark.parametrize("msg", LOADING_ILLEGAL, ids=[str(m) for m in LOADING_ILLEGAL])
def test_illegal_clicks_in_loading_change_nothing(msg: dict) -> None:
    s = loading_state()
    board = Board(s)
    before = dict(board.model)
    assert not board.handle_message(msg)
    assert board.state is s and board.model == before
    assert board.error and not board.error.startswith("Board:")  # the rules' own explanation


BOGUS = [
    "place 1",
    None,
    42,
    ["kind", "place"],
    {},
    {"kind": "teleport"},
    {"kind": "act", "verb": "place", "args": {}},
    {"kind": "act", "verb": "place", "args": {"space": math.nan}},
    {"kind": "act", "verb": "place", "args": {"space": 10**100}},
    {"kind": "act", "verb": "place", "args": {"space": -3}},
    {"kind": "act", "verb": "place", "args": {"space": "1"}},
    {"kind": "act", "verb": "place", "args": {"space": 1, "extra": "junk"}},
    {"kind": "act", "verb": "contract", "args": {"good": "gold", "index": 0}},
    {"kind": "act", "verb": "convert", "args": {"goods": ["coffee"], "to": "tea"}},
    {"kind": "act", "verb": "take", "args": {"good": "tea", "source": "bag"}},
    {"kind": "lang", "lang": 3},
]


@pytest.mark.parametrize("msg", BOGUS, ids=[repr(m)[:30] for m in BOGUS])
def test_bogus_messages_set_error_and_change_nothing(msg: object) -> None:
    s = sl.new_game(players=4, seed=7)
    board = Board(s)
    before = dict(board.model)
    assert not board.handle_message(msg)
    assert board.state is s and board.model == before and board.lang == "en"
    assert board.error.startswith("Board:")
    board.lang = "de"
    assert board.error.startswith("Brett:")


def test_seat_board_only_acts_for_its_seat() -> None:
    s = sl.new_game(players=4, seed=7)
    board = Board(s, seat=1)
    assert not board.model["can_act"] and board.model["legal"] == []
    assert not board.handle_message({"kind": "act", "verb": "place", "args": {"space": 0}})
    assert board.state is s and board.error == "Board: this board acts for Blue, but Red is to move."
    board.seat = 0
    assert board.model["can_act"]
    assert board.handle_message({"kind": "act", "verb": "place", "args": {"space": 0}})
    with pytest.raises(Exception, match="seat"):
        board.seat = 9


def test_game_over_refuses_clicks() -> None:
    s = drive(sl.new_game(players=2, seed=3), passive)
    board = Board(s)
    assert board.model["phase"] == "over"
    assert not board.handle_message({"kind": "act", "verb": "done", "args": {}})
    assert board.state is s and "over" in board.error


# ---- callbacks -------------------------------------------------------------------------------------


def test_on_action_gets_the_text_and_the_board_waits() -> None:
    s = sl.new_game(players=4, seed=7)
    board = Board(s)
    got: list[str] = []
    board.on_action(got.append)
    assert board.handle_message({"kind": "act", "verb": "place", "args": {"space": 2}})
    assert got == ["place 2"] and board.state is s  # the app decides what happens
    assert not board.handle_message({"kind": "act", "verb": "buy", "args": {}})
    assert got == ["place 2"] and board.error  # illegal clicks never reach the callback
    board.state = s.apply(got[0])
    assert board.model["spaces"][2]["workers"] == [0]
    board.on_action(got.append, remove=True)
    assert board.handle_message({"kind": "act", "verb": "place", "args": {"space": 2}})
    assert got == ["place 2"] and board.state.last_action == "place 2" and board.state.to_move == 2
