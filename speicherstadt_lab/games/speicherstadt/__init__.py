"""Die Speicherstadt (Stefan Feld, 2010): rules, card catalogue and set-up."""

from . import explain, kaispeicher, render  # noqa: F401  (imported to plug into the rules' hook points, state.py)
from .catalog import Card, Catalog, default_catalog, load_catalog
from .setup import check_invariants, from_dict, game_cards, new_game, standard_deck
from .state import Notation, SeatView, State

__all__ = [
    "Card",
    "Catalog",
    "Notation",
    "SeatView",
    "State",
    "check_invariants",
    "default_catalog",
    "from_dict",
    "game_cards",
    "load_catalog",
    "new_game",
    "standard_deck",
]
