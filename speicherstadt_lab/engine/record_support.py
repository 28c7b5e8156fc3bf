"""What every game's record support shares (the ``RecordSupport`` of ``speicherstadt_lab.records``, the game's
"records" capability): checking a record's set-up field by field, starting a probe game from it, and marking a
state as a seat's observation.

A game's support subclasses :class:`RecordSupportBase`, names its game and the types of its set-up's fields, and
writes what is its own: which fields are hidden, how a seat's export reveals them and how they are filled in.
"""

from __future__ import annotations

from typing import Any, ClassVar

from .errors import RecordError, setup_error
from .protocol import GameState, new_game, state_from_dict

#: The fields every game's set-up has, with the types their values may have: a game's ``setup_types`` adds its own.
SETUP_TYPES: dict[str, tuple[type, ...]] = {
    "players": (int,),
    "first_player": (int,),
    "names": (list, type(None)),
    "catalog": (dict, type(None)),
}


class RecordSupportBase:
    """Base of a game's record support. ``game`` is the registered name, ``hidden_fields`` the set-up's fields whose
    order is secret, ``setup_types`` every field of the set-up with the types its value may have (a bool is never
    a count; :data:`SETUP_TYPES` and the game's own)."""

    game: ClassVar[str]
    hidden_fields: ClassVar[tuple[str, ...]]
    setup_types: ClassVar[dict[str, tuple[type, ...]]]

    def check_setup(self, setup: dict[str, Any]) -> None:
        """Raise :class:`RecordError` naming ``setup.<field>`` for a field unknown, missing or of the wrong type."""
        unknown = set(setup) - set(self.setup_types)
        if unknown:
            raise RecordError(f"record field 'setup': unknown field(s) {sorted(unknown)}")
        for key, types in self.setup_types.items():
            if key not in setup:
                raise RecordError(f"record field 'setup.{key}' is missing")
            v = setup[key]
            if not isinstance(v, types) or isinstance(v, bool):
                raise RecordError(f"record field 'setup.{key}' has the wrong type ({type(v).__name__})")

    def probe(self, setup: dict[str, Any]) -> tuple[dict[str, Any], GameState]:
        """``(the set-up without its hidden fields, a game started from it)``: what filling in the hidden fields
        starts from. A set-up ``new_game`` refuses raises :class:`RecordError` naming ``setup.<field>``."""
        kw = {k: v for k, v in setup.items() if k not in self.hidden_fields}
        try:
            return kw, new_game(self.game, **kw, seed=0)
        except (ValueError, TypeError) as e:
            raise setup_error(e) from None

    def mark_observation(self, state: GameState, seat: int) -> GameState:
        """The same position flagged as an observation by ``seat`` (its hidden order is a placeholder)."""
        d = state.to_dict()
        d["observer"] = seat
        return state_from_dict(d)
