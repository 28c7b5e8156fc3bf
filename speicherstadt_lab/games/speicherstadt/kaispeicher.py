"""The Kaispeicher expansion: a second (top) row with reservations, four workers, and 50 new cards.

The base game's :class:`~.state.State` carries one extra immutable value, ``kai`` (a :class:`Kai`,
``None`` in the base game), and calls the functions here at the points where the expansion changes
the flow: supply (fires can ask the Fire Chief's and the Insurance's owners), demand (reservations,
break cards, grey workers), a spy step before purchase, purchase of reserved cards, the new loading
actions, and scoring. Timing follows the online version's notes (seed 002, "Hinweise zur Nutzung von
Handelskarten"); see docs/rules-notes.md.
"""

from __future__ import annotations

import sys
from typing import Any, NamedTuple

from ...engine.actions import Action
from ...engine.events import Event
from ...engine.events import make_event as _ev
from .state import Seat, State, register_expansion

GREY = 8  # a grey worker of seat s is stored as s + GREY in the water columns and the reservation column
PURE_POINT_KINDS = ("building",)
ONE_SHOT_LOADING = ("auction_hall", "smuggler", "truck")


class Kai(NamedTuple):
    """The expansion's part of a position (public information only)."""

    top: tuple[int, ...] = ()  # the top row's cards, -1 where one was reserved
    top_cargo: tuple[tuple[int, ...], ...] = ()
    reserved: tuple[tuple[int, int, tuple[int, ...]], ...] = ()  # (card, worker, cargo), bottom first
    left: tuple[int, ...] = ()  # regular workers each seat still has to place this round
    stopped: int = 0  # bit per seat: done placing grey workers this round
    turn: int = 0  # the seat whose demand turn comes next
    rpos: int = 0  # the next reserved card to resolve in purchase
    spy_turn: int = 0  # spy decisions so far (offset from the first player)
    fire: tuple[Any, ...] = ()  # (fire card, "supply"|"end", ((decision, seat), ...)) while seats decide
    pending: int = -1  # a good from the Auction Hall or the Smuggler that must be loaded now
    truck: int = -1  # moves left in this turn's use of the Truck (-1: not in use)


def owner(worker: int) -> int:
    """The seat a worker in a column belongs to (a grey worker is stored as seat + GREY)."""
    return worker & (GREY - 1)


def has(state: State, seat: Seat, kind: str) -> int:
    """The index of a card of ``kind`` the seat owns, or -1."""
    cards = state.cat.cards
    for c in seat.cards:
        if cards[c].kind == kind:
            return c
    return -1


def drop(state: State, seat_i: int, card: int, ev: list[Event]) -> None:
    """A used one-shot card leaves the seat for the discard pile."""
    seat = state.own_seat(seat_i)
    cards = list(seat.cards)
    cards.remove(card)
    seat.cards = tuple(cards)
    state.discard = (*state.discard, card)
    ev.append(_ev(Event, ("discarded", {"seat": seat_i, "card": state.cat.cards[card].id})))


# ---- supply -------------------------------------------------------------------------------------


def start_round(state: State) -> None:
    """A new round's expansion part: every seat's regular workers back, demand from the metal coin, empty spaces."""
    n = state.n_players
    state.kai = Kai(left=(state.notation.workers,) * n, turn=state.first)
    state.offer_idx = ()
    state.cargo_idx = ()
    state.columns = []


def supply(state: State, ev: list[Event]) -> bool:
    """Fill the water spaces, then the top row; False while a fire waits for a decision."""
    k = state.cat.setup["offer_size"][str(state.n_players)]
    cards = state.cat.cards
    while True:
        kai = state.kai
        if kai.fire:
            return False
        water, top = state.offer_idx, kai.top
        if len(water) >= k and len(top) >= k:
            break
        if len(state.pile) <= 1:  # the bottom card (the 4th fire) is never drawn in a supply
            break
        ci = state.pile[0]
        state.pile = state.pile[1:]
        card = cards[ci]
        if card.kind == "fire":
            resolve_fire(state, ci, "supply", ev)
            continue
        cargo: tuple[int, ...] = ()
        if card.kind == "ship":
            cargo = tuple(sorted(state.bag[: card.capacity]))
            state.bag = state.bag[card.capacity:]
        if len(water) < k:
            state.offer_idx = (*water, ci)
            state.cargo_idx = (*state.cargo_idx, cargo)
            state.columns = [*state.columns, ()]
        else:
            state.kai = kai._replace(top=(*top, ci), top_cargo=(*kai.top_cargo, cargo))
    state.columns = [()] * len(state.offer_idx)
    state.supply_drawn(ev)
    state.to_move = None
    state.set_legal(None)
    return True


def firemen_total(state: State, seat: Seat) -> int:
    """Firemen values, with the Fire Engine doubling the best one."""
    values = [state.cat.cards[c].value for c in seat.cards if state.cat.cards[c].kind == "fireman"]
    total = sum(values)
    if values and has(state, seat, "fire_engine") >= 0:
        total += max(values)
    return total


def resolve_fire(state: State, ci: int, context: str, ev: list[Event]) -> None:
    """Score a fire, then queue the Fire Chief's and the Insurance's owners (in that order)."""
    card = state.cat.cards[ci]
    n = state.n_players
    scored = state.resolve_fire(ci, ev, [firemen_total(state, s) for s in state.seats])
    if scored is None:
        return
    plus, minus = scored
    order = [(state.first + k) % n for k in range(n)]
    queue: list[tuple[str, int]] = []
    for i in order:
        if i in plus:
            chief = has(state, state.seats[i], "fire_chief")
            if chief < 0:
                continue
            if context == "end" and card.season == "E":  # online notes: played automatically at the 4th fire
                state.own_seat(i).track += card.strength
                ev.append(_ev(Event, ("fire_chief", {"seat": i, "points": card.strength})))
                drop(state, i, chief, ev)
            else:
                queue.append(("double", i))
    for i in order:
        if i in minus:
            ins = has(state, state.seats[i], "insurance")
            if ins >= 0 and state.seats[i].coins >= state.cat.cards[ins].cost:
                queue.append(("insure", i))
    if queue:
        state.kai = state.kai._replace(fire=(ci, context, tuple(queue)))
        state.phase = "fire"
        state.to_move = queue[0][1]
        state.set_legal(None)


def fire_actions(state: State) -> tuple[Action, ...]:
    """The decision a fire waits for: use the Fire Chief (``double``) or the Insurance (``insure``), or ``pass``."""
    kind = state.kai.fire[2][0][0]
    return (state.notation.act(kind), state.notation.PASS)


def _next_fire_decision(state: State) -> None:
    ci, context, queue = state.kai.fire
    queue = queue[1:]
    state.kai = state.kai._replace(fire=(ci, context, queue) if queue else ())
    state.to_move = queue[0][1] if queue else None
    state.set_legal(None)


def r_double(state: State, a: Action, ev: list[Event]) -> None:
    """``double``: the Fire Chief's owner gains the fire's strength once more, and the card is used up."""
    ci, _context, queue = state.kai.fire
    kind, seat_i = queue[0]
    if kind != "double":
        raise state.refuse("fire_decision", a, verb="double")
    strength = state.cat.cards[ci].strength
    state.own_seat(seat_i).track += strength
    ev.append(_ev(Event, ("fire_chief", {"seat": seat_i, "points": strength})))
    drop(state, seat_i, has(state, state.seats[seat_i], "fire_chief"), ev)
    _next_fire_decision(state)


def r_insure(state: State, a: Action, ev: list[Event]) -> None:
    """``insure``: the Insurance's owner pays its cost and loses no points to the fire (gains its strength back)."""
    ci, _context, queue = state.kai.fire
    kind, seat_i = queue[0]
    if kind != "insure":
        raise state.refuse("fire_decision", a, verb="insure")
    cost = state.cat.cards[has(state, state.seats[seat_i], "insurance")].cost
    seat = state.own_seat(seat_i)
    seat.coins -= cost
    seat.track += state.cat.cards[ci].strength
    ev.append(_ev(Event, ("insured", {"seat": seat_i, "coins": cost, "points": state.cat.cards[ci].strength})))
    _next_fire_decision(state)


def r_fire_pass(state: State, a: Action, ev: list[Event]) -> None:
    """``pass`` on a fire decision: the card is kept for a later fire."""
    kind, seat_i = state.kai.fire[2][0]
    ev.append(_ev(Event, ("fire_pass", {"seat": seat_i, "card": "fire_chief" if kind == "double" else "insurance"})))
    _next_fire_decision(state)


def end_fires(state: State, ev: list[Event]) -> bool:
    """After the last round: resolve the fires left on the pile; False while a seat decides."""
    while state.pile:
        if state.kai.fire:
            return False
        ci = state.pile[0]
        state.pile = state.pile[1:]
        resolve_fire(state, ci, "end", ev)
    return not state.kai.fire


# ---- demand -------------------------------------------------------------------------------------


def _can_act(state: State, i: int) -> bool:
    kai = state.kai
    return kai.left[i] > 0 or (state.seats[i].grey > 0 and not kai.stopped >> i & 1)


def demand_actions(state: State) -> tuple[Action, ...]:
    """The demand choices of the seat to move: a water space or a top-row card, and a break or a stop where allowed."""
    i = state.to_move
    kai = state.kai
    nt = state.notation
    out: list[Action] = [nt.PLACE[s] for s, col in enumerate(state.columns) if len(col) < nt.spaces]
    out.extend(nt.act("reserve", s) for s, c in enumerate(kai.top) if c >= 0)
    if kai.left[i] > 0:
        others = any(kai.left[j] > 0 for j in range(state.n_players) if j != i)
        if state.seats[i].breaks > 0 and others:
            out.append(nt.act("break"))
    else:
        out.append(nt.act("stop"))
    return tuple(out)


def demand_step(state: State, ev: list[Event]) -> bool:
    """Find the next seat to place; True when it must decide, False when demand is over."""
    n = state.n_players
    kai = state.kai
    for k in range(n):
        i = (kai.turn + k) % n
        if not _can_act(state, i):
            continue
        state.to_move = i
        state.kai = kai._replace(turn=i)
        legal = demand_actions(state)
        if len(legal) >= 2:
            state.set_legal(legal)
            return True
        # Only one thing to do: a grey-worker turn with nowhere to go (stop), or one space left.
        if legal[0].kind != "stop":  # a grey worker's "stop" tells its own story
            ev.append(_ev(Event, ("forced", {"seat": i, "action": legal[0].text})))
        state.set_legal(None)
        _RULES_DEMAND[legal[0].kind](state, legal[0], ev)
        return demand_step(state, ev)
    end_demand(state, ev)
    return False


def _worker(state: State, i: int, ev: list[Event]) -> int:
    """The worker seat ``i`` places now: a regular one while it has any, then a grey one."""
    kai = state.kai
    if kai.left[i] > 0:
        left = list(kai.left)
        left[i] -= 1
        state.kai = kai._replace(left=tuple(left))
        return i
    seat = state.own_seat(i)
    seat.grey -= 1
    if seat.grey == 0:
        card = has(state, seat, "warehouse_workers")
        if card >= 0:
            drop(state, i, card, ev)
    return i + GREY


def _after_turn(state: State, i: int) -> None:
    state.kai = state.kai._replace(turn=(i + 1) % state.n_players)
    state.to_move = None
    state.set_legal(None)


def r_place(state: State, a: Action, ev: list[Event]) -> None:
    """``place N``: a regular worker while the seat has one, then a grey one."""
    space = state.free_space(a)
    i = state.to_move
    w = _worker(state, i, ev)
    col = state.columns[space] = (*state.columns[space], w)
    key = "place_grey" if w >= GREY else "place"
    ev.append(_ev(Event, (key, {"seat": i, "card": state.cat.cards[state.offer_idx[space]].id, "space": space,
                                "price": len(col)})))
    _after_turn(state, i)


def _kai_of(state: State, a: Action) -> Kai:
    """The expansion's part of the position, or the refusal of ``a``'s verb in a base-game position."""
    if state.kai is None:
        raise state.refuse("not_available", a, verb=a.kind)
    return state.kai


def r_reserve(state: State, a: Action, ev: list[Event]) -> None:
    """``reserve N``: a worker on a top-row card, which joins the purchase after the water spaces."""
    kai = _kai_of(state, a)
    s = a.args[0]
    if not 0 <= s < len(kai.top) or kai.top[s] < 0:
        raise state.refuse("reserve_space", a, space=s)
    i = state.to_move
    w = _worker(state, i, ev)
    kai = state.kai
    ci = kai.top[s]
    top, top_cargo = list(kai.top), list(kai.top_cargo)
    top[s], top_cargo[s] = -1, ()
    state.kai = kai._replace(top=tuple(top), top_cargo=tuple(top_cargo),
                             reserved=(*kai.reserved, (ci, w, kai.top_cargo[s])))
    ev.append(_ev(Event, ("reserve", {"seat": i, "card": state.cat.cards[ci].id, "count": len(state.kai.reserved)})))
    _after_turn(state, i)


def r_break(state: State, a: Action, ev: list[Event]) -> None:
    """``break``: a break card spent, the seat places nothing this turn."""
    kai = _kai_of(state, a)
    i = state.to_move
    seat = state.seats[i]
    if seat.breaks <= 0:
        raise state.refuse("no_break", a)
    if kai.left[i] <= 0 or not any(kai.left[j] > 0 for j in range(state.n_players) if j != i):
        raise state.refuse("break_late", a)
    seat = state.own_seat(i)
    seat.breaks -= 1
    ev.append(_ev(Event, ("break", {"seat": i, "left": seat.breaks})))
    if seat.breaks == 0:
        card = has(state, seat, "coffee_break")
        if card >= 0:
            drop(state, i, card, ev)
    _after_turn(state, i)


def r_stop(state: State, a: Action, ev: list[Event]) -> None:
    """``stop``: a seat with only grey workers left places no more this round."""
    kai = _kai_of(state, a)
    i = state.to_move
    if kai.left[i] > 0:
        raise state.refuse("stop_early", a)
    state.kai = kai._replace(stopped=kai.stopped | 1 << i)
    ev.append(_ev(Event, ("grey_stop", {"seat": i})))
    _after_turn(state, i)


_RULES_DEMAND = {"place": r_place, "reserve": r_reserve, "break": r_break, "stop": r_stop}


def end_demand(state: State, ev: list[Event]) -> None:
    """Unreserved top-row cards leave at once (online notes); then the spy step, then purchase."""
    kai = state.kai
    left = [c for c in kai.top if c >= 0]
    for s, c in enumerate(kai.top):
        if c >= 0:
            for g in kai.top_cargo[s]:
                state.stock = _plus(state.stock, g)
    if left:
        ev.append(_ev(Event, ("top_discard", {"cards": [state.cat.cards[c].id for c in left]})))
        state.discard = (*state.discard, *left)
    state.kai = kai._replace(top=(-1,) * len(kai.top), top_cargo=((),) * len(kai.top), spy_turn=0, rpos=0)
    state.phase = "spy"
    state.to_move = None
    state.set_legal(None)


def _plus(t: tuple[int, ...], g: int) -> tuple[int, ...]:
    return (*t[:g], t[g] + 1, *t[g + 1:])


# ---- the spy step before purchase ---------------------------------------------------------------


def spy_actions(state: State) -> tuple[Action, ...]:
    """The Spy's swaps (one of the mover's workers with another seat's, any two spaces and levels), or ``pass``."""
    i = state.to_move
    nt = state.notation
    mine, theirs = [], []
    for s, col in enumerate(state.columns):
        for level, w in enumerate(col):
            (mine if owner(w) == i else theirs).append((s, level))
    out = [nt.act("spy", s1, l1, s2, l2) for s1, l1 in mine for s2, l2 in theirs]
    out.append(nt.PASS)
    return tuple(out)


def spy_step(state: State) -> bool:
    """The next owner of an unused Spy with something to swap; False when purchase may begin."""
    n = state.n_players
    while state.kai.spy_turn < n:
        i = (state.first + state.kai.spy_turn) % n
        if has(state, state.seats[i], "spy") >= 0:
            owners = {owner(w) for col in state.columns for w in col}
            if i in owners and owners - {i}:
                state.to_move = i
                state.set_legal(spy_actions(state))
                return True
        state.kai = state.kai._replace(spy_turn=state.kai.spy_turn + 1)
    state.phase = "purchase"
    state.space = 0
    state.to_move = None
    state.set_legal(None)
    return False


def r_spy(state: State, a: Action, ev: list[Event]) -> None:
    """``spy S1 L1 S2 L2``: the mover's worker and another seat's swap places in the columns."""
    s1, l1, s2, l2 = a.args
    i = state.to_move
    cols = state.columns
    ok = (0 <= s1 < len(cols) and 0 <= s2 < len(cols) and 0 <= l1 < len(cols[s1]) and 0 <= l2 < len(cols[s2])
          and owner(cols[s1][l1]) == i and owner(cols[s2][l2]) != i)
    if not ok:
        raise state.refuse("spy_swap", a)
    w1, w2 = cols[s1][l1], cols[s2][l2]
    c1 = list(cols[s1])
    c1[l1] = w2
    cols[s1] = tuple(c1)
    c2 = list(cols[s2])
    c2[l2] = w1
    cols[s2] = tuple(c2)
    ev.append(_ev(Event, ("spy", {"seat": i, "seat_other": owner(w2), "space": s1, "space_other": s2})))
    drop(state, i, has(state, state.seats[i], "spy"), ev)
    state.kai = state.kai._replace(spy_turn=state.kai.spy_turn + 1)
    state.to_move = None


def r_spy_pass(state: State, a: Action, ev: list[Event]) -> None:
    """``pass`` in the spy step: no swap; the next Spy owner is asked."""
    ev.append(_ev(Event, ("spy_pass", {"seat": state.to_move})))
    state.kai = state.kai._replace(spy_turn=state.kai.spy_turn + 1)
    state.to_move = None


# ---- purchase of reserved cards -----------------------------------------------------------------


def reserved_step(state: State, ev: list[Event]) -> bool:
    """Offer the next reserved card to its reserver; False once the column is done."""
    while True:
        kai = state.kai
        if kai.rpos >= len(kai.reserved):
            return False
        ci, w, _cargo = kai.reserved[kai.rpos]
        i = owner(w)
        price = len(kai.reserved) - kai.rpos
        seat = state.seats[i]
        if seat.coins < price and has(state, seat, "fish_market") < 0:
            ev.append(_ev(Event, ("cannot_pay", {"seat": i, "card": state.cat.cards[ci].id, "price": price})))
            _discard_reserved(state, ev)
            continue
        state.to_move = i
        return True


def purchase_actions(state: State, seat_i: int, price: int) -> tuple[Action, ...]:
    """A purchase's choices at ``price``: ``buy`` if the seat can pay, ``buy free`` with the Fish Market, ``pass``."""
    nt = state.notation
    out = []
    if state.seats[seat_i].coins >= price:
        out.append(nt.BUY)
    if state.kai is not None and has(state, state.seats[seat_i], "fish_market") >= 0:
        out.append(nt.act("buy", "free"))
    out.append(nt.PASS)
    return tuple(out)


def _discard_reserved(state: State, ev: list[Event]) -> None:
    kai = state.kai
    ci, _w, cargo = kai.reserved[kai.rpos]
    for g in cargo:
        state.stock = _plus(state.stock, g)
    state.discard = (*state.discard, ci)
    ev.append(_ev(Event, ("discard_reserved", {"card": state.cat.cards[ci].id})))
    state.kai = kai._replace(rpos=kai.rpos + 1)


def r_reserved_buy(state: State, a: Action, ev: list[Event]) -> None:
    """``buy`` (or ``buy free``) of a reserved top-row card, priced by the workers still waiting in the reservation
    column."""
    kai = state.kai
    ci, w, cargo = kai.reserved[kai.rpos]
    i = owner(w)
    price = len(kai.reserved) - kai.rpos
    free = a.args == ("free",)
    seat = state.own_seat(i)
    if free:
        fm = has(state, seat, "fish_market")
        if fm < 0:
            raise state.refuse("no_fish_market", a)
        drop(state, i, fm, ev)
        price = 0
    elif seat.coins < price:
        raise state.refuse("purchase_price", a, price=price, seat=i, coins=seat.coins)
    seat.coins -= price
    ev.append(_ev(Event, ("buy", {"seat": i, "card": state.cat.cards[ci].id, "price": price})))
    state.gain_card(i, ci, cargo, ev)
    state.bought |= 1 << i
    state.kai = kai._replace(rpos=kai.rpos + 1)
    state.to_move = None


def r_reserved_pass(state: State, a: Action, ev: list[Event]) -> None:
    """``pass`` on a reserved card: the worker goes home and the card is discarded."""
    kai = state.kai
    ci, w, _cargo = kai.reserved[kai.rpos]
    ev.append(_ev(Event, ("pass_last", {"seat": owner(w), "card": state.cat.cards[ci].id})))
    _discard_reserved(state, ev)
    state.to_move = None


# ---- card effects on purchase ---------------------------------------------------------------------


def gain(state: State, i: int, ci: int, ev: list[Event]) -> bool:
    """Effects of the expansion's cards when bought; False if the card leaves at once (one-use on buy)."""
    card = state.cat.cards[ci]
    kind = card.kind
    seat = state.own_seat(i)
    if kind == "savings_bank":
        seat.coins += card.coins
        ev.append(_ev(Event, ("savings_bank", {"seat": i, "coins": card.coins})))
        return False
    if kind == "thief":
        paid = []
        for j in range(state.n_players):
            if j != i and state.seats[j].coins >= card.coins:
                state.own_seat(j).coins -= card.coins
                seat.coins += card.coins
                paid.append(j)
            elif j != i and state.seats[j].coins > 0:  # "Wer keine Münze besitzt, muss auch nichts abgeben."
                seat.coins += state.seats[j].coins
                state.own_seat(j).coins = 0
                paid.append(j)
        ev.append(_ev(Event, ("thief", {"seat": i, "seats": paid})))
        return False
    if kind == "coffee_break":
        seat.breaks += card.breaks
    elif kind == "warehouse_workers":
        seat.grey += card.workers
    elif kind == "harbour_master":
        seat.k_convert = card.convert
    elif kind == "delivery":
        g = state.notation.order[card.good]
        d = list(seat.delivers)
        d[g] += card.points
        seat.delivers = tuple(d)
    return True


# ---- loading --------------------------------------------------------------------------------------


def _has_use(state: State, seat: Seat, g: int, extra_dock: int = 1) -> bool:
    """Could a cube of good ``g`` arriving on the dock go onto one of the seat's cards?"""
    needs = state.notation.needs
    if seat.sells[g] or seat.delivers[g]:
        return True
    if any(needs[ci][g] > placed.count(g) for ci, placed in seat.contracts):
        return True
    if len(seat.warehouse) < seat.warehouse_cap or len(seat.hall) < state.notation.hall_cap:
        return True
    return len(state.dock) + extra_dock >= min(seat.k_convert or state.notation.k_convert, state.notation.k_sell)


def has_loading_cards(state: State, seat: Seat) -> bool:
    """Whether the seat has a loading card to use (Auction Hall, Smuggler, Truck) even with nothing to unload."""
    return any(has(state, seat, k) >= 0 for k in ONE_SHOT_LOADING) or state.kai.truck > 0


def loading_actions(state: State, i: int, seat: Seat) -> list[Action]:
    """The expansion's loading actions for seat ``i`` (deliveries and the one-shot cards)."""
    nt = state.notation
    goods = state.goods
    out: list[Action] = []
    for g in sorted(set(state.dock)):
        if seat.delivers[g]:
            out.append(nt.act("deliver", goods[g]))
    if has(state, seat, "auction_hall") >= 0:
        for g, left in enumerate(state.stock):
            if left and _has_use(state, seat, g):
                out.append(nt.act("auction", goods[g]))
    if has(state, seat, "smuggler") >= 0:
        cards = state.cat.cards
        for j, other in enumerate(state.seats):
            if j == i:
                continue
            for k, (ci, placed) in enumerate(other.contracts):
                if len(placed) < len(cards[ci].goods):
                    for g in sorted(set(placed)):
                        if _has_use(state, seat, g):
                            out.append(nt.act("smuggle", j, k, goods[g]))
    if has(state, seat, "truck") >= 0 or state.kai.truck > 0:
        needs = nt.needs
        for k1, (_c1, placed1) in enumerate(seat.contracts):
            for g in sorted(set(placed1)):
                for k2, (c2, placed2) in enumerate(seat.contracts):
                    if k2 != k1 and needs[c2][g] > placed2.count(g):
                        out.append(nt.act("truck", goods[g], k1, k2))
    return out


def restrict_pending(state: State, actions: tuple[Action, ...]) -> tuple[Action, ...]:
    """While a cube from the Auction Hall or the Smuggler waits, only moves that load it are legal."""
    name = state.goods[state.kai.pending]
    keep = []
    for a in actions:
        k = a.kind
        if (k in ("contract", "sell", "store", "keep", "deliver") and a.args[0] == name) or (
                k == "convert" and name in a.args[:-2]) or (k == "hallsell" and name in a.args):
            keep.append(a)
    return tuple(keep)


def r_deliver(state: State, a: Action, ev: list[Event]) -> None:
    """``deliver GOOD``: a cube from the dock to the seat's delivery building for that good, for its points."""
    name = a.args[0]
    i, seat = state.turn_seat()
    g = state.notation.order[name]
    if state.kai is None or not seat.delivers[g]:
        raise state.refuse("no_delivery", a, good=name)
    state.take_from_dock(a, [name])
    state.stock = _plus(state.stock, g)
    seat.delivered += seat.delivers[g]
    building = state.cat.cards[state.owned_card(seat, "delivery", name)].id
    ev.append(_ev(Event, ("deliver", {"seat": i, "good": name, "card": building, "points": seat.delivers[g]})))
    state.cube_loaded(name)


def r_auction(state: State, a: Action, ev: list[Event]) -> None:
    """``auction GOOD``: the Auction Hall brings a cube of the stock to the dock, which must then be loaded."""
    name = a.args[0]
    i, seat = state.turn_seat()
    card = has(state, seat, "auction_hall") if state.kai is not None else -1
    if card < 0:
        raise state.refuse("no_card", a, card="auction_hall")
    g = state.notation.order[name]
    if not state.stock[g]:
        raise state.refuse("convert_stock", a, good=name)
    if state.kai.pending >= 0:
        raise state.refuse("pending", a, good=state.goods[state.kai.pending])
    if not _has_use(state, seat, g):
        raise state.refuse("no_use", a, good=name)
    state.stock = (*state.stock[:g], state.stock[g] - 1, *state.stock[g + 1:])
    state.dock = tuple(sorted((*state.dock, g)))
    state.kai = state.kai._replace(pending=g)
    ev.append(_ev(Event, ("auction", {"seat": i, "good": name})))
    drop(state, i, card, ev)


def r_smuggle(state: State, a: Action, ev: list[Event]) -> None:
    """``smuggle SEAT K GOOD``: the Smuggler takes a cube from another seat's contract ``K`` to the dock, to be
    loaded."""
    j, k, name = a.args
    i, seat = state.turn_seat()
    card = has(state, seat, "smuggler") if state.kai is not None else -1
    if card < 0:
        raise state.refuse("no_card", a, card="smuggler")
    if state.kai.pending >= 0:
        raise state.refuse("pending", a, good=state.goods[state.kai.pending])
    g = state.notation.order[name]
    if j == i or not 0 <= j < state.n_players or k >= len(state.seats[j].contracts):
        raise state.refuse("smuggle_target", a, target=j, k=k)
    ci, placed = state.seats[j].contracts[k]
    if g not in placed or len(placed) >= len(state.cat.cards[ci].goods):
        raise state.refuse("smuggle_target", a, target=j, k=k)
    if not _has_use(state, seat, g):
        raise state.refuse("no_use", a, good=name)
    victim = state.own_seat(j)
    rest = list(placed)
    rest.remove(g)
    cs = list(victim.contracts)
    cs[k] = (ci, tuple(rest))
    victim.contracts = tuple(cs)
    state.dock = tuple(sorted((*state.dock, g)))
    state.kai = state.kai._replace(pending=g)
    ev.append(_ev(Event, ("smuggle", {"seat": i, "seat_other": j, "good": name, "k": k})))
    drop(state, i, card, ev)


def r_truck(state: State, a: Action, ev: list[Event]) -> None:
    """``truck GOOD K1 K2``: the Truck moves a cube from the seat's contract ``K1`` to its contract ``K2``."""
    name, k1, k2 = a.args
    i, seat = state.turn_seat()
    _kai_of(state, a)
    card = has(state, seat, "truck")
    if card < 0 and state.kai.truck <= 0:
        raise state.refuse("no_card", a, card="truck")
    g = state.notation.order[name]
    n = len(seat.contracts)
    if not (k1 < n and k2 < n and k1 != k2) or g not in seat.contracts[k1][1]:
        raise state.refuse("truck_move", a, good=name)
    c2, placed2 = seat.contracts[k2]
    if state.notation.needs[c2][g] <= placed2.count(g):
        raise state.refuse("contract_good", a, k=k2, card=state.cat.cards[c2].id, good=name)
    cs = list(seat.contracts)
    c1, placed1 = cs[k1]
    rest = list(placed1)
    rest.remove(g)
    cs[k1] = (c1, tuple(rest))
    cs[k2] = (c2, (*placed2, g))
    seat.contracts = tuple(cs)
    ev.append(_ev(Event, ("truck", {"seat": i, "good": name, "k": k1, "k_to": k2})))
    moves = state.kai.truck
    if card >= 0 and moves <= 0:
        moves = state.cat.cards[card].moves
        drop(state, i, card, ev)
    state.kai = state.kai._replace(truck=moves - 1)


def end_loading_turn(state: State) -> None:
    """A loading turn ends: no cube waits to be loaded and the Truck's moves are spent."""
    state.kai = state.kai._replace(pending=-1, truck=-1)


# ---- scoring --------------------------------------------------------------------------------------


def score_extras(state: State, seat: Seat, cards: list[Any]) -> dict[str, int]:
    """The expansion's end-of-game points (its points during play are in ``deliveries``)."""
    buildings = [c for c in cards if c.kind in PURE_POINT_KINDS]
    out = {
        "deliveries": seat.delivered,
        "mayor": max((c.vp for c in buildings), default=0) if any(c.kind == "mayor" for c in cards) else 0,
        "harbour_tour": sum(c.vp_per_building for c in cards if c.kind == "harbour_tour") * len(buildings),
        "deichtorhallen": sum(c.vp_per_trader for c in cards if c.kind == "deichtorhallen")
        * sum(1 for c in cards if c.kind == "merchant"),
        "accountant": sum(c.vp_per_contract for c in cards if c.kind == "accountant") * len(seat.contracts),
        "press": sum(c.vp_per_fireman for c in cards if c.kind == "press")
        * sum(1 for c in cards if c.kind == "fireman"),
    }
    return out


# ---- serialization --------------------------------------------------------------------------------


def to_dict(state: State) -> dict[str, Any]:
    """The expansion's part of the position as JSON-ready data (``from_dict`` reads it back)."""
    kai = state.kai
    cards = state.cat.cards
    g = state.goods

    def cid(c: int) -> str | None:
        return cards[c].id if c >= 0 else None

    return {
        "top": [cid(c) for c in kai.top],
        "top_cargo": [[g[x] for x in cs] for cs in kai.top_cargo],
        "reserved": [[cards[c].id, w, [g[x] for x in cs]] for c, w, cs in kai.reserved],
        "left": list(kai.left),
        "stopped": [i for i in range(state.n_players) if kai.stopped >> i & 1],
        "turn": kai.turn,
        "rpos": kai.rpos,
        "spy_turn": kai.spy_turn,
        "fire": [cards[kai.fire[0]].id, kai.fire[1], [list(q) for q in kai.fire[2]]] if kai.fire else None,
        "pending": g[kai.pending] if kai.pending >= 0 else None,
        "truck": kai.truck,
    }


def from_dict(d: Any, n: int, by_id: dict[str, Any], gi: dict[str, int], error: Any) -> Kai:
    """Rebuild :class:`Kai` from ``to_dict`` data; ``error(field)`` makes the RecordError."""
    if not isinstance(d, dict):
        raise error("kai", "must be an object")
    try:
        top = tuple(by_id[c].idx if c is not None else -1 for c in d["top"])
        top_cargo = tuple(tuple(gi[x] for x in cs) for cs in d["top_cargo"])
        reserved = tuple((by_id[c].idx, int(w), tuple(gi[x] for x in cs)) for c, w, cs in d["reserved"])
        left = tuple(int(x) for x in d["left"])
        stopped = sum(1 << int(i) for i in d["stopped"])
        fire: tuple[Any, ...] = ()
        if d["fire"] is not None:
            c, context, queue = d["fire"]
            if context not in ("supply", "end") or any(q[0] not in ("double", "insure") for q in queue):
                raise ValueError("fire")
            fire = (by_id[c].idx, context, tuple((str(q[0]), int(q[1])) for q in queue))
        pending = gi[d["pending"]] if d["pending"] is not None else -1
        kai = Kai(top=top, top_cargo=top_cargo, reserved=reserved, left=left, stopped=stopped, turn=int(d["turn"]),
                  rpos=int(d["rpos"]), spy_turn=int(d["spy_turn"]), fire=fire, pending=pending, truck=int(d["truck"]))
    except (KeyError, TypeError, ValueError) as e:
        raise error("kai", f"malformed ({e})") from None
    if len(left) != n or len(top) != len(top_cargo) or any(owner(w) >= n for _c, w, _cs in reserved):
        raise error("kai", "does not fit the number of players")
    return kai


register_expansion(sys.modules[__name__], {  # by phase: the verbs the expansion adds and their rules
    "demand": {"reserve": r_reserve, "break": r_break, "stop": r_stop},
    "spy": {"spy": r_spy, "pass": r_spy_pass},
    "fire": {"double": r_double, "insure": r_insure, "pass": r_fire_pass},
    "loading": {"deliver": r_deliver, "auction": r_auction, "smuggle": r_smuggle, "truck": r_truck},
})
