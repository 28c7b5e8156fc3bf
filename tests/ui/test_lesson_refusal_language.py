"""The Tutorial page's own refusals of a click on the board ("the board shows the best line", "the lesson is judged")
follow the app's language like the board's own messages, and are gone once the board moves on."""

from __future__ import annotations

from typing import Any

import pytest

from speicherstadt_lab.puzzle_lessons import puzzle_lessons
from speicherstadt_lab.ui.app import LabApp
from speicherstadt_lab.ui.app.lessons_panel import t
from speicherstadt_lab.ui.app.puzzle_line import t as line_text


def click_of(state: Any, action: str) -> dict[str, Any]:
    """The board message of ``action`` at ``state``."""
    return state.notation.grammar.fields_of(state.parse_action(action))


@pytest.mark.parametrize("variant", ["packet_row", "kaispeicher"])
def test_the_refusal_while_the_line_is_shown_follows_the_language(tutorial_app: LabApp, variant: str) -> None:
    tutorial_app.lesson_set_choice.value = f"puzzles:{variant}"
    panel, board = tutorial_app.panels.lessons, tutorial_app.lesson_board
    lesson, line = panel.lesson, panel.puzzle_line
    assert tutorial_app.lesson_move(lesson.puzzle.best).ok
    line.button.click()
    line.prev.click()  # the line's start: the learner to move, so the click reaches the page
    shown = board.state
    assert not board.handle_message(click_of(shown, lesson.puzzle.best)) or board.state is shown
    assert board.error == line_text("en", "showing")
    tutorial_app.lang.value = "de"
    assert board.error == line_text("de", "showing") and board.state is shown
    tutorial_app.lang.value = "en"
    assert board.error == line_text("en", "showing")
    line.next.click()  # the board moved on: no refusal left to translate
    tutorial_app.lang.value = "de"
    assert board.error == ""


def test_the_refusal_after_the_verdict_follows_the_language(tutorial_app: LabApp) -> None:
    panel, board = tutorial_app.panels.lessons, tutorial_app.lesson_board
    # a puzzle after whose answer the learner is to move again: a click on the board reaches the page
    lesson = next(x for x in puzzle_lessons("speicherstadt") if x.start().apply(x.puzzle.best).to_move == x.seat)
    assert panel.open_lesson(lesson.id)
    assert tutorial_app.lesson_move(lesson.puzzle.best).ok
    after = board.state
    board.handle_message(click_of(after, str(after.legal_actions()[0])))
    assert board.error == t("en", "judged") and board.state is after
    tutorial_app.lang.value = "de"
    assert board.error == t("de", "judged")
