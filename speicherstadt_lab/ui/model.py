"""The board view's data: a state turned into a JSON-ready model (clicks into notation: ``clicks.py``).

Pure Python (no widget library): the board widget syncs what :func:`board_model` returns to the
browser, and passes every browser message through :func:`click_to_action` before the rules see it.
Every text is produced here in the chosen language, so the JavaScript view only draws.
A game with the Kaispeicher expansion adds a ``kai`` part (top row, reserved column, the demand, spy and
fire decisions), a ``kai`` part per seat, ``grey`` flags per water space and more dock moves; a base game's
model has none of these keys and is exactly what it was before the expansion.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from ..engine.actions import Action
from ..engine.i18n import LANGS, load_messages, messages
from ..engine.protocol import get_game
from ..games.speicherstadt import kaispeicher as kai_rules
from ..games.speicherstadt.explain import explain_action
from .cards import card_info, card_text
from .clicks import CLICK_FIELDS, KINDS, MAX_INT, ClickError, click_to_action, show_value

load_messages("speicherstadt")
load_messages("speicherstadt_cards")

MODEL_FORMAT = "speicherstadt-lab/board/1"
SHAPES = ("circle", "square", "triangle", "diamond", "hexagon")
LOG_SIZE = 6  # transitions shown in the event log
DOCK_VERBS = ("contract", "sell", "store", "keep", "deliver")  # moves that take one dock cube somewhere
# Kaispeicher cards shown as a seat's special cards (not in the card groups): used once, or kept for good
ONE_SHOT_KINDS = ("spy", "fish_market", "auction_hall", "smuggler", "truck", "fire_chief")
ABILITY_KINDS = ("insurance", "fire_engine", "harbour_master")
SPECIAL_KINDS = (*ONE_SHOT_KINDS, *ABILITY_KINDS, "coffee_break", "warehouse_workers")  # the last two: counters
USE_VERB = {"spy": "spy", "fish_market": "buy free", "auction_hall": "auction", "smuggler": "smuggle",
            "truck": "truck", "fire_chief": "double", "insurance": "insure"}


# ---- small helpers -------------------------------------------------------------------------------


def _t(section: str, key: str, lang: str, namer: Any = None, **args: Any) -> str:
    """A text of ``data/messages/speicherstadt_cards.toml`` (or the game's), filled in."""
    return messages.text(section, key, lang, args, namer)


def _check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise ValueError(f"language must be one of {LANGS}, not {lang!r}")
    return lang


def ink(colour: str) -> str:
    """Black or white, whichever reads better on ``colour`` (#rrggbb), by WCAG contrast."""
    rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    lum = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    return "#1d1a16" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "#ffffff"


def short_labels(names: Sequence[str]) -> list[str]:
    """One or two letters per name, unique where possible: the first letter, plus the first letter that
    tells it apart from every other name with the same initial ("Grün", "Gelb" → "Gr", "Ge")."""
    out = []
    for i, name in enumerate(names):
        word = name.strip() or "?"
        rivals = [o.strip() for j, o in enumerate(names) if j != i and o.strip()[:1].lower() == word[:1].lower()]
        if not rivals:
            out.append(word[0].upper())
            continue
        pos = next((k for k in range(1, len(word)) if all(k >= len(r) or r[k].lower() != word[k].lower()
                                                           for r in rivals)), None)
        out.append(word[0].upper() + (word[pos].lower() if pos is not None else str(i + 1)))
    return out


# ---- the model -----------------------------------------------------------------------------------


def seat_tokens(state: Any, lang: str = "en") -> list[dict[str, Any]]:
    """Per seat: name, short label, colour (the game's ``GameInfo.seat_colours``, as on the charts and the move
    list: the one palette), the text colour on it, and a shape. Every board takes its seats' looks from here."""
    names = [state.seat_name(i, lang) for i in range(state.n_players)]
    shorts = short_labels(names)
    palette = get_game(state.game).seat_colours
    out = []
    for i, name in enumerate(names):
        colour = palette[i % len(palette)]
        out.append({"index": i, "name": name, "short": shorts[i], "colour": colour, "ink": ink(colour),
                    "shape": SHAPES[i % len(SHAPES)]})
    return out


def _goods(state: Any, lang: str) -> list[dict[str, Any]]:
    """The goods in play (the expansion's only with the expansion), in the state's order."""
    in_play = [g for g in state.cat.goods if g.id in state.goods]
    names = [g.de if lang == "de" else g.en for g in in_play]
    shorts = short_labels(names)
    return [{"id": g.id, "name": names[i], "short": shorts[i], "colour": g.colour, "ink": ink(g.colour)}
            for i, g in enumerate(in_play)]


def _contract_slots(card: Any, placed: Sequence[str]) -> list[dict[str, Any]]:
    left = Counter(placed)
    slots = []
    for g in card.goods:
        slots.append({"good": g, "filled": left[g] > 0})
        left[g] -= 1
    return slots


def _seat_area(state: Any, i: int, lang: str, token: dict[str, Any], winners: list[int],
               acts: Sequence[Action] = ()) -> dict[str, Any]:
    p = state.player(i)
    cat = state.cat
    kai = state.kai is not None
    groups: dict[str, dict[str, Any]] = {}
    for cid in p.cards:
        card = cat.card(cid)
        if card.kind == "contract" or (kai and card.kind in SPECIAL_KINDS):
            continue
        info = card_info(state, cid, lang)
        g = groups.setdefault(card.kind, {"kind": card.kind, "label": info["kind_name"], "cards": []})
        g["cards"].append(info)
    contracts = []
    for k, (cid, placed) in enumerate(p.contracts):
        card = cat.card(cid)
        contracts.append({
            "index": k, "card": card_info(state, cid, lang), "vp": card.vp,
            "slots": _contract_slots(card, placed), "done": len(placed) == len(card.goods),
        })
    breakdown = state.score_breakdown(i)
    out = {
        **token,
        "coins": p.coins,
        "track": p.track,
        "score": state.score(i),
        "breakdown": [[_t("score", k, lang) if messages.has("score", k) else k, v]
                      for k, v in breakdown.items() if v],
        "firemen": p.firemen,
        "first": state.first == i,
        "to_move": state.to_move == i,
        "winner": state.is_over and i in winners,
        "loading": state.phase == "loading" and state.to_move == i,
        "groups": list(groups.values()),
        "contracts": contracts,
        "warehouse": {"has": p.has_warehouse, "cap": cat.setup.get("warehouse_capacity", 4) if p.has_warehouse
                      else 0, "goods": list(p.warehouse)},
        "hall": {"cap": cat.setup.get("hall_capacity", 1), "goods": list(p.hall)},
        "unloading": list(p.unloading),
    }
    if kai:
        out["firemen"] = kai_rules.firemen_total(state, state.seats[i])  # the Fire Engine's double counts
        out["kai"] = _seat_kai(state, i, lang, acts if state.to_move == i else ())
    return out


def _seat_kai(state: Any, i: int, lang: str, acts: Sequence[Action]) -> dict[str, Any]:
    """A seat's expansion holdings: break cards and grey workers left, delivery points, special cards."""
    seat = state.seats[i]
    verbs = {"buy free" if a.kind == "buy" and a.args == ("free",) else a.kind for a in acts}
    specials = []
    for cid in state.player(i).cards:
        card = state.cat.card(cid)
        if card.kind not in ONE_SHOT_KINDS + ABILITY_KINDS:
            continue
        use = "once" if card.kind in ONE_SHOT_KINDS else "ability"
        active = USE_VERB.get(card.kind) in verbs or (card.kind == "harbour_master" and "convert" in verbs)
        specials.append({**card_info(state, cid, lang), "use": use, "use_label": _t("ui", "kai_" + use, lang),
                         "active": active})
    if state.kai.truck > 0 and state.phase == "loading" and state.loading_seat == i:
        truck = next((c for c in state.cat.cards if c.kind == "truck"), None)
        if truck is not None:
            specials.append({**card_info(state, truck.id, lang), "use": "in_use", "active": True,
                             "use_label": _t("ui", "kai_moves_left", lang, n=state.kai.truck)})
    return {
        "breaks": seat.breaks,
        "grey": seat.grey,
        "delivered": seat.delivered,
        "delivers": any(seat.delivers),
        "specials": specials,
        "breaks_label": _t("ui", "kai_breaks", lang, n=seat.breaks),
        "grey_label": _t("ui", "kai_grey", lang, n=seat.grey),
        "delivered_label": _t("ui", "kai_delivered", lang, n=seat.delivered),
    }


def event_log(states: Sequence[Any], lang: str, size: int = LOG_SIZE) -> list[dict[str, Any]]:
    """The events of the last ``size`` transitions, newest first; ``states`` oldest first, ending with the current.

    ``actor`` is the seat that took the transition's action (known when the state before it is given).
    """
    shown = list(states)[-(size + 1):]
    out = []
    for k in range(len(shown) - 1, -1, -1):
        s = shown[k]
        if k == 0 and len(shown) > size:
            break  # only there to name the actor of the next one
        texts = s.event_texts(lang)
        if not texts and not s.last_action:
            continue
        actor = shown[k - 1].to_move if k > 0 and s.last_action else None
        entry = {"action": s.last_action, "actor": actor, "texts": texts, "newest": k == len(shown) - 1}
        if k > 0 and s.last_action and hasattr(shown[k - 1], "phrase_action"):
            # the move with card and price, the notation on hover; a position that cannot phrase it: the notation alone
            with contextlib.suppress(ValueError, KeyError, IndexError, AttributeError):
                entry["phrase"] = shown[k - 1].phrase_action(s.last_action, lang)
        out.append(entry)
    return out


def _title(state: Any) -> str:
    """The board's title: that of the game's variant the position is of ("Die Speicherstadt + Kaispeicher")."""
    fits = [(len(v.options), v.title) for v in get_game(state.game).choices()
            if all(getattr(state, k, None) == x for k, x in v.options.items())]
    return max(fits)[1] if fits else "Die Speicherstadt"


def _prompt(state: Any, lang: str, viewer: int | None) -> str:
    if state.is_over:
        return _t("prompt", "over", lang, state, seats=state.winners())
    mover = state.to_move
    if mover is None:
        return ""
    if viewer is not None and viewer != mover:
        return _t("prompt", "waiting", lang, state, seat=mover)
    if state.kai is not None:
        return _kai_prompt(state, lang, mover)
    if state.phase == "demand":
        total = state.n_players * state.cat.setup.get("workers", 3)
        left = total - sum(len(c) for c in state.workers)
        return _t("prompt", "demand", lang, state, seat=mover, left=left, total=total)
    if state.phase == "purchase":
        sp = state.space
        return _t("prompt", "purchase", lang, state, seat=mover, card=state.offer[sp], price=state.price(sp))
    return _t("prompt", "loading", lang, state, seat=mover)


def _kai_prompt(state: Any, lang: str, mover: int) -> str:
    kai = state.kai
    ph = state.phase
    if ph == "demand":
        if kai.left[mover] > 0:
            total = state.n_players * state.notation.workers
            return _t("prompt", "kai_demand", lang, state, seat=mover, left=sum(kai.left), total=total)
        return _t("prompt", "kai_grey", lang, state, seat=mover, n=state.seats[mover].grey)
    if ph == "spy":
        return _t("prompt", "kai_spy", lang, state, seat=mover)
    if ph == "fire":
        ci, _context, queue = kai.fire
        kind = queue[0][0]
        strength = state.cat.cards[ci].strength
        cost = state.cat.cards[kai_rules.has(state, state.seats[mover], "insurance")].cost if kind == "insure" else 0
        return _t("prompt", "kai_" + kind, lang, state, seat=mover, points=strength, coins=cost)
    if ph == "purchase":
        sp = state.space
        if sp < len(state.offer_idx):
            return _t("prompt", "purchase", lang, state, seat=mover, card=state.offer[sp], price=state.price(sp))
        ci, _w, _cargo = kai.reserved[kai.rpos]
        return _t("prompt", "kai_reserved", lang, state, seat=mover, card=state.cat.cards[ci].id,
                  price=len(kai.reserved) - kai.rpos)
    if ph == "loading" and kai.pending >= 0:
        return _t("prompt", "kai_pending", lang, state, seat=mover, good=state.goods[kai.pending])
    return _t("prompt", "loading", lang, state, seat=mover)


def _ranking(state: Any, lang: str) -> list[dict[str, Any]]:
    """Seats by final rank (score, then coins), for the end of the game."""
    ranks = state.ranks()
    order = sorted(range(state.n_players), key=lambda i: (ranks[i], i))
    return [{"seat": i, "rank": ranks[i], "score": state.score(i), "coins": state.coins[i],
             "label": _t("ui", "ranking", lang, score=state.score(i), coins=state.coins[i])} for i in order]


def rule_labels(lang: str) -> dict[str, str]:
    """The texts of a card's rule popover (both boards): the ⓘ button's label, the close button's, the hint."""
    return {f"rule_{k}": _t("board_rule", k, lang) for k in ("open", "close", "hint")}


def _labels(lang: str) -> dict[str, str]:
    keys = ("last_round", "pile", "fires_left", "no_fires", "discard", "empty", "stock", "bag", "sold", "coins",
            "track", "track_hint", "score", "score_hint", "final_score", "firemen", "warehouse", "no_warehouse",
            "hall", "no_cards", "metal_coin", "to_move", "winner", "unloading", "dock_empty", "dock_hint",
            "convert_to", "hallsell", "done", "pass", "log", "log_start", "contract_done", "no_workers", "dismiss")
    return {**{k: _t("ui", k, lang) for k in keys}, **rule_labels(lang)}


def board_model(state: Any, lang: str = "en", seat: int | None = None, log: Iterable[Any] = ()) -> dict[str, Any]:
    """The JSON-ready board model of ``state`` in ``lang``.

    ``seat`` is the seat whose legal actions are offered (None: the seat to move). ``log`` holds earlier
    states, oldest first, whose events the log shows before the current state's.
    """
    _check_lang(lang)
    if seat is not None and not 0 <= seat < state.n_players:
        raise ValueError(f"seat must be None or 0..{state.n_players - 1}, not {seat!r}")
    cat = state.cat
    mover = state.to_move
    can_act = mover is not None and (seat is None or seat == mover)
    # The model works on the engine's Actions (kind and args): it never takes notation text apart.
    acts = state.legal_actions() if can_act else []
    legal = [str(a) for a in acts]
    legal_set = set(legal)
    tokens = seat_tokens(state, lang)
    winners = state.winners() if state.is_over else []
    cap = cat.setup.get("building_spaces", 8)

    kai = state.kai is not None
    spaces = []
    for s, cid in enumerate(state.offer):
        raw = list(state.columns[s])  # raw worker codes: grey workers are seat + 8
        col = [kai_rules.owner(w) for w in raw]  # a grey worker (Kaispeicher) counts for its owner
        current = state.phase == "purchase" and state.space == s and cid is not None
        names = [_worker_name(tokens, w, lang) for w in raw]
        spaces.append({
            "index": s,
            "card": card_info(state, cid, lang) if cid is not None else None,
            "cargo": list(state.cargo[s]),
            "workers": col,
            "slots": cap,
            "price": len(col),
            "price_label": _t("ui", "price", lang, price=len(col)),
            "title": _t("ui", "space", lang, space=s) + " · " + (
                _t("ui", "workers", lang, seats=", ".join(names)) if names else _t("ui", "no_workers", lang)),
            "current": current,
            "decider": col[0] if current and col else None,
            "decider_label": _t("ui", "deciding", lang, state, seat=col[0]) if current and col else "",
            "buy_label": _t("ui", "buy", lang, price=len(col)) if current else "",
            "action": f"place {s}",
            "legal": f"place {s}" in legal_set,
            "place_hint": _t("ui", "place_here", lang, price=len(col) + 1),
        })
        if kai:
            spaces[-1]["grey"] = [w >= kai_rules.GREY for w in raw]

    pile_view = state.view(None)["pile"]
    seasons = cat.setup.get("seasons", sorted(pile_view["by_season"]))
    pile = {
        "count": pile_view["count"],
        "label": _t("ui", "cards", lang, n=pile_view["count"]),
        "seasons": [{"season": se, "name": _t("season", se, lang) if messages.has("season", se) else se,
                     "count": pile_view["by_season"].get(se, 0)} for se in seasons],
        "fires": [{**card_info(state, f, lang), "strength": cat.card(f).strength} for f in pile_view["fires"]],
    }
    discard = {
        "count": len(state.discard),
        "label": _t("ui", "cards", lang, n=len(state.discard)),
        "last": card_info(state, cat.cards[state.discard[-1]].id, lang) if state.discard else None,
    }
    stock = [{"good": g, "count": n} for g, n in zip(state.goods, state.stock, strict=True)]

    dock = None
    if state.phase == "loading" and mover is not None:
        goods = list(state.dock_goods)
        moves = {g: [str(a) for a in acts if a.kind in DOCK_VERBS and a.args[0] == g] for g in dict.fromkeys(goods)}
        dock = {
            "seat": mover,
            "label": _t("ui", "dock", lang, state, seat=mover),
            "goods": goods,
            "moves": moves,
            "convert": [str(a) for a in acts if a.kind == "convert"],
            "hallsell": [str(a) for a in acts if a.kind == "hallsell"],
            "take": [str(a) for a in acts if a.kind == "take"],
            "take_labels": {str(a): _t("ui", "take_back", lang, state, good=a.args[0])
                            for a in acts if a.kind == "take"},
        }
        if kai:
            dock.update(_dock_kai(state, lang, mover, acts))

    history = [*log, state]
    model = {
        "format": MODEL_FORMAT,
        "lang": lang,
        "title": _title(state),
        "round": state.round,
        "round_label": _t("ui", "round", lang, round=state.round),
        "last_round": bool(getattr(state, "last_round", False)) and not state.is_over,
        "phase": state.phase,
        "phases": [{"id": ph, "name": _t("phase", ph, lang), "current": ph == state.phase}
                   for ph in _phase_ids(state)] if not state.is_over else
                  [{"id": "over", "name": _t("phase", "over", lang), "current": True}],
        "to_move": mover,
        "first": state.first,
        "viewer": seat,
        "can_act": can_act,
        "prompt": _prompt(state, lang, seat),
        "legal": legal,
        # each legal action as the click that makes it (the grammar's fields) with its notation: the page finds a
        # click's action here and never writes notation itself
        "actions": [{"msg": state.notation.grammar.fields_of(a), "text": str(a)} for a in acts],
        "explain": _explanations(state, legal, lang),
        "goods": _goods(state, lang),
        "seats": [_seat_area(state, i, lang, tokens[i], winners, acts) for i in range(state.n_players)],
        "spaces": spaces,
        "pile": pile,
        "discard": discard,
        "stock": stock,
        "stock_label": _t("ui", "cubes", lang, n=sum(state.stock)),
        "bag": len(state.bag),
        "bag_label": _t("ui", "cubes", lang, n=len(state.bag)),
        "dock": dock,
        "ranking": _ranking(state, lang) if state.is_over else None,
        "last_action": state.last_action,
        "log": event_log(history, lang),
        "labels": _labels(lang),
    }
    if kai:
        model["kai"] = _kai_model(state, lang, acts, tokens)
    return model


def _explanations(state: Any, legal: Sequence[str], lang: str) -> dict[str, str]:
    """Each legal action's plain-language explanation (the board's hover texts); an action the explainer
    cannot word is left out rather than breaking the board."""
    out: dict[str, str] = {}
    for action in legal:
        try:
            out[action] = explain_action(state, action, lang)
        except Exception:  # a hover text must never stop the board from drawing
            continue
    return out


def _worker_name(tokens: list[dict[str, Any]], worker: int, lang: str) -> str:
    name = tokens[kai_rules.owner(worker)]["name"]
    return _t("ui", "kai_grey_worker", lang, name=name) if worker >= kai_rules.GREY else name


def _phase_ids(state: Any) -> list[str]:
    """The phases of a round, as the strip shows them; the spy and fire steps only while they run."""
    ids = ["demand", "purchase", "loading"]
    if state.kai is None:
        return ids
    if state.phase == "spy":
        ids.insert(1, "spy")
    elif state.phase == "fire":
        end = state.kai.fire and state.kai.fire[1] == "end"
        ids.insert(len(ids) if end else 0, "fire")
    return ids


def _dock_kai(state: Any, lang: str, mover: int, acts: Sequence[Action]) -> dict[str, Any]:
    """The expansion's part of the dock: deliveries, Auction Hall, Smuggler, Truck, the exchange rate."""
    kai = state.kai
    seat = state.seats[mover]
    k_convert = seat.k_convert or state.notation.k_convert
    of = {v: [a for a in acts if a.kind == v] for v in ("deliver", "auction", "smuggle", "truck")}
    pending = state.goods[kai.pending] if kai.pending >= 0 else None
    truck_left = kai.truck if kai.truck > 0 else next(
        (state.cat.cards[c].moves for c in seat.cards if state.cat.cards[c].kind == "truck"), 0)
    return {
        "k_convert": k_convert,
        "hint": _t("ui", "kai_dock_hint", lang, k=k_convert) if seat.k_convert else _t("ui", "dock_hint", lang),
        "convert_label": _t("ui", "kai_convert_to", lang, k=k_convert),
        "deliver": [str(a) for a in of["deliver"]],
        "auction": [a.args[0] for a in of["auction"]],
        "auction_label": _t("ui", "kai_auction", lang),
        "smuggle": [str(a) for a in of["smuggle"]],
        "smuggle_label": _t("ui", "kai_smuggle", lang),
        "truck": [str(a) for a in of["truck"]],
        "truck_label": _t("ui", "kai_truck", lang, n=truck_left),
        "pending": pending,
        "pending_label": _t("ui", "kai_pending", lang, state, good=pending) if pending else "",
    }


def _kai_model(state: Any, lang: str, acts: Sequence[Action], tokens: list[dict[str, Any]]) -> dict[str, Any]:
    """Everything the view draws for the Kaispeicher expansion: the top row, the reserved column, and the
    decisions of the demand, spy and fire steps and of a reserved card's purchase."""
    kai = state.kai
    legal_set = {str(a) for a in acts}
    n_res = len(kai.reserved)
    top = []
    for s, ci in enumerate(kai.top):
        action = f"reserve {s}"
        top.append({
            "index": s,
            "card": card_info(state, state.cat.cards[ci].id, lang) if ci >= 0 else None,
            "cargo": [state.goods[g] for g in kai.top_cargo[s]] if ci >= 0 else [],
            "action": action,
            "legal": action in legal_set,
        })
    resolving = state.phase == "purchase" and state.space >= len(state.offer_idx) and state.to_move is not None
    reserved = []
    for k in range(kai.rpos, n_res):
        ci, w, cargo = kai.reserved[k]
        who = kai_rules.owner(w)
        price = n_res - k
        current = resolving and k == kai.rpos
        reserved.append({
            "pos": k,
            "card": card_info(state, state.cat.cards[ci].id, lang),
            "cargo": [state.goods[g] for g in cargo],
            "seat": who,
            "grey": w >= kai_rules.GREY,
            "price": price,
            "price_label": _t("ui", "price", lang, price=price),
            "title": _t("ui", "kai_reserved_by", lang, name=_worker_name(tokens, w, lang), price=price),
            "current": current,
            "decider_label": _t("ui", "deciding", lang, state, seat=who) if current else "",
            "buy_label": _t("ui", "buy", lang, price=price) if current else "",
        })
    buttons = []
    by_click = {state.notation.grammar.fields_of(a)["verb"]: a for a in acts}  # the grammar's click of each action
    for kind, key in (("break", "kai_break"), ("stop", "kai_stop"), ("double", "kai_double"),
                      ("insure", "kai_insure"), ("buyfree", "kai_free")):
        if kind in by_click:
            buttons.append({"kind": kind, "action": str(by_click[kind]), "label": _kai_button(state, key, lang)})
    if state.phase in ("spy", "fire") and "pass" in legal_set:
        buttons.append({"kind": "pass", "action": "pass", "label": _t("ui", f"kai_{state.phase}_pass", lang)})
    hint = ""
    if "stop" in legal_set:
        hint = _t("ui", "kai_stop_hint", lang)
    elif "break" in legal_set:
        hint = _t("ui", "kai_break_hint", lang)
    spy: dict[str, list[list[int]]] = {}
    for a in acts:
        if a.kind == "spy":
            s1, l1, s2, l2 = a.args
            spy.setdefault(f"{s1} {l1}", []).append([s2, l2])
    return {
        "top": top,
        "top_label": _t("ui", "kai_top", lang),
        "top_hint": _t("ui", "kai_top_hint", lang, price=n_res + 1),
        "top_click": _t("ui", "kai_top_click", lang) if any(x["legal"] for x in top) else "",
        "top_empty": _t("ui", "kai_top_empty", lang),
        "reserved": reserved,
        "reserved_label": _t("ui", "kai_reserved", lang),
        "reserved_empty": _t("ui", "kai_reserved_empty", lang),
        "buttons": buttons,
        "hint": hint,
        "spy": spy,
        "spy_hint": _t("ui", "kai_spy_hint", lang) if spy else "",
        "fire": _fire(state, lang, tokens),
        "labels": {k: _t("ui", "kai_" + k, lang) for k in ("breaks_title", "grey_title", "delivered_title",
                                                            "specials", "track_hint", "free_title")},
    }


def _kai_button(state: Any, key: str, lang: str) -> str:
    mover = state.to_move
    seat = state.seats[mover]
    if key == "kai_break":
        return _t("ui", key, lang, n=seat.breaks)
    if key in ("kai_double", "kai_insure"):
        ci = state.kai.fire[0]
        ins = kai_rules.has(state, seat, "insurance")
        return _t("ui", key, lang, points=state.cat.cards[ci].strength,
                  coins=state.cat.cards[ins].cost if ins >= 0 else 0)
    return _t("ui", key, lang)


def _fire(state: Any, lang: str, tokens: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The fire waiting for a Fire Chief's or an Insurance's decision, with every seat's firemen total."""
    kai = state.kai
    if not kai.fire:
        return None
    ci, context, queue = kai.fire
    card = state.cat.cards[ci]
    sums = [kai_rules.firemen_total(state, s) for s in state.seats]
    hi, lo = max(sums), min(sums)
    totals = [{"seat": i, "total": v, "delta": card.strength if v == hi else -card.strength if v == lo else 0}
              for i, v in enumerate(sums)]
    kind, seat = queue[0]
    return {
        "card": card_info(state, card.id, lang),
        "strength": card.strength,
        "context": context,
        "decision": kind,
        "seat": seat,
        "totals": totals,
        "label": _t("ui", "kai_fire", lang, state, card=card.id, points=card.strength),
        "waiting": [s for _k, s in queue[1:]],
    }


def highlight(state: Any, previous: Any | None = None) -> dict[str, Any]:
    """What the last transition touched: its action, the seat that took it, and the spaces, seats and
    cards its events name (the view outlines them)."""
    spaces: list[int] = []
    seats: list[int] = []
    cards: list[str] = []
    offers = [state.offer] + ([previous.offer] if previous is not None else [])
    for e in state.events:
        a = e.args
        for key in ("space", "space_other"):
            if isinstance(a.get(key), int) and a[key] >= 0:  # the expansion's only_space has -1
                spaces.append(a[key])
        if e.key in ("buy", "pass", "pass_last", "cannot_pay", "discard", "discard_cargo"):
            for offer in offers:
                if a.get("card") in offer:
                    spaces.append(list(offer).index(a["card"]))
                    break
        if e.key in ("buy", "reserve"):
            cards.append(a["card"])
        if isinstance(a.get("seat"), int) and e.key not in ("round", "metal_coin", "income", "final"):
            seats.append(a["seat"])
        for key in ("seats_plus", "seats_minus"):
            seats.extend(a.get(key, []))
    actor = previous.to_move if previous is not None else None
    return {
        "action": state.last_action,
        "actor": actor,
        "spaces": sorted(set(spaces)),
        "seats": sorted(set(seats) | ({actor} if actor is not None else set())),
        "cards": cards,
        "events": [e.key for e in state.events],
    }


# The click names stay importable from here (they lived in this module before ui/clicks.py).
__all__ = ["CLICK_FIELDS", "KINDS", "LOG_SIZE", "MAX_INT", "ClickError", "board_model", "card_info", "card_text",
           "click_to_action", "event_log", "highlight", "seat_tokens", "show_value"]
