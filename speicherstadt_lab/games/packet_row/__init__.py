"""Packet Row (Åse & Henrik Berg, 2013): rules, card catalogue and set-up on the lab's engine."""

from __future__ import annotations

from ...engine.protocol import CARDS_HELD, GOODS_HELD, GameInfo, Metric, register_game
from . import explain, render  # noqa: F401  (imported to plug into the state's capabilities, state.py)
from .catalog import Card, Catalog, default_catalog, load_catalog
from .scenario import new_game
from .setup import check_invariants, from_dict, standard_decks, standard_start_contracts
from .state import PHASES, SeatView, State

register_game(
    GameInfo(
        name="packet_row",
        title="Packet Row",
        min_players=2,
        max_players=5,
        phases=PHASES,
        parameters={
            "players": "2-5",
            "seed": "int: set-up shuffle of the four decks and the starting contracts",
            "first_player": "seat of the harbour master in round 1",
            "decks": "stacked decks: board -> card ids, top first (or a list in board order)",
            "start_contracts": "stacked deal of the starting contracts (card ids, seat 0 first)",
            "catalog": "path or data of a card catalogue",
            "names": "seat names",
            "scenario": "a described position to start from (dict or .json path; docs/record-format.md)",
        },
        module=__name__,
        capabilities={
            "grammar": ".grammar:GRAMMAR",
            "records": ".records:PacketRowRecords",
            "conformance": ".conformance:conformance_adapter",
            "metrics": ".metrics:seat_metrics",
            "puzzles": ".puzzles",
            "observation": ".observation:observation_layout",
            "features": ".features:seat_features",
            "heuristic": "speicherstadt_lab.bots.packet_row_greedy:PacketRowHeuristic",
            "board": "speicherstadt_lab.ui.packet_row_board:PacketRowBoard",
            "scenario": ".scenario:scenario_of",
        },
        rollout="greedy",
        # Its rounds are short (3-5 decisions): the hybrid review's losses tracked real play-outs best 6 rounds
        # deep (tuning games, benchmarks/review_levels.py: correlation 0.22 at 1 round, 0.58 at 3, 0.80 at 6,
        # 0.79 at 10, 0.68 for full greedy rollouts).
        hybrid_horizon=6,
        metrics=(Metric("money", "Money", "Geld"), Metric("buildings", "Building points", "Gebäudepunkte"),
                 CARDS_HELD, GOODS_HELD),
    )
)


__all__ = ["Card", "Catalog", "SeatView", "State", "check_invariants", "default_catalog", "from_dict", "load_catalog",
           "new_game", "standard_decks", "standard_start_contracts"]
