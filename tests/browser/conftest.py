"""Fixtures of the browser tests: one Debian Chromium per test module, and the app's Tutorial page in one."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Debian Chromium per test module (``tests.support.browser.launch``), closed after it: the browser tests'
    shared browser (Playwright is imported only when a test asks for it)."""
    from playwright.sync_api import sync_playwright

    from tests.support.browser import launch

    with sync_playwright() as pw:
        b = launch(pw)
        yield b
        b.close()


@pytest.fixture(scope="module")
def tutorial_session() -> Iterator[dict[str, Any]]:
    """The app in Voilà on its Tutorial page, one per test module (``tests.support.browser.tutorial_session``):
    ``{"page", "errors"}``, the console and page errors logged."""
    from playwright.sync_api import sync_playwright

    from tests.support.browser import tutorial_session

    with sync_playwright() as pw, tutorial_session(pw) as s:
        yield s
