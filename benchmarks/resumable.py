"""Runs too long for one sitting: finished jobs kept as JSON lines, a re-run plays only the missing ones.

Shared by ``ladder.py`` and ``bots.py``; the file is read with ``json`` only.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

Row = dict[str, Any]


def played(play: Callable[[Row], Row], jobs: list[Row], processes: int) -> Iterator[Row]:
    """``play`` on every job, in order, yielding each result as it comes (a process pool when ``processes`` > 1)."""
    if processes <= 1:
        yield from map(play, jobs)
        return
    with ProcessPoolExecutor(processes) as pool:
        yield from pool.map(play, jobs, chunksize=1)


def run_kept(play: Callable[[Row], Row], jobs: list[Row], processes: int, results: Path | None,
             key: Callable[[Row], Hashable], check: Callable[[int, Row], None] | None = None,
             played_only: bool = False) -> list[Row]:
    """The result of every job: those ``results`` (JSON lines) holds under the same ``key``, the rest played now and
    appended one line per finished job (so a stopped run loses at most the jobs in progress).

    ``check(line_number, row)`` may refuse a line of the file (raising ValueError naming it); ``played_only``: play
    nothing, return only what the file holds. Lines under other keys stay in the file and are not used.
    """
    done: dict[Hashable, Row] = {}
    if results is not None and results.exists():
        for i, line in enumerate(results.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                row = json.loads(line)
                if check is not None:
                    try:
                        check(i, row)
                    except ValueError as e:
                        raise ValueError(f"{e} (in {results})") from None
                done[key(row)] = row
    todo = [] if played_only else [j for j in jobs if key(j) not in done]
    out = open(results, "a", encoding="utf-8") if results is not None else None  # noqa: SIM115 (closed below)
    try:
        for row in played(play, todo, processes):
            done[key(row)] = row
            if out is not None:
                out.write(json.dumps(row) + "\n")
                out.flush()
    finally:
        if out is not None:
            out.close()
    return [done[key(j)] for j in jobs if key(j) in done]
