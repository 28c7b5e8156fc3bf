"""Batch simulation: the table's shape and arithmetic, determinism across executors, rotation, validation."""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

import speicherstadt_lab as sl
from speicherstadt_lab.bots import bot_names, make_bot, play_game
from speicherstadt_lab.engine.rng import derive_seed
from speicherstadt_lab.simulation import (
    game_task,
    lineup_for,
    parse_lineup,
    simulate,
    summarize_bots,
    summarize_seats,
    wilson_interval,
)

HEAD = ["game", "game_seed", "lineup", "seat", "bot", "score"]
TAIL = ["coins", "cards_bought", "rank", "win_share", "rounds", "decisions"]  # the game's metrics first
OTHER = next((b for b in ("greedy", "mcts") if b in bot_names()), None)


def serial(games: int, players: int, bots: list[str], seed: int, **kw) -> pd.DataFrame:
    return simulate(games, players, bots, seed, executor="serial", progress=False, **kw)


@pytest.fixture(scope="module")
def three() -> pd.DataFrame:
    """Six 3-player games of random bots, played in this process."""
    return serial(6, 3, ["random"] * 3, seed=11)


def test_columns_and_shape(three: pd.DataFrame) -> None:
    breakdown = list(sl.new_game(players=3, seed=0).score_breakdown(0))
    assert list(three.columns) == HEAD + [f"pts_{k}" for k in breakdown] + TAIL
    assert three.shape == (18, len(HEAD) + len(breakdown) + len(TAIL))
    assert list(three["game"]) == [g for g in range(6) for _ in range(3)]
    assert list(three["seat"]) == [0, 1, 2] * 6
    assert (three["game_seed"] == [derive_seed(11, "game", g) for g in range(6) for _ in range(3)]).all()
    assert (three["lineup"] == "random | random | random").all() and (three["bot"] == "random").all()
    pts = three[[f"pts_{k}" for k in breakdown]]
    assert (pts.sum(axis=1) == three["score"]).all()


def test_ranks_and_win_shares_sum_correctly(three: pd.DataFrame) -> None:
    for _, g in three.groupby("game"):
        assert g["win_share"].sum() == pytest.approx(1.0)
        assert g["rank"].min() == 1
        winners = g[g["rank"] == 1]
        assert (winners["win_share"] == 1 / len(winners)).all()
        assert (g.loc[g["rank"] > 1, "win_share"] == 0).all()
        # a seat's rank is one more than the number of seats with a strictly better (score, coins)
        keys = list(zip(g["score"], g["coins"], strict=True))
        assert list(g["rank"]) == [1 + sum(o > k for o in keys) for k in keys]
        assert g["rounds"].nunique() == 1


def test_each_row_matches_an_independent_replay(three: pd.DataFrame) -> None:
    """Game 4 replayed with play_game from the documented seeds gives the same numbers."""
    g = three[three["game"] == 4].reset_index(drop=True)
    state = sl.new_game(players=3, seed=derive_seed(11, "game", 4))
    bots = [make_bot("random", seed=derive_seed(11, "game", 4, "bot", s)) for s in range(3)]
    final, actions = play_game(state, bots)
    assert list(g["score"]) == [final.score(s) for s in range(3)]
    assert list(g["coins"]) == list(final.coins)
    assert list(g["rank"]) == list(final.ranks())
    assert list(g["cards_bought"]) == [len(final.player(s).cards) for s in range(3)]
    assert g["decisions"].sum() == len(actions)
    assert g["rounds"].iloc[0] == final.round


def test_same_seed_same_table_whatever_the_chunking(three: pd.DataFrame) -> None:
    assert_frame_equal(serial(6, 3, ["random"] * 3, seed=11, chunksize=4), three)
    other = serial(6, 3, ["random"] * 3, seed=12)
    assert not other["game_seed"].equals(three["game_seed"])


def test_process_pool_equals_serial(three: pd.DataFrame) -> None:
    with ProcessPoolExecutor(max_workers=2) as pool:
        assert_frame_equal(simulate(6, 3, ["random"] * 3, 11, executor=pool, progress=False, chunksize=2), three)
    assert_frame_equal(simulate(6, 3, ["random"] * 3, 11, executor=2, progress=False), three)


def test_default_executor_is_a_process_pool_with_the_same_result(three: pd.DataFrame) -> None:
    assert_frame_equal(simulate(6, 3, ["random"] * 3, 11, progress=False), three)


def test_dask_distributed_equals_serial(three: pd.DataFrame) -> None:
    from distributed import Client, LocalCluster

    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        df = simulate(6, 3, ["random"] * 3, 11, executor=client.get_executor(), progress=False, chunksize=2)
    assert_frame_equal(df, three)


def test_results_do_not_depend_on_the_interpreter_hash_seed(tmp_path) -> None:
    """Worker processes (dask, spawn) get their own PYTHONHASHSEED; results must not change with it."""
    code = (
        "import sys; from speicherstadt_lab.simulation import simulate; "
        "simulate(2, 2, ['random', 'random'], 5, executor='serial', progress=False).to_csv(sys.argv[1], index=False)"
    )
    out = []
    for hash_seed in ("1", "2"):
        path = tmp_path / f"h{hash_seed}.csv"
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        proc = subprocess.run([sys.executable, "-c", code, str(path)], env=env, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr[-800:]
        out.append(path.read_text())
    assert out[0] == out[1]


def test_random_bots_finish_every_game() -> None:
    """Regression: keep/take could undo each other, so a bot answering a position the same way looped forever."""
    df = serial(12, 4, ["random"] * 4, seed=3, max_decisions=2000)
    assert df["game"].nunique() == 12
    assert (df.groupby("game")["decisions"].sum() < 1000).all()


def test_a_stuck_game_is_reported_with_its_seed() -> None:
    with pytest.raises(RuntimeError, match=r"game 0 \(seed \d+, lineup random \| random\) did not end within 5"):
        serial(1, 2, ["random", "random"], seed=3, max_decisions=5)


def test_lineup_rotation_is_balanced() -> None:
    bots = ["a", "b", "c"]
    assert [lineup_for(bots, i, rotate=False) for i in range(3)] == [("a", "b", "c")] * 3
    seen = [lineup_for(bots, i, rotate=True) for i in range(6)]
    assert seen[0] == ("a", "b", "c") and seen[1] == ("c", "a", "b")
    for seat in range(3):
        assert sorted(lineup[seat] for lineup in seen) == ["a", "a", "b", "b", "c", "c"]
    assert game_task(1, 4, bots, True)[2] == seen[4]


@pytest.mark.skipif(OTHER is None, reason="only the random bot is registered")
def test_rotation_in_simulate_seats_each_bot_everywhere() -> None:
    assert OTHER is not None
    df = serial(4, 2, [OTHER, "random"], seed=2, rotate=True)
    counts = df.groupby(["bot", "seat"]).size()
    assert counts.to_dict() == {(OTHER, 0): 2, (OTHER, 1): 2, ("random", 0): 2, ("random", 1): 2}
    assert list(df.loc[df["game"] == 1, "bot"]) == ["random", OTHER]
    fixed = serial(2, 2, [OTHER, "random"], seed=2)
    assert (fixed.loc[fixed["seat"] == 0, "bot"] == OTHER).all()


def test_summaries(three: pd.DataFrame) -> None:
    bots = summarize_bots(three)
    assert list(bots.index) == ["random"]
    assert bots.loc["random", "games"] == 18 and bots.loc["random", "wins"] == pytest.approx(6)
    assert bots.loc["random", "mean_score"] == pytest.approx(three["score"].mean())
    seats = summarize_seats(three)
    assert list(seats["games"]) == [6, 6, 6] and seats["wins"].sum() == pytest.approx(6)
    lo, hi = wilson_interval(seats.loc[0, "wins"], 6)
    assert (seats.loc[0, "ci_low"], seats.loc[0, "ci_high"]) == (lo, hi)
    assert lo <= seats.loc[0, "win_rate"] <= hi


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson_interval(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    lo, hi = wilson_interval(10, 10)
    assert round(lo, 4) == 0.7225 and hi == pytest.approx(1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_parse_lineup() -> None:
    assert parse_lineup("mcts:iterations=200,c=1.4, greedy,random") == ["mcts:iterations=200,c=1.4", "greedy", "random"]
    assert parse_lineup("random") == ["random"]
    with pytest.raises(ValueError, match="empty spec"):
        parse_lineup("random,,random")
    with pytest.raises(ValueError, match="follows no 'name:' spec"):
        parse_lineup("iterations=3,random")


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"players": 1, "bots": ["random"]}, "players: Die Speicherstadt is for 2 to 5 players"),
        ({"players": 6, "bots": ["random"] * 6}, "players"),
        ({"bots": ["random"] * 2}, "bots: 2 bot specs for 3 players"),
        ({"bots": ["random", "random", "nobody"]}, "bots: unknown bot 'nobody'"),
        ({"bots": ["random", "random", "random:depth=2"]}, "bots: spec 'random:depth=2'"),
        ({"bots": [1, 2, 3]}, "bots: expected a list"),
        ({"games": 0}, "games: must be at least 1"),
        ({"games": 2.5}, "games: expected an integer"),
        ({"seed": 1.5}, "seed"),
        ({"executor": "threads"}, "executor"),
        ({"chunksize": 0}, "chunksize"),
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"expansion": "nope"}, "expansion"),
        ({"colour": "red"}, "game_kwargs"),
    ],
)
def test_bad_input_names_the_field(kwargs: dict, match: str) -> None:
    args = {"games": 2, "players": 3, "bots": ["random"] * 3, "seed": 0, "executor": "serial", "progress": False}
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        simulate(**args)


def test_progress_bar_can_be_silenced(capsys: pytest.CaptureFixture[str]) -> None:
    simulate(1, 2, ["random", "random"], 4, executor="serial", progress=True)
    assert "1/1" in capsys.readouterr().err
    simulate(1, 2, ["random", "random"], 4, executor="serial", progress=False)
    assert capsys.readouterr().err == ""
