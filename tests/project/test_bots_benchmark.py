"""benchmarks/bots.py's ISMCTS mode without playing ISMCTS: a bad ``--against`` or budget is refused by name, the
ISMCTS seat rotates over each deal, the table's win share and 95% interval are Wilson's over games, and
``--results`` keeps finished games so a re-run plays only what is missing (a stand-in play function, no search)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from speicherstadt_lab.bots.levels import level_spec
from tests.support.benchmarks import load_benchmark


@pytest.fixture(scope="module")
def bench() -> Any:
    return load_benchmark("bots")


def test_against_takes_any_bot_spec_and_refuses_others_by_name(bench, capsys) -> None:
    assert bench.check_against("level:6") == "level:6"
    assert bench.check_against("mcts", seconds=0.5) == "mcts"  # the old equal-seconds comparison
    with pytest.raises(ValueError, match="--against: 'nobot'"):
        bench.check_against("nobot")
    with pytest.raises(ValueError, match=r"--against: 'level:6' with --seconds 0\.5"):
        bench.check_against("level:6", seconds=0.5)  # a level has its own budget
    with pytest.raises(SystemExit):
        bench.main(["--ismcts", "--against", "level:9"])
    assert "--against: 'level:9'" in capsys.readouterr().err


def test_ismcts_jobs_rotate_the_seat_and_check_the_budget(bench) -> None:
    jobs = bench.ismcts_jobs("packet_row", 6, 7, "level:6", 50, None)
    assert {j["against_spec"] for j in jobs} == {level_spec(6, "packet_row")}  # the spec level 6 plays there
    assert bench.ismcts_jobs("kaispeicher", 3, 0, "mcts", 50, None)[0]["against_spec"] == "mcts"
    assert [(j["deal"], j["seat"]) for j in jobs] == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    assert {(j["game"], j["players"], j["seed"], j["simulations"], j["seconds"]) for j in jobs} == \
        {("packet_row", 3, 7, 50, None)}
    assert bench.ismcts_jobs("kaispeicher", 3, 0, "mcts", 50, 0.5)[0]["simulations"] is None  # the clock rules
    with pytest.raises(ValueError, match="--ismcts-simulations"):
        bench.ismcts_jobs("speicherstadt", 3, 0, "level:6", 1, None)
    with pytest.raises(ValueError, match="--game: 'chess'"):
        bench.ismcts_jobs("chess", 3, 0, "level:6", 50, None)


def _fake_play(job: dict[str, Any]) -> dict[str, Any]:
    """A stand-in game: ISMCTS wins the deals divisible by 10 in seat 0, 2 decisions of 0.1 s and 0.05 s a side."""
    win = 1.0 if job["deal"] % 10 == 0 and job["seat"] == 0 else 0.0
    return {**job, "win": win, "score": 10.0 * win, "rival_score": 5.0, "best_other": 6.0, "ismcts_seconds": 0.2,
            "ismcts_decisions": 2, "ismcts_simulations": 100, "rival_seconds": 0.2, "rival_decisions": 4}


def test_the_table_gives_wilsons_interval_over_games(bench) -> None:
    rows = [_fake_play(j) for j in bench.ismcts_jobs("speicherstadt", 90, 0, "level:6", 50, None)]
    table = bench.summarize_ismcts(rows)
    row = table.iloc[0]
    spec = level_spec(6, "speicherstadt")  # the table names the level and the spec it played
    assert (row["game"], row["rivals"], row["games"]) == ("speicherstadt", f"2x level:6 ({spec})", 90)
    assert row["ismcts_win"] == pytest.approx(3 / 90)  # deals 0, 10, 20 in seat 0
    assert (row["ci95_lo"], row["ci95_hi"]) == pytest.approx((0.0114, 0.0935), abs=5e-4)  # Wilson, z = 1.96
    assert row["fair_share"] == pytest.approx(1 / 3)
    assert (row["ismcts_ms"], row["rival_ms"], row["ismcts_sims"]) == pytest.approx((100.0, 50.0, 50.0))


def test_results_file_keeps_games_and_a_rerun_plays_only_the_missing(bench, tmp_path) -> None:
    path = tmp_path / "ismcts.jsonl"
    played: list[dict[str, Any]] = []

    def play(job: dict[str, Any]) -> dict[str, Any]:
        played.append(job)
        return _fake_play(job)

    first = bench.run_resumable(play, bench.ismcts_jobs("speicherstadt", 3, 0, "level:6", 50, None), 1, path)
    assert len(played) == 3 and len(path.read_text().splitlines()) == 3
    more = bench.ismcts_jobs("speicherstadt", 6, 0, "level:6", 50, None)
    again = bench.run_resumable(play, more, 1, path)
    assert len(played) == 6 and again[:3] == first  # only the three new games were played
    bench.run_resumable(play, bench.ismcts_jobs("speicherstadt", 3, 0, "level:6", 80, None), 1, path)
    assert len(played) == 9  # another budget is another run: the kept games are not reused
    old = [{**json.loads(line), "against_spec": "mcts:iterations=60"} for line in path.read_text().splitlines()[:3]]
    path.write_text("".join(json.dumps(r) + "\n" for r in old))  # games against an earlier definition of level 6
    bench.run_resumable(play, bench.ismcts_jobs("speicherstadt", 3, 0, "level:6", 50, None), 1, path)
    assert len(played) == 12  # are not counted as games against today's
    with path.open("a") as f:
        f.write(json.dumps({"deal": 0}) + "\n")
    with pytest.raises(ValueError, match="--results: line 7"):
        bench.run_resumable(play, more, 1, path)
