"""Positions on demand, for scenario tests and notebooks: stacked decks and rigged holdings.

    from speicherstadt_lab.games.packet_row.scenario import stacked_decks, rigged
    s = sl.new_game("packet_row", players=4, decks=stacked_decks(top={"market": ["tobacco1", "guild_church"]}))
    s = rigged(s, 0, hand=["cotton_nl", "cotton3"], ships=["ship_nl"])

Everything goes through the public set-up and ``to_dict``/``load_state``, so every card is still in exactly
one place and money is conserved (``load_state`` checks both).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ...engine.protocol import load_state
from .catalog import BOARDS, Catalog, load_catalog
from .setup import deck_cards
from .state import State


def stacked_decks(top: Mapping[str, Sequence[str]] | None = None, *,
                  bottom: Mapping[str, Sequence[str]] | Sequence[str] | None = None,
                  catalog: str | dict[str, Any] | Catalog | None = None) -> dict[str, list[str]]:
    """The four decks for ``new_game(decks=...)``: ``top[board]`` first in that order (with two players the
    first 6 of each deck are the ones removed unseen), then the board's other cards in catalogue order, then
    ``bottom`` (per board, or a list of ids each going to its own board) last, e.g. for :func:`rigged`."""
    cat = load_catalog(catalog)
    top = dict(top or {})
    if bottom is None:
        bottom = {}
    elif not isinstance(bottom, Mapping):
        ids = list(bottom)
        bottom = {b: [x for x in ids if x in cat.by_id and cat.by_id[x].board == b and not cat.by_id[x].start]
                  for b in BOARDS}
        stray = [x for x in ids if not any(x in v for v in bottom.values())]
        if stray:
            raise ValueError(f"stacked_decks: {stray[:5]} are not deck cards")
    unknown = (set(top) | set(bottom)) - set(BOARDS)
    if unknown:
        raise ValueError(f"stacked_decks: unknown board(s) {sorted(unknown)}")
    out = {}
    for b in BOARDS:
        rest = [cat.cards[c].id for c in deck_cards(cat, b)]
        head, tail = list(top.get(b, ())), list(bottom.get(b, ()))
        for cid in head + tail:
            if cid not in rest:
                raise ValueError(f"stacked_decks: {cid!r} is not (or no more) in the {b} deck")
            rest.remove(cid)
        out[b] = head + rest + tail
    return out


def rigged(state: State, seat: int, *, hand: Sequence[str] = (), ships: Sequence[str] = (),
           money: int | None = None) -> State:
    """``state`` with extra cards for ``seat`` (taken from the bottom of the decks, else the discard piles or
    the box) and, if given, its money set (the bank's balance makes up the difference)."""
    d = json.loads(state.to_json())
    s = d["seats"][seat]
    for cid in [*hand, *ships]:
        for where in [*(d["boards"][b][k] for b in BOARDS for k in ("deck", "discard")), d["box"]]:
            if cid in where:
                del where[len(where) - 1 - where[::-1].index(cid)]
                break
        else:
            raise ValueError(f"rigged: no {cid!r} left in a deck, a discard pile or the box")
    s["hand"] += list(hand)
    s["ships"] += list(ships)
    if money is not None:
        d["bank"] -= money - s["money"]
        s["money"] = money
    d["events"] = []
    new = load_state(json.dumps(d))
    assert isinstance(new, State)
    return new
