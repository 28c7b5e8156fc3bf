"""What game records need to know about Die Speicherstadt (the ``RecordSupport`` of ``speicherstadt_lab.records``).

The hidden set-up is the draw pile (``deck``, top first, with the cards round 1 drew put back on top) and the
bag (``bag``, first drawn first). A seat's export keeps what that seat saw drawn; the rest is filled in
canonically (season, then catalogue order) when the export is loaded. A game started from a scenario keeps
``{"scenario": ..., "deck": ..., "bag": ...}``: the scenario without its hidden order, and the whole pile and bag
at its start (``scenario.scenario_setup``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any, ClassVar

from ...engine.errors import RecordError
from ...engine.protocol import GameState
from ...engine.record_support import SETUP_TYPES, RecordSupportBase


class SpeicherstadtRecords(RecordSupportBase):
    """Record support for Die Speicherstadt: the hidden orders are the draw pile and the bag."""

    game = "speicherstadt"
    hidden_fields = ("deck", "bag")
    setup_types: ClassVar[dict[str, tuple[type, ...]]] = {**SETUP_TYPES, "expansion": (str, type(None)),
                                                           "deck": (list,), "bag": (list,)}

    def setup_of(self, state: GameState) -> dict[str, Any]:
        """``new_game`` keyword arguments (pile and bag materialized) that recreate this start position."""
        d = state.to_dict()
        if d.get("round") != 1 or d.get("phase") != "demand" or d.get("last_action") is not None \
                or d.get("placed") != 0 or d.get("observer") is not None:
            raise ValueError("from_state: the state is not the start of a game (round 1, before the first "
                             "decision, not an observation); for another position use "
                             "GameRecord.from_scenario(scenario_of(state))")
        # new_game has already drawn round 1: put the drawn cards and cubes back on top, in draw order.
        # With Kaispeicher the supply fills the water spaces first, then the top row.
        top = d["kai"]["top"] if d.get("kai") else []
        top_cargo = d["kai"]["top_cargo"] if d.get("kai") else []
        deck = [*d["discard"], *(c for c in d["offer"] if c is not None), *(c for c in top if c is not None),
                *d["pile"]]
        bag = [g for cargo in [*d["cargo"], *top_cargo] for g in cargo] + d["bag"]
        return {
            "players": d["players"],
            "first_player": d["first"],
            "expansion": d["expansion"],
            "names": d["names"],
            "catalog": None if d["catalog"] == "default" else d["catalog"],
            "deck": deck,
            "bag": bag,
        }

    def scenario_setup(self, scenario: Any) -> dict[str, Any]:
        """The set-up of a game started from ``scenario``, its hidden order materialized."""
        from .scenario import scenario_setup

        return scenario_setup(scenario)

    def check_setup(self, setup: dict[str, Any]) -> None:
        """Each field of the right type (``RecordSupportBase``, a scenario's set-up too) and the names, deck and bag
        lists of texts."""
        super().check_setup(setup)
        for key in ("names", "deck", "bag"):
            v = setup.get(key)
            if v is not None and not all(isinstance(x, str) for x in v):
                raise RecordError(f"record field 'setup.{key}': must be a list of texts")

    def start_key(self, state: GameState) -> dict[str, Any]:
        """The state without its events and last action, a seat's cards as a set: a scenario keeps which cards a seat
        holds, not the order it got them in (its contracts come last)."""
        d = super().start_key(state)
        d["seats"] = [dict(s, cards=sorted(s["cards"])) for s in d["seats"]]
        return d

    def reveal(self, setup: dict[str, Any], states: Iterable[GameState], seat: int) -> dict[str, Any]:
        """What ``seat`` saw drawn: the top of the pile and the bag down to where they were smallest."""
        deck, bag = setup["deck"], setup["bag"]
        pile_left, bag_left = len(deck), len(bag)
        for st in states:
            pile_left = min(pile_left, st.pile_size)  # type: ignore[attr-defined]
            bag_left = min(bag_left, st.bag_size)  # type: ignore[attr-defined]
        return {"deck": deck[: len(deck) - pile_left], "bag": bag[: len(bag) - bag_left]}

    def fill(self, setup: dict[str, Any], revealed: dict[str, Any]) -> dict[str, Any]:
        """``setup`` with the pile and bag rebuilt: the seen part, the rest by season, then catalogue order."""
        kw, probe = self.probe(setup)
        full = self.scenario_setup(kw["scenario"]) if "scenario" in kw else self.setup_of(probe)
        cat = probe.cat  # type: ignore[attr-defined]
        out = dict(kw)
        for key, rank in (("deck", lambda c: (cat.by_id[c].season, cat.by_id[c].idx)),
                          ("bag", lambda g: [x.id for x in cat.goods].index(g))):
            seen = revealed[key]
            rest = Counter(full[key])
            rest.subtract(seen)
            if any(v < 0 for v in rest.values()):
                raise RecordError(f"record field 'hidden.{key}': not part of the game's {key}")
            out[key] = [*seen, *sorted(rest.elements(), key=rank)]
        return out

    def seat_row(self, state: GameState, seat: int) -> dict[str, Any]:
        """name, coins, track, cards, goods (held in stores and on contracts): the metrics the game declares."""
        p = state.player(seat)  # type: ignore[attr-defined]
        return {
            "name": p.name,
            "coins": p.coins,
            "track": p.track,
            "cards": len(p.cards),
            "goods": len(p.warehouse) + len(p.hall) + sum(len(placed) for _, placed in p.contracts),
        }
