"""The Tutorial's progress kept in the browser tab for the session (``sessionStorage``): a lesson solved, the page
reloaded (a new kernel), and "Lesson N of M" and the solved dots are back; a new tab starts fresh. Under Voilà and
under Jupyter Server's ``/voila/render/...`` route, the one Binder's links use (Debian's Chromium, 1280×800)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page

import speicherstadt_lab as sl
from tests.support.browser import (
    BOARD_READY,
    VIEWPORT,
    binder_server,
    is_offline_noise,
    settle,
    voila_server,
    wait_text,
)

TIMEOUT = 120_000  # ms: a page's first load starts a kernel
LESSONS = ".ssl-lessons"
PROGRESS = f"{LESSONS} .ssl-lesson-progress"
DONE = f"{LESSONS} .ssl-lesson-dots .ssl-dot.done"


def open_tutorial(page: Page, url: str | None, kept: str) -> None:
    """Load ``url`` (None: reload the page), open the Tutorial page, and wait until its progress store has reported
    what the tab keeps (``kept``: "stored" or "none") and the kernel has handled it."""
    if url is None:
        page.reload(timeout=TIMEOUT)
    else:
        page.goto(url, timeout=TIMEOUT)
    page.wait_for_selector(BOARD_READY, timeout=TIMEOUT)
    page.click(".ssl-topbar .ssl-tutorial-btn")
    page.wait_for_selector(f"{LESSONS} .ssl-board .ssl-top", state="visible", timeout=TIMEOUT)
    page.wait_for_selector(f'.ssl-lesson-store[data-reported="{kept}"]', state="attached", timeout=TIMEOUT)
    settle(page)


@pytest.fixture
def tab(browser: Any) -> Iterator[tuple[Any, list[str]]]:
    """A browser context (its tabs share no sessionStorage with another context's) and the errors its pages log."""
    context = browser.new_context(viewport=VIEWPORT)
    errors: list[str] = []

    def watch(page: Page) -> None:  # Voilà's shutdown of the old kernel on the reload is no exception (no 403 now)
        page.on("console", lambda m: errors.append(f"{m.text} @ {m.location.get('url', '')}")
                if m.type == "error" and not is_offline_noise(m.text, m.location.get("url", "")) else None)
        page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))

    context.on("page", watch)
    yield context, errors
    context.close()


def solve_and_reload(context: Any, errors: list[str], url: str, new_tab: bool = True) -> None:
    """Lesson 1 solved, on to lesson 3, the page reloaded: both back; then (``new_tab``) a new tab: nothing kept."""
    page = context.new_page()
    open_tutorial(page, url, "none")
    wait_text(page, PROGRESS, "Lesson 1 of 7")
    page.click(f'{LESSONS} .ssl-board .ssl-col[data-space="2"]')  # the lesson's task: the Contract's space
    settle(page)
    wait_text(page, f"{LESSONS} .ssl-lesson-feedback", "Well done")
    for _ in range(2):
        page.click(f"{LESSONS} button.ssl-lesson-next")
        settle(page)
    wait_text(page, PROGRESS, "Lesson 3 of 7")
    assert page.locator(DONE).count() == 1

    open_tutorial(page, None, "stored")  # a reload: a new kernel, the same tab
    wait_text(page, PROGRESS, "Lesson 3 of 7")
    assert page.locator(DONE).count() == 1
    assert page.locator(f"{LESSONS} .ssl-lesson-dots .ssl-dot >> nth=0").get_attribute("class") == "ssl-dot done"
    assert sl.lessons("speicherstadt")[2].say("title", "en") in page.inner_text(f"{LESSONS} h2")
    assert not errors, errors
    if not new_tab:
        page.close()
        return
    fresh = context.new_page()  # a new tab: a session of its own
    open_tutorial(fresh, url, "none")
    wait_text(fresh, PROGRESS, "Lesson 1 of 7")
    assert fresh.locator(DONE).count() == 0
    assert not errors, errors
    fresh.close()
    page.close()


def test_a_reload_brings_the_lesson_progress_back_and_a_new_tab_starts_fresh(tab: tuple[Any, list[str]]) -> None:
    with voila_server(shipped_settings=True) as url:  # as `make app` serves it
        solve_and_reload(*tab, url)


def test_a_reload_through_the_binder_route_brings_it_back_too(tab: tuple[Any, list[str]]) -> None:
    with binder_server() as url:
        solve_and_reload(*tab, f"{url}/voila/render/notebooks/app.ipynb", new_tab=False)
