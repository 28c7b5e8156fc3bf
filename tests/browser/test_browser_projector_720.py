"""The projector mode on a small projector, 1280×720, in a real browser (Voilà, Debian's Chromium): for each game and
on the Tutorial page nothing scrolls sideways, the current task (the board's head; the lesson's task) and every
target of the decision on the board are inside the window, and after a lesson's move its feedback is too."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page

from speicherstadt_lab.lessons import shipped_lesson
from tests.support.browser import is_offline_noise, settle, voila_server
from tests.support.layout import OUT_OF_VIEW, TARGETS, in_view

SMALL = {"width": 1280, "height": 720}
TIMEOUT = 60_000
ANY_BOARD = ".ssl-board .ssl-top, .prb-board .prb-top"
# What says whose decision it is and what it is about: the board's head ("Red: place a worker above a card") in
# Die Speicherstadt; the head and the round's status panel in Packet Row.
TASK = {"speicherstadt": (".ssl-board .ssl-top",),
        "packet_row": (".prb-board .prb-top", ".prb-board .prb-status")}

# Whether the page scrolls sideways.
SIDEWAYS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with voila_server() as url:
        yield url


@pytest.fixture()
def page(browser: Any) -> Iterator[tuple[Page, list[str]]]:
    """A fresh page at 1280×720 with the errors it logs."""
    context = browser.new_context(viewport=SMALL)
    got = context.new_page()
    errors: list[str] = []
    got.on("console", lambda m: errors.append(m.text) if m.type == "error"
           and not is_offline_noise(m.text, m.location.get("url", "")) else None)
    got.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    yield got, errors
    context.close()


def open_link(page: Page, url: str) -> None:
    page.goto(url, timeout=120_000)
    page.wait_for_function("s => [...document.querySelectorAll(s)].some(e => e.getClientRects().length)", arg=ANY_BOARD,
                           timeout=120_000)
    page.wait_for_selector(".ssl-app.ssl-projector", timeout=TIMEOUT)
    settle(page)


def fits(page: Page, board: str, where: str) -> list[str]:
    """What does not fit at 1280×720: sideways scrolling, board targets outside the window."""
    bad = []
    sideways = page.evaluate(SIDEWAYS)
    if sideways > 0:
        bad.append(f"{where}: the page scrolls sideways by {sideways} px")
    got = page.evaluate(OUT_OF_VIEW, TARGETS[board])
    if got["n"] == 0:
        bad.append(f"{where}: the board marks no target")
    bad += [f"{where}: {x}" for x in got["out"]]
    return bad


@pytest.mark.parametrize("game", ["speicherstadt", "kaispeicher", "packet_row"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_projector_mode_fits_1280x720_with_the_task_and_the_targets_in_view(
        server: str, page: tuple[Page, list[str]], game: str, lang: str) -> None:
    p, errors = page
    open_link(p, f"{server}?projector=1&game={game}&lang={lang}")
    assert p.viewport_size == SMALL
    board = "packet_row" if game == "packet_row" else "speicherstadt"
    bad = fits(p, board, f"{game} ({lang})")
    bad += [x for x in (in_view(p, part) for part in TASK[board]) if x]
    assert not bad, "at 1280×720 in projector mode:\n" + "\n".join(bad)
    assert not errors, errors


@pytest.mark.parametrize(("lesson_id", "lang"), [("fire", "en"), ("insurance", "de"), ("taking-cards", "en")])
def test_the_tutorial_fits_1280x720_in_projector_mode_and_the_feedback_comes_into_view(
        server: str, page: tuple[Page, list[str]], lesson_id: str, lang: str) -> None:
    p, errors = page
    lesson = shipped_lesson(lesson_id)
    open_link(p, f"{server}?projector=1&lang={lang}&lesson={lesson_id}")
    p.wait_for_selector(".ssl-lessons .ssl-lesson-task", state="visible", timeout=TIMEOUT)
    board = "packet_row" if lesson.game == "packet_row" else "speicherstadt"
    bad = fits(p, board, lesson_id)
    for part in (".ssl-lessons .ssl-lesson-task", ".ssl-lessons .ssl-lesson-progress"):
        problem = in_view(p, part)
        bad += [problem] if problem else []
    assert not bad, "the Tutorial at 1280×720 in projector mode:\n" + "\n".join(bad)
    (action,) = lesson.solution
    verb, *args = action.split()
    if verb == "take":  # Packet Row: a card of a board's supply
        supply = ".prb-fut" if args[1] == "future" else ".prb-cur"
        p.locator(f'.ssl-lessons .prb-bd[data-board="{args[0]}"] {supply} .prb-slot').nth(int(args[-1])).locator(
            ".prb-clickable").click(timeout=TIMEOUT)
    elif verb in ("buy", "pass"):
        p.click(f".ssl-lessons .ssl-board .ssl-btn-{verb}", timeout=TIMEOUT)
    else:
        p.click(f".ssl-lessons .ssl-board button:has-text('{'Versichern' if lang == 'de' else 'Insure'}')",
                timeout=TIMEOUT)
    settle(p)
    done = "Gut gemacht" if lang == "de" else "Well done"
    p.wait_for_function("t => (document.querySelector('.ssl-lessons .ssl-lesson-feedback')?.innerText || '')"
                        ".includes(t)", arg=done, timeout=TIMEOUT)
    bad = [x for x in (in_view(p, f".ssl-lessons .ssl-lesson-feedback {part}") for part in (".ok", "summary")) if x]
    bad += [x for x in (in_view(p, ".ssl-lessons button.ssl-lesson-next"),) if x]
    sideways = p.evaluate(SIDEWAYS)
    assert not bad and sideways <= 0, (bad, sideways)
    assert not errors, errors
