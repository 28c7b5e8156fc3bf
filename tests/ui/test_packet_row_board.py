"""The Packet Row board view in plain Python: the model per situation, hidden information, clicks, the widget."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.games.packet_row.scenario import rigged
from speicherstadt_lab.ui.clicks import act_message
from speicherstadt_lab.ui.packet_row_board import ASSETS, CSS_PARTS, PARTS, PacketRowBoard, find_assets
from speicherstadt_lab.ui.packet_row_model import ClickError, board_model, click_to_action, highlight
from speicherstadt_lab.ui.widget_base import assemble
from tests.support.paths import REPO

START = re.compile(r"start_[a-z]+_[a-z]+")


def new(players: int = 4, seed: int = 1) -> sl.GameState:
    return sl.new_game("packet_row", players=players, seed=seed)


def play(state: sl.GameState, steps: int, seed: int = 0, fulfil: bool = True) -> list[sl.GameState]:
    """States of a random game from ``state`` (inclusive), at most ``steps`` moves."""
    rng = random.Random(seed)
    out = [state]
    for _ in range(steps):
        if state.is_over:
            break
        legal = [str(a) for a in state.legal_actions() if fulfil or not str(a).startswith("fulfil ")]
        state = state.apply(rng.choice(legal))
        out.append(state)
    return out


def to_end(state: sl.GameState, seed: int = 0) -> sl.GameState:
    return play(state, 10_000, seed)[-1]


def secret_of(state: sl.GameState, seat: int) -> list[str]:
    return [c for c in state.player(seat).hand if state.cat.card(c).start]


def slot(model: dict, board: str, where: str = "current") -> list[dict]:
    return next(b for b in model["boards"] if b["id"] == board)[where]


def fulfil_state() -> sl.GameState:
    s = new(3, 2)  # seat 0 is the harbour master and chooses
    return rigged(s, 0, hand=["cotton_nl", "cotton3", "captain", "gold2", "merchant", "fur2", "money5"],
                  ships=["ship_es", "ship_nl"])


def final_state() -> sl.GameState:
    s = rigged(new(3, 4), 1, hand=["cotton_nl", "cotton3"], ships=["ship_nl"])
    rng = random.Random(1)
    while s.phase != "final":
        assert not s.is_over
        s = s.apply(rng.choice([str(a) for a in s.legal_actions() if not str(a).startswith("fulfil ")]))
    return s


# ---- assets ----------------------------------------------------------------------------------------


def test_assets_resolve_and_are_not_empty(tmp_path: Path) -> None:
    assert ASSETS == REPO / "widgets"
    js = (ASSETS / "packet_row.js").read_text(encoding="utf-8")
    css = (ASSETS / "packet_row.css").read_text(encoding="utf-8")
    assert "export default" in js and ".prb-board" in css
    board = PacketRowBoard()
    assert board._esm == assemble(ASSETS, PARTS) and board._esm.rstrip().endswith(js.rstrip())
    assert board._css == assemble(ASSETS, CSS_PARTS) and board._css.rstrip().endswith(css.rstrip())
    assert board._esm.count("export default") == 1 and "function el(" in board._esm  # the shared helpers, once
    assert not re.search(r"""(import\s.*from\s+["']https?:|@import|url\(\s*["']?https?:)""", board._esm + board._css)
    wheel, repo = tmp_path / "w", tmp_path / "r"
    for d in (wheel, repo):
        d.mkdir()
        (d / "packet_row.js").write_text("export default {}")
        (d / "packet_row.css").write_text(".x{}")
    assert find_assets(wheel, repo) == wheel
    (wheel / "packet_row.css").unlink()
    assert find_assets(wheel, repo) == repo
    with pytest.raises(FileNotFoundError):
        find_assets(wheel)


def test_javascript_sends_only_the_models_messages() -> None:
    js = re.sub(r"//[^\n]*|/\*.*?\*/", "", PacketRowBoard._esm, flags=re.S)  # the code, not its comments
    # an action is the model's own message ({kind: "act", verb, args}: its entry in model.actions, found by the
    # notation the model names for the target, or a fulfilment's msg); the page spells no click and no verb
    assert set(re.findall(r'kind: "(\w+)"', js)) == {"lang"}
    assert "send(entry.msg)" in js and "c.send(o.msg)" in js and "verb:" not in js
    names = re.findall(r"^(?:function|const|let|class)\s+(\w+)", js, re.M)
    assert len(names) == len(set(names))  # the parts share one module scope: each name once


def test_model_module_needs_no_widget_library() -> None:
    import subprocess
    import sys

    code = ("import sys; import speicherstadt_lab.ui.packet_row_model as m; "
            "assert 'ipywidgets' not in sys.modules and 'anywidget' not in sys.modules, sorted(sys.modules)")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO)


# ---- the model per situation -----------------------------------------------------------------------


def test_harbour_master_choosing() -> None:
    s = new()
    m = board_model(s)
    assert json.loads(json.dumps(m)) == m
    assert m["phase"] == "choose" and m["to_move"] == 0 == m["harbour_master"] == m["viewer"]
    assert m["can_act"] and m["prompt"].startswith("Red, harbour master")
    assert [b["id"] for b in m["boards"] if b["choose"]["legal"]] == ["guild", "docks", "market", "bank"]
    assert not any(x["legal"] for b in m["boards"] for x in b["current"] + b["future"])
    assert m["buttons"] == [] and m["fulfil"] == [] and m["ranking"] is None
    guild = m["boards"][0]
    assert len(guild["current"]) == 3 and len(guild["future"]) == 2  # 4 players: 3 + 2
    assert guild["deck"] == s.supply("guild")["deck"] and guild["deck_label"].endswith("cards")
    assert all(x["card"]["text"] for b in m["boards"] for x in b["current"])
    assert all(seat["holds_pawn"] for seat in m["seats"])
    colours = [seat["colour"] for seat in m["seats"]]
    assert colours == ["#D55E00", "#0072B2", "#009E73", "#E6B800"]  # Okabe–Ito, as on the Speicherstadt board
    assert len({seat["shape"] for seat in m["seats"]}) == 4


def test_players_take_and_decline() -> None:
    s = new().apply("choose market")
    m = board_model(s)
    assert m["phase"] == "decide" and m["to_move"] == 1 and m["active_board"] == "market"
    market = next(b for b in m["boards"] if b["id"] == "market")
    assert market["active"] and market["chosen"] and market["chosen_order"] == 1
    legal_slots = [x["action"] for x in market["current"] if x["legal"]]
    assert legal_slots and set(legal_slots) <= set(m["legal"])
    assert not any(x["legal"] for x in market["future"])  # no assistant
    assert not any(x["legal"] for b in m["boards"] if b["id"] != "market" for x in b["current"])
    assert [b["kind"] for b in m["buttons"]] == ["decline"]
    assert "take none" in m["prompt"]
    # the click takes the card; the pawn lies on the slot, and the log and highlight show it
    board = PacketRowBoard(s)
    k = int(legal_slots[0].split()[-1])
    assert board.handle_message(act_message("take", {"board": "market", "supply": "current", "slot": k}))
    m2 = board.model
    assert slot(m2, "market")[k]["card"] is None and slot(m2, "market")[k]["pawn"] == 1
    assert not m2["seats"][1]["holds_pawn"] and m2["seats"][2]["holds_pawn"]
    assert board.highlight["slots"] == [["market", "current", k]] and board.highlight["actor"] == 1
    assert m2["log"][0]["action"] == legal_slots[0] and m2["log"][0]["actor"] == 1
    assert board.handle_message({"kind": "act", "verb": "decline", "args": {}})
    assert board.state.last_action == "decline"


def test_assistant_opens_the_future_supply() -> None:
    s = rigged(new().apply("choose market"), 1, hand=["assistant"], money=40)
    m = board_model(s)
    future = [x for x in slot(m, "market", "future") if x["legal"]]
    assert future and all("future" in x["action"] for x in future)
    board = PacketRowBoard(s)
    assert board.handle_message(act_message("take", board="market", supply="future", slot=future[0]["index"]))
    assert "assistant" not in board.state.player(1).hand


def test_harbour_master_after_the_others() -> None:
    s = new().apply("choose market").apply("decline").apply("decline").apply("decline")
    m = board_model(s)
    assert m["to_move"] == 0 == m["harbour_master"]
    assert "choose another board" in m["prompt"]
    assert {b["id"] for b in m["boards"] if b["choose"]["legal"]} == {"guild", "docks", "bank"}
    assert not any(b["kind"] in ("decline", "pass") for b in m["buttons"])
    # everyone else takes a card: the harbour master may take from any board not chosen yet, or pass
    s = new().apply("choose bank")
    for _ in range(3):
        s = s.apply(next(str(a) for a in s.legal_actions() if str(a).startswith("take ")))
    m = board_model(s)
    assert m["to_move"] == 0 and "everyone else" in m["prompt"]
    assert [b["kind"] for b in m["buttons"]] == ["pass"]
    assert not any(b["choose"]["legal"] for b in m["boards"])
    assert any(x["legal"] for b in m["boards"] if b["id"] == "docks" for x in b["current"])
    assert [s for s in m["seats"] if s["holds_pawn"]] == [m["seats"][0]]


def test_fulfilment_options_and_click() -> None:
    s = fulfil_state()
    m = board_model(s)
    options = m["fulfil"]
    fulfils = [t for t in m["legal"] if t.startswith("fulfil ")]
    assert [o["action"] for o in options] == fulfils and fulfils
    me = m["seats"][0]
    assert any(c["usable"] for c in me["hand"]) and any(c["cash"] for c in me["hand"])
    assert [c["label"] for c in m["cash"]] == ["Cash $5"]
    o = next(o for o in options if o["captains"] and o["merchants"])
    assert o["label"].count("→") >= 2 and o["pays"] > 0
    assert "captain" in o["hand"] and "merchant" in o["hand"]
    board = PacketRowBoard(s)
    before = board.state.money[0]
    assert board.handle_message(act_message("fulfil", contracts=o["contracts"], ships=o["ships"], goods=o["goods"])), \
        board.error
    assert board.state.last_action == o["action"]
    assert board.state.money[0] == before + o["pays"]
    assert board.model["log"][0]["texts"][-1].startswith("Red fulfils")
    # a combination the engine refuses is explained (and nothing changes)
    board = PacketRowBoard(s)
    bad = act_message("fulfil", {"contracts": ["cotton_nl"], "ships": [{"dest": "nl"}], "goods": [{"card": "fur2"}]})
    assert not board.handle_message(bad)
    assert board.error.startswith("Contracts:") and board.state is s
    board.lang = "de"
    assert board.error.startswith("Verträge:")


def test_cash_click() -> None:
    board = PacketRowBoard(fulfil_state())
    assert board.handle_message({"kind": "act", "verb": "cash", "args": {"value": 5}})
    assert board.state.last_action == "cash 5" and board.state.money[0] == 30
    assert not board.handle_message({"kind": "act", "verb": "cash", "args": {"value": 7}})
    assert "no money card of $7" in board.error


def test_final_phase() -> None:
    s = final_state()
    m = board_model(s)
    assert m["phase"] == "final" and m["to_move"] == 1
    assert [p["id"] for p in m["phases"]] == ["choose", "decide", "final", "over"]
    assert [b["kind"] for b in m["buttons"]] == ["done"] and m["fulfil"]
    assert "Done" in m["prompt"]
    assert all(not seat["hand_hidden"] and seat["hand"] is not None for seat in m["seats"])  # hands are shown
    assert all("score" in seat for seat in m["seats"])
    assert not any(seat["holds_pawn"] for seat in m["seats"])
    board = PacketRowBoard(s)
    assert board.handle_message({"kind": "act", "verb": "done", "args": {}})
    assert board.state.last_action == "done"


def test_game_over() -> None:
    s = to_end(new(3, 5))
    m = board_model(s, "de")
    assert m["phase"] == "over" and m["to_move"] is None and m["viewer"] is None and not m["can_act"]
    assert m["legal"] == [] and m["buttons"] == [] and m["fulfil"] == []
    assert m["prompt"].startswith("Das Spiel ist vorbei")
    assert [r["seat"] for r in m["ranking"] if r["rank"] == 1] == s.winners()
    assert all(not seat["hand_hidden"] for seat in m["seats"])
    assert [seat["winner"] for seat in m["seats"]] == [i in s.winners() for i in range(3)]
    board = PacketRowBoard(s)
    assert not board.handle_message({"kind": "act", "verb": "pass", "args": {}})
    assert "game is over" in board.error


# ---- hidden information ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4, 5])
def test_the_model_never_shows_another_seats_secret(players: int) -> None:
    """For every seat k, the JSON of its model holds no id of another seat's secret cards (nor their number)."""
    states = play(new(players, 3), 400, seed=players)
    checked = 0
    for s in states[::7]:
        if s.revealed:
            continue
        secrets = {i: secret_of(s, i) for i in range(players)}
        for k in [*range(players), None]:
            m = board_model(s, "en", k, states[:1])
            text = json.dumps(m, ensure_ascii=False)
            viewer = m["viewer"]
            others = {c for i, cs in secrets.items() if i != viewer for c in cs}
            ids = set(START.findall(text))
            assert not ids & others, (k, ids & others)
            names = {s.card_name(c, lang) for c in others for lang in ("en",)}
            assert not any(n in text for n in names)
            for i, seat in enumerate(m["seats"]):
                if i != viewer:
                    assert seat["hand_hidden"] and seat["hand"] is None and "score" not in seat
                    assert "secret" not in seat  # not even the number of hidden cards
            if viewer is not None and secrets[viewer]:
                assert set(secrets[viewer]) <= {c["id"] for c in m["seats"][viewer]["hand"]}
            checked += 1
    assert checked > 20


def test_a_fixed_seat_sees_its_own_hand_and_acts_only_on_its_turn() -> None:
    s = new().apply("choose market")  # seat 1 to move
    m = board_model(s, seat=2)
    assert m["viewer"] == 2 and m["viewer_fixed"] and not m["can_act"] and m["legal"] == []
    assert m["prompt"] == "Blue is to move."
    assert m["seats"][2]["hand"] is not None and m["seats"][1]["hand"] is None
    board = PacketRowBoard(s, seat=2)
    assert not board.handle_message({"kind": "act", "verb": "decline", "args": {}})
    assert board.error == "Board: this board acts for Green, but Blue is to move." and board.state is s
    board.seat = 1
    assert board.model["can_act"] and board.handle_message({"kind": "act", "verb": "decline", "args": {}})
    with pytest.raises(Exception, match="seat must be"):
        board.seat = 4
    with pytest.raises(ValueError, match="seat must be"):
        board_model(s, seat=7)


# ---- clicks ---------------------------------------------------------------------------------------


VALID = [
    ({"kind": "act", "verb": "choose", "args": {"board": "docks"}}, "choose docks"),
    ({"kind": "act", "verb": "take", "args": {"board": "bank", "supply": "current", "slot": 2}}, "take bank 2"),
    (act_message("take", {"board": "guild", "supply": "future", "slot": 1.0}), "take guild future 1"),
    ({"kind": "act", "verb": "decline", "args": {}}, "decline"),
    ({"kind": "act", "verb": "pass", "args": {}}, "pass"),
    ({"kind": "act", "verb": "done", "args": {}}, "done"),
    ({"kind": "act", "verb": "cash", "args": {"value": 4}}, "cash 4"),
    (act_message("fulfil", contracts=["cotton_nl", "start_cotton_nl"], ships=[{"dest": "es", "captain": "nl"}],
                 goods=[{"card": "fur2", "merchant": "cotton"}, {"card": "gold1", "merchant": None}]),
     "fulfil cotton_nl start_cotton_nl ship es captain nl goods gold1 fur2 merchant cotton"),  # canonical order
]


@pytest.mark.parametrize(("msg", "text"), VALID, ids=[m["verb"] + str(i) for i, (m, _) in enumerate(VALID)])
def test_valid_clicks_become_notation(msg: dict, text: str) -> None:
    assert click_to_action(new(), msg) == text


INVALID = [
    ("not a dict", "not_object", None),
    ({"board": "docks"}, "kind", None),
    ({"kind": "act", "verb": "buy", "args": {}}, "verb", "verb"),  # a verb of the other game
    ({"kind": "choose", "board": "docks"}, "kind", None),  # the flat shape of before: no action message
    ({"kind": "act", "verb": "choose"}, "missing", "args"),
    ({"kind": "act", "verb": "choose", "args": ["docks"]}, "args", "args"),
    ({"kind": "act", "verb": "choose", "args": {"board": "docks"}, "seat": 1}, "extra", "seat"),
    ({"kind": "act", "verb": "choose", "args": {}}, "missing", "board"),
    ({"kind": "act", "verb": "choose", "args": {"board": "docks", "slot": 1}}, "extra", "slot"),
    ({"kind": "act", "verb": "choose", "args": {"board": "harbour"}}, "choice", "board"),
    ({"kind": "act", "verb": "choose", "args": {"board": 1}}, "choice", "board"),
    ({"kind": "act", "verb": "take", "args": {"board": "bank", "supply": "past", "slot": 0}}, "choice", "supply"),
    ({"kind": "act", "verb": "take", "args": {"board": "bank", "supply": "current", "slot": -1}}, "int", "slot"),
    ({"kind": "act", "verb": "take", "args": {"board": "bank", "supply": "current", "slot": True}}, "int", "slot"),
    ({"kind": "act", "verb": "take", "args": {"board": "bank", "supply": "current", "slot": 1.5}}, "int", "slot"),
    ({"kind": "act", "verb": "take", "args": {"board": "bank", "supply": "current", "slot": "0"}}, "int", "slot"),
    ({"kind": "act", "verb": "take", "args": {"board": "bank", "supply": "current", "slot": 1000}}, "int", "slot"),
    (act_message("take", {"board": "bank", "supply": "current", "slot": float("nan")}), "int", "slot"),
    ({"kind": "act", "verb": "decline", "args": {"seat": 1}}, "extra", "seat"),
    ({"kind": "act", "verb": "pass", "args": {"x": 1}}, "extra", "x"),
    ({"kind": "act", "verb": "done", "args": {"now": True}}, "extra", "now"),
    ({"kind": "act", "verb": "cash", "args": {"value": "5"}}, "int", "value"),
    ({"kind": "act", "verb": "cash", "args": {}}, "missing", "value"),
    (act_message("fulfil", {"contracts": "cotton_nl", "ships": [], "goods": []}), "list", "contracts"),
    (act_message("fulfil", {"contracts": [], "ships": [{"dest": "nl"}], "goods": [{"card": "cotton3"}]}), "empty",
     "contracts"),
    (act_message("fulfil", contracts=["cotton3"], ships=[{"dest": "nl"}], goods=[{"card": "cotton3"}]), "card",
     "contracts[0]"),
    (act_message("fulfil", {"contracts": ["cotton_nl"], "ships": ["nl"], "goods": [{"card": "cotton3"}]}), "object",
     "ships[0]"),
    (act_message("fulfil", {"contracts": ["cotton_nl"], "ships": [{"dest": "us"}], "goods": [{"card": "cotton3"}]}),
     "choice", "ships[0].dest"),
    (act_message("fulfil", contracts=["cotton_nl"], ships=[{"dest": "es", "captain": "xx"}],
                 goods=[{"card": "cotton3"}]),
     "choice", "ships[0].captain"),
    (act_message("fulfil", {"contracts": ["cotton_nl"], "ships": [{"to": "es"}], "goods": [{"card": "cotton3"}]}),
     "missing", "dest"),
    (act_message("fulfil", contracts=["cotton_nl"], ships=[{"dest": "nl", "crew": 3}], goods=[{"card": "cotton3"}]),
     "extra", "crew"),
    (act_message("fulfil", {"contracts": ["cotton_nl"], "ships": [{"dest": "nl"}], "goods": [{"card": "ship_nl"}]}),
     "card", "goods[0].card"),
    (act_message("fulfil", contracts=["cotton_nl"], ships=[{"dest": "nl"}],
                 goods=[{"card": "fur2", "merchant": "silk"}]),
     "choice", "goods[0].merchant"),
    (act_message("fulfil", {"contracts": ["cotton_nl"] * 13, "ships": [{"dest": "nl"}], "goods": [{"card": "fur2"}]}),
     "list", "contracts"),
]


@pytest.mark.parametrize(("msg", "key", "field"), INVALID, ids=[f"{i}-{k}" for i, (_, k, _) in enumerate(INVALID)])
def test_bogus_clicks_are_refused_naming_the_field(msg: object, key: str, field: str | None) -> None:
    s = new()
    with pytest.raises(ClickError) as err:
        click_to_action(s, msg)
    assert err.value.key == key
    if field is not None:
        assert f"'{field}'" in err.value.text("en") and f"'{field}'" in err.value.text("de")
    board = PacketRowBoard(s)
    assert not board.handle_message(msg)
    assert board.error == err.value.text("en") and board.state is s
    board.lang = "de"
    assert board.error == err.value.text("de", s) and board.error.startswith("Brett:")


def test_well_formed_but_illegal_clicks_show_the_engines_reason() -> None:
    s = new()  # the harbour master chooses
    board = PacketRowBoard(s)
    cases = [(act_message("take", {"board": "bank", "supply": "current", "slot": 0}), "Round: 'take' is not possible"),
             ({"kind": "act", "verb": "decline", "args": {}}, "Round: 'decline' is not possible"),
             ({"kind": "act", "verb": "cash", "args": {"value": 3}}, "Money cards: you hold no money card of $3.")]
    for msg, start in cases:
        assert not board.handle_message(msg)
        assert board.error.startswith(start) and board.state is s
    s = s.apply("choose market")
    board = PacketRowBoard(s)
    assert not board.handle_message(act_message("take", {"board": "market", "supply": "future", "slot": 0}))
    assert board.error.startswith("Taking cards: a card of the future supply needs an assistant")
    assert not board.handle_message(act_message("take", {"board": "docks", "supply": "current", "slot": 0}))
    board.lang = "de"
    assert board.error.startswith("Karten nehmen: die Karte muss vom Spielplan Markt kommen")
    assert board.handle_message({"kind": "act", "verb": "decline", "args": {}}) and board.error == ""


def test_callbacks_get_the_notation_and_the_board_waits() -> None:
    s = new()
    board = PacketRowBoard(s)
    got: list[str] = []
    board.on_action(got.append)
    assert board.handle_message({"kind": "act", "verb": "choose", "args": {"board": "docks"}})
    assert got == ["choose docks"] and board.state is s
    assert not board.handle_message({"kind": "act", "verb": "pass", "args": {}}) and got == ["choose docks"]
    board.on_action(got.append, remove=True)
    assert board.handle_message(act_message("choose", {"board": "docks"})) and board.state.last_action == "choose docks"


def test_messages_from_the_front_end_go_through_the_same_handler() -> None:
    board = PacketRowBoard(new())
    board._on_msg(board, {"kind": "act", "verb": "choose", "args": {"board": "bank"}}, [])
    assert board.state.last_action == "choose bank"


# ---- language ---------------------------------------------------------------------------------------


def test_language_switch() -> None:
    s = fulfil_state()
    en, de = board_model(s, "en"), board_model(s, "de")
    assert [b["name"] for b in de["boards"]] == ["Zunfthaus", "Docks", "Markt", "Bank"]
    assert de["labels"]["current"] == "aktueller Vorrat" and en["labels"]["current"] == "current supply"
    assert de["prompt"].startswith("Rot, Hafenmeister") and de["round_label"] == "Runde 1"
    assert en["legal"] == de["legal"]  # actions are notation, the same in both languages
    assert set(en["labels"]) == set(de["labels"])
    assert all(en["labels"][k] != de["labels"][k] for k in ("decline", "pass", "done", "log", "hand_hidden"))
    assert "Kapitän" in " ".join(o["label"] for o in de["fulfil"])
    board = PacketRowBoard(s)
    assert board.handle_message({"kind": "lang", "lang": "de"}) and board.lang == "de"
    assert board.model["lang"] == "de"
    for msg, field in (({"kind": "lang"}, "lang"), ({"kind": "lang", "lang": "fr"}, None),
                       ({"kind": "lang", "lang": "en", "x": 1}, "x")):
        assert not board.handle_message(msg)
        assert board.error.startswith("Brett:") and (field is None or f"'{field}'" in board.error)
    with pytest.raises(Exception, match="lang must be"):
        board.lang = "fr"
    with pytest.raises(ValueError, match="language"):
        board_model(s, "fr")


def test_show_and_state_setter_keep_a_log() -> None:
    states = play(new(), 12, seed=3)
    board = PacketRowBoard(states[0])
    for s in states[1:]:
        board.state = s
    log = board.model["log"]
    assert log[0]["newest"] and log[0]["action"] == states[-1].last_action
    assert len(log) <= 8
    board.show(states[5], states[:5])
    assert board.model["log"][0]["action"] == states[5].last_action
    other = new(2, 9)
    board.state = other  # another game: a fresh log
    assert [e["action"] for e in board.model["log"]] == [None]
    assert highlight(other)["actor"] is None


def test_every_ui_text_has_english_and_german() -> None:
    import tomllib

    data = tomllib.loads((REPO / "speicherstadt_lab" / "data" / "messages" / "packet_row_ui.toml").read_text("utf-8"))
    assert data and all(section.startswith("pru_") for section in data)
    for section, entries in data.items():
        for key, texts in entries.items():
            assert set(texts) == {"en", "de"} and all(texts.values()), (section, key)
