"""The lab's game variants, written once for the tests: each game with each expansion, as ``(game, expansion)``,
and a new game of one of them."""

from __future__ import annotations

from typing import Any

import speicherstadt_lab as sl

#: Every variant the lab ships: Die Speicherstadt, with Kaispeicher, and Packet Row.
VARIANTS: list[tuple[str, str | None]] = [
    ("speicherstadt", None), ("speicherstadt", "kaispeicher"), ("packet_row", None)]
#: Their test ids, in the same order.
VARIANT_IDS = ["speicherstadt", "kaispeicher", "packet_row"]


def options(expansion: str | None) -> dict[str, Any]:
    """``new_game``'s keyword for ``expansion`` (none for the base game)."""
    return {"expansion": expansion} if expansion else {}


def new_variant(game: str, expansion: str | None = None, *, players: int = 3, seed: int = 1) -> sl.GameState:
    """A new game of ``game`` with ``expansion``, ``players`` seats and ``seed``."""
    return sl.new_game(game, players=players, seed=seed, **options(expansion))


def random_moves(state: Any, rng: sl.Rng, plies: int) -> Any:
    """``state`` after ``plies`` legal moves, each chosen uniformly from ``rng`` (a seeded stream, never ``random``)."""
    for _ in range(plies):
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def greedy_record(game: str = "speicherstadt", plies: int = 40) -> sl.GameRecord:
    """A 3-player record (seed 2) of greedy players (seeds 0-2), up to ``plies`` plies or the game's end."""
    from speicherstadt_lab.bots import make_bot

    rec = sl.GameRecord.new(players=3, seed=2, game=game)
    bots = [make_bot("greedy", seed=s) for s in range(3)]
    node = rec.root
    while not node.state.is_over and node.ply < plies:
        node = node.play(bots[node.state.to_move].choose(node.state.observe(node.state.to_move)))
    return rec
