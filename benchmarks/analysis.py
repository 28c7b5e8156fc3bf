"""Timing of the what-if analysis from a mid-game position (round 5 of a 4-player game, greedy play).

Prints one row per measurement: random playouts per second, ``evaluate`` with 1,000 random rollouts
(fair and oracle, one process and optionally a pool), greedy playouts per second and a ``compare_actions``.

    python benchmarks/analysis.py
    python benchmarks/analysis.py --rollouts 1000 --processes 2 --seed 3
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import pandas as pd

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import speicherstadt_lab as sl
from speicherstadt_lab.analysis import compare_actions, evaluate
from speicherstadt_lab.bots.greedy import GreedyBot
from speicherstadt_lab.bots.mcts import policy_of
from speicherstadt_lab.engine.rng import Rng


def mid_game(seed: int, round_: int = 5) -> sl.GameState:
    """The first demand decision of ``round_`` in a seeded game of four greedy bots."""
    state = sl.new_game(players=4, seed=seed)
    bot, rng = GreedyBot(seed), Rng(seed)
    while state.round < round_:
        state = state.apply(bot.act(state, rng))
    return state


def playouts_per_second(state: sl.GameState, bot: str | None, n: int, seed: int) -> tuple[float, float]:
    """(playouts per second, decisions per playout) of ``n`` fair playouts."""
    policy = policy_of(GreedyBot(seed) if bot == "greedy" else None)
    public = state.observe(None)
    steps = 0
    t0 = time.perf_counter()
    for r in range(n):
        s = public.determinize(r)
        rng = Rng(seed, r)
        while not s.is_over:
            s = s.apply(policy(s, rng))
            steps += 1
    dt = time.perf_counter() - t0
    return n / dt, steps / n


def main(argv: list[str] | None = None) -> pd.DataFrame:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rollouts", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--processes", type=int, default=2, help="also time evaluate with a pool (1: skip)")
    args = ap.parse_args(argv)
    state = mid_game(args.seed)
    rows = []

    def timed(what: str, fn, count: int) -> None:
        t0 = time.perf_counter()
        fn()
        dt = time.perf_counter() - t0
        rows.append({"measurement": what, "seconds": dt, "per_second": count / dt})

    rate, depth = playouts_per_second(state, None, 300, args.seed)
    rows.append({"measurement": f"random playouts ({depth:.0f} decisions each)", "seconds": 300 / rate,
                 "per_second": rate})
    rate, depth = playouts_per_second(state, "greedy", 20, args.seed)
    rows.append({"measurement": f"greedy playouts ({depth:.0f} decisions each)", "seconds": 20 / rate,
                 "per_second": rate})
    n = args.rollouts
    timed(f"evaluate({n}) fair, 1 process", lambda: evaluate(state, rollouts=n, seed=0), n)
    timed(f"evaluate({n}) oracle, 1 process", lambda: evaluate(state, rollouts=n, seed=0, mode="oracle"), n)
    if args.processes > 1:
        timed(f"evaluate({n}) fair, {args.processes} processes",
              lambda: evaluate(state, rollouts=n, seed=0, processes=args.processes), n)
    k = len(state.legal_actions())
    timed(f"compare_actions(200) x {k} actions", lambda: compare_actions(state, rollouts=200, seed=0), 200 * k)
    table = pd.DataFrame(rows)
    print(f"position: {state!r}, {os.cpu_count()} cpu(s)")
    with pd.option_context("display.width", 160, "display.precision", 3):
        print(table.to_string(index=False))
    print(evaluate(state, rollouts=n, seed=0).round(3).to_string())
    return table


if __name__ == "__main__":
    main()
