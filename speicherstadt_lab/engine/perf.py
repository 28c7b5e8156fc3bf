"""Settings for tight playout loops (random games, rollouts, batch simulation)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def playout_gc(threshold: int = 100_000) -> Iterator[None]:
    """Run the cyclic garbage collector less often while playing out games.

    States, events and actions form no reference cycles, so frequent generation-0 collections only cost
    time (about 6% of a random game). The previous thresholds are restored on exit.
    """
    old = gc.get_threshold()
    gc.set_threshold(max(threshold, old[0]), old[1], old[2])
    try:
        yield
    finally:
        gc.set_threshold(*old)
