"""What game records need to know about Packet Row (the ``RecordSupport`` of ``speicherstadt_lab.records``).

The hidden set-up is ``decks`` (the four decks, top first, in board order) and ``start_contracts`` (the deal:
seat 0's first, then the unused ones). A game started from a scenario keeps ``{"scenario": ..., "decks": ...,
"start_contracts": ...}``: the scenario without its hidden parts, each board's cards it does not place (removed ones
first) and the deal (the secret holders' in seat order, then the unused ones; ``scenario.scenario_setup``). A seat's
export keeps what that seat saw: every card drawn into a supply, its own starting contract, the starting contracts
fulfilled (or shown at the end) by others; the rest is null and is filled in canonically (catalogue order) when the
export is loaded. Whether the engine asks a seat never depends on a secret, so the recorded moves replay on the
filled-in set-up.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any, ClassVar

from ...engine.errors import RecordError
from ...engine.protocol import GameState
from ...engine.record_support import SETUP_TYPES, RecordSupportBase
from .catalog import BOARDS
from .scenario import scenario_setup


class PacketRowRecords(RecordSupportBase):
    """Record support for Packet Row: the hidden orders are the four decks and the deal of starting contracts."""

    game = "packet_row"
    hidden_fields = ("decks", "start_contracts")
    setup_types: ClassVar[dict[str, tuple[type, ...]]] = {**SETUP_TYPES, "decks": (list,),
                                                           "start_contracts": (list,)}

    def setup_of(self, state: GameState) -> dict[str, Any]:
        """``new_game`` keyword arguments (decks and deal materialized) that recreate this start position."""
        d = state.to_dict()
        if (d.get("round") != 1 or d.get("phase") != "choose" or d.get("last_action") is not None
                or d.get("chosen") or d.get("observer") is not None):
            raise ValueError("from_state: the state is not the start of a game (round 1, before the first "
                             "decision, not an observation)")
        decks = [[*b["removed"], *b["current"], *b["future"], *b["deck"]] for b in (d["boards"][x] for x in BOARDS)]
        start = [next(c for c in s["hand"] if self._is_start(state, c)) for s in d["seats"]]
        return {
            "players": d["players"],
            "first_player": d["harbour_master"],
            "names": d["names"],
            "catalog": None if d["catalog"] == "default" else d["catalog"],
            "decks": decks,
            "start_contracts": [*start, *d["box"]],
        }

    @staticmethod
    def _is_start(state: GameState, card: str) -> bool:
        """Whether ``card`` is a starting contract."""
        return bool(state.cat.by_id[card].start)  # type: ignore[attr-defined]

    def scenario_setup(self, scenario: Any) -> dict[str, Any]:
        """The set-up of a game started from ``scenario``, its hidden order materialized."""
        return scenario_setup(scenario)

    def check_setup(self, setup: dict[str, Any]) -> None:
        """Each field of the right type (``RecordSupportBase``, a scenario's set-up too), the names texts, one deck
        per board of card ids."""
        super().check_setup(setup)
        names = setup.get("names")
        if names is not None and not all(isinstance(x, str) for x in names):
            raise RecordError("record field 'setup.names': must be a list of texts")
        decks = setup["decks"]
        if len(decks) != len(BOARDS) or not all(isinstance(d, list) for d in decks):
            raise RecordError(f"record field 'setup.decks': must be {len(BOARDS)} lists, one per board {list(BOARDS)}")
        for lst, key in [*((d, "decks") for d in decks), (setup["start_contracts"], "start_contracts")]:
            if not all(x is None or isinstance(x, str) for x in lst):
                raise RecordError(f"record field 'setup.{key}': must list card ids")

    def reveal(self, setup: dict[str, Any], states: Iterable[GameState], seat: int) -> dict[str, Any]:
        """What ``seat`` saw of the hidden set-up: every card drawn into a supply, its own starting contract and the
        ones fulfilled or shown by others (the rest null)."""
        decks, start = setup["decks"], setup["start_contracts"]
        drawn = [0] * len(BOARDS)
        removed = [0] * len(BOARDS)
        known: set[str] = set()  # the starting contracts the seat has seen: its own, fulfilled, shown
        for st in states:
            d = st.to_dict()
            for b, name in enumerate(BOARDS):
                bd = d["boards"][name]
                removed[b] = len(bd["removed"])
                drawn[b] = max(drawn[b], len(decks[b]) - removed[b] - len(bd["deck"]))
            shown = d["seats"] if d["phase"] in ("final", "over") else [d["seats"][seat]]
            known.update(c for s in shown for c in s["hand"])
            known.update(d["boards"]["guild"]["discard"])
        return {
            "decks": [[None] * removed[b] + decks[b][removed[b]: removed[b] + drawn[b]] for b in range(len(BOARDS))],
            "start_contracts": [c if c in known else None for c in start],
        }

    def fill(self, setup: dict[str, Any], revealed: dict[str, Any]) -> dict[str, Any]:
        """``setup`` with the decks and the deal rebuilt: the seen cards, the rest in catalogue order."""
        kw, probe = self.probe(setup)
        full = self.scenario_setup(kw["scenario"]) if "scenario" in kw else self.setup_of(probe)
        order = {c.id: c.idx for c in probe.cat.cards}  # type: ignore[attr-defined]
        out = dict(kw)
        decks = revealed["decks"]
        if len(decks) != len(BOARDS):
            raise RecordError(f"record field 'hidden.decks': must be {len(BOARDS)} lists")
        out["decks"] = [_complete(seen, whole, order, f"hidden.decks[{b}]")
                        for b, (seen, whole) in enumerate(zip(decks, full["decks"], strict=True))]
        out["start_contracts"] = _complete(revealed["start_contracts"], full["start_contracts"], order,
                                           "hidden.start_contracts")
        return out

    def seat_row(self, state: GameState, seat: int) -> dict[str, Any]:
        """name, money, buildings (points of buildings held), cards (hand and ships), goods (units on goods
        cards in hand): the metrics the game declares."""
        cat = state.cat  # type: ignore[attr-defined]
        p = state.player(seat)  # type: ignore[attr-defined]
        hand = [cat.by_id[c] for c in p.hand]
        return {
            "name": p.name,
            "money": p.money,
            "buildings": sum(c.vp for c in hand if c.kind == "building"),
            "cards": len(p.hand) + len(p.ships),
            "goods": sum(c.amount for c in hand if c.kind == "goods"),
        }


def _complete(seen: Any, whole: list[str], order: dict[str, int], where: str) -> list[str]:
    """``seen`` (ids or null) with the nulls and the unseen tail filled by the rest of ``whole`` in catalogue order."""
    if not isinstance(seen, list) or len(seen) > len(whole):
        raise RecordError(f"record field '{where}': must be a list of at most {len(whole)} entries")
    rest = Counter(whole)
    rest.subtract(x for x in seen if x is not None)
    if any(v < 0 for v in rest.values()) or sum(rest.values()) < seen.count(None):
        raise RecordError(f"record field '{where}': lists a card that is not part of the game")
    fill = iter(sorted(rest.elements(), key=order.__getitem__))
    out = [x if x is not None else next(fill) for x in seen]
    return [*out, *fill]
