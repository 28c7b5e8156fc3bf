"""A shipped puzzle solved by a click in a real browser (Voilà and Debian's Chromium at 1280×800): the puzzle set
beside the lessons on the Tutorial page, the task beside the board, the right move clicked on the board, and the
verdict with the explanation's numbers in view. The page waits for the app's own state, never for time."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, sync_playwright

from speicherstadt_lab.puzzle_lessons import puzzle_lessons
from tests.support.browser import VIEWPORT, app_session, settle, voila_server

TIMEOUT = 30_000  # ms for one step
BOARD = ".ssl-lessons .ssl-board"
FEEDBACK = ".ssl-lessons .ssl-lesson-feedback"
PROGRESS = ".ssl-lessons .ssl-lesson-progress"


@pytest.fixture(scope="module")
def session() -> Iterator[dict[str, Any]]:
    with voila_server() as url, sync_playwright() as p, app_session(url, p) as s:
        page: Page = s["page"]
        page.click(".ssl-topbar .ssl-tutorial-btn")
        page.wait_for_selector(f"{BOARD} .ssl-top", state="visible", timeout=TIMEOUT)
        settle(page)
        yield s


def wait_text(page: Page, selector: str, part: str) -> None:
    """Until the element's text holds ``part`` (the kernel's answer drawn)."""
    page.wait_for_function("([s, t]) => (document.querySelector(s)?.innerText || '').includes(t)", arg=[selector, part],
                           timeout=TIMEOUT)


def test_a_puzzle_solved_by_a_click(session: dict[str, Any]) -> None:
    page: Page = session["page"]
    found = puzzle_lessons("speicherstadt")
    n, lesson = next((i, x) for i, x in enumerate(found, start=1) if x.puzzle.best.startswith("place "))
    page.click(".ssl-lessons .widget-toggle-buttons button:has-text('Puzzles: Die Speicherstadt')")
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
    assert not session["errors"], session["errors"]
