"""The Kaispeicher expansion: a second (top) row with reservations, four workers, and 50 new cards.

The base game's :class:`~.state.State` carries one extra value, ``kai`` (a :class:`Kai`, ``None`` in the base
game), and this module registers the expansion's rules at the base rules' hook points (``register_expansion``,
the :class:`~.state.Hooks` at the end of this file): supply (fires can ask the Fire Chief's and the Insurance's
owners), demand (reservations, break cards, grey workers), a spy step before purchase, purchase of reserved cards,
the new loading actions, and scoring. It changes a position only through the state's interface (``seat_add``,
``part_set``, ``ask``, ``to_stock``, ...), as the base rules do: it assigns no attribute of anything it reads from a
state (``tests/games/kaispeicher/test_kaispeicher_interface.py`` reads this module's code for that). Timing follows the
online version's notes (seed 002, "Hinweise zur Nutzung von Handelskarten"); see docs/rules-notes.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...engine.actions import Action
from ...engine.basestate import SeatBase
from ...engine.errors import RecordError
from ...engine.events import Event
from ...engine.events import make_event as _ev
from ...engine.i18n import load_messages
from ...engine.schema import Codec, Field, Schema
from .state import GREY, Seat, State, register_expansion

load_messages("kaispeicher")
PURE_POINT_KINDS = ("building",)
ONE_SHOT_LOADING = ("auction_hall", "smuggler", "truck")
__all__ = ["GREY", "HOOKS", "Kai", "firemen_total", "has", "owner"]


@dataclass(frozen=True, slots=True, eq=False)
class Workers:
    """The regular workers each seat still has to place this round (``left``) and the seat whose demand turn comes
    next (``turn``): one shared, unchangeable object per value (made by ``workers``), with what a demand turn reads."""

    # A position's workers as such an object instead of a packed int (4 bits a seat) or a tuple: a demand turn reads a
    # seat's count and whether others have any by indexing tuples, and a placement takes the next value ready-made
    # (``passed``), where shifts and masks of ints (generic, a new int each in Python 3.11) and a new tuple cost ~1.3k
    # instructions a placement (valgrind, random 4-player games).
    left: tuple[int, ...]
    turn: int
    others: tuple[bool, ...]  # by seat: does another seat still have a regular worker?
    # by seat i: the value once seat i has placed a regular worker and passed the turn to the seat after it, if that
    # seat has a regular worker left (else None: ``_chosen`` finds the next seat); _UNSEEN until first asked
    passed: list[Any]

    def __repr__(self) -> str:
        return f"Workers(left={self.left!r}, turn={self.turn!r})"

    def __reduce__(self) -> tuple[Any, ...]:  # pickled as its value (not the values found from it): one object again
        return workers, (self.left, self.turn)


_UNSEEN = object()
_WORKERS: dict[tuple[tuple[int, ...], int], Workers] = {}


def workers(left: tuple[int, ...], turn: int) -> Workers:
    """The :class:`Workers` of these counts and turn (one object per value)."""
    w = _WORKERS.get((left, turn))
    if w is None:
        if left.__class__ is not tuple or any(c.__class__ is not int or not 0 <= c <= 15 for c in left):
            raise ValueError(f"worker counts are 0 to 15, not {left}")
        total = sum(left)
        w = Workers(left, turn, tuple(total != c for c in left), [_UNSEEN] * len(left))
        if len(_WORKERS) < 100_000:  # the values of every player count's rounds fit many times over
            _WORKERS[(left, turn)] = w
    return w


def _passed(w: Workers, i: int) -> Workers | None:
    """``w.passed[i]``, found and kept (see :class:`Workers`)."""
    left = w.left
    counts = (*left[:i], left[i] - 1, *left[i + 1:])
    j = (i + 1) % len(left)
    after = workers(counts, j) if counts[j] else None
    w.passed[i] = after
    return after


#: The fields of the expansion's part (its clone is made from them; its state file is ``to_dict``/``from_dict``).
KAI_FIELDS = Schema(*(Field(name) for name in ("board", "fire", "pending", "reserved", "rpos", "spy_turn", "stopped",
                                               "top", "top_cargo", "truck", "workers")),
                    Field("_gen", int, copy="generation", default=0))


class Kai(SeatBase, schema=KAI_FIELDS):
    """The expansion's part of a position (public information only). Copy-on-write like a seat: shared between
    states until a rule changes it through ``state.part_set()``; its values are never changed in place."""

    FIELDS = ("top", "top_cargo", "reserved", "left", "stopped", "turn", "rpos", "spy_turn", "fire", "pending", "truck")

    def __init__(self, top: tuple[int, ...] = (), top_cargo: tuple[tuple[int, ...], ...] = (),
                 reserved: tuple[tuple[int, int, tuple[int, ...]], ...] = (), left: tuple[int, ...] = (),
                 stopped: int = 0, turn: int = 0, rpos: int = 0, spy_turn: int = 0, fire: tuple[Any, ...] = (),
                 pending: int = -1, truck: int = -1) -> None:
        self._gen = 0
        self.top = top  # the top row's cards, -1 where one was reserved
        self.top_cargo = top_cargo
        self.reserved = reserved  # (card, worker, cargo), bottom first
        # the regular workers each seat still has to place this round, and the seat whose demand turn comes next
        self.workers = workers(tuple(left), turn)
        self.stopped = stopped  # bit per seat: done placing grey workers this round
        self.rpos = rpos  # the next reserved card to resolve in purchase
        self.spy_turn = spy_turn  # spy decisions so far (offset from the first player)
        self.fire = fire  # (fire card, "supply"|"end", ((decision, seat), ...)) while seats decide
        self.pending = pending  # a good from the Auction Hall or the Smuggler that must be loaded now
        self.truck = truck  # moves left in this turn's use of the Truck (-1: not in use)
        # Derived, not part of the position: the actions of the places and reservations open in this demand and
        # their mask, a bit per water space (bit s) and per top-row card (bit 16 + s) (``_board``), None: to be found.
        # A placement that fills a column and a reservation look up the board without their bit, so a demand decision
        # does not make its actions: that cost ~16k instructions, against ~29k for a whole placement.
        self.board: tuple[Any, ...] | None = None

    def __repr__(self) -> str:  # as the named tuple it was: the fingerprint of a position is made from it
        return "Kai(" + ", ".join(f"{f}={getattr(self, f)!r}" for f in self.FIELDS) + ")"

    def reserving(self, workers: Workers, reserved: tuple[Any, ...], top: tuple[int, ...],
                  top_cargo: tuple[tuple[int, ...], ...], board: tuple[Any, ...] | None) -> Kai:
        """A copy with a reservation's changes (for ``state.set_part``): one clone and five stores, where a
        ``part_update`` of the five cost ~6k more of a reservation's ~38k instructions (valgrind)."""
        n = self.clone(0)
        n.workers = workers
        n.reserved = reserved
        n.top = top
        n.top_cargo = top_cargo
        n.board = board
        return n

    @property
    def left(self) -> tuple[int, ...]:
        """The regular workers each seat still has to place this round."""
        return self.workers.left

    @left.setter
    def left(self, counts: tuple[int, ...]) -> None:
        self.workers = workers(tuple(counts), self.workers.turn)

    @property
    def turn(self) -> int:
        """The seat whose demand turn comes next (in demand, the seat to move)."""
        return self.workers.turn

    @turn.setter
    def turn(self, seat: int) -> None:
        self.workers = workers(self.workers.left, seat)


def owner(worker: int) -> int:
    """The seat a worker in a column belongs to (a grey worker is stored as seat + GREY)."""
    return worker & (GREY - 1)


def has(state: State, seat: Seat, kind: str) -> int:
    """The index of a card of ``kind`` the seat owns, or -1."""
    cards = state.notation.of_kind.get(kind, _NONE)
    if cards.isdisjoint(seat.cards):  # the common answer, from a C-level test: ~15 bytecode instructions, not ~60
        return -1
    for c in seat.cards:
        if c in cards:
            return c
    return -1


def owns(state: State, seat: Seat, kind: str) -> bool:
    """Whether the seat owns a card of ``kind``."""
    # A C-level test of the kind's cards against the seat's: ~0.5k instructions a call, ``has`` ~2.4k.
    return not state.notation.of_kind.get(kind, _NONE).isdisjoint(seat.cards)


_NONE: frozenset[int] = frozenset()
_FRESH: dict[Any, Kai] = {}  # a round's start part per (notation, players, first seat), copied (``supply``)
_LOADING_CARDS: dict[Any, frozenset[int]] = {}


# ---- supply -------------------------------------------------------------------------------------


def supply(state: State, ev: list[Event]) -> None:
    """A round's supply: every seat's regular workers back, demand from the metal coin; the water spaces, then the
    top row filled (the phase is "fire" until it is complete, as a fire may wait for decisions)."""
    # A copy of a part prepared once per (notation, players, first seat), not ``Kai(...)`` with its keyword
    # arguments and its ``workers`` look-up: ~3k instructions of a round's start (valgrind).
    key = (state.notation, state.n_players, state.first)
    fresh = _FRESH.get(key)
    if fresh is None:
        fresh = _FRESH[key] = Kai(left=(state.notation.workers,) * state.n_players, turn=state.first)
    state.set_part(fresh.clone(0))
    state.enter("fire")
    _fill(state, ev)


def _fill(state: State, ev: list[Event]) -> bool:
    """Fill the water spaces, then the top row; False while a fire waits for a decision."""
    k = state.cat.setup["offer_size"][str(state.n_players)]
    cards, pile = state.cat.cards, state.pile
    kai = state.kai
    # The cards are read in ``pile``, taken off it and laid out at once, the counts kept in locals: a supply (twice
    # the base game's cards) cost ~100k instructions, ~55k more than the base game's. One list for both rows, split
    # after the loop (the first ``need_water`` cards are the water spaces'): ~200 of a supply's ~740 bytecode
    # instructions.
    laid: list[int] = []
    laid_cargo: list[tuple[int, ...]] = []
    need_water = k - len(state.offer_idx)
    need = need_water + k - len(kai.top)
    last = len(pile) - 1  # the bottom card (the 4th fire) is never drawn in a supply
    pos = 0
    waiting = False
    while len(laid) < need and pos < last:
        ci = pile[pos]
        pos += 1
        card = cards[ci]
        kind = card.kind
        if kind == "fire":
            resolve_fire(state, ci, "supply", ev)
            if state.kai.fire:
                waiting = True
                break
            continue
        laid.append(ci)
        laid_cargo.append(state.draw_cubes(card.capacity) if kind == "ship" else ())
    water, top = laid[:need_water], laid[need_water:]
    water_cargo, top_cargo = laid_cargo[:need_water], laid_cargo[need_water:]
    state.draw_cards(pos)
    state.lay_out(water, water_cargo)
    if top:
        kai = state.kai
        # two ``part_set`` calls, not a ``part_update`` with its keyword dict and loop: ~0.5k instructions a supply
        state.part_set("top", (*kai.top, *top))
        state.part_set("top_cargo", (*kai.top_cargo, *top_cargo))
    if waiting:
        return False
    state.supply_drawn(ev)
    state.ask(None)
    return True


def supply_rows(state: State) -> list[tuple[str, tuple[int, ...], str, tuple[tuple[int, ...], ...]]]:
    """The supply lies on the water spaces and in the top row."""
    kai = state.kai
    return [("supply", state.offer_idx, "ship", state.cargo_idx), ("supply_top", kai.top, "ship_top", kai.top_cargo)]


def firemen_total(state: State, seat: Seat) -> int:
    """Firemen values, with the Fire Engine doubling the best one."""
    total = seat.firemen  # the values of the seat's firemen (the base rules keep it as each one joins the seat)
    if total and owns(state, seat, "fire_engine"):
        cards, kinds = state.cat.cards, state.notation.kinds
        total += max(cards[c].value for c in seat.cards if kinds[c] == "fireman")
    return total


def resolve_fire(state: State, ci: int, context: str, ev: list[Event]) -> None:
    """Score a fire, then queue the Fire Chief's and the Insurance's owners (in that order)."""
    card = state.cat.cards[ci]
    n = state.n_players
    scored = state.resolve_fire(ci, ev)
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
                state.seat_add(i, "track", card.strength)
                ev.append(_ev(Event, ("fire_chief", {"seat": i, "points": card.strength})))
                state.drop_card(i, chief, ev)
            else:
                queue.append(("double", i))
    for i in order:
        if i in minus:
            ins = has(state, state.seats[i], "insurance")
            if ins >= 0 and state.seats[i].coins >= state.cat.cards[ins].cost:
                queue.append(("insure", i))
    if queue:
        state.part_set("fire", (ci, context, tuple(queue)))
        state.enter("fire")
        state.ask(queue[0][1])


def fire_step(state: State, ev: list[Event]) -> bool:
    """The "fire" phase: a fire's decisions, then the rest of the supply (or, after the last round, of the fires);
    True while a seat decides or once the game is over."""
    if state.kai.fire:
        return True
    if state.last_round and state.loading_turn >= state.n_players:
        if end_fires(state, ev):
            state.finish(ev)
        return True
    return not _fill(state, ev)


def fire_actions(state: State) -> tuple[Action, ...]:
    """The decision a fire waits for: use the Fire Chief (``double``) or the Insurance (``insure``), or ``pass``."""
    kind = state.kai.fire[2][0][0]
    return (state.notation.act(kind), state.notation.PASS)


def _next_fire_decision(state: State) -> None:
    ci, context, queue = state.kai.fire
    queue = queue[1:]
    state.part_set("fire", (ci, context, queue) if queue else ())
    state.ask(queue[0][1] if queue else None)


def r_double(state: State, a: Action, ev: list[Event]) -> None:
    """``double``: the Fire Chief's owner gains the fire's strength once more, and the card is used up."""
    ci, _context, queue = state.kai.fire
    kind, seat_i = queue[0]
    if kind != "double":
        raise state.refuse("fire_decision", a, verb="double")
    strength = state.cat.cards[ci].strength
    state.seat_add(seat_i, "track", strength)
    ev.append(_ev(Event, ("fire_chief", {"seat": seat_i, "points": strength})))
    state.drop_card(seat_i, has(state, state.seats[seat_i], "fire_chief"), ev)
    _next_fire_decision(state)


def r_insure(state: State, a: Action, ev: list[Event]) -> None:
    """``insure``: the Insurance's owner pays its cost and loses no points to the fire (gains its strength back)."""
    ci, _context, queue = state.kai.fire
    kind, seat_i = queue[0]
    if kind != "insure":
        raise state.refuse("fire_decision", a, verb="insure")
    cost = state.cat.cards[has(state, state.seats[seat_i], "insurance")].cost
    state.seat_add(seat_i, "coins", -cost)
    state.seat_add(seat_i, "track", state.cat.cards[ci].strength)
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
        resolve_fire(state, state.draw_card(), "end", ev)
    return not state.kai.fire


# ---- demand -------------------------------------------------------------------------------------


_BOARDS: dict[Any, dict[int, tuple[Any, ...]]] = {}


def _open(state: State, kai: Kai) -> int:
    """The places and reservations open now, as ``Kai.board`` keeps them."""
    columns, top = state.columns, kai.top
    spaces = state.notation.spaces
    if spaces and -1 not in top and not any(columns):  # a round's first demand: all open (~5k of ~6k instructions)
        return (1 << len(columns)) - 1 | ((1 << len(top)) - 1) << 16
    mask = 0
    for s, col in enumerate(columns):
        if len(col) < spaces:
            mask |= 1 << s
    for s, c in enumerate(top):
        if c >= 0:
            mask |= 1 << 16 + s
    return mask


def _board(state: State, mask: int) -> tuple[Any, ...]:
    """The demand actions of the open places and reservations ``mask``: alone, then followed by ``stop`` and by
    ``break``, then the mask (made once per notation and mask)."""
    nt = state.notation
    boards = _BOARDS.get(nt)
    if boards is None:
        boards = _BOARDS[nt] = {}
    board = boards.get(mask)
    if board is None:
        places = tuple(nt.PLACE[s] for s in range(16) if mask >> s & 1)
        board = places + tuple(nt.act("reserve", s) for s in range(16) if mask >> 16 + s & 1)
        board = boards[mask] = (board, (*board, nt.act("stop")), (*board, nt.act("break")), mask)
    return board


def _demand_moves(state: State, kai: Kai, i: int) -> tuple[Action, ...]:
    board = kai.board
    if board is None:
        board = _board(state, _open(state, kai))
    w = kai.workers
    if not w.left[i]:
        return board[1]
    if w.others[i] and state.seats[i].breaks > 0:  # others still have regular workers
        return board[2]
    return board[0]


def demand_actions(state: State) -> tuple[Action, ...]:
    """The demand choices of the seat to move: a water space or a top-row card, and a break or a stop where allowed."""
    return _demand_moves(state, state.kai, state.to_move)


# The seats in turn order from each seat (index n: from seat 0 again), per player count: a demand step walks one
# instead of computing ``(turn + k) % n`` a seat (~13 of a demand step's ~95 bytecode instructions, ~170 steps a game).
_ORDERS = {n: tuple(tuple((t + k) % n for k in range(n)) for t in range(n + 1)) for n in range(1, 9)}


def _chosen(state: State, w: Workers, stopped: int, i: int) -> Workers:
    """``w`` (once seat ``i``'s demand turn is taken) with the turn passed on: to the next seat after ``i`` in turn
    order with a worker to place (a regular one, or a grey one unless it stopped), else to the seat after ``i``.
    Every demand rule passes the turn on, so the demand step that follows finds the seat to move in ``turn``."""
    left = w.left
    order = _ORDERS[state.n_players][i + 1]
    seats = state.seats
    for j in order:
        if left[j] or (seats[j].grey > 0 and not stopped >> j & 1):
            return workers(left, j)
    return workers(left, order[0])


def _placed(state: State, w: Workers, i: int) -> Workers:
    """``w`` once seat ``i`` has placed a regular worker, the turn passed on (``Workers.passed``, else ``_chosen``)."""
    after = w.passed[i]
    if after is _UNSEEN:
        after = _passed(w, i)
    if after is None:  # the seat after has no regular worker left: perhaps a grey one
        left = w.left
        after = _chosen(state, workers((*left[:i], left[i] - 1, *left[i + 1:]), w.turn), state.kai.stopped, i)
    return after


def demand_step(state: State, ev: list[Event]) -> bool:
    """Demand: find the seat to place next (after a demand turn, the one the rule passed the turn to, ``_chosen``).
    True when it must decide, False when demand is over (then the spy step)."""
    kai = state.kai
    w = kai.workers
    board = kai.board
    if state.to_move is not None and board is not None:  # a turn was just taken: its rule passed the turn on
        # The common case (the seat has a regular worker and a choice) written out, without the walk below: with the
        # turn passed on by the rule, ~45 of a placement's ~650 bytecode instructions (~280 demand steps a game).
        i = w.turn
        if w.left[i]:
            legal = board[2] if w.others[i] and state.seats[i].breaks > 0 else board[0]
            if len(legal) >= 2:
                state.ask(i, legal)
                return True
    order = _ORDERS[state.n_players][w.turn]
    left = w.left
    for i in order:
        mine = left[i]
        if not mine and (state.seats[i].grey <= 0 or kai.stopped >> i & 1):  # nothing left to place this round
            continue
        if board is None:  # a round's first demand decision (or a position read from a file)
            board = _board(state, _open(state, kai))
            state.part_set("board", board)
        if w.turn != i:
            state.part_set("workers", workers(left, i))
        if not mine:
            legal = board[1]
        elif w.others[i] and state.seats[i].breaks > 0:  # others still have regular workers
            legal = board[2]
        else:
            legal = board[0]
        if len(legal) >= 2:
            state.ask(i, legal)
            return True
        # Only one thing to do: a grey-worker turn with nowhere to go (stop), or one space left.
        state.ask(i)
        if legal[0].kind != "stop":  # a grey worker's "stop" tells its own story
            ev.append(_ev(Event, ("forced", {"seat": i, "action": legal[0].text})))
        state.hooks.rules[legal[0].kind]["demand"](state, legal[0], ev)
        return demand_step(state, ev)
    turn = order[0]
    if w.turn != turn:
        state.part_set("workers", workers(left, turn))
    state.ask(None)
    end_demand(state, ev)
    return False


def worker(state: State, i: int, space: int, ev: list[Event]) -> int:
    """The worker seat ``i`` places above water space ``space``: a regular one while it has any, then a grey one; the
    turn passes on."""
    kai = state.kai
    w = kai.workers
    if w.left[i]:  # the common case written out: every placement
        after = w.passed[i]
        if after.__class__ is not Workers:
            after = _placed(state, w, i)
        state.part_set("workers", after)
        return i
    grey = _grey(state, i, ev)
    state.part_set("workers", _chosen(state, w, kai.stopped, i))  # after the grey count's change: the search reads it
    return grey


def column_full(state: State, space: int) -> None:
    """The column above water space ``space`` is full: its place closes on the demand board (a hook of its own, so
    that a placement does not test the column: ~16 of its ~45 bytecode instructions here)."""
    board = state.kai.board
    if board is not None:
        state.part_set("board", _board(state, board[3] & ~(1 << space)))


def _grey(state: State, i: int, ev: list[Event]) -> int:
    """Seat ``i`` places a grey worker (it has no regular one left); the Warehouse Workers card goes with the last."""
    if state.seat_add(i, "grey", -1) == 0:
        card = has(state, state.seats[i], "warehouse_workers")
        if card >= 0:
            state.drop_card(i, card, ev)
    return i + GREY


def r_reserve(state: State, a: Action, ev: list[Event]) -> None:
    """``reserve N``: a worker on a top-row card, which joins the purchase after the water spaces; the turn passes
    on."""
    s = a.args[0]
    kai = state.kai
    top = kai.top
    if not 0 <= s < len(top) or top[s] < 0:
        raise state.refuse("reserve_space", a, space=s)
    i = state.to_move
    w = kai.workers
    if w.left[i]:
        after = w.passed[i]
        if after.__class__ is not Workers:
            after = _placed(state, w, i)
        wk = i
    else:
        wk = _grey(state, i, ev)
        after = _chosen(state, w, kai.stopped, i)  # after the grey count's change: the search reads it
    ci = top[s]
    board = kai.board
    if board is not None:  # the card is reserved: its reservation closes
        board = _board(state, board[3] & ~(1 << 16 + s))
    cargo = kai.top_cargo
    reserved = (*kai.reserved, (ci, wk, cargo[s]))
    # _put written out twice: ~40 of a reservation's ~290 bytecode instructions (~45 reservations a game)
    state.set_part(kai.reserving(after, reserved, (*top[:s], -1, *top[s + 1:]), (*cargo[:s], (), *cargo[s + 1:]),
                                 board))
    ev.append(_ev(Event, ("reserve", {"seat": i, "card": state.cat.cards[ci].id, "count": len(reserved)})))


def r_break(state: State, a: Action, ev: list[Event]) -> None:
    """``break``: a break card spent, the seat places nothing this turn; the turn passes on."""
    kai = state.kai
    i = state.to_move
    seat = state.seats[i]
    if seat.breaks <= 0:
        raise state.refuse("no_break", a)
    w = kai.workers
    if not w.left[i] or not w.others[i]:  # none left, or none left to the others
        raise state.refuse("break_late", a)
    left = state.seat_add(i, "breaks", -1)
    ev.append(_ev(Event, ("break", {"seat": i, "left": left})))
    if left == 0:
        card = has(state, state.seats[i], "coffee_break")
        if card >= 0:
            state.drop_card(i, card, ev)
    state.part_set("workers", _chosen(state, w, kai.stopped, i))


def r_stop(state: State, a: Action, ev: list[Event]) -> None:
    """``stop``: a seat with only grey workers left places no more this round; the turn passes on."""
    i = state.to_move
    kai = state.kai
    if kai.workers.left[i]:
        raise state.refuse("stop_early", a)
    stopped = kai.stopped | 1 << i
    state.part_update(stopped=stopped, workers=_chosen(state, kai.workers, stopped, i))
    ev.append(_ev(Event, ("grey_stop", {"seat": i})))


def end_demand(state: State, ev: list[Event]) -> None:
    """Unreserved top-row cards leave at once (online notes); then the spy step, then purchase."""
    kai = state.kai
    left = [c for c in kai.top if c >= 0]
    if left:
        # their cubes back to the stock at once: one new stock, not one a card (~2k instructions each)
        cargo = kai.top_cargo
        state.to_stock([g for s, c in enumerate(kai.top) if c >= 0 for g in cargo[s]])
        ev.append(_ev(Event, ("top_discard", {"cards": [state.cat.cards[c].id for c in left]})))
        state.discard_cards(left)
    # spy_turn and rpos are 0 here after every supply (a round's new part): set only when a position read from a file
    # says otherwise; two ``part_set`` calls instead of a ``part_update`` of four: ~1.8k instructions a round
    n = len(kai.top)
    state.part_set("top", (-1,) * n)
    state.part_set("top_cargo", ((),) * n)
    if kai.spy_turn or kai.rpos:
        state.part_update(spy_turn=0, rpos=0)
    state.enter("spy")


# ---- the spy step before purchase ---------------------------------------------------------------


def _spy_moves(state: State, i: int) -> tuple[Action, ...]:
    nt = state.notation
    mine, theirs = [], []
    for s, col in enumerate(state.columns):
        for level, w in enumerate(col):
            (mine if owner(w) == i else theirs).append((s, level))
    out = [nt.act("spy", s1, l1, s2, l2) for s1, l1 in mine for s2, l2 in theirs]
    out.append(nt.PASS)
    return tuple(out)


def spy_actions(state: State) -> tuple[Action, ...]:
    """The Spy's swaps (one of the mover's workers with another seat's, any two spaces and levels), or ``pass``."""
    return _spy_moves(state, state.to_move)


def spy_step(state: State, ev: list[Event]) -> bool:
    """The next owner of an unused Spy with something to swap; False when purchase may begin."""
    n = state.n_players
    start = turn = state.kai.spy_turn
    spies, seats = state.notation.of_kind.get("spy", _NONE), state.seats  # owns() written out: every seat, every round
    order = _ORDERS[n][state.first]  # the seats from the first, not ``(first + turn) % n`` each: ~0.5k a round
    while turn < n:
        i = order[turn]
        if not spies.isdisjoint(seats[i].cards):
            owners = {owner(w) for col in state.columns for w in col}
            if i in owners and owners - {i}:
                break
        turn += 1
    if turn != start:  # the seats passed over (no Spy, or nothing to swap) are done
        state.part_set("spy_turn", turn)
    if turn < n:
        state.ask(i, _spy_moves(state, i))
        return True
    state.begin_purchase()
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
    other = owner(cols[s2][l2])
    state.swap_workers(s1, l1, s2, l2)
    ev.append(_ev(Event, ("spy", {"seat": i, "seat_other": other, "space": s1, "space_other": s2})))
    state.drop_card(i, has(state, state.seats[i], "spy"), ev)
    state.part_set("spy_turn", state.kai.spy_turn + 1)
    state.ask(None)


def r_spy_pass(state: State, a: Action, ev: list[Event]) -> None:
    """``pass`` in the spy step: no swap; the next Spy owner is asked."""
    ev.append(_ev(Event, ("spy_pass", {"seat": state.to_move})))
    state.part_set("spy_turn", state.kai.spy_turn + 1)
    state.ask(None)


# ---- purchase of reserved cards -----------------------------------------------------------------


def reserved_step(state: State, ev: list[Event]) -> bool:
    """Offer the next reserved card to its reserver, with its choices (``purchase_legal``'s, found here: ~70
    bytecode instructions of each of ~25 such purchases a game); False once the column is done."""
    nt = state.notation
    choices = _PURCHASES.get(nt) or _purchase_choices(nt)
    fish = nt.of_kind.get("fish_market", _NONE)
    while True:
        kai = state.kai
        reserved, rpos = kai.reserved, kai.rpos
        if rpos >= len(reserved):
            return False
        ci, w, _cargo = reserved[rpos]
        i = w & (GREY - 1)  # owner(w)
        price = len(reserved) - rpos
        seat = state.seats[i]
        pay, free = seat.coins >= price, not fish.isdisjoint(seat.cards)
        if not pay and not free:
            ev.append(_ev(Event, ("cannot_pay", {"seat": i, "card": state.cat.cards[ci].id, "price": price})))
            _discard_reserved(state, ev)
            continue
        state.ask(i, choices[pay * 2 + free])
        return True


_PURCHASES: dict[Any, tuple[tuple[Action, ...], ...]] = {}


def _purchase_choices(nt: Any) -> tuple[tuple[Action, ...], ...]:
    """A notation's four purchase choices (pass; buy free, pass; buy, pass; buy, buy free, pass), made once: ~1 µs
    off each of ~90 purchases a game."""
    free = nt.act("buy", "free")
    choices = _PURCHASES[nt] = ((nt.PASS,), (free, nt.PASS), (nt.BUY, nt.PASS), (nt.BUY, free, nt.PASS))
    return choices


def purchase_legal(state: State) -> tuple[Action, ...]:
    """The purchase choices of the seat to move, on a water space or the reserved card next in the column, at the
    price there: ``buy`` if the seat can pay, ``buy free`` with the Fish Market, ``pass``."""
    # One function (it was two, ~90 purchases a game): ~25 of their ~65 bytecode instructions a call saved
    nt = state.notation
    choices = _PURCHASES.get(nt) or _purchase_choices(nt)
    space = state.space
    if space < len(state.offer_idx):
        price = len(state.columns[space])
    else:
        kai = state.kai
        price = len(kai.reserved) - kai.rpos
    seat = state.seats[state.to_move]  # owns(state, seat, "fish_market") written out
    return choices[(seat.coins >= price) * 2 + (not nt.of_kind.get("fish_market", _NONE).isdisjoint(seat.cards))]


def _discard_reserved(state: State, ev: list[Event]) -> None:
    kai = state.kai
    ci, _w, cargo = kai.reserved[kai.rpos]
    if cargo:  # most reserved cards carry no cubes: a new stock tuple (~1.5k instructions) only for a ship's
        state.to_stock(cargo)
    state.discard_cards((ci,))
    ev.append(_ev(Event, ("discard_reserved", {"card": state.cat.cards[ci].id})))
    state.part_set("rpos", kai.rpos + 1)


def r_reserved_buy(state: State, a: Action, ev: list[Event]) -> None:
    """``buy`` (or ``buy free``) of a reserved top-row card, priced by the workers still waiting in the reservation
    column."""
    kai = state.kai
    rpos = kai.rpos
    ci, w, cargo = kai.reserved[rpos]
    state.buy_card(w & (GREY - 1), ci, cargo, len(kai.reserved) - rpos, a, ev)  # owner(w) written out: ~0.4k a buy
    state.part_set("rpos", rpos + 1)
    state.ask(None)


def r_reserved_pass(state: State, a: Action, ev: list[Event]) -> None:
    """``pass`` on a reserved card: the worker goes home and the card is discarded."""
    kai = state.kai
    ci, w, _cargo = kai.reserved[kai.rpos]
    ev.append(_ev(Event, ("pass_last", {"seat": owner(w), "card": state.cat.cards[ci].id})))
    _discard_reserved(state, ev)
    state.ask(None)


def fish_market(state: State, seat: Seat) -> int:
    """The seat's Fish Market (it buys a card free), or -1."""
    # has() written out with the common answer first (asked for every purchase a seat cannot pay): ~0.5k a call
    cards = state.notation.of_kind.get("fish_market", _NONE)
    if cards.isdisjoint(seat.cards):
        return -1
    return has(state, seat, "fish_market")


# ---- card effects on purchase ---------------------------------------------------------------------


def _savings_bank(state: State, i: int, ci: int, ev: list[Event]) -> bool:
    card = state.cat.cards[ci]
    state.seat_add(i, "coins", card.coins)
    ev.append(_ev(Event, ("savings_bank", {"seat": i, "coins": card.coins})))
    return False  # used up when bought


def _thief(state: State, i: int, ci: int, ev: list[Event]) -> bool:
    card = state.cat.cards[ci]
    paid = []
    for j in range(state.n_players):
        have = state.seats[j].coins
        if j != i and have >= card.coins:
            state.seat_add(j, "coins", -card.coins)
            state.seat_add(i, "coins", card.coins)
            paid.append(j)
        elif j != i and have > 0:  # "Wer keine Münze besitzt, muss auch nichts abgeben."
            state.seat_add(i, "coins", have)
            state.seat_add(j, "coins", -have)
            paid.append(j)
    ev.append(_ev(Event, ("thief", {"seat": i, "seats": paid})))
    return False  # used up when bought


def _coffee_break(state: State, i: int, ci: int, ev: list[Event]) -> bool:
    state.seat_add(i, "breaks", state.cat.cards[ci].breaks)
    return True


def _warehouse_workers(state: State, i: int, ci: int, ev: list[Event]) -> bool:
    state.seat_add(i, "grey", state.cat.cards[ci].workers)
    return True


def _harbour_master(state: State, i: int, ci: int, ev: list[Event]) -> bool:
    state.seat_set(i, "k_convert", state.cat.cards[ci].convert)
    return True


def _delivery(state: State, i: int, ci: int, ev: list[Event]) -> bool:
    card = state.cat.cards[ci]
    state.seat_add_at(i, "delivers", state.notation.order[card.good], card.points)
    return True


GAINS = {"savings_bank": _savings_bank, "thief": _thief, "coffee_break": _coffee_break,
         "warehouse_workers": _warehouse_workers, "harbour_master": _harbour_master, "delivery": _delivery}


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
    nt = state.notation  # the cached set read here, without the call: ~0.4k instructions a call
    return not (_LOADING_CARDS.get(nt) or _loading_cards(nt)).isdisjoint(seat.cards) or state.kai.truck > 0


def _loading_cards(nt: Any) -> frozenset[int]:
    """The cards of the one-shot loading kinds (Auction Hall, Smuggler, Truck) in a notation's catalogue."""
    cards = _LOADING_CARDS.get(nt)
    if cards is None:
        cards = _LOADING_CARDS[nt] = frozenset().union(*(nt.of_kind.get(k, _NONE) for k in ONE_SHOT_LOADING))
    return cards


def loading_actions(state: State, i: int, seat: Seat) -> list[Action]:
    """The expansion's loading actions for seat ``i`` (deliveries and the one-shot cards)."""
    nt = state.notation
    goods = state.goods
    out: list[Action] = []
    if any(seat.delivers):  # a delivery building: most seats have none (~40 bytecode instructions a call saved)
        for g in sorted(set(state.dock)):
            if seat.delivers[g]:
                out.append(nt.act("deliver", goods[g]))
    if state.kai.truck <= 0 and _loading_cards(nt).isdisjoint(seat.cards):  # no one-shot card: the common case
        return out
    if owns(state, seat, "auction_hall"):
        for g, left in enumerate(state.stock):
            if left and _has_use(state, seat, g):
                out.append(nt.act("auction", goods[g]))
    if owns(state, seat, "smuggler"):
        cards = state.cat.cards
        for j, other in enumerate(state.seats):
            if j == i:
                continue
            for k, (ci, placed) in enumerate(other.contracts):
                if len(placed) < len(cards[ci].goods):
                    for g in sorted(set(placed)):
                        if _has_use(state, seat, g):
                            out.append(nt.act("smuggle", j, k, goods[g]))
    if owns(state, seat, "truck") or state.kai.truck > 0:
        needs = nt.needs
        for k1, (_c1, placed1) in enumerate(seat.contracts):
            for g in sorted(set(placed1)):
                for k2, (c2, placed2) in enumerate(seat.contracts):
                    if k2 != k1 and needs[c2][g] > placed2.count(g):
                        out.append(nt.act("truck", goods[g], k1, k2))
    return out


def loading_end(state: State, i: int, seat: Seat, out: list[Action]) -> tuple[Action, ...]:
    """The loading actions complete: the expansion's added; while a cube waits, only the moves that load it."""
    kai = state.kai
    nt = state.notation
    # loading_actions' common answer (no delivery building, no one-shot card, no Truck in use: nothing) tested here,
    # without its call and its empty list: ~1k instructions of each loading decision
    if (any(seat.delivers) or kai.truck > 0
            or not (_LOADING_CARDS.get(nt) or _loading_cards(nt)).isdisjoint(seat.cards)):
        out.extend(loading_actions(state, i, seat))
    if kai.pending >= 0:
        return restrict_pending(state, tuple(out))
    out.append(nt.DONE)
    return tuple(out)


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


def guard(state: State, a: Action) -> None:
    """A cube from the Auction Hall or the Smuggler waits: only a move that loads it may come."""
    pending = state.kai.pending
    if pending >= 0 and a not in state.legal_actions():
        raise state.refuse("pending", a, good=state.goods[pending])


def cube_loaded(state: State, name: str) -> None:
    """A cube went onto a card: a waiting Auction Hall or Smuggler cube of that good is loaded."""
    pending = state.kai.pending
    if pending >= 0 and state.goods[pending] == name:
        state.part_set("pending", -1)


def r_deliver(state: State, a: Action, ev: list[Event]) -> None:
    """``deliver GOOD``: a cube from the dock to the seat's delivery building for that good, for its points."""
    name = a.args[0]
    i, seat = state.turn_seat()
    g = state.notation.order[name]
    if not seat.delivers[g]:
        raise state.refuse("no_delivery", a, good=name)
    state.take_from_dock(a, [name])
    state.to_stock((g,))
    state.seat_add(i, "delivered", seat.delivers[g])
    building = state.cat.cards[state.owned_card(seat, "delivery", name)].id
    ev.append(_ev(Event, ("deliver", {"seat": i, "good": name, "card": building, "points": seat.delivers[g]})))
    state.cube_loaded(name)


def r_auction(state: State, a: Action, ev: list[Event]) -> None:
    """``auction GOOD``: the Auction Hall brings a cube of the stock to the dock, which must then be loaded."""
    name = a.args[0]
    i, seat = state.turn_seat()
    card = has(state, seat, "auction_hall")
    if card < 0:
        raise state.refuse("no_card", a, card="auction_hall")
    g = state.notation.order[name]
    if not state.stock[g]:
        raise state.refuse("convert_stock", a, good=name)
    if state.kai.pending >= 0:
        raise state.refuse("pending", a, good=state.goods[state.kai.pending])
    if not _has_use(state, seat, g):
        raise state.refuse("no_use", a, good=name)
    state.from_stock(g)
    state.to_dock(g)
    state.part_set("pending", g)
    ev.append(_ev(Event, ("auction", {"seat": i, "good": name})))
    state.drop_card(i, card, ev)


def r_smuggle(state: State, a: Action, ev: list[Event]) -> None:
    """``smuggle SEAT K GOOD``: the Smuggler takes a cube from another seat's contract ``K`` to the dock, to be
    loaded."""
    j, k, name = a.args
    i, seat = state.turn_seat()
    card = has(state, seat, "smuggler")
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
    state.contract_unload(j, k, g)
    state.to_dock(g)
    state.part_set("pending", g)
    ev.append(_ev(Event, ("smuggle", {"seat": i, "seat_other": j, "good": name, "k": k})))
    state.drop_card(i, card, ev)


def r_truck(state: State, a: Action, ev: list[Event]) -> None:
    """``truck GOOD K1 K2``: the Truck moves a cube from the seat's contract ``K1`` to its contract ``K2``."""
    name, k1, k2 = a.args
    i, seat = state.turn_seat()
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
    state.contract_unload(i, k1, g)
    state.contract_load(i, k2, g)
    ev.append(_ev(Event, ("truck", {"seat": i, "good": name, "k": k1, "k_to": k2})))
    moves = state.kai.truck
    if card >= 0 and moves <= 0:
        moves = state.cat.cards[card].moves
        state.drop_card(i, card, ev)
    state.part_set("truck", moves - 1)


def turn_ended(state: State) -> None:
    """A loading turn ends: no cube waits to be loaded and the Truck's moves are spent."""
    kai = state.kai
    if kai.pending != -1 or kai.truck != -1:
        state.part_update(pending=-1, truck=-1)


# ---- scoring --------------------------------------------------------------------------------------


_SCORED_KINDS = frozenset((*PURE_POINT_KINDS, "merchant", "fireman", "mayor", "harbour_tour", "deichtorhallen",
                           "accountant", "press"))  # the kinds score_extras counts


def score_extras(state: State, seat: Seat, cards: list[Any]) -> dict[str, int]:
    """The expansion's end-of-game points (its points during play are in ``deliveries``)."""
    # One pass over the cards instead of seven: a game's end scores every seat twice, and the seven passes cost
    # ~5k of a random 4-player game's ~315k bytecode instructions.
    buildings = merchants = firemen = best = 0
    mayor = False
    per_building = per_trader = per_contract = per_fireman = 0
    for c in cards:
        kind = c.kind
        if kind not in _SCORED_KINDS:  # ships, contracts, ...: most cards
            continue
        if kind in PURE_POINT_KINDS:
            best = c.vp if not buildings or c.vp > best else best
            buildings += 1
        elif kind == "merchant":
            merchants += 1
        elif kind == "fireman":
            firemen += 1
        elif kind == "mayor":
            mayor = True
        elif kind == "harbour_tour":
            per_building += c.vp_per_building
        elif kind == "deichtorhallen":
            per_trader += c.vp_per_trader
        elif kind == "accountant":
            per_contract += c.vp_per_contract
        elif kind == "press":
            per_fireman += c.vp_per_fireman
    return {
        "deliveries": seat.delivered,
        "mayor": best if mayor else 0,
        "harbour_tour": per_building * buildings,
        "deichtorhallen": per_trader * merchants,
        "accountant": per_contract * len(seat.contracts),
        "press": per_fireman * firemen,
    }


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
        if any(not 0 <= x <= 15 for x in left):
            raise ValueError("left")
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


def pieces(state: State) -> tuple[int, list[int]]:
    """(cubes, cards) the expansion's part of the position holds: the top row's and the reserved ones not bought."""
    kai = state.kai
    if kai is None:  # a position being built (a scenario), before its round's supply
        return 0, []
    reserved = kai.reserved[kai.rpos:]
    cubes = sum(len(c) for c in kai.top_cargo) + sum(len(cs) for _c, _w, cs in reserved)
    return cubes, [c for c in kai.top if c >= 0] + [c for c, _w, _cs in reserved]


def fingerprint(state: State, key: Any) -> Any:
    """The public key of a position with the expansion's part."""
    return key, state.kai, tuple((x.breaks, x.grey, x.delivered) for x in state.seats)


#: How the expansion's part of a position is written in a state file (the field ``kai``, fields.py).
PART = Codec(lambda kai, state: to_dict(state),
             lambda d, key, state, where: from_dict(d.get(key), state.n_players, state.cat.by_id, state.notation.order,
                                                    lambda f, m: RecordError(f"{where} field '{f}': {m}")))

HOOKS = register_expansion(
    "kaispeicher",
    verbs={  # by phase: the verbs the expansion adds and their rules
        "demand": {"reserve": r_reserve, "break": r_break, "stop": r_stop},
        "spy": {"spy": r_spy, "pass": r_spy_pass},
        "fire": {"double": r_double, "insure": r_insure, "pass": r_fire_pass},
        "loading": {"deliver": r_deliver, "auction": r_auction, "smuggle": r_smuggle, "truck": r_truck},
    },
    steps={"demand": demand_step, "spy": spy_step, "fire": fire_step},
    legal={"demand": demand_actions, "spy": spy_actions, "fire": fire_actions, "purchase": purchase_legal},
    guards={"loading": guard},  # a waiting cube is only ever loading's: no check (~0.2 µs) elsewhere
    supply=supply,
    supply_rows=supply_rows,
    worker=worker,
    column_full=column_full,
    purchase_more=reserved_step,
    buy_more=r_reserved_buy,
    pass_more=r_reserved_pass,
    free_card=fish_market,
    gains=GAINS,
    loading_end=loading_end,
    loading_cards=has_loading_cards,
    cube_loaded=cube_loaded,
    turn_ended=turn_ended,
    firemen=firemen_total,
    end_fires=end_fires,
    score_extras=score_extras,
    seat_fields=("breaks", "grey", "delivered"),
    part=PART,
    part_pieces=pieces,
    flow_problems=lambda state: [],  # the expansion's order of play (spy, fire, grey workers) has no base checks
    fingerprint=fingerprint,
)
