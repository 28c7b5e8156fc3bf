"""The app's Tutorial page: the lessons one at a time, judged, with hints, progress, and the language kept."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from speicherstadt_lab.ui.app import LabApp
from speicherstadt_lab.ui.app.lesson_store import LessonStoreError, Progress, parse_progress


def test_a_wrong_try_gets_the_hint_and_try_again_starts_over(tutorial_app: LabApp) -> None:
    start = tutorial_app.lesson_board.state
    assert "Lesson 1 of 7" in tutorial_app.lesson_progress.value and "Red to move" in tutorial_app.lesson_task.value
    assert tutorial_app.lesson_retry.layout.visibility == "hidden"
    assert tutorial_app.lesson_board.handle_message({"kind": "act", "verb": "place", "args": {"space": 0}})
    assert "Not quite" in tutorial_app.lesson_feedback.value and "Hint" in tutorial_app.lesson_feedback.value
    assert "third water space" in tutorial_app.lesson_feedback.value
    assert tutorial_app.lesson_retry.layout.visibility == "visible"
    assert tutorial_app.lesson_board.state is not start
    assert tutorial_app.lesson_board.state.to_move == 0  # the bots replied
    # judged: another click changes nothing and says what to do
    judged = tutorial_app.lesson_board.state
    tutorial_app.lesson_board.handle_message({"kind": "act", "verb": "place", "args": {"space": 2}})
    assert tutorial_app.lesson_board.state is judged and "Try again" in tutorial_app.lesson_board.error
    tutorial_app.lesson_retry.click()
    assert tutorial_app.lesson_board.state.to_json() == start.to_json()
    assert "feedback" in tutorial_app.lesson_feedback.value
    assert tutorial_app.lesson_board.handle_message({"kind": "act", "verb": "place", "args": {"space": 2}})
    assert "Well done" in tutorial_app.lesson_feedback.value and "<details>" in tutorial_app.lesson_feedback.value
    assert 'class="ssl-dot done here"' in tutorial_app.lesson_dots.value


def test_next_keeps_progress_and_the_language_switch_keeps_the_lesson(tutorial_app: LabApp) -> None:
    tutorial_app.lesson_move("place 2")
    tutorial_app.lesson_next.click()
    title = tutorial_app.panels.lessons.lesson_title
    assert "Lesson 2 of 7" in tutorial_app.lesson_progress.value and "Purchase and price" in title.value
    tutorial_app.lesson_move("buy")  # wrong: the task asks to pass
    state = tutorial_app.lesson_board.state
    tutorial_app.set_lang("de")
    assert "Lektion 2 von 7" in tutorial_app.lesson_progress.value and "Tipp" in tutorial_app.lesson_feedback.value
    assert tutorial_app.lesson_board.state is state and tutorial_app.lesson_board.lang == "de"
    assert "Kauf und Preis" in tutorial_app.panels.lessons.lesson_title.value
    assert "Deine Aufgabe" in tutorial_app.lesson_task.value
    tutorial_app.lesson_prev.click()
    assert "1 von 7" in tutorial_app.lesson_progress.value
    assert 'class="ssl-dot done here"' in tutorial_app.lesson_dots.value


def test_the_lessons_of_each_game_and_open_lesson(tutorial_app: LabApp) -> None:
    assert tutorial_app.open_lesson("contracts-and-ships")
    assert tutorial_app.lesson_set_choice.value == "packet_row"
    assert "Lesson 4 of 5" in tutorial_app.lesson_progress.value
    assert tutorial_app.lesson_move("fulfil cotton_fr ship es captain fr goods cotton1 cotton3").ok
    assert "Well done" in tutorial_app.lesson_feedback.value
    tutorial_app.lesson_set_choice.value = "kaispeicher"
    assert "Lesson 1 of 19" in tutorial_app.lesson_progress.value and "Yellow" in tutorial_app.lesson_task.value
    tutorial_app.lesson_set_choice.value = "packet_row"  # back: at the lesson it was at
    assert "Lesson 4 of 5" in tutorial_app.lesson_progress.value
    assert not tutorial_app.open_lesson("no-such-lesson") and "Lesson 4 of 5" in tutorial_app.lesson_progress.value
    tutorial_app.tutorial_button.value = False
    assert tutorial_app.open_lesson("fire") and tutorial_app.tutorial_button.value
    assert "Lesson 5 of 7" in tutorial_app.lesson_progress.value


# ---- the progress kept in the browser tab (sessionStorage, through a reload) -----------------------------------

def fresh_tutorial() -> LabApp:
    """A new kernel's tutorial_app (a reload) with the Tutorial page shown."""
    lab = LabApp(players=3, seed=1, threaded=False, chart_delay=0)
    lab.tutorial_button.value = True
    return lab


def test_the_progress_goes_to_the_browser_and_a_reload_gets_it_back(tutorial_app: LabApp) -> None:
    store = tutorial_app.panels.lessons.store
    assert store is not None and json.loads(store.stored)["index"] == {"speicherstadt": 0}
    tutorial_app.lesson_move("place 2")  # lesson 1 solved
    tutorial_app.lesson_next.click()
    tutorial_app.lesson_next.click()
    kept = json.loads(store.stored)
    assert kept == {"format": "speicherstadt-lab/lesson-progress/1", "set": "speicherstadt",
                    "index": {"speicherstadt": 2}, "done": {"speicherstadt": ["supply-and-demand"]}}
    again = fresh_tutorial()
    try:
        assert "Lesson 1 of 7" in again.lesson_progress.value
        assert again.panels.lessons.store.handle_message({"kind": "restore", "text": store.stored})
        assert "Lesson 3 of 7" in again.lesson_progress.value
        assert again.panels.lessons.lesson.id == "warehouse-and-market-hall"
        assert again.lesson_dots.value.count("ssl-dot done") == 1 and again.panels.lessons.store.last_error == ""
        assert json.loads(again.panels.lessons.store.stored) == kept  # kept again as it came
    finally:
        again.close()


BOGUS = [
    ("message", ["restore"]),
    ("kind", {"kind": "open", "text": "{}"}),
    ("text", {"kind": "restore", "text": 3}),
    ("text", {"kind": "restore", "text": "{not json"}),
    ("progress", {"kind": "restore", "text": "[1, 2]"}),
    ("format", {"kind": "restore", "text": '{"format": "x/1", "set": "speicherstadt"}'}),
    ("set", {"kind": "restore", "text": '{"format": "speicherstadt-lab/lesson-progress/1", "set": "chess"}'}),
    ("index.speicherstadt", {"kind": "restore", "text": '{"format": "speicherstadt-lab/lesson-progress/1", '
                             '"set": "speicherstadt", "index": {"speicherstadt": 7}}'}),
    ("index.speicherstadt", {"kind": "restore", "text": '{"format": "speicherstadt-lab/lesson-progress/1", '
                             '"set": "speicherstadt", "index": {"speicherstadt": true}}'}),
    ("done.packet_row[1]", {"kind": "restore", "text": '{"format": "speicherstadt-lab/lesson-progress/1", '
                            '"set": "speicherstadt", "done": {"packet_row": ["the-end", "fire"]}}'}),
    ("done.speicherstadt", {"kind": "restore", "text": '{"format": "speicherstadt-lab/lesson-progress/1", '
                            '"set": "speicherstadt", "done": {"speicherstadt": "fire"}}'}),
    ("cheat", {"kind": "restore", "text": '{"format": "speicherstadt-lab/lesson-progress/1", '
               '"set": "speicherstadt", "cheat": 1}'}),
]


@pytest.mark.parametrize(("field", "msg"), BOGUS, ids=[f"{f}-{i}" for i, (f, _m) in enumerate(BOGUS)])
def test_bogus_progress_from_the_browser_is_named_and_changes_nothing(tutorial_app: LabApp, field: str,
                                                                      msg: object) -> None:
    panel = tutorial_app.panels.lessons
    tutorial_app.lesson_move("place 2")
    store, board, progress, stored = panel.store, tutorial_app.lesson_board, panel.progress(), panel.store.stored
    state, feedback = board.state, tutorial_app.lesson_feedback.value
    assert not store.handle_message(msg)
    assert store.last_error.startswith(f"{field}:"), store.last_error
    assert panel.progress() == progress and store.stored == stored and tutorial_app.lesson_board is board
    assert board.state is state and tutorial_app.lesson_feedback.value == feedback


def test_a_lesson_a_link_names_stays_and_the_solved_ones_come_back() -> None:
    lab = LabApp(players=3, seed=1, threaded=False, chart_delay=0, query="lesson=fire")
    try:
        assert lab.panels.lessons.lesson.id == "fire"
        kept = Progress("kaispeicher", {"speicherstadt": 1, "kaispeicher": 3},
                        {"speicherstadt": {"supply-and-demand", "contracts"}})
        sets = lab.panels.lessons._set_ids()
        assert parse_progress(kept.to_json(), sets) == kept  # the text round-trips
        assert lab.panels.lessons.store.handle_message({"kind": "restore", "text": kept.to_json()})
        assert lab.panels.lessons.lesson.id == "fire" and "Lesson 5 of 7" in lab.lesson_progress.value
        assert lab.lesson_dots.value.count("ssl-dot done") == 2
        lab.lesson_set_choice.value = "kaispeicher"  # the other set's place came back too
        assert "Lesson 4 of 19" in lab.lesson_progress.value
    finally:
        lab.close()


SETS = {"speicherstadt": ["supply-and-demand", "purchase-and-price", "fire"], "packet_row": ["the-end"]}
JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 9) | st.sampled_from([*SETS, "fire", "x", ""]),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from([*SETS, "k"]), inner,
                                                                                max_size=3), max_leaves=6)


@given(part=st.sampled_from(["format", "set", "index", "done", "extra", "index.speicherstadt", "done.packet_row"]),
       value=JSON)
def test_progress_with_a_part_replaced_is_taken_whole_or_refused_naming_a_field(part: str, value: object) -> None:
    data: dict = {"format": "speicherstadt-lab/lesson-progress/1", "set": "speicherstadt",
                  "index": {"speicherstadt": 2}, "done": {"packet_row": ["the-end"]}}
    head, _, sub = part.partition(".")
    if sub:
        data[head][sub] = value
    else:
        data[head] = value
    try:
        got = parse_progress(json.dumps(data), SETS)
    except LessonStoreError as err:
        assert err.field and str(err).startswith(err.field)
        return
    assert got.current in SETS  # taken: every part names what exists
    assert all(0 <= n < len(SETS[k]) for k, n in got.index.items())
    assert all(ids <= set(SETS[k]) for k, ids in got.done.items())
