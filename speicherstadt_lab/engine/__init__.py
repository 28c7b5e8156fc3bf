"""Game-agnostic core: the state protocol, actions, events, seeded randomness, errors, and the machinery the
games share (a rules state's base, notation, catalogues, set-up and record checks, the conformance harness).

Nothing here imports a UI library; games live in ``speicherstadt_lab.games``.
"""

from .actions import Action
from .errors import CatalogError, IllegalAction, RearrangeError, RecordError, ScenarioError
from .events import Event
from .protocol import (
    GameInfo,
    GameState,
    Metric,
    Variant,
    game_names,
    games,
    get_game,
    load_state,
    new_game,
    register_game,
)
from .rng import Rng

__all__ = [
    "Action",
    "CatalogError",
    "Event",
    "GameInfo",
    "GameState",
    "IllegalAction",
    "Metric",
    "RearrangeError",
    "RecordError",
    "Rng",
    "ScenarioError",
    "Variant",
    "game_names",
    "games",
    "get_game",
    "load_state",
    "new_game",
    "register_game",
]
