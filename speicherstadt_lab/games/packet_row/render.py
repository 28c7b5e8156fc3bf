"""A compact HTML table of a Packet Row state, for notebooks (``_repr_html_``). Plain HTML, no scripts.

An observation (``state.observe(seat)``) is drawn as that seat sees it: the other seats' secret cards and the
decks show only their number.
"""

from __future__ import annotations

from html import escape

from ...engine.html import state_card
from ...engine.i18n import messages
from ...engine.protocol import OKABE_ITO
from .catalog import BOARDS
from .state import CAPABILITIES, State

SEAT_COLOURS = OKABE_ITO  # the seats' colours, colour-blind safe


def _card(state: State, card: str | None, lang: str) -> str:
    if card is None:
        return "<span style='color:#999'>—</span>"
    c = state.cat.by_id[card]
    cost = f" <small>${c.cost}</small>" if c.kind in ("goods", "gold", "building") else ""
    vp = f" <small>{c.vp} VP</small>" if c.kind == "building" else ""
    return f"<span title='{escape(card)}'>{escape(state.card_name(card, lang))}</span>{cost}{vp}"


def state_html(state: State, lang: str = "en") -> str:
    """The position as notebook HTML (``state._repr_html_()``): the boards' supplies, the seats, the last events; an
    observation shows only what its seat sees."""
    v = state.view(state.observer if state.observer is not None and state.observer >= 0 else None) \
        if state.is_observation else None
    mover = state.to_move
    head = (
        f"<b>Packet Row</b> · {state.n_players} players · round {state.round} · "
        f"{escape(messages.text('pr_phase', state.phase, lang, {}))}"
        f" · harbour master: <b style='color:{SEAT_COLOURS[state.hm]}'>{escape(state.seat_name(state.hm, lang))}</b>"
        + (f" · to move: <b>{escape(state.seat_name(mover, lang))}</b>" if mover is not None else "")
    )
    rows = ["<tr><th></th><th>current supply</th><th>future supply</th><th>deck</th></tr>"]
    for b, name in enumerate(BOARDS):
        board = state.cat.boards[b].name(lang)
        mark = " ◀" if state.board == b else (" ✓" if b in state.chosen else "")
        short = " <small style='color:#b00'>(short)</small>" if b in state.short else ""
        sup = state.supply(name)
        pawns = {s.pawn[1:]: i for i, s in enumerate(state.seats) if s.pawn is not None and s.pawn[0] == b}

        def cells(row: tuple[str | None, ...], where: int, pawns: dict[tuple[int, int], int] = pawns) -> str:
            out = []
            for k, cid in enumerate(row):
                pawn = pawns.get((where, k))
                dot = f" <span style='color:{SEAT_COLOURS[pawn]}'>●</span>" if pawn is not None else ""
                out.append(_card(state, cid, lang) + dot)
            return " · ".join(out)

        rows.append(f"<tr><td><b>{escape(board)}</b>{mark}{short}</td><td>{cells(sup['current'], 0)}</td>"
                    f"<td>{cells(sup['future'], 1)}</td><td>{sup['deck']}</td></tr>")
    seats = ["<tr><th>seat</th><th>money</th><th>points now</th><th>ships</th><th>hand</th></tr>"]
    for i in range(state.n_players):
        p = state.player(i)
        if v is not None:
            shown = v["seats"][i]["hand"]
            secret = v["seats"][i]["secret"]
        else:
            shown, secret = list(p.hand), 0
        hand = ", ".join(_card(state, c, lang) for c in shown) or "–"
        if secret:
            hand += f" + {secret} secret"
        ships = ", ".join(escape(state.card_name(c, lang)) for c in p.ships) or "–"
        mark = " ◀" if i == mover else ""
        seats.append(f"<tr><td style='color:{SEAT_COLOURS[i]}'><b>{escape(p.name)}</b>{mark}</td><td>${p.money}</td>"
                     f"<td>{state.score(i)}</td><td>{ships}</td><td>{hand}</td></tr>")
    return state_card(head, ["".join(rows), "".join(seats)], state.event_texts(lang))


CAPABILITIES["html"] = state_html
