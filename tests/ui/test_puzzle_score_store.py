"""The puzzle score (solved, at the first try) kept in the browser tab with the lesson progress: a reload (a new
kernel) brings it back, a wrong move before a reload still counts against the first try, and a bogus report is
refused naming its field with nothing changed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from speicherstadt_lab.puzzle_lessons import puzzle_lessons
from speicherstadt_lab.ui.app import LabApp
from speicherstadt_lab.ui.app.lesson_store import FORMAT, LessonStoreError, Progress, parse_progress

KEY = "puzzles:speicherstadt"


def fresh_tutorial() -> LabApp:
    """A new kernel's app (a reload) with the Tutorial page shown."""
    lab = LabApp(players=3, seed=1, threaded=False, chart_delay=0)
    lab.tutorial_button.value = True
    return lab


def wrong_move(lesson: Any) -> str:
    """A legal move of ``lesson``'s puzzle that does not solve it."""
    return next(a for a in map(str, lesson.start().legal_actions()) if a not in lesson.puzzle.acceptable)


def score_text(lab: LabApp) -> str:
    """The score line of the puzzle chooser, as shown."""
    return lab.panels.lessons.puzzle_chooser.score.value


def test_a_reload_brings_the_puzzle_score_back(tutorial_app: LabApp) -> None:
    tutorial_app.lesson_set_choice.value = KEY
    panel = tutorial_app.panels.lessons
    total = len(puzzle_lessons("speicherstadt"))
    first = panel.lesson
    assert tutorial_app.lesson_move(first.puzzle.best).ok  # solved at the first try
    tutorial_app.lesson_next.click()
    second = panel.lesson
    assert not tutorial_app.lesson_move(wrong_move(second)).ok
    tutorial_app.lesson_retry.click()
    assert tutorial_app.lesson_move(second.puzzle.best).ok  # solved, not at the first try
    tutorial_app.lesson_next.click()
    third = panel.lesson
    assert not tutorial_app.lesson_move(wrong_move(third)).ok  # a wrong try, then the page is reloaded
    assert f"2 of {total} puzzles solved, 1 at the first try" in score_text(tutorial_app)
    kept = json.loads(panel.store.stored)
    assert kept["done"][KEY] == sorted([first.id, second.id]) and kept["missed"][KEY] == sorted([second.id, third.id])
    again = fresh_tutorial()
    try:
        assert again.panels.lessons.store.handle_message({"kind": "restore", "text": panel.store.stored})
        assert again.panels.lessons.lesson is third and again.lesson_set_choice.value == KEY
        assert f"2 of {total} puzzles solved, 1 at the first try" in score_text(again)
        assert again.lesson_move(third.puzzle.best).ok  # the wrong try before the reload still counts
        assert f"3 of {total} puzzles solved, 1 at the first try" in score_text(again)
        again.lang.value = "de"
        assert f"3 von {total} Rätseln gelöst, 1 beim ersten Versuch" in score_text(again)
    finally:
        again.close()


def test_progress_without_the_missed_part_still_loads() -> None:
    """Progress a tab kept before the score was stored: no first try was missed."""
    sets = {KEY: ["puzzle:a", "puzzle:b"]}
    old = json.dumps({"format": FORMAT, "set": KEY, "index": {KEY: 1}, "done": {KEY: ["puzzle:a"]}})
    assert parse_progress(old, sets) == Progress(KEY, {KEY: 1}, {KEY: {"puzzle:a"}}, {})
    both = Progress(KEY, {KEY: 0}, {KEY: {"puzzle:a"}}, {KEY: {"puzzle:a", "puzzle:b"}})
    assert parse_progress(both.to_json(), sets) == both


def _report(**parts: object) -> dict[str, object]:
    data = {"format": FORMAT, "set": KEY, **parts}
    return {"kind": "restore", "text": json.dumps(data)}


BOGUS = [
    ("missed", _report(missed=["puzzle:x"])),
    ("missed.chess", _report(missed={"chess": []})),
    (f"missed.{KEY}", _report(missed={KEY: "all"})),
    (f"missed.{KEY}[0]", _report(missed={KEY: ["no-such-puzzle"]})),
    (f"missed.{KEY}[0]", _report(missed={KEY: [7]})),
    ("misses", _report(misses={KEY: []})),
]


@pytest.mark.parametrize(("field", "msg"), BOGUS, ids=[f for f, _m in BOGUS])
def test_a_bogus_score_report_is_named_and_changes_nothing(tutorial_app: LabApp, field: str, msg: object) -> None:
    tutorial_app.lesson_set_choice.value = KEY
    panel = tutorial_app.panels.lessons
    lesson = panel.lesson
    assert not tutorial_app.lesson_move(wrong_move(lesson)).ok
    store, board = panel.store, tutorial_app.lesson_board
    progress, stored, score, state = panel.progress(), store.stored, score_text(tutorial_app), board.state
    assert not store.handle_message(msg)
    assert store.last_error.startswith(f"{field}:"), store.last_error
    assert panel.progress() == progress and store.stored == stored and score_text(tutorial_app) == score
    assert panel.lesson is lesson and board.state is state


SETS = {KEY: ["puzzle:a", "puzzle:b"], "fire": ["fire"]}
JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 9) | st.sampled_from([*SETS, "puzzle:a", "x", ""]),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from([*SETS, "k"]), inner,
                                                                                max_size=3), max_leaves=6)


@given(sub=st.sampled_from(["", KEY, "fire", "k"]), value=JSON)
def test_a_missed_part_is_taken_whole_or_refused_naming_a_field(sub: str, value: object) -> None:
    data: dict = {"format": FORMAT, "set": KEY, "done": {KEY: ["puzzle:a"]}, "missed": {}}
    if sub:
        data["missed"][sub] = value
    else:
        data["missed"] = value
    try:
        got = parse_progress(json.dumps(data), SETS)
    except LessonStoreError as err:
        assert err.field.startswith("missed") and str(err).startswith(err.field)
        return
    assert all(ids <= set(SETS[k]) for k, ids in got.missed.items())  # taken: every id is a puzzle of its set
    assert got.done == {KEY: {"puzzle:a"}}
