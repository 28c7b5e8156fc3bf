"""What the accuracy benchmarks (calibration, luck, review_levels) share: the held-out games' arguments."""

from __future__ import annotations

import argparse
from typing import Any


def held_out_parser(doc: str, games: int, selfplay: bool = True) -> argparse.ArgumentParser:
    """A parser with the game, expansion, players, number of held-out games, seed and processes (and, with
    ``selfplay``, the bot of every seat); the benchmark adds its own arguments."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--game", default="speicherstadt")
    ap.add_argument("--expansion", default=None)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=games)
    if selfplay:
        ap.add_argument("--selfplay", default="greedy", help="the bot of every seat in the held-out games")
    ap.add_argument("--seed", type=int, default=2026, help="base seed of the held-out games")
    ap.add_argument("--processes", type=int, default=2)
    return ap


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """``new_game`` keyword arguments beyond players and seed (the expansion, if any)."""
    return {"expansion": args.expansion} if args.expansion else {}


def title(args: argparse.Namespace) -> str:
    return f"{args.game}{'+' + args.expansion if args.expansion else ''}, {args.players} players"
