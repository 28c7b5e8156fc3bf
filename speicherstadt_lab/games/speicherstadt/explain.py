"""Plain-language explanations of actions, in context, for teaching and hover texts (EN/DE).

``explain_action(state, action, lang)`` says what a legal action would do *in this position*: the price
now, who decides next, how far a contract gets, what expires, what a card brings its buyer. The numbers
come from the state; legality comes from the engine (the action is applied to the immutable state first,
so an illegal one raises :class:`IllegalAction` with the rule that forbids it). The sentences are
templates in ``data/messages/speicherstadt_explain.toml`` (``[explain.KEY]``, English and German).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...engine.actions import Action
from ...engine.i18n import LANGS, load_messages, messages
from . import kaispeicher as kai_rules
from .grammar import GRAMMAR
from .state import CAPABILITIES, Seat, State

load_messages("speicherstadt_explain")
load_messages("speicherstadt_phrases")

Part = tuple[str, dict[str, Any]]  # (template key, arguments)


def explain_action(state: State, action: Action | str, lang: str = "en") -> str:
    """What ``action`` would do in ``state``, in ``lang``; raises IllegalAction if the rules forbid it."""
    if lang not in LANGS:
        raise ValueError(f"language must be one of {LANGS}, not {lang!r}")
    a = state.parse_action(action)
    state.apply(a)  # the engine decides legality (and names the rule); the state itself is unchanged
    parts = _EXPLAINERS[a.kind](state, a)
    return " ".join(_text(state, key, lang, args) for key, args in parts)


def explain_actions(state: State, lang: str = "en") -> dict[str, str]:
    """Every legal action of the seat to move, with its explanation (notation → text)."""
    return {str(a): explain_action(state, a, lang) for a in state.legal_actions()}


def _text(state: State, key: str, lang: str, args: dict[str, Any]) -> str:
    if "nth" in args:
        args = {**args, "nth": _ordinal(args["nth"], lang)}
    return messages.text("explain", key, lang, args, state)


def _ordinal(n: int, lang: str) -> str:
    """1st, 2nd, 3rd, 4th, … / 1., 2., 3., …"""
    if lang == "de":
        return f"{n}."
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# ---- helpers ------------------------------------------------------------------------------------


def _cid(state: State, ci: int) -> str:
    return state.cat.cards[ci].id


def _goods(state: State, cubes: tuple[int, ...] | list[int]) -> list[str]:
    return [state.goods[g] for g in cubes]


def _owners(state: State, workers: tuple[int, ...]) -> list[int]:
    """Seats of ``workers`` (grey workers belong to their owner), each once, in order."""
    out: list[int] = []
    for w in workers:
        s = kai_rules.owner(w)
        if s not in out:
            out.append(s)
    return out


def _grey_next(state: State, seat: int) -> bool:
    """Kaispeicher: the seat has placed its own workers, so its next worker is a grey one."""
    return state.kai is not None and state.kai.left[seat] <= 0


def _loading(state: State) -> tuple[int, Seat]:
    i = state.loading_seat
    assert i is not None
    return i, state.seats[i]


def _has_card(state: State, seat: Seat, kind: str) -> int:
    return kai_rules.has(state, seat, kind)


# ---- demand -------------------------------------------------------------------------------------


def _place(state: State, a: Action) -> list[Part]:
    space = a.args[0]
    seat = state.to_move
    col = state.columns[space]
    ci = state.offer_idx[space]
    price = len(col) + 1
    grey = _grey_next(state, seat)
    args = {"card": _cid(state, ci), "space": space, "nth": price, "price": price,
            "coins": state.seats[seat].coins}
    if col:
        below = [kai_rules.owner(w) for w in col]
        key = "place_grey" if grey else "place"
        parts: list[Part] = [(key, {**args, "below": len(below), "seats": _owners(state, col)})]
    else:
        parts = [("place_first_grey" if grey else "place_first", args)]
    parts.extend(_card_note(state, ci, state.cargo_idx[space]))
    parts.append(("coins_now", {"coins": state.seats[seat].coins}))
    return parts


def _card_note(state: State, ci: int, cargo: tuple[int, ...]) -> list[Part]:
    """A short note on what is on offer: a ship's cargo, a contract's goods and points."""
    card = state.cat.cards[ci]
    if card.kind == "ship":
        return [("note_ship", {"goods": _goods(state, cargo)})] if cargo else [("note_ship_empty", {})]
    if card.kind == "contract":
        return [("note_contract", {"goods": list(card.goods), "vp": card.vp})]
    return []


def _reserve(state: State, a: Action) -> list[Part]:
    s = a.args[0]
    seat = state.to_move
    kai = state.kai
    ci = kai.top[s]
    key = "reserve_grey" if _grey_next(state, seat) else "reserve"
    parts: list[Part] = [(key, {"card": _cid(state, ci), "space": s, "nth": len(kai.reserved) + 1})]
    parts.extend(_card_note(state, ci, kai.top_cargo[s]))
    return parts


def _break(state: State, a: Action) -> list[Part]:
    left = state.seats[state.to_move].breaks - 1
    return [("break", {"left": left})]


def _stop(state: State, a: Action) -> list[Part]:
    return [("stop", {"grey": state.seats[state.to_move].grey})]


# ---- spy ----------------------------------------------------------------------------------------


def _spy(state: State, a: Action) -> list[Part]:
    s1, l1, s2, l2 = a.args
    cols = state.columns
    other = kai_rules.owner(cols[s2][l2])
    args = {"card": _cid(state, state.offer_idx[s1]), "space": s1, "level": l1, "seat": other,
            "card_other": _cid(state, state.offer_idx[s2]), "space_other": s2, "level_other": l2,
            "nth": l2 + 1, "price": len(cols[s2])}
    parts: list[Part] = [("spy", args)]
    if l2 == 0:
        parts.append(("spy_first", args))
    else:
        parts.append(("spy_later", {**args, "seats": _owners(state, cols[s2][:l2])}))
    return parts


# ---- purchase -----------------------------------------------------------------------------------


def _offer_now(state: State) -> tuple[int, int, int, tuple[int, ...], bool]:
    """(card, deciding seat, price, cargo, reserved) of the card being decided now."""
    s = state.space
    if s < len(state.offer_idx):
        col = state.columns[s]
        return state.offer_idx[s], kai_rules.owner(col[0]), len(col), state.cargo_idx[s], False
    kai = state.kai
    ci, w, cargo = kai.reserved[kai.rpos]
    return ci, kai_rules.owner(w), len(kai.reserved) - kai.rpos, cargo, True


def _buy(state: State, a: Action) -> list[Part]:
    ci, seat, price, cargo, reserved = _offer_now(state)
    card = _cid(state, ci)
    coins = state.seats[seat].coins
    if a.args == ("free",):
        parts: list[Part] = [("buy_free", {"card": card, "price": price})]
        price = 0
    else:
        parts = [("buy_reserved" if reserved else "buy", {"card": card, "price": price, "coins": coins})]
    parts.extend(_gain_note(state, seat, ci, cargo, coins - price))
    return parts


def _gain_note(state: State, seat_i: int, ci: int, cargo: tuple[int, ...], coins_after: int) -> list[Part]:
    """What owning the card would mean for the buyer, with this position's numbers."""
    card = state.cat.cards[ci]
    kind = card.kind
    seat = state.seats[seat_i]
    cards = [state.cat.cards[c] for c in seat.cards]
    count = sum(1 for c in cards if c.kind == kind)
    args: dict[str, Any] = {"vp": card.vp, "coins": card.coins, "count": count}
    if kind == "ship":
        args.update(goods=_goods(state, cargo), n=len(cargo))
        if not cargo:
            return [("gain_ship_empty", args)]
    elif kind == "contract":
        args["goods"] = list(card.goods)
    elif kind == "merchant":
        args["good"] = card.good
        if not card.vp:
            kind = "merchant_novp"
    elif kind in ("fireman", "fire_engine"):
        mine = _firemen(state, seat_i, extra=ci)
        others = [_firemen(state, j) for j in range(state.n_players) if j != seat_i]
        args.update(total=mine, best=max(others, default=0))
    elif kind == "counting_office":
        table = state.cat.setup["counting_office_points"]
        args.update(count=count + 1, before=table[min(count, len(table) - 1)],
                    after=table[min(count + 1, len(table) - 1)])
    elif kind == "warehouse":
        args.update(cap=state.cat.setup["warehouse_capacity"], vp=card.vp_per_good)
    elif kind == "bank":
        args["income"] = card.income
    elif kind == "chamber_of_commerce":
        args.update(vp=card.vp_per_coin, total=coins_after)
    elif kind == "port":
        args.update(vp=card.vp_per_ship, ships=sum(1 for c in cards if c.kind == "ship"))
    elif kind == "delivery":
        args.update(good=card.good, points=card.points)
    elif kind == "press":
        args.update(vp=card.vp_per_fireman, count=sum(1 for c in cards if c.kind == "fireman"))
    elif kind == "mayor":
        args["best"] = max((c.vp for c in cards if c.kind in kai_rules.PURE_POINT_KINDS), default=0)
    elif kind == "harbour_tour":
        args.update(vp=card.vp_per_building, count=sum(1 for c in cards if c.kind in kai_rules.PURE_POINT_KINDS))
    elif kind == "deichtorhallen":
        args.update(vp=card.vp_per_trader, count=sum(1 for c in cards if c.kind == "merchant"))
    elif kind == "accountant":
        args.update(vp=card.vp_per_contract, count=len(seat.contracts))
    elif kind == "harbour_master":
        args["convert"] = card.convert
    elif kind == "thief":
        args["total"] = sum(min(card.coins, state.seats[j].coins) for j in range(state.n_players) if j != seat_i)
    elif kind == "truck":
        args["moves"] = card.moves
    elif kind == "coffee_break":
        args["breaks"] = card.breaks
    elif kind == "warehouse_workers":
        args["workers"] = card.workers
    elif kind == "insurance":
        args["cost"] = card.cost
    key = "gain_" + kind
    return [(key, args)] if messages.has("explain", key) else []


def _firemen(state: State, seat_i: int, extra: int = -1) -> int:
    """A seat's firemen total (the Fire Engine doubling the best one), with card ``extra`` added."""
    seat = state.seats[seat_i]
    ids = [*seat.cards, extra] if extra >= 0 else list(seat.cards)
    cards = [state.cat.cards[c] for c in ids]
    values = [c.value for c in cards if c.kind == "fireman"]
    total = sum(values)
    if values and state.kai is not None and any(c.kind == "fire_engine" for c in cards):
        total += max(values)
    return total


def _pass(state: State, a: Action) -> list[Part]:
    if state.phase == "spy":
        return [("pass_spy", {})]
    if state.phase == "fire":
        return _fire_pass(state)
    ci, seat, price, cargo, reserved = _offer_now(state)
    card = _cid(state, ci)
    if reserved:
        key = "pass_reserved_cargo" if cargo else "pass_reserved"
        return [(key, {"card": card, "goods": _goods(state, cargo)})]
    col = state.columns[state.space]
    if len(col) == 1:
        key = "pass_last_cargo" if cargo else "pass_last"
        return [(key, {"card": card, "goods": _goods(state, cargo)})]
    nxt = kai_rules.owner(col[1])
    coins = state.seats[nxt].coins
    if nxt == seat:
        return [("pass_self", {"card": card, "price": price - 1})]
    key = "pass" if coins >= price - 1 else "pass_poor"
    return [(key, {"card": card, "seat": nxt, "price": price - 1, "coins": coins})]


# ---- fire (Kaispeicher) -------------------------------------------------------------------------


def _fire_now(state: State) -> tuple[Any, int, int]:
    """(fire card, seat deciding, its strength)."""
    ci, _context, queue = state.kai.fire
    card = state.cat.cards[ci]
    return card, queue[0][1], card.strength


def _fire_pass(state: State) -> list[Part]:
    card, seat_i, strength = _fire_now(state)
    kind = state.kai.fire[2][0][0]
    if kind == "double":
        return [("pass_chief", {"card": card.id, "strength": strength})]
    return [("pass_insurance", {"card": card.id, "strength": strength, "coins": state.seats[seat_i].coins})]


def _double(state: State, a: Action) -> list[Part]:
    card, _seat, strength = _fire_now(state)
    return [("double", {"card": card.id, "strength": strength})]


def _insure(state: State, a: Action) -> list[Part]:
    card, seat_i, strength = _fire_now(state)
    seat = state.seats[seat_i]
    cost = state.cat.cards[_has_card(state, seat, "insurance")].cost
    return [("insure", {"card": card.id, "strength": strength, "cost": cost, "coins": seat.coins})]


# ---- loading ------------------------------------------------------------------------------------


def _contract_parts(state: State, seat: Seat, k: int, good: str, key_prefix: str = "contract") -> list[Part]:
    ci, placed = seat.contracts[k]
    card = state.cat.cards[ci]
    n = len(placed) + 1
    args = {"good": good, "k": k, "k_to": k, "goods": list(card.goods), "placed": n, "total": len(card.goods),
            "vp": card.vp}
    return [(key_prefix + ("_done" if n == len(card.goods) else ""), args)]


def _contract(state: State, a: Action) -> list[Part]:
    good, k = a.args
    _i, seat = _loading(state)
    return _contract_parts(state, seat, k, good)


def _sell(state: State, a: Action) -> list[Part]:
    good = a.args[0]
    _i, seat = _loading(state)
    g = state.notation.order[good]
    merchant = state.owned_card(seat, "merchant", good)
    coins = seat.sells[g]
    return [("sell", {"good": good, "card": _cid(state, merchant), "coins": coins, "total": seat.coins + coins})]


def _store(state: State, a: Action) -> list[Part]:
    _i, seat = _loading(state)
    vp = sum(state.cat.cards[c].vp_per_good for c in seat.cards if state.cat.cards[c].kind == "warehouse")
    return [("store", {"good": a.args[0], "used": len(seat.warehouse) + 1, "cap": seat.warehouse_cap, "vp": vp})]


def _keep(state: State, a: Action) -> list[Part]:
    return [("keep", {"good": a.args[0], "cap": state.notation.hall_cap})]


def _take(state: State, a: Action) -> list[Part]:
    good, place = a.args
    return [("take_" + place, {"good": good})]


def _convert(state: State, a: Action) -> list[Part]:
    *given, _to, target = a.args
    _i, seat = _loading(state)
    left = state.stock[state.notation.order[target]] - 1
    key = "convert_2" if seat.k_convert else "convert"
    return [(key, {"goods": list(given), "good": target, "count": len(given), "left": left})]


def _hallsell(state: State, a: Action) -> list[Part]:
    _i, seat = _loading(state)
    return [("hallsell", {"goods": list(a.args), "total": seat.coins + 1})]


def _done(state: State, a: Action) -> list[Part]:
    _i, seat = _loading(state)
    parts: list[Part] = [("done_expire", {"goods": _goods(state, state.dock), "n": len(state.dock)})
                         if state.dock else ("done_empty", {})]
    stored = (*seat.warehouse, *seat.hall)
    if stored:
        parts.append(("done_stored", {"goods": _goods(state, stored), "n": len(stored)}))
    if state.kai is not None and state.kai.truck > 0:
        parts.append(("done_truck", {"left": state.kai.truck}))
    return parts


def _deliver(state: State, a: Action) -> list[Part]:
    good = a.args[0]
    _i, seat = _loading(state)
    g = state.notation.order[good]
    building = state.owned_card(seat, "delivery", good)
    return [("deliver", {"good": good, "card": _cid(state, building), "points": seat.delivers[g]})]


def _auction(state: State, a: Action) -> list[Part]:
    good = a.args[0]
    left = state.stock[state.notation.order[good]]
    return [("auction", {"good": good, "left": left})]


def _smuggle(state: State, a: Action) -> list[Part]:
    j, k, good = a.args
    ci, placed = state.seats[j].contracts[k]
    card = state.cat.cards[ci]
    return [("smuggle", {"good": good, "seat": j, "k": k, "goods": list(card.goods),
                         "placed": len(placed) - 1, "total": len(card.goods)})]


def _truck(state: State, a: Action) -> list[Part]:
    good, k1, k2 = a.args
    _i, seat = _loading(state)
    moves = state.kai.truck
    if moves > 0:
        parts: list[Part] = [("truck", {"good": good, "k": k1, "k_to": k2, "left": moves - 1})]
    else:
        card = state.cat.cards[_has_card(state, seat, "truck")]
        parts = [("truck_first", {"good": good, "k": k1, "k_to": k2, "left": card.moves - 1})]
    parts.extend(_contract_parts(state, seat, k2, good, "truck_to"))
    c1, placed1 = seat.contracts[k1]
    card1 = state.cat.cards[c1]
    if len(placed1) == len(card1.goods):
        parts.append(("truck_undone", {"k": k1, "vp": card1.vp}))
    return parts


_EXPLAINERS: dict[str, Callable[[State, Action], list[Part]]] = {
    "place": _place,
    "reserve": _reserve,
    "break": _break,
    "stop": _stop,
    "spy": _spy,
    "buy": _buy,
    "pass": _pass,
    "double": _double,
    "insure": _insure,
    "contract": _contract,
    "sell": _sell,
    "store": _store,
    "keep": _keep,
    "take": _take,
    "convert": _convert,
    "hallsell": _hallsell,
    "done": _done,
    "deliver": _deliver,
    "auction": _auction,
    "smuggle": _smuggle,
    "truck": _truck,
}
GRAMMAR.covers("explanations", _EXPLAINERS)  # every verb of the grammar is explained

CAPABILITIES["explain"] = explain_action


# ---- moves as short phrases ----------------------------------------------------------------------


def phrase_action(state: State, action: Action | str, lang: str = "en") -> str:
    """``action`` taken in ``state`` as a short phrase with its card and price ("buy the Vulcanizer for 3
    coins" / "Kauf: Vulkaniseur für 3 Münzen"), for move lists and logs; templates ``[phrase.KEY]``."""
    if lang not in LANGS:
        raise ValueError(f"language must be one of {LANGS}, not {lang!r}")
    a = state.parse_action(action)
    phrase = _PHRASES.get(a.kind)
    if phrase is None:
        return str(a)
    key, args = phrase(state, a)
    return messages.text("phrase", key, lang, args, state)


def _ph_place(state: State, a: Action) -> Part:
    space = a.args[0]
    grey = _grey_next(state, state.to_move)
    return ("place_grey" if grey else "place",
            {"card": _cid(state, state.offer_idx[space]), "price": len(state.columns[space]) + 1})


def _ph_buy(state: State, a: Action) -> Part:
    ci, _seat, price, _cargo, _reserved = _offer_now(state)
    return ("buy_free" if a.args == ("free",) else "buy", {"card": _cid(state, ci), "price": price})


def _ph_pass(state: State, a: Action) -> Part:
    if state.phase == "spy":
        return ("pass_spy", {})
    if state.phase == "fire":
        return ("pass_fire", {"card": _fire_now(state)[0].id})
    ci, _seat, price, _cargo, _reserved = _offer_now(state)
    return ("pass", {"card": _cid(state, ci), "price": price})


def _ph_fire(key: str) -> Callable[[State, Action], Part]:
    def phrase(state: State, a: Action) -> Part:
        card, seat_i, _strength = _fire_now(state)
        args: dict[str, Any] = {"card": card.id}
        if key == "insure":
            args["cost"] = state.cat.cards[_has_card(state, state.seats[seat_i], "insurance")].cost
        return (key, args)
    return phrase


def _ph_contract(state: State, a: Action) -> Part:
    good, k = a.args
    _i, seat = _loading(state)
    ci, placed = seat.contracts[k]
    card = state.cat.cards[ci]
    return ("contract", {"good": good, "goods": list(card.goods), "placed": len(placed) + 1, "total": len(card.goods)})


def _ph_sell(state: State, a: Action) -> Part:
    good = a.args[0]
    _i, seat = _loading(state)
    merchant = state.owned_card(seat, "merchant", good)
    return ("sell", {"good": good, "card": _cid(state, merchant), "coins": seat.sells[state.notation.order[good]]})


def _ph_deliver(state: State, a: Action) -> Part:
    good = a.args[0]
    _i, seat = _loading(state)
    building = state.owned_card(seat, "delivery", good)
    return ("deliver", {"good": good, "card": _cid(state, building),
                        "points": seat.delivers[state.notation.order[good]]})


def _ph_done(state: State, a: Action) -> Part:
    if state.dock:
        return ("done_expire", {"goods": _goods(state, state.dock), "n": len(state.dock)})
    return ("done", {})


def _ph_smuggle(state: State, a: Action) -> Part:
    j, _k, good = a.args
    return ("smuggle", {"good": good, "seat": j})


def _ph_truck(state: State, a: Action) -> Part:
    good, k1, k2 = a.args
    return ("truck", {"good": good, "k1": k1, "k2": k2})


_PHRASES: dict[str, Callable[[State, Action], Part]] = {
    "place": _ph_place,
    "reserve": lambda s, a: ("reserve", {"card": _cid(s, s.kai.top[a.args[0]])}),
    "break": lambda s, a: ("break", {}),
    "stop": lambda s, a: ("stop", {}),
    "spy": lambda s, a: ("spy", {"seat": kai_rules.owner(s.columns[a.args[2]][a.args[3]]),
                                 "card_other": _cid(s, s.offer_idx[a.args[2]])}),
    "buy": _ph_buy,
    "pass": _ph_pass,
    "double": _ph_fire("double"),
    "insure": _ph_fire("insure"),
    "contract": _ph_contract,
    "sell": _ph_sell,
    "store": lambda s, a: ("store", {"good": a.args[0]}),
    "keep": lambda s, a: ("keep", {"good": a.args[0]}),
    "take": lambda s, a: ("take_" + a.args[1], {"good": a.args[0]}),
    "convert": lambda s, a: ("convert", {"goods": list(a.args[:-2]), "good": a.args[-1]}),
    "hallsell": lambda s, a: ("hallsell", {"goods": list(a.args)}),
    "done": _ph_done,
    "deliver": _ph_deliver,
    "auction": lambda s, a: ("auction", {"good": a.args[0]}),
    "smuggle": _ph_smuggle,
    "truck": _ph_truck,
}

CAPABILITIES["phrase"] = phrase_action

__all__ = ["explain_action", "explain_actions", "phrase_action"]
