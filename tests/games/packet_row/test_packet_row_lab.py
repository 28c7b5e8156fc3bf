"""Packet Row in the rest of the lab: saved states, game records, bots, batch simulation, the notebook view."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.bots import RandomBot, play_game
from speicherstadt_lab.records import GameRecord, record_game
from tests.support.games import random_moves


def test_speicherstadt_stays_the_default_and_packet_row_is_registered() -> None:
    assert sl.new_game(players=3, seed=1).game == "speicherstadt"
    s = sl.new_game("packet_row", players=3, seed=1)
    assert s.game == "packet_row" and isinstance(s, sl.GameState)
    with pytest.raises(ValueError, match="2 to 5"):
        sl.new_game("packet_row", players=6)


def test_state_json_round_trip_and_tampering() -> None:
    s = random_moves(sl.new_game("packet_row", players=4, seed=6), sl.Rng(6, "lab"), 40)
    again = sl.load_state(s.to_json())
    assert again == s and again.to_json() == s.to_json()
    assert [str(a) for a in again.legal_actions()] == [str(a) for a in s.legal_actions()]
    d = json.loads(s.to_json())
    d["seats"][0]["money"] += 5
    with pytest.raises(sl.RecordError, match="money is not conserved"):
        sl.load_state(json.dumps(d))
    d = json.loads(s.to_json())
    d["boards"]["bank"]["deck"].append("banker")
    with pytest.raises(sl.RecordError, match="missing or in two places"):
        sl.load_state(json.dumps(d))
    d = json.loads(s.to_json())
    d["phase"] = "auction"
    with pytest.raises(sl.RecordError, match="'phase'"):
        sl.load_state(json.dumps(d))
    d = json.loads(s.to_json())
    d["boards"]["guild"]["current"][0] = "no_such_card"
    with pytest.raises(sl.RecordError, match=r"boards\.guild\.current"):
        sl.load_state(json.dumps(d))


def test_any_damaged_field_is_a_record_error() -> None:
    rng = sl.Rng(3, "damage")  # the moves, then the damage
    s = random_moves(sl.new_game("packet_row", players=3, seed=3), rng, 60)
    base = json.loads(s.to_json())

    def paths(obj, path=()):
        yield path
        items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list) else ()
        for k, v in items:
            yield from paths(v, (*path, k))

    where = [p for p in paths(base) if p and p[0] not in ("events", "game")]
    values = [None, -1, 7, True, "x", "guild", "banker", [], [None], ["banker"], {}, 1.5]
    for k in range(400):
        d = json.loads(json.dumps(base))
        path = where[rng.below(len(where))]
        target = d
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = values[k % len(values)]
        with contextlib.suppress(sl.RecordError):  # anything else escaping fails the test
            sl.load_state(json.dumps(d))


def test_random_bots_play_whole_games_with_play_game() -> None:
    for players in (2, 3, 4, 5):
        final, actions = play_game(sl.new_game("packet_row", players=players, seed=players),
                                   [RandomBot(seed=i) for i in range(players)])
        assert final.is_over and len(actions) > 30 and final.winners()


def test_records_save_load_and_export_as_seat(tmp_path: Path) -> None:
    rec = GameRecord.new(players=3, seed=4, game="packet_row")
    assert rec.game == "packet_row" and rec.setup["players"] == 3
    node = rec.root
    for _ in range(45):
        st = node.state
        node = node.play(RandomBot(seed=st.round).choose(st.observe(st.to_move)), by={"bot": "random"})
    rec.save(tmp_path / "game.json")
    again = GameRecord.load(tmp_path / "game.json")
    assert again == rec and again.end().state == rec.end().state
    # Seat 0's export: the decks below what was drawn and the others' starting contracts are left out.
    text = rec.to_json(as_seat=0)
    starts = {i: next(c for c in rec.initial.player(i).hand if c.startswith("start_")) for i in range(3)}
    hidden = json.loads(text)["hidden"]
    assert hidden["start_contracts"][0] == starts[0] and hidden["start_contracts"][1:3] == [None, None]
    assert json.loads(text)["setup"]["decks"] is None
    export = GameRecord.from_json(text)
    assert export.is_observation and len(export.mainline()) == len(rec.mainline())
    assert [n.action for n in export.mainline()] == [n.action for n in rec.mainline()]
    assert export.end().state.view(0) == rec.end().state.view(0)
    traj = rec.trajectory()
    assert set(traj["seat"]) == {0, 1, 2} and (traj["money"] >= 0).all() and "coins" not in traj
    events = rec.events(lang="de")
    assert "Hafenmeister" in " ".join(events["text"])


def test_record_game_to_the_end_and_a_finished_export() -> None:
    rec = record_game(sl.new_game("packet_row", players=2, seed=12), [RandomBot(seed=1), RandomBot(seed=2)])
    assert rec.end().state.is_over
    export = GameRecord.from_json(rec.to_json(as_seat=1))
    assert export.end().state.scores() == rec.end().state.scores()


def test_mcts_runs_on_packet_row() -> None:
    from speicherstadt_lab.bots.mcts import MCTSBot

    s = sl.new_game("packet_row", players=3, seed=2)
    bot = MCTSBot(seed=1, iterations=12)
    for _ in range(3):
        obs = s.observe(s.to_move)
        a = bot.choose(obs)
        assert a in s.legal_actions()
        s = s.apply(a)


def test_simulate_runs_packet_row_games() -> None:
    from speicherstadt_lab.simulation import simulate

    df = simulate(games=2, players=3, bots=["random"] * 3, seed=5, game="packet_row", progress=False)
    assert len(df) == 6 and set(df["seat"]) == {0, 1, 2}
    assert {"pts_buildings", "pts_money", "pts_bankers"} <= set(df.columns)


def test_html_view_shows_an_observation_without_secrets() -> None:
    s = sl.new_game("packet_row", players=3, seed=3)
    html = s._repr_html_()
    assert "Packet Row" in html and "Guild Hall" in html
    secret = next(c for c in s.player(1).hand if c.startswith("start_"))
    obs_html = s.observe(0)._repr_html_()
    assert "1 secret" in obs_html and s.card_name(secret) not in obs_html.replace(s.card_name(
        next(c for c in s.player(0).hand if c.startswith("start_"))), "")


def test_packet_row_charts_and_tables_use_its_own_figures() -> None:
    """Money and building points under their own names (declared metrics), not as 'coins' and 'track'."""
    from speicherstadt_lab.engine.protocol import get_game
    from speicherstadt_lab.simulation import simulate
    from speicherstadt_lab.ui import charts

    info = get_game("packet_row")
    assert [m.key for m in info.metrics][:2] == ["money", "buildings"]
    rec = record_game(sl.new_game("packet_row", players=2, seed=12), [RandomBot(seed=1), RandomBot(seed=2)])
    traj = rec.trajectory()
    assert {"money", "buildings"} <= set(traj.columns) and not {"coins", "track"} & set(traj.columns)
    spec = charts.progress_spec(traj, names=["Red", "Blue"], lang="de", metric=info.metrics[0])
    assert any("Geld" in a["text"] for a in spec["layout"]["annotations"])
    money = [tr for tr in spec["data"] if tr["meta"]["series"] == "money" and tr["meta"]["seat"] == 1]
    assert money and money[0]["y"][-1] == rec.end().state.money[1]
    df = simulate(2, 2, ["random", "random"], seed=3, executor="serial", progress=False, game="packet_row")
    assert {"money", "cards_taken"} <= set(df.columns) and "coins" not in df.columns
