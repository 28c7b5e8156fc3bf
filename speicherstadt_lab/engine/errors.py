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


class RecordError(ValueError):
    """A game record or state file that is malformed or tampered with; names the field."""


def setup_error(e: Exception) -> RecordError:
    """A set-up that ``new_game`` refused ("deck: ..."), as a record error naming the field ``setup.<key>``."""
    text = str(e)
    if isinstance(e, CatalogError):
        return RecordError(f"record field 'setup.catalog': {text}")
    key = text.split(":", 1)[0].strip()
    if key.isidentifier():
        return RecordError(f"record field 'setup.{key}': {text.split(':', 1)[1].strip()}")
    return RecordError(f"record field 'setup': {text}")
