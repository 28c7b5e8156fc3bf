"""Game records: the tree, exact replay, the JSON format and its checks, seat exports, the tables."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.engine.rng import Rng
from speicherstadt_lab.games.speicherstadt.records import SpeicherstadtRecords
from speicherstadt_lab.records import RECORD_FORMAT, GameRecord, Node, record_game

CAT = sl.default_catalog()


def play_random(node: Node, seed: int, plies: int | None = None, by: Any = "human") -> Node:
    """Random legal actions from ``node`` (a stateful stream, so no cycles), to the end or for ``plies``."""
    rng = Rng(seed, "records-test")
    done = 0
    while not node.state.is_over and (plies is None or done < plies):
        node = node.play(rng.choice(node.state.legal_actions()), by=by)
        done += 1
    return node


def branch(node: Node, seed: int, plies: int | None = None, by: Any = "human") -> Node:
    """A new variation at ``node``: an action none of its children took, then random play."""
    taken = {c.action for c in node.children}
    first = next(a for a in node.state.legal_actions() if str(a) not in taken)
    child = node.play(first, by=by)
    return play_random(child, seed, None if plies is None else plies - 1, by=by)


class StreamBot:
    """A test bot with its own random stream (the choice depends on the call order, fine for tests)."""

    name = "stream"

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.rng = Rng(seed, "stream-bot")

    def params(self) -> dict[str, Any]:
        return {"bot": self.name, "seed": self.seed}

    def choose(self, obs: Any) -> Any:
        assert obs.is_observation
        return self.rng.choice(obs.legal_actions())


def replay(record: GameRecord, node: Node) -> Any:
    """A fresh replay of ``node`` from the set-up, independent of the record's caches."""
    state = sl.new_game(record.game, **record.setup)
    for nd in record.path_to(node)[1:]:
        state = state.apply(nd.action)
    return state


@pytest.fixture(scope="module")
def full_game() -> GameRecord:
    """A finished 2-player game with variations, comments, annotations and bot moves."""
    rec = GameRecord.new(players=2, seed=3, headers={"event": "test"})
    play_random(rec.root, 1)
    main = rec.mainline()
    # a variation at ply 10 played to the end by "bots", one at ply 40, a nested one inside the first
    v1 = branch(main[10], 2, by={"bot": "random", "seed": 2})
    side = rec.path_to(v1)[11]
    assert not side.is_mainline()
    branch(rec.path_to(v1)[20], 3, plies=15)
    branch(main[40], 4, plies=5)
    main[5].comment = "an opening idea"
    main[5].annotations = {"loss": 0.25, "best": ["place 1"], "note": {"depth": 3}}
    rec.root.comment = "start"
    rec.root.annotations = {"source": "unit test"}
    side.comment = "Ä side line — mit Umlaut"
    return rec


# ---- set-up --------------------------------------------------------------------------------------


def test_new_materializes_the_pile_and_the_bag() -> None:
    rec = GameRecord.new(players=4, seed=7)
    setup = rec.setup
    assert setup["deck"] == sl.standard_deck(players=4, seed=7)  # no fire can come up in round 1
    assert Counter(setup["bag"]) == Counter({g.id: g.count for g in CAT.goods if g.expansion is None})
    assert rec.seed == 7
    assert rec.initial == sl.new_game(players=4, seed=7)
    # the materialized order alone recreates the start, whatever the seed
    assert sl.new_game(players=4, seed=999, deck=setup["deck"], bag=setup["bag"]) == rec.initial


def test_from_state_keeps_names_first_player_and_catalogue() -> None:
    custom = {"base": "default", "cards": [{"id": "contract_a1", "vp": 9}]}
    start = sl.new_game(players=3, seed=5, first_player=2, names=["Ann", "Bo", "Cy"], catalog=custom)
    rec = GameRecord.from_state(start)
    assert rec.initial is start
    assert rec.seed is None
    assert rec.setup["first_player"] == 2 and rec.setup["names"] == ["Ann", "Bo", "Cy"]
    assert rec.setup["catalog"]["cards"] and rec.to_dict()["setup"]["catalog"] is not None
    play_random(rec.root, 8, plies=30)
    back = GameRecord.from_json(rec.to_json())
    assert back == rec
    assert back.end().state == rec.end().state
    assert back.initial.cat.card("contract_a1").vp == 9
    assert GameRecord.new(players=2, seed=1).setup["catalog"] is None


def test_from_state_records_a_position_in_the_middle_of_a_game(tmp_path: Any) -> None:
    rng = Rng(4, "records-middle")
    line = [sl.new_game(players=3, seed=4)]
    while not line[-1].is_over:
        line.append(line[-1].apply(rng.choice(line[-1].legal_actions())))
    key = SpeicherstadtRecords().start_key  # the state without the events that led to it, a seat's cards as a set
    phases = set()
    for k in range(9, len(line) - 1, 31):
        rec = GameRecord.from_state(line[k])  # set up from the position as a scenario with its hidden order
        assert set(rec.setup) == {"scenario", "deck", "bag"} and key(rec.initial) == key(line[k])
        phases.add(line[k].phase)
        node = rec.root
        for nxt in line[k + 1: k + 40]:
            node = node.play(nxt.last_action)
            assert key(node.state) == key(nxt) and node.state.events == nxt.events  # the game goes on as it did
            assert node.state.legal_actions() == nxt.legal_actions()
        path = tmp_path / f"middle-{k}.json"
        rec.save(path)
        again = GameRecord.load(path)
        assert again == rec
        for a, b in zip(again.mainline(), rec.mainline(), strict=True):
            assert a.state == b.state  # the file replays exactly
    assert len(phases) >= 2
    start = sl.new_game(players=2, seed=1)
    assert GameRecord.from_state(start).initial is start  # a start keeps the plain set-up
    with pytest.raises(ValueError, match="observation"):
        GameRecord.from_state(start.apply(start.legal_actions()[0]).observe(0))
    kai = sl.new_game(players=2, seed=1, expansion="kaispeicher")
    with pytest.raises(ValueError, match="cannot be a scenario"):  # Kaispeicher's start a round's demand only
        GameRecord.from_state(kai.apply(kai.legal_actions()[0]))


# ---- the tree ------------------------------------------------------------------------------------


def test_play_builds_children_with_actor_ply_and_by() -> None:
    rec = GameRecord.new(players=2, seed=1)
    a = rec.root.play("place 0")
    b = a.play("place 1", by={"bot": "mcts", "seed": 3, "iterations": 400}, comment="hm")
    assert (a.ply, a.actor, a.by, a.comment) == (1, 0, "human", None)
    assert (b.ply, b.actor, b.by, b.comment) == (2, 1, {"bot": "mcts", "seed": 3, "iterations": 400}, "hm")
    assert b.parent is a and a.children == [b] and rec.end() is b
    assert b.state == sl.new_game(players=2, seed=1).apply("place 0").apply("place 1")


def test_play_reuses_an_existing_child_for_the_same_action() -> None:
    rec = GameRecord.new(players=2, seed=1)
    a = rec.root.play("place 0")
    assert rec.root.play("  PLACE   0 ", by={"bot": "x"}, comment="other") is a
    assert rec.root.play(rec.root.state.parse_action("place 0")) is a
    assert len(rec.root.children) == 1 and a.by == "human" and a.comment is None


def test_illegal_action_propagates_and_leaves_the_tree_unchanged() -> None:
    rec = GameRecord.new(players=2, seed=1)
    rec.root.play("place 0")
    before = rec.to_json()
    with pytest.raises(sl.IllegalAction) as err:
        rec.root.play("buy")
    assert err.value.rule == "phase"
    with pytest.raises(sl.IllegalAction) as err:
        rec.root.play("place 9")
    assert err.value.rule == "demand_space"
    with pytest.raises(sl.IllegalAction):
        rec.root.play("fly away")
    assert rec.to_json() == before and len(rec) == 2


def test_variations_are_ordered_like_python_chess_and_promotion() -> None:
    rec = GameRecord.new(players=2, seed=1)
    a = rec.root.play("place 0")
    b = rec.root.play("place 1")
    c = rec.root.play("place 2")
    assert rec.root.children == [a, b, c] and rec.root.next() is a
    a1 = a.play("place 0")
    b1 = b.play("place 0")
    b2 = b1.play("place 1")
    b1x = b.play("place 2")
    assert [n.is_mainline() for n in (a, a1, b, b1, b2, c)] == [True, True, False, False, False, False]
    assert rec.mainline() == [rec.root, a, a1] and rec.end() is a1
    assert rec.branch_points() == [rec.root, b]
    assert rec.nodes() == [rec.root, a, a1, b, b1, b2, b1x, c]
    assert rec.path_to(b2) == [rec.root, b, b1, b2]

    rec.promote_to_main(b2)
    assert rec.root.children == [b, a, c]
    assert b2.is_mainline() and not a.is_mainline()
    assert rec.mainline() == [rec.root, b, b1, b2]
    rec.promote_to_main(b1x)
    assert b.children == [b1x, b1] and rec.end() is b1x


def test_remove_deletes_the_subtree() -> None:
    rec = GameRecord.new(players=2, seed=1)
    a = rec.root.play("place 0")
    b = rec.root.play("place 1")
    b1 = b.play("place 0")
    rec.remove(b)
    assert rec.root.children == [a] and rec.nodes() == [rec.root, a]
    with pytest.raises(ValueError, match="not a node"):
        rec.path_to(b1)
    with pytest.raises(ValueError, match="removed"):
        b1.play("place 1")
    with pytest.raises(ValueError, match="root"):
        rec.remove(rec.root)
    rec.remove(a)
    assert rec.end() is rec.root and rec.mainline() == [rec.root]
    assert rec.root.play("place 1") is not b  # a new node: the old one is gone


def test_path_to_refuses_a_node_of_another_record() -> None:
    one, two = GameRecord.new(players=2, seed=1), GameRecord.new(players=2, seed=1)
    node = one.root.play("place 0")
    with pytest.raises(ValueError, match="not a node"):
        two.path_to(node)


# ---- states --------------------------------------------------------------------------------------


def test_every_node_state_equals_a_fresh_replay(full_game: GameRecord) -> None:
    assert full_game.end().state.is_over
    assert len(full_game.branch_points()) >= 3
    for node in full_game.nodes():
        assert node.state == replay(full_game, node), node


@pytest.mark.parametrize("cache_every", [3, 16])
def test_sparse_caching_rebuilds_the_same_states(full_game: GameRecord, cache_every: int) -> None:
    sparse = GameRecord.from_json(full_game.to_json(), cache_every=cache_every)
    sparse._lru.clear()
    for mine, theirs in zip(reversed(sparse.nodes()), reversed(full_game.nodes()), strict=True):
        assert mine.state == theirs.state
    stored = sum(1 for n in sparse.nodes() if n._state is not None)
    assert stored == sum(1 for n in sparse.nodes() if n.ply % cache_every == 0)


def test_every_node_has_its_state(full_game: GameRecord) -> None:
    """Each node's state is the parent's state with the node's action applied (speed: benchmarks/analysis.py)."""
    for node in full_game.nodes():
        if node.parent is not None:
            assert node.state == node.parent.state.apply(node.action)


# ---- JSON ----------------------------------------------------------------------------------------


def tree_facts(record: GameRecord) -> list[tuple[Any, ...]]:
    return [(n.ply, n.action, n.by, n.actor, n.comment, n.annotations, len(n.children),
             n.is_mainline()) for n in record.nodes()]


def test_round_trip_is_exact(full_game: GameRecord, tmp_path: Any) -> None:
    text = full_game.to_json()
    back = GameRecord.from_json(text)
    assert back == full_game
    assert back.to_json() == text
    assert tree_facts(back) == tree_facts(full_game)
    assert back.headers == {"event": "test"} and back.seed == 3
    path = tmp_path / "game.json"
    full_game.save(path)
    loaded = GameRecord.load(path)
    assert loaded == full_game and tree_facts(loaded) == tree_facts(full_game)
    assert loaded.end().state == full_game.end().state
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == RECORD_FORMAT == "speicherstadt-lab/2"
    assert list(data) == ["format", "game", "setup", "hidden", "headers", "root", "moves"]
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 10 + len(full_game.mainline()) - 1  # braces, 6 fields, one line per main-line move
    assert json.loads(lines[9].rstrip(",")) == data["moves"][1]


def test_file_layout_lists_siblings_as_variations() -> None:
    rec = GameRecord.new(players=2, seed=1)
    a = rec.root.play("place 0")
    rec.root.play("place 1", by={"bot": "random", "seed": 4}).play("place 0", comment="c")
    a.play("place 2").annotations["x"] = [1, 2]
    moves = rec.to_dict()["moves"]
    assert moves == [
        {"action": "place 0", "by": "human",
         "variations": [[{"action": "place 1", "by": {"bot": "random", "seed": 4}},
                         {"action": "place 0", "by": "human", "comment": "c"}]]},
        {"action": "place 2", "by": "human", "annotations": {"x": [1, 2]}},
    ]


def test_non_json_annotations_are_refused_on_save() -> None:
    rec = GameRecord.new(players=2, seed=1)
    rec.root.play("place 0").annotations["bad"] = {1, 2}
    with pytest.raises(ValueError, match="plain JSON"):
        rec.to_json()


def _mutated(record: GameRecord, change: Any) -> str:
    data = record.to_dict()
    change(data)
    return json.dumps(data)


def _setitem(path: list[Any], value: Any) -> Any:
    def change(d: Any) -> None:
        for key in path[:-1]:
            d = d[key]
        d[path[-1]] = value
    return change


def _delitem(path: list[Any]) -> Any:
    def change(d: Any) -> None:
        for key in path[:-1]:
            d = d[key]
        del d[path[-1]]
    return change


def _swap_deck(d: Any) -> None:
    deck = d["setup"]["deck"]
    deck[0] = deck[1]  # one card twice, another missing


MALFORMED = [
    ("format", _setitem(["format"], "chess/pgn"), "'format'"),
    ("version", _setitem(["format"], "speicherstadt-lab/3"), "version 3"),
    ("game", _setitem(["game"], "go"), "'game': unknown game 'go'"),
    ("missing setup", _delitem(["setup"]), "'setup' is missing"),
    ("missing moves", _delitem(["moves"]), "'moves' is missing"),
    ("missing deck", _delitem(["setup", "deck"]), "'setup.deck' is missing"),
    ("players type", _setitem(["setup", "players"], "2"), "'setup.players' has the wrong type"),
    ("players value", _setitem(["setup", "players"], 7), "'setup.players'"),
    ("moves type", _setitem(["moves"], "place 0"), "'moves' has the wrong type"),
    ("comment type", _setitem(["moves", 3, "comment"], 5), "'moves[3].comment'"),
    ("by type", _setitem(["moves", 2, "by"], 7), "'moves[2].by'"),
    ("annotations type", _setitem(["moves", 2, "annotations"], [1]), "'moves[2].annotations'"),
    ("action type", _setitem(["moves", 1, "action"], None), "'moves[1].action'"),
    ("unknown move field", _setitem(["moves", 1, "coment"], "typo"), "'moves[1]': unknown field"),
    ("unknown top field", _setitem(["extra"], 1), "unknown field"),
    ("illegal action", _setitem(["moves", 3, "action"], "buy"),
     "'moves[3].action': 'buy' is illegal at ply 4 (rule phase)"),
    ("illegal in a variation", _setitem(["moves", 10, "variations", 0, 4, "action"], "place 9"),
     "'moves[10].variations[0][4].action'"),
    ("not notation", _setitem(["moves", 0, "action"], "jump"), "(rule notation)"),
    ("deck multiset", _swap_deck, "'setup.deck': not the legal set of cards"),
    ("bag multiset", lambda d: d["setup"]["bag"].pop(), "'setup.bag': must hold exactly"),
    ("bag unknown good", _setitem(["setup", "bag", 0], "gold"), "'setup.bag': unknown good"),
    ("catalog", _setitem(["setup", "catalog"], {"goods": []}), "'setup.catalog': catalog goods"),
    ("catalog type", _setitem(["setup", "catalog"], "default"), "'setup.catalog' has the wrong type"),
    ("hidden type", _setitem(["hidden"], [1]), "'hidden' has the wrong type"),
    ("headers type", _setitem(["headers"], {"a": 1}), "'headers'"),
    ("empty variation", _setitem(["moves", 10, "variations", 0], []), "cannot be empty"),
    ("duplicate variation", lambda d: d["moves"][10]["variations"].append([{"action": d["moves"][10]["action"]}]),
     "appears twice"),
    ("root", _setitem(["root"], {"comment": None, "annotations": {}, "x": 1}), "'root'"),
    ("empty object", lambda d: d.clear(), "'format' is missing"),
]


@pytest.mark.parametrize(("case", "change", "message"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_records_are_rejected_naming_the_field(full_game: GameRecord, case: str, change: Any,
                                                         message: str) -> None:
    text = _mutated(full_game, change)
    with pytest.raises(sl.RecordError) as err:
        GameRecord.from_json(text)
    assert message in str(err.value), str(err.value)


@pytest.mark.parametrize(("text", "message"), [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "top level must be an object"),
    ('{"format": NaN}', "not valid JSON"),
    ("[" * 100_000, "not valid JSON"),
])
def test_bad_json_is_rejected(text: str, message: str) -> None:
    with pytest.raises(sl.RecordError, match=message):
        GameRecord.from_json(text)


def test_record_error_is_a_value_error() -> None:
    assert issubclass(sl.RecordError, ValueError)


# ---- a seat's export -----------------------------------------------------------------------------


def test_seat_export_leaves_out_the_hidden_order() -> None:
    rec = GameRecord.new(players=3, seed=11)
    play_random(rec.root, 5, plies=40)  # a game in progress
    deck, bag = rec.setup["deck"], rec.setup["bag"]
    data = json.loads(rec.to_json(as_seat=2))
    assert data["setup"]["deck"] is None and data["setup"]["bag"] is None and data["setup"]["seed"] is None
    drawn = len(deck) - min(n.state.pile_size for n in rec.nodes())
    drawn_bag = len(bag) - min(n.state.bag_size for n in rec.nodes())
    assert 0 < drawn < len(deck) and drawn_bag < len(bag)
    assert data["hidden"] == {"seat": 2, "deck": deck[:drawn], "bag": bag[:drawn_bag]}

    def lists(x: Any) -> list[list[Any]]:
        if isinstance(x, dict):
            return [v for y in x.values() for v in lists(y)]
        if isinstance(x, list):
            return [x, *(v for y in x for v in lists(y))]
        return []

    assert all(len(v) <= drawn for v in lists(data) if v and set(map(str, v)) <= set(deck))
    assert deck[drawn] not in json.dumps(data)  # the next card was never seen: not in the file at all
    with pytest.raises(ValueError, match="as_seat"):
        rec.to_json(as_seat=3)


@pytest.mark.parametrize("finished", [False, True])
def test_seat_export_loads_as_an_observation_with_the_same_public_facts(full_game: GameRecord,
                                                                        finished: bool) -> None:
    rec = full_game
    if not finished:
        rec = GameRecord.new(players=4, seed=2)
        play_random(rec.root, 6, plies=60)
        branch(rec.mainline()[30], 7, plies=10)
    text = rec.to_json(as_seat=1)
    seen = GameRecord.from_json(text)
    assert seen.is_observation and seen.hidden["seat"] == 1
    assert seen.setup["deck"] is None and seen.seed is None
    assert tree_facts(seen) == tree_facts(rec)
    for mine, theirs in zip(seen.nodes(), rec.nodes(), strict=True):
        assert mine.state.is_observation and not theirs.state.is_observation
        assert mine.state.events == theirs.state.events
        a, b = mine.state.view(1), theirs.state.view(1)
        a.pop("observer")
        b.pop("observer")
        assert a == b
    assert seen.to_json() == text and seen.to_json(as_seat=1) == text
    assert json.loads(seen.to_json(as_seat=0))["hidden"]["seat"] == 0
    # play may go on from the observation record, and it still saves and reloads the same
    if not finished:
        play_random(seen.end(), 9, plies=40)
        assert GameRecord.from_json(seen.to_json()) == seen


def test_seat_export_with_a_tampered_seen_part_is_rejected() -> None:
    rec = GameRecord.new(players=2, seed=1)
    play_random(rec.root, 1, plies=10)
    data = json.loads(rec.to_json(as_seat=0))
    data["hidden"]["deck"] = data["hidden"]["deck"] * 2
    with pytest.raises(sl.RecordError, match=r"'hidden\.deck'"):
        GameRecord.from_json(json.dumps(data))
    data = json.loads(rec.to_json(as_seat=0))
    data["hidden"]["seat"] = 5
    with pytest.raises(sl.RecordError, match=r"'hidden\.seat'"):
        GameRecord.from_json(json.dumps(data))
    data = json.loads(rec.to_json(as_seat=0))
    data["setup"]["deck"] = rec.setup["deck"]
    with pytest.raises(sl.RecordError, match=r"'setup\.deck': must be null"):
        GameRecord.from_json(json.dumps(data))


# ---- tables --------------------------------------------------------------------------------------

# the game's per-seat figures (its seat_row) come before the projected score
TRAJ_COLUMNS = ["ply", "round", "phase", "kind", "action", "actor", "seat", "name", "coins", "track", "cards", "goods",
                "projected"]


def test_trajectory_shape_and_values(full_game: GameRecord) -> None:
    df = full_game.trajectory()
    end = full_game.end()
    final = end.state
    steps = df[df["kind"] == "step"]
    ends = df[df["kind"] == "round_end"]
    assert list(df.columns) == TRAJ_COLUMNS
    assert len(steps) == 2 * (end.ply + 1)
    assert len(ends) == 2 * final.round and sorted(set(ends["round"])) == list(range(1, final.round + 1))
    root = steps[steps["ply"] == 0]
    assert list(root["coins"]) == [CAT.setup["coins"]] * 2
    assert list(root["name"]) == [sl.new_game(players=2).seat_name(s) for s in (0, 1)]
    assert root["action"].isna().all() and root["actor"].isna().all()
    last = steps[steps["ply"] == end.ply].set_index("seat")
    for seat in (0, 1):
        p = final.player(seat)
        assert last.loc[seat, "projected"] == final.score(seat)
        assert last.loc[seat, "coins"] == p.coins and last.loc[seat, "track"] == p.track
        assert last.loc[seat, "cards"] == len(p.cards)
        assert last.loc[seat, "goods"] == len(p.warehouse) + len(p.hall) + sum(len(g) for _, g in p.contracts)
    # the round-1 end rows show the position after the income of round 1
    r1 = ends[ends["round"] == 1]
    node = full_game.mainline()[int(r1["ply"].iloc[0])]
    assert node.state.round == 2 and node.parent.state.round == 1
    assert any(e.key == "income" for e in node.state.events)
    assert list(r1["coins"]) == list(node.state.coins)
    # actors follow the seats that chose
    assert list(steps[steps["seat"] == 0]["actor"].iloc[1:]) == [n.actor for n in full_game.mainline()[1:]]


def test_trajectory_of_a_variation_and_speed() -> None:
    rec = GameRecord.new(players=4, seed=5)
    play_random(rec.root, 3)
    side = branch(rec.mainline()[50], 4, plies=7)
    df = rec.trajectory(side)
    assert df["ply"].max() == 57 and list(df[df["ply"] == 57]["action"].unique()) == [side.action]
    full = rec.trajectory()
    assert len(full[full["kind"] == "step"]) == 4 * len(rec.mainline())


def test_events_table(full_game: GameRecord) -> None:
    df = full_game.events()
    path = full_game.mainline()
    assert list(df.columns) == ["ply", "round", "phase", "action", "actor", "key", "text", "args"]
    assert len(df) == sum(len(n.state.events) for n in path)
    assert df.iloc[0]["key"] == "round" and df.iloc[0]["round"] == 1 and df.iloc[0]["ply"] == 0
    assert df.iloc[-1]["key"] == "game_over" and df.iloc[-1]["round"] == path[-1].state.round
    assert df["round"].is_monotonic_increasing
    row = df[df["ply"] == 1].iloc[0]
    assert row["action"] == path[1].action and row["actor"] == 0 and row["key"] == "place"
    assert row["text"] == path[1].state.describe(path[1].state.events[0], "en")
    de = full_game.events(lang="de")
    assert de.iloc[1]["text"] == path[0].state.describe(path[0].state.events[1], "de")
    assert (de["text"] != df["text"]).any()
    income = df[df["key"] == "income"]
    assert set(income["round"]) == set(range(1, path[-1].state.round + 1))


# ---- bots ----------------------------------------------------------------------------------------


def test_record_game_with_bots() -> None:
    start = sl.new_game(players=3, seed=4)
    bots = [StreamBot(s) for s in (1, 2, 3)]
    rec = record_game(start, bots, headers={"white": "bots"})
    assert rec.end().state.is_over and rec.initial is start and rec.headers == {"white": "bots"}
    assert all(n.by == {"bot": "stream", "seed": n.actor + 1} for n in rec.nodes()[1:])
    assert GameRecord.from_json(rec.to_json()) == rec
    # play_out from a node in the middle makes a variation when it differs
    mid = rec.mainline()[20]
    last = mid.play_out([StreamBot(s) for s in (7, 8, 9)])
    assert last.state.is_over and rec.path_to(last)[20] is mid
    with pytest.raises(ValueError, match="one bot per seat"):
        record_game(start, bots[:2])


def test_record_game_with_random_bots_ends() -> None:
    """RandomBot's choice is a function of the position: before loading turns were made finite
    (commit 9882314) these bots cycled forever from 2p seed 0, round 9 (store carpet / take carpet)."""

    from speicherstadt_lab.bots import RandomBot

    rec = record_game(sl.new_game(players=2, seed=0), [RandomBot(0), RandomBot(1)], max_steps=3000)
    assert rec.end().state.is_over


def test_play_out_gives_up_after_max_steps() -> None:
    rec = GameRecord.new(players=2, seed=1)
    with pytest.raises(RuntimeError, match="did not end within 5"):
        rec.root.play_out([StreamBot(1), StreamBot(2)], max_steps=5)
    assert rec.end().ply == 5


def test_repr_summarizes_the_record(full_game: GameRecord) -> None:
    plies = len(full_game.mainline()) - 1
    assert repr(full_game) == (f"<GameRecord speicherstadt 2p: {plies} plies in the main line, "
                               f"{len(full_game.branch_points())} branch points>")
