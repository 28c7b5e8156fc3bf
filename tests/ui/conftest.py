"""Fixtures of the UI tests: the app on its Tutorial page."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from speicherstadt_lab.ui.app import LabApp


@pytest.fixture
def tutorial_app() -> Iterator[LabApp]:
    """The app (three seats, seed 1, long work in the calling thread, charts at once) on its Tutorial page."""
    lab = LabApp(players=3, seed=1, threaded=False, chart_delay=0)
    lab.tutorial_button.value = True
    yield lab
    lab.close()
