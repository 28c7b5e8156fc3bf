"""Suite-wide settings and fixtures: hypothesis is derandomized, so `make test` draws the same examples on every run;
the toy game registered, and a fresh state of each game variant.

Random exploration (fresh seeds each run) belongs in `make soak`; set ``HYPOTHESIS_PROFILE=explore`` to run
the property tests of this suite with random draws too.
"""

from __future__ import annotations

import os
from types import ModuleType

import pytest
from hypothesis import settings

import speicherstadt_lab as sl
from tests.support.games import VARIANT_IDS, VARIANTS, new_variant

# `deterministic`: the same examples every run, no example database (a failure found once is not replayed
# on a later run, which would make runs depend on each other), no deadline (machines differ in speed).
settings.register_profile("deterministic", derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile("explore", derandomize=False, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))



@pytest.fixture(scope="session")
def toy_game() -> ModuleType:
    """The toy game (``tests.support.toy_game``), registered as ``toy_race``: a third game no module of the lab
    knows, found through its registration alone."""
    from tests.support import toy_game as toy

    toy.register()
    return toy


@pytest.fixture(params=VARIANTS, ids=VARIANT_IDS)
def variant(request: pytest.FixtureRequest) -> tuple[str, str | None]:
    """Each game variant the lab ships in turn, as ``(game, expansion)`` (``tests.support.games.VARIANTS``)."""
    return request.param


@pytest.fixture
def fresh_state(variant: tuple[str, str | None]) -> sl.GameState:
    """A new three-player game (seed 1) of each variant in turn."""
    return new_variant(*variant)
