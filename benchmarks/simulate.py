"""Throughput of batch simulation: games per second in this process and with 1, 2, ... worker processes.

    .venv/bin/python benchmarks/simulate.py --games 200 --players 4 --processes 1,2

Times are end to end (pool start-up included), as a user of ``simulate`` sees them. Every run uses the
same seed, so each plays exactly the same games; the benchmark checks that the tables are equal.
"""

from __future__ import annotations

import argparse
import os
import time

import pandas as pd
from pandas.testing import assert_frame_equal

from speicherstadt_lab.simulation import parse_lineup, simulate


def measure(games: int, players: int, bots: list[str], seed: int, executor: str | int) -> tuple[float, pd.DataFrame]:
    """Seconds for one ``simulate`` call, and its table."""
    start = time.perf_counter()
    df = simulate(games, players, bots, seed, executor=executor, progress=False)
    return time.perf_counter() - start, df


def main(argv: list[str] | None = None) -> pd.DataFrame:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--bots", default=None, help="specs by seat (default: random in every seat)")
    p.add_argument("--processes", default="1,2", help="worker counts to compare, comma separated")
    p.add_argument("--seed", type=int, default=2024)
    args = p.parse_args(argv)
    bots = parse_lineup(args.bots) if args.bots else ["random"] * args.players
    counts = [int(x) for x in args.processes.split(",")]

    runs: list[tuple[str, str | int]] = [("serial (in-process)", "serial")]
    runs += [(f"{n} process{'es' if n > 1 else ''}", n) for n in counts]
    rows = []
    reference: pd.DataFrame | None = None
    for label, executor in runs:
        seconds, df = measure(args.games, args.players, bots, args.seed, executor)
        if reference is None:
            reference = df
        else:
            assert_frame_equal(df, reference)  # same seed, same games, whatever the executor
        rows.append(
            {
                "executor": label,
                "seconds": round(seconds, 2),
                "games/s": round(args.games / seconds, 1),
                "decisions/s": round(df["decisions"].sum() / seconds),
            }
        )
    table = pd.DataFrame(rows).set_index("executor")
    one = table["games/s"].iloc[1] if len(table) > 1 else table["games/s"].iloc[0]
    table["speed-up vs 1 process"] = (table["games/s"] / one).round(2)
    print(f"{args.games} games, {args.players} players, bots {' | '.join(bots)}, {os.cpu_count()} cores")
    print(table.to_string())
    return table


if __name__ == "__main__":
    main()
