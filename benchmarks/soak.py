"""Soak: random playouts at volume, every step checked by the conformance harness, seeds drawn fresh each run.

    .venv/bin/python benchmarks/soak.py                        # 100,000 games over every game and player count
    .venv/bin/python benchmarks/soak.py --games 2000 --processes 1
    .venv/bin/python benchmarks/soak.py --seed 12345           # the same games again
    .venv/bin/python benchmarks/soak.py --thorough --games 500 # every quick-mode check (views, twins, JSON, ...)
    .venv/bin/python benchmarks/soak.py --replay kaispeicher:3:2718281828   # one game, every check, the failure

The games are split evenly over base game, Kaispeicher and Packet Row with 2-5 players (12 cells). Every
game is a uniform random playout checked after every step (``engine.conformance.check_game``) with the
checks in ``SOAK_CHECKS``: the game's own invariants (cubes, cards, coins, limits), the decision protocol
(≥ 2 distinct legal actions that parse back), scores that add up, every legal action applies and records
events, every event renders in EN and DE, round and phase only move forward, and the game's end-of-game
checks. ``--thorough`` adds the rest of the harness's quick mode (JSON round trip, views free of hidden
orders, observe and determinize keep the public facts, no position repeats, determinism), about 10× slower.

The run seed is drawn from the operating system unless ``--seed`` is given, and printed first, so any run can
be repeated. The table gives per game and player count: games, decisions, violations (games that failed a
check), checked games per CPU second of the workers, and, as the reference measured in the same run, the
same seeds played without checks (games/s and the checked/bare ratio). A violation prints its message and
a one-line replay command.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402
from tqdm import tqdm  # noqa: E402

from speicherstadt_lab.engine.conformance import CHECKS, check_game, get_adapter, playout_actions  # noqa: E402
from speicherstadt_lab.engine.perf import playout_gc  # noqa: E402
from speicherstadt_lab.engine.protocol import game_variants, variant_start  # noqa: E402
from speicherstadt_lab.engine.rng import Rng  # noqa: E402

#: name on the command line -> (registered game, adapter options)
VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {key: variant_start(key) for key in game_variants()}
SOAK_CHECKS = ("invariants", "decisions", "scores", "apply", "events", "game")
CHUNK = 100  # games per task: small enough for an even split over the workers and a lively progress bar
BARE_SAMPLE = 5  # games per task replayed without checks, for the reference rate


@dataclass
class Cell:
    """What one (variant, players) cell did."""

    games: int = 0
    decisions: int = 0
    violations: int = 0
    cpu: float = 0.0
    bare_games: int = 0
    bare_cpu: float = 0.0
    failures: list[tuple[int, str]] = field(default_factory=list)

    def add(self, other: Cell) -> None:
        for f in fields(self):  # counts and times add up, failures join
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))


def soak_chunk(variant: str, players: int, seeds: list[int], thorough: bool) -> tuple[str, int, Cell]:
    """Check the games of ``seeds``; a failing game counts as a violation and the run goes on."""
    game, options = VARIANTS[variant]
    adapter = get_adapter(game, **options)
    skip = () if thorough else tuple(c for c in CHECKS if c not in SOAK_CHECKS)
    cell = Cell()
    with playout_gc():
        start = time.process_time()
        for seed in seeds:
            try:
                report = check_game(adapter, players, seed, skip=skip)
            except AssertionError as e:
                cell.violations += 1
                cell.failures.append((seed, str(e)))
            else:
                cell.decisions += report.steps - 1
            cell.games += 1
        cell.cpu = time.process_time() - start
        start = time.process_time()
        for seed in seeds[:BARE_SAMPLE]:
            playout_actions(adapter, players, seed)
            cell.bare_games += 1
        cell.bare_cpu = time.process_time() - start
    return variant, players, cell


def tasks(run_seed: int, games: int, variants: list[str], players: list[int]) -> Iterator[tuple[str, int, list[int]]]:
    """The games split evenly over the cells, each cell's seeds drawn from the run seed, in chunks."""
    cells = [(v, n) for v in variants for n in players]
    base, extra = divmod(games, len(cells))
    per_cell = {c: base + (i < extra) for i, c in enumerate(cells)}
    rngs = {c: Rng(run_seed, "soak", c[0], c[1]) for c in cells}
    left = dict(per_cell)
    while any(left.values()):  # interleave the cells so a partial run (Ctrl-C) has a bit of each
        for c in cells:
            k = min(CHUNK, left[c])
            if k:
                left[c] -= k
                yield c[0], c[1], [rngs[c].below(2**32) for _ in range(k)]


def replay(spec: str) -> int:
    """``variant:players:seed``: one game with every quick-mode check; print the first failure or the report."""
    try:
        variant, players, seed = spec.split(":")
        game, options = VARIANTS[variant]
        n, s = int(players), int(seed)
    except (ValueError, KeyError):
        print(f"--replay wants VARIANT:PLAYERS:SEED with VARIANT one of {', '.join(VARIANTS)}, got {spec!r}")
        return 2
    try:
        report = check_game(get_adapter(game, **options), n, s)
    except AssertionError as e:
        print(f"violation: {e}")
        return 1
    print(f"no violation: {report}")
    return 0


def table(cells: dict[tuple[str, int], Cell]) -> pd.DataFrame:
    rows = []
    for (variant, n), c in sorted(cells.items(), key=lambda kv: (list(VARIANTS).index(kv[0][0]), kv[0][1])):
        rate = c.games / c.cpu if c.cpu else float("nan")
        bare = c.bare_games / c.bare_cpu if c.bare_cpu else float("nan")
        rows.append({"game": variant, "players": n, "games": c.games, "decisions": c.decisions,
                     "violations": c.violations, "games/s (checked)": round(rate, 1),
                     "games/s (bare, same seeds)": round(bare, 1), "checked/bare": round(rate / bare, 3)})
    return pd.DataFrame(rows).set_index(["game", "players"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100_000, help="games in all, split over the cells")
    ap.add_argument("--seed", type=int, default=None, help="run seed (default: fresh from the OS, printed)")
    ap.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated: " + ", ".join(VARIANTS))
    ap.add_argument("--players", default="2,3,4,5")
    ap.add_argument("--thorough", action="store_true", help="every quick-mode check of the harness")
    ap.add_argument("--replay", metavar="VARIANT:PLAYERS:SEED", help="check one game with every check and stop")
    args = ap.parse_args(argv)
    if args.replay:
        return replay(args.replay)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        ap.error(f"--variants: unknown {unknown}; known: {', '.join(VARIANTS)}")
    players = [int(p) for p in args.players.split(",")]
    run_seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    print(f"soak: run seed {run_seed} ({args.games} games, {args.processes} process(es), "
          f"checks: {'all of quick mode' if args.thorough else ', '.join(SOAK_CHECKS)})", flush=True)
    print(f"  again: .venv/bin/python benchmarks/soak.py --seed {run_seed} --games {args.games}", flush=True)
    cells: dict[tuple[str, int], Cell] = {(v, n): Cell() for v in variants for n in players}
    wall = time.perf_counter()
    work = list(tasks(run_seed, args.games, variants, players))
    bar = tqdm(total=args.games, unit="game", smoothing=0.05, file=sys.stderr)
    first: tuple[str, int, int, str] | None = None

    def take(variant: str, n: int, cell: Cell) -> None:
        nonlocal first
        cells[(variant, n)].add(cell)
        bar.update(cell.games)
        for seed, msg in cell.failures:
            if first is None:
                first = (variant, n, seed, msg)
                tqdm.write(f"VIOLATION {variant} {n}p seed {seed}: {msg}", file=sys.stderr)

    try:
        if args.processes <= 1:
            for v, n, seeds in work:
                take(*soak_chunk(v, n, seeds, args.thorough))
        else:
            with ProcessPoolExecutor(args.processes) as pool:
                futures = [pool.submit(soak_chunk, v, n, seeds, args.thorough) for v, n, seeds in work]
                for fut in as_completed(futures):
                    take(*fut.result())
    except KeyboardInterrupt:
        print("\ninterrupted: the table covers the games finished so far")
    bar.close()
    wall = time.perf_counter() - wall
    df = table(cells)
    total = df[["games", "decisions", "violations"]].sum()
    with pd.option_context("display.width", 200, "display.max_columns", 20):
        print(df.to_string())
    print(f"total: {total['games']} games, {total['decisions']} decisions, {total['violations']} violations "
          f"in {wall:.0f} s wall ({total['games'] / wall:.1f} games/s with {args.processes} process(es))")
    if first is not None:
        variant, n, seed, msg = first
        print(f"first violation: {variant} {n}p seed {seed}: {msg}")
        print(f"  replay: .venv/bin/python benchmarks/soak.py --replay {variant}:{n}:{seed}")
        return 1
    print("no violations")
    return 0


if __name__ == "__main__":
    sys.exit(main())
