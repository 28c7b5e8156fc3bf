"""Plain-language explanations of Packet Row actions, in context (EN/DE), for teaching and hover texts.

``explain_action(state, action, lang)`` says what a legal action would do *in this position*: what a card
costs and gives, who decides next, which contracts a fulfilment completes and what it pays, what declining
or choosing another board means for the harbour master. Legality comes from the engine: the action is applied
to the immutable state first, so an illegal one raises :class:`IllegalAction` naming the rule. The sentences
are templates in ``data/messages/packet_row_explain.toml`` (``[pr_explain.KEY]``, English and German).
"""

from __future__ import annotations

from typing import Any

from ...engine.actions import Action
from ...engine.i18n import LANGS, load_messages, messages
from .catalog import BOARDS
from .grammar import GRAMMAR
from .state import CAPABILITIES, State

load_messages("packet_row_explain")
load_messages("packet_row_phrases")

Part = tuple[str, dict[str, Any]]


def explain_action(state: State, action: Action | str, lang: str = "en") -> str:
    """What ``action`` would do in ``state``, in ``lang``; raises IllegalAction if the rules forbid it."""
    if lang not in LANGS:
        raise ValueError(f"language must be one of {LANGS}, not {lang!r}")
    a = state.parse_action(action)
    after = state.apply(a)  # the engine decides legality; the state itself is unchanged
    parts = _EXPLAINERS[a.kind](state, a, after)
    return " ".join(_text(state, key, lang, args) for key, args in parts)


def explain_actions(state: State, lang: str = "en") -> dict[str, str]:
    """Every legal action of the seat to move, with its explanation (notation → text)."""
    return {str(a): explain_action(state, a, lang) for a in state.legal_actions()}


def _text(state: State, key: str, lang: str, args: dict[str, Any]) -> str:
    named = {}
    for k, v in args.items():  # boards and destinations by name (the shared namer knows seats, cards, goods)
        if k.startswith("board"):
            named[k] = _names(state, "board", v, lang)
        elif k.startswith("dest"):
            named[k] = _names(state, "dest", v, lang)
        else:
            named[k] = v
    return messages.text("pr_explain", key, lang, named, state)


def _names(state: State, word: str, value: str | list[str], lang: str) -> str:
    if isinstance(value, list):
        items = [state._word(word, v, lang) for v in value]
        if not items:
            return {"en": "none", "de": "keine"}[lang]
        conj = {"en": " and ", "de": " und "}[lang]
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + conj + items[-1]
    return state._word(word, value, lang)


def _cards(state: State, row: tuple[int, ...]) -> list[str]:
    ids = state.nt.ids
    return [ids[c] for c in row if c >= 0]


def _first_pending(state: State, hm: int) -> list[int]:
    """The seats that would decide on a newly chosen board before the harbour master, in order."""
    n = state.n_players
    return [i for i in ((hm + k) % n for k in range(1, n)) if state.seats[i].pawn is None]


def _money(state: State) -> int:
    return state.seats[state.to_move].money  # type: ignore[index]


# ---- card decisions -------------------------------------------------------------------------------


def _choose(state: State, a: Action, after: State) -> list[Part]:
    seat = state.to_move
    assert seat is not None
    b = state.nt.board_index[a.args[0]]
    cards = _cards(state, state.current[b])
    first = _first_pending(state, seat)
    if state.phase == "choose":
        parts: list[Part] = [("choose", {"board": a.args[0], "cards": cards})]
    else:
        parts = [("choose_other", {"board": a.args[0], "board_before": BOARDS[state.board], "cards": cards})]
    if first:
        parts.append(("choose_order", {"seats": first, "n": len(first)}))
    else:
        parts.append(("choose_alone", {}))
    parts.append(("money_now", {"money": _money(state)}))
    return parts


def _take(state: State, a: Action, after: State) -> list[Part]:
    nt = state.nt
    seat = state.to_move
    assert seat is not None
    b = nt.board_index[a.args[0]]
    future = a.args[1] == "future"
    slot = a.args[-1]
    c = (state.future if future else state.current)[b][slot]
    cost = nt.cost[c]
    money = _money(state)
    args = {"card": nt.ids[c], "board": BOARDS[b], "slot": slot, "cost": cost, "money": money,
            "left": money - cost}
    key = ("take_future" if future else "take") + ("" if cost else "_free")
    parts: list[Part] = [(key, args)]
    parts.extend(_card_note(state, c))
    if seat == state.hm:
        if b != state.board:
            parts.append(("take_other_board", {"board": BOARDS[b]}))
        parts.append(("take_ends_round", {"boards": [BOARDS[x] for x in after_chosen(state, b)]}))
    else:
        parts.append(("take_pawn", {}))
    return parts


def after_chosen(state: State, b: int) -> list[int]:
    """The boards chosen this round once board ``b`` is chosen too (taking from another board chooses it)."""
    return list(state.chosen) if b in state.chosen else [*state.chosen, b]


def _card_note(state: State, c: int) -> list[Part]:
    nt = state.nt
    kind = nt.kind[c]
    card = state.cat.cards[c]
    if kind == "contract":
        return [("note_contract", {"amount": card.amount, "good": card.good, "dest": card.dest, "pays": card.pays})]
    if kind == "goods":
        return [("note_goods", {"amount": card.amount, "good": card.good})]
    if kind == "gold":
        return [("note_gold2" if card.bars == 2 else "note_gold1", {"bars": card.bars})]
    if kind == "ship":
        return [("note_ship", {"dest": card.dest})]
    if kind == "building":
        return [("note_building", {"vp": card.vp})]
    if kind == "money":
        return [("note_money", {"value": card.value})]
    if kind == "banker":
        pts = nt.banker_points[state.n_players]
        key = "note_banker_second" if len(pts) > 1 else "note_banker"
        return [(key, {"first": pts[0], "second": pts[1] if len(pts) > 1 else 0})]
    return [(f"note_{kind}", {})]  # captain, merchant, assistant


def _decline(state: State, a: Action, after: State) -> list[Part]:
    rest = [BOARDS[b] for b in state._open_boards()]
    key = "decline" if rest else "decline_last"
    return [(key, {"board": BOARDS[state.board], "boards": rest, "seat": state.hm})]


def _pass(state: State, a: Action, after: State) -> list[Part]:
    boards = [BOARDS[b] for b in state.chosen]
    key = "pass_all_took" if state._others_all_took() else "pass_no_board"
    parts: list[Part] = [(key, {"boards": boards})]
    if after.is_over or after.phase == "final":
        parts.append(("round_ends_game", {}))
    return parts


# ---- any time -------------------------------------------------------------------------------------


def _cash(state: State, a: Action, after: State) -> list[Part]:
    value = a.args[0]
    money = _money(state)
    return [("cash", {"value": value, "money": money, "after": money + value})]


def _fulfil(state: State, a: Action, after: State) -> list[Part]:
    nt = state.nt
    contracts, ships, uses = nt.fulfil_of.get(a.text) or nt.fulfil_of[nt.parse(a.text).text]
    pays = sum(nt.pays[c] for c in contracts)
    money = _money(state)
    each = [f"${nt.pays[c]}" for c in contracts]
    args = {"cards": [nt.ids[c] for c in contracts], "n": len(contracts), "dests": [nt.dests[to] for _, to in ships],
            "ships": len(ships), "cards_goods": [nt.ids[t] for t, _ in uses], "pays": pays, "each": " + ".join(each),
            "money": money, "after": money + pays}
    parts: list[Part] = [("fulfil_many" if len(contracts) > 1 else "fulfil", args)]
    for frm, to in ships:
        if frm != to:
            parts.append(("fulfil_captain", {"dest": nt.dests[frm], "dest_to": nt.dests[to]}))
    for t, target in uses:
        if target >= 0:
            parts.append(("fulfil_merchant", {"card": nt.ids[t], "good": nt.goods[target]}))
    need = nt.tables.need(contracts)
    have = 0
    for t, _ in uses:
        have += nt.tables.amount[t]
    if have > sum(need):
        parts.append(("fulfil_surplus", {"units": have - sum(need)}))
    parts.append(("fulfil_again", {}) if state.phase != "final" else ("fulfil_final", {}))
    return parts


def _done(state: State, a: Action, after: State) -> list[Part]:
    rest = list(state.pending[1:])
    return [("done_next" if rest else "done_last", {"seats": rest, "n": len(rest)})]


_EXPLAINERS = {"choose": _choose, "take": _take, "decline": _decline, "pass": _pass, "cash": _cash,
               "fulfil": _fulfil, "done": _done}
GRAMMAR.covers("explanations", _EXPLAINERS)  # every verb of the grammar is explained

CAPABILITIES["explain"] = explain_action


# ---- moves as short phrases ----------------------------------------------------------------------


def phrase_action(state: State, action: Action | str, lang: str = "en") -> str:
    """``action`` taken in ``state`` as a short phrase with its card and price ("take the Bank for $4" /
    "Karte: Bank für $4"), for move lists and logs; templates ``[pr_phrase.KEY]``."""
    if lang not in LANGS:
        raise ValueError(f"language must be one of {LANGS}, not {lang!r}")
    a = state.parse_action(action)
    key, args = _PHRASES[a.kind](state, a)
    named = {k: _names(state, "board", v, lang) if k.startswith("board") else v for k, v in args.items()}
    return messages.text("pr_phrase", key, lang, named, state)


def _ph_take(state: State, a: Action) -> Part:
    nt = state.nt
    b = nt.board_index[a.args[0]]
    future = a.args[1] == "future"
    c = (state.future if future else state.current)[b][a.args[-1]]
    cost = nt.cost[c]
    key = ("take_future" if future else "take") + ("" if cost else "_free")
    return (key, {"card": nt.ids[c], "cost": cost})


def _ph_fulfil(state: State, a: Action) -> Part:
    nt = state.nt
    contracts, _ships, _uses = nt.fulfil_of.get(a.text) or nt.fulfil_of[nt.parse(a.text).text]
    return ("fulfil", {"cards": [nt.ids[c] for c in contracts], "pays": sum(nt.pays[c] for c in contracts)})


_PHRASES = {"choose": lambda s, a: ("choose", {"board": a.args[0]}), "take": _ph_take,
            "decline": lambda s, a: ("decline", {"board": BOARDS[s.board]}),
            "pass": lambda s, a: ("pass", {}), "cash": lambda s, a: ("cash", {"value": a.args[0]}),
            "fulfil": _ph_fulfil, "done": lambda s, a: ("done", {})}

CAPABILITIES["phrase"] = phrase_action

__all__ = ["explain_action", "explain_actions", "phrase_action"]
