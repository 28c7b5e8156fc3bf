"""A shipped puzzle solved by a click in a real browser (Voilà and Debian's Chromium at 1280×800): the puzzle set
beside the lessons on the Tutorial page, the task beside the board, the right move clicked on the board, and the
verdict with the explanation's numbers in view. The page waits for the app's own state, never for time."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from speicherstadt_lab.puzzle_lessons import puzzle_lessons
from tests.support.browser import VIEWPORT, settle, wait_text

BOARD = ".ssl-lessons .ssl-board"
FEEDBACK = ".ssl-lessons .ssl-lesson-feedback"
PROGRESS = ".ssl-lessons .ssl-lesson-progress"


def test_a_puzzle_solved_by_a_click(tutorial_session: dict[str, Any]) -> None:
    page: Page = tutorial_session["page"]
    found = puzzle_lessons("speicherstadt")
    n, lesson = next((i, x) for i, x in enumerate(found, start=1) if x.puzzle.best.startswith("place "))
    page.select_option(".ssl-lessons .ssl-lesson-sets select", label="Puzzles: Die Speicherstadt")
    settle(page)
    wait_text(page, PROGRESS, f"of {len(found)}")
    for _ in range(n - 1):
        page.click(".ssl-lessons button.ssl-lesson-next")
        settle(page)
    wait_text(page, PROGRESS, f"Puzzle {n} of {len(found)}")
    assert "find the clearly best move" in page.locator(".ssl-lessons .ssl-lesson-task").inner_text()
    space = lesson.puzzle.best.split()[1]
    page.click(f'{BOARD} .ssl-col[data-space="{space}"]')
    settle(page)
    wait_text(page, FEEDBACK, "Well done")
    feedback = page.locator(FEEDBACK).inner_text()
    assert f"{100 * lesson.puzzle.margin:.0f} percentage points" in feedback and "play-outs" in feedback
    box = page.locator(f"{FEEDBACK} .ok").bounding_box()
    assert box is not None and box["y"] + box["height"] <= VIEWPORT["height"]  # the verdict without scrolling
    assert page.locator(".ssl-lessons .ssl-lesson-dots .ssl-dot.done.here").count() == 1  # the session's score
    assert not tutorial_session["errors"], tutorial_session["errors"]


def test_a_theme_and_a_difficulty_picked_then_solved_with_the_score(tutorial_session: dict[str, Any]) -> None:
    page: Page = tutorial_session["page"]
    found = puzzle_lessons("speicherstadt")
    maybe_shown = {found[0].id, next(x.id for x in found if x.puzzle.best.startswith("place "))}  # what may be up
    pairs = sorted({(x.puzzle.theme, x.puzzle.difficulty) for x in found})
    theme, level, picked = next((k, d, sub) for k, d in pairs
                                if (sub := [x for x in found if (x.puzzle.theme, x.puzzle.difficulty) == (k, d)])
                                and sub[0].puzzle.best.startswith("place ") and not {x.id for x in sub} & maybe_shown)
    in_theme = [x for x in found if x.puzzle.theme == theme]
    page.select_option(".ssl-lessons .ssl-lesson-sets select", label="Puzzles: Die Speicherstadt")
    settle(page)
    name = picked[0].puzzle.theme_name("en")
    page.select_option(".ssl-lessons .ssl-puzzle-theme select", label=f"{name} ({len(in_theme)})")
    settle(page)
    wait_text(page, PROGRESS, f"of {len(in_theme)}")
    page.select_option(".ssl-lessons .ssl-puzzle-difficulty select", label=f"Difficulty {level} of 4 ({len(picked)})")
    settle(page)
    wait_text(page, PROGRESS, f"Puzzle 1 of {len(picked)}")
    wait_text(page, ".ssl-lessons .ssl-puzzle-score", f"0 of {len(picked)} puzzles solved")
    assert name.lower() in page.locator(".ssl-lessons .ssl-lesson-task").inner_text().lower()
    space = picked[0].puzzle.best.split()[1]
    page.click(f'{BOARD} .ssl-col[data-space="{space}"]')
    settle(page)
    wait_text(page, FEEDBACK, "Well done")
    wait_text(page, ".ssl-lessons .ssl-puzzle-score", f"1 of {len(picked)} puzzles solved, 1 at the first try")
    for part in (".ssl-lessons .ssl-puzzle-theme select", ".ssl-lessons .ssl-puzzle-difficulty select",
                 ".ssl-lessons .ssl-puzzle-score", f"{FEEDBACK} .ok"):
        box = page.locator(part).first.bounding_box()
        assert box is not None and box["x"] + box["width"] <= VIEWPORT["width"]  # at 1280×800, no scrolling
        assert box["y"] + box["height"] <= VIEWPORT["height"], part
    assert not tutorial_session["errors"], tutorial_session["errors"]
