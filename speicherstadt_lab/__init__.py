"""speicherstadt_lab: a notebook-native lab for Die Speicherstadt (and Packet Row).

    import speicherstadt_lab as sl
    state = sl.new_game(players=4, seed=7)
    state = state.apply("place 2")
"""

from .engine import Action, CatalogError, Event, GameState, IllegalAction, RecordError, Rng, load_state
from .engine import new_game as _new_game
from .games.speicherstadt import Catalog, default_catalog, load_catalog, standard_deck

__version__ = "0.1.0"


def new_game(game: str = "speicherstadt", **kwargs):
    """A new game at its first decision. ``game`` is ``"speicherstadt"`` (the default)."""
    return _new_game(game, **kwargs)


__all__ = [
    "Action",
    "Catalog",
    "CatalogError",
    "Event",
    "GameState",
    "IllegalAction",
    "RecordError",
    "Rng",
    "default_catalog",
    "load_catalog",
    "load_state",
    "new_game",
    "standard_deck",
]
