"""Bad input through every door: mutated records, state files, catalogues, board and app messages.

Each property: the input is either taken whole (a record whose every node replays, a state that plays on, a
catalogue that sets up games, a click that was a legal move) or refused with the lab's own error naming the
field or the rule, and nothing that existed before changes. Hypothesis runs derandomized in `make test`
(tests/conftest.py): the same examples every run; `make soak` explores with fresh ones.
"""

from __future__ import annotations

import copy
import html
import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import speicherstadt_lab as sl
from speicherstadt_lab.bots import make_bot
from speicherstadt_lab.engine.errors import CatalogError, IllegalAction, RecordError
from speicherstadt_lab.games.packet_row import catalog as pr_catalog
from speicherstadt_lab.games.speicherstadt import catalog as ss_catalog
from speicherstadt_lab.records import GameRecord
from speicherstadt_lab.ui.board import Board
from speicherstadt_lab.ui.model import MAX_INT
from speicherstadt_lab.ui.packet_row_board import PacketRowBoard
from tests.support.games import options

GAMES = {
    "base": {"game": "speicherstadt"},
    "kaispeicher": {"game": "speicherstadt", "expansion": "kaispeicher"},
    "packet_row": {"game": "packet_row"},
}
FUZZ = settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                        HealthCheck.function_scoped_fixture])

# The lab's errors name what is at fault: "record field 'moves[3].variations'", "state seats[1] field
# 'coins'", "catalog card 'port': field 'coins' ...", "players: ...".
RECORD_NAMES = re.compile(r"^(record( field '[^']+'|:)|state( field '[^']+'| seats\[\d+\]| is inconsistent|:))")
STATE_NAMES = re.compile(r"^state( field '[^']+'| fields '[^']+'| seats\[\d+\]| is inconsistent|:)")
CATALOG_NAMES = re.compile(r"^(catalog [^:]+:|players:)")

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 10**12) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=5,
)


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, (*prefix, i))


def _plausible(doc: Any) -> list[Any]:
    """Values that occur somewhere in ``doc``: a mutation that swaps in one of them reaches the deeper checks."""
    seen: dict[str, Any] = {}
    for p in _paths(doc):
        v = doc
        for k in p:
            v = v[k]
        if isinstance(v, str | int) and not isinstance(v, bool):
            seen.setdefault(repr(v), v)
    return sorted(seen.values(), key=repr)[:400]


@st.composite
def mutated(draw: st.DrawFn, doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with one to three places changed: a key or item removed, a value replaced (by any JSON value
    or one that occurs elsewhere in the document), a list cut short or an item doubled."""
    out = copy.deepcopy(doc)
    values = _plausible(doc)
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(out) if p]
        if not paths:
            break
        path = paths[draw(st.integers(0, len(paths) - 1))]
        parent = out
        for k in path[:-1]:
            parent = parent[k]
        key = path[-1]
        op = draw(st.sampled_from(["delete", "json", "plausible", "plausible", "cut", "double"]))
        if op == "delete":
            del parent[key]
        elif op == "json":
            parent[key] = draw(JSON_VALUES)
        elif op == "plausible":
            parent[key] = draw(st.sampled_from(values))
        elif isinstance(parent[key], list) and parent[key]:
            items = parent[key]
            parent[key] = items[: len(items) // 2] if op == "cut" else [*items, items[-1]]
        else:
            parent[key] = draw(JSON_VALUES)
    return out


# ---- records -----------------------------------------------------------------------------------------------


@cache
def record_doc(name: str) -> str:
    """A record of ``name`` with 50 main-line moves, a variation of 12 moves at ply 20 and one inside it."""
    spec = GAMES[name]
    kwargs = {"expansion": spec["expansion"]} if "expansion" in spec else {}
    rec = GameRecord.new(players=3, seed=7, game=spec["game"], **kwargs)
    bot = make_bot("random", seed=3)
    node = rec.root
    for _ in range(50):
        node = node.play(bot.choose(node.state))
    for start, plies in ((rec.mainline()[20], 12), (None, 6)):
        if start is None:  # inside the first variation
            start = rec.mainline()[20].children[1].children[0].children[0]
        node = start
        for k in range(plies):
            legal = node.state.legal_actions()
            node = node.play(legal[-1 - (k % 2)] if len(legal) > 1 else legal[0], by="human")
    rec.mainline()[10].comment = "a comment"
    return rec.to_json()


def assert_whole(rec: GameRecord) -> None:
    """Every node's state replays, and the record saves and loads to the same record."""
    for node in rec.nodes():
        if node.parent is not None:
            assert node.state == node.parent.state.apply(node.action)
    again = GameRecord.from_json(rec.to_json())
    assert again.to_json() == rec.to_json()


def load_or_refuse(text: str | bytes) -> GameRecord | None:
    try:
        rec = GameRecord.from_json(text)
    except RecordError as e:
        assert RECORD_NAMES.match(str(e)), f"the error does not name the field: {e}"
        return None
    assert_whole(rec)
    return rec


@pytest.mark.parametrize("name", list(GAMES))
@FUZZ
@given(data=st.data())
def test_mutated_records_load_whole_or_name_the_field(name: str, data: st.DataObject) -> None:
    doc = json.loads(record_doc(name))
    load_or_refuse(json.dumps(data.draw(mutated(doc))))


@pytest.mark.parametrize("name", list(GAMES))
@FUZZ
@given(data=st.data())
def test_truncated_and_corrupted_record_files(name: str, data: st.DataObject) -> None:
    raw = record_doc(name).encode()
    cut = data.draw(st.integers(0, len(raw) - 1))
    load_or_refuse(raw[:cut])
    at = data.draw(st.integers(0, len(raw) - 1))
    flipped = raw[:at] + bytes([raw[at] ^ data.draw(st.integers(1, 255))]) + raw[at + 1:]
    load_or_refuse(flipped)  # bytes that are no UTF-8 are refused as "record: not valid JSON"


def _find_line(moves: list[Any], depth: int) -> tuple[list[Any], int]:
    """A (line, index) inside variations ``depth`` levels deep."""
    line = moves
    for _ in range(depth):
        k = next(i for i, m in enumerate(line) if isinstance(m, dict) and m.get("variations"))
        line = line[k]["variations"][0]
    return line, len(line) - 1


@pytest.mark.parametrize("name", list(GAMES))
def test_an_illegal_move_deep_in_a_variation_names_its_place(name: str) -> None:
    doc = json.loads(record_doc(name))
    line, k = _find_line(doc["moves"], 2)
    move = line[k]
    bad = "place 99" if GAMES[name]["game"] == "speicherstadt" else "take market 99"
    if isinstance(move, dict):
        move["action"] = bad
    else:
        line[k] = bad
    with pytest.raises(RecordError, match=r"record field 'moves\[\d+\]\.variations\[0\]\[\d+\]\.variations") as err:
        GameRecord.from_json(json.dumps(doc))
    assert "illegal" in str(err.value)


def test_the_app_keeps_its_record_when_a_file_is_refused() -> None:
    from speicherstadt_lab.ui.app import LabApp

    app = LabApp(players=3, seed=1, seats=["human"] * 3, threaded=False, chart_delay=0)
    try:
        for action in [str(a) for a in app.state.legal_actions()[:1]]:
            app.play(action)
        before = (app.save_json(), app.node.ply)
        doc = json.loads(record_doc("base"))
        line, k = _find_line(doc["moves"], 1)
        line[k] = "place 99"
        for bad in (json.dumps(doc), record_doc("base")[:500], b"\xff\xfe", "[]", '{"format": 3}'):
            assert not app.load_json(bad)
            assert "ssl-err" in app.message.value
            assert (app.save_json(), app.node.ply) == before
    finally:
        app.close()


# ---- state files -------------------------------------------------------------------------------------------


def played(name: str, seed: int, bot: Any, observed: bool) -> list[Any]:
    """Every position of a game of ``name`` (3 players, ``seed``) that ``bot`` plays to its end, the end included;
    ``observed``: the bot chooses from the seat's observation, else from the state."""
    spec = GAMES[name]
    s = sl.new_game(spec["game"], players=3, seed=seed, **options(spec.get("expansion")))
    states = [s]
    while not s.is_over:
        s = s.apply(bot.choose(s.observe(s.to_move) if observed else s))
        states.append(s)
    return states


@cache
def state_docs(name: str) -> tuple[str, ...]:
    """Six states of a random game of ``name`` (start, middle, end)."""
    states = played(name, 5, make_bot("random", seed=2), observed=False)
    picks = [states[round(i * (len(states) - 1) / 5)] for i in range(6)]
    return tuple(x.to_json() for x in picks)


@pytest.mark.parametrize("name", list(GAMES))
@FUZZ
@given(data=st.data())
def test_mutated_state_files_load_or_name_the_field(name: str, data: st.DataObject) -> None:
    doc = json.loads(data.draw(st.sampled_from(state_docs(name))))
    text = json.dumps(data.draw(mutated(doc)))
    try:
        s = sl.load_state(text)
    except RecordError as e:
        assert STATE_NAMES.match(str(e)), f"the error does not name the field: {e}"
        return
    assert sl.load_state(s.to_json()) == s
    for action in s.legal_actions()[:3]:
        s.apply(action)


# ---- catalogue files ---------------------------------------------------------------------------------------

CATALOGS = {"speicherstadt": ss_catalog, "packet_row": pr_catalog}


@pytest.mark.parametrize("game", list(CATALOGS))
@FUZZ
@given(data=st.data())
def test_mutated_catalogue_files_set_up_games_or_name_the_field(game: str, data: st.DataObject,
                                                                tmp_path_factory: pytest.TempPathFactory) -> None:
    raw = CATALOGS[game].default_raw()
    path = Path(tmp_path_factory.mktemp("cat")) / "cards.json"
    path.write_text(json.dumps(data.draw(mutated(raw))), encoding="utf-8")
    variants = [{}, {"expansion": "kaispeicher"}] if game == "speicherstadt" else [{}]
    players = data.draw(st.sampled_from([2, 3, 4, 5]))
    for kwargs in variants:
        try:
            s = sl.new_game(game, players=players, seed=1, catalog=str(path), **kwargs)
        except (CatalogError, ValueError) as e:
            assert type(e) is CatalogError or not isinstance(e, IllegalAction | RecordError)
            assert CATALOG_NAMES.match(str(e)), f"the error does not name the card or field: {e}"
            continue
        bot = make_bot("random", seed=1)
        for _ in range(30):  # a catalogue that loads must play
            if s.is_over:
                break
            s = s.apply(bot.choose(s))


# ---- board messages ------------------------------------------------------------------------------------------


@cache
def positions(name: str) -> tuple[Any, ...]:
    """Every 7th position of a random game of ``name`` (3 players), decisions of every phase among them."""
    return tuple(played(name, 11, make_bot("greedy", seed=4), observed=True)[:-1][::7])  # the end is no decision


@st.composite
def speicherstadt_click(draw: st.DrawFn, state: Any) -> dict[str, Any]:
    """A click with the right kind and fields; values in range or just out of it."""
    goods = [*state.goods, "gold"]
    small = st.integers(0, 12) | st.sampled_from([MAX_INT, MAX_INT + 1, -1])
    good = st.sampled_from(goods)
    kinds = ["place", "buy", "pass", "contract", "sell", "store", "keep", "take", "convert", "hallsell", "done"]
    if state.kai is not None:
        kinds += ["reserve", "break", "stop", "spy", "double", "insure", "buyfree", "deliver", "auction",
                  "smuggle", "truck"]
    kind = draw(st.sampled_from(kinds))
    fields: dict[str, Any] = {
        "space": small, "index": small, "level": small, "space_other": small, "level_other": small,
        "seat": st.integers(0, 5), "from": small, "to": good, "good": good,
        "source": st.sampled_from(["warehouse", "hall", "dock"]),
        "goods": st.lists(good, min_size=1, max_size=4),
    }
    from speicherstadt_lab.ui.model import CLICK_FIELDS

    args = {f: draw(small if (kind == "truck" and f == "to") else fields[f]) for f in CLICK_FIELDS[kind]}
    return {"kind": "act", "verb": kind, "args": args}


@st.composite
def packet_row_click(draw: st.DrawFn, state: Any) -> dict[str, Any]:
    """A click with the right kind and fields: boards, slots, and cards of any seat (or none) by id."""
    from speicherstadt_lab.ui.packet_row_model import CLICK_FIELDS

    cat = state.cat
    board = st.sampled_from([*pr_catalog.BOARDS, "harbour"])
    kind = draw(st.sampled_from(list(CLICK_FIELDS)))
    msg: dict[str, Any] = {}  # the action's arguments
    if kind == "choose":
        msg["board"] = draw(board)
    elif kind == "take":
        msg.update(board=draw(board), supply=draw(st.sampled_from(["current", "future", "past"])),
                   slot=draw(st.integers(0, 8) | st.just(MAX_INT + 1)))
    elif kind == "cash":
        msg["value"] = draw(st.integers(0, 15))
    elif kind == "fulfil":
        contracts = [c.id for c in cat.cards if c.kind == "contract"]
        goods = [c.id for c in cat.cards if c.kind in ("goods", "gold")]
        dests = [d.id for d in cat.dests]
        msg["contracts"] = draw(st.lists(st.sampled_from(contracts), min_size=1, max_size=2))
        msg["ships"] = draw(st.lists(st.fixed_dictionaries({"dest": st.sampled_from(dests)}), min_size=1,
                                     max_size=2))
        msg["goods"] = draw(st.lists(st.fixed_dictionaries({"card": st.sampled_from(goods)}), min_size=1,
                                     max_size=3))
    return {"kind": "act", "verb": kind, "args": msg}


def board_for(state: Any) -> Any:
    return PacketRowBoard(state) if state.game == "packet_row" else Board(state)


def check_click(board: Any, msg: dict[str, Any]) -> bool:
    """Send ``msg``; a refusal leaves the state as it was and says why, an acceptance played a legal move."""
    state = board.state
    before = state.to_json()
    legal = {str(a) for a in state.legal_actions()}
    accepted = board.handle_message(msg)
    assert state.to_json() == before, "the state a click was made on never changes"
    if accepted:
        assert board.state is not state and board.state.last_action in legal
        assert board.state == state.apply(board.state.last_action)
        assert board.error == ""
    else:
        assert board.state is state, f"a refused click {msg} changed the board"
        assert board.error, f"the refusal of {msg} says nothing"
    return accepted


@pytest.mark.parametrize("name", list(GAMES))
@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_board_clicks_shaped_like_valid_ones(name: str, data: st.DataObject) -> None:
    state = data.draw(st.sampled_from(positions(name)))
    board = board_for(state)
    strategy = packet_row_click if state.game == "packet_row" else speicherstadt_click
    msg = data.draw(strategy(state))
    check_click(board, msg)
    if board.state is state:
        return
    # the same message again, now stale: it names the position the page saw, which is no longer shown
    stale = {**msg, "rev": board.model["rev"] - 1}
    shown = board.state
    assert not check_click(board, stale)
    assert board.state is shown and "'rev'" in board.error


@pytest.mark.parametrize("name", list(GAMES))
@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_models_own_click_with_a_part_replaced(name: str, data: st.DataObject) -> None:
    """A legal action's message as the model lists it (``{"kind": "act", "verb", "args"}``) with its kind, verb,
    args, one argument or an extra field replaced by any JSON value: taken only as a legal action, else refused with
    a reason; the state it was sent on never changes."""
    state = data.draw(st.sampled_from(positions(name)))
    board = board_for(state)
    msg = copy.deepcopy(data.draw(st.sampled_from(board.model["actions"]))["msg"])
    where = data.draw(st.sampled_from(["kind", "verb", "args", "arg", "extra"]))
    value = data.draw(JSON_VALUES)
    if where == "arg" and msg["args"]:
        msg["args"][data.draw(st.sampled_from(sorted(msg["args"])))] = value
    elif where == "extra":
        msg[data.draw(st.sampled_from(["seat", "action", "x"]))] = value
    elif where != "arg":
        msg[where] = value
    check_click(board, msg)


@pytest.mark.parametrize("name", list(GAMES))
def test_a_well_shaped_illegal_click_is_refused_with_the_rules_explanation(name: str) -> None:
    for state in positions(name):
        board = board_for(state)
        if state.game == "speicherstadt":
            msg: dict[str, Any] = {"kind": "act", "verb": "place", "args": {"space": 11}}
            probe = "place 11"
        else:
            msg = {"kind": "act", "verb": "take", "args": {"board": "market", "supply": "current", "slot": 7}}
            probe = "take market 7"
        assert probe not in {str(a) for a in state.legal_actions()}
        assert not check_click(board, msg)
        with pytest.raises(IllegalAction) as err:
            state.apply(probe)
        assert board.error == state.explain(err.value, "en") and board.state is state


# ---- the app: clicks, stale clicks, the move tree -----------------------------------------------------------


def test_the_app_refuses_bogus_and_stale_messages_and_keeps_everything() -> None:
    from speicherstadt_lab.ui.app import LabApp

    app = LabApp(players=3, seed=1, seats=["human"] * 3, threaded=False, chart_delay=0)
    try:
        first = str(app.state.legal_actions()[0])
        space = int(first.split()[1])
        rev = app.board.model["rev"]
        assert app.board.handle_message({"kind": "act", "verb": "place", "args": {"space": space}, "rev": rev})
        assert app.node.ply == 1
        snapshot = (app.save_json(), app.node.ply)
        nodes = len(app.record.nodes())
        bad: list[dict[str, Any]] = [
            {"kind": "act", "verb": "place", "args": {"space": space}, "rev": rev},  # the click for the previous ply
            {"kind": "act", "verb": "place", "args": {"space": 42}},  # out of range
            {"kind": "act", "verb": "place", "args": {"space": 2}, "rev": "x"},
            {"kind": "act", "verb": "sell", "args": {"good": "coffee"}},  # not the loading phase
            {"kind": "act", "verb": "contract", "args": {"good": "coffee", "index": 7}},
            {"kind": "act", "verb": "place", "args": {"space": 1.5}},
            {"kind": "lang", "lang": "fr"},
        ]
        for msg in bad:
            assert not app.board.handle_message(msg), msg
            assert app.board.error
            assert (app.save_json(), app.node.ply) == snapshot and len(app.record.nodes()) == nodes
        for ident in (-1, 10**6, "3", None, True, 2.5):
            app.tree.handle_message({"kind": "goto", "id": ident})
            assert "field 'id'" in html.unescape(app.message.value) and app.node.ply == 1
        removed = app.record.root.children[0]
        ids = app.panels.moves.ident(removed)
        app.goto(app.record.root)
        app.record.remove(removed)
        app.tree.handle_message({"kind": "goto", "id": ids})
        assert app.node is app.record.root and "field 'id'" in html.unescape(app.message.value)
    finally:
        app.close()
