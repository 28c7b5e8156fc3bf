"""Practising puzzles in a real browser (Voilà with the settings ``make app`` serves, Debian's Chromium): the session's
puzzle score survives a reload of the page (a new kernel, the same tab), and "Show me" steps the board through the
best line, back along it and back to the puzzle, the board refusing the learner's moves meanwhile: for a puzzle of
each game (Die Speicherstadt, Kaispeicher, Packet Row), at 1280×800 in English and in projector mode at 1280×720 in
German, its button and the played line in view. The page is waited on through the app's own state, never for time."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page

from speicherstadt_lab.puzzle_lessons import PuzzleLesson, puzzle_lesson
from speicherstadt_lab.puzzles import load_puzzles
from speicherstadt_lab.ui.app.puzzle_line import SEED
from speicherstadt_lab.ui.app.puzzle_line import t as line_text
from tests.support.browser import VIEWPORT, is_offline_noise, settle, voila_server, wait_text
from tests.support.layout import in_view, set_lang
from tests.support.move_clicks import click_move, clickable

TIMEOUT = 120_000  # ms: a page's first load starts a kernel
SMALL = {"width": 1280, "height": 720}
LESSONS = ".ssl-lessons"
BOARD = f"{LESSONS} .gb-board"  # either game's drawn board (.ssl-board, .prb-board)
DRAWN = f"{BOARD} .ssl-top, {BOARD} .prb-top"  # its header: the board is drawn
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


def walk_puzzle(variant: str = "speicherstadt") -> tuple[PuzzleLesson, str]:
    """A shipped puzzle of ``variant`` whose answer and a legal move that does not solve it are clicks on the board
    (a placement, a card taken, a board chosen, a decline), with a line of more than two moves; and that wrong move."""
    for p in load_puzzles(variant):
        wrong = [a for a in map(str, p.state.legal_actions()) if clickable(a) and a not in p.acceptable]
        lesson = puzzle_lesson(p)
        if clickable(p.best) and wrong and len(lesson.line(seed=SEED)) > 2:
            return lesson, wrong[0]
    raise AssertionError(f"no shipped {variant} puzzle is answered by a click the test knows")


def open_puzzle(page: Page, url: str | None, lesson: PuzzleLesson, kept: str) -> None:
    """Open ``lesson`` by its link (``url`` None: reload the page), once its board is drawn and the tab's progress
    store has reported what it keeps (``kept``: "stored" or "none") to a kernel that has handled it."""
    if url is None:
        page.reload(timeout=TIMEOUT)
    else:
        page.goto(url, timeout=TIMEOUT)
    page.wait_for_selector(DRAWN, state="visible", timeout=TIMEOUT)
    page.wait_for_selector(f'.ssl-lesson-store[data-reported="{kept}"]', state="attached", timeout=TIMEOUT)
    settle(page)
    wait_text(page, f"{LESSONS} h2", lesson.puzzle.theme_name("de" if "lang=de" in page.url else "en"))


def play(page: Page, action: str) -> None:
    """Click ``action`` on the lesson's board and wait for the kernel."""
    click_move(page, BOARD, action)
    settle(page)


def wait_match(page: Page, selector: str, pattern: str) -> None:
    """Until the first element ``selector`` finds has text matching the regular expression ``pattern``."""
    page.wait_for_function("([s, p]) => new RegExp(p).test(document.querySelector(s)?.innerText || '')",
                           arg=[selector, pattern], timeout=TIMEOUT)


def test_the_puzzle_score_comes_back_after_a_reload(server: str, tabs: Any) -> None:
    page, errors = tabs(VIEWPORT)
    lesson, wrong = walk_puzzle()
    open_puzzle(page, f"{server}?lesson={lesson.id}", lesson, "none")
    wait_match(page, SCORE, r"\b0 of \d+ puzzles solved, 0 at the first try")
    play(page, wrong)
    wait_text(page, f"{LESSONS} .ssl-lesson-feedback", "Not quite")
    page.click(f"{LESSONS} button.ssl-lesson-retry")
    settle(page)
    play(page, lesson.puzzle.best)
    wait_text(page, f"{LESSONS} .ssl-lesson-feedback", "Well done")
    wait_match(page, SCORE, r"\b1 of \d+ puzzles solved, 0 at the first try")
    open_puzzle(page, None, lesson, "stored")  # a reload: a new kernel, the same tab
    wait_match(page, SCORE, r"\b1 of \d+ puzzles solved, 0 at the first try")  # the wrong try is remembered too
    assert page.locator(f"{LESSONS} .ssl-lesson-dots .ssl-dot.done.here").count() == 1
    assert not errors, errors


def board_text(page: Page) -> str:
    """The board's text without its error banner."""
    return page.evaluate("s => { const hid = [...document.querySelectorAll(s + ' .gb-error')]; "
                         "hid.forEach(e => { e.style.display = 'none'; }); "
                         "const t = document.querySelector(s).innerText; "
                         "hid.forEach(e => { e.style.display = ''; }); return t; }", BOARD)


def step_through(page: Page, lesson: PuzzleLesson, lang: str, start: str) -> list[str]:
    """Press "Show me", check every move of the line in words and the board at each, step back along it to its start,
    where a move clicked on the board is refused, then go back to the puzzle (``start``: the board's text at the
    puzzle's position); what of the button and the line was not wholly in the window (the button before, the line
    after the press)."""
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
        board = board_text(page)
        assert board not in seen, f"the board did not change at move {n}"  # each move shown on the board
        seen.append(board)
    assert page.locator(f"{LESSONS} button.ssl-line-next").is_disabled()
    for n in range(len(steps) - 1, -1, -1):  # ◀ back along the line to its start, the board as it was at each move
        page.click(f"{LESSONS} button.ssl-line-prev")
        settle(page)
        assert page.locator(f"{LINE} li.here").count() == (1 if n else 0)
        assert board_text(page) == seen[n], f"the board at move {n} going back differs from going forward"
    assert page.locator(f"{LESSONS} button.ssl-line-prev").is_disabled()
    assert page.inner_text(f"{LINE} .ssl-line-at") == line_text(lang, "at_start")
    click_move(page, BOARD, lesson.puzzle.best)  # the learner to move at the line's start: the board refuses it
    settle(page)
    wait_text(page, f"{BOARD} .gb-error", line_text(lang, "showing"))
    assert board_text(page) == start and page.locator(LINE).is_visible()
    other = "de" if lang == "en" else "en"
    set_lang(page, other)  # the refusal follows the page's language, as the board's own messages do
    wait_text(page, f"{BOARD} .gb-error", line_text(other, "showing"))
    set_lang(page, lang)
    wait_text(page, f"{BOARD} .gb-error", line_text(lang, "showing"))
    page.click(f"{LESSONS} button.ssl-line-back")
    settle(page)
    page.wait_for_selector(LINE, state="hidden", timeout=TIMEOUT)
    assert page.inner_text(BOARD) == start  # the puzzle's own position again, the refusal gone
    task = page.inner_text(f"{LESSONS} .ssl-lesson-task")
    assert lesson.puzzle.state.seat_name(lesson.seat, lang) in task  # ready for a try of the learner's own
    return out


# How "Show me" is walked: the window, what the link adds, the language, and the learner's first try (right or wrong)
# with the verdict it gets.
SETTINGS = {
    "1280x800-en": (VIEWPORT, "", "en", False, "Not quite"),
    "1280x720-projector-de": (SMALL, "projector=1&lang=de&", "de", True, "Gut gemacht"),
}


# Die Speicherstadt in both settings; each other game in one, so every game and every setting is walked while the suite
# pays for four page loads, not six (a walk costs 25-48 s, mostly the kernel's start).
WALKS = [("speicherstadt", "1280x800-en"), ("speicherstadt", "1280x720-projector-de"),
         ("kaispeicher", "1280x720-projector-de"), ("packet_row", "1280x800-en")]


@pytest.mark.parametrize(("variant", "setting"), WALKS)
def test_show_me_steps_the_board_through_the_best_line_and_back(server: str, tabs: Any, variant: str,
                                                                setting: str) -> None:
    viewport, query, lang, right, verdict = SETTINGS[setting]
    page, errors = tabs(viewport)
    lesson, wrong = walk_puzzle(variant)
    open_puzzle(page, f"{server}?{query}lesson={lesson.id}", lesson, "none")
    if "projector" in query:
        page.wait_for_selector(".ssl-app.ssl-projector", state="attached", timeout=TIMEOUT)
    assert page.locator(f"{LESSONS} button.ssl-puzzle-show").is_hidden()  # not before a try
    start = page.inner_text(BOARD)
    play(page, lesson.puzzle.best if right else wrong)
    wait_text(page, f"{LESSONS} .ssl-lesson-feedback", verdict)
    assert page.inner_text(f"{LESSONS} button.ssl-puzzle-show") == {"en": "Show me", "de": "Zeig es mir"}[lang]
    bad = step_through(page, lesson, lang, start)
    assert not bad, f"Show me on {variant} at {setting}:\n" + "\n".join(bad)
    assert not errors, errors
