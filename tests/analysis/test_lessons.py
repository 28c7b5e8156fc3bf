"""Guided lessons: every shipped lesson is solvable, its check accepts the solution and refuses a wrong move, and a
lesson file that is wrong is refused with an error naming the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.lessons import LESSON_FORMAT, LessonError, lesson_ids, lesson_names, shipped_lesson
from tests.support.paths import REPO

GAMES = [("speicherstadt", None), ("speicherstadt", "kaispeicher"), ("packet_row", None)]
ALL = [lesson for game, exp in GAMES for lesson in sl.lessons(game, exp)]


def test_every_game_has_its_lessons_in_order() -> None:
    ids = {(g, e): [x.id for x in sl.lessons(g, e)] for g, e in GAMES}
    assert ids[("speicherstadt", None)] == ["supply-and-demand", "purchase-and-price", "warehouse-and-market-hall",
                                             "contracts", "fire", "income", "the-end-and-scoring"]
    assert ids[("speicherstadt", "kaispeicher")][0] == "top-row-and-reserving" and len(ids[("speicherstadt",
                                                                                            "kaispeicher")]) >= 5
    assert ids[("packet_row", None)] == ["choosing-a-board", "taking-cards", "the-assistant", "contracts-and-ships",
                                         "the-end"]
    assert len(ALL) == len(lesson_names()) and len({x.id for x in ALL}) == len(ALL)
    assert sorted(lesson_ids()) == sorted(x.id for x in ALL)
    assert shipped_lesson("speicherstadt-05-fire") is shipped_lesson("fire")  # by file name or by id


@pytest.mark.parametrize("lesson", ALL, ids=lambda x: x.id)
def test_the_solution_does_the_task_and_the_wrong_move_does_not(lesson: sl.Lesson) -> None:
    start = lesson.start()
    assert start.to_move == lesson.seat and start.game == lesson.game
    before = start.to_json()
    right, wrong = lesson.check_solution()
    assert right.ok and not right.failed, lesson.id
    assert not wrong.ok and wrong.failed, lesson.id
    assert right.action != wrong.action
    assert start.to_json() == before  # judging never changes the position it started from
    assert right.happened("en") and right.happened("de") != right.happened("en")
    # after the bots' replies the learner decides again, or the game is over: the prompt follows the seat to move
    assert right.after.is_over or right.after.to_move == lesson.seat


@pytest.mark.parametrize("lesson", ALL, ids=lambda x: x.id)
def test_every_text_is_in_both_languages(lesson: sl.Lesson) -> None:
    for key in ("title", "text", "task", "hint", "explanation"):
        assert lesson.say(key, "en") and lesson.say(key, "de") and lesson.say(key, "en") != lesson.say(key, "de")
    assert lesson.rule_ref("de") and lesson.rule_text("en") != lesson.rule_text("de")


def test_an_illegal_move_is_the_rules_refusal_and_changes_nothing() -> None:
    lesson = sl.lessons("speicherstadt")[0]
    state = lesson.start()
    with pytest.raises(sl.IllegalAction) as err:
        lesson.judge(state, "buy")
    assert err.value.rule == "phase"
    assert lesson.judge(state, "place 2").ok  # the same position still takes the right move


def _data(name: str = "speicherstadt-02-purchase-and-price") -> dict:
    return json.loads(json.dumps(shipped_lesson(name).data))


def test_a_teacher_writes_a_lesson_and_loads_it(tmp_path: Path) -> None:
    data = _data()
    data.update(id="buy-it", task={"en": "Buy the Vulcanizer.", "de": "Kaufe den Vulkaniseur."},
                check={"all": [{"move": "buy"}, {"field": "coins", "change": -3},
                               {"field": "player.cards", "op": "has", "value": "vulcanizer"}]},
                solution=["buy"], wrong=["pass"])
    path = tmp_path / "buy-it.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    lesson = sl.load_lesson(path)
    right, wrong = lesson.check_solution()
    assert lesson.id == "buy-it" and right.ok and not wrong.ok
    assert sl.load_lesson(data).task["de"] == "Kaufe den Vulkaniseur."


@pytest.mark.parametrize(("change", "field"), [
    ({"format": "x"}, "format"),
    ({"title": {"en": "Only English"}}, "title"),
    ({"hint": {"en": "a", "fr": "b"}}, "hint.fr"),
    ({"check": {"move": "buy", "event": "buy"}}, "check"),
    ({"check": {"all": [{"move": "buy"}, {"field": "coins", "op": "≈", "value": 1}]}}, "check.all[1].op"),
    ({"check": {"field": "gold", "value": 1}}, "check.field"),
    ({"check": {"field": "coins", "value": 1, "change": 1}}, "check"),
    ({"check": {"event": "buy", "args": [1]}}, "check.args"),
    ({"check": {"not": {"move": ""}}}, "check.not.move"),
    ({"check": {"move": "buy", "when": "later"}}, "check.when"),
    ({"position": {"scenario": "no-such-scenario"}}, "position.scenario"),
    ({"position": {"scenario": "tutorial-2-purchase", "moves": ["place 9"]}}, "position.moves[0]"),
    ({"seat": 7}, "seat"),
    ({"seat": True}, "seat"),
    ({"rule": {"ref": {"en": "x", "de": "y"}}}, "rule.text"),
    ({"surprise": 1}, "surprise"),
    ({"bots": "genius"}, "bots"),
    ({"order": "first"}, "order"),
    ({"expansion": "kaispeicher"}, "expansion"),
    ({"game": "packet_row"}, "game"),
])
def test_a_wrong_lesson_names_the_field(change: dict, field: str) -> None:
    data = _data()
    data.update(change)
    with pytest.raises(LessonError) as err:
        sl.load_lesson(data)
    assert err.value.field == field, err.value
    assert field in str(err.value)


def test_lessons_are_read_as_json_only(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("not json {", encoding="utf-8")
    with pytest.raises(LessonError, match="not JSON"):
        sl.load_lesson(path)
    assert _data()["format"] == LESSON_FORMAT


def test_lessons_ship_in_the_wheel() -> None:
    import tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"] == ["speicherstadt_lab"]
    assert all((Path(sl.__file__).parent / "data" / "lessons" / f"{n}.json").is_file() for n in lesson_names())


def test_the_feedback_puts_the_move_and_what_the_task_is_about_first() -> None:
    lesson = shipped_lesson("fire")
    right, _wrong = lesson.check_solution()
    assert lesson.event_keys() == {"fire"}
    marked = right.marked("en", lesson.event_keys(), lesson.seat)
    first = [text for text, key in marked if key]
    rest = [text for text, key in marked if not key]
    assert first[0] == "Red pays 2 coins for the Fireman." and any(t.startswith("1st Fire") for t in first)
    assert rest and not any(t.startswith("Red") for t in rest)  # the others' moves after it wait behind a click
    assert [t for t, _k in marked] == right.happened("en")
