"""Board clicks: a browser message ``{"kind": "act", "verb": VERB, "args": {FIELD: value, ...}}`` checked against the
game's declared grammar (``games/<game>/grammar.py``, read by ``engine/grammar.py``) and turned into the canonical
action, or refused with a :class:`ClickError` naming the field. The rules judge the action after, once.
"""

from __future__ import annotations

from typing import Any

from ..engine.actions import Action
from ..engine.grammar import ACT, MAX_INT, act_message, click_kind, show_value
from ..engine.i18n import load_messages, messages
from ..games.speicherstadt.grammar import GRAMMAR

load_messages("speicherstadt_cards")  # the [click.*] refusal texts
load_messages("board_clicks")  # the action envelope's refusals (both boards) and the rule popover's texts

#: Die Speicherstadt's click verbs and their fields (read from its grammar; Kaispeicher's included)
CLICK_FIELDS: dict[str, tuple[str, ...]] = GRAMMAR.click_fields
KINDS = tuple(CLICK_FIELDS)
__all__ = ["ACT", "CLICK_FIELDS", "KINDS", "MAX_INT", "ClickError", "act_message", "click_kind", "click_to_action",
           "show_value"]


# ---- clicks --------------------------------------------------------------------------------------


class ClickError(ValueError):
    """A browser message the board refuses before the rules see it; ``text(lang)`` explains it (from the
    message table ``TABLE``: each board has its own)."""

    TABLE = "click"

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(self.text("en"))

    def text(self, lang: str = "en", namer: Any = None) -> str:
        """The refusal in ``lang`` (the ids it mentions named by ``namer``)."""
        return messages.text(self.TABLE, self.key, lang, self.params, namer)


def click_to_action(state: Any, msg: Any, error: type[ClickError] = ClickError) -> Action:
    """The canonical action of a browser click, or ``error`` (the board's :class:`ClickError`) naming the field
    at fault.

    Checks only the message's shape by the game's grammar (kind, fields, types, ranges, the names of its
    catalogue); the rules judge the action."""
    return state.notation.click(state, msg, error)  # type: ignore[no-any-return]
