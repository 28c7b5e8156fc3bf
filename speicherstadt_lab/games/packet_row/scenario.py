"""Scenarios of Packet Row: a position described as data, checked field by field and built into a state; any
position described as such data; and, for tests and notebooks, stacked decks and rigged holdings.

    s = sl.new_game("packet_row", scenario="lesson.json")    # or a dict (docs/record-format.md, Scenarios)
    data = scenario_of(s)                                     # any position, to save as a file and change
    s = sl.new_game("packet_row", players=4, decks=stacked_decks(top={"market": ["tobacco1", "guild_church"]}))
    s = rigged(s, 0, hand=["cotton_nl", "cotton3"], ships=["ship_nl"])

A scenario says what lies on the table: each board's supplies and discard pile, each seat's money, hand, ships and
pawn, the round, the harbour master and the phase. What it does not place is hidden and comes from a normal set-up
with its ``seed``: every card of a board it does not place lies in that board's deck (with two players the removed
cards are among them), and each seat whose ``start`` it leaves out holds a secret starting contract dealt from the
ones it does not place. A board's ``next``, a seat's ``start`` and the ``box`` name those hidden parts by hand; they
stay in the scenario (a record keeps them in its hidden set-up) and never show in another seat's view. A wrong
scenario raises :class:`ScenarioError` naming the field, and nothing is built.

``stacked_decks`` and ``rigged`` go through the public set-up and ``to_dict``/``load_state`` instead, so every card
is still in exactly one place and money is conserved (``load_state`` checks both).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ...engine.errors import ScenarioError, shown
from ...engine.events import Event
from ...engine.protocol import load_state
from ...engine.rng import Rng
from ...engine.scenario import SCENARIO_FORMAT, ScenarioReader, in_order, is_count, named_first, scenario_data
from . import setup
from .catalog import BOARDS, Card, Catalog, load_catalog
from .notation import CURRENT, FUTURE, notation_for
from .setup import _blank, _shuffled, check_invariants, deck_cards
from .state import PHASES, Seat, State

#: A Packet Row scenario's own fields (besides format, game, title, text, catalog, players, seed, names).
FIELDS = ("round", "harbour_master", "phase", "boards", "chosen", "to_move", "short", "seats", "box")
BOARD_FIELDS = ("current", "future", "discard", "next")
SEAT_FIELDS = ("money", "hand", "ships", "start", "pawn")
SUPPLIES = ("current", "future")  # by CURRENT, FUTURE
_DEAL = -2  # a seat's ``start`` left out: it holds a secret starting contract dealt by the set-up


def new_game(*, scenario: dict[str, Any] | str | Path | None = None, players: int = 4, seed: int | str = 0,
             first_player: int = 0, decks: Any = None, start_contracts: list[str] | None = None,
             catalog: Any = None, names: list[str] | tuple[str, ...] | None = None) -> State:
    """A new game of Packet Row at its first decision (``setup.new_game``), or from a described position.

    ``scenario``: a dict, or the path of a ``.json`` file read with json only (``docs/record-format.md``,
    *Scenarios*). It holds the players, harbour master, catalogue and names itself; ``seed`` deals what it leaves
    hidden (unless it has a seed of its own), and ``decks`` and ``start_contracts`` are then the whole hidden order
    at its start, as a record keeps them (:func:`scenario_setup`).
    """
    if scenario is None:
        return setup.new_game(players=players, seed=seed, first_player=first_player, decks=decks,
                              start_contracts=start_contracts, catalog=catalog, names=names)
    if players != 4 or first_player != 0 or catalog is not None or names is not None:
        raise ValueError("scenario: give the players, harbour master, catalogue and names inside the scenario, not "
                         "as arguments")
    return build(scenario, seed=seed, decks=decks, start_contracts=start_contracts)[0]


def build(data: Any, *, seed: int | str = 0, decks: Any = None,
          start_contracts: Any = None) -> tuple[State, list[list[str]], list[str]]:
    """The position ``data`` describes (a dict or a ``.json`` path), at its first decision, and its hidden order at
    its start.

    The hidden order: per board (in board order) the cards the scenario does not place, the removed ones first, then the
    order they are drawn in; and the deal of starting contracts (the secret holders' in seat order, then the unused
    ones). ``decks`` and ``start_contracts`` give that order instead of the scenario's ``next``, ``start``, ``box`` and
    seed (a record's set-up keeps them, so it rebuilds the same state). Raises :class:`ScenarioError` naming the
    field; nothing is half-built."""
    return _Builder(scenario_data(data), seed).run(decks, start_contracts)


def scenario_setup(data: Any, seed: int | str = 0) -> dict[str, Any]:
    """The ``new_game`` arguments a record keeps for a game started from ``data``: ``{"scenario": ..., "decks":
    [...], "start_contracts": [...]}``, the hidden order materialized and left out of ``scenario``.

    Left out of ``scenario``: its ``seed``, the ``box``, the boards' ``next`` and the seats' named ``start``
    (:func:`public_part`)."""
    data = scenario_data(data)
    _state, decks, start = build(data, seed=seed)
    return {"scenario": public_part(data), "decks": decks, "start_contracts": start}


def public_part(data: dict[str, Any]) -> dict[str, Any]:
    """A checked scenario without what it says of the hidden order (``seed``, ``box``, the boards' ``next``, the
    seats' named ``start``; a ``start`` of null, no starting contract, is public): a copy."""
    out: dict[str, Any] = json.loads(json.dumps({k: v for k, v in data.items() if k not in ("seed", "box")}))
    for spec in (out.get("boards") or {}).values():
        if isinstance(spec, dict):
            spec.pop("next", None)
    for spec in out.get("seats") or ():
        if isinstance(spec, dict) and spec.get("start") is not None:
            del spec["start"]
    return out


class _Builder(ScenarioReader):
    """One scenario being checked and built (use :func:`build`)."""

    def __init__(self, data: Any, seed: int | str) -> None:
        super().__init__(data, game="packet_row", fields=FIELDS, seed=seed, load_catalog=load_catalog)
        self.nt = notation_for(self.cat)
        self.left = Counter({c.idx: c.count for c in self.cat.cards})  # the copies of each card not placed yet
        self.at: dict[int, list[str]] = {}  # card -> the fields that placed its copies

    def run(self, decks: Any, start: Any) -> tuple[State, list[list[str]], list[str]]:
        d = self.data
        self.round = self.number("round", d.get("round", 1), low=1)
        self.hm = self.seat("harbour_master", d.get("harbour_master", 0))
        self.phase = self.one_of("phase", d.get("phase", "choose"), PHASES)
        self._supplies()
        self._seats()
        boxed = self.entries("box", d.get("box"))
        self.box = [self._card(f"box[{k}]", x, start=True).idx for k, x in enumerate(boxed)]
        order = self._decks(decks)
        deal = self._deal(start)
        self._turn()
        st = self._state()
        self._start(st)
        problems = check_invariants(st)
        if problems:
            raise ScenarioError("", "the position is not one the rules allow: " + "; ".join(problems[:3]))
        ids = self.nt.ids
        return st, [[ids[c] for c in o] for o in order], [ids[c] for c in deal]

    # ---- cards ----------------------------------------------------------------------------------------------

    def _card(self, field: str, value: Any, *, board: str | None = None, start: bool | None = False) -> Card:
        """The card ``value`` names, one copy of it placed at ``field``: a known id, of ``board`` when given, a
        starting contract or not as ``start`` says (None: either), and a copy of it not placed yet."""
        card: Card = self.card_of(field, value)
        if board is not None and card.board != board:
            raise ScenarioError(field, f"card {value!r} belongs to the {card.board} board, not the {board}")
        if start is not None and card.start != start:
            raise ScenarioError(field, f"card {value!r} is not a starting contract" if start else
                                f"card {value!r} is a starting contract: a seat holds it ('start'), or it lies in "
                                "'boards.guild.discard' (fulfilled) or the 'box' (unused)")
        if not self.left[card.idx]:
            copies = "one copy" if card.count == 1 else f"{card.count} copies"
            places = ", ".join(f"'{f}'" for f in self.at[card.idx])
            raise ScenarioError(field, f"the game has {copies} of {value!r}, placed already at {places}; a card "
                                       "cannot be in two places")
        self.left[card.idx] -= 1
        self.at.setdefault(card.idx, []).append(field)
        return card

    def _supplies(self) -> None:
        """Each board's current and future supply (None: dealt from its deck) and its discard pile."""
        nt, n = self.nt, self.n
        boards = self.section("boards", self.data.get("boards"), BOARDS)
        self.rows: list[list[list[int] | None]] = []
        self.discards: list[tuple[int, ...]] = []
        self.next: list[Any] = []
        for name in BOARDS:
            where = f"boards.{name}"
            spec = self.section(where, boards.get(name), BOARD_FIELDS)
            self.rows.append([self._row(f"{where}.{supply}", spec.get(supply), slots, name)
                              for supply, slots in zip(SUPPLIES, (nt.current_size[n], nt.future_size), strict=True)])
            pile = self.entries(f"{where}.discard", spec.get("discard"))
            self.discards.append(tuple(self._card(f"{where}.discard[{k}]", x, board=name, start=None).idx
                                       for k, x in enumerate(pile)))
            self.next.append(spec.get("next"))

    def _row(self, field: str, value: Any, slots: int, board: str) -> list[int] | None:
        """A supply's slots as card indices (-1: empty); None when the scenario leaves it to the deck."""
        if value is None:
            return None
        row = self.entries(field, value)
        if len(row) > slots:
            raise ScenarioError(field, f"the supply has {slots} slot(s) with {self.n} players, not {len(row)}")
        out = [-1 if x is None else self._card(f"{field}[{k}]", x, board=board).idx for k, x in enumerate(row)]
        return out + [-1] * (slots - len(out))

    def _seats(self) -> None:
        """Each seat's money, hand, ships, starting contract (a card, None, or dealt) and pawn (checked later)."""
        raw = self.data.get("seats")
        seats = [{}] * self.n if raw is None else self.entries("seats", raw)
        if len(seats) != self.n:
            raise ScenarioError("seats", f"give one entry per player ({self.n}), not {len(seats)}")
        self.money: list[int] = []
        self.hands: list[list[int]] = []
        self.ships: list[list[int]] = []
        self.start: list[int | None] = []
        self.pawns: list[Any] = []
        for i, s in enumerate(seats):
            where = f"seats[{i}]"
            spec = self.section(where, s, SEAT_FIELDS)
            self.money.append(self.number(f"{where}.money", spec.get("money", self.nt.money), low=0))
            hand = []
            for k, x in enumerate(self.entries(f"{where}.hand", spec.get("hand"))):
                card = self._card(f"{where}.hand[{k}]", x)
                if card.kind == "ship":
                    raise ScenarioError(f"{where}.hand[{k}]", f"card {x!r} is a ship; ships lie open in "
                                                              f"'{where}.ships'")
                hand.append(card.idx)
            ships = []
            for k, x in enumerate(self.entries(f"{where}.ships", spec.get("ships"))):
                card = self._card(f"{where}.ships[{k}]", x)
                if card.kind != "ship":
                    raise ScenarioError(f"{where}.ships[{k}]", f"card {x!r} is a {card.kind}, not a ship; it goes in "
                                                               f"'{where}.hand'")
                ships.append(card.idx)
            if "start" not in spec:
                start: int | None = _DEAL
            else:
                start = None if spec["start"] is None else self._card(f"{where}.start", spec["start"], start=True).idx
            self.hands.append(hand)
            self.ships.append(ships)
            self.start.append(start)
            self.pawns.append(spec.get("pawn"))

    # ---- the hidden order -----------------------------------------------------------------------------------

    def _decks(self, whole: Any) -> list[list[int]]:
        """Each board's deck and removed cards: the cards the scenario does not place, ``next`` first, then in the
        seed's order (or a record's whole order); the supplies it leaves out are dealt from them. Returns each
        board's order at the start, removed cards first (``new_game``'s order of a deck)."""
        nt, n = self.nt, self.n
        rem = nt.removed_count.get(n, 0)
        if isinstance(whole, dict) and set(whole) == set(BOARDS):  # by board, as new_game's decks may be given
            whole = [whole[name] for name in BOARDS]
        if whole is not None and (not isinstance(whole, list) or len(whole) != len(BOARDS)):
            raise ScenarioError("decks", f"must be {len(BOARDS)} lists of card ids, one per board {list(BOARDS)}")
        self.decks: list[tuple[int, ...]] = []
        self.removed: list[tuple[int, ...]] = []
        order = []
        for b, name in enumerate(BOARDS):
            pool = Counter({c.idx: self.left[c.idx] for c in self.cat.deck(name) if self.left[c.idx]})
            size = sum(pool.values())
            if size < rem:
                raise ScenarioError(f"boards.{name}", f"with {n} players {rem} cards of each deck stay out of the game "
                                                      f"unseen, but only {size} card(s) of the {name} board are not "
                                                      "placed elsewhere")
            if whole is not None:
                if self.next[b] is not None:
                    raise ScenarioError(f"boards.{name}.next", "the record's 'decks' give the whole order; leave this "
                                                               "out")
                what = f"the {name} board's cards the scenario does not place"
                seq = self._whole(f"decks[{b}]", whole[b], pool, what)
                removed, draw = seq[:rem], seq[rem:]
            else:
                seeded = in_order(_shuffled(self.cat, name, self.seed), pool)
                seeded = [*seeded[rem:], *seeded[:rem]]  # nothing placed: removed and dealt as new_game does
                seq = named_first(self._named(f"boards.{name}.next", self.next[b], pool, name), seeded)
                draw, removed = seq[: size - rem], seq[size - rem:]
            order.append([*removed, *draw])
            rows = self.rows[b]
            for k, slots in enumerate((nt.current_size[n], nt.future_size)):
                if rows[k] is None:
                    dealt, draw = draw[:slots], draw[slots:]
                    rows[k] = [*dealt, *[-1] * (slots - len(dealt))]
            self.decks.append(tuple(draw))
            self.removed.append(tuple(removed))
        return order

    def _named(self, field: str, value: Any, pool: Counter[int], board: str) -> list[int]:
        """A board's ``next``: cards of its deck that the scenario places nowhere else, at most as many as there are."""
        left = Counter(pool)
        out = []
        for k, x in enumerate(self.entries(field, value)):
            at = f"{field}[{k}]"
            card = self.card_of(at, x)
            if card.board != board or card.start:
                raise ScenarioError(at, f"card {x!r} is not a card of the {board} deck")
            if not left[card.idx]:
                if not pool[card.idx]:
                    places = ", ".join(f"'{f}'" for f in self.at.get(card.idx, ()))
                    raise ScenarioError(at, f"card {x!r} is at {places}, not in the {board} deck")
                raise ScenarioError(at, f"card {x!r} is named {out.count(card.idx) + 1} times, but only "
                                        f"{pool[card.idx]} of its copies are in the {board} deck")
            left[card.idx] -= 1
            out.append(card.idx)
        return out

    def _whole(self, field: str, value: Any, pool: Counter[int], what: str) -> list[int]:
        """A record's whole order of ``pool``: card ids, each as often as ``pool`` holds it."""
        by_id = self.cat.by_id
        if not isinstance(value, list) or not all(isinstance(x, str) and x in by_id for x in value):
            raise ScenarioError(field, f"must be a list of card ids: {what}")
        got = Counter(by_id[x].idx for x in value)
        if got != pool:
            ids = self.nt.ids
            missing = sorted(ids[c] for c in (pool - got).elements())
            extra = sorted(ids[c] for c in (got - pool).elements())
            raise ScenarioError(field, f"must list {what} (missing {missing[:5]}, extra {extra[:5]})")
        return [by_id[x].idx for x in value]

    def _deal(self, whole: Any) -> list[int]:
        """The starting contracts of the seats that hold a secret one not named and the box: from a record's deal,
        or the seed's (the named ``box`` first). Returns the whole deal: the holders' in seat order, then the box."""
        unplaced = Counter({c.idx: 1 for c in self.cat.start_contracts if self.left[c.idx]})
        holders = [i for i, s in enumerate(self.start) if s == _DEAL]
        if whole is not None:
            if self.box:
                raise ScenarioError("box", "the record's 'start_contracts' give the whole deal; leave this out")
            seq = self._whole("start_contracts", whole, unplaced, "the starting contracts the scenario does not place")
            if len(seq) < len(holders):
                raise ScenarioError("start_contracts", f"{len(holders)} seats hold a secret starting contract, but it "
                                                       f"lists {len(seq)}")
            dealt, box = seq[: len(holders)], seq[len(holders):]
        else:
            order = [c.idx for c in self.cat.start_contracts]
            Rng(self.seed, "start").shuffle(order)  # nothing placed: the deal new_game makes
            rest = in_order(order, unplaced)
            if len(rest) < len(holders):
                raise ScenarioError(f"seats[{holders[len(rest)]}].start", "every starting contract is placed already, "
                                    "none is left to deal to this seat: name one, or give null (it holds none)")
            dealt, box = rest[: len(holders)], [*self.box, *rest[len(holders):]]
        for i, c in zip(holders, dealt, strict=True):
            self.start[i] = c
        self.box = box
        return [*(c for c in self.start if c is not None), *box]

    # ---- the round ------------------------------------------------------------------------------------------

    def _turn(self) -> None:
        """Chosen and short boards, pawns, the seat to move and those in line, each checked against the phase."""
        d, phase = self.data, self.phase
        self.chosen = self._boards("chosen", d.get("chosen"))
        self.short = self._boards("short", d.get("short"))
        ended = phase in ("final", "over")
        threshold = self.nt.end_boards[self.n]
        if ended and len(self.short) < threshold:
            raise ScenarioError("short", f"the game ends once {threshold} board(s) cannot fill their current supply: "
                                         f"list them here (the {phase} phase)")
        if not ended and len(self.short) >= threshold:
            raise ScenarioError("short", f"{len(self.short)} board(s) cannot fill their current supply, so the game "
                                         "has ended: the phase is 'final' or 'over'")
        for k, b in enumerate(self.short):
            if self.decks[b]:
                raise ScenarioError(f"short[{k}]", f"the {BOARDS[b]} board counts as one that cannot be filled, but "
                                                   f"{len(self.decks[b])} of its cards are not placed (they lie in its "
                                                   "deck); put them in its 'discard' or elsewhere")
        if self.chosen and phase != "decide":
            raise ScenarioError("chosen", "boards are chosen during a round's decisions: only in the decide phase")
        if phase == "decide" and not self.chosen:
            raise ScenarioError("chosen", "give the boards chosen this round, in order: the last is the board the "
                                          "seats decide on now")
        self.pawn_at = self._pawns()
        self.to_move, self.pending = self._in_line(d.get("to_move"))
        if not ended:  # at the end the boards after the last one refilled keep their empty slots
            self._empty_slots()

    def _boards(self, field: str, value: Any) -> tuple[int, ...]:
        out: list[int] = []
        for k, x in enumerate(self.entries(field, value)):
            if not isinstance(x, str) or x not in BOARDS:
                raise ScenarioError(f"{field}[{k}]", f"must be a board ({', '.join(BOARDS)}), not {shown(x)}")
            if BOARDS.index(x) in out:
                raise ScenarioError(f"{field}[{k}]", f"board {x!r} is named twice")
            out.append(BOARDS.index(x))
        return tuple(out)

    def _pawns(self) -> list[tuple[int, int, int] | None]:
        """Where each seat's pawn stands: on the empty slot of a chosen board it took its card from this round."""
        out: list[tuple[int, int, int] | None] = []
        taken: dict[tuple[int, int, int], int] = {}
        for i, raw in enumerate(self.pawns):
            field = f"seats[{i}].pawn"
            if raw is None:
                out.append(None)
                continue
            if self.phase != "decide":
                raise ScenarioError(field, "a pawn marks the card a seat took this round: only in the decide phase")
            if i == self.hm:
                raise ScenarioError(field, "the harbour master takes last, and his card ends the round: his pawn is "
                                           "never out")
            if not (isinstance(raw, list) and len(raw) == 3 and raw[0] in BOARDS and raw[1] in SUPPLIES
                    and is_count(raw[2])):
                raise ScenarioError(field, 'must be null or [board, "current" or "future", slot]')
            b, where, slot = BOARDS.index(raw[0]), SUPPLIES.index(raw[1]), raw[2]
            row = self.rows[b][where]
            assert row is not None
            if b not in self.chosen:
                raise ScenarioError(field, f"the {raw[0]} board was not chosen this round ('chosen')")
            if not 0 <= slot < len(row):
                raise ScenarioError(field, f"the {raw[0]} {raw[1]} supply has the slots 0..{len(row) - 1}")
            if row[slot] >= 0:
                raise ScenarioError(field, f"slot {slot} of the {raw[0]} {raw[1]} supply holds "
                                           f"{self.nt.ids[row[slot]]!r}; a pawn stands where its seat took a card (an "
                                           "empty slot, null)")
            if (b, where, slot) in taken:
                raise ScenarioError(field, f"seat {taken[b, where, slot]}'s pawn stands there already")
            taken[b, where, slot] = i
            out.append((b, where, slot))
        return out

    def _in_line(self, raw: Any) -> tuple[int | None, tuple[int, ...]]:
        """The seat to move and the seats still to decide in this phase (the harbour master last)."""
        n, hm, phase = self.n, self.hm, self.phase
        order = [(hm + k) % n for k in range(1, n)]  # clockwise from the harbour master's left
        if phase in ("choose", "over"):
            if raw is not None and (phase == "over" or raw != hm):
                raise ScenarioError("to_move", "nobody is to move once the game is over" if phase == "over" else
                                    "the harbour master chooses a board: leave this out in the choose phase")
            return (hm if phase == "choose" else None), ()
        if phase == "final":
            line = [*order, hm]
            seat = line[0] if raw is None else self.seat("to_move", raw)
            return seat, tuple(line[line.index(seat):])
        free = [i for i in order if self.pawn_at[i] is None]
        seat = (free[0] if free else hm) if raw is None else self.seat("to_move", raw)
        if self.pawn_at[seat] is not None:
            raise ScenarioError("to_move", f"seat {seat} took a card this round already (its 'pawn'); a seat takes "
                                           "one card a round")
        later = order[order.index(seat):] if seat != hm else []
        board = self.chosen[-1]
        for i in later:
            pawn = self.pawn_at[i]
            if pawn is not None and pawn[0] == board:
                raise ScenarioError(f"seats[{i}].pawn", f"seat {i} took its card from the board the seats decide on "
                                                        f"now ({BOARDS[board]}), so it decided before seat {seat}, "
                                                        "who is to move; seats decide clockwise from the harbour "
                                                        "master's left")
        return seat, (*(i for i in later if self.pawn_at[i] is None), hm)

    def _empty_slots(self) -> None:
        """An empty slot is one a pawn stands on, or one the last refill could not fill (an empty deck)."""
        pawned = {p for p in self.pawn_at if p is not None}
        for b, name in enumerate(BOARDS):
            for where, supply in enumerate(SUPPLIES):
                row = self.rows[b][where]
                assert row is not None
                for k, c in enumerate(row):
                    if c >= 0 or (b, where, k) in pawned:
                        continue
                    if where == CURRENT and b not in self.short:
                        why = f"the {name} board is not in 'short'"
                    elif where == FUTURE and self.decks[b]:
                        why = f"{len(self.decks[b])} of the {name} board's cards are not placed (they lie in its deck)"
                    else:
                        continue
                    raise ScenarioError(f"boards.{name}.{supply}[{k}]", "an empty slot is one a seat took a card "
                                        "from this round (a 'pawn' stands on it) or one the refill could not fill, "
                                        f"but {why}")

    # ---- the state ------------------------------------------------------------------------------------------

    def _state(self) -> State:
        nt, n = self.nt, self.n
        seats = []
        for i in range(n):
            seat = Seat(self.money[i])
            start = self.start[i]
            seat.hand = tuple(sorted((*self.hands[i], *(() if start is None else (start,)))))
            seat.ships = tuple(sorted(self.ships[i]))
            seat.pawn = self.pawn_at[i]
            seats.append(seat)
        # every field not given here takes its declared default (fields.py); one without a default is a TypeError
        return _blank(self.cat, names=self.names, n_players=n, round=self.round,
                      phase="final" if self.phase == "over" else self.phase,  # the end is scored by the rules (_start)
                      hm=self.hm, to_move=self.to_move, decks=tuple(self.decks), removed=tuple(self.removed),
                      current=tuple(tuple(r[CURRENT]) for r in self.rows),  # type: ignore[index]
                      future=tuple(tuple(r[FUTURE]) for r in self.rows),  # type: ignore[index]
                      discard=tuple(self.discards), box=tuple(self.box), chosen=self.chosen,
                      board=self.chosen[-1] if self.chosen else -1, pending=self.pending, short=self.short,
                      bank=nt.money * n - sum(self.money),  # the general supply's balance: money is conserved
                      seats=seats)

    def _start(self, st: State) -> None:
        """The events that set the scene, then the steps without a choice up to the first decision (or the end)."""
        ev: list[Event] = []
        ids, start = self.nt.ids, self.nt.start
        if self.phase == "choose":
            ev.append(Event("pr_round", {"round": st.round, "seat": st.hm}))
        elif self.phase in ("final", "over"):
            ev.append(Event("pr_game_ends", {"boards": [BOARDS[b] for b in st.short]}))
            ev += [Event("pr_reveal", {"seat": i, "card": ids[c]})
                   for i, s in enumerate(st.seats) for c in s.hand if start[c]]
        st._advance(ev)
        st.events = tuple(ev)


# ---- a position as a scenario ------------------------------------------------------------------------------


def scenario_of(state: State, *, hidden: bool = False) -> dict[str, Any]:
    """``state``'s position as a scenario (JSON-ready): ``new_game("packet_row", scenario=scenario_of(state))`` gives
    the same public position at the same decision.

    ``hidden``: also name the hidden order (each board's ``next``: its deck top first, then with two players the
    removed cards; every secret ``start``; the ``box``), so the game goes on exactly as it would from ``state``;
    without it the scenario's ``seed`` deals what is secret. Once the hands are shown (the final phase and the end)
    the starting contracts are named either way. On an observation it names the observation's placeholders.
    """
    ids, n = state.nt.ids, state.n_players

    def cards(row: Sequence[int]) -> list[str | None]:
        return [ids[c] if c >= 0 else None for c in row]

    out: dict[str, Any] = {"format": SCENARIO_FORMAT, "game": "packet_row", "players": n}
    if state.names:
        out["names"] = list(state.names)
    if not state.cat.is_default:
        out["catalog"] = state.cat.raw
    out.update({"round": state.round, "harbour_master": state.hm, "phase": state.phase})
    boards: dict[str, Any] = {}
    for b, name in enumerate(BOARDS):
        spec: dict[str, Any] = {"current": cards(state.current[b]), "future": cards(state.future[b])}
        if state.discard[b]:
            spec["discard"] = cards(state.discard[b])
        if hidden:
            spec["next"] = cards((*state.decks[b], *state.removed[b]))
        boards[name] = spec
    out["boards"] = boards
    if state.phase == "decide":
        out["chosen"] = [BOARDS[b] for b in state.chosen]
    if state.phase in ("decide", "final"):
        out["to_move"] = state.to_move
    if state.short:
        out["short"] = [BOARDS[b] for b in state.short]
    out["seats"] = [_seat_of(state, i, hidden or state.revealed) for i in range(n)]
    if hidden:
        out["box"] = cards(state.box)
    return out


def _seat_of(state: State, i: int, named: bool) -> dict[str, Any]:
    """A seat's holdings as a scenario writes them (its starting contract only when ``named``)."""
    nt = state.nt
    s = state.seats[i]
    out: dict[str, Any] = {"money": s.money}
    hand = [nt.ids[c] for c in s.hand if not nt.start[c]]
    if hand:
        out["hand"] = hand
    if s.ships:
        out["ships"] = [nt.ids[c] for c in s.ships]
    start = [nt.ids[c] for c in s.hand if nt.start[c]]
    if not start:
        out["start"] = None
    elif named:
        out["start"] = start[0]
    if s.pawn is not None:
        out["pawn"] = [BOARDS[s.pawn[0]], SUPPLIES[s.pawn[1]], s.pawn[2]]
    return out


# ---- stacked decks and rigged holdings (tests, notebooks) --------------------------------------------------


def stacked_decks(top: Mapping[str, Sequence[str]] | None = None, *,
                  bottom: Mapping[str, Sequence[str]] | Sequence[str] | None = None,
                  catalog: str | dict[str, Any] | Catalog | None = None) -> dict[str, list[str]]:
    """The four decks for ``new_game(decks=...)``, rigged: named cards on top or at the bottom.

    ``top[board]`` first in that order (with two players the first 6 of each deck are the ones removed unseen), then the
    board's other cards in catalogue order, then ``bottom`` (per board, or a list of ids each going to its own board)
    last, e.g. for :func:`rigged`."""
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
