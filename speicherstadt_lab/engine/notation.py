"""What every game's notation shares: canonical actions made once and reused, and parsing with a cache.

Parsing is on the hot path of every random playout and every replayed record, so a text is parsed once and its
:class:`Action` reused; ``act`` returns the one canonical Action of a verb and its arguments, so the rules can
compare actions by identity. A game's notation subclasses :class:`Notation`, names its declared grammar
(``engine/grammar.py``) and fills ``domains`` (its goods, boards, ... by name): parsing reads the grammar.
"""

from __future__ import annotations

from typing import Any, ClassVar

from .actions import Action, normalize
from .errors import IllegalAction
from .grammar import Grammar
from .i18n import messages


class _Refusal:
    """The refusal of one text as no action (a grammar's ``bad``), remembering the text as written."""

    __slots__ = ("notation", "raw")

    def __init__(self, notation: Notation, raw: str) -> None:
        self.notation = notation
        self.raw = raw

    def __call__(self, reason: str) -> IllegalAction:
        return self.notation._bad(self.raw, reason)


class Notation:
    """Parser and canonical actions of one game (and catalogue): ``parse(text)`` and ``act(kind, *args)``.

    ``rule`` is the rule key of a refusal of text that is not an action (its EN/DE texts in the game's messages
    take ``text`` and ``reason``); ``cache_size`` how many texts are kept parsed before the cache starts over.
    """

    rule: ClassVar[str] = "notation"
    cache_size: ClassVar[int] = 50_000
    grammar: ClassVar[Grammar]  # the game's verbs, declared once (games/<game>/grammar.py)

    def __init__(self) -> None:
        self._cache: dict[str, Action] = {}
        self._acts: dict[tuple[Any, ...], Action] = {}
        self.domains: dict[str, tuple[str, ...]] = {}  # the grammar's named domains: goods, boards, ...

    def domain(self, name: str) -> tuple[str, ...]:
        """The words of the grammar's domain ``name`` in canonical order."""
        return self.domains[name]

    def click(self, state: Any, msg: Any, error: Any) -> Action:
        """The canonical action of a board's click message, or ``error(key, ...)`` naming the field at fault."""
        return self.grammar.click(self, state, msg, error)

    def act(self, kind: str, *args: Any) -> Action:
        """The canonical (cached) action; ``args`` must already be canonical."""
        key = (kind, *args)
        a = self._acts.get(key)
        if a is None:
            a = self._acts[key] = Action(kind, args)
        return a

    def parse(self, text: str | Action) -> Action:
        """Notation text to its canonical Action (case and spacing do not matter); an Action is returned as it
        is. Text that is no action raises :class:`IllegalAction` with the rule ``rule`` and the reason."""
        if isinstance(text, Action):
            return text
        if not isinstance(text, str):
            raise IllegalAction(self.rule, f"Notation: {text!r} is not an action (expected text).",
                                text=repr(text), reason="expected text")
        hit = self._cache.get(text)
        if hit is not None:
            return hit
        action = self._parse(normalize(text), text)
        if len(self._cache) > self.cache_size:
            self._cache.clear()
        self._cache[text] = action
        return action

    def _parse(self, t: str, raw: str) -> Action:
        """The action of normalized text ``t`` (``raw`` as it was written, for the refusal), read by the grammar."""
        verb, args = self._words(t, raw)
        return self.grammar.parse(self, verb, args, _Refusal(self, raw))

    def _words(self, t: str, raw: str) -> tuple[str, list[str]]:
        """The verb and its arguments of normalized text ``t``; the refusal for empty text."""
        w = t.split()
        if not w:
            raise self._bad(raw, "empty text")
        return w[0], w[1:]

    def _bad(self, text: str, reason: str) -> IllegalAction:
        """The refusal of ``text`` as no action, saying why."""
        params = {"text": text, "reason": reason}
        return IllegalAction(self.rule, messages.text("rule", self.rule, "en", params), action=text, **params)
