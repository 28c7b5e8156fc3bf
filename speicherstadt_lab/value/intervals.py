"""How far a win chance may be from the truth: 95% intervals measured on held-out games (numpy only).

A method (the value model alone, or the lab's quick judgement) says ``p`` for a seat. Its interval is
``p ± q[round] · spread(p)``, clipped to [0, 1], where ``spread(p) = sqrt(p(1 - p) + 0.01)`` (errors are
largest near 1/2 and small near 0 and 1) and ``q`` is the empirical 95% quantile of ``|p - truth| / spread(p)``
over held-out positions of that round (in the spirit of split conformal prediction, without its finite-sample
correction). The truth of a held-out position is its win chance under greedy play: many greedy play-outs from its
public facts (``heldout.measure_intervals``). Their own sampling noise would widen the quantile, so it is taken
out: the quantile shrinks by the root of the share of the squared errors that is not that noise. That is exact
for normal errors, and held where checked (Packet Row, 3 players: 400 reference play-outs gave the widths of 100,
1.01 times on average); the noise t(1 - t)/(n - 1) assumes no tied wins (rare).

So the band means: in held-out games of greedy self-play, the win chance that greedy play-outs give lay inside
it for 95% of the seats at that round. ``benchmarks/calibration.py --reference N`` checks that on other games.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from ..engine.errors import RecordError
from ..lazyimport import numpy as np

LEVEL = 0.95
SPREAD_FLOOR = 0.01  # keeps an interval around p = 0 or 1 from collapsing to a point
METHODS = ("model", "quick")
NOISY = 0.75  # a reference noise share above this warns: the width then rests on a small remainder


def spread(p: np.ndarray | float) -> np.ndarray:
    """The scale of a method's error at probability ``p``: sqrt(p(1 - p) + SPREAD_FLOOR)."""
    p = np.asarray(p, dtype=float)
    return np.sqrt(np.clip(p * (1 - p), 0.0, None) + SPREAD_FLOOR)


@dataclass(frozen=True)
class Intervals:
    """One method's measured interval widths: ``q[k]`` (in units of :func:`spread`) for rounds from
    ``rounds[k]`` on (a later round uses the last bucket at or before it, an earlier one the first)."""

    rounds: tuple[int, ...]
    q: tuple[float, ...]
    settings: dict[str, Any]  # what was measured (the quick judgement's rollouts, bot, horizon)
    positions: int  # held-out positions behind the widths

    def half_width(self, p: np.ndarray, round_: int) -> np.ndarray:
        """The half-width of the 95% interval around win chances ``p`` at round ``round_`` (the measured factor times
        the spread)."""
        k = max(0, int(np.searchsorted(self.rounds, round_, side="right")) - 1)
        return self.q[k] * spread(p)

    def bounds(self, p: Sequence[float] | np.ndarray, round_: int) -> tuple[np.ndarray, np.ndarray]:
        """(lo, hi) per seat for win chances ``p`` at round ``round_``."""
        p = np.asarray(p, dtype=float)
        h = self.half_width(p, round_)
        return np.clip(p - h, 0.0, 1.0), np.clip(p + h, 0.0, 1.0)

    def to_dict(self) -> dict[str, Any]:
        """The intervals as JSON-ready data, as a model file stores them."""
        return {"rounds": list(self.rounds), "q": list(self.q), "settings": dict(self.settings),
                "positions": self.positions}

    @classmethod
    def from_dict(cls, d: Any, where: str) -> Intervals:
        """Checked: a malformed entry raises RecordError naming the field (``where`` is its path)."""
        if not isinstance(d, dict):
            raise RecordError(f"value model field '{where}': must be an object")
        rounds, q = d.get("rounds"), d.get("q")
        if (not isinstance(rounds, list) or not rounds
                or not all(isinstance(r, int) and not isinstance(r, bool) for r in rounds)
                or any(b <= a for a, b in pairwise(rounds))):
            raise RecordError(f"value model field '{where}.rounds': must be rising round numbers")
        if (not isinstance(q, list) or len(q) != len(rounds)
                or not all(isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x) and x >= 0
                           for x in q)):
            raise RecordError(f"value model field '{where}.q': must be {len(rounds)} finite numbers ≥ 0")
        settings = d.get("settings", {})
        if not isinstance(settings, dict):
            raise RecordError(f"value model field '{where}.settings': must be an object")
        positions = d.get("positions", 0)
        if not isinstance(positions, int) or isinstance(positions, bool) or positions < 0:
            raise RecordError(f"value model field '{where}.positions': must be a whole number ≥ 0")
        return cls(tuple(rounds), tuple(float(x) for x in q), dict(settings), positions)


def fit_widths(p: np.ndarray, truth: np.ndarray, noise: np.ndarray, rounds: np.ndarray,
               min_values: int = 120) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """Per-round widths from held-out seats: estimates ``p``, reference win chances ``truth`` with their
    sampling variance ``noise`` (e.g. truth(1 - truth)/(n - 1) for n play-outs), and each seat's round.

    Rounds with fewer than ``min_values`` seats are pooled with the next ones (the last with the one before).
    The 95% quantile of the scaled errors shrinks by sqrt(1 − noise share) (exact for normal errors); where the
    noise explains all of the spread (too few reference play-outs) the raw quantile is kept: a band too wide
    rather than one of width 0, which only errors of exactly 0 give."""
    p, truth, noise, rounds = (np.asarray(a, dtype=float).ravel() for a in (p, truth, noise, rounds))
    groups: list[list[int]] = []
    for r in sorted({int(x) for x in rounds}):
        if groups and np.isin(rounds, groups[-1]).sum() < min_values:
            groups[-1].append(r)
        else:
            groups.append([r])
    if len(groups) > 1 and np.isin(rounds, groups[-1]).sum() < min_values:
        groups[-2].extend(groups.pop())
    starts, qs = [], []
    for g in groups:
        sel = np.isin(rounds, g)
        s = spread(p[sel])
        score = (p[sel] - truth[sel]) / s
        total = float(np.mean(score**2))
        own = float(np.mean(noise[sel] / s**2))
        # where the reference's noise explains all the spread seen, keep the raw quantile: never a band of 0
        shrink = 1.0 if own >= total else math.sqrt((total - own) / total)
        if total > 0 and own > NOISY * total:
            warnings.warn(f"95% intervals, rounds {g[0]}–{g[-1]}: the reference play-outs' own noise is "
                          f"{min(own / total, 1):.0%} of the error seen, so the width is uncertain; measure with more "
                          "reference play-outs", stacklevel=2)
        starts.append(min(g))
        qs.append(round(shrink * float(np.quantile(np.abs(score), LEVEL)), 4))
    return tuple(starts), tuple(qs)


__all__ = ["LEVEL", "METHODS", "NOISY", "SPREAD_FLOOR", "Intervals", "fit_widths", "spread"]
