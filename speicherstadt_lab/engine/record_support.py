"""What every game's record support shares (the ``RecordSupport`` of ``speicherstadt_lab.records``, the game's
"records" capability): checking a record's set-up field by field, starting a probe game from it, and marking a
state as a seat's observation.

A game's support subclasses :class:`RecordSupportBase`, names its game and the types of its set-up's fields, and
writes what is its own: which fields are hidden, how a seat's export reveals them and how they are filled in. A game
with scenarios adds ``scenario_setup(scenario)``: the set-up of a game started from one, ``{"scenario": ...}`` and
its hidden fields (the hidden order at the scenario's start), which :meth:`RecordSupportBase.check_setup` checks too.
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


def start_key(state: GameState) -> dict[str, Any]:
    """A position as a record's start is compared (``RecordSupportBase.start_key``): its ``to_dict`` without the
    events and the last action that led to it."""
    return {k: v for k, v in state.to_dict().items() if k not in ("events", "last_action")}


class RecordSupportBase:
    """Base of a game's record support.

    ``game`` is the registered name, ``hidden_fields`` the set-up's fields whose
    order is secret, ``setup_types`` every field of the set-up with the types its value may have (a bool is never
    a count; :data:`SETUP_TYPES` and the game's own)."""

    game: ClassVar[str]
    hidden_fields: ClassVar[tuple[str, ...]]
    setup_types: ClassVar[dict[str, tuple[type, ...]]]

    def check_setup(self, setup: dict[str, Any]) -> None:
        """Raise :class:`RecordError` naming ``setup.<field>`` for a field unknown, missing or of the wrong type (a
        scenario's set-up: :meth:`check_scenario_setup`)."""
        if "scenario" in setup:
            self.check_scenario_setup(setup)
            return
        unknown = set(setup) - set(self.setup_types)
        if unknown:
            raise RecordError(f"record field 'setup': unknown field(s) {sorted(unknown)}")
        for key, types in self.setup_types.items():
            if key not in setup:
                raise RecordError(f"record field 'setup.{key}' is missing")
            v = setup[key]
            if not isinstance(v, types) or isinstance(v, bool):
                raise RecordError(f"record field 'setup.{key}' has the wrong type ({type(v).__name__})")

    def check_scenario_setup(self, setup: dict[str, Any]) -> None:
        """The set-up of a game started from a scenario: ``scenario`` (an object) and the hidden fields (the whole
        hidden order at its start, each of its type in ``setup_types``), nothing else; RecordError naming the field."""
        fields = ("scenario", *self.hidden_fields)
        unknown = sorted(set(setup) - set(fields))
        if unknown:
            raise RecordError(f"record field 'setup': unknown field(s) {unknown} (a scenario's set-up has "
                              f"{', '.join(fields)})")
        if not isinstance(setup["scenario"], dict):
            raise RecordError("record field 'setup.scenario' has the wrong type (must be an object)")
        for key in self.hidden_fields:
            if not isinstance(setup.get(key), self.setup_types[key]):
                kind = " or ".join(t.__name__ for t in self.setup_types[key])
                raise RecordError(f"record field 'setup.{key}': must be the hidden order at the scenario's start (a "
                                  f"{kind})")

    def start_key(self, state: GameState) -> dict[str, Any]:
        """What must agree between a position and the start its set-up rebuilds (``GameRecord.from_state``): the whole
        state but the events and the last action that led to it (:func:`start_key`)."""
        return start_key(state)

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
