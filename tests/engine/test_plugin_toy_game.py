"""A third game by one registration: records, bots, simulation and the conformance harness run on a toy game
that no module of the lab knows (tests/support/toy_game.py), registered with ``register_game`` alone."""

from __future__ import annotations

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.bots import make_bot
from speicherstadt_lab.engine.conformance import check_game, run_conformance
from speicherstadt_lab.engine.protocol import get_game
from speicherstadt_lab.records import GameRecord
from speicherstadt_lab.simulation import simulate

pytestmark = pytest.mark.usefixtures("toy_game")  # registered once, by the fixture (tests/conftest.py)


def test_the_game_is_known_by_its_registration() -> None:
    info = get_game("toy_race")
    assert info.title == "Toy Race" and info.phases == ("play", "over")
    state = sl.new_game("toy_race", players=3, seed=4)
    assert state.to_move == 0 and [str(a) for a in state.legal_actions()] == ["take 1", "draw"]
    with pytest.raises(ValueError, match="players: Toy Race is for 2 to 4 players"):
        sl.new_game("toy_race", players=5)
    with pytest.raises(ValueError, match="heuristic"):
        make_bot("greedy").choose(state)  # it declares no greedy heuristic: a clear error, no guess


def test_the_conformance_harness_checks_it() -> None:
    report = run_conformance("toy_race", seeds=range(3))
    assert report.games == 9 and report.determinize_changed > 0
    assert check_game("toy_race", 2, 5, full=True).candidates_refused > 0


def test_records_with_variations_and_a_seat_export() -> None:
    rec = GameRecord.new(players=2, seed=3, game="toy_race")
    node = rec.root
    bot = make_bot("random", seed=1)
    while not node.state.is_over:
        node = node.play(bot.choose(node.state.observe(node.state.to_move)))
    side = rec.mainline()[2].play("take 1" if rec.mainline()[3].action == "draw" else "draw", by="human")
    again = GameRecord.from_json(rec.to_json())
    assert again.to_json() == rec.to_json() and again.end().state == rec.end().state
    assert len(again.branch_points()) == 1 and side.action in [c.action for c in again.mainline()[2].children]
    seat_view = GameRecord.from_json(rec.to_json(as_seat=1))
    assert [n.action for n in seat_view.mainline()] == [n.action for n in rec.mainline()]
    df = rec.trajectory()
    assert {"seat", "points", "projected"} <= set(df.columns)


def test_bots_play_it_and_simulate_tables_it() -> None:
    state = sl.new_game("toy_race", players=2, seed=8)
    mcts = make_bot("mcts:iterations=30", seed=2)
    assert mcts.choose(state.observe(0)) in state.legal_actions()
    df = simulate(6, 2, ["mcts:iterations=20", "random"], seed=1, executor="serial", progress=False,
                  game="toy_race", rotate=True)
    assert len(df) == 12 and df.groupby("game")["win_share"].sum().eq(1.0).all()
    assert {"score", "pts_points", "rank", "decisions"} <= set(df.columns) and "coins" not in df.columns


@pytest.mark.parametrize(("game", "options"), [("speicherstadt", {}), ("speicherstadt", {"expansion": "kaispeicher"}),
                                               ("packet_row", {}), ("toy_race", {})])
def test_every_game_implements_the_declared_protocol(game: str, options: dict) -> None:
    from speicherstadt_lab.engine.protocol import GameState

    state = sl.new_game(game, players=3, seed=1, **options)
    assert isinstance(state, GameState)
    assert state.phase in get_game(game).phases and state.seat_name(0, "de")
