"""A game's action grammar, declared once as data: each verb with its arguments' kinds and the click that makes it.

A game writes a :class:`Grammar` of :class:`Verb` s (``games/<game>/grammar.py``); everything that reads or writes
actions reads it: the notation's parser (``Notation.parse``), the board's click check (a click message
``{"kind": "act", "verb": VERB, "args": {FIELD: value}}`` becomes the canonical :class:`Action` or a refusal naming
the field), the written forms in refusals (``write 'take BOARD N'``), the action catalogue of the interop adapters,
and the board models (``fields_of``: the click message of an action). An argument's ``kind`` must be one of the
registered kinds (:data:`ARG_KINDS`; a game adds its own with :func:`register_kind`); a declaration naming anything
unknown raises :class:`GrammarError` naming the field.

The *context* a grammar reads the game's names from is the game's notation (the goods, boards, ... of its
catalogue): ``domain(name)`` lists a named domain's words in canonical order, ``act(verb, *args)`` makes the
canonical action. A click's list length can depend on the position (the Harbour Master exchanges 2 cubes, not 3):
the grammar's ``numbers(state, name)`` answers it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations_with_replacement, product
from typing import Any, Protocol

from .actions import Action
from .errors import IllegalAction

MAX_INT = 99  # no number in a click is larger: bigger numbers are refused before the rules see them


class GrammarError(ValueError):
    """A grammar declaration that names something unknown; ``field`` is the path of the entry at fault."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"{field}: {message}")


class Bad(Protocol):
    """The notation's refusal of the text being parsed (``raw``, as written) with a reason."""

    raw: str

    def __call__(self, reason: str) -> IllegalAction:
        """The refusal saying ``reason``."""
        ...


class FormError(Exception):
    """Words that do not fit a verb's form (too few, too many, a literal word missing): the grammar's refusal
    then writes the verb's forms."""


@dataclass(frozen=True)
class Arg:
    """One argument of a verb.

    ``name``: its click field (a literal word has none); ``kind``: a registered kind
    (:data:`ARG_KINDS`); ``domain``: the context's domain ("one", "many", "flag"), the catalogue limit ("int"), or
    the word itself ("word"); ``what``: how a refusal names it; ``hint``: its placeholder in the written form."""

    name: str
    kind: str
    domain: str = ""
    what: str = ""
    hint: str = ""
    counts: tuple[int, ...] = ()  # "many": how many words the notation takes
    count: str = ""  # "many": the ``numbers`` entry saying how long a click's list is
    error: str = "choice"  # the click refusal's key for a value outside the domain
    choices: tuple[str, ...] = ()  # "flag": the values; the first is written as nothing, the others as themselves


class ArgKind:
    """How one kind of argument is read from notation words and from a click field, and what values it has."""

    def parse(self, arg: Arg, ctx: Any, words: list[str], i: int, bad: Bad,
              later: Sequence[Arg] = ()) -> tuple[tuple[Any, ...], int]:
        """The argument's values read from ``words[i:]`` and the index after them, or ``bad(reason)`` (``later``:
        the verb's arguments after this one); :class:`FormError` for words that do not fit the form."""
        raise NotImplementedError

    def click(self, arg: Arg, ctx: Any, value: Any, numbers: Callable[[str], int], error: Any) -> tuple[Any, ...]:
        """The argument's values from a click field's ``value``, or ``error(key, field=..., ...)``."""
        raise NotImplementedError

    def values(self, arg: Arg, ctx: Any, limits: Mapping[str, Any]) -> list[tuple[Any, ...]] | None:
        """Every value the argument can take in the action catalogue (None: no closed domain)."""
        raise NotImplementedError

    def fields(self, arg: Arg, values: tuple[Any, ...]) -> Any:
        """The click field's value of the argument's ``values`` in an action (the inverse of ``click``)."""
        return values[0]

    def span(self, arg: Arg, later: Sequence[Arg], args: tuple[Any, ...], i: int) -> int:
        """How many of an action's arguments, from ``args[i]`` on, are this one's (``later``: the verb's
        arguments after it)."""
        return 1


def show_value(value: Any) -> str:
    """A click's value as a refusal quotes it (cut at 40 characters)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class IntKind(ArgKind):
    """A number ≥ 0 (a space, level, index, seat, value); the catalogue counts up to ``limits[domain]``."""

    def parse(self, arg: Arg, ctx: Any, words: list[str], i: int, bad: Bad,
              later: Sequence[Arg] = ()) -> tuple[tuple[Any, ...], int]:
        """One number word."""
        word = words[i]
        if not word.isdigit():
            raise bad(f"{arg.what} must be a number, not {word!r}")
        return (int(word),), i + 1

    def click(self, arg: Arg, ctx: Any, value: Any, numbers: Callable[[str], int], error: Any) -> tuple[Any, ...]:
        """An integer (a whole float too) from 0 to :data:`MAX_INT`."""
        if isinstance(value, bool) or not isinstance(value, int | float) or (isinstance(value, float) and (
                not math.isfinite(value) or not value.is_integer())) or not 0 <= value <= MAX_INT:
            raise error("int", field=arg.name, top=MAX_INT, got=show_value(value))
        return (int(value),)

    def values(self, arg: Arg, ctx: Any, limits: Mapping[str, Any]) -> list[tuple[Any, ...]] | None:
        """0 up to the limit named by the argument's domain."""
        return [(k,) for k in range(limits[arg.domain])]


class OneKind(ArgKind):
    """One word of a named domain of the game (a good, a board, a store)."""

    def parse(self, arg: Arg, ctx: Any, words: list[str], i: int, bad: Bad,
              later: Sequence[Arg] = ()) -> tuple[tuple[Any, ...], int]:
        """One word of the domain."""
        known = ctx.domain(arg.domain)
        if words[i] not in known:
            raise bad(f"unknown {arg.what} {words[i]!r}; {arg.what}s are {', '.join(known)}")
        return (words[i],), i + 1

    def click(self, arg: Arg, ctx: Any, value: Any, numbers: Callable[[str], int], error: Any) -> tuple[Any, ...]:
        """A string of the domain."""
        known = ctx.domain(arg.domain)
        if not isinstance(value, str) or value not in known:
            raise error(arg.error, field=arg.name, allowed=", ".join(known), got=show_value(value))
        return (value,)

    def values(self, arg: Arg, ctx: Any, limits: Mapping[str, Any]) -> list[tuple[Any, ...]] | None:
        """Every word of the domain."""
        return [(w,) for w in ctx.domain(arg.domain)]


class ManyKind(ArgKind):
    """Several words of a domain, written in the domain's order (``hallsell``'s and ``convert``'s cubes)."""

    def parse(self, arg: Arg, ctx: Any, words: list[str], i: int, bad: Bad,
              later: Sequence[Arg] = ()) -> tuple[tuple[Any, ...], int]:
        """The words up to the next literal word (or the end), one of ``counts`` many."""
        known = ctx.domain(arg.domain)
        j = i
        while j < len(words) and words[j] in known:
            j += 1
        literals = {b.domain for b in later if b.kind == "word"}
        if j < len(words) and j - i < max(arg.counts) and words[j] not in literals:
            raise bad(f"unknown {arg.what} {words[j]!r}; {arg.what}s are {', '.join(known)}")
        if j - i not in arg.counts:
            raise FormError
        return _in_order(known, words[i:j]), j

    def click(self, arg: Arg, ctx: Any, value: Any, numbers: Callable[[str], int], error: Any) -> tuple[Any, ...]:
        """A list of as many domain words as ``numbers(count)`` says."""
        count = numbers(arg.count)
        if not isinstance(value, list | tuple) or len(value) != count:
            raise error("list", field=arg.name, count=count, got=show_value(value))
        known = ctx.domain(arg.domain)
        for v in value:
            if not isinstance(v, str) or v not in known:
                raise error(arg.error, field=arg.name, allowed=", ".join(known), got=show_value(v))
        return _in_order(known, list(value))

    def values(self, arg: Arg, ctx: Any, limits: Mapping[str, Any]) -> list[tuple[Any, ...]] | None:
        """Every multiset of the domain of each size in ``limits[count]`` (or ``counts``), in the domain's order."""
        known = list(ctx.domain(arg.domain))
        sizes = limits.get(arg.count, arg.counts)
        return [c for k in sizes for c in combinations_with_replacement(known, k)]

    def fields(self, arg: Arg, values: tuple[Any, ...]) -> Any:
        """The list of words."""
        return list(values)

    def span(self, arg: Arg, later: Sequence[Arg], args: tuple[Any, ...], i: int) -> int:
        """The words up to the next literal word (``to``), or all but the later arguments' words."""
        stop = next((b.domain for b in later if b.kind == "word"), None)
        if stop is not None and stop in args[i:]:
            return args.index(stop, i) - i
        return len(args) - i - len(later)


class WordKind(ArgKind):
    """A literal word of the notation (``to`` in ``convert``, ``free`` in ``buy free``); no click field."""

    def parse(self, arg: Arg, ctx: Any, words: list[str], i: int, bad: Bad,
              later: Sequence[Arg] = ()) -> tuple[tuple[Any, ...], int]:
        """The word itself."""
        if words[i] != arg.domain:
            raise FormError
        return (arg.domain,), i + 1

    def click(self, arg: Arg, ctx: Any, value: Any, numbers: Callable[[str], int], error: Any) -> tuple[Any, ...]:
        """The word itself (a click does not send it)."""
        return (arg.domain,)

    def values(self, arg: Arg, ctx: Any, limits: Mapping[str, Any]) -> list[tuple[Any, ...]] | None:
        """The word itself."""
        return [(arg.domain,)]


class FlagKind(ArgKind):
    """One of ``choices``; the first is written as nothing (``take guild 1``), the others as a word
    (``take guild future 1``)."""

    def parse(self, arg: Arg, ctx: Any, words: list[str], i: int, bad: Bad,
              later: Sequence[Arg] = ()) -> tuple[tuple[Any, ...], int]:
        """The word if it is one of the other choices, else the first choice."""
        if i < len(words) and words[i] in arg.choices[1:]:
            return (words[i],), i + 1
        return (), i

    def click(self, arg: Arg, ctx: Any, value: Any, numbers: Callable[[str], int], error: Any) -> tuple[Any, ...]:
        """One of the choices."""
        if not isinstance(value, str) or value not in arg.choices:
            raise error(arg.error, field=arg.name, allowed=", ".join(arg.choices), got=show_value(value))
        return () if value == arg.choices[0] else (value,)

    def values(self, arg: Arg, ctx: Any, limits: Mapping[str, Any]) -> list[tuple[Any, ...]] | None:
        """Nothing, then each other choice."""
        return [(), *((c,) for c in arg.choices[1:])]

    def fields(self, arg: Arg, values: tuple[Any, ...]) -> Any:
        """The choice."""
        return values[0] if values else arg.choices[0]

    def span(self, arg: Arg, later: Sequence[Arg], args: tuple[Any, ...], i: int) -> int:
        """1 where the word of another choice stands, else 0."""
        return 1 if i < len(args) and args[i] in arg.choices[1:] else 0


def click_kind(msg: Any, fields_by_kind: Mapping[str, tuple[str, ...]], error: Any) -> str:
    """The ``kind`` of a click message whose fields are exactly those of its kind, or ``error(key, ...)`` naming
    what is wrong (not an object, an unknown kind, a missing or an unexpected field).

    Every board message (a grammar's clicks, the move list's steps) is checked with this, each with its own error
    texts."""
    if not isinstance(msg, dict):
        raise error("not_object", got=show_value(msg))
    kind = msg.get("kind")
    if not isinstance(kind, str) or kind not in fields_by_kind:
        raise error("kind", got=show_value(kind), kinds=", ".join(fields_by_kind))
    fields = fields_by_kind[kind]
    for f in fields:
        if f not in msg:
            raise error("missing", kind=kind, field=f)
    for f in msg:
        if f != "kind" and f not in fields:
            raise error("extra", kind=kind, field=f if isinstance(f, str) else show_value(f))
    return kind


#: A board's action click: ``{"kind": "act", "verb": VERB, "args": {FIELD: value, ...}}`` (every other message kind a
#: board or panel takes, ``lang``, ``step``, ``goto``, ..., is its own and checked by its owner).
ACT = "act"
ACT_FIELDS = ("verb", "args")


def act_message(verb: str, args: Mapping[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    """The click message of ``verb`` with its argument fields (``args`` and/or keywords; ``from`` only in ``args``):
    ``act_message("place", space=2)`` is ``{"kind": "act", "verb": "place", "args": {"space": 2}}``."""
    return {"kind": ACT, "verb": verb, "args": {**(args or {}), **fields}}


def _in_order(known: Sequence[str], words: list[str]) -> tuple[str, ...]:
    order = {w: k for k, w in enumerate(known)}
    return tuple(sorted(words, key=order.__getitem__))


#: The argument kinds a grammar may name (:func:`register_kind` adds a game's own).
ARG_KINDS: dict[str, ArgKind] = {"int": IntKind(), "one": OneKind(), "many": ManyKind(), "word": WordKind(),
                                 "flag": FlagKind()}


def register_kind(name: str, kind: ArgKind) -> None:
    """Add a game's own argument kind (Packet Row's fulfilment); a name taken by another kind is refused."""
    if name in ARG_KINDS and type(ARG_KINDS[name]) is not type(kind):
        raise GrammarError("kind", f"{name!r} is already registered")
    ARG_KINDS[name] = kind


@dataclass(frozen=True)
class Verb:
    """A verb of the notation and the click that makes it.

    ``click``: the click's kind (unique in the grammar); ``word``: the notation's verb (default ``click``; ``buy free``
    is the click ``buyfree``); ``args`` in written order; ``expansion``: the expansion it belongs to (None: the game);
    ``order``: the catalogue's loop order of the args by name; ``slots``: for a verb without a closed domain, how many
    catalogue ids number its legal actions; ``build``: the context's method making its action from the parsed values
    (default ``act``)."""

    click: str
    args: tuple[Arg, ...] = ()
    word: str = ""
    expansion: str | None = None
    order: tuple[str, ...] = ()
    slots: int = 0
    build: str = ""

    @property
    def verb(self) -> str:
        """The notation's verb."""
        return self.word or self.click

    @property
    def fields(self) -> tuple[str, ...]:
        """The click's fields: the named arguments, in written order."""
        return tuple(a.name for a in self.args if a.name)

    def form(self) -> str:
        """The written form: ``take BOARD N``, ``convert G1 G2 G3 to G``."""
        parts = [self.verb]
        for a in self.args:
            hint = a.domain if a.kind == "word" else a.hint or a.name.upper()
            if hint:
                parts.append(hint)
        return " ".join(parts)


@dataclass(frozen=True)
class Grammar:
    """Every verb of one game (see the module docstring).

    ``limits``: the catalogue's bound of each "int" domain ("seats" is the player count), and for a "many" argument its
    catalogue sizes per expansion (``{"convert": {None: (3,), "kaispeicher": (3, 2)}}``); ``numbers(state, name)``: a
    number a click needs."""

    game: str
    verbs: tuple[Verb, ...]
    limits: Mapping[str, Any] = field(default_factory=dict)
    numbers: Callable[[Any, str], int] | None = None

    def __post_init__(self) -> None:
        clicks: dict[str, int] = {}
        for i, v in enumerate(self.verbs):
            where = f"{self.game}.verbs[{i}]"
            if not v.click:
                raise GrammarError(f"{where}.click", "a verb needs its click's kind")
            if v.click in clicks:
                raise GrammarError(f"{where}.click", f"{v.click!r} is declared twice")
            clicks[v.click] = i
            names = [a.name for a in v.args if a.name]
            if len(set(names)) != len(names):
                raise GrammarError(f"{where}.args", f"a field is named twice in {names}")
            for j, a in enumerate(v.args):
                if a.kind not in ARG_KINDS:
                    raise GrammarError(f"{where}.args[{j}].kind",
                                       f"unknown kind {a.kind!r}; kinds are {', '.join(ARG_KINDS)}")
                if a.kind == "word" and (a.name or not a.domain):
                    raise GrammarError(f"{where}.args[{j}]", "a literal word has no field and names its word")
                if a.kind != "word" and not a.name:
                    raise GrammarError(f"{where}.args[{j}].name", "an argument needs its click field's name")
            for name in v.order:
                if name not in names:
                    raise GrammarError(f"{where}.order", f"{name!r} is no argument of {v.click!r}")
        object.__setattr__(self, "_by_click", {v.click: v for v in self.verbs})
        object.__setattr__(self, "_click_fields", {v.click: v.fields for v in self.verbs})
        by_word: dict[str, list[Verb]] = {}
        for v in self.verbs:
            by_word.setdefault(v.verb, []).append(v)
        object.__setattr__(self, "_by_word", by_word)

    # -- reading the declaration ---------------------------------------------------------------------

    @property
    def click_fields(self) -> dict[str, tuple[str, ...]]:
        """Each click verb's fields (what a board's click message carries in its ``args``)."""
        return self._click_fields  # type: ignore[attr-defined,no-any-return]

    @property
    def words(self) -> tuple[str, ...]:
        """The notation's verbs, each once, in declared order."""
        return tuple(self._by_word)  # type: ignore[attr-defined]

    def verb(self, click: str) -> Verb:
        """The verb of a click kind; KeyError naming the known kinds."""
        try:
            return self._by_click[click]  # type: ignore[attr-defined,no-any-return]
        except KeyError:
            raise KeyError(f"{self.game}: unknown verb {click!r}; verbs are {', '.join(self.click_fields)}") from None

    def forms(self, word: str) -> list[str]:
        """The written forms of a notation verb (``take BOARD N``, ``take BOARD future N``)."""
        out = []
        for v in self._by_word.get(word, ()):  # type: ignore[attr-defined]
            flags = [a for a in v.args if a.kind == "flag"]
            hints = [a.hint or a.name.upper() for a in flags]
            out.append(v.form().replace(" " + hints[0], "") if flags else v.form())
            for a, hint in zip(flags, hints, strict=True):
                for c in a.choices[1:]:
                    out.append(v.form().replace(hint, c))
        return out

    def covers(self, what: str, table: Mapping[str, Any]) -> None:
        """Check that a table by notation verb (``what``: the explanations, a phrase table) has an entry for every
        verb of the grammar and for no other; :class:`GrammarError` naming the table and the verbs otherwise."""
        missing = [w for w in self.words if w not in table]
        extra = [w for w in table if w not in self._by_word]  # type: ignore[attr-defined]
        if missing:
            raise GrammarError(f"{self.game}.{what}", f"no entry for the verb(s) {', '.join(missing)}")
        if extra:
            raise GrammarError(f"{self.game}.{what}", f"entries for verb(s) the grammar does not have: "
                                                       f"{', '.join(map(str, extra))}")

    # -- notation --------------------------------------------------------------------------------------

    def parse(self, ctx: Any, verb: str, args: list[str], bad: Bad) -> Action:
        """The canonical action of a normalized verb and its argument words (``ctx``: the game's notation), or
        ``bad(reason)``: an unknown verb, a wrong form (the refusal writes the verb's forms), a word off its domain.
        """
        verbs = self._by_word.get(verb)  # type: ignore[attr-defined]
        if verbs is None:
            raise bad(f"unknown verb {verb!r}; verbs are {', '.join(self.words)}")
        word_error: IllegalAction | None = None
        for v in verbs:
            try:
                return self._parse_verb(ctx, v, args, bad)
            except FormError:
                continue
            except IllegalAction as err:
                word_error = word_error or err
        if word_error is not None:
            raise word_error
        forms = self.forms(verb)
        if forms == [verb]:
            raise bad(f"'{verb}' takes no arguments")
        raise bad("write " + " or ".join(f"'{f}'" for f in forms))

    def _parse_verb(self, ctx: Any, v: Verb, words: list[str], bad: Bad) -> Action:
        values: list[Any] = []
        i = 0
        for j, a in enumerate(v.args):
            kind = ARG_KINDS[a.kind]
            if i >= len(words) and a.kind != "flag":
                raise FormError
            got, i = kind.parse(a, ctx, words, i, bad, v.args[j + 1:])
            values.extend(got)
        if i != len(words):
            raise FormError
        if v.build:
            return getattr(ctx, v.build)(*values)  # type: ignore[no-any-return]
        return ctx.act(v.verb, *values)  # type: ignore[no-any-return]

    # -- clicks ------------------------------------------------------------------------------------------

    def click(self, ctx: Any, state: Any, msg: Any, error: Any) -> Action:
        """The canonical action of a board's click message ``{"kind": "act", "verb": VERB, "args": {FIELD: value}}``
        (:func:`act_message`), or ``error(key, ...)`` naming what is wrong.

        What is wrong: not an object, another kind, a missing or unexpected field, an unknown verb, ``args`` not an
        object, a missing or unexpected argument, a value outside its kind. Only the shape is checked; the rules judge
        the action."""
        if not (isinstance(msg, dict) and len(msg) == 3 and msg.get("kind") == ACT and "verb" in msg and "args" in msg):
            click_kind(msg, {ACT: ACT_FIELDS}, error)  # not the envelope: the refusal names what is wrong
        verb, args = msg["verb"], msg["args"]
        if not isinstance(verb, str) or verb not in self._by_click:  # type: ignore[attr-defined]
            verbs = ", ".join(self._click_fields)  # type: ignore[attr-defined]
            raise error("verb", field="verb", got=show_value(verb), verbs=verbs)
        v = self._by_click[verb]  # type: ignore[attr-defined]
        if not isinstance(args, dict):
            raise error("args", field="args", verb=verb, got=show_value(args))
        fields = self._click_fields[verb]  # type: ignore[attr-defined]
        for f in fields:
            if f not in args:
                raise error("missing", kind=verb, field=f)
        if len(args) != len(fields):
            extra = next(f for f in args if f not in fields)
            raise error("extra", kind=verb, field=extra if isinstance(extra, str) else show_value(extra))

        def numbers(name: str) -> int:
            assert self.numbers is not None, f"{self.game}: the grammar declares no numbers for {name!r}"
            return self.numbers(state, name)

        values: list[Any] = []
        for a in v.args:
            values.extend(ARG_KINDS[a.kind].click(a, ctx, args.get(a.name), numbers, error))
        if v.build:
            return getattr(ctx, v.build)(*values)  # type: ignore[no-any-return]
        return ctx.act(v.verb, *values)  # type: ignore[no-any-return]

    def fields_of(self, action: Action) -> dict[str, Any]:
        """The click message that makes ``action`` (``{"kind": "act", "verb", "args"}``): what a board sends for it."""
        for v in self._by_word.get(action.kind, ()):  # type: ignore[attr-defined]
            out = self._split(v, action.args)
            if out is not None:
                return act_message(v.click, out)
        raise KeyError(f"{self.game}: {action.text!r} has no verb of the grammar")

    def _split(self, v: Verb, args: tuple[Any, ...]) -> dict[str, Any] | None:
        out: dict[str, Any] = {}
        i = 0
        for j, a in enumerate(v.args):
            kind = ARG_KINDS[a.kind]
            n = kind.span(a, v.args[j + 1:], args, i)
            if n < 0 or i + n > len(args):
                return None
            values = tuple(args[i:i + n])
            if a.kind == "word":
                if values != (a.domain,):
                    return None
            else:
                out[a.name] = kind.fields(a, values)
            i += n
        return out if i == len(args) else None

    # -- the action catalogue --------------------------------------------------------------------------------

    def catalogue(self, ctx: Any, players: int, expansion: str | None) -> list[str]:
        """Every action text of the game with ``expansion`` for ``players`` seats, numbered by the interop
        adapters.

        The order: per expansion (the game's verbs first), the verbs without arguments, then the others, each
        over its arguments' values (a verb with ``slots`` as ``VERB #k``)."""
        limits = {"seats": players, **self.limits}
        out: list[str] = []
        groups = [None] + ([expansion] if expansion is not None else [])
        for group in groups:
            verbs = [v for v in self.verbs if v.expansion == group]
            for v in [v for v in verbs if not v.fields] + [v for v in verbs if v.fields]:
                out.extend(self._texts(ctx, v, limits, expansion))
        return out

    def _texts(self, ctx: Any, v: Verb, limits: Mapping[str, Any], expansion: str | None) -> list[str]:
        if v.slots:
            return [f"{v.verb} #{k}" for k in range(v.slots)]
        sized = {a.count: limits[a.count][expansion] for a in v.args if a.kind == "many" and a.count in limits}
        lim = {**limits, **sized}
        domains = {a.name or f"#{j}": ARG_KINDS[a.kind].values(a, ctx, lim) for j, a in enumerate(v.args)}
        keys = list(domains)
        loop = [*v.order, *(k for k in keys if k not in v.order)]
        out = []
        for combo in product(*(domains[k] for k in loop)):
            by_key = dict(zip(loop, combo, strict=True))
            words = [str(x) for k in keys for x in by_key[k]]
            out.append(" ".join([v.verb, *words]))
        return out

