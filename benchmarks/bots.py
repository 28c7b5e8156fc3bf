"""Bot strength: seeded 4-player games, one hero bot against copies of another, seats rotated.

Each deal (game seed) is played once with the hero in every seat, so seat advantage cancels out and
every pairing sees the same deals (common random numbers). Prints, per pairing, the hero's win rate
(ties split) with a 95% Wilson interval next to its fair share 1/players.

    python benchmarks/bots.py                                   # Greedy vs Random, 200 games
    python benchmarks/bots.py --pairs greedy/random,mcts/greedy --mcts-games 40 --seconds 0.5 --processes 2
    python benchmarks/bots.py --pairs mcts/greedy --games 200 --iterations 150
    python benchmarks/bots.py --game packet_row --pairs greedy/random --games 200   # Packet Row
    python benchmarks/bots.py --ismcts --games 30 --seconds 0.5   # OpenSpiel's ISMCTS vs 2x our MCTS (needs [rl])

The outside opponent (``--ismcts``): OpenSpiel's ``ISMCTSBot`` with a random-rollout evaluator, playing through
``speicherstadt_lab.interop.openspiel`` (it samples worlds with our ``observe(seat).determinize``), against two of
our ``mcts`` bots at equal seconds per move, 3 players, the ISMCTS seat rotated. Prints its win share (ties split)
with a 95% Wilson interval next to the fair share 1/3.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pandas as pd

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import speicherstadt_lab as sl
from speicherstadt_lab.analysis import wilson
from speicherstadt_lab.bots import make_bot
from speicherstadt_lab.engine.rng import derive_seed


def play_one(job: dict[str, Any]) -> dict[str, Any]:
    """One game: the hero in seat ``job['seat']``, the villain in the others. Returns the hero's result."""
    n = job["players"]
    deal = derive_seed(job["seed"], "deal", job["deal"])
    state = sl.new_game(job.get("game", "speicherstadt"), players=n, seed=deal)
    bots = [make_bot(job["hero"] if i == job["seat"] else job["villain"], seed=derive_seed(deal, "bot", i),
                     **(job["hero_params"] if i == job["seat"] else job["villain_params"])) for i in range(n)]
    think = 0.0
    decisions = 0
    while not state.is_over:
        seat = state.to_move
        obs = state.observe(seat)
        t0 = time.perf_counter()
        action = bots[seat].choose(obs)
        if seat == job["seat"]:
            think += time.perf_counter() - t0
            decisions += 1
        state = state.apply(action)
    winners = state.winners()
    hero = job["seat"]
    return {
        "pair": job["pair"],
        "deal": job["deal"],
        "seat": hero,
        "win": 1.0 / len(winners) if hero in winners else 0.0,
        "score": state.score(hero),
        "best_other": max(state.score(i) for i in range(n) if i != hero),
        "ms_per_decision": 1000 * think / max(1, decisions),
    }



def play_ismcts_one(job: dict[str, Any]) -> dict[str, Any]:
    """One game of OpenSpiel's ISMCTS (seat ``job['seat']``) against our MCTS, both ``job['seconds']`` per move."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from speicherstadt_lab.interop import openspiel as adapter

    class TimedISMCTS(ismcts.ISMCTSBot):
        """ISMCTS with a wall-clock budget per move instead of a number of simulations."""

        def __init__(self, *a: Any, seconds: float, **kw: Any) -> None:
            super().__init__(*a, **kw)
            self.seconds = seconds

        def run_search(self, state: Any) -> Any:
            self.reset()
            legal = state.legal_actions()
            if len(legal) == 1:
                return [(legal[0], 1.0)]
            self._root_node = self.create_new_node(state)
            deadline = time.perf_counter() + self.seconds
            sims = 0
            key = self.get_state_key(state)
            # OpenSpiel's first simulation only expands the root (its visits stay 0): at least two, then the clock
            while sims < 2 or time.perf_counter() < deadline:
                world = self.sample_root_state(state)
                assert self.get_state_key(world) == key  # a sampled world looks the same to the seat
                self.run_simulation(world)
                sims += 1
            return self.get_final_policy(state, self._root_node)

    n = job["players"]
    game = pyspiel.load_game("python_speicherstadt", {"players": n})
    deal = derive_seed(job["seed"], "deal", job["deal"])
    world_seeds = np.random.RandomState(deal % 2**31)

    def resample(state: Any, player: int) -> Any:
        """A full world consistent with what ``player`` knows: our determinize of its observation."""
        world = state.state.observe(player).determinize(int(world_seeds.randint(2**31)))
        return adapter.SpielState(game, world, state.moves)

    rs = np.random.RandomState(derive_seed(deal, "ismcts") % 2**31)
    bot = TimedISMCTS(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, max_simulations=0,
                      random_state=rs, seconds=job["seconds"])
    bot.set_resampler(resample)
    ours = {i: make_bot("mcts", seed=derive_seed(deal, "bot", i), seconds=job["seconds"]) for i in range(n)}
    state = game.new_initial_state()
    state.apply_action(deal % adapter.SETUP_SEEDS)
    while not state.is_terminal():
        seat = state.current_player()
        if seat == job["seat"]:
            state.apply_action(int(bot.step(state)))
        else:
            engine = state.state
            action = ours[seat].choose(engine.observe(seat))
            state.apply_action(game.catalogue.id_of(engine, action))
    final = state.state
    winners = final.winners()
    return {"pair": "ismcts/mcts", "deal": job["deal"], "seat": job["seat"],
            "win": 1.0 / len(winners) if job["seat"] in winners else 0.0, "score": final.score(job["seat"]),
            "best_other": max(final.score(i) for i in range(n) if i != job["seat"]), "ms_per_decision": float("nan")}


def run_all(play: Any, jobs: list[dict[str, Any]], processes: int) -> list[dict[str, Any]]:
    """``play`` on every job, in order: on a process pool when ``processes`` > 1."""
    if processes <= 1:
        return [play(j) for j in jobs]
    with ProcessPoolExecutor(processes) as pool:
        return list(pool.map(play, jobs, chunksize=1))


def jobs_for(pair: str, games: int, players: int, seed: int, params: dict[str, dict[str, Any]],
             game: str = "speicherstadt") -> list[dict]:
    hero, villain = pair.split("/")
    out = []
    for g in range(games):
        out.append({"pair": pair, "hero": hero, "villain": villain, "players": players, "seed": seed, "game": game,
                    "deal": g // players, "seat": g % players, "hero_params": params.get(hero.split(":")[0], {}),
                    "villain_params": params.get(villain.split(":")[0], {})})
    return out


def summarize(results: list[dict[str, Any]], players: int) -> pd.DataFrame:
    df = pd.DataFrame(results)
    rows = []
    for pair, g in df.groupby("pair", sort=False):
        p = g["win"].mean()
        lo, hi = wilson(p, len(g))
        rows.append({"pairing": pair.replace("/", " vs 3x " if players == 4 else " vs "), "games": len(g),
                     "win_rate": p, "ci95_lo": lo, "ci95_hi": hi, "fair_share": 1 / players,
                     "hero_score": g["score"].mean(), "best_rival_score": g["best_other"].mean(),
                     "hero_ms_per_decision": g["ms_per_decision"].mean()})
    return pd.DataFrame(rows)


def main(argv: list[str] | None = None) -> pd.DataFrame:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", default="greedy/random,mcts/greedy",
                    help="comma-separated hero/villain bot specs, e.g. greedy/random,mcts/greedy")
    ap.add_argument("--games", type=int, default=200, help="games per pairing (a multiple of --players)")
    ap.add_argument("--mcts-games", type=int, default=None, help="games for pairings with an MCTS hero")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--game", default="speicherstadt", choices=["speicherstadt", "packet_row"],
                    help="the game to play (packet_row: Packet Row)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--iterations", type=int, default=None, help="MCTS iterations per decision")
    ap.add_argument("--seconds", type=float, default=None, help="MCTS seconds per decision (not reproducible)")
    ap.add_argument("--rollout", default="greedy", help="MCTS rollout bot")
    ap.add_argument("--horizon", type=int, default=1, help="MCTS rollout horizon in rounds (0: to the end)")
    ap.add_argument("--processes", type=int, default=1)
    ap.add_argument("--ismcts", action="store_true",
                    help="OpenSpiel's ISMCTS vs 2x our MCTS, 3 players, --seconds per move each (needs the [rl] extra)")
    args = ap.parse_args(argv)
    if args.ismcts:
        seconds = args.seconds if args.seconds is not None else 0.5
        jobs = [{"players": 3, "seed": args.seed, "deal": g // 3, "seat": g % 3, "seconds": seconds}
                for g in range(args.games)]
        t0 = time.perf_counter()
        results = run_all(play_ismcts_one, jobs, args.processes)
        table = summarize(results, 3).drop(columns=["hero_ms_per_decision"])
        table["pairing"] = "OpenSpiel ISMCTS vs 2x mcts"
        with pd.option_context("display.width", 200, "display.max_columns", 20, "display.precision", 3):
            print(table.to_string(index=False))
        print(f"{seconds} s per move each; wall time {time.perf_counter() - t0:.0f} s, {args.processes} process(es)")
        return table

    mcts: dict[str, Any] = {"rollout": args.rollout, "horizon": args.horizon}
    if args.seconds is not None:
        mcts["seconds"] = args.seconds
    if args.iterations is not None:
        mcts["iterations"] = args.iterations
    params = {"mcts": mcts}
    jobs: list[dict[str, Any]] = []
    for pair in args.pairs.split(","):
        n = args.mcts_games if args.mcts_games is not None and pair.startswith("mcts") else args.games
        jobs.extend(jobs_for(pair.strip(), n, args.players, args.seed, params, args.game))
    t0 = time.perf_counter()
    results = run_all(play_one, jobs, args.processes)
    table = summarize(results, args.players)
    with pd.option_context("display.width", 200, "display.max_columns", 20, "display.precision", 3):
        print(table.to_string(index=False))
    print(f"MCTS parameters: {mcts}; wall time {time.perf_counter() - t0:.0f} s, {args.processes} process(es)")
    return table


if __name__ == "__main__":
    main()
