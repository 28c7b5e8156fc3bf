"""The accuracy benchmarks run end to end at a tiny size and compute what they claim (their numbers are in docs)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.support.benchmarks import load_benchmark
from tests.support.paths import REPO

ROOT = REPO


def _load(name: str):
    return load_benchmark(name)


@pytest.fixture(scope="module")
def calibration():
    return _load("calibration")


def _row(game: int, rnd: int, won: list[float], greedy: list[float], model: list[float]) -> dict:
    return {"game": game, "round": rnd, "won": won, "greedy rollouts (100)": (greedy, 0.0), "model": (model, 0.0),
            "hybrid": (model, 0.0)}


def test_floor_removes_the_rollouts_sampling_noise(calibration, capsys):
    """Greedy probabilities of 0/1 carry no sampling noise: the floor equals their Brier; at 1/2 each seat's
    p(1-p)/(n-1) = 0.25/99 comes off."""
    rows = [_row(0, 3, [1.0, 0.0], [1.0, 0.0], [0.5, 0.5]), _row(1, 3, [0.0, 1.0], [0.5, 0.5], [0.5, 0.5])]
    calibration.print_against_greedy(rows, (3,))
    out = capsys.readouterr().out
    greedy_brier = (0.0 + 0.5) / 2
    floor = greedy_brier - (0.0 + 2 * 0.25 / 99) / 2
    assert f"{floor:.3f}" in out.splitlines()[-1]
    # the model's paired difference: (0.5 - 0) on game 0, (0.5 - 0.5) on game 1 -> +0.250 on average
    assert "+0.250" in out


def test_calibration_benchmark_prints_its_tables(calibration, capsys, tmp_path):
    rows = tmp_path / "rows.json"
    assert calibration.main(["--games", "1", "--rounds", "9", "--processes", "1", "--hybrid", "2",
                             "--reference", "4", "--rows", str(rows)]) == 0
    out = capsys.readouterr().out
    for part in ("greedy rollouts (100)", "hybrid - greedy (100)", "n → ∞", "reliability of the hybrid",
                 "95% intervals: share of seats"):
        assert part in out
    assert len(json.loads(rows.read_text())[0]["truth"]) == 3


def test_coverage_allows_for_the_references_own_noise(calibration):
    """Intervals p ± 1.96σ around normal errors hold the real chance 95% of the time; checked against a noisy
    reference (n play-outs) a raw count says less, the count that allows for the reference's noise says 95%."""
    rng = np.random.default_rng(3)
    n, sigma, plays = 40000, 0.05, 100
    real = np.full(n, 0.4)
    p = real + rng.normal(0, sigma, n)
    truth = rng.binomial(plays, real) / plays
    lo, hi = p - 1.96 * sigma, p + 1.96 * sigma
    raw, aware = calibration.coverage(p, truth, lo, hi, plays)
    assert raw < 0.88 and aware == pytest.approx(0.95, abs=0.01)


def test_review_levels_benchmark_prints_its_tables(capsys):
    bench = _load("review_levels")
    assert bench.main(["--games", "1", "--every", "25", "--search", "2", "--truth", "2", "--processes", "1"]) == 0
    out = capsys.readouterr().out
    for part in ("real win-chance loss by the review's loss", "by the review's flag", "by who played", "real loss ≈"):
        assert part in out


def test_luck_benchmark_sets_luck_against_what_followed(capsys):
    """The slope of (won − before) on luck is computed from the rows; a run end to end prints both measures."""
    bench = _load("luck")
    import pandas as pd

    rows = pd.DataFrame({"game": [0, 0, 1, 1], "round": [1, 1, 1, 1], "seat": [0, 1, 0, 1],
                         "before": [0.5, 0.5, 0.5, 0.5], "after": [0.6, 0.4, 0.45, 0.55], "won": [1.0, 0.0, 0.0, 1.0]})
    rows["luck"] = rows["after"] - rows["before"]
    rows["real"] = rows["won"] - rows["before"]
    slope, lo, hi = bench.slope_ci(rows, draws=50)
    # least squares (the means are 0): Σ luck·real / Σ luck² = 0.15 / 0.025; one game alone gives 5 or 10
    assert slope == pytest.approx(6.0) and 5.0 - 1e-9 <= lo <= slope <= hi <= 10.0 + 1e-9
    assert bench.main(["--games", "1", "--draws", "2", "--processes", "1"]) == 0
    out = capsys.readouterr().out
    for part in ("luck by the model", "luck by the hybrid", "won − before ≈", "Brier of the win chances before"):
        assert part in out


@pytest.mark.skipif(not __import__("speicherstadt_lab.puzzles").puzzles.shipped_variants(), reason="no puzzles")
def test_the_puzzle_benchmark_reverifies_and_reports_a_share(capsys):
    bench = _load("puzzles")
    shipped = __import__("speicherstadt_lab.puzzles").puzzles.shipped_variants()
    variant = "speicherstadt" if "speicherstadt" in shipped else shipped[0]  # the set with at least two puzzles
    assert bench.main(["--variant", variant, "--limit", "2", "--rollouts", "40", "--processes", "1"]) == 0
    out = capsys.readouterr().out
    assert "2 puzzles re-verified with 40 greedy play-outs" in out and "stand (%)" in out and "target:" in out


def test_the_hints_benchmark_times_hints_against_a_greedy_game(capsys):
    """Every variant asked gets its row; the search is a part of the hint, and the ratio is the hint over the game."""
    bench = _load("hints")
    df = bench.main(["--games", "speicherstadt,packet_row", "--positions", "2", "--reference", "1"])
    out = capsys.readouterr().out
    assert "hints of level 6" in out and "load average" in out and "hint / greedy game" in out
    assert list(df.index) == ["speicherstadt", "packet_row"] and (df["hints"] == 2).all()
    assert (df["search CPU ms"] > 0).all() and (df["p90 wall ms"] >= df["median wall ms"]).all()
    assert np.allclose(df["hint / greedy game"], df["median CPU ms"] / df["greedy game CPU ms"])
