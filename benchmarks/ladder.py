"""The ladder: how strong each opponent level (``make_bot("level:N")``) plays, measured in a round robin.

Every pairing of two levels A (the higher) and B plays the same deals (paired seeds: deal k has the same cards
and goods in every pairing), 3 players: deal k is played three times with A, B, B in the seats rotated (odd
deals: B, A, A), so each level sits in each seat equally often. From every game each A seat is compared with each
B seat: A is ahead when it finished ranked better (a tie counts half). Printed per pairing: A's share of these
comparisons with a 95% interval (Wilson over games, the comparisons of one game counted once), and per level a
Bradley–Terry rating on the Elo scale (scikit-learn's logistic regression on all comparisons, one virtual draw per
pairing so a clean sweep stays finite; level 1 = 1000; 95% interval from a bootstrap over the games of each
pairing). A reference pairing, a level against itself on the same deals, is measured in the same run: 50% expected.
Beside the ratings: each level's thinking time per decision and its ratio to the reference level's, from the same run.

    python benchmarks/ladder.py --game speicherstadt --games 12                 # every level, 12 games a pairing
    python benchmarks/ladder.py --game kaispeicher --games 6 --levels 1,3,5 --write
    python benchmarks/ladder.py --game packet_row --games 24 --results /tmp/pr.jsonl   # resumable: games kept
    python benchmarks/ladder.py --games 30 --span 2     # only levels up to 2 apart (the costly top is paired less)

``--results FILE`` keeps each finished game as a line of JSON and skips the games already there, so a run can be
stopped and continued (or extended with a larger ``--games``); ``--played-only`` prints the table of the games the file
holds, playing none (pairings may then have different numbers of games; each row says how many). ``--write``
stores the table as the variant's ladder file, ``speicherstadt_lab/data/ladder/<variant>.json``, which the package
reads (json only) to show each level's rating; ``--out PATH`` writes it elsewhere.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import speicherstadt_lab as sl
from benchmarks.resumable import run_kept
from speicherstadt_lab.analysis import wilson
from speicherstadt_lab.bots import make_bot
from speicherstadt_lab.bots.levels import (
    LADDER_FORMAT,
    LADDER_VERSION,
    LEVELS,
    check_ladder,
    get_level,
    level_spec,
    variant_name,
)
from speicherstadt_lab.engine.protocol import game_variants, ranks, variant_start
from speicherstadt_lab.engine.rng import derive_seed

ROOT = Path(__file__).resolve().parent.parent


def _variants() -> dict[str, tuple[str, str | None]]:
    """Name on the command line -> (game, expansion): the registered variants (``game_variants``), each also by its
    ladder file's stem (``speicherstadt+kaispeicher``)."""
    out = {}
    for key in game_variants():
        game, options = variant_start(key)
        out[key] = (game, options.get("expansion"))
    return out | {variant_name(*gv): gv for gv in out.values()}


VARIANTS = _variants()
ANCHOR = 1000.0
ELO = 400.0 / math.log(10.0)  # rating points per logit: 400 points = odds of 10 to 1


def seating(a: int, b: int, deal: int, rotation: int, players: int) -> list[int]:
    """The level in each seat: one A and the rest B on even deals (one B and the rest A on odd ones), rotated."""
    base = [a] + [b] * (players - 1) if deal % 2 == 0 else [b] + [a] * (players - 1)
    return [base[(seat - rotation) % players] for seat in range(players)]


def play_one(job: dict[str, Any]) -> dict[str, Any]:
    """One game of a pairing: A's comparisons won (ties half) and made, and each level's thinking time."""
    game, expansion = VARIANTS[job["variant"]]
    n = job["players"]
    deal_seed = derive_seed(job["seed"], "deal", job["deal"])
    kw = {"expansion": expansion} if expansion else {}
    state = sl.new_game(game, players=n, seed=deal_seed, **kw)
    seats = seating(job["a"], job["b"], job["deal"], job["rotation"], n)
    spec = {job["b"]: job["spec_b"], job["a"]: job["spec_a"]}  # what each level plays in this run (``jobs_for``)
    bots = [make_bot(spec[lv], seed=derive_seed(deal_seed, "bot", job["rotation"], seat))
            for seat, lv in enumerate(seats)]
    think = [0.0] * n
    decisions = [0] * n
    while not state.is_over:
        seat = state.to_move
        obs = state.observe(seat)
        t0 = time.perf_counter()
        action = bots[seat].choose(obs)
        think[seat] += time.perf_counter() - t0
        decisions[seat] += 1
        state = state.apply(action)
    rank = ranks(state)
    # Which seats are "A": the reference plays a level against itself, so the label goes by the seating's base.
    a_seats = [s for s in range(n) if (s - job["rotation"]) % n == 0] if job["deal"] % 2 == 0 else \
        [s for s in range(n) if (s - job["rotation"]) % n != 0]
    b_seats = [s for s in range(n) if s not in a_seats]
    won = sum(1.0 if rank[i] < rank[j] else 0.5 if rank[i] == rank[j] else 0.0 for i in a_seats for j in b_seats)
    timing: dict[str, list[float]] = {}
    for s, lv in enumerate(seats):
        t = timing.setdefault(str(lv), [0.0, 0])
        t[0] += think[s]
        t[1] += decisions[s]
    return {**job, "won": won, "compared": len(a_seats) * len(b_seats), "timing": timing}


def jobs_for(variant: str, levels: Sequence[int], reference: int, games: int, players: int,
             seed: int, span: int | None = None, specs: dict[int, str] | None = None) -> list[dict[str, Any]]:
    """Every game of the run, game index outermost: a run stopped early has (nearly) equal games in every pairing.

    ``span``: pair only levels at most this many places apart in ``levels`` (None: every pair, a full round robin).
    Each job carries the spec each level plays in this game (``level_spec``: a search level's horizon written out
    where the game sets its own), so a results file never mixes games played under different specs. ``specs``: a
    level played as another spec in this run (a screen of a candidate definition, ``--spec``).
    """
    span = len(levels) if span is None else span
    pairs = [(a, b) for i, b in enumerate(levels) for a in levels[i + 1:i + 1 + span]] + [(reference, reference)]
    played = {lv: level_spec(lv, VARIANTS[variant][0]) for lv in [*levels, reference]} | (specs or {})
    return [{"variant": variant, "players": players, "seed": seed, "a": a, "b": b, "deal": g // players,
             "rotation": g % players, "spec_a": played[a], "spec_b": played[b]}
            for g in range(games) for a, b in pairs]


def parse_specs(items: Sequence[str], levels: Sequence[int]) -> dict[int, str]:
    """``["5=mcts:iterations=60,value=model", ...]`` as {level: spec}; ValueError naming ``--spec`` for an item that is
    not ``N=SPEC``, a level not in the run, or a spec no bot is made from."""
    out: dict[int, str] = {}
    for item in items:
        number, sep, spec = item.partition("=")
        if not sep or not spec.strip():
            raise ValueError(f"--spec: {item!r} is not N=SPEC (e.g. 5=mcts:iterations=60,value=model)")
        try:
            lv = get_level(number).number
        except ValueError as e:
            raise ValueError(f"--spec: {item!r}: {e}") from None
        if lv not in levels:
            raise ValueError(f"--spec: level {lv} is not played in this run (--levels, --reference)")
        try:
            make_bot(spec.strip(), seed=0)
        except (ValueError, TypeError) as e:
            raise ValueError(f"--spec: {spec.strip()!r} is not a bot spec ({e})") from None
        out[lv] = spec.strip()
    return out


def _key(job: dict[str, Any]) -> tuple[Any, ...]:
    # A game is fixed by its deal, seating and the specs played (``play_one``: the level numbers only place the specs),
    # so the key leaves the numbers out: a level renumbered (a new level below it) keeps its games.
    return tuple(job[k] for k in ("variant", "players", "seed", "deal", "rotation", "spec_a", "spec_b"))


def _as_job(row: dict[str, Any], job: dict[str, Any]) -> dict[str, Any]:
    """A kept game's result under the level numbers of ``job`` (the same game: ``_key``), its timing relabelled."""
    if (row["a"], row["b"]) == (job["a"], job["b"]):
        return row
    names = {str(row["a"]): str(job["a"]), str(row["b"]): str(job["b"])}
    return {**row, "a": job["a"], "b": job["b"], "timing": {names.get(k, k): v for k, v in row["timing"].items()}}


def run(jobs: list[dict[str, Any]], processes: int, results: Path | None,
        played_only: bool = False) -> list[dict[str, Any]]:
    """Play the jobs not yet in ``results`` (a JSON-lines file, appended as games finish); every job's result.

    ``played_only``: play nothing, return the results of the jobs ``results`` already holds (a stopped run's table).
    """
    kept = {_key(row): row for row in run_kept(play_one, jobs, processes, results, _key, played_only=played_only)}
    return [_as_job(kept[_key(j)], j) for j in jobs if _key(j) in kept]


def bradley_terry(counts: dict[tuple[int, int], tuple[float, float]], levels: Sequence[int]) -> np.ndarray:
    """Ratings (Elo scale, ``levels[0]`` = ANCHOR) fitted to A's comparisons won and lost per pairing (a, b).

    One virtual draw per pairing (half a win each way) keeps a clean sweep finite.
    """
    from sklearn.linear_model import LogisticRegression

    col = {lv: i for i, lv in enumerate(levels)}
    xs, ys, ws = [], [], []
    for (a, b), (won, lost) in counts.items():
        if a == b:
            continue
        x = np.zeros(len(levels))
        x[col[a]], x[col[b]] = 1.0, -1.0
        xs += [x, x]
        ys += [1, 0]
        ws += [won + 0.5, lost + 0.5]
    model = LogisticRegression(C=np.inf, fit_intercept=False, max_iter=1000)  # C=inf: no penalty
    model.fit(np.array(xs)[:, 1:], np.array(ys), sample_weight=np.array(ws))  # level 1's column dropped: it is 0
    return ANCHOR + ELO * np.concatenate([[0.0], model.coef_[0]])


def summarize(results: list[dict[str, Any]], levels: Sequence[int], reference: int, bootstrap: int,
              seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(pairings table, levels table): win rates with Wilson intervals; ratings with bootstrap intervals; timing."""
    df = pd.DataFrame(results)
    games = {k: (g["won"].to_numpy(float), (g["compared"] - g["won"]).to_numpy(float))
             for k, g in df.groupby(["a", "b"])}
    ratings = bradley_terry({k: (w.sum(), lost.sum()) for k, (w, lost) in games.items()}, levels)
    rng = np.random.default_rng(seed)
    boots = []
    for _ in range(bootstrap):  # resample the games of each pairing
        picks = {k: rng.integers(0, len(w), len(w)) for k, (w, _) in games.items()}
        boots.append(bradley_terry({k: (w[picks[k]].sum(), lost[picks[k]].sum()) for k, (w, lost) in games.items()},
                                   levels))
    boot = np.array(boots) if boots else np.array([ratings])
    lo, hi = np.percentile(boot, 2.5, axis=0), np.percentile(boot, 97.5, axis=0)
    rating = dict(zip(levels, ratings, strict=True))
    pair_rows = []
    for (a, b), g in df.groupby(["a", "b"], sort=False):
        p = g["won"].sum() / g["compared"].sum()
        w_lo, w_hi = wilson(p, len(g))
        w_lo, w_hi = min(w_lo, p), max(w_hi, p)  # Wilson's bound at a clean sweep is 1 up to rounding
        fit = 1 / (1 + 10 ** ((rating[b] - rating[a]) / 400)) if a != b else 0.5
        pair_rows.append({"pairing": f"L{a} vs L{b}" + (" (reference)" if a == b else ""), "a": a, "b": b,
                          "games": len(g), "win_rate": p, "win_rate_lo": w_lo, "win_rate_hi": w_hi,
                          "expected": 0.5 if a == b else float("nan"), "bt_fit": fit})
    timing: dict[int, list[float]] = {}
    for t in df["timing"]:
        for lv, (secs, n) in t.items():
            acc = timing.setdefault(int(lv), [0.0, 0])
            acc[0] += secs
            acc[1] += n
    ms = {lv: 1000 * s / max(1, n) for lv, (s, n) in timing.items()}
    played = {**dict(zip(df["b"], df["spec_b"], strict=True)), **dict(zip(df["a"], df["spec_a"], strict=True))}
    level_rows = []
    for i, lv in enumerate(levels):
        level_rows.append({"level": lv, "spec": played.get(lv, get_level(lv).spec), "rating": ratings[i],
                           "rating_lo": lo[i],
                           "rating_hi": hi[i], "ms_per_decision": ms.get(lv, float("nan")),
                           "time_vs_reference": ms.get(lv, float("nan")) / max(ms.get(reference, 1e-9), 1e-9)})
    return pd.DataFrame(pair_rows), pd.DataFrame(level_rows)


def ladder_json(pairs: pd.DataFrame, levels: pd.DataFrame, variant: str, players: int, games: int, seed: int,
                bootstrap: int) -> dict[str, Any]:
    """The ladder file's content (checked by ``check_ladder`` before it is written).

    ``games``: the fewest games any pairing has (a run extended for some pairings only has more in those; each
    pairing's row carries its own count)."""
    game, expansion = VARIANTS[variant]

    def rows(df: pd.DataFrame, keys: Sequence[str]) -> list[dict[str, Any]]:
        return [{k: (r[k].item() if hasattr(r[k], "item") else r[k]) for k in keys} for _, r in df.iterrows()]

    pair_keys = ["a", "b", "games", "win_rate", "win_rate_lo", "win_rate_hi"]
    ref = pairs[pairs["a"] == pairs["b"]]
    data = {
        "format": LADDER_FORMAT, "version": LADDER_VERSION, "game": game, "expansion": expansion, "players": players,
        "measured": datetime.date.today().isoformat(), "games_per_pairing": games, "seed": seed,
        "bootstrap": bootstrap, "anchor": ANCHOR,
        "rating_scale": "Bradley-Terry on the Elo scale (400 points = odds of 10 to 1 in a head-to-head comparison); "
                        f"level {int(levels['level'].iloc[0])} = {ANCHOR:g}; 95% interval from a bootstrap over games",
        "win_rate_meaning": "share of the comparisons of an A seat with a B seat in one game that A finished ahead "
                            "of (ties half); 95% Wilson interval over games",
        "levels": rows(levels, ["level", "spec", "rating", "rating_lo", "rating_hi", "ms_per_decision"]),
        "pairings": rows(pairs[pairs["a"] != pairs["b"]], pair_keys),
        "reference": rows(ref, pair_keys)[0],
    }
    return check_ladder(json.loads(json.dumps(data)))


def main(argv: list[str] | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Run the ladder from the command line; print and return (pairings, levels)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="speicherstadt", choices=sorted(VARIANTS),
                    help="the variant (kaispeicher = Die Speicherstadt with Kaispeicher)")
    ap.add_argument("--games", type=int, default=12, help="games per pairing (3 rotations of a deal each)")
    ap.add_argument("--levels", default=",".join(str(lv.number) for lv in LEVELS), help="levels to pair, e.g. 1,3,5")
    ap.add_argument("--span", type=int, default=None,
                    help="pair only levels at most this many places apart (default: every pair)")
    ap.add_argument("--reference", type=int, default=2, help="the level played against itself as the reference")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bootstrap", type=int, default=200, help="bootstrap refits for the ratings' intervals")
    ap.add_argument("--processes", type=int, default=1)
    ap.add_argument("--results", type=Path, default=None, help="JSON-lines file of finished games (resumable)")
    ap.add_argument("--played-only", action="store_true",
                    help="play nothing: the table of the games --results already holds (a stopped run)")
    ap.add_argument("--spec", action="append", default=[], metavar="N=SPEC",
                    help="play level N as the bot spec SPEC in this run (a screen of a candidate; repeatable; "
                         "not with --write)")
    ap.add_argument("--write", action="store_true", help="store the ladder file in the package's data")
    ap.add_argument("--out", type=Path, default=None, help="store the ladder file here")
    args = ap.parse_args(argv)
    levels = sorted({get_level(x).number for x in args.levels.split(",")})
    reference = get_level(args.reference).number
    if len(levels) < 2:
        ap.error("--levels: at least two levels")
    if args.games < 1:
        ap.error("--games: at least 1")
    variant = variant_name(*VARIANTS[args.game])
    t0 = time.perf_counter()
    if args.span is not None and args.span < 1:
        ap.error("--span: at least 1 (1: neighbouring levels only)")
    try:
        specs = parse_specs(args.spec, [*levels, reference])
    except ValueError as e:
        ap.error(str(e))
    if specs and args.write:
        ap.error("--spec: a run with other specs screens a candidate; it cannot be written as the shipped ladder")
    jobs = jobs_for(args.game, levels, reference, args.games, args.players, args.seed, args.span, specs)
    if args.played_only and args.results is None:
        ap.error("--played-only needs --results")
    results = run(jobs, args.processes, args.results, args.played_only)
    if not results:
        ap.error("no games played")
    pairs, table = summarize(results, levels, reference, args.bootstrap, args.seed)
    with pd.option_context("display.width", 200, "display.max_columns", 20, "display.precision", 3):
        print(f"{variant}, {args.players} players, up to {args.games} games a pairing, seed {args.seed}, "
              f"{'every pair' if args.span is None else f'levels up to {args.span} apart'}")
        print(pairs.drop(columns=["a", "b"]).to_string(index=False))
        print(table.to_string(index=False))
    ordered = all(table["rating"].diff().dropna() > 0)
    below = dict(zip(levels[1:], levels[:-1], strict=True))
    clear = all(r.win_rate_lo > 0.5 for r in pairs.itertuples() if below.get(r.a) == r.b)
    print(f"ratings rise with the level: {ordered}; every level's 95% interval against the next lower one "
          f"is above 50%: {clear}")
    print(f"wall time {time.perf_counter() - t0:.0f} s for {len(results)} games ({args.processes} process(es))")
    out = args.out or (ROOT / "speicherstadt_lab" / "data" / "ladder" / f"{variant}.json" if args.write else None)
    if out is not None:
        data = ladder_json(pairs, table, args.game, args.players, int(pairs["games"].min()), args.seed,
                           args.bootstrap)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {out}")
    return pairs, table


if __name__ == "__main__":
    main()
