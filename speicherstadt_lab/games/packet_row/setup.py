"""Set-up of Packet Row, loading a state from JSON, and the invariants every state keeps."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from ...engine.errors import RecordError
from ...engine.events import Event
from ...engine.rng import Rng
from ...engine.setup import check_seats, started, state_catalog, state_field, state_from_data
from .catalog import BOARDS, Catalog, load_catalog
from .notation import CURRENT, notation_for
from .state import PHASES, STATE_FORMAT, Seat, State

CatalogSource = str | Path | dict[str, Any] | Catalog | None


def _check_players(players: Any) -> int:
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 5:
        raise ValueError(f"players: Packet Row is for 2 to 5 players, not {players!r}")
    return players


def deck_cards(cat: Catalog, board: str) -> list[int]:
    """A board's deck as card types with their copies, in catalogue order."""
    return [c.idx for c in cat.deck(board) for _ in range(c.count)]


def standard_decks(players: int = 4, seed: int | str = 0, *,
                   catalog: CatalogSource = None) -> dict[str, list[str]]:
    """The four decks ``new_game`` would stack with this seed: board -> card ids, top first
    (with two players the top cards are the ones removed unseen)."""
    cat = load_catalog(catalog)
    _check_players(players)
    ids = [c.id for c in cat.cards]
    return {b: [ids[c] for c in _shuffled(cat, b, seed)] for b in BOARDS}


def standard_start_contracts(seed: int | str = 0, *, catalog: CatalogSource = None) -> list[str]:
    """The starting contracts in the order ``new_game`` deals them with this seed (seat 0 first, then the box)."""
    cat = load_catalog(catalog)
    order = [c.idx for c in cat.start_contracts]
    Rng(seed, "start").shuffle(order)
    return [cat.cards[c].id for c in order]


def _shuffled(cat: Catalog, board: str, seed: int | str) -> list[int]:
    cards = deck_cards(cat, board)
    Rng(seed, "deck", board).shuffle(cards)
    return cards


def _deck_arg(cat: Catalog, decks: Any) -> dict[str, list[int]]:
    if isinstance(decks, list) and len(decks) == len(BOARDS):
        decks = dict(zip(BOARDS, decks, strict=True))
    if not isinstance(decks, dict) or set(decks) != set(BOARDS):
        raise ValueError(f"decks: give one list of card ids per board {list(BOARDS)} (a dict, or a list in that "
                         "order)")
    by_id = cat.by_id
    out = {}
    for b in BOARDS:
        d = decks[b]
        if not isinstance(d, list) or any(not isinstance(x, str) for x in d):
            raise ValueError(f"decks: the {b} deck must be a list of card ids")
        unknown = [x for x in d if x not in by_id]
        if unknown:
            raise ValueError(f"decks: unknown card id(s) {unknown[:5]} in the {b} deck")
        got, want = Counter(by_id[x].idx for x in d), Counter(deck_cards(cat, b))
        if got != want:
            missing = sorted(cat.cards[c].id for c in (want - got).elements())
            extra = sorted(cat.cards[c].id for c in (got - want).elements())
            raise ValueError(f"decks: the {b} deck is not the board's cards (missing {missing[:5]}, "
                             f"extra {extra[:5]})")
        out[b] = [by_id[x].idx for x in d]
    return out


def _start_arg(cat: Catalog, start: Any) -> list[int]:
    want = sorted(c.idx for c in cat.start_contracts)
    if not isinstance(start, list) or any(not isinstance(x, str) for x in start):
        raise ValueError("start_contracts: must be a list of starting contract ids")
    got = [cat.by_id[x].idx if x in cat.by_id else -1 for x in start]
    if sorted(got) != want:
        raise ValueError("start_contracts: must list every starting contract of the catalogue exactly once")
    return got


def _blank(cat: Catalog, **fields: Any) -> State:
    """A new position: its game-wide fields and ``fields`` set, every other field its declared default (fields.py; a
    field without one that is not given is a TypeError naming it: no new field is forgotten here or in a scenario)."""
    return State.schema.build(State, cat=cat, nt=notation_for(cat), **fields)  # type: ignore[no-any-return]


def new_game(*, players: int = 4, seed: int | str = 0, first_player: int = 0,
             decks: dict[str, list[str]] | list[list[str]] | None = None, start_contracts: list[str] | None = None,
             catalog: CatalogSource = None, names: list[str] | tuple[str, ...] | None = None) -> State:
    """A new game of Packet Row at its first decision (round 1: the harbour master chooses a board).

    ``decks`` stacks the four decks (board -> card ids, top first; or a list in board order),
    ``start_contracts`` the deal (seat 0's first, the unused ones after), ``first_player`` the first harbour
    master. Otherwise ``seed`` shuffles them.
    """
    cat = load_catalog(catalog)
    n = _check_players(players)
    names = check_seats(n, first_player, names)
    piles = {b: _shuffled(cat, b, seed) for b in BOARDS} if decks is None else _deck_arg(cat, decks)
    if start_contracts is None:
        order = [c.idx for c in cat.start_contracts]
        Rng(seed, "start").shuffle(order)
    else:
        order = _start_arg(cat, start_contracts)
    if len(order) < n:
        raise ValueError(f"catalog: {len(order)} starting contracts are too few for {n} players")
    nt = notation_for(cat)
    size, fut, rem = nt.current_size[n], nt.future_size, nt.removed_count.get(n, 0)
    decks_t, removed, current, future = [], [], [], []
    ev: list[Event] = [Event("pr_setup", {"players": n, "money": nt.money})]
    if rem:
        ev.append(Event("pr_removed", {"count": rem}))
    for b in BOARDS:
        pile = piles[b]
        if len(pile) < rem + size + fut:
            raise ValueError(f"catalog: the {b} deck has {len(pile)} cards, too few to set up {n} players "
                             f"({rem + size + fut} needed)")
        removed.append(tuple(pile[:rem]))
        current.append(tuple(pile[rem: rem + size]))
        future.append(tuple(pile[rem + size: rem + size + fut]))
        decks_t.append(tuple(pile[rem + size + fut:]))
        ev.append(Event("pr_supply", {"board": b, "cards": [nt.ids[c] for c in current[-1]],
                                      "cards_future": [nt.ids[c] for c in future[-1]]}))
    ev.append(Event("pr_deal", {}))
    seats = []
    for i in range(n):
        seat = Seat(nt.money)
        seat.hand = (order[i],)
        seats.append(seat)
    st = _blank(cat, names=names, n_players=n, round=1, phase="choose", hm=first_player, decks=tuple(decks_t),
                removed=tuple(removed), current=tuple(current), future=tuple(future), box=tuple(order[n:]),
                seats=seats)
    ev.append(Event("pr_round", {"round": 1, "seat": first_player}))
    return started(st, ev)  # type: ignore[no-any-return]


# ---- loading a state ---------------------------------------------------------------------------


def from_dict(d: dict[str, Any]) -> State:
    """Rebuild a state from ``to_dict`` data, field by field as ``fields.py`` declares them; reject anything malformed
    or inconsistent, naming the field."""
    cat = state_catalog(d, STATE_FORMAT, load_catalog)
    n = state_field(d, "players", int)
    if not 2 <= n <= 5:
        raise RecordError(f"state field 'players': {n} is not a valid player count")
    return state_from_data(State, d, n, PHASES, {"cat": cat, "nt": notation_for(cat)},  # type: ignore[no-any-return]
                           check_invariants)


# ---- invariants --------------------------------------------------------------------------------


def check_invariants(st: State) -> list[str]:
    """Everything that must hold in every state; returns the violations (empty when all is well)."""
    problems: list[str] = []
    cat, nt, n = st.cat, st.nt, st.n_players
    expected = Counter({c.idx: c.count for c in cat.cards})
    places: list[int] = [*st.box]
    for b in range(len(BOARDS)):
        places += [*st.decks[b], *st.removed[b], *st.discard[b]]
        places += [c for c in (*st.current[b], *st.future[b]) if c >= 0]
        if any(nt.start[c] for c in (*st.decks[b], *st.removed[b], *st.current[b], *st.future[b]) if c >= 0):
            problems.append(f"a starting contract lies in the {BOARDS[b]} deck or supply")
        if any(c >= 0 and nt.board[c] != b for c in (*st.decks[b], *st.removed[b], *st.current[b], *st.future[b],
                                                      *st.discard[b])):
            problems.append(f"a card of another board lies on the {BOARDS[b]} board")
        if len(st.current[b]) != nt.current_size[n] or len(st.future[b]) != nt.future_size:
            problems.append(f"the {BOARDS[b]} supplies have the wrong number of slots")
        if len(st.removed[b]) > nt.removed_count.get(n, 0):
            problems.append(f"more cards removed from the {BOARDS[b]} deck than the set-up removes")
        if b in st.short and st.decks[b]:
            problems.append(f"the {BOARDS[b]} board counts as unfillable but its deck is not empty")
    for i, s in enumerate(st.seats):
        places += [*s.hand, *s.ships]
        if s.money < 0:
            problems.append(f"seat {i} has negative money")
        if any(nt.kind[c] != "ship" for c in s.ships) or any(nt.kind[c] == "ship" for c in s.hand):
            problems.append(f"seat {i} has a ship in the hand or another card among its ships")
        if sum(1 for c in s.hand if nt.start[c]) > 1:
            problems.append(f"seat {i} holds more than one starting contract")
        if list(s.hand) != sorted(s.hand) or list(s.ships) != sorted(s.ships):
            problems.append(f"seat {i}'s cards are not in canonical order")
    if Counter(places) != expected:
        problems.append("some card is missing or in two places")
    if sum(s.money for s in st.seats) + st.bank != nt.money * n:
        problems.append(f"money is not conserved: the seats hold {sum(s.money for s in st.seats)} and the bank's "
                        f"balance is {st.bank}, the game began with {nt.money * n}")
    if len(set(st.chosen)) != len(st.chosen) or len(set(st.short)) != len(st.short):
        problems.append("a board is listed twice as chosen or as unfillable")
    pawns = [s.pawn for s in st.seats if s.pawn is not None]
    if len(set(pawns)) != len(pawns):
        problems.append("two pawns lie on the same slot")
    for b, where, slot in pawns:
        row = (st.current if where == CURRENT else st.future)[b]
        if b not in st.chosen or not 0 <= slot < len(row) or row[slot] >= 0:
            problems.append("a pawn lies on a slot that was not taken from this round")
    threshold = nt.end_boards[n]
    ph = st.phase
    if ph in ("choose", "decide") and len(st.short) >= threshold:
        problems.append(f"{len(st.short)} boards cannot be filled but the game goes on")
    if ph == "choose" and (st.to_move != st.hm or st.chosen or st.board != -1 or pawns or st.pending):
        problems.append("the choose phase must start a round: the harbour master to move, nothing chosen or taken")
    if ph == "choose" and not any(c >= 0 for b in range(len(BOARDS)) for c in st.current[b]):
        problems.append("no board has a card to choose")
    if ph == "decide":
        if st.board not in st.chosen or not st.pending or st.pending[-1] != st.hm or st.to_move != st.pending[0]:
            problems.append("the decide phase needs the current board among the chosen ones and the harbour master "
                            "last in line")
        elif any(st.seats[i].pawn is not None for i in st.pending) or len(set(st.pending)) != len(st.pending):
            problems.append("a seat in line has already taken a card this round")
    if ph == "final" and (len(st.short) < threshold or not st.pending or st.to_move != st.pending[0]):
        problems.append("the final phase needs the end condition and a seat in line")
    if ph == "over":
        if st.to_move is not None or st.pending:
            problems.append("a seat is to move after the game is over")
        if any(nt.kind[c] == "money" for s in st.seats for c in s.hand):
            problems.append("a money card was not cashed at the end")
    if st.to_move is not None and not problems:
        # Asked only on public facts (entry 9): two visible actions, or a secret contract that might be fulfilled.
        secrecy = st.asked_for_secrecy()
        if len(st._options(public=True)) < 2 and not secrecy:
            problems.append(f"seat {st.to_move} is asked though everyone can tell it has no choice")
        elif len(st._options(public=False)) < (1 if secrecy else 2):
            problems.append(f"seat {st.to_move} is asked to decide with {len(st._options(public=False))} legal "
                            "action(s)")
    return problems
