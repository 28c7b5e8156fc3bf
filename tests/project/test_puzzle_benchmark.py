"""benchmarks/puzzles.py kept resumable and in parts: on two cheap puzzles (few play-outs) a second run with the same
settings plays nothing and prints the same table, the parts of ``--shard`` together give the whole run's results,
and a malformed or tampered line of the results file is refused, naming its line and field, with nothing played."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from speicherstadt_lab.puzzles import load_puzzles, write_puzzles
from tests.support.benchmarks import load_benchmark

ROLLOUTS = "5"  # play-outs a candidate: the run is cheap, the checks are about the bookkeeping


@pytest.fixture(scope="module")
def bench() -> Any:
    return load_benchmark("puzzles")


@pytest.fixture()
def two(tmp_path: Path) -> Path:
    """A puzzle file of the two shipped base-game puzzles nearest the game's end (the shortest play-outs)."""
    late = sorted(load_puzzles("speicherstadt"), key=lambda p: (-p.state.round, p.id))[:2]
    path = tmp_path / "two.json"
    write_puzzles(late, path)
    return path


def run(bench: Any, capsys: Any, puzzles: Path, results: Path, *more: str) -> tuple[str, str]:
    """One run on ``puzzles`` keeping ``results``: its first line (what it played) and the table after it."""
    assert bench.main(["--puzzles", str(puzzles), "--rollouts", ROLLOUTS, "--processes", "1", "--seed", "7",
                       "--results", str(results), *more]) == 0
    head, _, rest = capsys.readouterr().out.partition("\n")
    return head, rest


def lines(results: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in results.read_text(encoding="utf-8").splitlines()]


def test_a_second_run_plays_nothing_and_prints_the_same_table(bench: Any, capsys: Any, two: Path,
                                                              tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    head, table = run(bench, capsys, two, results)
    assert head.startswith("2 puzzles re-verified with 5 greedy") and "0 taken from" in head and "stand (%)" in table
    kept = lines(results)
    assert [x["id"] for x in kept] == [p["id"] for p in json.loads(two.read_text(encoding="utf-8"))["puzzles"]]
    assert all(x["rollouts"] == int(ROLLOUTS) and x["seed"] == 7 and x["row"]["id"] == x["id"] for x in kept)
    again_head, again = run(bench, capsys, two, results)
    assert again_head.startswith("0 puzzles re-verified") and "2 taken from" in again_head
    assert again == table and lines(results) == kept  # the same table, nothing played or appended
    # other settings use none of the lines: a run with another seed plays both again
    other, _ = run(bench, capsys, two, results, "--seed", "8")
    assert other.startswith("2 puzzles re-verified") and "0 taken from" in other and len(lines(results)) == 4


def test_the_parts_together_give_the_whole_run(bench: Any, capsys: Any, two: Path, tmp_path: Path) -> None:
    whole, parts = tmp_path / "whole.jsonl", tmp_path / "parts.jsonl"
    run(bench, capsys, two, whole)
    run(bench, capsys, two, parts, "--shard", "1/2")
    head, _ = run(bench, capsys, two, parts, "--shard", "2/2")
    assert "(part 2 of 2)" in head and "2 of the 2 chosen have results" in head
    same = ("stands", "same_best", "lead", "playouts")  # a puzzle's seed is its own: any part, the same numbers
    by_id = {x["id"]: {k: x["row"][k] for k in same} for x in lines(whole)}
    assert {x["id"]: {k: x["row"][k] for k in same} for x in lines(parts)} == by_id
    assert len(lines(parts)) == 2  # each puzzle played once
    ids = [f"p-{k}" for k in range(200)]  # every id in exactly one of the parts
    assert all(sum(bench.in_shard(i, (k, 3)) for k in (1, 2, 3)) == 1 for i in ids)
    assert 40 < sum(bench.in_shard(i, (1, 3)) for i in ids) < 95


def _set(path: str, value: Any) -> Callable[[list[dict[str, Any]]], None]:
    def spoil(kept: list[dict[str, Any]]) -> None:
        *parents, last = path.split(".")
        target = kept[1]
        for key in parents:
            target = target[key]
        target[last] = value
    return spoil


TAMPERED = [
    ("content changed", _set("content", "0123456789abcdef"), "line 2: content"),
    ("a result made up", _set("row.stands", "yes"), "line 2: row.stands"),
    ("another puzzle's row", _set("row.id", "speicherstadt-3p-1-1"), "line 2: row.id"),
    ("a number as text", _set("rollouts", "5"), "line 2: rollouts"),
    ("a field missing", lambda kept: kept[1].pop("seed"), "line 2: seed: missing"),
    ("a field too many", _set("note", 1), "line 2: note"),
]


@pytest.mark.parametrize(("what", "spoil", "named"), TAMPERED, ids=[t[0] for t in TAMPERED])
def test_a_tampered_line_is_refused_naming_line_and_field(bench: Any, capsys: Any, two: Path, tmp_path: Path,
                                                          what: str, spoil: Callable[..., None], named: str) -> None:
    results = tmp_path / "results.jsonl"
    run(bench, capsys, two, results)
    kept = lines(results)
    spoil(kept)
    results.write_text("".join(json.dumps(x) + "\n" for x in kept), encoding="utf-8")
    before = results.read_bytes()
    with pytest.raises(SystemExit) as stop:
        run(bench, capsys, two, results)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert named in err and str(results) in err, err
    assert results.read_bytes() == before  # nothing played, nothing appended


def test_a_line_that_is_no_json_is_refused(bench: Any, capsys: Any, two: Path, tmp_path: Path) -> None:
    results = tmp_path / "results.jsonl"
    run(bench, capsys, two, results)
    with results.open("a", encoding="utf-8") as f:
        f.write('{"id": "speicherstadt-3p-50\n')  # a line cut short
    with pytest.raises(SystemExit):
        run(bench, capsys, two, results)
    assert "line 3: not a line of JSON" in capsys.readouterr().err
