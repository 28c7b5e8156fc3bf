"""Die Speicherstadt's puzzle themes: what a clearly best move is about (the "puzzles" capability).

The theme is read from the move and the position before it, so a miner, the app's theme picker and the docs agree:
the last round's decisions are about the timing of the end; a fire decision or a fire-fighting card about fire; a
contract card or a cube loaded onto a contract about contracts; any other card's demand or purchase about its price;
the rest of the loading phase about loading, the warehouse and the market hall; Kaispeicher's own demand moves (the
top row, breaks, grey workers, the Spy) about the top row and reservations.
"""

from __future__ import annotations

from typing import Any

#: Every theme this game's puzzles may carry (names in data/messages/puzzles.toml, ``theme_<id>``).
THEMES = ("price", "contract", "fire", "loading", "end", "top_row")

_FIRE_KINDS = frozenset({"fireman", "fire_engine", "fire_chief", "insurance", "fire"})
_TOP_ROW_VERBS = frozenset({"reserve", "break", "stop", "spy"})


def theme(state: Any, action: Any) -> str:
    """The theme of ``action`` taken in ``state`` (one of :data:`THEMES`)."""
    a = state.parse_action(action)
    if state.last_round:
        return "end"
    if state.phase == "fire" or a.kind in ("double", "insure"):
        return "fire"
    if a.kind in _TOP_ROW_VERBS:
        return "top_row"
    if state.phase == "loading":
        return "contract" if a.kind == "contract" else "loading"
    card = None
    if a.kind == "place":
        card = state.offer[a.args[0]]
    elif state.phase == "purchase" and state.space < len(state.offer):
        card = state.offer[state.space]
    kind = state.cat.card(card).kind if card else ""
    if kind in _FIRE_KINDS:
        return "fire"
    return "contract" if kind == "contract" else "price"
