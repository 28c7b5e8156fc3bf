"""Puzzles: themes for every move of every game, mining with small budgets, the file format and its errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab import puzzles as P
from speicherstadt_lab.bots import make_bot
from speicherstadt_lab.cli import main
from speicherstadt_lab.engine.protocol import get_game
from tests.support.games import VARIANTS

SMALL = dict(decisions_per_game=6, verify_rollouts=40, solvers=("greedy",), solver_tries=1)


@pytest.mark.parametrize(("game", "expansion"), VARIANTS)
def test_every_move_of_a_game_has_a_declared_theme(game: str, expansion: str | None) -> None:
    options = {"expansion": expansion} if expansion else {}
    start = sl.new_game(game, players=3, seed=5, **options)
    record = sl.record_game(start, [make_bot("greedy", seed=s) for s in range(3)])
    themes = set(P.themes(game))
    seen = set()
    for node in record.mainline()[:-1]:
        for action in node.state.legal_actions():
            theme = P.theme_of(node.state, action)
            assert theme in themes, (str(action), theme)
            seen.add(theme)
    assert len(seen) >= 4  # a whole game touches most themes
    for theme in themes:  # every theme has a name in both languages
        for lang in ("en", "de"):
            assert "{" not in P.messages.text("puzzles", f"theme_{theme}", lang, {})


@pytest.fixture(scope="module")
def mined() -> list[P.Puzzle]:
    found = P.mine(P.MineSettings(players=(3,), **SMALL), games=1, seed=3, processes=1)
    assert found, "these seeds give puzzles at this budget"
    return found


def test_a_mined_puzzle_is_what_it_says(mined: list[P.Puzzle]) -> None:
    for p in mined:
        state = p.state
        assert state.to_move == p.seat and p.best in {str(a) for a in state.legal_actions()}
        assert p.acceptable[0] == p.best and p.moves[0]["action"] == p.best
        assert p.margin >= P.MARGIN and p.margin_ci[0] < p.margin < p.margin_ci[1]
        assert p.moves[0]["win_lo"] > max(m["win_hi"] for m in p.moves[1:])  # intervals do not overlap
        assert p.theme == P.theme_of(state, p.best)
        assert 1 <= p.difficulty <= len(SMALL["solvers"]) + 1
        assert p.is_answer(p.best) and not p.is_answer(p.moves[1]["action"])
        for lang in ("en", "de"):
            text = p.explanation(lang)
            assert "{" not in text and f"{100 * p.margin:.0f}" in text and state.seat_name(p.seat, lang) in text
        assert "Finde" in p.task("de")
        again = P.Puzzle.from_dict(json.loads(json.dumps(p.to_dict())))
        assert again.to_dict() == p.to_dict()


def test_mining_is_reproducible(mined: list[P.Puzzle]) -> None:
    again = P.mine_game(P.MineSettings(players=(3,), **SMALL), 3)
    assert [p.to_dict() for p in again] == [p.to_dict() for p in mined]


def test_a_file_round_trips_and_merges(tmp_path: Path, mined: list[P.Puzzle]) -> None:
    path = tmp_path / "p.json"
    P.write_puzzles(mined, path)
    assert [p.id for p in P.read_puzzles(path)] == [p.id for p in mined]
    assert len(P.merge(mined, mined)) == len(mined)


@pytest.mark.parametrize(("change", "field"), [
    (lambda d: d.pop("best"), "best: missing"),
    (lambda d: d.update(best="place 99"), "best: 'place 99' is not a legal move"),
    (lambda d: d.update(seat=d["seat"] + 1), "seat: the position asks seat"),
    (lambda d: d.update(theme="luck"), "theme: 'luck' is not one of"),
    (lambda d: d.update(difficulty=9), "difficulty: 1 to"),
    (lambda d: d.update(acceptable=[]), "acceptable: must include the best move"),
    (lambda d: d.update(game="chess"), "game: unknown game 'chess'"),
    (lambda d: d.update(margin_ci=[0.1]), "margin_ci: two numbers"),
    (lambda d: d["position"].update(round="late"), "position:"),
    (lambda d: d.update(moves=[]), "moves: the first entry must be the best"),
])
def test_a_malformed_puzzle_is_refused_naming_the_field(mined: list[P.Puzzle], change, field: str) -> None:
    data = json.loads(json.dumps(mined[0].to_dict()))
    change(data)
    with pytest.raises(P.PuzzleError, match=f"puzzles\\[0\\].{field}"):
        P.read_puzzles({"format": P.FORMAT, "puzzles": [data]})


def test_a_file_that_is_not_a_puzzle_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(P.PuzzleError, match="format"):
        P.read_puzzles({"puzzles": []})
    bad = tmp_path / "bad.json"
    bad.write_text("{nope", encoding="utf-8")
    with pytest.raises(P.PuzzleError, match="cannot read"):
        P.read_puzzles(bad)


@pytest.mark.parametrize("variant", P.shipped_variants())
def test_shipped_puzzles_load_and_explain_themselves(variant: str) -> None:
    game = "speicherstadt" if variant == "kaispeicher" else variant
    found = P.load_puzzles(game, "kaispeicher" if variant == "kaispeicher" else None)
    assert found and all(p.variant == variant for p in found)
    assert [p.difficulty for p in found] == sorted(p.difficulty for p in found)
    themes = set(P.themes(game))
    for p in found:
        assert p.theme in themes and p.rollouts >= P.VERIFY_ROLLOUTS and p.margin >= P.MARGIN
        assert p.explanation("de") and p.explanation("en")
    one = found[0]
    assert P.load_puzzles(game, one.expansion, theme=one.theme, difficulty=one.difficulty)[0].theme == one.theme


def test_unknown_puzzles_are_named() -> None:
    with pytest.raises(ValueError, match="no shipped puzzles for 'chess'"):
        P.load_puzzles("chess")


def test_every_shipping_game_declares_themes() -> None:
    for game in ("speicherstadt", "packet_row"):
        assert get_game(game).capability("puzzles").THEMES


def test_the_command_line_refuses_bad_options(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["puzzles", "--players", "9", "--out", str(tmp_path / "x.json")]) == 2
    assert "--players" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    assert main(["puzzles", "--out", str(bad)]) == 2
    assert "--out" in capsys.readouterr().err
