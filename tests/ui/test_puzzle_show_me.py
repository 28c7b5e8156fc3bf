""""Show me" on the Tutorial page's puzzles: offered after a try (right or wrong) and only on a puzzle, it steps the
board through the best line with each move in words (English and German), refuses the learner's clicks while the
line is shown, and goes back to the puzzle's own position."""

from __future__ import annotations

from html import escape

import pytest

from speicherstadt_lab.puzzles import shipped_variants
from speicherstadt_lab.ui.app import LabApp
from speicherstadt_lab.ui.app.puzzle_line import SEED

KEY = "puzzles:speicherstadt"


def test_show_me_steps_through_the_best_line_and_goes_back(tutorial_app: LabApp) -> None:
    panel = tutorial_app.panels.lessons
    line_ui = panel.puzzle_line
    assert line_ui.button.layout.display == "none"  # a lesson, not a puzzle: no "Show me"
    tutorial_app.lesson_set_choice.value = KEY
    lesson, board = panel.lesson, tutorial_app.lesson_board
    start = board.state.to_json()
    assert line_ui.button.layout.display == "none"  # not before the learner's try
    wrong = next(a for a in map(str, lesson.start().legal_actions()) if a not in lesson.puzzle.acceptable)
    assert not tutorial_app.lesson_move(wrong).ok
    assert line_ui.button.layout.display != "none" and line_ui.button.description == "Show me"
    line_ui.button.click()
    steps = lesson.line(seed=SEED)
    assert [s.action for s in line_ui.steps] == [s.action for s in steps]
    assert board.state.to_dict() == steps[0].after.to_dict() and line_ui.box.layout.display == "flex"
    assert line_ui.button.layout.display == "none"
    html = line_ui.moves.value
    assert all(escape(s.words("en")) in html for s in steps) and f"after move 1 of {len(steps)}" in html
    assert "the best move" in html and f'title="{steps[0].action}"' in html  # the notation on hover
    line_ui.next.click()
    assert board.state.to_dict() == steps[1].after.to_dict() and f"after move 2 of {len(steps)}" in line_ui.moves.value
    for _ in range(len(steps)):
        line_ui.next.click()
    assert line_ui.at == len(steps) and line_ui.next.disabled and board.state.to_dict() == steps[-1].after.to_dict()
    tutorial_app.lang.value = "de"
    assert all(escape(s.words("de")) in line_ui.moves.value for s in steps)
    assert line_ui.back.description == "Zurück zum Rätsel"
    assert "Zug" in line_ui.prev.description and "Brett zeigt" in line_ui.moves.value
    tutorial_app.lang.value = "en"
    for _ in range(len(steps) + 1):
        line_ui.prev.click()
    assert line_ui.at == 0 and line_ui.prev.disabled and "before the line" in line_ui.moves.value
    assert board.state.fingerprint() == lesson.start().fingerprint()
    shown = board.state  # the learner to move in the line's start: a click of the best move is refused
    click = shown.notation.grammar.fields_of(shown.parse_action(lesson.puzzle.best))
    board.handle_message(click)
    assert board.state is shown and "Back to the puzzle" in board.error and line_ui.showing
    line_ui.back.click()
    assert board.state.to_json() == start and line_ui.box.layout.display == "none" and not line_ui.showing
    assert line_ui.button.layout.display == "none"  # a fresh try: "Show me" after it again
    assert tutorial_app.lesson_move(lesson.puzzle.best).ok and line_ui.button.layout.display != "none"


def test_show_me_is_offered_after_a_right_try_too_and_not_on_lessons(tutorial_app: LabApp) -> None:
    panel = tutorial_app.panels.lessons
    assert tutorial_app.lesson_move("place 2").ok  # a lesson solved: no "Show me"
    assert panel.puzzle_line.button.layout.display == "none"
    tutorial_app.lesson_set_choice.value = KEY
    assert tutorial_app.lesson_move(panel.lesson.puzzle.best).ok
    assert panel.puzzle_line.button.layout.display != "none"
    tutorial_app.lesson_next.click()  # another puzzle: no line, no button until its try
    assert panel.puzzle_line.button.layout.display == "none" and not panel.puzzle_line.showing


@pytest.mark.parametrize("variant", shipped_variants())
def test_show_me_works_on_every_game_s_board(tutorial_app: LabApp, variant: str) -> None:
    tutorial_app.lesson_set_choice.value = f"puzzles:{variant}"
    panel = tutorial_app.panels.lessons
    lesson, line_ui = panel.lesson, panel.puzzle_line
    assert tutorial_app.lesson_move(lesson.puzzle.best).ok
    line_ui.button.click()
    steps = lesson.line(seed=SEED)
    for n, step in enumerate(steps, start=1):
        assert line_ui.at == n and tutorial_app.lesson_board.state.to_dict() == step.after.to_dict()
        assert escape(step.words("en")) in line_ui.moves.value
        line_ui.next.click()
    line_ui.back.click()
    assert tutorial_app.lesson_board.state.to_dict() == lesson.puzzle.position and not line_ui.showing
