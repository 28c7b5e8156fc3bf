"""Packet Row's action notation: parsing, canonical text, and the per-catalogue tables the rules read.

Verbs: ``choose BOARD``, ``take BOARD N``, ``take BOARD future N``, ``decline``, ``pass``, ``cash N``,
``done`` and ``fulfil CONTRACT... ship DEST [captain DEST]... goods CARD [merchant GOOD]...`` (see
``docs/notation.md``). Text is case-insensitive; the canonical text lists the parts of a fulfilment in
catalogue order. Parsing is cached: it is on the hot path of every random playout.
"""

from __future__ import annotations

from typing import Any

from ...engine.actions import Action
from ...engine.errors import IllegalAction
from ...engine.i18n import messages
from ...engine.notation import Notation as BaseNotation
from .catalog import BOARDS, Catalog
from .fulfil import Option, Tables
from .grammar import DOMAINS, GRAMMAR

CURRENT, FUTURE = 0, 1
ROLE_CONTRACT, ROLE_START, ROLE_ITEM, ROLE_CAPTAIN, ROLE_MERCHANT, ROLE_MONEY = 1, 2, 3, 4, 5, 6
ROLES = {"contract": ROLE_CONTRACT, "goods": ROLE_ITEM, "gold": ROLE_ITEM, "captain": ROLE_CAPTAIN,
         "merchant": ROLE_MERCHANT, "money": ROLE_MONEY}


class Notation(BaseNotation):
    """Tables of one catalogue (kinds, costs, ids by index) and its parser with cached actions."""

    rule = "pr.notation"
    grammar = GRAMMAR

    def __init__(self, cat: Catalog) -> None:
        super().__init__()
        cards = cat.cards
        self.cat = cat
        self.ids = tuple(c.id for c in cards)
        self.index = {c.id: c.idx for c in cards}
        self.goods = tuple(g.id for g in cat.goods)
        self.good_index = {g: i for i, g in enumerate(self.goods)}
        self.dests = tuple(d.id for d in cat.dests)
        self.dest_index = {d: i for i, d in enumerate(self.dests)}
        self.board_index = {b: i for i, b in enumerate(BOARDS)}
        self.kind = tuple(c.kind for c in cards)
        self.board = tuple(self.board_index[c.board] for c in cards)
        self.cost = tuple(c.cost if c.kind in ("goods", "gold", "building") else 0 for c in cards)
        self.start = tuple(c.start for c in cards)
        self.value = tuple(c.value for c in cards)
        self.vp = tuple(c.vp for c in cards)
        # per card type, a money card's value and a building's points (0 for the others): hands summed through them
        self.money_value = tuple(c.value if c.kind == "money" else 0 for c in cards)
        self.building_vp = tuple(c.vp if c.kind == "building" else 0 for c in cards)
        self.pays = tuple(c.pays for c in cards)
        self.good = tuple(self.good_index[c.good] if c.good is not None else -1 for c in cards)
        self.dest = tuple(self.dest_index[c.dest] if c.dest is not None else -1 for c in cards)
        amounts = [c.bars if c.kind == "gold" else c.amount for c in cards]
        self.tables = Tables(list(self.kind), list(self.good), amounts, list(self.dest), list(self.pays),
                             len(self.goods))
        self.ship_of = {self.dest[c.idx]: c.idx for c in cards if c.kind == "ship"}
        self.money_of = {c.value: c.idx for c in cards if c.kind == "money"}
        self.single = {k: next((c.idx for c in cards if c.kind == k), -1)
                       for k in ("assistant", "captain", "merchant", "banker")}
        st = cat.setup
        self.current_size = {int(k): v for k, v in st["current"].items()}
        self.future_size = st["future"]
        self.removed_count = {int(k): v for k, v in st.get("removed", {}).items()}
        self.end_boards = {int(k): v for k, v in st["end_boards"].items()}
        self.banker_points = {int(k): tuple(v) for k, v in st["bankers"].items()}
        self.money = st["money"]
        self.dollars_per_vp = st["dollars_per_vp"]
        self.domains = {**DOMAINS, "dest": self.dests, "good": self.goods}
        self.DECLINE = self.act("decline")
        self.PASS = self.act("pass")
        self.DONE = self.act("done")
        self.CHOOSE = tuple(self.act("choose", b) for b in BOARDS)
        self.fulfil_of: dict[str, Option] = {}
        self._fulfil_act: dict[Option, Action] = {}
        self.hand_cache: dict[tuple[Any, ...], tuple[tuple[Option, ...], tuple[Action, ...]]] = {}
        self.secret_cache: dict[tuple[Any, ...], bool] = {}  # State._secret_may_fulfil by open cards and pool
        # State._option_split's hand part by hand: (the cash actions, whether it holds a secret starting contract,
        # whether it holds an open contract and goods or gold, whether it holds any contract and goods or gold)
        self.tail_cache: dict[tuple[int, ...], tuple[tuple[Action, ...], bool, bool, bool]] = {}
        # per card type: its part in a fulfilment (the hot path reads hands through this)
        self.role = tuple(ROLE_START if c.start else ROLES.get(c.kind, 0) for c in cards)
        slots = max(self.current_size.values()) + 1, self.future_size + 1
        self.TAKE = tuple(tuple(tuple(self.take(b, w, i) for i in range(slots[w])) for w in (CURRENT, FUTURE))
                          for b in range(len(BOARDS)))

    # -- canonical actions ------------------------------------------------------------------------

    def take(self, board: int, where: int, slot: int) -> Action:
        """The canonical ``take BOARD [future] N`` (board by index, ``where`` CURRENT or FUTURE)."""
        if where == FUTURE:
            return self.act("take", BOARDS[board], "future", slot)
        return self.act("take", BOARDS[board], slot)

    def cash(self, value: int) -> Action:
        """The canonical ``cash N`` of a money card's value."""
        return self.act("cash", value)

    def fulfil(self, option: Option) -> Action:
        """The canonical action of a fulfilment (contracts, ships, goods uses), cached."""
        a = self._fulfil_act.get(option)
        if a is None:
            contracts, ships, uses = option
            words: list[Any] = [self.ids[c] for c in contracts]
            for frm, to in ships:
                words += ["ship", self.dests[frm]] + (["captain", self.dests[to]] if to != frm else [])
            words.append("goods")
            for t, target in uses:
                words += [self.ids[t]] + (["merchant", self.goods[target]] if target >= 0 else [])
            a = Action("fulfil", tuple(words))
            if len(self._fulfil_act) > 50000:
                self._fulfil_act.clear()
                self.fulfil_of.clear()
            self._fulfil_act[option] = a
            self.fulfil_of[a.text] = option
        return a

    def fulfil_parts(self, action: Action | str) -> dict[str, Any]:
        """A fulfilment's parts by id, from the engine's own parse (so views never take notation apart).

        ``contracts``, ``ships`` (``{dest, captain}``, captain None when the ship sails where it is bound)
        and ``goods`` (``{card, merchant}``, merchant None when the good is not changed)."""
        a = self.parse(action)
        option = self.fulfil_of.get(a.text) or self._parse_fulfil([str(x) for x in a.args], a.text)
        contracts, ships, uses = option
        return {
            "contracts": [self.ids[c] for c in contracts],
            "ships": [{"dest": self.dests[f], "captain": self.dests[t] if t != f else None} for f, t in ships],
            "goods": [{"card": self.ids[t], "merchant": self.goods[g] if g >= 0 else None} for t, g in uses],
        }

    # -- parsing ----------------------------------------------------------------------------------

    def _rule(self, text: str, rule: str, **params: Any) -> IllegalAction:
        return IllegalAction(rule, messages.text("rule", rule, "en", params), action=text, **params)

    def fulfil_words(self, *words: str) -> Action:
        """The canonical fulfilment of its words after ``fulfil`` (the grammar's three parts), or the refusal."""
        return self.fulfil(self._parse_fulfil(list(words), " ".join(("fulfil", *words))))

    def _parse_fulfil(self, args: list[str], raw: str) -> Option:
        form = f"write '{GRAMMAR.forms('fulfil')[0]}'"
        if "ship" not in args or "goods" not in args:
            raise self._bad(raw, form)
        i = 0
        contracts: list[int] = []
        while i < len(args) and args[i] != "ship":
            c = self.index.get(args[i], -1)
            if c < 0 or self.kind[c] != "contract":
                raise self._bad(raw, f"{args[i]!r} is not a contract of this catalogue")
            contracts.append(c)
            i += 1
        ships: list[tuple[int, int]] = []
        while i < len(args) and args[i] == "ship":
            if i + 1 >= len(args) or args[i + 1] not in self.dest_index:
                raise self._bad(raw, f"'ship' is followed by a destination ({', '.join(self.dests)})")
            frm = to = self.dest_index[args[i + 1]]
            i += 2
            if i < len(args) and args[i] == "captain":
                if i + 1 >= len(args) or args[i + 1] not in self.dest_index:
                    raise self._bad(raw, "'captain' is followed by the destination the ship sails to instead")
                to = self.dest_index[args[i + 1]]
                if to == frm:
                    raise self._rule(raw, "pr.fulfil_captain_same", dest=args[i + 1])
                i += 2
            ships.append((frm, to))
        if i >= len(args) or args[i] != "goods":
            raise self._bad(raw, form)
        i += 1
        uses: list[tuple[int, int]] = []
        while i < len(args):
            t = self.index.get(args[i], -1)
            if t < 0 or self.kind[t] not in ("goods", "gold"):
                raise self._bad(raw, f"{args[i]!r} is not a goods or gold card of this catalogue")
            i += 1
            target = -1
            if i < len(args) and args[i] == "merchant":
                if i + 1 >= len(args) or args[i + 1] not in self.good_index:
                    raise self._bad(raw, f"'merchant' is followed by the new good ({', '.join(self.goods)})")
                if self.kind[t] == "gold":
                    raise self._rule(raw, "pr.fulfil_merchant_gold", card=self.ids[t])
                target = self.good_index[args[i + 1]]
                if target == self.good[t]:
                    raise self._rule(raw, "pr.fulfil_merchant_same", card=self.ids[t], good=args[i + 1])
                i += 2
            uses.append((t, target))
        if not contracts or not ships or not uses:
            raise self._bad(raw, form)
        return (tuple(sorted(contracts)), tuple(sorted(ships)), tuple(sorted(uses)))


_notations: dict[str, Notation] = {}


def notation_for(cat: Catalog) -> Notation:
    """The (shared) notation and tables of a catalogue."""
    nt = _notations.get(cat.digest)
    if nt is None:
        nt = _notations[cat.digest] = Notation(cat)
    return nt
