"""Where things are in a source checkout: the repository, the tests, and the golden playthroughs (``tests/golden``)."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
REPO = TESTS.parent
GOLDEN = TESTS / "golden"
