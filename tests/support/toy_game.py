"""A tiny third game, registered the way docs/architecture.md says, to prove the lab needs nothing else.

*Toy Race*: 2-4 players, three rounds. On your turn either **take 1** point or **draw** the top card of a
hidden deck (values 0-3) and score it. The deck's order is the hidden information. Highest score wins;
ties share the win. Nothing in the lab knows this game: it is found through its ``GameInfo`` alone.
"""

from __future__ import annotations

import json
import sys
import types
import zlib
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

from speicherstadt_lab.engine.actions import Action
from speicherstadt_lab.engine.conformance import ConformanceAdapter, end_checks
from speicherstadt_lab.engine.errors import IllegalAction, RecordError
from speicherstadt_lab.engine.events import Event
from speicherstadt_lab.engine.grammar import Arg, Grammar, Verb
from speicherstadt_lab.engine.i18n import messages
from speicherstadt_lab.engine.notation import Notation
from speicherstadt_lab.engine.protocol import GameInfo, GameState, register_game
from speicherstadt_lab.engine.protocol import new_game as lab_new_game
from speicherstadt_lab.engine.record_support import RecordSupportBase
from speicherstadt_lab.engine.rng import Rng
from speicherstadt_lab.engine.schema import COUNTS, EVENTS, INT, OBSERVER, TEXT_OR_NONE, Field, Schema

NAME = "toy_race"
ROUNDS = 3
DECK = (0, 0, 1, 1, 1, 2, 2, 3, 3, 3, 0, 1, 2)
PHASES = ("play", "over")
TEXTS = {
    "toy_take": {"en": "{seat} takes 1 point.", "de": "{seat} nimmt 1 Punkt."},
    "toy_draw": {"en": "{seat} draws a {value}.", "de": "{seat} zieht eine {value}."},
    "toy_end": {"en": "The race is over.", "de": "Das Rennen ist vorbei."},
}


# The verbs, declared once: parsing, a board's clicks and the interop action catalogue read this.
GRAMMAR = Grammar(game=NAME, verbs=(Verb("draw"), Verb("take", (Arg("points", "int", "points", what="the points"),))),
                  limits={"points": 2})


class ToyNotation(Notation):
    """Toy Race's notation: its grammar read by the engine; a refusal in the toy's own words."""

    grammar = GRAMMAR

    def _bad(self, text: str, reason: str) -> IllegalAction:
        return IllegalAction("toy_notation", f"Toy Race: {text!r} is not an action ({reason})", action=text,
                             text=text, reason=reason)


NOTATION = ToyNotation()


# The fields of a position, declared once: the clone, the state file, a new game's and a record's set-up and the
# masking of ``view`` read them (tests/engine/test_schema.py adds one here, in a variant, and follows it everywhere).
FIELDS = Schema(
    Field("n_players", int, INT, key="players", setup=True),
    Field("deck", tuple, COUNTS, hidden="deck order", setup=True,
          mask=lambda deck, st: {"count": len(deck), "values": sorted(deck)}),
    Field("scores", tuple, COUNTS),
    Field("ply", int, INT, default=0),
    Field("events", tuple, EVENTS, default=()),
    Field("last_action", str | None, TEXT_OR_NONE, default=None),
    Field("observer", int | None, OBSERVER, default=None),
)


class State:
    """An immutable Toy Race position; ``apply`` returns a new one."""

    game: ClassVar[str] = NAME
    schema: ClassVar[Schema] = FIELDS
    notation: ClassVar[Notation] = NOTATION  # the grammar's context
    __slots__ = FIELDS.slots
    n_players: int
    deck: tuple[int, ...]
    scores: tuple[int, ...]
    ply: int
    events: tuple[Event, ...]
    last_action: str | None
    observer: int | None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._clone = cls.schema.copier(cls)  # type: ignore[method-assign]  # a variant's own fields copied too

    def _clone(self) -> State:
        """A copy with every field of the schema (written from it when the class is made)."""
        raise NotImplementedError

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
        return [] if self.is_over else [NOTATION.act("take", 1), NOTATION.act("draw")]

    def parse_action(self, text: Action | str) -> Action:
        return NOTATION.parse(text)

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
        nxt = self._clone()
        nxt.deck, nxt.scores, nxt.ply, nxt.events, nxt.last_action = deck, scores, self.ply + 1, (ev,), str(a)
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
        d = self.schema.view(self, self.to_dict())  # every hidden field masked
        d.pop("observer")  # a tag of where the state came from (observe), no fact of the game
        d["seat"] = seat
        return d

    def determinize(self, seed: int | str) -> State:
        deck = list(self.deck)
        Rng(seed, "toy").shuffle(deck)
        new = self.schema.with_hidden(self._clone(), deck=tuple(deck))
        new.observer = None
        return new  # type: ignore[no-any-return]

    def observe(self, seat: int | None) -> State:
        new = self.schema.with_hidden(self._clone(), deck=tuple(sorted(self.deck)))
        new.observer = -1 if seat is None else seat
        return new  # type: ignore[no-any-return]

    def fingerprint(self) -> int:
        return zlib.crc32(json.dumps(self.view(None), sort_keys=True).encode())

    # -- files ------------------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {"format": "toy/1", "game": self.game, **self.schema.encode(self)}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(self.to_json())


State._clone = FIELDS.copier(State)  # type: ignore[method-assign]


def new_game(players: int = 2, seed: int | str = 0, deck: Sequence[int] | None = None, *,
             cls: type[State] = State, **setup: Any) -> State:
    """The start; ``setup``: the values of the schema's other set-up fields (by their file keys)."""
    if deck is None:
        cards = list(DECK)
        Rng(seed, "toy", "deck").shuffle(cards)
    else:
        if sorted(deck) != sorted(DECK):
            raise ValueError(f"deck: must hold the Toy Race cards {sorted(DECK)}")
        cards = list(deck)
    keys = {f.file_key: f.name for f in cls.schema.setup}
    unknown = sorted(set(setup) - set(keys))
    if unknown:
        raise ValueError(f"{unknown[0]}: not a set-up field of {cls.game}")
    return cls.schema.build(cls, n_players=players, deck=tuple(cards), scores=(0,) * players,  # type: ignore[no-any-return]
                            **{keys[k]: v for k, v in setup.items()})


def from_dict(d: dict[str, Any], cls: type[State] = State) -> State:
    st = cls.schema.build(cls, n_players=0, deck=(), scores=())  # every field set, the file's values follow
    if d.get("game") != cls.game:
        raise RecordError(f"state field 'game': not a {cls.game} state")
    cls.schema.decode(d, st)
    if len(st.scores) != st.n_players:
        raise RecordError("state field 'scores': one per seat")
    return st  # type: ignore[no-any-return]


class ToyRecords(RecordSupportBase):
    """What records need: the deck is the hidden set-up (checking the set-up and marking an observation come
    from the engine's ``RecordSupportBase``)."""

    game = NAME
    schema: ClassVar[Schema] = FIELDS
    # the set-up's fields come from the schema: the hidden ones, and each one's type in a record's set-up
    hidden_fields = tuple(f.file_key for f in FIELDS.setup if f.hidden)
    setup_types: ClassVar[dict[str, tuple[type, ...]]] = {
        f.file_key: (list,) if f.type is tuple else (f.type,) for f in FIELDS.setup}

    def setup_of(self, state: GameState) -> dict[str, Any]:
        d = state.to_dict()
        if d["ply"] != 0:
            raise ValueError("from_state: not the start of a game")
        return {f.file_key: d[f.file_key] for f in self.schema.setup}

    def reveal(self, setup: dict[str, Any], states: Iterable[GameState], seat: int) -> dict[str, Any]:
        left = min(len(s.deck) for s in states)  # type: ignore[attr-defined]
        return {"deck": setup["deck"][: len(setup["deck"]) - left]}

    def fill(self, setup: dict[str, Any], revealed: dict[str, Any]) -> dict[str, Any]:
        rest = Counter(DECK)
        rest.subtract(revealed["deck"])
        return {**setup, "deck": [*revealed["deck"], *sorted(rest.elements())]}

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
    capabilities={"records": f"{__name__}:ToyRecords", "conformance": f"{__name__}:conformance_adapter",
                  "grammar": f"{__name__}:GRAMMAR"},
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


def variant(name: str, *more: Field) -> GameInfo:
    """Toy Race with ``more`` fields (a test's variant), registered as game ``name``: the fields are declared in the
    one place, the schema, and everything else (clone, files, set-up, records, ``view``) follows from it."""
    schema = FIELDS + more
    cls = type(State)(f"State_{name}", (State,), {"__slots__": tuple(f.name for f in more), "schema": schema,
                                                 "game": name, "__doc__": f"A position of {name}."})
    module = types.ModuleType(f"{__name__}_{name}")
    module.new_game = lambda **kw: new_game(cls=cls, **kw)  # type: ignore[attr-defined]
    module.from_dict = lambda d: from_dict(d, cls)  # type: ignore[attr-defined]
    module.Records = type("Records", (ToyRecords,), {  # type: ignore[attr-defined]
        "game": name, "schema": schema, "hidden_fields": tuple(f.file_key for f in schema.setup if f.hidden),
        "setup_types": {f.file_key: (list,) if f.type is tuple else (f.type,) for f in schema.setup}})
    module.conformance_adapter = conformance_adapter  # type: ignore[attr-defined]
    sys.modules[module.__name__] = module
    info = GameInfo(name=name, title=f"Toy Race ({name})", min_players=2, max_players=4, phases=PHASES,
                    parameters={**INFO.parameters, **{f.file_key: "a variant's field" for f in more if f.setup}},
                    module=module.__name__, capabilities={"records": f"{module.__name__}:Records"})
    register()
    register_game(info)
    return info
