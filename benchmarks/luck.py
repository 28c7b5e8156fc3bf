"""Luck against what really happens: does a seat the review calls lucky at a supply really win that much more?

    .venv/bin/python benchmarks/luck.py                                  # 150 greedy self-play games, 3 players
    .venv/bin/python benchmarks/luck.py --game packet_row --games 100
    .venv/bin/python benchmarks/luck.py --expansion kaispeicher --games 60

The review's luck of a seat at a round's supply (the cards and goods the draw put on the board) is its win
chance just after the supply minus its mean over the draws that could have come (docs/review.md, "Luck").
``--values``: ``hybrid`` measures both sides as ``review(value="hybrid")`` does (greedy rollouts the game's
``hybrid_horizon`` rounds deep, scored by the model), ``model`` with the value model alone (``value="model"``),
on the same supplies, ``--draws`` rollouts or redraws a side (the review's ``luck_rollouts``). If that number means
what it says, a seat that the review calls lucky by +0.10 wins, from then on, 0.10 more often than it was
expected to before the draw: the mean of (won − win_before) over supplies with luck near x is x, and the line
through them has slope 1. Held-out games (seeds labelled "luck-benchmark", never used to train a model) of
``--selfplay`` bots are recorded; every supply's luck is measured exactly as the review does it; the table
bins the supplies by luck and sets each bin's mean luck beside what really followed, with 95% intervals; the
slope of that line has an interval from resampling the games. The Brier score of the win chances before and
after the supply is printed too (after should be lower: the draw is news).
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from tqdm import tqdm  # noqa: E402

import speicherstadt_lab as sl  # noqa: E402
from benchmarks.heldout import game_options, held_out_parser, title  # noqa: E402
from speicherstadt_lab.bots import make_bot  # noqa: E402
from speicherstadt_lab.engine.protocol import get_game  # noqa: E402
from speicherstadt_lab.engine.rng import derive_seed  # noqa: E402
from speicherstadt_lab.reviewing import _job, _setup_kwargs, _supplies  # noqa: E402

BINS = (-1.01, -0.15, -0.05, -0.02, 0.02, 0.05, 0.15, 1.01)


def play_game(game: str, players: int, options: dict[str, Any], seed: int, index: int, selfplay: str,
              draws: int, values: tuple[str, ...]) -> list[dict[str, Any]]:
    """One held-out game, recorded; per supply and seat: the review's win chances before and after, who won."""
    game_seed = derive_seed(seed, "luck-benchmark", index)
    bots = [make_bot(selfplay, seed=derive_seed(game_seed, "bot", i)) for i in range(players)]
    record = sl.GameRecord.new(players=players, seed=game_seed, game=game, **options)
    node = record.root
    while not node.state.is_over:
        st = node.state
        node = node.play(bots[st.to_move].choose(st.observe(st.to_move)))
    winners = node.state.winners()
    won = [1.0 / len(winners) if i in winners else 0.0 for i in range(players)]
    path = record.mainline()
    rows = []
    horizon = get_game(game).hybrid_horizon
    for rnd, k, j in _supplies(path):
        after = path[j].state.to_json()
        luck_seed = derive_seed(game_seed, "luck", rnd)
        for value in values:
            if k == 0:
                job: tuple[Any, ...] = ("luck_setup", game, _setup_kwargs(record), after, draws, None, luck_seed,
                                        value, horizon)
            else:
                job = ("luck", path[k - 1].state.to_json(), path[k].action, after, draws, None, luck_seed, value,
                       horizon)
            res = _job(job)
            for i in range(players):
                rows.append({"value": value, "game": index, "round": rnd, "seat": i, "before": res["win_before"][i],
                             "after": res["win_after"][i], "won": won[i]})
    return rows


def mean_ci(x: np.ndarray) -> str:
    if len(x) < 2:
        return "—"
    return f"{x.mean():+.3f} ± {1.96 * x.std(ddof=1) / np.sqrt(len(x)):.3f}"


def slope_ci(df: pd.DataFrame, draws: int = 2000) -> tuple[float, float, float]:
    """Slope of the line through (luck, won − before), and its 95% interval from resampling the games."""
    def slope(d: pd.DataFrame) -> float:
        return float(np.polyfit(d["luck"], d["real"], 1)[0])

    games = df["game"].unique()
    groups = {g: d for g, d in df.groupby("game")}
    rng = np.random.default_rng(0)
    boot = [slope(pd.concat([groups[g] for g in rng.choice(games, len(games))])) for _ in range(draws)]
    lo, hi = np.percentile(boot, [2.5, 97.5])
    return slope(df), float(lo), float(hi)


def report(df: pd.DataFrame, value: str, players: int) -> None:
    """The table, the line and the Brier scores of one way of measuring the luck."""
    df["luck"] = df["after"] - df["before"]
    df["real"] = df["won"] - df["before"]
    df["bin"] = pd.cut(df["luck"], BINS, right=False)
    table = df.groupby("bin", observed=True).agg(seat_supplies=("luck", "size"), luck=("luck", "mean"))
    table["won − before (95%)"] = [mean_ci(df.loc[df["bin"] == b, "real"].to_numpy()) for b in table.index]
    print(f"\nluck by the {value}: what really followed (won − win chance before the supply), by the luck:")
    with pd.option_context("display.width", 200, "display.float_format", "{:+.3f}".format):
        print(table.to_string())
    if df["luck"].std() < 1e-9:
        print("won − before ≈ —: this luck has no spread (it is 0 at every supply: the measure cannot see the draws)")
        return
    slope, lo, hi = slope_ci(df)
    print(f"won − before ≈ {np.polyfit(df['luck'], df['real'], 1)[1]:+.3f} + {slope:.2f} × luck "
          f"(95% over games {lo:.2f}..{hi:.2f}; 1 means the luck is what it says); luck: mean "
          f"{df['luck'].mean():+.4f}, spread {df['luck'].std():.3f}, correlation with what followed "
          f"{np.corrcoef(df['luck'], df['real'])[0, 1]:.2f}")
    b_before = ((df["before"] - df["won"]) ** 2).groupby([df["game"], df["round"]]).sum().mean()
    b_after = ((df["after"] - df["won"]) ** 2).groupby([df["game"], df["round"]]).sum().mean()
    print(f"Brier of the win chances before the supplies {b_before:.3f}, after {b_after:.3f} "
          f"(1/n for all: {1 - 1 / players:.3f})")


def main(argv: list[str] | None = None) -> int:
    ap = held_out_parser(__doc__, games=150)
    ap.add_argument("--draws", type=int, default=80,
                    help="redraws of each supply for 'before' (the review's luck_rollouts: 4 × its 20 rollouts)")
    ap.add_argument("--values", default="model,hybrid",
                    help="how the luck is measured: model (the value model before and after), hybrid (greedy "
                         "rollouts the game's hybrid_horizon rounds deep, scored by the model), comma-separated")
    args = ap.parse_args(argv)
    options = game_options(args)
    values = tuple(args.values.split(","))
    wall = time.perf_counter()
    rows: list[dict[str, Any]] = []
    with ProcessPoolExecutor(args.processes) as pool:
        futures = [pool.submit(play_game, args.game, args.players, options, args.seed, g, args.selfplay, args.draws,
                               values) for g in range(args.games)]
        for fut in tqdm(futures, desc="held-out games", unit="game"):
            rows.extend(fut.result())
    all_rows = pd.DataFrame(rows)
    print(f"Luck at the supplies of {args.games} held-out games of {args.selfplay} self-play, {title(args)}: "
          f"{len(all_rows) // args.players // len(values)} supplies, {args.draws} redraws each; "
          f"wall {time.perf_counter() - wall:.0f} s")
    for value in values:
        report(all_rows[all_rows["value"] == value].copy(), value, args.players)
    return 0


if __name__ == "__main__":
    sys.exit(main())
