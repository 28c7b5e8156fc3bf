"""How long a hint takes (``sl.hint``, what the app's Hint button runs), per game.

    .venv/bin/python benchmarks/hints.py                      # every game, 3 players, 20 positions each
    .venv/bin/python benchmarks/hints.py --games packet_row --positions 40

For each registered variant a 3-player game of greedy self-play (seed ``--seed``) is recorded, and a hint is asked at
``--positions`` of its decisions, spread evenly from the 10th on (the seat to move's, from its observation, as the
app asks). Per game the table gives the median, the 90th percentile and the mean of a hint's wall milliseconds and the
median of its CPU milliseconds, and the median CPU milliseconds of its two parts: the strongest level's search alone
(``make_bot("level:6").choose`` on the observation) and the rest (the quick judgement of the level's move and its
runner-up). The reference, measured in the same run and so under the same load: one whole greedy game of the same
variant (CPU milliseconds, the mean of ``--reference`` games); "hint / greedy game" is a hint's median CPU time over
it, the figure to compare across machines. The machine's load average is printed beside the table.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402

import speicherstadt_lab as sl  # noqa: E402
from speicherstadt_lab.bots import make_bot  # noqa: E402
from speicherstadt_lab.engine.protocol import game_variants, variant_start  # noqa: E402
from speicherstadt_lab.hints import HINT_LEVEL, hint  # noqa: E402


def greedy_game(key: str, players: int, seed: int) -> sl.GameRecord:
    """A recorded game of greedy self-play of variant ``key``."""
    game, options = variant_start(key)
    return sl.record_game(sl.new_game(game, players=players, seed=seed, **options),
                          [make_bot("greedy", seed=s) for s in range(players)])


def reference_ms(key: str, players: int, games: int, seed: int) -> float:
    """CPU milliseconds per whole greedy game of ``key`` (the yardstick measured beside the hints)."""
    start = time.process_time()
    for g in range(games):
        greedy_game(key, players, seed + 1000 + g)
    return 1000 * (time.process_time() - start) / games


def measure(key: str, players: int, positions: int, seed: int) -> dict[str, float]:
    """A hint's wall and CPU milliseconds at ``positions`` decisions of one greedy game, and its search's CPU share."""
    line = [nd.state for nd in greedy_game(key, players, seed).mainline()[10:]
            if not nd.state.is_over and nd.state.to_move is not None]
    picks = [line[round(i * (len(line) - 1) / max(positions - 1, 1))] for i in range(min(positions, len(line)))]
    wall, cpu, search = [], [], []
    for i, state in enumerate(picks):
        obs = state.observe(state.to_move)
        c, w = time.process_time(), time.perf_counter()
        hint(state, seed=i)
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
        c = time.process_time()
        if len(obs.legal_actions()) > 1:  # a hint with one legal move runs no search
            make_bot(f"level:{HINT_LEVEL}", seed=i).choose(obs)
        search.append(time.process_time() - c)
    ms = lambda xs, q=0.5: 1000 * float(pd.Series(xs).quantile(q))  # noqa: E731
    return {"hints": len(cpu), "median wall ms": ms(wall), "p90 wall ms": ms(wall, 0.9),
            "mean wall ms": 1000 * float(pd.Series(wall).mean()),
            "median CPU ms": ms(cpu), "search CPU ms": ms(search),
            "rest CPU ms": 1000 * float(pd.Series(cpu).sub(pd.Series(search)).median())}


def main(argv: list[str] | None = None) -> pd.DataFrame:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(game_variants()), help="variants, comma separated")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--positions", type=int, default=20, help="hints asked per game")
    ap.add_argument("--reference", type=int, default=5, help="greedy games for the reference")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    rows = []
    for key in args.games.split(","):
        row = {"game": key} | measure(key, args.players, args.positions, args.seed)
        row["greedy game CPU ms"] = reference_ms(key, args.players, args.reference, args.seed)
        row["hint / greedy game"] = row["median CPU ms"] / row["greedy game CPU ms"]
        rows.append(row)
    df = pd.DataFrame(rows).set_index("game")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"hints of level {HINT_LEVEL}, {args.players} players; load average (1, 5, 15 min): {load} "
          f"on {os.cpu_count()} cores")
    print(df.round(2).to_string())
    return df


if __name__ == "__main__":
    main()
