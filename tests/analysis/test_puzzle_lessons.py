"""The shipped puzzles as lessons: every puzzle's best move solves it, a move outside ``acceptable`` does not."""

from __future__ import annotations

import pytest

from speicherstadt_lab.engine.errors import IllegalAction
from speicherstadt_lab.puzzle_lessons import puzzle_lessons, puzzle_variants

VARIANTS = puzzle_variants()


def test_some_variant_ships_puzzles() -> None:
    assert ("speicherstadt", None) in VARIANTS


@pytest.mark.parametrize(("game", "expansion"), VARIANTS)
def test_every_shipped_puzzle_takes_its_best_move_and_refuses_another(game: str, expansion: str | None) -> None:
    found = puzzle_lessons(game, expansion)
    assert found and [x.number for x in found] == list(range(1, len(found) + 1))
    for lesson in found:
        p = lesson.puzzle
        start = lesson.start()
        assert start.to_move == lesson.seat == p.seat
        verdict = lesson.judge(start, p.best)
        assert verdict.ok and verdict.action == p.best and not verdict.failed
        wrong = [a for a in map(str, start.legal_actions()) if a not in p.acceptable]
        assert wrong, p.id  # a puzzle has a move that does not solve it
        miss = lesson.judge(lesson.start(), wrong[0])
        assert not miss.ok and miss.failed and miss.action == wrong[0]
        assert lesson.start().to_dict() == start.to_dict()  # judging changed nothing of the puzzle's position


def test_texts_in_both_languages_with_the_numbers() -> None:
    lesson = puzzle_lessons("speicherstadt")[0]
    p = lesson.puzzle
    for lang, word in (("en", "Puzzle 1"), ("de", "Rätsel 1")):
        assert lesson.say("title", lang).startswith(word) and p.theme_name(lang) in lesson.say("title", lang)
        assert lesson.say("task", lang) == p.task(lang) and lesson.say("explanation", lang) == p.explanation(lang)
        assert f"{100 * p.margin:.0f}" in lesson.say("explanation", lang)
        assert p.theme_name(lang) in lesson.say("hint", lang) and p.theme_name(lang) in lesson.rule_ref(lang)


def test_an_illegal_move_is_refused_by_the_rules() -> None:
    lesson = puzzle_lessons("speicherstadt")[0]
    with pytest.raises(IllegalAction):
        lesson.judge(lesson.start(), "place 99")
