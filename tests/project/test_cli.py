"""The ``speicherstadt-lab`` command line: simulate and replay, their output and exit codes."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from speicherstadt_lab.cli import main
from speicherstadt_lab.engine.rng import Rng
from speicherstadt_lab.records import GameRecord
from speicherstadt_lab.simulation import simulate

SCRIPT = Path(sys.executable).with_name("speicherstadt-lab")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_clean_error(err: str, *fragments: str) -> None:
    """One line on stderr, no traceback, naming what is wrong."""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("speicherstadt-lab: error: ")
    for f in fragments:
        assert f in lines[0]


# -- simulate -------------------------------------------------------------------------------------


def test_simulate_prints_tables_and_writes_the_csv(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    csv = tmp_path / "out.csv"
    argv = ["simulate", "--games", "4", "--bots", "random,random", "--seed", "9", "--processes", "1"]
    code, out, err = run(capsys, *argv, "--no-progress", "--csv", str(csv))
    assert code == 0, err
    assert err == ""
    assert "4 games, 2 players, seed 9" in out
    assert "Per bot" in out and "Per seat (a fair share is 50.0%)" in out
    # two random bots share all the wins between them: 4 wins in 8 seat-games
    bot_line = next(line for line in out.splitlines() if line.startswith("random"))
    assert re.search(r"random\s+8\s+4\s+50\.0%\s+\d+\.\d% – \d+\.\d%", bot_line), bot_line
    assert "0 (Red)" in out and "1 (Blue)" in out
    expected = simulate(4, 2, ["random", "random"], 9, executor="serial", progress=False)
    written = pd.read_csv(csv)
    assert list(written.columns) == list(expected.columns)
    assert written["score"].tolist() == expected["score"].tolist()
    assert written["game_seed"].astype("uint64").tolist() == expected["game_seed"].tolist()
    assert f"wrote 8 rows to {csv}" in out


def test_simulate_per_seat_win_rates_match_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "simulate", "--games", "3", "--bots", "random,random,random", "--seed", "4",
                       "--processes", "1", "--rotate", "--no-progress")
    assert code == 0
    df = simulate(3, 3, ["random"] * 3, 4, executor="serial", progress=False, rotate=True)
    for seat, name in enumerate(["Red", "Blue", "Green"]):
        line = next(x for x in out.splitlines() if x.startswith(f"{seat} ({name})"))
        rate = df.loc[df["seat"] == seat, "win_share"].mean()
        assert f"{rate:.1%}" in line
    assert "rotated one seat per game" in out


def test_simulate_another_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "simulate", "--game", "packet_row", "--games", "4", "--bots", "greedy,random,random",
                         "--seed", "3", "--processes", "1", "--no-progress")
    assert code == 0, err
    assert out.startswith("Packet Row: 4 games, 3 players, seed 3")
    df = simulate(4, 3, ["greedy", "random", "random"], 3, executor="serial", progress=False, game="packet_row")
    line = next(x for x in out.splitlines() if x.startswith("greedy"))
    assert f"{df.loc[df['bot'] == 'greedy', 'win_share'].mean():.1%}" in line


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["--bots", "random,nobody"], ["bots: unknown bot 'nobody'"]),
        (["--bots", "random,random", "--players", "3"], ["bots: 2 bot specs for 3 players"]),
        (["--bots", "random", "--players", "1"], ["players:"]),
        (["--bots", "random,random", "--games", "0"], ["games: must be at least 1"]),
        (["--bots", "random,random", "--processes", "0"], ["--processes"]),
        (["--bots", "random,,random"], ["bots: empty spec"]),
        (["--bots", "random,random", "--csv", "/no/such/dir/x.csv"], ["--csv", "/no/such/dir"]),
        (["--bots", "random,random", "--game", "chess"], ["--game: unknown game 'chess'"]),
        (["--bots", "random,random", "--game", "packet_row", "--expansion", "kaispeicher"],
         ["--expansion: Packet Row has no expansion"]),
    ],
)
def test_simulate_bad_input_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str], fragments: list[str]) -> None:
    code, out, err = run(capsys, "simulate", "--no-progress", *argv)
    assert code == 2
    assert out == ""
    assert_clean_error(err, *fragments)


def test_argparse_errors_return_2_instead_of_exiting(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "simulate", "--games", "many", "--bots", "random,random")
    assert code == 2 and "invalid int value: 'many'" in err
    code, _, err = run(capsys)
    assert code == 2 and "required" in err
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "simulate" in out and "replay" in out


def test_script_runs_as_a_subprocess(tmp_path: Path) -> None:
    assert SCRIPT.exists(), f"console script missing: {SCRIPT}"
    ok = subprocess.run(
        [str(SCRIPT), "simulate", "--games", "2", "--bots", "random,random", "--processes", "2", "--no-progress"],
        capture_output=True, text=True, timeout=300,
    )
    assert ok.returncode == 0, ok.stderr[-800:]
    assert "Per bot" in ok.stdout and "Traceback" not in ok.stderr
    bad = subprocess.run([str(SCRIPT), "replay", str(tmp_path / "missing.json")], capture_output=True, text=True)
    assert bad.returncode == 2
    assert_clean_error(bad.stderr, "no such file", "missing.json")
    assert "Traceback" not in bad.stderr


# -- replay ---------------------------------------------------------------------------------------


def test_replay_missing_file_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "replay", str(tmp_path / "nope.json"))
    assert code == 2 and out == ""
    assert_clean_error(err, "no such file", "nope.json")
    code, _, err = run(capsys, "replay", str(tmp_path))
    assert code == 2
    assert_clean_error(err, "not a file")


@pytest.mark.parametrize("text", ["{not json", '{"format": "something else"}', "[]"])
def test_replay_bad_file_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2 and out == ""
    assert_clean_error(err)


def played_record(players: int, seed: int, plies: int | None = None) -> GameRecord:
    """A record played by a ply-seeded random choice (cannot cycle), to the end or for ``plies`` moves."""
    record = GameRecord.new(players=players, seed=seed)
    node = record.root
    while not node.state.is_over and (plies is None or node.ply < plies):
        legal = node.state.legal_actions()
        node = node.play(Rng(seed, "replay-test", node.ply).choice(legal), by={"bot": "scripted"})
        assert node.ply < 5000, "scripted game did not end"
    return record


def move_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if re.match(r"^\s*\d+\s+\d+\s+\S+\s+\S", line)]


def event_lines(out: str) -> list[str]:
    return [line.strip() for line in out.splitlines() if line.startswith(" " * 11) and line.strip()]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_replay_prints_every_move_its_events_and_the_scores(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, lang: str
) -> None:
    record = played_record(3, seed=21)
    path = tmp_path / "game.json"
    record.save(path)
    code, out, err = run(capsys, "replay", str(path), "--lang", lang)
    assert code == 0, err
    line = record.mainline()
    expected = []
    for before, node in itertools.pairwise(line):
        name = node.state.seat_name(node.actor, lang)
        expected.append(f"{node.ply:>3}  {before.state.round:>5}  {name:<8} {node.action}")
    assert move_lines(out) == expected
    assert event_lines(out) == list(record.events(lang=lang)["text"])
    final = line[-1].state
    head = "Endwertung" if lang == "de" else "Final scores"
    table = out.split(head + "\n", 1)[1].splitlines()
    assert len(table) == 1 + 3
    best = final.winners()[0]
    assert final.seat_name(best, lang) in table[1] and str(final.score(best)) in table[1]
    names = ("Rot", "Blau", "Grün") if lang == "de" else ("Red", "Blue", "Green")
    assert out.splitlines()[0] == f"game.json: {names[0]} (scripted), {names[1]} (scripted), {names[2]} (scripted)"


def test_replay_of_an_unfinished_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "part.json"
    played_record(2, seed=3, plies=12).save(path)
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0
    assert len(move_lines(out)) == 12
    assert "Scores so far (the game is not finished)" in out


def test_replay_of_a_tampered_record_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = played_record(2, seed=4, plies=6)
    data = json.loads(record.to_json())
    data["moves"][2]["action"] = "buy"  # not legal while workers are being placed
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(data))
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2 and out == ""
    assert_clean_error(err)


# -- intervals ------------------------------------------------------------------------------------


def test_intervals_measures_a_model_and_writes_them_into_its_file(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path) -> None:
    from speicherstadt_lab.value import load_model, model_path

    path = tmp_path / "m.json"
    path.write_text(model_path("speicherstadt", 5).read_text())
    with pytest.warns(UserWarning, match="more reference play-outs"):  # 1 game, 20 play-outs: it says it is rough
        code, out, err = run(capsys, "intervals", "--players", "5", "--model", str(path), "--games", "1",
                             "--reference-rollouts", "20", "--processes", "1", "--no-progress")
    assert code == 0, err
    assert "8 held-out positions from 1 games" in out and "95% interval of the quick" in out
    model = load_model(path=path)
    assert model.training["intervals"]["reference_rollouts"] == 20 and model.intervals["model"].positions == 8
    assert not list(tmp_path.glob(".*.tmp"))  # written through a temporary file, none left behind


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["--games", "0"], ["--games"]),
        (["--reference-rollouts", "5"], ["--reference-rollouts", "at least 20"]),
        (["--processes", "0"], ["--processes"]),
        (["--players", "4"], ["--model", "not the game asked for"]),
        (["--game", "chess"], ["--game"]),
    ],
)
def test_intervals_bad_input_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str],
                                     fragments: list[str]) -> None:
    from speicherstadt_lab.value import model_path

    path = tmp_path / "m.json"
    path.write_text(model_path("speicherstadt", 5).read_text())
    code, _out, err = run(capsys, "intervals", "--players", "5", "--model", str(path), *argv)
    assert code == 2
    assert_clean_error(err, *fragments)
    assert path.read_text() == model_path("speicherstadt", 5).read_text()  # nothing written


@pytest.mark.parametrize("seed", [None, "abc", 1.7])
def test_intervals_refuses_a_malformed_training_seed_by_name(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                             seed: object) -> None:
    from speicherstadt_lab.value import model_path

    data = json.loads(model_path("speicherstadt", 5).read_text())
    data["training"]["seed"] = seed
    path = tmp_path / "m.json"
    path.write_text(json.dumps(data))
    before = path.read_text()
    code, _out, err = run(capsys, "intervals", "--players", "5", "--model", str(path), "--processes", "1")
    assert code == 2
    assert_clean_error(err, "training.seed", "--seed")
    assert path.read_text() == before


def test_intervals_refuses_a_catalogue_the_model_was_not_trained_with(capsys: pytest.CaptureFixture[str],
                                                                      tmp_path: Path) -> None:
    from speicherstadt_lab.value import model_path

    path = tmp_path / "m.json"
    path.write_text(model_path("speicherstadt", 5).read_text())
    cards = tmp_path / "fire.toml"
    cards.write_text('base = "default"\n[[cards]]\nid = "fire_1"\nstrength = 7\n', encoding="utf-8")
    code, _out, err = run(capsys, "intervals", "--players", "5", "--model", str(path), "--catalog", str(cards),
                          "--games", "1", "--processes", "1", "--no-progress")
    assert code == 2
    assert_clean_error(err, "catalogue")
    assert path.read_text() == model_path("speicherstadt", 5).read_text()
