"""What the rules states of the lab's games share: copy-on-write seats, ``apply``'s transition, names and texts,
scoring by categories, and the members of the protocol (``engine.protocol.GameState``) that read the same in
every game.

A game's state type subclasses :class:`BaseState` and declares its fields once, in a ``schema`` named in its class
statement (``engine/schema.py``; :class:`Declared` gives the class the schema's ``slots``); it provides the
parts that are the game's own: ``_rule_for(action)``, ``_advance(events)``, ``legal_actions``,
``score_breakdown`` and ``_tiebreak``. Its per-seat data subclasses :class:`SeatBase`.

The copies a transition makes (``State._clone``, ``Seat.clone``) are on the hot path of every playout: a copy
field by field is 0.5 µs against 4.3 µs for ``copy.copy`` of a slotted object. They are written out from the
class's ``schema`` (each field copied as it declares) when the class is made (as ``dataclasses`` writes
``__init__``), so the list of fields is written once.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from typing import Any, ClassVar, Self

from .actions import Action
from .datafiles import JsonState
from .errors import IllegalAction
from .events import Event
from .i18n import messages
from .schema import Field, Schema

Rule = Callable[[Any, Action, list[Event]], None]


def base_fields(*, keeps_legal: bool = False) -> tuple[Field, ...]:
    """The fields every game's state has, for the start of its schema: written by ``BaseState._dict_head`` and
    ``_dict_tail`` and read by ``engine.setup.state_start`` (so no codec here).

    ``keeps_legal``: a clone keeps the legal actions (the game's ``_advance`` resets them where they change), else it
    starts without them."""
    return (
        Field("_gen", int, copy="generation", default=0),  # the generation its copy-on-write parts check
        Field("_legal", tuple | None, copy="shared" if keeps_legal else "reset", default=None),
        Field("cat", object),  # the card catalogue
        Field("names", tuple | None, default=None),  # the seats' names (None: their colours)
        Field("n_players", int),
        Field("round", int),
        Field("phase", str),
        Field("events", tuple, copy="apply", default=()),  # what the last transition did
        Field("last_action", str | None, copy="apply", default=None),
        Field("observer", int | None, default=None),  # None: a full state; -1 or a seat: whose observation it is
    )


class Declared(type):
    """The type of a class declared from its fields: ``schema=`` in its class statement gives it the schema and
    the schema's ``__slots__`` (``class Seat(SeatBase, schema=SEAT_FIELDS)``)."""

    @classmethod
    def __prepare__(mcs, name: str, bases: tuple[type, ...], /, *, schema: Schema | None = None,
                    **kwargs: Any) -> dict[str, Any]:
        # the namespace the class body starts from: slots must be there before the class is made
        return {} if schema is None else {"schema": schema, "__slots__": schema.slots}


class SeatBase(metaclass=Declared):
    """One seat's holdings, shared between states until a rule changes them (copy-on-write: ``BaseState._seat``).

    A game's seat type declares its fields in a ``schema`` (``engine/schema.py``; ``"_gen"``, the generation of the
    state that owns it, among them), named in its class statement (:class:`Declared`), which gives it the schema's
    ``slots``; ``clone(gen)`` is written from it. A subclass without a schema of its own keeps it.
    """

    __slots__ = ()
    _gen: int

    def __init_subclass__(cls, *, schema: Schema | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        schema = cls.__dict__.get("schema")  # set by Declared from the class statement (or by the class body)
        if isinstance(schema, Schema):  # the fields declared once (engine/schema.py)
            cls.clone = schema.copier(cls, "clone", ", gen", {"_gen": "gen"})  # type: ignore[method-assign]

    def clone(self, gen: int) -> Self:
        """A copy owned by the state of generation ``gen``."""
        raise NotImplementedError


class SeatViewBase:
    """A read-only view of one seat with ids and names, for users: ``state.player(seat)``. The game's subclass
    sets its own figures (coins, cards, ...) after calling this ``__init__``."""

    def __init__(self, state: BaseState, seat: int) -> None:
        self.seat = seat
        self._state = state

    @property
    def name(self) -> str:
        """The seat's name in English (``state.seat_name(seat, lang)`` for another language)."""
        return self._state.seat_name(self.seat)


# Held while a game's ``plugins_later`` are imported (BaseState.plugin): the app's threads may ask at once.
_PLUGINS_LOCK = threading.RLock()


class BaseState(JsonState, metaclass=Declared):
    """A position of a game, immutable from the outside: ``apply`` clones it, runs the rule for the action on the
    clone, then carries out every step without a real decision (``_advance``) until a seat must decide.

    A game's state type names its game in the class statement, ``class State(BaseState, game=..., ...)``: ``game`` (the
    registered name), ``title`` (in its ``repr``), ``state_format`` (the ``format`` of ``to_dict``), ``seat_texts``
    (the message table of the seats' default names), ``seat_view`` (what ``player(seat)`` returns, a
    :class:`SeatViewBase`), ``seat_type`` (its :class:`SeatBase`) and ``schema``, which declares its fields (the
    class gets ``__slots__ = schema.slots`` from :class:`Declared`; the start of it is :func:`base_fields`), and
    ``_clone`` is written from it. Each subclass gets its own ``plugins``,
    the table its optional capabilities register in when their modules are imported (``"explain"``: explain_action
    (state, action, lang); ``"html"``: state_html(state)); the rules never import them. Modules named in its
    ``plugins_later`` are imported when a capability is first asked for (:meth:`plugin`), not with the game.
    """

    __slots__ = ()

    game: ClassVar[str]
    title: ClassVar[str]
    state_format: ClassVar[str]
    seat_texts: ClassVar[str]
    seat_view: ClassVar[type]
    seat_type: ClassVar[type]
    schema: ClassVar[Schema]
    plugins: ClassVar[dict[str, Any]]
    plugins_later: ClassVar[tuple[str, ...]]

    # fields every game's state has (base_fields, in the subclass's schema)
    _gen: int
    _legal: tuple[Action, ...] | None
    cat: Any
    names: tuple[str, ...] | None
    n_players: int
    round: int
    phase: str
    to_move: int | None
    seats: list[Any]
    events: tuple[Event, ...]
    last_action: str | None
    observer: int | None

    def __init_subclass__(cls, *, game: str | None = None, title: str = "", state_format: str = "",
                          seat_texts: str = "", seat_view: type = SeatViewBase, seat_type: type = SeatBase,
                          schema: Schema | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if game is None:  # a subclass of a game's state (a test's variant) keeps its game and its _clone
            return
        cls.game, cls.title, cls.state_format = game, title, state_format
        cls.seat_texts, cls.seat_view, cls.seat_type, cls.plugins = seat_texts, seat_view, seat_type, {}
        cls.plugins_later = ()
        schema = cls.__dict__.get("schema")  # set by Declared from the class statement
        if not isinstance(schema, Schema):
            raise TypeError(f"{cls.__name__}: a game's state declares its fields in a schema (engine/schema.py), "
                            "named in its class statement: class State(BaseState, game=..., schema=FIELDS)")
        cls._clone = schema.copier(cls)  # type: ignore[method-assign]  # each field copied as it declares

    def _clone(self) -> Self:
        """A new state of the next generation with every field but the events and the last action (``apply`` sets
        them), lists copied, the rest shared: what a transition changes."""
        raise NotImplementedError

    # -- the game's own parts --------------------------------------------------------------------

    def _rule_for(self, action: Action) -> Rule:
        """The rule that carries out ``action`` here, or the refusal (IllegalAction naming the rule) raised."""
        raise NotImplementedError

    def _advance(self, ev: list[Event]) -> None:
        """Carry out every step without a real decision, until a seat must decide or the game ends."""
        raise NotImplementedError

    def _tiebreak(self, seat: int) -> int:
        """What breaks a tie on points (more is better)."""
        raise NotImplementedError

    def score_breakdown(self, seat: int) -> dict[str, int]:
        """Points by category if the game ended now (final once it is over)."""
        raise NotImplementedError

    @property
    def notation(self) -> Any:
        """The game's notation: ``parse(text)`` to a canonical Action (cached)."""
        raise NotImplementedError

    # -- transitions -----------------------------------------------------------------------------

    def apply(self, action: Action | str) -> Self:
        """The state after ``action``; raises :class:`IllegalAction` (naming the rule) and changes nothing."""
        a = action if action.__class__ is Action else self.notation.parse(action)
        rule = self._rule_for(a)  # type: ignore[arg-type]
        new = self._clone()
        ev: list[Event] = []
        rule(new, a, ev)  # type: ignore[arg-type]
        new._advance(ev)
        new.events = tuple(ev)
        new.last_action = a.text  # type: ignore[union-attr]
        return new

    def _seat(self, i: int) -> Any:
        """The seat's data, owned by this state (cloned on first write)."""
        s = self.seats[i]
        if s._gen != self._gen:
            s = s.clone(self._gen)
            self.seats[i] = s
        return s

    # -- changes to a seat, the interface of the rules (a game's and its expansions' alike) ---------
    # Each owns the seat first (copy-on-write), so a rule that changes a seat through them never writes into a
    # seat another state shares. ``_seat`` written out in each: they run on the hot path (coins, points, workers).

    def seat_add(self, i: int, name: str, d: int) -> int:
        """Add ``d`` to seat ``i``'s number ``name`` (coins, points, a count); returns the new value."""
        s = self.seats[i]
        if s._gen != self._gen:
            s = self.seats[i] = s.clone(self._gen)
        v = getattr(s, name) + d
        setattr(s, name, v)
        return v  # type: ignore[no-any-return]

    def seat_set(self, i: int, name: str, value: Any) -> None:
        """Set seat ``i``'s field ``name`` to ``value`` (a new immutable value: never change one in place)."""
        s = self.seats[i]
        if s._gen != self._gen:
            s = self.seats[i] = s.clone(self._gen)
        setattr(s, name, value)

    def seat_add_at(self, i: int, name: str, k: int, d: int) -> int:
        """Add ``d`` to item ``k`` of seat ``i``'s tuple of numbers ``name`` (a count per good, say); the new item."""
        s = self.seats[i]
        if s._gen != self._gen:
            s = self.seats[i] = s.clone(self._gen)
        t = getattr(s, name)
        v = t[k] + d
        setattr(s, name, (*t[:k], v, *t[k + 1:]))
        return v  # type: ignore[no-any-return]

    def _same_position(self) -> Self:
        """A clone with this state's events and last action: the start of ``observe``, ``determinize`` and
        ``rearranged``, which change only hidden parts."""
        new = self._clone()
        new.events = self.events
        new.last_action = self.last_action
        return new

    @property
    def is_over(self) -> bool:
        """True once the game has ended (nobody is to move)."""
        return self.phase == "over"

    @property
    def is_observation(self) -> bool:
        """True for a state from ``observe``: its hidden parts are placeholders."""
        return self.observer is not None

    def parse_action(self, text: str | Action) -> Action:
        """Notation text to its canonical Action; IllegalAction (rule ``notation``) if it is not one."""
        return self.notation.parse(text)  # type: ignore[no-any-return]

    # -- names and texts -------------------------------------------------------------------------

    def seat_name(self, seat: int, lang: str = "en") -> str:
        """The seat's name: the name it was given, else its colour in ``lang``."""
        if self.names is not None:
            return self.names[seat]
        return messages.text(self.seat_texts, str(seat), lang, {})

    def event_texts(self, lang: str = "en") -> list[str]:
        """What the last transition did, one plain-language text per event."""
        return [self.describe(e, lang) for e in self.events]  # type: ignore[attr-defined]

    @classmethod
    def plugin(cls, name: str) -> Any:
        """The capability ``name`` of this game's states (None without one); the modules in ``plugins_later`` are
        imported first, once, whichever thread asks first."""
        if cls.plugins_later:  # (a thread meanwhile importing them holds the lock until every one is complete)
            with _PLUGINS_LOCK:
                for module in cls.plugins_later:
                    importlib.import_module(module)
                cls.plugins_later = ()
        return cls.plugins.get(name)

    def explain_action(self, action: Action | str, lang: str = "en") -> str:
        """What a legal action would do here, in plain language (for teaching and hover texts)."""
        explain = self.plugin("explain")
        if explain is None:
            raise KeyError("explain")  # as before: the game registers no explanations
        return explain(self, self.notation.parse(action), lang)  # type: ignore[no-any-return]

    def phrase_action(self, action: Action | str, lang: str = "en") -> str:
        """``action`` taken here as a short phrase with its card and price (the game's "phrase" capability;
        without one, the notation)."""
        phrase = self.plugin("phrase")
        if phrase is None:
            return str(self.notation.parse(action))
        return phrase(self, action, lang)  # type: ignore[no-any-return]

    def explain(self, error: IllegalAction, lang: str = "en") -> str:
        """A refusal in ``lang``, with names from this game."""
        return messages.rule_text(error.rule, lang, error.params, self) or str(error)  # type: ignore[arg-type]

    def player(self, seat: int) -> Any:
        """A read-only view of a seat's holdings with ids and names."""
        if not 0 <= seat < self.n_players:
            raise IndexError(f"seat must be 0..{self.n_players - 1}, not {seat}")
        return self.seat_view(self, seat)

    @property
    def catalog(self) -> Any:
        """The card catalogue this game is played with."""
        return self.cat

    def __repr__(self) -> str:
        mv = "-" if self.to_move is None else self.seat_name(self.to_move)
        return f"<{self.title} {self.n_players}p round {self.round} {self.phase}, to move: {mv}>"

    def _repr_html_(self) -> str:
        html = self.plugin("html")
        if html is None:
            raise KeyError("html")  # as before: the game registers no rendering
        return html(self)  # type: ignore[no-any-return]

    # -- scoring ---------------------------------------------------------------------------------

    def score(self, seat: int) -> int:
        """Points if the game ended now: the sum of ``score_breakdown``."""
        return sum(self.score_breakdown(seat).values())

    def scores(self) -> tuple[int, ...]:
        """Every seat's ``score``."""
        return tuple(self.score(i) for i in range(self.n_players))

    def winners(self) -> list[int]:
        """Seats tied for first after the tie-break (projected while the game runs)."""
        keys = [(self.score(i), self._tiebreak(i)) for i in range(self.n_players)]
        best = max(keys)
        return [i for i, k in enumerate(keys) if k == best]

    def ranks(self) -> list[int]:
        """1-based rank of each seat (score, then the tie-break); equal keys share a rank."""
        keys = [(self.score(i), self._tiebreak(i)) for i in range(self.n_players)]
        return [1 + sum(1 for o in keys if o > k) for k in keys]

    # -- serialization ---------------------------------------------------------------------------

    def _dict_head(self, **first: Any) -> dict[str, Any]:
        """The fields every ``to_dict`` starts with (``first``: the game's own, right after ``game``)."""
        return {
            "format": self.state_format,
            "game": self.game,
            **first,
            "catalog": "default" if self.cat.is_default else self.cat.raw,
            "players": self.n_players,
            "names": list(self.names) if self.names else None,
            "round": self.round,
            "phase": self.phase,
        }

    def _dict_tail(self) -> dict[str, Any]:
        """The fields every ``to_dict`` ends with."""
        return {"events": [e.to_json() for e in self.events], "last_action": self.last_action,
                "observer": self.observer}
