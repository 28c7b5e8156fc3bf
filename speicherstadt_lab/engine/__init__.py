"""Game-agnostic core: the state protocol, actions, events, seeded randomness, errors.

Nothing here imports a UI library; games live in ``speicherstadt_lab.games``.
"""

from .actions import Action
from .errors import CatalogError, IllegalAction, RecordError
from .events import Event
from .protocol import GameState, game_names, get_game, load_state, new_game, register_game
from .rng import Rng

__all__ = [
    "Action",
    "CatalogError",
    "Event",
    "GameState",
    "IllegalAction",
    "RecordError",
    "Rng",
    "game_names",
    "get_game",
    "load_state",
    "new_game",
    "register_game",
]
