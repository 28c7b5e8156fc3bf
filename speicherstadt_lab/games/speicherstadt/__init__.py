"""Die Speicherstadt (Stefan Feld, 2010): rules, card catalogue and set-up."""

from typing import Any

from ...engine.protocol import CARDS_HELD, GOODS_HELD, GameInfo, Metric, Variant, register_game
from . import kaispeicher  # noqa: F401  (imported to plug its rules into the hook points, state.py)
from .catalog import Card, Catalog, default_catalog, load_catalog
from .setup import check_invariants, from_dict, game_cards, standard_deck
from .setup import new_game as _new_position
from .state import PHASES, Notation, SeatView, State

# the explanations and phrases (explain.py) and the notebook's table (render.py), imported when first asked for
State.plugins_later = (f"{__name__}.explain", f"{__name__}.render")


def new_game(*, scenario: Any = None, **settings: Any) -> State:
    """A new game at its first decision (``setup.new_game``), or from a described position (``scenario.new_game``,
    whose module, the scenario reader, is imported then: a new game does not wait for it)."""
    if scenario is None:
        return _new_position(**settings)
    from .scenario import new_game as from_scenario

    return from_scenario(scenario=scenario, **settings)


register_game(
    GameInfo(
        name="speicherstadt",
        title="Die Speicherstadt",
        min_players=2,
        max_players=5,
        phases=PHASES,
        parameters={
            "players": "2-5",
            "seed": "int: set-up shuffle of the pile and the bag",
            "first_player": "seat holding the metal coin in round 1",
            "deck": "stacked draw pile, top first (card ids)",
            "bag": "stacked bag, first drawn first (good ids)",
            "catalog": "path or data of a card catalogue",
            "expansion": "None or 'kaispeicher'",
            "scenario": "a described position to start from (dict or .json path; docs/record-format.md)",
        },
        module=__name__,
        expansions=("kaispeicher",),
        capabilities={
            "grammar": ".grammar:GRAMMAR",
            "records": ".records:SpeicherstadtRecords",
            "conformance": ".conformance:conformance_adapter",
            "metrics": ".metrics:seat_metrics",
            "puzzles": ".puzzles",
            "observation": ".observation:observation_layout",
            "chance": ".chance:SupplyChance",
            "features": ".features:seat_features",
            "card_kinds": "speicherstadt_lab.ui.cards:card_kinds",
            "scenario": ".scenario:scenario_of",
            "heuristic": "speicherstadt_lab.bots.greedy:SpeicherstadtHeuristic",
            "board": "speicherstadt_lab.ui.board:Board",
        },
        variants=(Variant("speicherstadt", "Die Speicherstadt"),
                  Variant("kaispeicher", "Die Speicherstadt + Kaispeicher", {"expansion": "kaispeicher"})),
        rollout="greedy",
        # The review compares moves two rounds deep: on tuning games (benchmarks/review_levels.py --label
        # review-levels-tuning, 10 games, 335 decisions) its losses correlated 0.92 with real play-outs, 0.76 one
        # round deep. The quick judgement and the luck stay one round deep (chosen on calibration tuning games).
        review_horizon=2,
        metrics=(Metric("coins", "Coins", "Münzen"), Metric("track", "Counting office", "Kontor"),
                 CARDS_HELD, GOODS_HELD),
    )
)

__all__ = ["Card", "Catalog", "Notation", "SeatView", "State", "check_invariants", "default_catalog", "from_dict",
           "game_cards", "load_catalog", "new_game", "standard_deck"]
