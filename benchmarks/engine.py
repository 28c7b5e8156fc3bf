"""Engine benchmark: random full games of Die Speicherstadt on one core, for 2, 3, 4 and 5 players.

    .venv/bin/python benchmarks/engine.py                  # ~30 s: a 5 s throughput run per player count
    .venv/bin/python benchmarks/engine.py --seconds 2      # quicker
    .venv/bin/python benchmarks/engine.py --games 200      # a fixed number of games per player count
    .venv/bin/python benchmarks/engine.py --instructions   # CPU instructions (valgrind), base vs Kaispeicher

Per player count it reports: random games per CPU second of this process, and per wall second (the
machine may be shared), each game a uniform choice over ``legal_actions()`` with the seeded ``Rng``,
applied through the public ``apply`` with no other work in the loop; mean decisions per game; µs per
``apply`` and per ``legal_actions`` (recorded games replayed in timed blocks); and the memory of a
stored state: retained bytes per state measured with ``tracemalloc`` while keeping every state of a
game in a list (consecutive states share their per-seat data, so this is what a game record or a
search tree really costs), and the mean ``len(to_json())``.

The target for the engine is at least 300 random 4-player games per second on one core, and for Kaispeicher
at least 0.6 times the base game's rate (issue 27; it has about 1.3 times the decisions a game). The table shows
the rate with Python's default garbage-collector settings and inside ``engine.perf.playout_gc()`` (fewer
generation-0 collections; the engine builds no reference cycles), which is how the library's own playout
loops run. With both games (the default) their games are played in turn, one of each, so that a machine shared
with other work slows both alike, and the column "× base" is Kaispeicher's rate over the base game's.

``--instructions`` counts instead the CPU instructions of ``--games`` (default 30) random games of each game, base
and Kaispeicher, by running this script under valgrind's callgrind (counting only inside the games: they are played
from ``itertools.filterfalse``, the one place callgrind collects), which a shared machine does not disturb: the
column "× base" is then the base game's instructions a game over Kaispeicher's, the speed ratio the load cannot
blur. Without valgrind it says so and stops.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import os
import re
import shutil
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402

import speicherstadt_lab as sl  # noqa: E402
from speicherstadt_lab.engine.perf import playout_gc  # noqa: E402
from speicherstadt_lab.engine.rng import Rng  # noqa: E402

TARGET_PLAYERS = 4
TARGET_GAMES_PER_S = 300
TARGET_KAISPEICHER_RATIO = 0.6  # Kaispeicher's random games per second over the base game's (issue 27)
TARGET_KAISPEICHER_INSTRUCTIONS = 0.65  # the same by instructions a game, so that the wall clock is robustly ≥ 0.6


def random_game(players: int, seed: int, expansion: str | None = None) -> int:
    """Play one uniform random game to the end; return its number of decisions."""
    rng = Rng(seed, "bench")
    s = sl.new_game(players=players, seed=seed, expansion=expansion)
    n = 0
    while not s.is_over:
        s = s.apply(rng.choice(s.legal_actions()))
        n += 1
    return n


def throughput(players: int, seconds: float, games: int | None, seed: int,
               expansions: tuple[str | None, ...] = (None,)) -> dict[str | None, dict[str, float]]:
    """Uninstrumented random games of each of ``expansions``, one game of each in turn (so a load that comes and goes
    falls on all alike): per expansion the count, games per CPU second and per wall second, decisions per game.
    ``seconds`` is the CPU time of each expansion's games."""
    played = {e: 0 for e in expansions}
    decisions = {e: 0 for e in expansions}
    cpu = {e: 0.0 for e in expansions}
    wall = {e: 0.0 for e in expansions}
    start = time.perf_counter()
    while True:
        for e in expansions:
            w0, c0 = time.perf_counter(), time.process_time()
            decisions[e] += random_game(players, seed + played[e], e)
            cpu[e] += time.process_time() - c0
            wall[e] += time.perf_counter() - w0
            played[e] += 1
        if games is not None:
            if played[expansions[0]] >= games:
                break
        elif min(cpu.values()) >= seconds or time.perf_counter() - start >= 2 * seconds * len(expansions):
            break  # a busy machine: cap the wait
    return {e: {"games": played[e], "cpu_rate": played[e] / cpu[e], "wall_rate": played[e] / wall[e],
                "decisions": decisions[e] / played[e]} for e in expansions}


def call_times(players: int, games: int, seed: int, expansion: str | None = None) -> tuple[float, float]:
    """Mean µs per ``apply`` and per first ``legal_actions`` call on a fresh state, in CPU time.

    The (state, action) pairs of ``games`` random games are recorded, then every action is applied again
    in one timed block, and ``legal_actions`` is called once on each fresh result in another: timing call
    by call would mostly measure the clock (a clock read costs about a microsecond here).
    """
    pairs = []
    for g in range(games):
        rng = Rng(seed + g, "bench")
        s = sl.new_game(players=players, seed=seed + g, expansion=expansion)
        while not s.is_over:
            a = rng.choice(s.legal_actions())
            pairs.append((s, a))
            s = s.apply(a)
    gc.collect()
    gc.disable()  # the recorded states are many live objects: collections would be charged to the calls
    try:
        t0 = time.process_time()
        children = [s.apply(a) for s, a in pairs]
        t1 = time.process_time()
        for c in children:
            c.legal_actions()
        t2 = time.process_time()
    finally:
        gc.enable()
    return (t1 - t0) / len(pairs) * 1e6, (t2 - t1) / len(pairs) * 1e6


def state_memory(players: int, games: int, seed: int, expansion: str | None = None) -> tuple[float, float]:
    """(retained bytes per state when all states of a game are kept, mean len(to_json()))."""
    random_game(players, seed)  # warm caches (notation, combinations) so they are not counted
    per_state: list[float] = []
    json_len = json_n = 0
    for g in range(games):
        rng = Rng(seed + g, "bench")
        gc.collect()
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
        s = sl.new_game(players=players, seed=seed + g, expansion=expansion)
        states = [s]
        while not s.is_over:
            s = s.apply(rng.choice(s.legal_actions()))
            states.append(s)
        gc.collect()
        used = tracemalloc.get_traced_memory()[0] - base
        tracemalloc.stop()
        per_state.append(used / len(states))
        for st in states:
            json_len += len(st.to_json())
        json_n += len(states)
        del states, s
    return sum(per_state) / len(per_state), json_len / json_n


def _counted_games(players: int, games: int, seed: int, expansion: str | None) -> None:
    """Play ``games`` random games inside ``itertools.filterfalse`` (where callgrind counts, ``--instructions``), after
    two uncounted ones that warm the caches; print the decisions played."""
    random_game(players, seed + 10_000, expansion)
    random_game(players, seed + 10_001, expansion)
    decisions: list[int] = []
    list(itertools.filterfalse(lambda g: decisions.append(random_game(players, seed + g, expansion)), range(games)))
    print(sum(decisions))


def instructions(players: list[int], games: int, seed: int) -> int:
    """``--instructions``: each game's instructions counted by callgrind in a child process, printed as a table."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        print("--instructions needs valgrind (apt-get install valgrind)", file=sys.stderr)
        return 2
    rows = []
    for n in players:
        counts = {}
        for expansion in ("base", "kaispeicher"):
            cmd = [valgrind, "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=filterfalse_next",
                   "--callgrind-out-file=/dev/null", sys.executable, __file__, "--count-games", expansion,
                   "--players", str(n), "--games", str(games), "--seed", str(seed)]
            env = {**os.environ, "PYTHONHASHSEED": "0"}  # the same dict and set orders every run
            done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
            found = re.search(r"Collected : (\d+)", done.stderr)
            if found is None:
                raise RuntimeError(f"callgrind printed no count:\n{done.stderr[-2000:]}")
            counts[expansion] = (int(found.group(1)), int(done.stdout.split()[-1]))
            print(f"  {n} players, {expansion} counted", file=sys.stderr, flush=True)
        base_ir = counts["base"][0] / games
        for expansion, (ir, decisions) in counts.items():
            rows.append({"game": expansion, "players": n, "games": games, "decisions/game": round(decisions / games, 1),
                         "M instructions/game": round(ir / games / 1e6, 2),
                         "k instructions/decision": round(ir / decisions / 1e3, 1),
                         "× base": round(base_ir / (ir / games), 3)})
    table = pd.DataFrame(rows).set_index(["game", "players"])
    print(f"Die Speicherstadt engine, CPU instructions of random games (valgrind callgrind, Python "
          f"{sys.version.split()[0]}); × base: the base game's instructions a game over this game's (a speed ratio)")
    print(table.to_string())
    if ("kaispeicher", TARGET_PLAYERS) in table.index:
        ratio = table.loc[("kaispeicher", TARGET_PLAYERS), "× base"]
        verdict = "met" if ratio >= TARGET_KAISPEICHER_INSTRUCTIONS else "NOT met"
        print(f"target: Kaispeicher ≥ {TARGET_KAISPEICHER_INSTRUCTIONS}× the base game's speed by instructions "
              f"({TARGET_PLAYERS} players): {verdict} ({ratio:.3f}×)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="CPU seconds of the throughput run per player count (wall time ≤ twice that)")
    parser.add_argument("--games", type=int, default=None, help="play exactly N games per player count instead")
    parser.add_argument("--players", type=int, nargs="+", default=None, choices=[2, 3, 4, 5],
                        help="player counts (default 2 3 4 5; with --instructions, 4)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first game (games use seed, seed+1, ...)")
    parser.add_argument("--expansion", choices=["base", "kaispeicher", "both"], default="both",
                        help="the base game, Kaispeicher, or both (rows side by side)")
    parser.add_argument("--instructions", action="store_true",
                        help="count CPU instructions with valgrind instead (base and Kaispeicher; --games, default 30)")
    parser.add_argument("--count-games", choices=["base", "kaispeicher"], help=argparse.SUPPRESS)  # the child's part
    args = parser.parse_args(argv)
    if args.count_games is not None:
        _counted_games((args.players or [TARGET_PLAYERS])[0], args.games or 30, args.seed,
                       None if args.count_games == "base" else args.count_games)
        return 0
    if args.instructions:
        return instructions(args.players or [TARGET_PLAYERS], args.games or 30, args.seed)
    args.players = args.players or [2, 3, 4, 5]
    if args.games is not None and args.games < 1:
        parser.error("--games must be at least 1")
    if args.seconds <= 0:
        parser.error("--seconds must be positive")

    rows = []
    expansions = {"base": (None,), "kaispeicher": ("kaispeicher",), "both": (None, "kaispeicher")}[args.expansion]
    for n in args.players:
        runs = throughput(n, args.seconds, args.games, args.seed, expansions)
        with playout_gc():  # how simulate(), evaluate() and the bots' rollouts run
            fasts = throughput(n, args.seconds, args.games, args.seed, expansions)
        for expansion in expansions:
            run, fast = runs[expansion], fasts[expansion]
            timed = max(3, min(int(run["games"]) // 4, 50))
            us_apply, us_legal = call_times(n, timed, args.seed, expansion)
            mem, json_len = state_memory(n, 3, args.seed, expansion)
            rows.append({
                "game": expansion or "base",
                "players": n,
                "games": run["games"],
                "games/s": round(run["cpu_rate"], 1),
                "× base": round(run["cpu_rate"] / runs[None]["cpu_rate"], 2) if None in runs else None,
                "games/s (wall)": round(run["wall_rate"], 1),
                "games/s (playout_gc)": round(fast["cpu_rate"], 1),
                "decisions/game": round(run["decisions"], 1),
                "µs/apply": round(us_apply, 2),
                "µs/legal_actions": round(us_legal, 2),
                "bytes/state (retained)": round(mem),
                "bytes/state (to_json)": round(json_len),
            })
        print(f"  {n} players done", file=sys.stderr, flush=True)
    table = pd.DataFrame(rows).set_index(["game", "players"]).sort_index(level=0, sort_remaining=False)
    if None not in expansions:
        table = table.drop(columns="× base")
    print(f"Die Speicherstadt engine, random games on one core (Python {sys.version.split()[0]}); "
          "rates and µs are per CPU second of this process")
    print(table.to_string())
    if ("base", TARGET_PLAYERS) in table.index:
        for column in ("games/s", "games/s (playout_gc)"):
            rate = table.loc[("base", TARGET_PLAYERS), column]
            verdict = "met" if rate >= TARGET_GAMES_PER_S else "NOT met"
            print(f"target: ≥ {TARGET_GAMES_PER_S} random {TARGET_PLAYERS}-player games/s on one core, {column}: "
                  f"{verdict} ({rate:.1f})")
    if ("kaispeicher", TARGET_PLAYERS) in table.index and "× base" in table.columns:
        ratio = table.loc[("kaispeicher", TARGET_PLAYERS), "× base"]
        verdict = "met" if ratio >= TARGET_KAISPEICHER_RATIO else "NOT met"
        print(f"target: Kaispeicher ≥ {TARGET_KAISPEICHER_RATIO}× the base game's random {TARGET_PLAYERS}-player "
              f"games/s (measured in turn in this run): {verdict} ({ratio:.2f}×)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
