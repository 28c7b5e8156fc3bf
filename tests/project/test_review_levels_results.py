"""benchmarks/review_levels.py kept resumable: a second run with the same settings judges nothing and prints the same
tables; a cut or altered line, or a file stamped by code that plays differently, is refused naming the line and the
field, with nothing played; two ways side by side get the paired difference of their correlations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from tests.support.benchmarks import load_benchmark

SMALL = ["--games", "1", "--every", "25", "--search", "2", "--truth", "2", "--processes", "1", "--compare", "race,full"]


@pytest.fixture(scope="module")
def bench() -> Any:
    return load_benchmark("review_levels", "bench_review_levels_results")


def tables(out: str) -> str:
    """The printed tables without the lines that carry wall times or what was taken from the file."""
    return "\n".join(line for line in out.splitlines() if "wall" not in line and "taken from" not in line)


@pytest.fixture(scope="module")
def made(bench: Any, tmp_path_factory: Any) -> tuple[Path, str]:
    """A results file of the small run, and what that run printed."""
    import contextlib
    import io

    results = tmp_path_factory.mktemp("levels") / "levels.jsonl"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert bench.main([*SMALL, "--results", str(results)]) == 0
    return results, out.getvalue()


def test_a_second_run_takes_every_decision_from_the_file(bench: Any, capsys: Any, made: tuple[Path, str],
                                                         tmp_path: Path) -> None:
    results = tmp_path / "levels.jsonl"
    results.write_text(made[0].read_text())
    first = made[1]
    lines = results.read_text().splitlines()
    assert len(lines) > 2 and "stamp" in json.loads(lines[0])
    assert "0 taken from" in first and "correlation with the real loss, race minus full" in first
    assert bench.main([*SMALL, "--results", str(results)]) == 0
    second = capsys.readouterr().out
    assert f"{len(lines) - 1} taken from" in second and ", 0 judged now" in second
    assert tables(second) == tables(first)
    assert results.read_text().splitlines() == lines  # nothing appended


def _set(lines: list[str], i: int, text: str) -> list[str]:
    return [*lines[:i], text, *lines[i + 1:]]


@pytest.mark.parametrize(("change", "named"), [
    (lambda lines: _set(lines, len(lines) - 1, lines[-1][:20]), "not JSON"),
    (lambda lines: _set(lines, 0, json.dumps({"stamp": "0" * 24})), "line 1: stamp"),
    (lambda lines: _set(lines, 1, lines[1].replace('"flag": "', '"flag": 7, "x": "', 1)), "line 2, row 1: flag"),
    (lambda lines: _set(lines, 1, lines[1].replace('"rows"', '"extra": 1, "rows"', 1)), "line 2: extra"),
])
def test_a_damaged_file_is_refused_by_line_and_field(bench: Any, capsys: Any, made: tuple[Path, str], tmp_path: Path,
                                                     change: Any, named: str) -> None:
    results = tmp_path / "levels.jsonl"
    damaged = "\n".join(change(made[0].read_text().splitlines())) + "\n"
    results.write_text(damaged)
    with pytest.raises(SystemExit):
        bench.main([*SMALL, "--results", str(results)])
    err = capsys.readouterr().err
    assert named in err
    assert results.read_text() == damaged  # nothing played, nothing written


def test_the_paired_gap_of_two_correlations(bench: Any) -> None:
    paired_correlation_gap = bench.paired_correlation_gap
    rng = np.random.default_rng(1)
    x = rng.random(200)
    real = x + rng.normal(0, 0.05, 200)
    a = pd.DataFrame({"win_loss": x, "real_win_loss": real})
    b = pd.DataFrame({"win_loss": x + rng.normal(0, 0.5, 200), "real_win_loss": real})
    gap, lo, hi = paired_correlation_gap(a, b)
    assert lo < gap < hi and lo > 0  # the noisier review correlates clearly worse
    same, lo0, hi0 = paired_correlation_gap(a, a)
    assert same == 0.0 and lo0 == hi0 == 0.0
