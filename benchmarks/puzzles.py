"""Do the shipped puzzles' answers stand? Each is re-verified on new seeds with more play-outs.

    .venv/bin/python benchmarks/puzzles.py                       # every shipped puzzle, 800 play-outs a move
    .venv/bin/python benchmarks/puzzles.py --limit 30 --rollouts 400 --variant packet_row
    .venv/bin/python benchmarks/puzzles.py --results /tmp/p.jsonl --shard 1/4   # a quarter, resumable
    .venv/bin/python benchmarks/puzzles.py --results /tmp/p.jsonl --played-only # the table of what is done

A puzzle's answer *stands* when, on seeds the miner never used (labelled "puzzle-benchmark"), its best move (or a
move that leads to the same position) is still the best of the verified candidates and its 95% interval is still
above every other candidate's. The table gives the share that stands per variant and theme, with a 95% interval
(Wilson), and the mean lead found now against the lead the puzzle file states. Target: at least 95% stand.
The reference for time is the miner's own verification budget (400 greedy play-outs a candidate), printed as the
CPU seconds (and wall seconds) a puzzle took per 1,000 play-outs, so machines of different speed compare.

``--results FILE`` keeps each finished puzzle as a line of JSON (its id, variant, content hash, the play-outs and
seed, and its result row) and a run with the same settings skips the puzzles already there, so a full run (hours)
can be stopped and continued. A line is used only for the puzzle whose content it names: a puzzle changed since
is refused, naming the line, as is any malformed line. ``--shard K/N`` plays the K-th of N parts (by a hash of
each puzzle's id, so a part keeps its puzzles while the miner adds others to the files); the parts may run at the
same time, appending to the same file. The table always covers every puzzle of the selection that the file holds.
Each puzzle's seed comes from ``--seed`` and its id alone, so its row is the same in any shard and any order.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
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
NUMBER = (int, float)
#: A results line's fields and their types (``bool`` is no number here).
LINE_FIELDS: dict[str, Any] = {"id": str, "variant": str, "content": str, "rollouts": int, "seed": int, "row": dict}
#: A result row's fields and their types.
ROW_FIELDS: dict[str, Any] = {"id": str, "variant": str, "theme": str, "stands": bool, "same_best": bool,
                              "lead": NUMBER, "stated_lead": NUMBER, "seconds": NUMBER, "cpu_seconds": NUMBER,
                              "playouts": int}


class ResultsError(ValueError):
    """A results file's line that cannot be used: the message names the line and the field."""


def content_hash(puzzle: P.Puzzle) -> str:
    """The puzzle's own content (its file entry, keys sorted) as a short SHA-256: a line belongs to it only if equal."""
    text = json.dumps(puzzle.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def in_shard(puzzle_id: str, shard: tuple[int, int]) -> bool:
    """Whether the puzzle ``puzzle_id`` is in part ``k`` of ``n`` (``shard`` = (k, n), k from 1): by its id's hash."""
    k, n = shard
    return int(hashlib.sha256(puzzle_id.encode("utf-8")).hexdigest(), 16) % n == k - 1


def parse_shard(text: str) -> tuple[int, int]:
    """``"K/N"`` as (K, N), 1 <= K <= N; ValueError naming what is wrong."""
    try:
        k, n = (int(x) for x in text.split("/"))
    except ValueError:
        raise ValueError(f"--shard: K/N with whole numbers, e.g. 1/4, not {text!r}") from None
    if not 1 <= k <= n:
        raise ValueError(f"--shard: K from 1 to N, not {text!r}")
    return k, n


def check(args: tuple[dict[str, Any], int, int]) -> dict[str, Any]:
    """One puzzle re-verified (a worker's job: the puzzle as JSON data)."""
    data, rollouts, seed = args
    puzzle = P.Puzzle.from_dict(data)
    start, cpu = time.perf_counter(), time.process_time()
    row = P.standing(puzzle, derive_seed(seed, "puzzle-benchmark", puzzle.id), rollouts)
    row.update(variant=puzzle.variant, stated_lead=puzzle.margin, seconds=time.perf_counter() - start,
               cpu_seconds=time.process_time() - cpu, playouts=rollouts * len(puzzle.moves))
    return row


def _typed(value: Any, kind: Any) -> bool:
    return isinstance(value, kind) and (kind is bool or not isinstance(value, bool))


def check_line(text: str, number: int) -> dict[str, Any]:
    """A results line read and checked (:class:`ResultsError` naming line ``number`` and the field)."""
    where = f"line {number}"
    try:
        line = json.loads(text)
    except ValueError as err:
        raise ResultsError(f"{where}: not a line of JSON ({err})") from None
    if not isinstance(line, dict):
        raise ResultsError(f"{where}: must be a JSON object")
    for key, kind in LINE_FIELDS.items():
        if key not in line:
            raise ResultsError(f"{where}: {key}: missing")
        if not _typed(line[key], kind):
            raise ResultsError(f"{where}: {key}: {line[key]!r} is not a {kind.__name__}")
    extra = sorted(set(line) - set(LINE_FIELDS))
    if extra:
        raise ResultsError(f"{where}: {extra[0]}: not a field of a results line")
    row = line["row"]
    for key, kind in ROW_FIELDS.items():
        if key not in row:
            raise ResultsError(f"{where}: row.{key}: missing")
        if not _typed(row[key], kind):
            name = "number" if kind is NUMBER else kind.__name__
            raise ResultsError(f"{where}: row.{key}: {row[key]!r} is not a {name}")
    for key in ("id", "variant"):
        if row[key] != line[key]:
            raise ResultsError(f"{where}: row.{key}: {row[key]!r} is not the line's {key} {line[key]!r}")
    if line["rollouts"] < 1 or row["playouts"] < line["rollouts"]:
        raise ResultsError(f"{where}: rollouts: {line['rollouts']} play-outs a candidate, {row['playouts']} in all")
    return line


def read_results(path: Path, puzzles: dict[str, P.Puzzle], rollouts: int,
                 seed: int) -> dict[str, dict[str, Any]]:
    """The result rows ``path`` holds for ``puzzles`` (by id) at these settings; every line is checked first, and a
    line of one of these puzzles at these settings must name its content (ResultsError naming the line)."""
    done: dict[str, dict[str, Any]] = {}
    if not path.exists():
        return done
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not text.strip():
            continue
        line = check_line(text, number)
        puzzle = puzzles.get(line["id"])
        if puzzle is None or (line["rollouts"], line["seed"]) != (rollouts, seed):
            continue  # another puzzle, or other settings: kept in the file, not used
        if line["variant"] != puzzle.variant:
            raise ResultsError(f"line {number}: variant: {line['variant']!r}, but puzzle {puzzle.id} is "
                               f"{puzzle.variant!r}")
        if line["content"] != content_hash(puzzle):
            raise ResultsError(f"line {number}: content: {line['content']!r} is not puzzle {puzzle.id}'s content "
                               f"{content_hash(puzzle)!r} (the puzzle changed since, or the line did)")
        done.setdefault(line["id"], line["row"])
    return done


def append_line(path: Path, line: dict[str, Any]) -> None:
    """Append one results line in a single write (parts running at once may share the file)."""
    data = (json.dumps(line, separators=(",", ":")) + "\n").encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def _played(jobs: list[tuple[dict[str, Any], int, int]], processes: int) -> Iterator[dict[str, Any]]:
    """Each job's row as soon as it is finished (any order)."""
    if processes <= 1:
        yield from map(check, jobs)
        return
    with ProcessPoolExecutor(processes) as pool:
        for future in as_completed([pool.submit(check, j) for j in jobs]):
            yield future.result()


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
                    "CPU s per 1k play-outs": round(1000 * g["cpu_seconds"].sum() / g["playouts"].sum(), 2),
                    "wall s per 1k play-outs": round(1000 * g["seconds"].sum() / g["playouts"].sum(), 2)})
    return pd.DataFrame(out)


def select(variants: list[str] | None, files: list[Path] | None, limit: int | None) -> list[P.Puzzle]:
    """The puzzles of the run: the shipped ones (or those of ``files``), of ``variants``, at most ``limit`` a variant
    (spread evenly over each)."""
    if files:
        found = [p for f in files for p in P.read_puzzles(f)]
        names = sorted({p.variant for p in found})
        by_variant = {v: [p for p in found if p.variant == v] for v in names}
    else:
        by_variant = {v: P.load_puzzles(v) for v in P.shipped_variants()}
    out = []
    for variant, found in by_variant.items():
        if variants and variant not in variants:
            continue
        if limit and len(found) > limit:
            step = len(found) / limit
            found = [found[int(k * step)] for k in range(limit)]
        out.extend(found)
    return out


def main(argv: list[str] | None = None) -> int:
    """Re-verify the shipped puzzles (or a part, or what a results file lacks) and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", action="append", choices=P.shipped_variants(), help="only these (default: all)")
    ap.add_argument("--puzzles", action="append", type=Path, default=None,
                    help="a puzzle file of one's own instead of the shipped ones (repeatable)")
    ap.add_argument("--rollouts", type=int, default=800, help="greedy play-outs per candidate move (default 800)")
    ap.add_argument("--limit", type=int, default=None, help="at most this many puzzles per variant (spread evenly)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the re-verification (default 0)")
    ap.add_argument("--processes", type=int, default=None, help="worker processes (default: what this pod allows)")
    ap.add_argument("--results", type=Path, default=None,
                    help="JSON-lines file of finished puzzles: kept as they finish, skipped when run again")
    ap.add_argument("--shard", default=None, help="K/N: play only the K-th of N parts of the puzzles")
    ap.add_argument("--played-only", action="store_true",
                    help="play nothing: the table of what --results already holds")
    args = ap.parse_args(argv)
    if args.rollouts < 1:
        ap.error("--rollouts: at least 1")
    if args.played_only and args.results is None:
        ap.error("--played-only needs --results")
    try:
        shard = parse_shard(args.shard) if args.shard else (1, 1)
        chosen = select(args.variant, args.puzzles, args.limit)
        by_id = {p.id: p for p in chosen}
        done = read_results(args.results, by_id, args.rollouts, args.seed) if args.results else {}
    except (ValueError, OSError) as err:  # a malformed results line, a bad puzzle file: named, nothing played
        ap.error(f"{args.results if isinstance(err, ResultsError) else 'puzzles'}: {err}")
    if not chosen:
        print("no puzzles to check")
        return 1
    todo = [] if args.played_only else [p for p in chosen if in_shard(p.id, shard) and p.id not in done]
    n = args.processes or min(default_processes(), len(todo)) or 1
    start = time.perf_counter()
    jobs = [(p.to_dict(), args.rollouts, args.seed) for p in todo]
    for row in _played(jobs, n):
        puzzle = by_id[row["id"]]
        done[puzzle.id] = row
        if args.results is not None:
            append_line(args.results, {"id": puzzle.id, "variant": puzzle.variant, "content": content_hash(puzzle),
                                       "rollouts": args.rollouts, "seed": args.seed, "row": row})
    rows = [done[p.id] for p in chosen if p.id in done]  # the selection's order: the same table every run
    part = f" (part {shard[0]} of {shard[1]})" if args.shard else ""
    print(f"{len(todo)} puzzles re-verified with {args.rollouts} greedy play-outs a candidate on new seeds (seed "
          f"{args.seed}){part}, {len(rows) - len(todo)} taken from {args.results or 'no results file'}; {len(rows)} "
          f"of the {len(chosen)} chosen have results; {n} processes, {time.perf_counter() - start:.0f} s wall, "
          f"{sum(done[p.id]['cpu_seconds'] for p in todo):.0f} s CPU in the play-outs")
    if not rows:
        return 1
    df = table(rows)
    print(df.to_string(index=False))
    share = float(df.loc[0, "stand (%)"]) / 100
    left = len(chosen) - len(rows)
    print(f"target: at least {TARGET:.0%} stand: {'met' if share >= TARGET else 'NOT met'} ({share:.1%})"
          + (f"; {left} chosen puzzles have no result yet" if left else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
