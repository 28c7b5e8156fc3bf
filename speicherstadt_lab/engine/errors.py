"""Errors the lab raises. Each names the rule or the field at fault."""

from __future__ import annotations

from typing import Any


class IllegalAction(ValueError):
    """An action the rules forbid (or text that is not an action). The state is unchanged.

    ``rule`` is a stable key (e.g. ``"demand.full"``) whose text exists in English and German;
    ``str(err)`` is the English explanation.
    """

    def __init__(self, rule: str, message: str, *, action: str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.rule = rule
        self.action = action
        self.params = params

    def explain(self, lang: str = "en") -> str:
        """The explanation in ``lang`` (``"en"`` or ``"de"``)."""
        from .i18n import messages

        text = messages.rule_text(self.rule, lang, self.params)
        return text if text is not None else str(self)


class CatalogError(ValueError):
    """A card catalogue file that is malformed; the message names the card and field."""


class RearrangeError(ValueError):
    """A rearrangement of the hidden order (``state.rearranged``) that does not fit the public facts.

    ``field`` names the part at fault as the caller wrote it (``"pile[2]"``, ``"bag[0]"``, ``"decks.guild[1]"``,
    ``"contracts[1]"``), ``detail`` says why; ``str(err)`` is ``"<field>: <detail>"``. The state is unchanged.
    """

    def __init__(self, field: str, detail: str) -> None:
        super().__init__(f"{field}: {detail}")
        self.field = field
        self.detail = detail


class RecordError(ValueError):
    """A game record or state file that is malformed or tampered with; names the field."""


class ScenarioError(RecordError):
    """A scenario (``new_game(game, scenario=...)``, ``docs/record-format.md``) that is malformed or describes no
    legal position.

    ``field`` names the part at fault as the scenario writes it (``"seats[1].cards[2]"``,
    ``"pile_next[0]"``; ``""`` for the scenario as a whole), ``detail`` says why; ``str(err)`` is
    ``"scenario field '<field>': <detail>"``. Nothing is changed or half-built."""

    def __init__(self, field: str, detail: str) -> None:
        super().__init__(f"scenario field '{field}': {detail}" if field else f"scenario: {detail}")
        self.field = field
        self.detail = detail


def setup_error(e: Exception) -> RecordError:
    """A set-up that ``new_game`` refused ("deck: ..."), as a record error naming the field ``setup.<key>``."""
    text = str(e)
    if isinstance(e, ScenarioError):  # the record's hidden fields materialize the scenario's hidden order
        where = f"scenario.{e.field}" if e.field else "scenario"
        if e.field.split("[")[0] in ("deck", "bag", "decks", "start_contracts"):
            where = e.field
        return RecordError(f"record field 'setup.{where}': {e.detail}")
    if isinstance(e, CatalogError):
        return RecordError(f"record field 'setup.catalog': {text}")
    key = text.split(":", 1)[0].strip()
    if key.isidentifier():
        return RecordError(f"record field 'setup.{key}': {text.split(':', 1)[1].strip()}")
    return RecordError(f"record field 'setup': {text}")


def shown(x: Any) -> str:
    """A value for an error message: its type and a short repr."""
    text = repr(x)
    return f"{type(x).__name__} {text if len(text) <= 60 else text[:57] + '...'}"


def rearrange_texts(value: Any, field: str, what: str) -> list[str]:
    """``value`` as a list of texts for ``state.rearranged`` (a list or tuple of ``what``: card ids, goods);
    otherwise a :class:`RearrangeError` naming ``field`` or the item at fault (``field[k]``)."""
    if not isinstance(value, list | tuple):
        raise RearrangeError(field, f"must be a list of {what}, not {shown(value)}")
    for k, x in enumerate(value):
        if not isinstance(x, str):
            raise RearrangeError(f"{field}[{k}]", f"must be one of the {what} (text), not {shown(x)}")
    return list(value)
