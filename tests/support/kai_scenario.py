"""Helpers for the Kaispeicher scenario tests: stacked expansion decks and bags, rigged holdings, policies.

The base game's helpers (``tests/support/scenario.py``) do the work with the expansion named; these build the
expansion's pile (104 cards less the removals for the player count, the 4th fire at the bottom) and bag
(54 cubes, including 3 hemp, 3 cloth and 3 glass). A supply fills the water spaces first, then the top
row, so ``kai_game(players, water, top)`` puts exactly those cards on the board in round 1.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.games.speicherstadt.setup import game_cards
from tests.support import scenario as base
from tests.support.scenario import CAT, card, drive, events_of, goods_of, play

KAI = "kaispeicher"
GOODS = goods_of(KAI)
OFFER = {2: 3, 3: 4, 4: 5, 5: 6}
ROUNDS = {2: 16, 3: 12, 4: 10, 5: 8}

__all__ = ["CAT", "GOODS", "KAI", "OFFER", "ROUNDS", "card", "cards_in_play", "drive", "events_of", "kai", "kai_bag",
           "kai_deck", "kai_game", "legal", "next_round", "passive", "play", "red_loading", "refused",
           "removed_cards", "rigged", "seat_dict", "stock", "texts"]


def cards_in_play(players: int) -> list[str]:
    """Ids of the cards a Kaispeicher game with ``players`` uses, in catalogue order."""
    return base.cards_in_play(players, KAI)


def removed_cards(players: int) -> list[str]:
    _, idx = game_cards(CAT, players, KAI)
    return [CAT.cards[i].id for i in idx]


def kai_deck(players: int, top: Sequence[str] = (), *, late_fires: bool = True,
             bottom: Sequence[str] = ()) -> list[str]:
    """A legal Kaispeicher pile: ``top`` first in that order, then the rest in catalogue order.

    ``bottom`` goes just above ``fire_4`` (always last). With ``late_fires`` (the default) every fire
    not placed explicitly also goes down there, so no fire interrupts the rounds a scenario plays.
    """
    return base.stack_deck(players, top, late_fires=late_fires, bottom=bottom, expansion=KAI, name="kai_deck")


def kai_bag(top: Sequence[str] = ()) -> list[str]:
    """The 54 cubes with ``top`` drawn first, then the rest cycling through the eight goods."""
    return base.stack_bag(top, KAI, name="kai_bag")


def kai_game(players: int, water: Sequence[str] = (), top: Sequence[str] = (), later: Sequence[str] = (),
             bag: Sequence[str] = (), **kw: Any) -> Any:
    """A Kaispeicher game whose round 1 shows ``water`` on the water spaces and ``top`` in the top row.

    Either list may be shorter than the row: the pile's next cards (catalogue order) fill up.
    ``later`` follows on the pile; ``kw`` goes to ``new_game`` (``first_player``, ``bottom`` for the deck).
    """
    k = OFFER[players]
    assert len(water) <= k and len(top) <= k
    bottom = kw.pop("bottom", ())
    late_fires = kw.pop("late_fires", True)
    fill = [c for c in kai_deck(players, [*water, *top, *later], late_fires=late_fires, bottom=bottom)
            if card(c).kind != "fire" and c not in (*water, *top, *later)]
    water_full = [*water, *fill[: k - len(water)]]
    fill = fill[k - len(water):]
    top_full = [*top, *fill[: k - len(top)]]
    deck = kai_deck(players, [*water_full, *top_full, *later], late_fires=late_fires, bottom=bottom)
    s = sl.new_game(players=players, expansion=KAI, deck=deck, bag=kai_bag(bag), **kw)
    assert s.offer == tuple(water_full), s.offer
    assert kai(s)["top"] == top_full, kai(s)["top"]
    return s


def kai(state: Any) -> dict[str, Any]:
    """The expansion's part of the position, as ``to_dict`` writes it."""
    return state.to_dict()["kai"]


def seat_dict(state: Any, seat: int) -> dict[str, Any]:
    return state.to_dict()["seats"][seat]


def legal(state: Any) -> list[str]:
    return [str(a) for a in state.legal_actions()]


def refused(state: Any, text: Any, rule: str) -> sl.IllegalAction:
    """Apply ``text``, expect a refusal for ``rule`` with an English and a German text, nothing changed."""
    before = state.to_json()
    with pytest.raises(sl.IllegalAction) as info:
        state.apply(text)
    err = info.value
    assert err.rule == rule, f"{err.rule}: {err}"
    assert state.to_json() == before
    en, de = str(err), state.explain(err, "de")
    assert en and de and en != de and "{" not in en + de
    return err


def texts(state: Any, key: str, lang: str = "en") -> list[str]:
    """The rendered texts of the last transition's events of ``key``."""
    return [state.describe(e, lang) for e in state.events if e.key == key]


def stock(state: Any) -> dict[str, int]:
    return state.to_dict()["stock"]


def passive(state: Any) -> str:
    """Nobody buys or uses a card: workers spread over the emptiest water spaces, grey workers stop."""
    options = legal(state)
    if state.phase == "demand":
        if "stop" in options:
            return "stop"
        spaces = [int(a.split()[1]) for a in options if a.startswith("place ")]
        if spaces:
            return f"place {min(spaces, key=lambda i: (len(state.workers[i]), i))}"
        return next(a for a in options if a.startswith("reserve "))
    if state.phase in ("purchase", "spy", "fire"):
        return "pass"
    return "done" if "done" in options else options[0]


def next_round(state: Any, policy: Callable[[Any], str] = passive) -> Any:
    """Play to the start of the next round's demand (or the end of the game); nobody buys by default."""
    return base.next_round(state, policy)


rigged = base.rigged  # the base game's, which takes the expansion's dock, stock and seat fields too


def red_loading(players: int = 2, dock: Sequence[str] = (), **rig: Any) -> Any:
    """Red's loading turn in round 1 (Red holds the metal coin and bought a one-crate ship for 1 coin).

    The dock then holds exactly ``dock``; ``rig`` goes to :func:`rigged` for Red (seat 0), and
    ``others={seat: {...}}`` rigs the other seats.
    """
    others = rig.pop("others", {})
    s = kai_game(players, ["ship1_b"])

    def red_buys_the_ship(x: Any) -> str:
        if x.phase == "demand":
            if x.to_move == 0 and not x.workers[0]:
                return "place 0"
            spaces = [int(a.split()[1]) for a in legal(x) if a.startswith("place ") and a != "place 0"]
            return f"place {min(spaces, key=lambda i: (len(x.workers[i]), i))}"
        if x.phase == "purchase" and x.to_move == 0 and x.offer[0] == "ship1_b":
            return "buy"
        return passive(x)

    s = drive(s, red_buys_the_ship, until=lambda x: x.phase == "loading")
    assert s.to_move == 0 and s.player(0).cards == ("ship1_b",) and s.coins[0] == 4
    for seat, kw in others.items():
        s = rigged(s, seat, **kw)
    return rigged(s, 0, dock=dock, **rig)
