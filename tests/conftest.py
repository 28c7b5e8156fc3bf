"""Suite-wide settings: hypothesis is derandomized, so `make test` draws the same examples on every run.

Random exploration (fresh seeds each run) belongs in `make soak`; set ``HYPOTHESIS_PROFILE=explore`` to run
the property tests of this suite with random draws too.
"""

from __future__ import annotations

import os

from hypothesis import settings

# `deterministic`: the same examples every run, no example database (a failure found once is not replayed
# on a later run, which would make runs depend on each other), no deadline (machines differ in speed).
settings.register_profile("deterministic", derandomize=True, database=None, deadline=None, print_blob=True)
settings.register_profile("explore", derandomize=False, deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))
