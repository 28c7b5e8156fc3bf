"""The miner's cheaper checks give the same verdicts: the verification played in pieces has exactly the numbers of
one ``compare_actions`` run, it stops early only when no candidate can reach the margin, the staged screening
keeps ``compare_actions``' candidates, and the difficulty stops trying once it is decided."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from speicherstadt_lab import puzzles as P
from speicherstadt_lab.analysis import compare_actions
from speicherstadt_lab.cli import main


@pytest.fixture(scope="module")
def puzzle() -> P.Puzzle:
    """A shipped puzzle with three verified candidates, late in its game (short play-outs), with a clear lead."""
    return next(p for p in P.load_puzzles("speicherstadt") if p.id == "speicherstadt-4p-5008-175")


def test_verification_in_pieces_has_the_numbers_of_one_run(puzzle: P.Puzzle) -> None:
    state, candidates = puzzle.state, [m["action"] for m in puzzle.moves]
    pieces = [a + b for a, b in zip(P._play(state, candidates, 0, 12, 11, "rollouts"),
                                    P._play(state, candidates, 12, 30, 11, "rollouts"), strict=True)]
    whole = P.verify(state, candidates, 11, rollouts=30, looks=())
    assert whole is not None  # this position's lead shows at 30 play-outs already
    df = compare_actions(state, rollouts=30, bot="greedy", mode="fair", seed=11, actions=candidates, processes=1)
    assert [round(r["win_prob"], 4) for r in P._table(candidates, pieces, state.to_move)] == \
        [m["win_prob"] for m in whole["moves"]]  # two pieces, the numbers of one run
    assert [m["action"] for m in whole["moves"]] == list(df["action"])
    assert [m["win_prob"] for m in whole["moves"]] == [round(float(x), 4) for x in df["win_prob"]]
    assert [m["win_lo"] for m in whole["moves"]] == [round(float(x), 4) for x in df["win_lo"]]
    assert whole["margin"] == pytest.approx(float(df.loc[0, "win_prob"] - df.loc[1, "win_prob"]))


def _leaves(wins: list[float]) -> list[tuple[list[float], list[float], bool]]:
    return [([0.0], [w], False) for w in wins]


def test_the_lead_bound_is_the_best_moves_reach() -> None:
    same = _leaves([1, 0] * 10)
    assert P.lead_bound([same, same], 0, 2.0) == 0.0  # identical moves: no lead, no spread
    better = _leaves([1] * 20)
    worse = _leaves([1, 0] * 10)
    assert P.lead_bound([better, worse], 0, 2.0) == pytest.approx(0.5 + 2 * 0.5 / 20 ** 0.5 * (20 / 19) ** 0.5)
    assert P.lead_bound([worse, better, worse], 0, 0.0) == pytest.approx(0.5)  # the most any move leads its rivals


def test_verification_stops_early_only_when_no_candidate_can_lead(monkeypatch: pytest.MonkeyPatch,
                                                                  puzzle: P.Puzzle) -> None:
    played: list[tuple[int, int]] = []
    real = P._play

    def spy(state: Any, actions: Any, first: int, stop: int, seed: int, method: str) -> Any:
        played.append((first, stop))
        return real(state, actions, first, stop, seed, method)

    monkeypatch.setattr(P, "_play", spy)
    state = puzzle.state
    twins = [puzzle.best, puzzle.best]  # one move twice: never a lead, so the first look stops it
    assert P.verify(state, twins, 3, rollouts=30, looks=(10, 20)) is None
    assert played == [(0, 10)]
    played.clear()
    candidates = [m["action"] for m in puzzle.moves]
    assert P.verify(state, candidates, 11, rollouts=30, looks=(10, 20)) is not None  # accepted on every play-out
    assert played == [(0, 10), (10, 20), (20, 30)]


def test_the_staged_screening_keeps_compare_actions_candidates(puzzle: P.Puzzle) -> None:
    state = puzzle.state
    got = P.screen(state, 5)
    df = compare_actions(state, rollouts=P.SCREEN_ROLLOUTS, method="hybrid", bot="greedy", seed=5, processes=1)
    lead = float(df.loc[0, "win_prob"] - df.loc[1, "win_prob"])
    if got is not None:
        assert got == [str(a) for a in df["action"].head(P.CANDIDATES)]
    else:  # dropped by the futility check or by the screening's own rule
        assert lead < P.MARGIN or lead < 2 * float(df.loc[1, "win_gap_se"]) or P.lead_bound(
            P._play(state, [str(a) for a in state.legal_actions()], 0, P.SCREEN_FIRST, 5, "hybrid"),
            state.to_move, P.FUTILITY_T) < P.MARGIN


def test_the_difficulty_stops_trying_once_decided() -> None:
    easy = next(p for p in P.load_puzzles("speicherstadt", difficulty=1) if p.found_by.get("greedy") == 1.0)
    level, shares = P.difficulty_of(easy.state, easy.acceptable, 7, solvers=("greedy", "mcts:iterations=400"))
    assert level == 1 and shares == {"greedy": 1.0}  # two hits of three decide it; the search is never asked
    level, shares = P.difficulty_of(easy.state, ("no such move",), 7, solvers=("greedy", "random"), tries=3)
    assert level == 3 and shares == {"greedy": 0.0, "random": 0.0}  # two misses of three decide each level


def test_the_command_line_mines_in_process_and_appends_without_duplicates(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    def run(seed: int, out: Path) -> int:
        return main(["puzzles", "--game", "packet_row", "--players", "3", "--games", "1", "--seed", str(seed),
                     "--decisions", "3", "--rollouts", "30", "--processes", "1", "--out", str(out)])

    none = tmp_path / "none.json"
    assert run(1, none) == 0 and not none.exists()  # this game has no puzzle: no empty file
    out = tmp_path / "packet_row.json"
    assert run(2, out) == 0
    first = P.read_puzzles(out)
    assert len(first) == 1 and "1 new puzzles" in capsys.readouterr().out
    assert run(2, out) == 0  # the same game again: its puzzle is in the file already
    assert [p.id for p in P.read_puzzles(out)] == [p.id for p in first] and "0 new puzzles" in capsys.readouterr().out
    assert not list(tmp_path.glob("*.part"))  # written beside, then moved in
