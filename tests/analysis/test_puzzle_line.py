""""Show me"'s line (``puzzle_lessons.best_line``): the puzzle's best move, then the greedy player's replies,
deterministic for its seed, and built from what the puzzle's seat sees only (two positions that seat cannot tell
apart give the same line)."""

from __future__ import annotations

from itertools import pairwise

import pytest

from speicherstadt_lab.puzzle_lessons import REPLIES, best_line, puzzle_lessons
from speicherstadt_lab.puzzles import shipped_variants


def _game_of(variant: str) -> tuple[str, str | None]:
    return ("speicherstadt", "kaispeicher") if variant == "kaispeicher" else (variant, None)


@pytest.mark.parametrize("variant", shipped_variants())
def test_the_line_starts_with_the_best_move_and_the_greedy_replies_follow(variant: str) -> None:
    lesson = puzzle_lessons(*_game_of(variant))[0]
    puzzle = lesson.puzzle
    line = lesson.line()
    assert 1 <= len(line) <= REPLIES + 1
    assert line[0].action == puzzle.best and line[0].seat == puzzle.seat
    assert line[0].before.fingerprint() == puzzle.state.fingerprint()  # the puzzle's position, as public facts
    for a, b in pairwise(line):
        assert b.before is a.after and b.seat == a.after.to_move  # one unbroken line, each move its mover's
    for step in line:
        assert step.action in map(str, step.before.legal_actions())
        assert step.before.seat_name(step.seat, "en") in step.words("en")
        assert step.before.seat_name(step.seat, "de") in step.words("de")
    again = lesson.line()
    assert [s.action for s in again] == [s.action for s in line]  # the same seed, the same line
    assert [s.after.to_dict() for s in again] == [s.after.to_dict() for s in line]


@pytest.mark.parametrize("variant", shipped_variants())
def test_the_line_never_depends_on_what_the_puzzle_seat_cannot_see(variant: str) -> None:
    """The true position and another the seat cannot tell from it (its hidden parts resampled) give one line: no
    hidden fact of the true position can show in it."""
    for lesson in puzzle_lessons(*_game_of(variant))[:3]:
        state, seat, best = lesson.start(), lesson.seat, lesson.puzzle.best
        other = state.observe(seat).determinize(seed=12345)
        assert other.to_dict() != state.to_dict() or not state.hidden_parts()  # really another hidden order
        mine, theirs = best_line(state, seat, best), best_line(other, seat, best)
        assert [s.action for s in mine] == [s.action for s in theirs]
        assert [s.after.to_dict() for s in mine] == [s.after.to_dict() for s in theirs]


def test_a_line_for_a_seat_not_to_move_or_with_negative_replies_is_refused() -> None:
    lesson = puzzle_lessons("speicherstadt")[0]
    state = lesson.start()
    with pytest.raises(ValueError, match="is not to move"):
        best_line(state, (state.to_move + 1) % state.n_players, lesson.puzzle.best)
    with pytest.raises(ValueError, match="replies"):
        best_line(state, state.to_move, lesson.puzzle.best, replies=-1)
    assert [s.action for s in best_line(state, state.to_move, lesson.puzzle.best, replies=0)] == [lesson.puzzle.best]
