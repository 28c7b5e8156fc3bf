"""The Packet Row board view's data: a state turned into a JSON-ready model, and clicks turned into notation.

Pure Python (no widget library), like :mod:`speicherstadt_lab.ui.model` for Die Speicherstadt. Hidden
information is handled here and nowhere else: every holding comes from ``state.view(viewer)`` (the engine's
definition of what a seat may see), the other seats' hands are not shown at all while play runs (neither
cards nor their number), and the legal actions are listed only when the viewer is the seat to move. From the
final phase on the engine reveals every hand, and so does the board.

The viewer is ``seat`` when given, otherwise the seat to move (hot-seat play).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..engine.actions import Action
from ..engine.i18n import LANGS, load_messages, messages
from ..games.packet_row.catalog import BOARDS
from ..games.packet_row.grammar import GRAMMAR
from . import clicks
from .model import event_log, ink, rule_labels, seat_tokens
from .rules import card_rule

load_messages("packet_row")
load_messages("packet_row_ui")

MODEL_FORMAT = "speicherstadt-lab/packet-row-board/1"
LOG_SIZE = 8  # transitions shown in the event log
CLICK_FIELDS: dict[str, tuple[str, ...]] = GRAMMAR.click_fields  # the click kinds and their fields (the grammar's)
KINDS = tuple(CLICK_FIELDS)
DEST_CODES = {"gb": "GB", "fr": "FR", "nl": "NL", "se": "SE", "es": "ES", "de": "DE"}


def _t(section: str, key: str, lang: str, namer: Any = None, **args: Any) -> str:
    return messages.text(section, key, lang, args, namer)


def _ui(key: str, lang: str, namer: Any = None, **args: Any) -> str:
    return messages.text("pru_ui", key, lang, args, namer)


def _check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise ValueError(f"language must be one of {LANGS}, not {lang!r}")
    return lang


# ---- cards ---------------------------------------------------------------------------------------


def _named(table: Sequence[Any], ident: str | None, lang: str) -> str:
    for x in table:
        if x.id == ident:
            return str(x.name(lang))
    return ident or ""


def card_text(state: Any, card_id: str, lang: str = "en") -> str:
    """What the card does, in ``lang``, with its values (the hover text)."""
    c = state.cat.card(card_id)
    cat = state.cat
    key = "start_contract" if c.start else c.kind
    if not messages.has("pru_card", key):
        return ""
    points = state.notation.banker_points.get(state.n_players) or (0,)
    args = {"cost": c.cost, "vp": c.vp, "amount": c.amount, "bars": c.bars, "pays": c.pays, "value": c.value,
            "good": _named(cat.goods, c.good, lang), "dest": _named(cat.dests, c.dest, lang),
            "first": points[0], "second": points[1] if len(points) > 1 else 0}
    key2 = "banker_two" if c.kind == "banker" and len(points) > 1 else key
    return messages.text("pru_card", key2, lang, args)


def card_info(state: Any, card_id: str, lang: str = "en") -> dict[str, Any]:
    """Everything the view draws for one card (a public card: never call it with a secret one)."""
    c = state.cat.card(card_id)
    cat = state.cat
    good = next((g for g in cat.goods if g.id == c.good), None)
    kind = "start" if c.start else c.kind
    info: dict[str, Any] = {
        "id": c.id,
        "kind": c.kind,
        "start": c.start,
        "name": state.card_name(c.id, lang),
        "kind_name": _t("pru_kind", kind, lang) if messages.has("pru_kind", kind) else c.kind,
        "board": c.board,
        "cost": c.cost if c.kind in ("goods", "gold", "building") else 0,
        "text": card_text(state, c.id, lang),
        "rule": card_rule(state, c.kind, lang),  # the rule it belongs to (hover text; ui/rules.py)
    }
    if c.kind == "building":
        info["vp"] = c.vp
        info["head"] = (c.de if lang == "de" else c.en) or c.id
    if good is not None:
        info.update(good=good.id, good_name=good.name(lang), good_colour=good.colour or "#cccccc",
                    good_ink=ink(good.colour or "#cccccc"))
        if c.kind == "goods":
            info["head"] = good.name(lang)
    if "head" not in info:
        info["head"] = _t("pru_head", kind, lang) if messages.has("pru_head", kind) else info["kind_name"]
    if c.kind in ("contract", "goods"):
        info["amount"] = c.amount
    if c.kind == "contract":
        info["pays"] = c.pays
    if c.kind == "gold":
        info["bars"] = c.bars
    if c.kind == "money":
        info["value"] = c.value
    if c.dest is not None:
        info.update(dest=c.dest, dest_name=_named(cat.dests, c.dest, lang), dest_code=DEST_CODES.get(c.dest,
                                                                                                     c.dest.upper()))
    return info


# ---- the model -----------------------------------------------------------------------------------


def viewer_of(state: Any, seat: int | None) -> int | None:
    """The seat whose hand the board shows: ``seat``, or else the seat to move (None once the game is over)."""
    return seat if seat is not None else state.to_move


def _code(dest: str | None) -> str:
    return DEST_CODES.get(dest or "", (dest or "").upper())


def _fulfil_options(state: Any, acts: Sequence[Action], lang: str) -> list[dict[str, Any]]:
    cat = state.cat
    out = []
    for act in (a for a in acts if a.kind == "fulfil"):
        text = str(act)
        parts = state.nt.fulfil_parts(text)
        pays = sum(cat.card(c).pays for c in parts["contracts"])
        contracts = []
        for cid in parts["contracts"]:
            c = cat.card(cid)
            contracts.append(_ui("opt_start" if c.start else "opt_contract", lang, amount=c.amount,
                                 good=_named(cat.goods, c.good, lang), dest=_code(c.dest)))
        ships = []
        for sh in parts["ships"]:
            ships.append(_ui("opt_ship_captain", lang, dest=_code(sh["dest"]), to=_code(sh["captain"]))
                         if sh["captain"] else _ui("opt_ship", lang, dest=_code(sh["dest"])))
        goods = []
        for u in parts["goods"]:
            c = cat.card(u["card"])
            name = _ui("opt_gold", lang, bars=c.bars) if c.kind == "gold" else \
                _ui("opt_goods", lang, amount=c.amount, good=_named(cat.goods, c.good, lang))
            goods.append(_ui("opt_merchant", lang, card=name, good=_named(cat.goods, u["merchant"], lang))
                         if u["merchant"] else name)
        captains = sum(1 for sh in parts["ships"] if sh["captain"])
        merchants = sum(1 for u in parts["goods"] if u["merchant"])
        used = [*parts["contracts"], *(u["card"] for u in parts["goods"]), *(["captain"] * captains),
                *(["merchant"] * merchants)]
        out.append({
            "index": len(out), "action": text, "msg": GRAMMAR.fields_of(act), "pays": pays, **parts,
            "captains": captains, "merchants": merchants,
            "hand": used,  # hand card ids used (with repeats)
            "ship_dests": [sh["dest"] for sh in parts["ships"]],
            "label": _ui("opt_label", lang, contracts=" + ".join(contracts), ships=", ".join(ships),
                         goods=" + ".join(goods)),
        })
    return out


def _boards(state: Any, view: dict[str, Any], lang: str, legal: set[str]) -> list[dict[str, Any]]:
    out = []
    pawns = {}
    for i, s in enumerate(view["seats"]):
        if s["pawn"] is not None:
            pawns[tuple(s["pawn"])] = i
    chosen = view["chosen"]
    for b, bid in enumerate(BOARDS):
        v = view["boards"][bid]

        def slots(where: str, row: list[str | None], bid: str = bid) -> list[dict[str, Any]]:
            res = []
            for k, cid in enumerate(row):
                action = f"take {bid} {k}" if where == "current" else f"take {bid} future {k}"
                res.append({"index": k, "card": card_info(state, cid, lang) if cid is not None else None,
                            "pawn": pawns.get((bid, where, k)), "action": action, "legal": action in legal})
            return res

        choose = f"choose {bid}"
        out.append({
            "id": bid,
            "index": b,
            "name": state.cat.boards[b].name(lang),
            "chosen": bid in chosen,
            "chosen_order": chosen.index(bid) + 1 if bid in chosen else None,
            "active": view["board"] == bid,
            "short": bid in view["short"],
            "deck": v["deck"],
            "deck_label": _ui("deck", lang, n=v["deck"]),
            "discard": len(v["discard"]),
            "discard_label": _ui("discard", lang, n=len(v["discard"])),
            "removed": v["removed"],
            "current": slots("current", v["current"]),
            "future": slots("future", v["future"]),
            "choose": {"action": choose, "legal": choose in legal, "label": _ui("choose", lang)},
        })
    return out


def _seats(state: Any, view: dict[str, Any], lang: str, viewer: int | None, tokens: list[dict[str, Any]],
           acts: Sequence[Action]) -> list[dict[str, Any]]:
    revealed = view["phase"] in ("final", "over")
    winners = state.winners() if state.is_over else []
    ranks = state.ranks() if state.is_over else None
    fulfil_cards: set[str] = set()
    for a in acts:
        if a.kind == "fulfil":
            p = state.nt.fulfil_parts(a)
            fulfil_cards.update(p["contracts"])
            fulfil_cards.update(u["card"] for u in p["goods"])
            if any(sh["captain"] for sh in p["ships"]):
                fulfil_cards.add("captain")
            if any(u["merchant"] for u in p["goods"]):
                fulfil_cards.add("merchant")
    cashable = {a.args[0] for a in acts if a.kind == "cash"}
    out = []
    for i, s in enumerate(view["seats"]):
        shown = i == viewer or revealed
        hand = None
        if shown:
            hand = []
            for cid in s["hand"]:
                info = card_info(state, cid, lang)
                info["usable"] = i == viewer and cid in fulfil_cards
                info["cash"] = i == viewer and info.get("value") in cashable and info["kind"] == "money"
                hand.append(info)
        ships = [card_info(state, cid, lang) for cid in s["ships"]]
        entry = {
            **tokens[i],
            "money": s["money"],
            "money_label": f"${s['money']}",
            "ships": ships,
            "hand": hand,
            "hand_hidden": not shown,
            "hand_label": _ui("hand", lang) if i == viewer else _ui("hand_shown", lang),
            "pawn": s["pawn"],
            "holds_pawn": s["pawn"] is None and view["phase"] in ("choose", "decide"),
            "harbour_master": view["harbour_master"] == i,
            "to_move": view["to_move"] == i,
            "viewer": i == viewer,
            "winner": i in winners,
            "rank": ranks[i] if ranks else None,
        }
        if shown:  # the score counts hand cards: only where the hand is shown
            breakdown = state.score_breakdown(i)
            entry["score"] = state.score(i)
            entry["score_label"] = _ui("score", lang, vp=entry["score"])
            entry["breakdown"] = ", ".join(_ui("score_" + k, lang, n=v) for k, v in breakdown.items() if v)
        out.append(entry)
    return out


def _prompt(state: Any, view: dict[str, Any], lang: str, viewer: int | None, acts: Sequence[Action]) -> str:
    if state.is_over:
        return _t("pru_prompt", "over", lang, state, seats=state.winners())
    mover = view["to_move"]
    if mover is None:
        return ""
    if viewer != mover:
        return _t("pru_prompt", "waiting", lang, state, seat=mover)
    phase = view["phase"]
    board = _named(state.cat.boards, view["board"], lang) if view["board"] else ""
    if phase == "choose":
        return _t("pru_prompt", "choose", lang, state, seat=mover)
    if phase == "final":
        return _t("pru_prompt", "final", lang, state, seat=mover)
    if mover != view["harbour_master"]:
        return _t("pru_prompt", "decide", lang, state, seat=mover, board=board)
    if any(a.kind == "choose" for a in acts):
        return _t("pru_prompt", "hm_choose", lang, state, seat=mover, board=board)
    others_took = all(s["pawn"] is not None for k, s in enumerate(view["seats"]) if k != mover)
    return _t("pru_prompt", "hm_all_took" if others_took else "hm_last", lang, state, seat=mover, board=board)


_LABELS = ("current", "future", "chosen", "active", "short", "harbour_master", "pawns", "pawns_none", "ships",
           "no_ships", "hand_hidden", "hand_empty", "decline", "pass", "done", "cash", "fulfil", "fulfil_hint",
           "fulfil_none_match", "clear", "log", "log_start", "dismiss", "money", "to_move", "viewer", "winner",
           "rank", "assistant_hint", "empty_slot", "round_boards", "selected", "vp")


def board_model(state: Any, lang: str = "en", seat: int | None = None, log: Iterable[Any] = ()) -> dict[str, Any]:
    """The JSON-ready board model of ``state`` in ``lang``, as ``seat`` (None: the seat to move) sees it.

    ``log`` holds earlier states, oldest first, whose events the log shows before the current state's.
    """
    _check_lang(lang)
    if seat is not None and not 0 <= seat < state.n_players:
        raise ValueError(f"seat must be None or 0..{state.n_players - 1}, not {seat!r}")
    viewer = viewer_of(state, seat)
    view = state.view(viewer)
    mover = view["to_move"]
    can_act = mover is not None and viewer == mover
    # The model works on the engine's Actions (kind and args): it never takes notation text apart.
    acts = state.legal_actions() if can_act else []
    legal = [str(a) for a in acts]
    legal_set = set(legal)
    tokens = seat_tokens(state, lang)
    buttons = []
    for verb in ("decline", "pass", "done"):
        if verb in legal_set:
            buttons.append({"kind": verb, "action": verb, "label": _ui(verb, lang),
                            "title": _ui(verb + "_title", lang)})
    cash = [{"value": a.args[0], "action": str(a), "label": _ui("cash_button", lang, value=a.args[0])}
            for a in acts if a.kind == "cash"]
    history = [*log, state]
    phases = ["choose", "decide", "final", "over"]
    return {
        "format": MODEL_FORMAT,
        "lang": lang,
        "title": "Packet Row",
        "players": state.n_players,
        "round": view["round"],
        "round_label": _ui("round", lang, round=view["round"]),
        "phase": view["phase"],
        "phases": [{"id": p, "name": _t("pr_phase", p, lang), "current": p == view["phase"]} for p in phases
                   if p != "final" or view["phase"] in ("final", "over")],
        "to_move": mover,
        "viewer": viewer,
        "viewer_fixed": seat is not None,
        "harbour_master": view["harbour_master"],
        "can_act": can_act,
        "prompt": _prompt(state, view, lang, viewer, acts),
        "legal": legal,
        # each legal action as the click message that makes it (the grammar's) with its notation: the page sends
        # these messages and never writes a click or notation itself
        "actions": [{"msg": GRAMMAR.fields_of(a), "text": str(a)} for a in acts],
        "boards": _boards(state, view, lang, legal_set),
        "chosen": view["chosen"],
        "active_board": view["board"],
        "short": view["short"],
        "short_label": _ui("short_boards", lang, have=len(view["short"]),
                           need=state.notation.end_boards[state.n_players]),
        "seats": _seats(state, view, lang, viewer, tokens, acts),
        "buttons": buttons,
        "cash": cash,
        "fulfil": _fulfil_options(state, acts, lang),
        "ranking": _ranking(state, lang) if state.is_over else None,
        "last_action": view["last_action"],
        "log": event_log(history, lang, LOG_SIZE),
        "labels": {**{k: _ui(k, lang) for k in _LABELS}, **rule_labels(lang)},
    }


def _ranking(state: Any, lang: str) -> list[dict[str, Any]]:
    ranks = state.ranks()
    order = sorted(range(state.n_players), key=lambda i: (ranks[i], i))
    return [{"seat": i, "rank": ranks[i], "score": state.score(i), "money": state.money[i],
             "label": _ui("ranking", lang, vp=state.score(i), money=state.money[i])} for i in order]


def highlight(state: Any, previous: Any | None = None) -> dict[str, Any]:
    """What the last transition touched: its action, the seat that took it, the boards, slots and seats its
    events name (the view outlines them). Events are public (a fulfilment names its cards once shown)."""
    boards: list[str] = []
    slots: list[list[Any]] = []
    seats: list[int] = []
    for e in state.events:
        a = e.args
        if e.key.startswith("pr_take"):
            slots.append([a["board"], "future" if e.key.endswith("_future") else "current", a["slot"]])
        if e.key in ("pr_choose", "pr_choose_other", "pr_only_board", "pr_forced_choose") or \
                e.key.startswith("pr_take"):
            boards.append(a["board"])
        if isinstance(a.get("seat"), int) and e.key not in ("pr_round", "pr_final"):
            seats.append(a["seat"])
    actor = previous.to_move if previous is not None else None
    return {
        "action": state.last_action,
        "actor": actor,
        "boards": sorted(set(boards)),
        "slots": slots,
        "seats": sorted(set(seats) | ({actor} if actor is not None else set())),
        "events": [e.key for e in state.events],
    }


# ---- clicks --------------------------------------------------------------------------------------


class ClickError(clicks.ClickError):
    """A Packet Row board's refusal of a browser message (its own message table)."""

    TABLE = "pru_click"


def click_to_action(state: Any, msg: Any) -> Action:
    """The canonical action of a browser click, or :class:`ClickError` naming the field at fault.

    Checks only the message's shape by Packet Row's grammar (kind, fields, types, ranges, ids of this catalogue);
    the rules judge it.
    """
    return clicks.click_to_action(state, msg, ClickError)
