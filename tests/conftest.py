"""Suite-wide settings: hypothesis is derandomized, so `make test` draws the same examples on every run.

Random exploration (fresh seeds each run) belongs in `make soak`; set ``HYPOTHESIS_PROFILE=explore`` to run
the property tests of this suite with random draws too.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import settings

# `deterministic`: the same examples every run, no example database (a failure found once is not replayed
# on a later run, which would make runs depend on each other), no deadline (machines differ in speed).
settings.register_profile("deterministic", derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile("explore", derandomize=False, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Debian Chromium per test module (``browser_util.launch``), closed after it: the browser tests' shared
    browser (imported here only when a test asks for it, so the suite without browser tests never loads Playwright)."""
    from browser_util import launch
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = launch(pw)
        yield b
        b.close()
