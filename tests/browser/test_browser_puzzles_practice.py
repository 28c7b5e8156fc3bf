"""Practising puzzles in a real browser (Voilà with the settings ``make app`` serves, Debian's Chromium): the session's
puzzle score survives a reload of the page (a new kernel, the same tab), and "Show me" steps the board through the
best line and back to the puzzle, at 1280×800 in English and in projector mode at 1280×720 in German, its button
and the played line in view. The page is waited on through the app's own state, never for time."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page

from speicherstadt_lab.puzzle_lessons import PuzzleLesson, puzzle_lesson
from speicherstadt_lab.puzzles import load_puzzles
from speicherstadt_lab.ui.app.puzzle_line import SEED
from tests.support.browser import VIEWPORT, is_offline_noise, settle, voila_server, wait_text
from tests.support.layout import in_view

TIMEOUT = 120_000  # ms: a page's first load starts a kernel
SMALL = {"width": 1280, "height": 720}
LESSONS = ".ssl-lessons"
BOARD = f"{LESSONS} .ssl-board"
SCORE = f"{LESSONS} .ssl-puzzle-score"
LINE = f"{LESSONS} .ssl-puzzle-line-box"


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with voila_server(shipped_settings=True) as url:
        yield url


@pytest.fixture()
def tabs(browser: Any) -> Iterator[Any]:
    """``open_tab(viewport)``: a page in a fresh browser context (its own sessionStorage) and the errors its pages
    log; every context is closed after the test."""
    contexts: list[Any] = []

    def open_tab(viewport: dict[str, int]) -> tuple[Page, list[str]]:
        context = browser.new_context(viewport=viewport)
        contexts.append(context)
        errors: list[str] = []
        page = context.new_page()
        page.on("console", lambda m: errors.append(f"{m.text} @ {m.location.get('url', '')}")
                if m.type == "error" and not is_offline_noise(m.text, m.location.get("url", "")) else None)
        page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
        return page, errors

    yield open_tab
    for context in contexts:
        context.close()


def place_puzzle() -> tuple[PuzzleLesson, str]:
    """A shipped base-game puzzle answered by placing a worker, and a legal placement that does not solve it."""
    for p in load_puzzles("speicherstadt"):
        wrong = [a for a in map(str, p.state.legal_actions()) if a.startswith("place ") and a not in p.acceptable]
        if p.best.startswith("place ") and wrong:
            return puzzle_lesson(p), wrong[0]
    raise AssertionError("no shipped puzzle is answered by a placement")


def open_puzzle(page: Page, url: str | None, lesson: PuzzleLesson, kept: str) -> None:
    """Open ``lesson`` by its link (``url`` None: reload the page), once its board is drawn and the tab's progress
    store has reported what it keeps (``kept``: "stored" or "none") to a kernel that has handled it."""
    if url is None:
        page.reload(timeout=TIMEOUT)
    else:
        page.goto(url, timeout=TIMEOUT)
    page.wait_for_selector(f"{BOARD} .ssl-top", state="visible", timeout=TIMEOUT)
    page.wait_for_selector(f'.ssl-lesson-store[data-reported="{kept}"]', state="attached", timeout=TIMEOUT)
    settle(page)
    wait_text(page, f"{LESSONS} h2", lesson.puzzle.theme_name("de" if "lang=de" in page.url else "en"))


def place(page: Page, action: str) -> None:
    """Click the water space of ``action`` (``place N``) on the lesson's board and wait for the kernel."""
    page.click(f'{BOARD} .ssl-col[data-space="{action.split()[1]}"]', timeout=TIMEOUT)
    settle(page)


def wait_match(page: Page, selector: str, pattern: str) -> None:
    """Until the first element ``selector`` finds has text matching the regular expression ``pattern``."""
    page.wait_for_function("([s, p]) => new RegExp(p).test(document.querySelector(s)?.innerText || '')",
                           arg=[selector, pattern], timeout=TIMEOUT)


def test_the_puzzle_score_comes_back_after_a_reload(server: str, tabs: Any) -> None:
    page, errors = tabs(VIEWPORT)
    lesson, wrong = place_puzzle()
    open_puzzle(page, f"{server}?lesson={lesson.id}", lesson, "none")
    wait_match(page, SCORE, r"\b0 of \d+ puzzles solved, 0 at the first try")
    place(page, wrong)
    wait_text(page, f"{LESSONS} .ssl-lesson-feedback", "Not quite")
    page.click(f"{LESSONS} button.ssl-lesson-retry")
    settle(page)
    place(page, lesson.puzzle.best)
    wait_text(page, f"{LESSONS} .ssl-lesson-feedback", "Well done")
    wait_match(page, SCORE, r"\b1 of \d+ puzzles solved, 0 at the first try")
    open_puzzle(page, None, lesson, "stored")  # a reload: a new kernel, the same tab
    wait_match(page, SCORE, r"\b1 of \d+ puzzles solved, 0 at the first try")  # the wrong try is remembered too
    assert page.locator(f"{LESSONS} .ssl-lesson-dots .ssl-dot.done.here").count() == 1
    assert not errors, errors


def step_through(page: Page, lesson: PuzzleLesson, lang: str, start: str) -> list[str]:
    """Press "Show me", check every move of the line in words and the board at each, then go back to the puzzle
    (``start``: the board's text at the puzzle's position); what of the button and the line was not wholly in the
    window (the button before, the line after the press)."""
    steps = lesson.line(seed=SEED)
    out = [x for x in (in_view(page, f"{LESSONS} button.ssl-puzzle-show"),) if x]
    page.click(f"{LESSONS} button.ssl-puzzle-show", timeout=TIMEOUT)
    settle(page)
    page.wait_for_selector(LINE, state="visible", timeout=TIMEOUT)
    out += [x for x in (in_view(page, LINE), in_view(page, f"{LESSONS} button.ssl-line-back")) if x]
    where = page.inner_text(f"{LINE} .ssl-line-at")
    assert re.search(r"(move|Zug) 1 (of|von) \d", where), where
    items = page.locator(f"{LINE} li")
    assert items.count() == len(steps)
    for i, step in enumerate(steps):
        assert step.words(lang) in items.nth(i).inner_text()
        assert items.nth(i).get_attribute("title") == step.action  # the notation on hover
    seen = [start]
    for n in range(1, len(steps) + 1):
        if n > 1:
            page.click(f"{LESSONS} button.ssl-line-next")
            settle(page)
        here = page.locator(f"{LINE} li.here")
        assert here.count() == 1 and steps[n - 1].words(lang) in here.inner_text()
        board = page.inner_text(BOARD)
        assert board not in seen, f"the board did not change at move {n}"  # each move shown on the board
        seen.append(board)
    assert page.locator(f"{LESSONS} button.ssl-line-next").is_disabled()
    page.click(f"{LESSONS} button.ssl-line-back")
    settle(page)
    page.wait_for_selector(LINE, state="hidden", timeout=TIMEOUT)
    assert page.inner_text(BOARD) == start  # the puzzle's own position again
    task = page.inner_text(f"{LESSONS} .ssl-lesson-task")
    assert lesson.puzzle.state.seat_name(lesson.seat, lang) in task  # ready for a try of the learner's own
    return out


def test_show_me_steps_the_board_through_the_best_line_and_back(server: str, tabs: Any) -> None:
    page, errors = tabs(VIEWPORT)
    lesson, wrong = place_puzzle()
    open_puzzle(page, f"{server}?lesson={lesson.id}", lesson, "none")
    assert page.locator(f"{LESSONS} button.ssl-puzzle-show").is_hidden()  # not before a try
    start = page.inner_text(BOARD)
    place(page, wrong)
    wait_text(page, f"{LESSONS} .ssl-lesson-feedback", "Not quite")
    bad = step_through(page, lesson, "en", start)
    assert not bad, "Show me at 1280×800:\n" + "\n".join(bad)
    assert not errors, errors


def test_show_me_in_projector_mode_at_1280x720_in_german(server: str, tabs: Any) -> None:
    page, errors = tabs(SMALL)
    lesson, _wrong = place_puzzle()
    open_puzzle(page, f"{server}?projector=1&lang=de&lesson={lesson.id}", lesson, "none")
    page.wait_for_selector(".ssl-app.ssl-projector", state="attached", timeout=TIMEOUT)
    start = page.inner_text(BOARD)
    place(page, lesson.puzzle.best)  # a right try this time
    wait_text(page, f"{LESSONS} .ssl-lesson-feedback", "Gut gemacht")
    assert page.inner_text(f"{LESSONS} button.ssl-puzzle-show") == "Zeig es mir"
    bad = step_through(page, lesson, "de", start)
    assert not bad, "Show me at 1280×720 in projector mode:\n" + "\n".join(bad)
    assert not errors, errors
