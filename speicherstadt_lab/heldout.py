"""The lab's judgement measured on held-out games: a value model's 95% intervals (``value.intervals``), for the
model alone and for the quick judgement with it, on greedy self-play.

    speicherstadt-lab intervals --game speicherstadt --players 3        # re-measure a shipped model's
    speicherstadt-lab train --players 3                                 # trains, then measures

In each held-out game (seeds labelled "intervals", never those of training, of the model's calibration bins or
of the benchmarks) one position is picked at random in every round. Its truth is the win chance of greedy play:
``reference`` greedy play-outs from its public facts (fair mode). The model's win chances and the quick
judgement's (``analysis.quick_evaluate`` with this model) are set against it, and ``fit_widths`` turns the
errors into per-round widths. The measured setting is recorded, so that ``evaluate`` uses the quick judgement's
widths only for that setting.
"""

from __future__ import annotations

import time
from functools import partial
from typing import Any

import numpy as np

from .analysis import QUICK, evaluate, hybrid_horizon, quick_evaluate, quick_settings
from .bots import make_bot
from .engine.protocol import GameState, new_game
from .engine.rng import Rng, derive_seed
from .value.intervals import Intervals, fit_widths
from .value.model import ValueModel, features_of
from .value.train import over_games

CHUNK = 5


def held_out_positions(game: str, players: int, seed: int, index: int, options: dict[str, Any] | None = None
                       ) -> list[GameState]:
    """Greedy self-play game ``index`` of the "intervals" seeds: one position per round, picked at random among
    its decisions."""
    game_seed = derive_seed(seed, "intervals", index)
    bots = [make_bot("greedy", seed=derive_seed(game_seed, "bot", i)) for i in range(players)]
    state = new_game(game, players=players, seed=game_seed, **(options or {}))
    by_round: dict[int, list[GameState]] = {}
    while not state.is_over:
        by_round.setdefault(state.round, []).append(state)
        state = state.apply(bots[state.to_move].choose(state.observe(state.to_move)))
    return [states[Rng(game_seed, "pick", r).below(len(states))] for r, states in sorted(by_round.items())]


def _measure(model: ValueModel, game: str, players: int, seed: int, games: range, reference: int,
             options: dict[str, Any] | None) -> list[dict[str, Any]]:
    rows = []
    for g in games:
        for pos in held_out_positions(game, players, seed, g, options):
            key = derive_seed(seed, "intervals", g, pos.round)
            truth = evaluate(pos, rollouts=reference, bot="greedy", seed=derive_seed(key, "reference"))
            quick = quick_evaluate(pos, seed=derive_seed(key, "quick"), model=model)
            rows.append({"round": pos.round, "truth": truth["win_prob"].tolist(),
                         "model": model.win_probs(features_of(pos)[1]).tolist(), "quick": quick["win_prob"].tolist()})
    return rows


def measure_intervals(model: ValueModel, games: int = 60, reference: int = 100, seed: int = 1,
                      options: dict[str, Any] | None = None, processes: int | None = None,
                      progress: bool = True, executor: Any = None) -> ValueModel:
    """``model`` with its intervals measured on ``games`` held-out games (``reference`` greedy play-outs the
    truth of each position); the set-up is recorded in ``training["intervals"]``.

    The games run on ``executor`` (``parallel.EXECUTOR_HELP``: a dask.distributed Client spreads them over a
    cluster), else on ``processes`` local processes (1: this process); the widths are the same wherever they ran.

    Raises ValueError for a model trained with other cards than ``options`` give (its ``catalog`` digest)."""
    if games < 1 or reference < 2:
        raise ValueError("measure_intervals: games must be ≥ 1 and reference ≥ 2")
    game, players = model.game, model.players
    opts = dict(options or {})
    if model.expansion:
        opts["expansion"] = model.expansion
    probe = new_game(game, players=players, seed=0, **opts)
    if not model.cards_match(probe):  # its bands would hold for cards it never saw
        raise ValueError("measure_intervals: the model was trained with another catalogue than these games use; "
                         "measure it with the cards it was trained with (the catalogue option)")
    start = time.perf_counter()
    job = partial(_measure, model, game, players, seed, reference=reference, options=opts)
    parts = over_games(job, games, CHUNK, processes, progress, "intervals", executor)
    rows = [row for part in parts for row in part]
    rounds = np.repeat([r["round"] for r in rows], players)
    truth = np.array([r["truth"] for r in rows]).ravel()
    noise = truth * (1 - truth) / (reference - 1)  # each reference's own sampling variance, unbiased
    settings = quick_settings(QUICK["rollouts"], QUICK["bot"], hybrid_horizon(probe))
    out: dict[str, Intervals] = {}
    for name, sets in (("model", {}), ("quick", settings)):
        p = np.array([r[name] for r in rows]).ravel()
        starts, q = fit_widths(p, truth, noise, rounds)
        out[name] = Intervals(starts, q, sets, len(rows))
    setup = {"games": games, "reference_rollouts": reference, "seed": seed, "bot": "greedy",
             "positions": len(rows), "seconds": round(time.perf_counter() - start, 1),
             "sampling": "one random decision of every round"}
    return ValueModel(**{**model.__dict__, "intervals": out,
                         "training": {**model.training, "intervals": setup}})


__all__ = ["held_out_positions", "measure_intervals"]
