"""A tiny third game, registered the way docs/architecture.md says, to prove the lab needs nothing else.

*Toy Race*: 2-4 players, three rounds. On your turn either **take 1** point or **draw** the top card of a
hidden deck (values 0-3) and score it. The deck's order is the hidden information. Highest score wins;
ties share the win. Nothing in the lab knows this game: it is found through its ``GameInfo`` alone.
"""

from __future__ import annotations

import json
import zlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from speicherstadt_lab.engine.actions import Action, normalize
from speicherstadt_lab.engine.conformance import ConformanceAdapter, end_checks
from speicherstadt_lab.engine.errors import IllegalAction, RecordError
from speicherstadt_lab.engine.events import Event
from speicherstadt_lab.engine.i18n import messages
from speicherstadt_lab.engine.protocol import GameInfo, GameState, register_game
from speicherstadt_lab.engine.protocol import new_game as lab_new_game
from speicherstadt_lab.engine.record_support import RecordSupportBase
from speicherstadt_lab.engine.rng import Rng

NAME = "toy_race"
ROUNDS = 3
DECK = (0, 0, 1, 1, 1, 2, 2, 3, 3, 3, 0, 1, 2)
PHASES = ("play", "over")
TEXTS = {
    "toy_take": {"en": "{seat} takes 1 point.", "de": "{seat} nimmt 1 Punkt."},
    "toy_draw": {"en": "{seat} draws a {value}.", "de": "{seat} zieht eine {value}."},
    "toy_end": {"en": "The race is over.", "de": "Das Rennen ist vorbei."},
}


@dataclass(eq=False)
class State:
    """An immutable Toy Race position; ``apply`` returns a new one."""

    game: ClassVar[str] = NAME
    n_players: int
    deck: tuple[int, ...]
    scores: tuple[int, ...]
    ply: int = 0
    events: tuple[Event, ...] = ()
    last_action: str | None = None
    observer: int | None = None

    # -- the protocol -------------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.ply >= ROUNDS * self.n_players

    @property
    def to_move(self) -> int | None:
        return None if self.is_over else self.ply % self.n_players

    @property
    def round(self) -> int:
        return min(self.ply // self.n_players, ROUNDS - 1) + 1

    @property
    def phase(self) -> str:
        return "over" if self.is_over else "play"

    def legal_actions(self) -> list[Action]:
        return [] if self.is_over else [Action("take", (1,)), Action("draw")]

    def parse_action(self, text: Action | str) -> Action:
        words = normalize(str(text)).split()
        if words == ["draw"]:
            return Action("draw")
        if len(words) == 2 and words[0] == "take" and words[1].isdigit():
            return Action("take", (int(words[1]),))
        raise IllegalAction("toy_notation", f"Toy Race: {str(text)!r} is not an action (take 1, draw)",
                            action=str(text), text=str(text))

    def apply(self, action: Action | str) -> State:
        a = self.parse_action(action)
        if self.is_over:
            raise IllegalAction("toy_over", "Toy Race: the race is over.", action=str(a))
        if a not in self.legal_actions():
            raise IllegalAction("toy_take", "Toy Race: you may take exactly 1 point.", action=str(a))
        seat = self.to_move
        assert seat is not None
        if a.kind == "take":
            gain, deck, ev = 1, self.deck, Event("toy_take", {"seat": seat})
        else:
            gain, deck, ev = self.deck[0], self.deck[1:], Event("toy_draw", {"seat": seat, "value": self.deck[0]})
        scores = tuple(s + gain if i == seat else s for i, s in enumerate(self.scores))
        nxt = State(self.n_players, deck, scores, self.ply + 1, (ev,), str(a), self.observer)
        if nxt.is_over:
            nxt.events = (ev, Event("toy_end", {}))
        return nxt

    def score(self, seat: int) -> int:
        return self.scores[seat]

    def score_breakdown(self, seat: int) -> dict[str, int]:
        return {"points": self.scores[seat]}

    def winners(self) -> list[int]:
        best = max(self.scores)
        return [i for i, s in enumerate(self.scores) if s == best]

    def seat_name(self, seat: int, lang: str = "en") -> str:
        return f"Seat {seat + 1}" if lang == "en" else f"Platz {seat + 1}"

    def describe(self, event: Event, lang: str = "en") -> str:
        args = dict(event.args)
        if "seat" in args:
            args["seat"] = self.seat_name(args["seat"], lang)
        return TEXTS[event.key][lang].format(**args)

    # -- hidden information ---------------------------------------------------------------------------------

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"game": NAME, "players": self.n_players, "scores": list(self.scores), "ply": self.ply,
                "deck_left": len(self.deck), "deck_values": sorted(self.deck)}

    def determinize(self, seed: int | str) -> State:
        deck = list(self.deck)
        Rng(seed, "toy").shuffle(deck)
        return State(self.n_players, tuple(deck), self.scores, self.ply, self.events, self.last_action)

    def observe(self, seat: int | None) -> State:
        return State(self.n_players, tuple(sorted(self.deck)), self.scores, self.ply, self.events,
                     self.last_action, -1 if seat is None else seat)

    def fingerprint(self) -> int:
        return zlib.crc32(json.dumps(self.view(None), sort_keys=True).encode())

    # -- files ------------------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {"format": "toy/1", "game": NAME, "players": self.n_players, "deck": list(self.deck),
                "scores": list(self.scores), "ply": self.ply, "events": [e.to_json() for e in self.events],
                "last_action": self.last_action, "observer": self.observer}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(self.to_json())


def new_game(players: int = 2, seed: int | str = 0, deck: Sequence[int] | None = None) -> State:
    if deck is None:
        cards = list(DECK)
        Rng(seed, "toy", "deck").shuffle(cards)
    else:
        if sorted(deck) != sorted(DECK):
            raise ValueError(f"deck: must hold the Toy Race cards {sorted(DECK)}")
        cards = list(deck)
    return State(players, tuple(cards), (0,) * players)


def from_dict(d: dict[str, Any]) -> State:
    try:
        st = State(d["players"], tuple(d["deck"]), tuple(d["scores"]), d["ply"],
                   tuple(Event.from_json(e) for e in d["events"]), d["last_action"], d["observer"])
    except (KeyError, TypeError, ValueError) as e:
        raise RecordError(f"state: not a Toy Race state ({e})") from None
    return st


class ToyRecords(RecordSupportBase):
    """What records need: the deck is the hidden set-up (checking the set-up and marking an observation come
    from the engine's ``RecordSupportBase``)."""

    game = NAME
    hidden_fields = ("deck",)
    setup_types: ClassVar[dict[str, tuple[type, ...]]] = {"players": (int,), "deck": (list,)}

    def setup_of(self, state: GameState) -> dict[str, Any]:
        d = state.to_dict()
        if d["ply"] != 0:
            raise ValueError("from_state: not the start of a game")
        return {"players": d["players"], "deck": d["deck"]}

    def reveal(self, setup: dict[str, Any], states: Iterable[GameState], seat: int) -> dict[str, Any]:
        left = min(len(s.deck) for s in states)  # type: ignore[attr-defined]
        return {"deck": setup["deck"][: len(setup["deck"]) - left]}

    def fill(self, setup: dict[str, Any], revealed: dict[str, Any]) -> dict[str, Any]:
        rest = Counter(DECK)
        rest.subtract(revealed["deck"])
        return {"players": setup["players"], "deck": [*revealed["deck"], *sorted(rest.elements())]}

    def seat_row(self, state: GameState, seat: int) -> dict[str, Any]:
        return {"name": state.seat_name(seat), "points": state.score(seat)}  # type: ignore[attr-defined]


def conformance_adapter() -> ConformanceAdapter:
    def invariants(s: GameState) -> list[str]:
        """Every card is in the deck or drawn, and the points are the takes plus the drawn values."""
        st: State = s  # type: ignore[assignment]
        drawn = Counter(DECK)
        drawn.subtract(st.deck)
        if any(v < 0 for v in drawn.values()):
            return [f"the deck holds cards that are not Toy Race cards: {st.deck}"]
        takes = sum(st.scores) - sum(v * k for v, k in drawn.items())
        if takes < 0 or takes + sum(drawn.values()) != st.ply:
            return [f"scores {st.scores} do not add up after {st.ply} turns"]
        return []

    return ConformanceAdapter(
        game=NAME,
        player_counts=(2, 3, 4),
        new_game=lambda n, seed: lab_new_game(NAME, players=n, seed=seed),
        invariants=invariants,
        candidate_actions=lambda s: ["take 1", "take 2", "draw", "pass"],
        game_checks=lambda final, actions: end_checks(final, actions, "toy_end")
        + ([] if final.round == ROUNDS else [f"ended in round {final.round}"]),
        hidden_sequences=lambda s: [list(s.deck)],  # type: ignore[attr-defined]
    )


INFO = GameInfo(
    name=NAME,
    title="Toy Race",
    min_players=2,
    max_players=4,
    phases=PHASES,
    parameters={"players": "2-4", "seed": "int: deck shuffle", "deck": "stacked deck, top first"},
    module=__name__,
    capabilities={"records": f"{__name__}:ToyRecords", "conformance": f"{__name__}:conformance_adapter"},
)


def register() -> None:
    """The one registration a game needs (plus its refusal texts in both languages)."""
    messages.add({"rule": {
        "toy_notation": {"en": "Toy Race: {text!r} is not an action (take 1, draw).",
                         "de": "Toy Race: {text!r} ist kein Zug (take 1, draw)."},
        "toy_over": {"en": "Toy Race: the race is over.", "de": "Toy Race: das Rennen ist vorbei."},
        "toy_take": {"en": "Toy Race: you may take exactly 1 point.", "de": "Toy Race: man nimmt genau 1 Punkt."},
    }})
    register_game(INFO)
