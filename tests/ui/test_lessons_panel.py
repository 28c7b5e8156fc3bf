"""The app's Tutorial page: the lessons one at a time, judged, with hints, progress, and the language kept."""

from __future__ import annotations

import pytest

from speicherstadt_lab.ui.app import LabApp


@pytest.fixture
def app() -> LabApp:
    lab = LabApp(players=3, seed=1, threaded=False, chart_delay=0)
    lab.tutorial_button.value = True
    yield lab
    lab.close()


def test_a_wrong_try_gets_the_hint_and_try_again_starts_over(app: LabApp) -> None:
    start = app.lesson_board.state
    assert "Lesson 1 of 7" in app.lesson_progress.value and "Red to move" in app.lesson_task.value
    assert app.lesson_retry.layout.visibility == "hidden"
    assert app.lesson_board.handle_message({"kind": "act", "verb": "place", "args": {"space": 0}})
    assert "Not quite" in app.lesson_feedback.value and "Hint" in app.lesson_feedback.value
    assert "third water space" in app.lesson_feedback.value and app.lesson_retry.layout.visibility == "visible"
    assert app.lesson_board.state is not start and app.lesson_board.state.to_move == 0  # the bots replied
    # judged: another click changes nothing and says what to do
    judged = app.lesson_board.state
    app.lesson_board.handle_message({"kind": "act", "verb": "place", "args": {"space": 2}})
    assert app.lesson_board.state is judged and "Try again" in app.lesson_board.error
    app.lesson_retry.click()
    assert app.lesson_board.state.to_json() == start.to_json() and "feedback" in app.lesson_feedback.value
    assert app.lesson_board.handle_message({"kind": "act", "verb": "place", "args": {"space": 2}})
    assert "Well done" in app.lesson_feedback.value and "<details>" in app.lesson_feedback.value
    assert 'class="ssl-dot done here"' in app.lesson_dots.value


def test_next_keeps_progress_and_the_language_switch_keeps_the_lesson(app: LabApp) -> None:
    app.lesson_move("place 2")
    app.lesson_next.click()
    title = app.panels.lessons.lesson_title
    assert "Lesson 2 of 7" in app.lesson_progress.value and "Purchase and price" in title.value
    app.lesson_move("buy")  # wrong: the task asks to pass
    state = app.lesson_board.state
    app.set_lang("de")
    assert "Lektion 2 von 7" in app.lesson_progress.value and "Tipp" in app.lesson_feedback.value
    assert app.lesson_board.state is state and app.lesson_board.lang == "de"
    assert "Kauf und Preis" in app.panels.lessons.lesson_title.value and "Deine Aufgabe" in app.lesson_task.value
    app.lesson_prev.click()
    assert "1 von 7" in app.lesson_progress.value and 'class="ssl-dot done here"' in app.lesson_dots.value


def test_the_lessons_of_each_game_and_open_lesson(app: LabApp) -> None:
    assert app.open_lesson("contracts-and-ships")
    assert app.lesson_set_choice.value == "packet_row" and "Lesson 4 of 5" in app.lesson_progress.value
    assert app.lesson_move("fulfil cotton_fr ship es captain fr goods cotton1 cotton3").ok
    assert "Well done" in app.lesson_feedback.value
    app.lesson_set_choice.value = "kaispeicher"
    assert "Lesson 1 of 19" in app.lesson_progress.value and "Yellow" in app.lesson_task.value
    app.lesson_set_choice.value = "packet_row"  # back: at the lesson it was at
    assert "Lesson 4 of 5" in app.lesson_progress.value
    assert not app.open_lesson("no-such-lesson") and "Lesson 4 of 5" in app.lesson_progress.value
    app.tutorial_button.value = False
    assert app.open_lesson("fire") and app.tutorial_button.value
    assert "Lesson 5 of 7" in app.lesson_progress.value
