"""Packet Row: the state and every rule.

A :class:`State` is immutable from the outside: ``apply`` clones it by hand (copy-on-write for the per-seat
data) and runs the rule for the action on the clone, then carries out every step without a real decision
(forced declines, the refill of the chosen boards, the harbour master passing on, the end of the game and
its scoring) until a seat must decide or the game is over. Cards are card *type* indices inside (identical
cards are interchangeable); ids and names appear only at the edges.

What is secret (``docs/packet-row-notes.md``): the order of the four decks (and, with two players, which
cards were removed), the unused starting contracts, and each seat's starting contract until it is
fulfilled or the game ends. Every other card in a hand was taken from an open supply, so a player with a
perfect memory knows it: the lab treats it as public. Whether the engine asks a seat or decides for it
depends on public facts only (a seat whose secret contract *might* be fulfillable is asked whatever it is),
so being asked never tells the others anything.
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ...engine.actions import Action
from ...engine.basestate import BaseState, Rule, SeatBase, SeatViewBase
from ...engine.errors import IllegalAction, RearrangeError, rearrange_texts
from ...engine.events import Event
from ...engine.events import make_event as _ev
from ...engine.i18n import load_messages, messages
from ...engine.rng import Rng
from .catalog import BOARDS
from .fields import SEAT_FIELDS, STATE_FIELDS
from .fulfil import Option
from .notation import (
    CURRENT,
    FUTURE,
    ROLE_CAPTAIN,
    ROLE_CONTRACT,
    ROLE_ITEM,
    ROLE_MERCHANT,
    ROLE_MONEY,
    ROLE_START,
    Notation,
)

STATE_FORMAT = "speicherstadt-lab/packet-row-state/1"
PHASES = ("choose", "decide", "final", "over")
load_messages("packet_row")

_AND = {"en": " and ", "de": " und "}


def _put(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    """``t`` with item ``i`` replaced (states share these tuples instead of copying lists)."""
    return (*t[:i], v, *t[i + 1:])


def _without(t: tuple[int, ...], items: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    """The sorted multiset ``t`` minus ``items`` (each must be there)."""
    rest = list(t)
    for x in items:
        rest.remove(x)
    return tuple(rest)


def _join(items: list[str], lang: str) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + _AND[lang] + items[-1]


class Seat(SeatBase, schema=SEAT_FIELDS):
    """One seat's holdings. Shared between states until a rule changes it (copy-on-write). Its fields are declared
    in ``fields.py`` (SEAT_FIELDS), with what each means."""

    money: int
    hand: tuple[int, ...]
    ships: tuple[int, ...]
    pawn: tuple[int, int, int] | None

    def __init__(self, money: int) -> None:
        SEAT_FIELDS.fill(self)  # every field its declared default
        self.money = money


class SeatView(SeatViewBase):
    """Read-only view of a seat with ids, for users: ``state.player(seat)`` (the full state: secrets too)."""

    def __init__(self, state: State, seat: int) -> None:
        super().__init__(state, seat)
        s = state.seats[seat]
        ids = state.nt.ids
        self.money = s.money
        self.hand = tuple(ids[c] for c in s.hand)
        self.ships = tuple(ids[c] for c in s.ships)
        self.cards = self.hand + self.ships
        self.pawn = None if s.pawn is None else (BOARDS[s.pawn[0]], ("current", "future")[s.pawn[1]], s.pawn[2])

    def __repr__(self) -> str:
        return f"<seat {self.seat} {self.name}: ${self.money}, {len(self.hand)} in hand, {len(self.ships)} ships>"


class State(BaseState, game="packet_row", title="Packet Row", state_format=STATE_FORMAT, seat_texts="pr_seat",
            seat_view=SeatView, seat_type=Seat, schema=STATE_FIELDS):
    """A position in a game of Packet Row. See ``docs/notation.md`` and ``docs/packet-row-notes.md``."""

    # the fields of a position, declared once in fields.py (STATE_FIELDS): slots, clone, state file, set-up
    nt: Notation
    hm: int
    decks: tuple[tuple[int, ...], ...]
    removed: tuple[tuple[int, ...], ...]
    current: tuple[tuple[int, ...], ...]
    future: tuple[tuple[int, ...], ...]
    discard: tuple[tuple[int, ...], ...]
    box: tuple[int, ...]
    chosen: tuple[int, ...]
    board: int
    pending: tuple[int, ...]
    short: tuple[int, ...]
    bank: int

    # -- protocol -------------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action the seat to move may take (≥ 2, except where ``asked_for_secrecy``)."""
        if self._legal is None:
            self._legal = self._options(public=False) if self.to_move is not None else ()
        return list(self._legal)

    def _rule_for(self, a: Action) -> Rule:
        """The rule for ``a`` in this phase, or the refusal (the game is over, or not the verb's phase)."""
        rule = _RULES.get(a.kind)
        if self.phase == "over":
            raise self._illegal("pr.over", a)
        if rule is None or self.phase not in rule[0]:
            raise self._illegal("pr.phase", a, verb=a.kind, en_phase=self._phase_name("en"),
                                de_phase=self._phase_name("de"))
        return rule[1]

    def _illegal(self, rule: str, action: Action | str | None = None, **params: Any) -> IllegalAction:
        """The refusal; board, destination, good and card parameters also come named (``en_board``, ...)."""
        for key in ("board", "dest", "good", "current"):
            if key in params and isinstance(params[key], str):
                word = "board" if key == "current" else key
                params[f"en_{key}"] = self._word(word, params[key], "en")
                params[f"de_{key}"] = self._word(word, params[key], "de")
        if "supply" in params:
            params["en_supply"] = params["supply"]
            params["de_supply"] = {"current": "aktuellen", "future": "zukünftigen"}[params["supply"]]
        if "boards" in params:
            for lang in ("en", "de"):
                params[f"{lang}_boards"] = _join([self._word("board", b, lang) for b in params["boards"]], lang)
        if "card" in params:
            params["en_card"] = self.card_name(params["card"], "en")
            params["de_card"] = self.card_name(params["card"], "de")
        text = messages.rule_text(rule, "en", params) or rule
        return IllegalAction(rule, text, action=str(action) if action is not None else None, **params)

    def _phase_name(self, lang: str) -> str:
        return messages.text("pr_phase", self.phase, lang, {})

    # -- names ----------------------------------------------------------------------------------

    def _word(self, key: str, value: str, lang: str) -> str:
        cat = self.cat
        table = {"board": cat.boards, "dest": cat.dests, "good": cat.goods}[key]
        for x in table:
            if x.id == value:
                return x.name(lang)
        return value

    def card_name(self, card: str, lang: str = "en") -> str:
        """A card's name in ``lang``: its own (buildings), else made from its values by the ``pr_name`` texts
        (``contract: 2 grain → Liverpool ($5)``)."""
        c = self.cat.by_id.get(card)
        if c is None:
            return card
        if c.kind in ("building",) or c.en is not None:
            return (c.de if lang == "de" else c.en) or card
        args = {"amount": c.amount, "bars": c.bars, "value": c.value, "pays": c.pays,
                "good": self._word("good", c.good, lang) if c.good else "",
                "dest": self._word("dest", c.dest, lang) if c.dest else ""}
        key = "start_contract" if c.start else c.kind
        return messages.text("pr_name", key, lang, args)

    def good_name(self, good: str, lang: str = "en") -> str:
        """A good's name in ``lang``, from its id."""
        return self._word("good", good, lang)

    def deck_name(self, deck: str, lang: str = "en") -> str:
        """The name in ``lang`` of a deck of ``hidden_parts()["decks"]``: its board's (``guild``: Guild Hall)."""
        return self._word("board", deck, lang)

    def describe(self, event: Event, lang: str = "en") -> str:
        """An event in plain language (boards and destinations by name)."""
        args = dict(event.args)
        for k, v in event.args.items():
            for prefix, key in (("board", "board"), ("dest", "dest")):
                if k.startswith(prefix):
                    args[k] = _join([self._word(key, x, lang) for x in v], lang) if isinstance(v, list) \
                        else self._word(key, v, lang)
        return messages.text("pr_event", event.key, lang, args, self)

    # -- public read-only surface ---------------------------------------------------------------

    @property
    def harbour_master(self) -> int:
        """The seat of this round's harbour master (chooses the boards, takes last)."""
        return self.hm

    @property
    def money(self) -> tuple[int, ...]:
        """Every seat's money, by seat (money cards in hand not counted)."""
        return tuple(s.money for s in self.seats)

    def supply(self, board: str) -> dict[str, Any]:
        """A board's open cards: ``current`` and ``future`` slots (card id or None), the deck size."""
        b = self.nt.board_index[board]
        ids = self.nt.ids
        return {"current": tuple(ids[c] if c >= 0 else None for c in self.current[b]),
                "future": tuple(ids[c] if c >= 0 else None for c in self.future[b]),
                "deck": len(self.decks[b]), "discard": tuple(ids[c] for c in self.discard[b])}

    @property
    def chosen_boards(self) -> tuple[str, ...]:
        """The boards chosen this round, in the order they were chosen."""
        return tuple(BOARDS[b] for b in self.chosen)

    @property
    def current_board(self) -> str | None:
        """The board whose supply the seats are deciding on now (None outside the decide phase)."""
        return BOARDS[self.board] if self.board >= 0 else None

    @property
    def short_boards(self) -> tuple[str, ...]:
        """Boards whose current supply could not be filled (in the order it happened)."""
        return tuple(BOARDS[b] for b in self.short)

    @property
    def revealed(self) -> bool:
        """From the end of play on every hand is shown (scoring counts the cards): nothing is secret."""
        return self.phase in ("final", "over")

    # -- legal actions --------------------------------------------------------------------------

    def _has_cards(self, b: int) -> bool:
        # max() in C rather than any() over a generator (an empty slot is -1): ~4x cheaper, asked ~8 times a move
        return max(self.current[b], default=-1) >= 0

    def _others_all_took(self) -> bool:
        hm = self.hm
        # a loop rather than all() over a generator: asked ~3 times a move, 620 -> 130 ns (timeit, 3 seats)
        for i, s in enumerate(self.seats):  # noqa: SIM110 - the generator is the slower way
            if s.pawn is None and i != hm:
                return False
        return True

    def _open_boards(self) -> list[int]:
        """Boards the harbour master may still choose: not chosen this round, a card in the current supply."""
        chosen = self.chosen
        return [b for b, row in enumerate(self.current) if b not in chosen and max(row, default=-1) >= 0]

    def _take_actions(self, b: int, s: Seat) -> list[Action]:
        nt = self.nt
        cost, money, acts = nt.cost, s.money, nt.TAKE[b]
        row = acts[CURRENT]
        out = [row[i] for i, c in enumerate(self.current[b]) if c >= 0 and cost[c] <= money]
        if nt.single["assistant"] in s.hand:
            row = acts[FUTURE]
            out += [row[i] for i, c in enumerate(self.future[b]) if c >= 0 and cost[c] <= money]
        return out

    def _options(self, public: bool) -> tuple[Action, ...]:
        """The legal actions of the seat to move; ``public``: as everyone can tell (without its secret card)."""
        cards, tail, secret = self._option_parts()
        s = self.seats[self.to_move]  # type: ignore[index]
        return (*cards, *self._fulfil_actions(s, public and secret), *tail)

    def _option_parts(self) -> tuple[list[Action], list[Action], bool]:
        """(card decisions, cash or done, whether the mover holds a secret): a decision's parts besides fulfilling."""
        cards, tail, secret, _, _ = self._option_split()
        return cards, list(tail), secret

    def _option_split(self) -> tuple[list[Action], tuple[Action, ...], bool, bool, bool]:
        """``_option_parts`` and whether the mover's hand holds a contract and goods or gold (as everyone can tell,
        and in full): without both it has nothing to fulfil, and ``_fulfils`` is not asked."""
        nt = self.nt
        ph = self.phase
        seat = self.to_move
        assert seat is not None
        s = self.seats[seat]
        out: list[Action] = []
        if ph == "choose":
            out += [nt.CHOOSE[b] for b in self._open_boards()]
        elif ph == "decide":
            if seat != self.hm:
                out += self._take_actions(self.board, s)
                out.append(nt.DECLINE)
            elif self._others_all_took():
                for b in [self.board, *self._open_boards()]:
                    out += self._take_actions(b, s)
                out.append(nt.PASS)
            else:
                out += self._take_actions(self.board, s)
                rest = self._open_boards()
                out += [nt.CHOOSE[b] for b in rest] if rest else [nt.PASS]
        # the cash actions, the secret and what could be fulfilled, remembered by hand (the hand's loop was ~1/4 of
        # the legal actions' cost)
        hit = nt.tail_cache.get(s.hand)
        if hit is None:
            role = nt.role
            secret = contract = item = False
            values = []
            for c in s.hand:
                r = role[c]
                if r == ROLE_MONEY:
                    values.append(nt.value[c])
                elif r == ROLE_START:
                    secret = True
                elif r == ROLE_CONTRACT:
                    contract = True
                elif r == ROLE_ITEM:
                    item = True
            hit = (tuple(nt.cash(v) for v in sorted(set(values))), secret, contract and item,
                   (contract or secret) and item)
            if len(nt.tail_cache) > 50000:
                nt.tail_cache.clear()
            nt.tail_cache[s.hand] = hit
        if ph == "final":
            return out, (nt.DONE,), False, hit[2], hit[3]
        return out, *hit

    def _hand_parts(self, s: Seat, public: bool) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int, int]:
        """(contracts, goods and gold, ship destinations, captains, merchants) of a hand (``public``: without
        its starting contract)."""
        role = self.nt.role
        contracts: list[int] = []
        items: list[int] = []
        captains = merchants = 0
        for c in s.hand:
            r = role[c]
            if r == ROLE_CONTRACT or (r == ROLE_START and not public):
                contracts.append(c)
            elif r == ROLE_ITEM:
                items.append(c)
            elif r == ROLE_CAPTAIN:
                captains += 1
            elif r == ROLE_MERCHANT:
                merchants += 1
        dest = self.nt.dest
        return tuple(contracts), tuple(items), tuple(sorted(dest[c] for c in s.ships)), captains, merchants

    def _fulfil_options(self, s: Seat, public: bool) -> tuple[Option, ...]:
        return self._fulfils(s, public)[0]

    def _fulfils(self, s: Seat, public: bool) -> tuple[tuple[Option, ...], tuple[Action, ...]]:
        """The fulfilments a hand allows and their actions (cached by the hand: hot path)."""
        cache = self.nt.hand_cache
        key = (s.hand, s.ships, public)
        hit = cache.get(key)
        if hit is None:
            contracts, items, ships, captains, merchants = self._hand_parts(s, public)
            options = () if not contracts or not items or not ships else \
                self.nt.tables.options(contracts, items, ships, captains, merchants)
            f = self.nt.fulfil
            hit = (options, tuple(f(o) for o in options))
            if len(cache) > 50000:
                cache.clear()
            cache[key] = hit
        return hit

    def _fulfil_actions(self, s: Seat, public: bool) -> tuple[Action, ...]:
        return self._fulfils(s, public)[1]

    def _secret_may_fulfil(self, s: Seat) -> bool:
        """Whether, as far as anyone else can tell, the seat's secret starting contract might be fulfillable now.

        Public facts only: the seat's open cards and the multiset of starting contracts nobody has seen (the box
        and every secret one, the seat's own included), which is the same in every deal ``observe``,
        ``determinize`` or ``rearranged`` makes. True when one of them, with the seat's open contracts, cards and
        ships, allows a fulfilment (docs/packet-row-notes.md, entry 9).
        """
        contracts, items, ships, captains, merchants = self._hand_parts(s, public=True)
        if not items or not ships:
            return False
        pool = tuple(sorted(set(self._secret_pool(self._secret_holders(None)))))
        cache = self.nt.secret_cache
        key = (s.hand, s.ships, pool)  # the whole hand keys it; the answer never reads the starting contract
        hit = cache.get(key)
        if hit is None:
            tables = self.nt.tables
            hit = any(tables.options(tuple(sorted((*contracts, c))), items, ships, captains, merchants)
                      for c in pool)
            if len(cache) > 50000:
                cache.clear()
            cache[key] = hit
        return hit

    def asked_for_secrecy(self) -> bool:
        """True when the seat to move is asked although its only visible action is one: its secret starting
        contract might be fulfillable (public facts only), so it is asked whatever that contract is.

        Its legal actions may then be that one action alone (a forced choice nobody else can tell from a free one).
        """
        if self.to_move is None:
            return False
        cards, tail, secret = self._option_parts()
        mover = self.seats[self.to_move]
        return (secret and len(cards) + len(self._fulfil_actions(mover, True)) + len(tail) < 2
                and self._secret_may_fulfil(mover))

    # -- rules: choosing and taking -------------------------------------------------------------

    def _r_choose(self, a: Action, ev: list[Event]) -> None:
        seat = self.to_move
        b = self.nt.board_index[a.args[0]]
        if seat != self.hm:
            raise self._illegal("pr.hm_only", a, verb="choose")
        if self.phase == "decide" and self._others_all_took():
            raise self._illegal("pr.choose_all_took", a)
        if b in self.chosen:
            raise self._illegal("pr.board_chosen", a, board=BOARDS[b])
        if not self._has_cards(b):
            raise self._illegal("pr.board_empty", a, board=BOARDS[b])
        key = "pr_choose" if self.phase == "choose" else "pr_choose_other"
        args: dict[str, Any] = {"seat": seat, "board": BOARDS[b]}
        if self.phase == "decide":
            args["board_before"] = BOARDS[self.board]
        ev.append(_ev(Event, (key, args)))
        self._start_board(b)

    def _start_board(self, b: int) -> None:
        self.chosen = (*self.chosen, b)
        self.board = b
        n, hm = self.n_players, self.hm
        self.pending = (*(i for i in ((hm + k) % n for k in range(1, n)) if self.seats[i].pawn is None), hm)
        self.phase = "decide"

    def _r_take(self, a: Action, ev: list[Event]) -> None:
        nt = self.nt
        seat_i = self.to_move
        assert seat_i is not None
        b = nt.board_index[a.args[0]]
        where = FUTURE if a.args[1] == "future" else CURRENT
        slot = a.args[-1]
        hm = seat_i == self.hm
        if b != self.board:
            if not (hm and self._others_all_took()):
                raise self._illegal("pr.take_board", a, board=BOARDS[b], current=BOARDS[self.board])
            if b in self.chosen:
                raise self._illegal("pr.board_chosen", a, board=BOARDS[b])
        row = (self.future if where == FUTURE else self.current)[b]
        if not 0 <= slot < len(row) or row[slot] < 0:
            raise self._illegal("pr.slot", a, board=BOARDS[b], slot=slot,
                                supply=("future" if where == FUTURE else "current"))
        seat = self.seats[seat_i]
        assistant = nt.single["assistant"]
        if where == FUTURE and assistant not in seat.hand:
            raise self._illegal("pr.assistant", a)
        c = row[slot]
        if nt.cost[c] > seat.money:
            raise self._illegal("pr.cost", a, card=nt.ids[c], cost=nt.cost[c], money=seat.money)
        seat = self._seat(seat_i)
        seat.money -= nt.cost[c]
        self.bank += nt.cost[c]
        hand = seat.hand
        if where == FUTURE:
            self.future = _put(self.future, b, _put(row, slot, -1))
            hand = _without(hand, [assistant])
            self.discard = _put(self.discard, nt.board[assistant], (*self.discard[nt.board[assistant]], assistant))
        else:
            self.current = _put(self.current, b, _put(row, slot, -1))
        if nt.kind[c] == "ship":
            seat.ships = tuple(sorted((*seat.ships, c)))
        else:
            hand = tuple(sorted((*hand, c)))
        seat.hand = hand
        seat.pawn = (b, where, slot)
        if b not in self.chosen:
            self.chosen = (*self.chosen, b)  # taking from another board chooses it (it is refilled)
        key = ("pr_take_ship" if nt.kind[c] == "ship" else "pr_take") + ("_future" if where == FUTURE else "")
        ev.append(_ev(Event, (key, {"seat": seat_i, "card": nt.ids[c], "board": BOARDS[b], "slot": slot,
                                    "cost": nt.cost[c]})))
        if hm:
            ev.append(_ev(Event, ("pr_round_ends_take", {"seat": seat_i})))
            self._end_round(ev)
        else:
            self.pending = self.pending[1:]

    def _r_decline(self, a: Action, ev: list[Event]) -> None:
        seat = self.to_move
        if seat == self.hm:
            raise self._illegal("pr.hm_decline", a)
        ev.append(_ev(Event, ("pr_decline", {"seat": seat, "board": BOARDS[self.board]})))
        self.pending = self.pending[1:]

    def _r_pass(self, a: Action, ev: list[Event]) -> None:
        seat = self.to_move
        if seat != self.hm:
            raise self._illegal("pr.hm_only", a, verb="pass")
        if not self._others_all_took() and self._open_boards():
            raise self._illegal("pr.pass_boards_left", a, boards=[BOARDS[b] for b in self._open_boards()])
        ev.append(_ev(Event, ("pr_pass", {"seat": seat})))
        self._end_round(ev)

    # -- rules: any time ------------------------------------------------------------------------

    def _r_cash(self, a: Action, ev: list[Event]) -> None:
        nt = self.nt
        seat_i = self.to_move
        assert seat_i is not None
        value = a.args[0]
        c = nt.money_of.get(value, -1)
        if c < 0 or c not in self.seats[seat_i].hand:
            raise self._illegal("pr.cash", a, value=value)
        seat = self._seat(seat_i)
        seat.hand = _without(seat.hand, [c])
        seat.money += value
        self.bank -= value
        self.discard = _put(self.discard, nt.board[c], (*self.discard[nt.board[c]], c))
        ev.append(_ev(Event, ("pr_cash", {"seat": seat_i, "card": nt.ids[c], "value": value})))

    def _r_fulfil(self, a: Action, ev: list[Event]) -> None:
        nt = self.nt
        seat_i = self.to_move
        assert seat_i is not None
        option = nt.fulfil_of.get(a.text)
        if option is None:  # an Action made elsewhere: parse its text again
            option = nt.fulfil_of[nt.parse(a.text).text]
        if option not in self._fulfil_options(self.seats[seat_i], public=False):
            raise self._fulfil_refusal(a, option)
        contracts, ships, uses = option
        seat = self._seat(seat_i)
        captain, merchant = nt.single["captain"], nt.single["merchant"]
        captains = sum(1 for frm, to in ships if frm != to)
        merchants = sum(1 for _, target in uses if target >= 0)
        used_hand = [*contracts, *(t for t, _ in uses), *([captain] * captains), *([merchant] * merchants)]
        used_ships = [nt.ship_of[frm] for frm, _ in ships]
        seat.hand = _without(seat.hand, used_hand)
        seat.ships = _without(seat.ships, used_ships)
        pays = sum(nt.pays[c] for c in contracts)
        seat.money += pays
        self.bank -= pays
        discard = list(self.discard)
        for c in [*used_hand, *used_ships]:
            discard[nt.board[c]] = (*discard[nt.board[c]], c)
        self.discard = tuple(discard)
        for frm, to in ships:
            if frm != to:
                ev.append(_ev(Event, ("pr_captain", {"seat": seat_i, "dest": nt.dests[frm],
                                                     "dest_to": nt.dests[to]})))
        for t, target in uses:
            if target >= 0:
                ev.append(_ev(Event, ("pr_merchant", {"seat": seat_i, "card": nt.ids[t],
                                                      "good": nt.goods[target]})))
        ev.append(_ev(Event, ("pr_fulfil", {
            "seat": seat_i, "cards": [nt.ids[c] for c in contracts], "pays": pays,
            "dests": [nt.dests[to] for _, to in ships],
            "cards_goods": [nt.ids[t] for t, _ in uses]})))

    def _fulfil_refusal(self, a: Action, option: Option) -> IllegalAction:
        """The first rule the fulfilment breaks (the solver's list is the law; this names why)."""
        nt = self.nt
        seat = self.seats[self.to_move]  # type: ignore[index]
        contracts, ships, uses = option
        hand = Counter(seat.hand)
        for c, k in Counter(contracts).items():
            if hand[c] < k:
                return self._illegal("pr.fulfil_no_card", a, card=nt.ids[c])
        have_ships = Counter(nt.dest[c] for c in seat.ships)
        for d, k in Counter(frm for frm, _ in ships).items():
            if have_ships[d] < k:
                return self._illegal("pr.fulfil_no_ship", a, dest=nt.dests[d])
        for t, k in Counter(t for t, _ in uses).items():
            if hand[t] < k:
                return self._illegal("pr.fulfil_no_card", a, card=nt.ids[t])
        captains = sum(1 for frm, to in ships if frm != to)
        if captains > (hand[nt.single["captain"]] if nt.single["captain"] >= 0 else 0):
            return self._illegal("pr.fulfil_no_captain", a, count=captains)
        merchants = sum(1 for _, target in uses if target >= 0)
        if merchants > (hand[nt.single["merchant"]] if nt.single["merchant"] >= 0 else 0):
            return self._illegal("pr.fulfil_no_merchant", a, count=merchants)
        dests = sorted({nt.dest[c] for c in contracts})
        to_counts = Counter(to for _, to in ships)
        for d in dests:
            if not to_counts[d]:
                return self._illegal("pr.fulfil_dest", a, dest=nt.dests[d])
        tb = nt.tables
        need = tb.need(contracts)
        if not tb.fixed_feasible(need, uses):
            return self._illegal("pr.fulfil_units", a)
        if not tb.is_minimal(need, tuple(dests), ships, uses):
            return self._illegal("pr.fulfil_surplus", a)
        if len(contracts) > 1 and tb.splittable(contracts, ships, uses):
            return self._illegal("pr.fulfil_separate", a)
        return self._illegal("pr.fulfil", a)

    def _r_done(self, a: Action, ev: list[Event]) -> None:
        ev.append(_ev(Event, ("pr_done", {"seat": self.to_move})))
        self.pending = self.pending[1:]

    # -- automatic steps ------------------------------------------------------------------------

    def _advance(self, ev: list[Event]) -> None:
        """Carry out every step without a real decision, until a seat must choose or the game ends.

        A seat is asked when it has two or more actions *everyone can tell it has*, or when its secret starting
        contract might be fulfillable as far as everyone can tell (``_secret_may_fulfil``). Both depend on
        public facts only, so whether the engine asks never gives the secret away; in the second case the
        seat's legal actions may be its one visible action alone (entry 9 of docs/packet-row-notes.md).
        """
        nt = self.nt
        while True:
            ph = self.phase
            if ph == "over":
                self.to_move = None
                self._legal = ()
                return
            if ph == "choose":
                self.to_move = self.hm
            elif ph == "decide":
                self.to_move = self.pending[0]
            else:  # final
                if not self.pending:
                    self._finish(ev)
                    continue
                self.to_move = self.pending[0]
            cards, tail, secret, may_public, may_full = self._option_split()
            mover = self.seats[self.to_move]
            # the fulfilments looked up only for a hand with ships, a contract and goods or gold (the others have
            # none): with the loop in _others_all_took, apply and legal_actions 9.9 -> 8.3 µs a move (40 greedy
            # games replayed)
            ships = mover.ships
            fulfil = self._fulfils(mover, secret)[1] if ships and (may_public if secret else may_full) else ()
            public = (*cards, *fulfil, *tail)
            if len(public) >= 2 or (secret and self._secret_may_fulfil(mover)):
                if secret:
                    fulfil = self._fulfils(mover, False)[1] if ships and may_full else ()
                    self._legal = (*cards, *fulfil, *tail)
                else:
                    self._legal = public
                return
            only = public[0]
            seat = self.to_move
            if ph == "choose":
                ev.append(_ev(Event, ("pr_only_board", {"seat": seat, "board": only.args[0]})))
                self._start_board(nt.board_index[only.args[0]])
            elif ph == "final":
                ev.append(_ev(Event, ("pr_nothing_to_fulfil", {"seat": seat})))
                self.pending = self.pending[1:]
            elif only is nt.DECLINE:
                empty = not self._has_cards(self.board)
                # The same event as a decline by choice: the reason is public anyway, and a decline looks
                # the same to the others whether the seat had a choice or not (entry 9).
                ev.append(_ev(Event, ("pr_forced_decline_empty" if empty else "pr_decline",
                                      {"seat": seat, "board": BOARDS[self.board]})))
                self.pending = self.pending[1:]
            elif only is nt.PASS:
                key = "pr_forced_pass" if self._others_all_took() else "pr_forced_pass_no_board"
                ev.append(_ev(Event, (key, {"seat": seat, "board": BOARDS[self.board]})))
                self._end_round(ev)
            else:  # the harbour master takes nothing and must choose the only board left
                ev.append(_ev(Event, ("pr_forced_choose", {"seat": seat, "board": only.args[0],
                                                           "board_before": BOARDS[self.board]})))
                self._start_board(nt.board_index[only.args[0]])

    def _end_round(self, ev: list[Event]) -> None:
        """Refill every chosen board (and only those); end the game if too many cannot fill their supply."""
        for i, s in enumerate(self.seats):
            if s.pawn is not None:
                self._seat(i).pawn = None
        threshold = self.nt.end_boards[self.n_players]
        for b in self.chosen:
            self._refill(b, ev)
            if len(self.short) >= threshold:
                self._start_final(ev)
                return
        self.hm = (self.hm + 1) % self.n_players
        self.round += 1
        self.chosen = ()
        self.board = -1
        self.pending = ()
        self.phase = "choose"
        ev.append(_ev(Event, ("pr_round", {"round": self.round, "seat": self.hm})))

    def _refill(self, b: int, ev: list[Event]) -> None:
        nt = self.nt
        size = nt.current_size[self.n_players]
        rest = [c for c in self.current[b] if c >= 0]
        if rest:
            self.discard = _put(self.discard, b, (*self.discard[b], *rest))
        moved = [c for c in self.future[b] if c >= 0]
        deck = self.decks[b]
        k = max(0, size - len(moved))
        cur = [*moved, *deck[:k]]
        deck = deck[k:]
        fut = list(deck[: nt.future_size])
        deck = deck[nt.future_size:]
        self.decks = _put(self.decks, b, deck)
        self.current = _put(self.current, b, tuple(cur + [-1] * (size - len(cur))))
        self.future = _put(self.future, b, tuple(fut + [-1] * (nt.future_size - len(fut))))
        ids = nt.ids
        if rest:
            ev.append(_ev(Event, ("pr_discard", {"board": BOARDS[b], "cards": [ids[c] for c in rest]})))
        if not cur:
            ev.append(_ev(Event, ("pr_refill_none", {"board": BOARDS[b]})))
        elif not fut:
            ev.append(_ev(Event, ("pr_refill_no_future", {"board": BOARDS[b], "cards": [ids[c] for c in cur]})))
        else:
            ev.append(_ev(Event, ("pr_refill", {"board": BOARDS[b], "cards": [ids[c] for c in cur],
                                                "cards_future": [ids[c] for c in fut]})))
        if len(cur) < size and b not in self.short:
            self.short = (*self.short, b)
            ev.append(_ev(Event, ("pr_short", {"board": BOARDS[b], "have": len(cur), "size": size,
                                              "count": len(self.short),
                                              "threshold": nt.end_boards[self.n_players]})))
        elif len(fut) < nt.future_size:
            ev.append(_ev(Event, ("pr_future_short", {"board": BOARDS[b]})))

    def _start_final(self, ev: list[Event]) -> None:
        ev.append(_ev(Event, ("pr_game_ends", {"boards": [BOARDS[b] for b in self.short]})))
        self.phase = "final"
        self.chosen = ()
        self.board = -1
        n, hm = self.n_players, self.hm
        self.pending = tuple((hm + k) % n for k in range(1, n + 1))
        nt = self.nt
        for i, s in enumerate(self.seats):
            for c in s.hand:
                if nt.start[c]:
                    ev.append(_ev(Event, ("pr_reveal", {"seat": i, "card": nt.ids[c]})))

    def _finish(self, ev: list[Event]) -> None:
        nt = self.nt
        for i, s in enumerate(self.seats):
            cash = [c for c in s.hand if nt.kind[c] == "money"]
            if cash:
                seat = self._seat(i)
                total = sum(nt.value[c] for c in cash)
                seat.hand = _without(seat.hand, cash)
                seat.money += total
                self.bank -= total
                bank = nt.board_index["bank"]
                self.discard = _put(self.discard, bank, (*self.discard[bank], *cash))
                ev.append(_ev(Event, ("pr_cash_end", {"seat": i, "cards": [nt.ids[c] for c in cash],
                                                      "value": total})))
        self.phase = "over"
        self.pending = ()
        self.to_move = None
        self._legal = ()
        for i in range(self.n_players):
            b = self._banker_vp(i)
            if b:
                ev.append(_ev(Event, ("pr_bankers", {"seat": i, "vp": b,
                                                     "bankers": self.seats[i].hand.count(nt.single["banker"])})))
        for i in range(self.n_players):
            ev.append(_ev(Event, ("pr_final", {"seat": i, "score": self.score(i), "money": self.seats[i].money})))
        ev.append(_ev(Event, ("pr_game_over", {"seats": self.winners()})))

    # -- scoring --------------------------------------------------------------------------------

    def _wealth(self, seat: int) -> int:
        """Money with the money cards in hand counted (they are cashed at the end)."""
        nt = self.nt
        s = self.seats[seat]
        return s.money + sum(nt.value[c] for c in s.hand if nt.kind[c] == "money")

    def _banker_vp(self, seat: int) -> int:
        nt = self.nt
        banker = nt.single["banker"]
        count = self.seats[seat].hand.count(banker) if banker >= 0 else 0
        if not count:
            return 0
        points = nt.banker_points[self.n_players]
        mine = self._wealth(seat)
        richer = sum(1 for i in range(self.n_players) if self._wealth(i) > mine)
        return count * points[richer] if richer < len(points) else 0

    def score_breakdown(self, seat: int) -> dict[str, int]:
        """Points by category if the game ended now with no further fulfilment (final once over)."""
        nt = self.nt
        s = self.seats[seat]
        return {
            "buildings": sum(nt.vp[c] for c in s.hand if nt.kind[c] == "building"),
            "money": self._wealth(seat) // nt.dollars_per_vp,
            "bankers": self._banker_vp(seat),
        }

    _tiebreak = _wealth  # ties on points go to the most money (money cards in hand counted)

    # -- hidden information ---------------------------------------------------------------------

    def _secret_holders(self, observer: int | None) -> list[int]:
        """Seats whose starting contract ``observer`` does not know (none once hands are shown)."""
        if self.revealed:
            return []
        start = self.nt.start
        return [i for i, s in enumerate(self.seats) if i != observer and any(start[c] for c in s.hand)]

    def _deal_secrets(self, holders: list[int], pool: list[int]) -> None:
        """Give each holder the next starting contract of ``pool`` (replacing theirs); the rest go to the box."""
        start = self.nt.start
        for i, c in zip(holders, pool, strict=False):
            seat = self._seat(i)
            seat.hand = tuple(sorted([x for x in seat.hand if not start[x]] + [c]))
        self.box = tuple(pool[len(holders):])

    def _secret_pool(self, holders: list[int]) -> list[int]:
        start = self.nt.start
        return [*self.box, *(c for i in holders for c in self.seats[i].hand if start[c])]

    def determinize(self, seed: int | str) -> State:
        """Same public facts, hidden information resampled: the deck orders (and the 2-player removed cards);
        for an observation, also the starting contracts its observer does not know. The result is a full state."""
        rng = Rng(seed, "determinize")
        new = self._same_position()
        decks, removed = [], []
        for d, r in zip(self.decks, self.removed, strict=True):
            pool = [*d, *r]
            rng.shuffle(pool)
            decks.append(tuple(pool[: len(d)]))
            removed.append(tuple(pool[len(d):]))
        new.decks, new.removed = tuple(decks), tuple(removed)
        if self.observer is not None:
            holders = self._secret_holders(self.observer)
            pool = self._secret_pool(holders)
            rng.shuffle(pool)
            new._deal_secrets(holders, pool)
        keeps_mover = self.observer is None or self.observer == self.to_move
        new.observer = None
        new._legal = self._legal if keeps_mover else None
        return new

    def rearranged(self, decks: Mapping[Any, Sequence[str]] | None = None,
                   contracts: Mapping[Any, str] | None = None) -> State:
        """The same position with hidden parts set by hand (a *chance variation*); this state is unchanged.

        ``decks``: per deck (a board name ``"guild"``, ``"docks"``, ``"market"``, ``"bank"``, or its index 0-3,
        also as text), the card ids that come next from it, top first (a prefix, or the whole deck); the other
        cards follow in their order. With two players the removed cards belong to the deck's hidden pool: a
        named card may come from them, and the deck's last unnamed card is then removed in its place.
        ``contracts``: ``{seat: starting contract id}`` for seats that still hold a secret starting contract; the
        contract must be one of the secret ones (the unused ones or another secret holder's). A holder not named
        keeps its contract unless it was given away, and then takes the first unused one left. This changes what
        that seat knows, so its own ``view`` changes; every other view stays.

        Errors raise :class:`RearrangeError` naming the field (``decks.guild[2]``, ``contracts[1]``). On an
        observation (from ``observe``) the result is a full state (``observer`` None), as from ``determinize``;
        the observer's own starting contract is then known and cannot be rearranged.
        """
        new_decks, new_removed = list(self.decks), list(self.removed)
        if decks is not None:
            if not isinstance(decks, Mapping):
                raise RearrangeError("decks", f"must be an object {{deck: [card ids]}}, not {type(decks).__name__}")
            done: set[int] = set()
            for key, cards in decks.items():
                b = self._deck_of(key)
                if b in done:
                    raise RearrangeError(f"decks.{BOARDS[b]}", "the deck is named twice")
                done.add(b)
                new_decks[b], new_removed[b] = self._rearranged_deck(b, cards)
        deal: list[int] | None = None
        holders = self._secret_holders(self.observer)
        if contracts is not None:
            deal = self._rearranged_contracts(holders, contracts)
        new = self.schema.with_hidden(self._same_position(), decks=tuple(new_decks), removed=tuple(new_removed))
        if deal is not None:
            new._deal_secrets(holders, deal)
        keeps_mover = deal is None and (self.observer is None or self.observer == self.to_move)
        new.observer = None
        new._legal = self._legal if keeps_mover else None
        return new

    def _deck_of(self, key: Any) -> int:
        """A deck's index from its board name or index (JSON object keys are texts: "0" too)."""
        if isinstance(key, str) and key in self.nt.board_index:
            return self.nt.board_index[key]
        if isinstance(key, str) and key.isdigit():
            key = int(key)
        if isinstance(key, int) and not isinstance(key, bool) and 0 <= key < len(BOARDS):
            return key
        raise RearrangeError(f"decks.{key}", f"unknown deck {key!r}; decks are {', '.join(BOARDS)} (or 0-3)")

    def _rearranged_deck(self, b: int, cards: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(deck, removed) of board ``b`` with ``cards`` on top (checked); the rest of the pool after them."""
        field = f"decks.{BOARDS[b]}"
        names = rearrange_texts(cards, field, "card ids")
        deck, pool = self.decks[b], [*self.decks[b], *self.removed[b]]
        left = Counter(pool)
        first: list[int] = []
        for k, cid in enumerate(names):
            at = f"{field}[{k}]"
            if k >= len(deck):
                raise RearrangeError(at, f"the {BOARDS[b]} deck holds only {len(deck)} card(s)")
            c = self.nt.index.get(cid, -1)
            if c < 0:
                raise RearrangeError(at, f"unknown card id {cid!r}")
            if not left[c]:
                have = pool.count(c)
                raise RearrangeError(at, f"card {cid!r} is not in the {BOARDS[b]} deck" if not have else
                                     f"card {cid!r} is named {first.count(c) + 1} times so far, but the "
                                     f"{BOARDS[b]} deck holds only {have}")
            left[c] -= 1
            first.append(c)
        skip = Counter(first)
        rest = []
        for c in pool:
            if skip[c]:
                skip[c] -= 1
            else:
                rest.append(c)
        cut = len(deck) - len(first)
        return (*first, *rest[:cut]), tuple(rest[cut:])

    def _rearranged_contracts(self, holders: list[int], contracts: Any) -> list[int]:
        """The new secret deal for ``holders`` (their contracts in seat order, then the unused ones), checked."""
        if not isinstance(contracts, Mapping):
            raise RearrangeError("contracts", f"must be an object {{seat: starting contract id}}, not "
                                              f"{type(contracts).__name__}")
        nt = self.nt
        pool = self._secret_pool(holders)
        left = Counter(pool)
        given: dict[int, int] = {}
        for key, cid in contracts.items():
            seat = int(key) if isinstance(key, str) and key.isdigit() else key
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.n_players:
                raise RearrangeError(f"contracts[{key}]", f"not a seat 0..{self.n_players - 1}")
            at = f"contracts[{seat}]"
            if seat in given:
                raise RearrangeError(at, "the seat is named twice")
            if seat not in holders:
                why = ("the hands are shown" if self.revealed else "seat is the observer: its contract is known"
                       if seat == self.observer else "it fulfilled it")
                raise RearrangeError(at, f"seat {seat} holds no secret starting contract ({why})")
            if not isinstance(cid, str):
                raise RearrangeError(at, f"must be a starting contract id (text), not {type(cid).__name__}")
            c = nt.index.get(cid, -1)
            if c < 0 or not nt.start[c]:
                raise RearrangeError(at, f"{cid!r} is not a starting contract")
            if not left[c]:
                raise RearrangeError(at, f"{cid!r} is not among the secret starting contracts (unused or held "
                                         "by a seat whose contract is secret)" if c not in pool else
                                     f"{cid!r} is already given to another seat")
            left[c] -= 1
            given[seat] = c
        start = nt.start
        own = {i: next(c for c in self.seats[i].hand if start[c]) for i in holders}
        for i in holders:
            if i not in given and left[own[i]]:
                left[own[i]] -= 1
                given[i] = own[i]
        spare = []
        for c in pool:  # the unused ones first, in their order
            if left[c]:
                left[c] -= 1
                spare.append(c)
        for i in holders:
            if i not in given:
                given[i] = spare.pop(0)
        return [*(given[i] for i in holders), *spare]

    def hidden_parts(self) -> dict[str, Any]:
        """What is still to come and can be rearranged (``rearranged``), JSON-ready, in the current order.

        ``decks`` (per board, top first), ``removed`` (the two-player removed cards: part of each deck's pool),
        ``contracts`` ({seat as text: its secret starting contract}) and ``box`` (the unused starting contracts).

        This REVEALS the hidden order and the secret contracts (for analysis; never to a bot or in play). On an
        observation it shows the observation's placeholders, which reveal nothing.
        """
        ids = self.nt.ids
        holders = self._secret_holders(self.observer)
        start = self.nt.start
        return {
            "decks": {name: [ids[c] for c in self.decks[b]] for b, name in enumerate(BOARDS)},
            "removed": {name: [ids[c] for c in self.removed[b]] for b, name in enumerate(BOARDS)},
            "contracts": {str(i): next(ids[c] for c in self.seats[i].hand if start[c]) for i in holders},
            "box": [ids[c] for c in self.box],
        }

    def observe(self, seat: int | None) -> State:
        """The state as ``seat`` sees it (``None``: a spectator), hidden parts replaced by a canonical placeholder.

        Bots get this. Each deck (with the 2-player removed cards) holds its unseen cards in catalogue order;
        the starting contracts ``seat`` does not know are dealt in catalogue order. ``determinize`` on it
        samples a full state consistent with every public fact.
        """
        new = self._same_position()
        decks, removed = [], []
        for d, r in zip(self.decks, self.removed, strict=True):
            pool = sorted((*d, *r))
            decks.append(tuple(pool[: len(d)]))
            removed.append(tuple(pool[len(d):]))
        new.decks, new.removed = tuple(decks), tuple(removed)
        holders = self._secret_holders(seat)
        new._deal_secrets(holders, sorted(self._secret_pool(holders)))
        new.observer = seat if seat is not None else -1
        new._legal = self._legal if seat is not None and seat == self.to_move else None
        return new

    def _public_seat(self, i: int, observer: int | None) -> dict[str, Any]:
        nt = self.nt
        s = self.seats[i]
        secret = 0
        hand = s.hand
        if not self.revealed and i != observer:
            secret = sum(1 for c in hand if nt.start[c])
            hand = tuple(c for c in hand if not nt.start[c])
        return {"name": self.seat_name(i), "money": s.money, "ships": [nt.ids[c] for c in s.ships],
                "hand": [nt.ids[c] for c in hand], "secret": secret,
                "pawn": None if s.pawn is None else [BOARDS[s.pawn[0]], ("current", "future")[s.pawn[1]], s.pawn[2]]}

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """JSON-ready dict of what ``seat`` may see (``None``: a spectator who sees no hand's secret).

        Decks: their size and the unseen cards as a multiset (ids sorted alphabetically). Hands: the seat's own
        in full; of the others every card taken from an open supply (public to a perfect memory) and ``secret``,
        the number of unknown cards (their starting contract, until it is fulfilled or the game ends).
        """
        nt = self.nt
        ids = nt.ids

        def slots(row: tuple[int, ...]) -> list[str | None]:
            return [ids[c] if c >= 0 else None for c in row]

        boards = {}
        for b, name in enumerate(BOARDS):
            boards[name] = {
                "current": slots(self.current[b]), "future": slots(self.future[b]),
                "deck": len(self.decks[b]), "removed": len(self.removed[b]),
                "unseen": sorted(ids[c] for c in (*self.decks[b], *self.removed[b])),
                "discard": [ids[c] for c in self.discard[b]],
            }
        holders = self._secret_holders(seat)
        return {
            "game": self.game, "players": self.n_players, "seat": seat, "round": self.round, "phase": self.phase,
            "harbour_master": self.hm, "to_move": self.to_move, "chosen": [BOARDS[b] for b in self.chosen],
            "board": self.current_board, "pending": list(self.pending), "short": list(self.short_boards),
            "bank": self.bank, "boards": boards,
            "seats": [self._public_seat(i, seat) for i in range(self.n_players)],
            "start_contracts_unseen": sorted(ids[c] for c in self._secret_pool(holders)),
            "events": [e.to_json() for e in self.events], "last_action": self.last_action,
            "hidden": ["deck orders", "removed cards", "unused starting contracts"]
                      + ([] if self.revealed else ["other seats' starting contracts"]),
        }

    def fingerprint(self) -> int:
        """A stable 32-bit digest of the public position (plus the observer's own hand in an observation).

        Equal for states that differ only in hidden information; the same in every process and Python.
        """
        nt = self.nt
        seats = []
        for i, s in enumerate(self.seats):
            hand = s.hand if (self.revealed or i == self.observer) else tuple(c for c in s.hand if not nt.start[c])
            seats.append((s.money, s.ships, hand, len(s.hand) - len(hand), s.pawn))
        key = (self.round, self.phase, self.hm, self.to_move, self.chosen, self.board, self.pending, self.short,
               self.current, self.future, tuple(map(len, self.decks)), tuple(map(len, self.removed)), self.discard,
               tuple(seats), self.last_action)
        return zlib.crc32(repr(key).encode())

    # -- serialization --------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole position as JSON-ready data (decks, secrets and catalogue included): ``load_state`` rebuilds it
        exactly."""
        return {**self._dict_head(), **self.schema.encode(self), **self._dict_tail()}  # each field as declared

    @property
    def notation(self) -> Notation:
        """The catalogue's notation and tables (``nt``, read on every step)."""
        return self.nt


# Optional capabilities plug in here when their modules are imported (the package's __init__ imports them):
# "explain": explain_action(state, action, lang), "html": state_html(state). The rules never import them.
CAPABILITIES = State.plugins

_ANY = ("choose", "decide")

_RULES = {
    "choose": (_ANY, State._r_choose),
    "take": (("decide",), State._r_take),
    "decline": (("decide",), State._r_decline),
    "pass": (("decide",), State._r_pass),
    "cash": (_ANY, State._r_cash),
    "fulfil": (("choose", "decide", "final"), State._r_fulfil),
    "done": (("final",), State._r_done),
}
