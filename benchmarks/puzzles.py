"""Do the shipped puzzles' answers stand? Each is re-verified on new seeds with more play-outs.

    .venv/bin/python benchmarks/puzzles.py                       # every shipped puzzle, 800 play-outs a move
    .venv/bin/python benchmarks/puzzles.py --limit 30 --rollouts 400 --variant packet_row

A puzzle's answer *stands* when, on seeds the miner never used (labelled "puzzle-benchmark"), its best move (or a
move that leads to the same position) is still the best of the verified candidates and its 95% interval is still
above every other candidate's. The table gives the share that stands per variant and theme, with a 95% interval
(Wilson), and the mean lead found now against the lead the puzzle file states. Target: at least 95% stand.
The reference for time is the miner's own verification budget (400 greedy play-outs a candidate), printed as the
seconds a puzzle took per 1,000 play-outs, so machines of different speed compare.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402

from speicherstadt_lab import puzzles as P  # noqa: E402
from speicherstadt_lab.analysis import wilson  # noqa: E402
from speicherstadt_lab.engine.rng import derive_seed  # noqa: E402
from speicherstadt_lab.resources import default_processes  # noqa: E402

TARGET = 0.95


def check(args: tuple[dict[str, Any], int, int]) -> dict[str, Any]:
    """One puzzle re-verified (a worker's job: the puzzle as JSON data)."""
    data, rollouts, seed = args
    puzzle = P.Puzzle.from_dict(data)
    start = time.perf_counter()
    row = P.standing(puzzle, derive_seed(seed, "puzzle-benchmark", puzzle.id), rollouts)
    row.update(variant=puzzle.variant, stated_lead=puzzle.margin, seconds=time.perf_counter() - start,
               playouts=rollouts * len(puzzle.moves))
    return row


def table(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """Share standing per variant and theme (and all), with Wilson 95% intervals."""
    df = pd.DataFrame(rows)
    out = []
    groups = [(("all", "all"), df), *((k, g) for k, g in df.groupby(["variant", "theme"]))]
    for (variant, theme), g in groups:
        share = float(g["stands"].mean())
        lo, hi = wilson(share, len(g))
        out.append({"variant": variant, "theme": theme, "puzzles": len(g), "stand (%)": round(100 * share, 1),
                    "95% interval (%)": f"{100 * lo:.0f}–{100 * hi:.0f}", "same best (%)":
                    round(100 * float(g["same_best"].mean()), 1), "lead now (pp)": round(100 * g["lead"].mean(), 1),
                    "lead stated (pp)": round(100 * g["stated_lead"].mean(), 1),
                    "s per 1k play-outs": round(1000 * g["seconds"].sum() / g["playouts"].sum(), 2)})
    return pd.DataFrame(out)


def main(argv: list[str] | None = None) -> int:
    """Re-verify the shipped puzzles and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", action="append", choices=P.shipped_variants(), help="only these (default: all)")
    ap.add_argument("--rollouts", type=int, default=800, help="greedy play-outs per candidate move (default 800)")
    ap.add_argument("--limit", type=int, default=None, help="at most this many puzzles per variant (spread evenly)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the re-verification (default 0)")
    ap.add_argument("--processes", type=int, default=None, help="worker processes (default: what this pod allows)")
    args = ap.parse_args(argv)
    jobs = []
    for variant in args.variant or P.shipped_variants():
        game = "speicherstadt" if variant == "kaispeicher" else variant
        found = P.load_puzzles(game, "kaispeicher" if variant == "kaispeicher" else None)
        if args.limit and len(found) > args.limit:
            step = len(found) / args.limit
            found = [found[int(k * step)] for k in range(args.limit)]
        jobs.extend((p.to_dict(), args.rollouts, args.seed) for p in found)
    if not jobs:
        print("no puzzles to check")
        return 1
    n = args.processes or default_processes(len(jobs))
    start = time.perf_counter()
    if n <= 1:
        rows = [check(j) for j in jobs]
    else:
        with ProcessPoolExecutor(n) as pool:
            rows = list(pool.map(check, jobs))
    df = table(rows)
    print(f"{len(rows)} puzzles re-verified with {args.rollouts} greedy play-outs a candidate on new seeds, "
          f"{n} processes, {time.perf_counter() - start:.0f} s")
    print(df.to_string(index=False))
    share = float(df.loc[0, "stand (%)"]) / 100
    print(f"target: at least {TARGET:.0%} stand: {'met' if share >= TARGET else 'NOT met'} ({share:.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
