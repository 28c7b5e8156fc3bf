"""The Tutorial page's puzzle chooser: a theme and a difficulty narrow a puzzle set, Next stays inside the choice,
the score counts what was solved (and at the first try), in English and German; lesson sets show no chooser."""

from __future__ import annotations

from collections import Counter

import pytest

from speicherstadt_lab.puzzle_lessons import puzzle_lessons
from speicherstadt_lab.puzzles import shipped_variants
from speicherstadt_lab.ui.app import LabApp
from speicherstadt_lab.ui.app.puzzle_chooser import ALL_LEVELS, ALL_THEMES, PuzzleChooser, dot_window

KEY = "puzzles:speicherstadt"


def _chooser(tutorial_app: LabApp) -> PuzzleChooser:
    return tutorial_app.panels.lessons.puzzle_chooser


def test_a_theme_and_a_difficulty_narrow_the_set_and_next_stays_inside(tutorial_app: LabApp) -> None:
    every = puzzle_lessons("speicherstadt")
    themes = Counter(x.puzzle.theme for x in every)
    theme = min(themes, key=lambda k: (themes[k] < 2, -themes[k]))  # a theme with at least two puzzles
    tutorial_app.lesson_set_choice.value = KEY
    chooser = _chooser(tutorial_app)
    assert chooser.box.layout.display == "flex"
    names = {x.puzzle.theme: x.puzzle.theme_name("en") for x in every}
    assert [v for _label, v in chooser.theme.options] == [ALL_THEMES, *sorted(themes, key=names.__getitem__)]
    assert f"({len(every)})" in chooser.theme.options[0][0]  # how many puzzles each choice holds
    chooser.theme.value = theme
    mine = [x for x in every if x.puzzle.theme == theme]
    lessons = tutorial_app.panels.lessons
    assert lessons.lesson is mine[0] and f"Puzzle 1 of {len(mine)}" in tutorial_app.lesson_progress.value
    tutorial_app.lesson_next.click()
    assert lessons.lesson is mine[1] and "Puzzle 2 of" in tutorial_app.lesson_progress.value
    for _ in range(len(mine)):
        tutorial_app.lesson_next.click()
    assert lessons.lesson is mine[-1] and tutorial_app.lesson_next.disabled  # the last of the theme, not of the set
    levels = sorted({x.puzzle.difficulty for x in mine})
    assert [v for _label, v in chooser.difficulty.options] == [ALL_LEVELS, *levels]  # only the theme's levels
    chooser.difficulty.value = levels[-1]
    picked = [x for x in mine if x.puzzle.difficulty == levels[-1]]
    assert lessons.lesson in picked and f"of {len(picked)}" in tutorial_app.lesson_progress.value
    others = [k for k in themes if levels[-1] not in {x.puzzle.difficulty for x in every if x.puzzle.theme == k}]
    for other in others[:1]:  # a theme without that difficulty: every difficulty again, never an empty set
        chooser.theme.value = other
        assert chooser.choice(KEY) == (other, ALL_LEVELS) and lessons.lesson.puzzle.theme == other
    with pytest.raises(ValueError, match="no puzzle of theme 'luck'"):
        chooser.choose(KEY, "luck")
    assert lessons.lesson.puzzle.theme in themes  # nothing changed


def test_the_score_counts_solved_puzzles_and_first_tries_in_both_languages(tutorial_app: LabApp) -> None:
    tutorial_app.lesson_set_choice.value = KEY
    chooser = _chooser(tutorial_app)
    first = tutorial_app.panels.lessons.lesson
    total = len(puzzle_lessons("speicherstadt"))
    assert f"0 of {total} puzzles solved, 0 at the first try" in chooser.score.value
    assert tutorial_app.lesson_move(first.puzzle.best).ok
    assert f"1 of {total} puzzles solved, 1 at the first try" in chooser.score.value
    tutorial_app.lesson_next.click()
    second = tutorial_app.panels.lessons.lesson
    wrong = next(a for a in map(str, second.start().legal_actions()) if a not in second.puzzle.acceptable)
    assert not tutorial_app.lesson_move(wrong).ok
    tutorial_app.lesson_retry.click()
    assert tutorial_app.lesson_move(second.puzzle.best).ok
    assert f"2 of {total} puzzles solved, 1 at the first try" in chooser.score.value
    assert "session" in chooser.score.value  # what the number means, on hover
    tutorial_app.lang.value = "de"
    assert f"2 von {total} Rätseln gelöst, 1 beim ersten Versuch" in chooser.score.value
    assert chooser.theme.options[0][0].startswith("Alle Themen")
    choice = tutorial_app.lesson_set_choice
    choice.value = next(k for _label, k in choice.options if not k.startswith("puzzles:"))
    assert chooser.box.layout.display == "none"  # lessons have no themes to choose


def test_a_linked_puzzle_outside_the_choice_clears_it(tutorial_app: LabApp) -> None:
    every = puzzle_lessons("speicherstadt")
    tutorial_app.lesson_set_choice.value = KEY
    chooser = _chooser(tutorial_app)
    theme = every[0].puzzle.theme
    chooser.theme.value = theme
    outside = next(x for x in every if x.puzzle.theme != theme)
    assert tutorial_app.open_lesson(outside.id) and tutorial_app.panels.lessons.lesson is outside
    assert chooser.choice(KEY) == (ALL_THEMES, ALL_LEVELS) and chooser.theme.value == ALL_THEMES


def test_the_dots_are_a_window_around_the_puzzle_shown() -> None:
    assert dot_window(5, 2) == range(5)
    assert dot_window(300, 0) == range(30) and dot_window(300, 299) == range(270, 300)
    assert dot_window(300, 100) == range(85, 115)


@pytest.mark.parametrize("variant", shipped_variants())
def test_every_shipped_puzzle_set_is_on_the_page_and_solvable(tutorial_app: LabApp, variant: str) -> None:
    assert f"puzzles:{variant}" in [k for _label, k in tutorial_app.lesson_set_choice.options]  # the variant's key
    tutorial_app.lesson_set_choice.value = f"puzzles:{variant}"
    lesson = tutorial_app.panels.lessons.lesson
    assert lesson is puzzle_lessons(*_game_of(variant))[0] and _chooser(tutorial_app).box.layout.display == "flex"
    assert tutorial_app.lesson_board.state.to_dict() == lesson.puzzle.position
    assert tutorial_app.lesson_move(lesson.puzzle.best).ok and "Well done" in tutorial_app.lesson_feedback.value


def _game_of(variant: str) -> tuple[str, str | None]:
    return ("speicherstadt", "kaispeicher") if variant == "kaispeicher" else (variant, None)
