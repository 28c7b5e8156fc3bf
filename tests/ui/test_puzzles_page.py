"""The shipped puzzles on the app's Tutorial page: a set beside the lessons, solved or missed by a move, opened
by id (and by a shared link), with the score kept for the session."""

from __future__ import annotations

from speicherstadt_lab.puzzle_lessons import puzzle_lessons
from speicherstadt_lab.ui.app import LabApp

KEY = "puzzles:speicherstadt"


def test_a_puzzle_set_beside_the_lessons_solved_by_its_best_move(tutorial_app: LabApp) -> None:
    assert KEY in [key for _label, key in tutorial_app.lesson_set_choice.options]
    tutorial_app.lesson_set_choice.value = KEY
    first = puzzle_lessons("speicherstadt")[0]
    assert tutorial_app.panels.lessons.lesson is first and "Puzzle 1 of" in tutorial_app.lesson_progress.value
    assert tutorial_app.lesson_board.state.to_dict() == first.puzzle.position and "find the clearly best move" in \
        tutorial_app.lesson_task.value
    wrong = next(a for a in map(str, first.start().legal_actions()) if a not in first.puzzle.acceptable)
    assert not tutorial_app.lesson_move(wrong).ok and "Not quite" in tutorial_app.lesson_feedback.value
    tutorial_app.lesson_retry.click()
    assert tutorial_app.lesson_move(first.puzzle.best).ok
    feedback = tutorial_app.lesson_feedback.value
    assert "Well done" in feedback and "percentage points" in feedback and "1 of" in tutorial_app.lesson_dots.value
    tutorial_app.lang.value = "de"
    assert "Rätsel 1 von" in tutorial_app.lesson_progress.value
    assert "Prozentpunkte" in tutorial_app.lesson_feedback.value
    assert ("Rätsel: Die Speicherstadt", KEY) in tutorial_app.lesson_set_choice.options
    assert tutorial_app.lesson_set_choice.value == KEY
    assert tutorial_app.panels.lessons.lesson is first  # the relabelled chooser keeps the set and the puzzle


def test_a_puzzle_opens_by_id_and_its_link_opens_it_again(tutorial_app: LabApp) -> None:
    third = puzzle_lessons("speicherstadt")[2]
    assert tutorial_app.open_lesson(third.id) and tutorial_app.panels.lessons.lesson is third
    assert not tutorial_app.open_lesson("puzzle:no-such-puzzle") and tutorial_app.panels.lessons.lesson is third
    query = tutorial_app.share_query()
    assert "lesson=puzzle%3A" in query
    other = LabApp(players=3, seed=1, threaded=False, chart_delay=0)
    try:
        assert other.open_query(query) == [] and other.panels.lessons.lesson is third
    finally:
        other.close()
