"""A compact HTML table of a state, for notebooks (``_repr_html_``). Plain HTML, no scripts."""

from __future__ import annotations

from html import escape

from ...engine.html import state_card
from ...engine.protocol import OKABE_ITO
from .state import CAPABILITIES, State

SEAT_COLOURS = OKABE_ITO  # the seats' colours, colour-blind safe


def _goods(state: State, gs: tuple[str, ...] | list[str]) -> str:
    colours = {g.id: g.colour for g in state.cat.goods}
    return "".join(
        f'<span title="{escape(g)}" style="display:inline-block;width:.8em;height:.8em;margin:0 1px;'
        f'background:{colours[g]};border:1px solid #555;border-radius:2px"></span>'
        for g in gs
    ) or "–"


def state_html(state: State, lang: str = "en") -> str:
    """The position as notebook HTML (``state._repr_html_()``): the offer with cargo and workers, the seats, the last
    events."""
    cat = state.cat
    rows = []
    mover = state.to_move
    head = (
        f"<b>Die Speicherstadt</b> · {state.n_players} players · round {state.round} · "
        f"phase <b>{escape(state.phase)}</b>"
        + (f" · to move: <b>{escape(state.seat_name(mover, lang))}</b>" if mover is not None else "")
        + f" · pile {len(state.pile)} · bag {len(state.bag)}"
    )
    offer_cells = []
    for s, cid in enumerate(state.offer):
        if cid is None:
            offer_cells.append("<td style='color:#999'>—</td>")
            continue
        workers = "".join(
            f'<span style="color:{SEAT_COLOURS[w & 7]}">●</span>' for w in state.columns[s]
        )
        cargo = _goods(state, state.cargo[s]) if state.cargo[s] else ""
        offer_cells.append(
            f"<td><b>{escape(cat.card(cid).name(lang))}</b> <small>{cat.card(cid).season}</small>"
            f"<br>{cargo}<br>{workers or '&nbsp;'}</td>"
        )
    rows.append("<tr><th>offer</th>" + "".join(offer_cells) + "</tr>")
    table = [
        "<tr><th>seat</th><th>coins</th><th>points now</th><th>firemen</th><th>cards</th>"
        "<th>contracts</th><th>warehouse</th><th>hall</th></tr>"
    ]
    for i in range(state.n_players):
        p = state.player(i)
        mark = " ◀" if i == mover else ""
        coin = " ⓜ" if i == state.first else ""
        contracts = "; ".join(
            f"{'/'.join(cat.card(c).goods)} [{_goods(state, placed)}]" for c, placed in p.contracts
        )
        others = ", ".join(escape(cat.card(c).name(lang)) for c in p.cards if cat.card(c).kind != "contract")
        table.append(
            f'<tr><td style="color:{SEAT_COLOURS[i]}"><b>{escape(p.name)}</b>{coin}{mark}</td>'
            f"<td>{p.coins}</td><td>{state.score(i)}</td><td>{p.firemen}</td><td>{others or '–'}</td>"
            f"<td>{contracts or '–'}</td><td>{_goods(state, p.warehouse) if p.has_warehouse else 'n/a'}</td>"
            f"<td>{_goods(state, p.hall)}</td></tr>"
        )
    dock = f"<p>dock: {_goods(state, state.dock_goods)}</p>" if state.phase == "loading" and state.dock else ""
    return state_card(head, ["".join(rows), "".join(table)], state.event_texts(lang), after=dock)


CAPABILITIES["html"] = state_html
