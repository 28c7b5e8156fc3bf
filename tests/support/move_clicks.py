"""A move clicked on a board in the browser by its notation, for the moves a browser test plays on either game's
board: a placement on Die Speicherstadt's (and Kaispeicher's) water spaces, and on Packet Row's boards taking a card,
choosing a board, declining or passing."""

from __future__ import annotations

from playwright.sync_api import Page

TIMEOUT = 120_000  # ms: the click waits for the target to be drawn
PACKET_ROW_BUTTONS = ("decline", "pass")


def clickable(action: str) -> bool:
    """Whether :func:`click_move` knows the board target of ``action`` (its notation)."""
    verb = action.split()[0]
    return verb in ("place", "take", "choose", *PACKET_ROW_BUTTONS)


def target(board: str, action: str) -> str:
    """The CSS selector of ``action``'s target inside ``board`` (a selector of the drawn board)."""
    words = action.split()
    verb = words[0]
    if verb == "place":
        return f'{board} .ssl-col[data-space="{words[1]}"]'
    if verb == "take":  # a card of a supply is the button of taking it, labelled with the move and the card
        return f'{board} button.prb-clickable[aria-label^="{action}: "]'
    if verb == "choose":
        return f'{board} .prb-bd[data-board="{words[1]}"] .prb-btn-choose'
    if verb in PACKET_ROW_BUTTONS:
        return f"{board} .prb-btn-{verb}"
    raise ValueError(f"click_move: no board target known for {action!r}")


def click_move(page: Page, board: str, action: str) -> None:
    """Click the target of ``action`` on the board ``board`` (does not wait for the kernel)."""
    page.click(target(board, action), timeout=TIMEOUT)
