"""Batch simulation: many bot-vs-bot games in parallel, one table row per game and seat.

Every game's set-up and every bot get seeds derived from ``(seed, "game", i)``, and results are put
back in game order, so the table depends only on the arguments, never on the executor (serial, a local
process pool, or a ``dask.distributed`` client's executor) nor on how games were chunked.

    df = simulate(1000, 4, ["greedy", "random", "random", "random"], seed=1, rotate=True)
    summarize_bots(df)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from concurrent.futures import Executor
from functools import partial
from typing import Any

import pandas as pd

from .bots import make_bot
from .engine.protocol import get_game, new_game, ranks
from .engine.rng import derive_seed
from .parallel import executor_size, run_parts

#: A game longer than this many decisions is taken to be stuck (a real game has a few hundred).
MAX_DECISIONS = 10_000

#: One game's instructions: (game index, game seed, lineup of specs, one bot seed per seat).
GameTask = tuple[int, int, tuple[str, ...], tuple[int, ...]]


def parse_lineup(text: str) -> list[str]:
    """Bot specs from ``"mcts:iterations=200,c=1.4,greedy,random"``.

    Commas separate specs, but a ``key=value`` part without its own ``name:`` continues the parameters
    of the spec before it, so specs with several parameters can be listed on one line.
    """
    specs: list[str] = []
    for raw in text.split(","):
        part = raw.strip()
        if not part:
            raise ValueError(f"bots: empty spec in {text!r}")
        if "=" in part and ":" not in part:
            if not specs or ":" not in specs[-1]:
                raise ValueError(f"bots: parameter {part!r} in {text!r} follows no 'name:' spec")
            specs[-1] += "," + part
        else:
            specs.append(part)
    return specs


def lineup_for(bots: Sequence[str], game_index: int, rotate: bool) -> tuple[str, ...]:
    """The specs by seat in game ``game_index``; with ``rotate`` bot k sits in seat ``(k + i) % n``."""
    n = len(bots)
    if not rotate:
        return tuple(bots)
    shift = game_index % n
    return tuple(bots[(seat - shift) % n] for seat in range(n))


def game_task(seed: int | str, game_index: int, bots: Sequence[str], rotate: bool) -> GameTask:
    """The seeds and lineup of game ``game_index``: a pure function of the arguments."""
    game_seed = derive_seed(seed, "game", game_index)
    lineup = lineup_for(bots, game_index, rotate)
    bot_seeds = tuple(derive_seed(seed, "game", game_index, "bot", seat) for seat in range(len(lineup)))
    return game_index, game_seed, lineup, bot_seeds


def play_one(
    game: str, players: int, game_kwargs: dict[str, Any], task: GameTask, max_decisions: int = MAX_DECISIONS
) -> list[dict[str, Any]]:
    """Play one game and return its rows (one per seat). Runs in worker processes, so no pandas here."""
    index, game_seed, lineup, bot_seeds = task
    bots = [make_bot(spec, seed=s) for spec, s in zip(lineup, bot_seeds, strict=True)]
    state = new_game(game, players=players, seed=game_seed, **game_kwargs)
    decisions = [0] * players
    total = 0
    while not state.is_over:
        seat = state.to_move
        if seat is None:
            raise RuntimeError(f"game {index} (seed {game_seed}): no seat to move but the game is not over")
        state = state.apply(bots[seat].choose(state.observe(seat)))
        decisions[seat] += 1
        total += 1
        if total >= max_decisions:
            raise RuntimeError(
                f"game {index} (seed {game_seed}, lineup {' | '.join(lineup)}) did not end within {max_decisions} "
                f"decisions; stuck in round {state.round}, phase {state.phase!r}, last action {state.last_action!r}"
            )
    winners = state.winners()
    seat_ranks = ranks(state)
    metrics = get_game(game).capability("metrics")
    rows = []
    for seat in range(players):
        row: dict[str, Any] = {
            "game": index,
            "game_seed": game_seed,
            "lineup": " | ".join(lineup),
            "seat": seat,
            "bot": lineup[seat],
            "score": state.score(seat),
        }
        row.update({f"pts_{k}": v for k, v in state.score_breakdown(seat).items()})
        if metrics is not None:
            row.update(metrics(state, seat))
        row.update(
            rank=seat_ranks[seat],
            win_share=1.0 / len(winners) if seat in winners else 0.0,
            rounds=state.round,
            decisions=decisions[seat],
        )
        rows.append(row)
    return rows


def play_chunk(
    game: str, players: int, game_kwargs: dict[str, Any], tasks: list[GameTask], max_decisions: int = MAX_DECISIONS
) -> list[dict[str, Any]]:
    """Play a chunk of games (the unit of work sent to an executor)."""
    rows: list[dict[str, Any]] = []
    for task in tasks:
        rows.extend(play_one(game, players, game_kwargs, task, max_decisions))
    return rows


def _check_int(name: str, value: Any, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name}: expected an integer, got {value!r}")
    if value < low:
        raise ValueError(f"{name}: must be at least {low}, got {value}")
    return value


def _check_bots(bots: Any, players: int) -> list[str]:
    if isinstance(bots, str):
        bots = parse_lineup(bots)
    if not isinstance(bots, Sequence) or not all(isinstance(b, str) for b in bots):
        raise ValueError(f"bots: expected a list of bot specs (text), got {bots!r}")
    if len(bots) != players:
        raise ValueError(f"bots: {len(bots)} bot specs for {players} players; give one spec per seat")
    specs = [b.strip().lower() for b in bots]
    for spec in specs:
        try:
            make_bot(spec, seed=0)
        except ValueError as e:
            raise ValueError(f"bots: {e}") from None
        except TypeError as e:  # a parameter the bot's constructor does not take
            raise ValueError(f"bots: spec {spec!r}: {e}") from None
    return specs


def _default_chunk(games: int, workers: int) -> int:
    """About eight chunks per worker (smooth progress, balanced load), at most 50 games each."""
    return max(1, min(50, math.ceil(games / (8 * max(1, workers)))))


def simulate(
    games: int,
    players: int,
    bots: Sequence[str] | str,
    seed: int | str,
    executor: Executor | Any = None,
    progress: bool = True,
    rotate: bool = False,
    game: str = "speicherstadt",
    *,
    chunksize: int | None = None,
    max_decisions: int = MAX_DECISIONS,
    **game_kwargs: Any,
) -> pd.DataFrame:
    """Play ``games`` games with one bot spec per seat; a DataFrame with one row per game and seat.

    Columns: ``game, game_seed, lineup, seat, bot, score, pts_<category>...``, the game's declared per-seat
    metrics (its "metrics" capability; both shipped games: ``coins, cards_bought``), then ``rank, win_share,
    rounds, decisions``. ``rank`` is 1 for the winners after the game's tie-break (equal results share a
    rank); ``win_share`` is ``1 / len(winners)`` for a winner, else 0, so it sums to 1
    per game. ``rotate`` shifts the lineup one seat per game, so each spec sits in every seat equally
    often when ``games`` is a multiple of ``players``.

    ``executor``: ``None`` runs a local process pool with ``resources.default_processes()`` workers (the CPUs this
    process may use, capped by free memory), an integer a pool
    of that many, ``"serial"`` plays in this process, and any ``concurrent.futures.Executor`` is used
    as given, a ``dask.distributed`` Client too (``parallel.run_parts``); the result is the same for all of them.
    Extra keyword arguments go to ``new_game`` (e.g. ``expansion="kaispeicher"``).
    """
    games = _check_int("games", games, 1)
    info = get_game(game)
    players = _check_int("players", players, 0)
    if not info.min_players <= players <= info.max_players:
        span = f"{info.min_players} to {info.max_players}"
        raise ValueError(f"players: {info.title} is for {span} players, not {players}")
    specs = _check_bots(bots, players)
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise ValueError(f"seed: expected an integer or text, got {seed!r}")
    max_decisions = _check_int("max_decisions", max_decisions, 1)
    if "seed" in game_kwargs or "players" in game_kwargs:
        raise ValueError("game_kwargs: 'seed' and 'players' are set by simulate itself")
    # Fail here, with the caller's traceback, rather than in a worker: the game options must be valid.
    try:
        new_game(game, players=players, seed=0, **game_kwargs)
    except TypeError as e:  # an option the game does not have
        raise ValueError(f"game_kwargs: {e}") from None

    workers = executor_size(executor)  # the executor checked before any game is played
    size = _check_int("chunksize", chunksize, 1) if chunksize is not None else _default_chunk(games, workers)
    tasks = [game_task(seed, i, specs, rotate) for i in range(games)]
    chunks = [tasks[i : i + size] for i in range(0, games, size)]
    job = partial(play_chunk, game, players, game_kwargs, max_decisions=max_decisions)
    parts = run_parts(job, chunks, executor, sizes=[len(c) for c in chunks], progress=progress, desc="games")
    rows = [row for part in parts for row in part]
    return _frame(rows)


def _frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """Rows in game and seat order with stable column order and dtypes."""
    df = pd.DataFrame(rows)
    df = df.sort_values(["game", "seat"], kind="stable").reset_index(drop=True)
    pts = [c for c in df.columns if c.startswith("pts_")]
    df[pts] = df[pts].fillna(0).astype("int64")  # a category absent in a game counts 0
    head = ["game", "game_seed", "lineup", "seat", "bot", "score"]
    tail = ["rank", "win_share", "rounds", "decisions"]
    metrics = [c for c in df.columns if c not in head and c not in pts and c not in tail]  # the game's, its order
    df = df[head + pts + metrics + tail]
    df["game_seed"] = df["game_seed"].astype("uint64")
    return df


def wilson_interval(wins: float, n: float, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a win rate (95% for ``z=1.96``); ``wins`` may be fractional (ties)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _summary(df: pd.DataFrame, by: str) -> pd.DataFrame:
    g = df.groupby(by, sort=True)
    out = pd.DataFrame({"games": g.size(), "wins": g["win_share"].sum(), "mean_score": g["score"].mean()})
    out["win_rate"] = out["wins"] / out["games"]
    bounds = [wilson_interval(w, n) for w, n in zip(out["wins"], out["games"], strict=True)]
    out["ci_low"] = [lo for lo, _ in bounds]
    out["ci_high"] = [hi for _, hi in bounds]
    out["mean_rank"] = g["rank"].mean()
    return out[["games", "wins", "win_rate", "ci_low", "ci_high", "mean_score", "mean_rank"]]


def summarize_bots(df: pd.DataFrame) -> pd.DataFrame:
    """Per bot spec: seat-games played, wins (shares), win rate with its 95% Wilson interval, mean score."""
    return _summary(df, "bot")


def summarize_seats(df: pd.DataFrame) -> pd.DataFrame:
    """Per seat: the same figures, to see the first-player advantage."""
    return _summary(df, "seat")


__all__ = [
    "MAX_DECISIONS",
    "game_task",
    "lineup_for",
    "parse_lineup",
    "play_chunk",
    "play_one",
    "simulate",
    "summarize_bots",
    "summarize_seats",
    "wilson_interval",
]
