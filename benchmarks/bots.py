"""Bot strength: seeded 4-player games, one hero bot against copies of another, seats rotated.

Each deal (game seed) is played once with the hero in every seat, so seat advantage cancels out and
every pairing sees the same deals (common random numbers). Prints, per pairing, the hero's win rate
(ties split) with a 95% Wilson interval next to its fair share 1/players.

    python benchmarks/bots.py                                   # Greedy vs Random, 200 games
    python benchmarks/bots.py --pairs greedy/random,mcts/greedy --mcts-games 40 --seconds 0.5 --processes 2
    python benchmarks/bots.py --pairs mcts/greedy --games 200 --iterations 150
    python benchmarks/bots.py --game packet_row --pairs greedy/random --games 200   # Packet Row
    python benchmarks/bots.py --ismcts --game kaispeicher --games 30 --results FILE   # OpenSpiel's ISMCTS (needs [rl])
    python benchmarks/bots.py --ismcts --against mcts --seconds 0.5 --games 30   # the old equal-seconds comparison

The outside opponent (``--ismcts``): OpenSpiel's ``ISMCTSBot`` with a random-rollout evaluator, playing through
``speicherstadt_lab.interop.openspiel`` (it samples worlds with our ``observe(seat).determinize``), 3 players, the
ISMCTS seat rotated, against two copies of ``--against`` (any bot spec; default the strongest level, ``level:6``), in
``--game`` speicherstadt, kaispeicher or packet_row (the adapter's registered games). ISMCTS gets a fixed number of
simulations per move (``--ismcts-simulations``), as the levels get iterations: a wall clock would be unfair to one side
when the machine's load changes. With ``--seconds`` both sides get that wall clock per move instead. Prints ISMCTS's
win share (ties split) with a 95% Wilson interval over games next to the fair share 1/3, the mean scores, and each
side's mean time per decision measured in the same run (decisions with more than one legal move). ``--results FILE``
appends each finished game as a line of JSON and skips the games already there, so a run can be stopped and extended.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

import pandas as pd

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import speicherstadt_lab as sl
from benchmarks.resumable import played, run_kept
from speicherstadt_lab.analysis import wilson
from speicherstadt_lab.bots import make_bot
from speicherstadt_lab.bots.levels import level_spec
from speicherstadt_lab.engine.protocol import game_variants, variant_start
from speicherstadt_lab.engine.rng import derive_seed


def play_one(job: dict[str, Any]) -> dict[str, Any]:
    """One game: the hero in seat ``job['seat']``, the villain in the others. Returns the hero's result."""
    n = job["players"]
    deal = derive_seed(job["seed"], "deal", job["deal"])
    name, options = VARIANTS[job.get("game", "speicherstadt")]
    state = sl.new_game(name, players=n, seed=deal, **options)
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



#: ``--game`` -> (our game, expansion, the OpenSpiel game the adapter registers for it).
#: name on ``--game`` -> (game, ``new_game`` options): the registered variants (the adapter names each for OpenSpiel)
VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {key: variant_start(key) for key in game_variants()}
ISMCTS_PLAYERS = 3
ISMCTS_SIMULATIONS = 50  # per move: ~2x level 6's time in Die Speicherstadt (both games), ~0.75x in Packet Row
#: What makes an ISMCTS game a game of the same run: a results line is skipped on a re-run when these all match.
#: ``against_spec`` is the spec the rivals played (a level written out as it plays this game, ``level_spec``), so
#: games against a level are never mixed with games against an earlier definition of it.
ISMCTS_KEY = ("game", "players", "seed", "deal", "seat", "against", "against_spec", "simulations", "seconds")


def check_against(spec: str, seconds: float | None = None) -> str:
    """``spec`` if it builds a bot (with ``seconds`` per move when given); ValueError naming ``--against`` if not."""
    try:
        make_bot(spec, seed=0, **({"seconds": seconds} if seconds is not None else {}))
    except (ValueError, TypeError) as e:
        extra = f" with --seconds {seconds}" if seconds is not None else ""
        raise ValueError(f"--against: {spec!r}{extra} is not a bot spec we can play ({e})") from e
    return spec


def resolved_spec(spec: str, game: str) -> str:
    """The spec ``spec`` plays in variant ``game``: a level (``level:N``) as ``level_spec`` writes it for the game (its
    per-game spec and search horizon), any other spec as given."""
    if spec.strip().lower().startswith("level:"):
        return level_spec(spec.split(":", 1)[1].strip(), VARIANTS[game][0])
    return spec


def ismcts_jobs(game: str, games: int, seed: int, against: str, simulations: int | None,
                seconds: float | None) -> list[dict[str, Any]]:
    """The ISMCTS games of a run: deal ``g // 3`` with the ISMCTS seat ``g % 3`` (each deal in every seat)."""
    if game not in VARIANTS:
        raise ValueError(f"--game: {game!r} is not one of {', '.join(VARIANTS)}")
    against_spec = resolved_spec(against, game)
    if seconds is None and (simulations is None or simulations < 2):
        raise ValueError(f"--ismcts-simulations: must be at least 2 (OpenSpiel's first one only expands the root), "
                         f"not {simulations!r}")
    n = ISMCTS_PLAYERS
    return [{"game": game, "players": n, "seed": seed, "deal": g // n, "seat": g % n, "against": against,
             "against_spec": against_spec, "simulations": None if seconds is not None else simulations,
             "seconds": seconds} for g in range(games)]


def play_ismcts_one(job: dict[str, Any]) -> dict[str, Any]:
    """One game of OpenSpiel's ISMCTS (seat ``job['seat']``) against ``job['against']`` in the other seats.

    ISMCTS gets ``job['simulations']`` per move, or ``job['seconds']`` of wall clock (then the rivals get
    ``seconds`` too). Thinking time counts only decisions with more than one legal move (both sides answer a
    forced move at once).
    """
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from speicherstadt_lab.interop import openspiel as adapter

    class CountingISMCTS(ismcts.ISMCTSBot):
        """ISMCTS that counts its simulations; with ``seconds``, a wall-clock budget instead of a number."""

        def __init__(self, *a: Any, seconds: float | None, **kw: Any) -> None:
            super().__init__(*a, **kw)
            self.seconds = seconds
            self.sims = 0

        def sample_root_state(self, state: Any) -> Any:
            self.sims += 1  # once per simulation (run_simulation recurses down the tree)
            return super().sample_root_state(state)

        def run_search(self, state: Any) -> Any:
            if self.seconds is None:
                return super().run_search(state)
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
    game = pyspiel.load_game(adapter.openspiel_name(*VARIANTS[job["game"]]), {"players": n})
    deal = derive_seed(job["seed"], "deal", job["deal"])
    world_seeds = np.random.RandomState(deal % 2**31)

    def resample(state: Any, player: int) -> Any:
        """A full world consistent with what ``player`` knows: our determinize of its observation."""
        world = state.state.observe(player).determinize(int(world_seeds.randint(2**31)))
        return adapter.SpielState(game, world, state.moves)

    rs = np.random.RandomState(derive_seed(deal, "ismcts") % 2**31)
    bot = CountingISMCTS(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, max_simulations=job["simulations"] or 0,
                         random_state=rs, seconds=job["seconds"])
    bot.set_resampler(resample)
    budget = {"seconds": job["seconds"]} if job["seconds"] is not None else {}
    ours = {i: make_bot(job["against_spec"], seed=derive_seed(deal, "bot", i), **budget) for i in range(n)
            if i != job["seat"]}
    think = {"ismcts": 0.0, "rival": 0.0}
    decisions = {"ismcts": 0, "rival": 0}
    state = game.new_initial_state()
    state.apply_action(deal % adapter.SETUP_SEEDS)
    while not state.is_terminal():
        seat = state.current_player()
        side = "ismcts" if seat == job["seat"] else "rival"
        choice = len(state.legal_actions()) > 1
        t0 = time.perf_counter()
        if side == "ismcts":
            action = int(bot.step(state))
        else:
            engine = state.state
            action = game.catalogue.id_of(engine, ours[seat].choose(engine.observe(seat)))
        if choice:
            think[side] += time.perf_counter() - t0
            decisions[side] += 1
        state.apply_action(action)
    final = state.state
    winners = final.winners()
    hero = job["seat"]
    rivals = [final.score(i) for i in range(n) if i != hero]
    return {**job, "win": 1.0 / len(winners) if hero in winners else 0.0, "score": final.score(hero),
            "rival_score": sum(rivals) / len(rivals), "best_other": max(rivals),
            "ismcts_seconds": think["ismcts"], "ismcts_decisions": decisions["ismcts"], "ismcts_simulations": bot.sims,
            "rival_seconds": think["rival"], "rival_decisions": decisions["rival"]}


def _ismcts_key(row: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(row.get(k) for k in ISMCTS_KEY)


def _check_row(i: int, row: Any) -> None:
    if not isinstance(row, dict) or any(k not in row for k in (*ISMCTS_KEY, "win", "score")):
        raise ValueError(f"--results: line {i} is not an ISMCTS game of this script")


def run_resumable(play: Any, jobs: list[dict[str, Any]], processes: int,
                  results: Path | None) -> list[dict[str, Any]]:
    """``play`` on the jobs not yet in ``results`` (JSON lines, appended as games finish); every job's result.

    Lines of other settings (another ``--against`` or its spec, budget, seed) stay in the file and are not used.
    """
    return run_kept(play, jobs, processes, results, _ismcts_key, check=_check_row)


def summarize_ismcts(results: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per game and opponent: ISMCTS's win share (ties split) with a 95% Wilson interval over games, the
    fair share, mean scores, and each side's mean time per decision (and ISMCTS's simulations per decision)."""
    df = pd.DataFrame(results)
    rows = []
    for (game, against, spec), g in df.groupby(["game", "against", "against_spec"], sort=False):
        p = g["win"].mean()
        lo, hi = wilson(p, len(g))
        rivals = f"2x {against}" + (f" ({spec})" if spec != against else "")
        rows.append({"game": game, "rivals": rivals, "games": len(g), "ismcts_win": p, "ci95_lo": lo,
                     "ci95_hi": hi, "fair_share": 1 / g["players"].iloc[0], "ismcts_score": g["score"].mean(),
                     "rival_score": g["rival_score"].mean(), "best_rival_score": g["best_other"].mean(),
                     "ismcts_ms": 1000 * g["ismcts_seconds"].sum() / max(1, g["ismcts_decisions"].sum()),
                     "rival_ms": 1000 * g["rival_seconds"].sum() / max(1, g["rival_decisions"].sum()),
                     "ismcts_sims": g["ismcts_simulations"].sum() / max(1, g["ismcts_decisions"].sum())})
    return pd.DataFrame(rows)


def run_all(play: Any, jobs: list[dict[str, Any]], processes: int) -> list[dict[str, Any]]:
    """``play`` on every job, in order: on a process pool when ``processes`` > 1."""
    return list(played(play, jobs, processes))


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
    ap.add_argument("--game", default="speicherstadt", choices=list(VARIANTS),
                    help="the game to play (kaispeicher: with the Kaispeicher expansion; packet_row: Packet Row)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--iterations", type=int, default=None, help="MCTS iterations per decision")
    ap.add_argument("--seconds", type=float, default=None,
                    help="MCTS seconds per decision (not reproducible); with --ismcts: ISMCTS and --against both")
    ap.add_argument("--rollout", default="greedy", help="MCTS rollout bot")
    ap.add_argument("--horizon", type=int, default=1, help="MCTS rollout horizon in rounds (0: to the end)")
    ap.add_argument("--processes", type=int, default=1)
    ap.add_argument("--ismcts", action="store_true",
                    help="OpenSpiel's ISMCTS vs 2x --against, 3 players (needs the [rl] extra)")
    ap.add_argument("--against", default="level:6", help="with --ismcts: the bot spec in the other two seats")
    ap.add_argument("--ismcts-simulations", type=int, default=ISMCTS_SIMULATIONS,
                    help="with --ismcts: ISMCTS simulations per move (ignored with --seconds)")
    ap.add_argument("--results", type=Path, default=None,
                    help="with --ismcts: JSON-lines file of finished games (appended; games already there are skipped)")
    args = ap.parse_args(argv)
    if args.ismcts:
        try:
            against = check_against(args.against, args.seconds)
            jobs = ismcts_jobs(args.game, args.games, args.seed, against, args.ismcts_simulations, args.seconds)
        except ValueError as e:
            ap.error(str(e))
        t0 = time.perf_counter()
        results = run_resumable(play_ismcts_one, jobs, args.processes, args.results)
        table = summarize_ismcts(results)
        with pd.option_context("display.width", 200, "display.max_columns", 20, "display.precision", 3):
            print(table.to_string(index=False))
        budget = (f"{args.seconds} s per move each" if args.seconds is not None
                  else f"ISMCTS {args.ismcts_simulations} simulations per move, rivals {against!r}")
        print(f"{budget}; ms per decision with more than one legal move; wall time "
              f"{time.perf_counter() - t0:.0f} s, {args.processes} process(es)")
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
