"""The board view's data: a state turned into a JSON-ready model, and clicks turned into notation.

Pure Python (no widget library): the board widget syncs what :func:`board_model` returns to the
browser, and passes every browser message through :func:`click_to_action` before the rules see it.
Every text is produced here in the chosen language, so the JavaScript view only draws.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from ..engine.i18n import LANGS, load_messages, messages
from ..games.speicherstadt.render import SEAT_COLOURS

load_messages("speicherstadt")
load_messages("speicherstadt_cards")

MODEL_FORMAT = "speicherstadt-lab/board/1"
SHAPES = ("circle", "square", "triangle", "diamond", "hexagon")
MAX_INT = 99  # no click field is ever larger: bigger numbers are refused before the rules see them
LOG_SIZE = 6  # transitions shown in the event log
CLICK_FIELDS: dict[str, tuple[str, ...]] = {
    "place": ("space",),
    "buy": (),
    "pass": (),
    "contract": ("good", "index"),
    "sell": ("good",),
    "store": ("good",),
    "keep": ("good",),
    "take": ("good", "source"),
    "convert": ("goods", "to"),
    "hallsell": ("goods",),
    "done": (),
}
KINDS = tuple(CLICK_FIELDS)


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


# ---- cards ---------------------------------------------------------------------------------------


def card_text(state: Any, card_id: str, lang: str = "en") -> str:
    """What the card does, in ``lang``, with the card's own values filled in ("" for an unknown kind)."""
    card = state.cat.card(card_id)
    if not messages.has("card", card.kind):
        return ""
    setup = state.cat.setup
    args: dict[str, Any] = {
        "good": card.good, "goods": list(card.goods), "vp": card.vp, "coins": card.coins, "value": card.value,
        "strength": card.strength, "capacity": card.capacity, "income": card.income,
        "vp_per_good": card.vp_per_good, "vp_per_coin": card.vp_per_coin, "vp_per_ship": card.vp_per_ship,
        "vp_per_fireman": card.vp_per_fireman, "vp_per_building": card.vp_per_building,
        "vp_per_trader": card.vp_per_trader, "vp_per_contract": card.vp_per_contract, "convert": card.convert,
        "cost": card.cost, "moves": card.moves, "breaks": card.breaks, "workers": card.workers,
        "cap": setup.get("warehouse_capacity", 0),
        "points": "/".join(str(p) for p in setup.get("counting_office_points", [])[1:]),
    }
    if card.kind == "delivery":
        args["points"] = card.points  # the delivery's points, not the counting-office table
    return messages.text("card", card.kind, lang, args, state)


def _badge(card: Any) -> str:
    """The number printed large on the card: points, firemen value, fire strength, or coins."""
    if card.kind == "fireman":
        return str(card.value)
    if card.kind == "fire":
        return str(card.strength)
    if card.kind == "bank":
        return f"+{card.income}"
    if card.vp:
        return str(card.vp)
    return ""


def card_info(state: Any, card_id: str, lang: str = "en") -> dict[str, Any]:
    """Everything the view draws for one card."""
    card = state.cat.card(card_id)
    season = card.season
    return {
        "id": card.id,
        "name": card.name(lang),
        "kind": card.kind,
        "kind_name": _t("kind", card.kind, lang) if messages.has("kind", card.kind) else card.kind,
        "season": season,
        "season_name": _t("season", season, lang) if messages.has("season", season) else season,
        "text": card_text(state, card_id, lang),
        "badge": _badge(card),
        "good": card.good,
        "goods": list(card.goods),
    }


# ---- the model -----------------------------------------------------------------------------------


def seat_tokens(state: Any, lang: str = "en") -> list[dict[str, Any]]:
    """Per seat: name, short label, colour (Okabe–Ito), the text colour on it, and a shape."""
    names = [state.seat_name(i, lang) for i in range(state.n_players)]
    shorts = short_labels(names)
    out = []
    for i, name in enumerate(names):
        colour = SEAT_COLOURS[i % len(SEAT_COLOURS)]
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


def _seat_area(state: Any, i: int, lang: str, token: dict[str, Any], winners: list[int]) -> dict[str, Any]:
    p = state.player(i)
    cat = state.cat
    groups: dict[str, dict[str, Any]] = {}
    for cid in p.cards:
        card = cat.card(cid)
        if card.kind == "contract":
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
    return {
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


def _log(states: Sequence[Any], lang: str) -> list[dict[str, Any]]:
    """The events of the last transitions, newest first; ``states`` oldest first, ending with the current.

    ``actor`` is the seat that took the transition's action (known when the state before it is given).
    """
    shown = list(states)[-(LOG_SIZE + 1):]
    out = []
    for k in range(len(shown) - 1, -1, -1):
        s = shown[k]
        if k == 0 and len(shown) > LOG_SIZE:
            break  # only there to name the actor of the next one
        texts = s.event_texts(lang)
        if not texts and not s.last_action:
            continue
        actor = shown[k - 1].to_move if k > 0 and s.last_action else None
        out.append({"action": s.last_action, "actor": actor, "texts": texts, "newest": k == len(shown) - 1})
    return out


def _prompt(state: Any, lang: str, viewer: int | None) -> str:
    if state.is_over:
        return _t("prompt", "over", lang, state, seats=state.winners())
    mover = state.to_move
    if mover is None:
        return ""
    if viewer is not None and viewer != mover:
        return _t("prompt", "waiting", lang, state, seat=mover)
    if state.phase == "demand":
        total = state.n_players * state.cat.setup.get("workers", 3)
        left = total - sum(len(c) for c in state.workers)
        return _t("prompt", "demand", lang, state, seat=mover, left=left, total=total)
    if state.phase == "purchase":
        sp = state.space
        return _t("prompt", "purchase", lang, state, seat=mover, card=state.offer[sp], price=state.price(sp))
    return _t("prompt", "loading", lang, state, seat=mover)


def _ranking(state: Any, lang: str) -> list[dict[str, Any]]:
    """Seats by final rank (score, then coins), for the end of the game."""
    ranks = state.ranks()
    order = sorted(range(state.n_players), key=lambda i: (ranks[i], i))
    return [{"seat": i, "rank": ranks[i], "score": state.score(i), "coins": state.coins[i],
             "label": _t("ui", "ranking", lang, score=state.score(i), coins=state.coins[i])} for i in order]


def _labels(lang: str) -> dict[str, str]:
    keys = ("last_round", "pile", "fires_left", "no_fires", "discard", "empty", "stock", "bag", "sold", "coins",
            "track", "track_hint", "score", "score_hint", "final_score", "firemen", "warehouse", "no_warehouse",
            "hall", "no_cards", "metal_coin", "to_move", "winner", "unloading", "dock_empty", "dock_hint",
            "convert_to", "hallsell", "done", "pass", "log", "log_start", "contract_done", "no_workers", "dismiss")
    return {k: _t("ui", k, lang) for k in keys}


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
    legal = [str(a) for a in state.legal_actions()] if can_act else []
    legal_set = set(legal)
    tokens = seat_tokens(state, lang)
    winners = state.winners() if state.is_over else []
    cap = cat.setup.get("building_spaces", 8)

    spaces = []
    for s, cid in enumerate(state.offer):
        col = list(state.workers[s])
        current = state.phase == "purchase" and state.space == s and cid is not None
        names = [tokens[w]["name"] for w in col]
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
        moves = {g: [t for t in legal if t.split()[0] in ("contract", "sell", "store", "keep") and t.split()[1] == g]
                 for g in dict.fromkeys(goods)}
        dock = {
            "seat": mover,
            "label": _t("ui", "dock", lang, state, seat=mover),
            "goods": goods,
            "moves": moves,
            "convert": [t for t in legal if t.startswith("convert ")],
            "hallsell": [t for t in legal if t.startswith("hallsell ")],
            "take": [t for t in legal if t.startswith("take ")],
            "take_labels": {t: _t("ui", "take_back", lang, state, good=t.split()[1])
                            for t in legal if t.startswith("take ")},
        }

    history = [*log, state]
    return {
        "format": MODEL_FORMAT,
        "lang": lang,
        "title": "Die Speicherstadt",
        "round": state.round,
        "round_label": _t("ui", "round", lang, round=state.round),
        "last_round": bool(getattr(state, "last_round", False)) and not state.is_over,
        "phase": state.phase,
        "phases": [{"id": ph, "name": _t("phase", ph, lang), "current": ph == state.phase}
                   for ph in ("demand", "purchase", "loading")] if not state.is_over else
                  [{"id": "over", "name": _t("phase", "over", lang), "current": True}],
        "to_move": mover,
        "first": state.first,
        "viewer": seat,
        "can_act": can_act,
        "prompt": _prompt(state, lang, seat),
        "legal": legal,
        "goods": _goods(state, lang),
        "seats": [_seat_area(state, i, lang, tokens[i], winners) for i in range(state.n_players)],
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
        "log": _log(history, lang),
        "labels": _labels(lang),
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
        if isinstance(a.get("space"), int):
            spaces.append(a["space"])
        if e.key in ("buy", "pass", "pass_last", "cannot_pay", "discard", "discard_cargo"):
            for offer in offers:
                if a.get("card") in offer:
                    spaces.append(list(offer).index(a["card"]))
                    break
        if e.key == "buy":
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


# ---- clicks --------------------------------------------------------------------------------------


class ClickError(ValueError):
    """A browser message the board refuses before the rules see it; ``text(lang)`` explains it."""

    def __init__(self, key: str, **params: Any) -> None:
        self.key = key
        self.params = params
        super().__init__(self.text("en"))

    def text(self, lang: str = "en", namer: Any = None) -> str:
        return messages.text("click", self.key, lang, self.params, namer)


def show_value(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _int(msg: dict[str, Any], field: str) -> int:
    v = msg[field]
    if isinstance(v, bool) or not isinstance(v, int | float) or (isinstance(v, float) and (
            not math.isfinite(v) or not v.is_integer())) or not 0 <= v <= MAX_INT:
        raise ClickError("int", field=field, top=MAX_INT, got=show_value(v))
    return int(v)


def _good(state: Any, msg: dict[str, Any], field: str, value: Any = None) -> str:
    v = msg[field] if value is None else value
    if not isinstance(v, str) or v not in state.goods:
        raise ClickError("good", field=field, allowed=", ".join(state.goods), got=show_value(v))
    return v


def _goods_list(state: Any, msg: dict[str, Any], field: str, count: int) -> list[str]:
    v = msg[field]
    if not isinstance(v, list | tuple) or len(v) != count:
        raise ClickError("list", field=field, count=count, got=show_value(v))
    return [_good(state, msg, field, g) for g in v]


def click_to_action(state: Any, msg: Any) -> str:
    """The notation text of a browser click, or :class:`ClickError` naming the field at fault.

    Checks only the message's shape (kind, fields, types, ranges, goods); the rules judge the action.
    """
    if not isinstance(msg, dict):
        raise ClickError("not_object", got=show_value(msg))
    kind = msg.get("kind")
    if not isinstance(kind, str) or kind not in CLICK_FIELDS:
        raise ClickError("kind", got=show_value(kind), kinds=", ".join(KINDS))
    fields = CLICK_FIELDS[kind]
    for f in fields:
        if f not in msg:
            raise ClickError("missing", kind=kind, field=f)
    for f in msg:
        if f != "kind" and f not in fields:
            raise ClickError("extra", kind=kind, field=show_value(f) if not isinstance(f, str) else f)
    if kind == "place":
        return f"place {_int(msg, 'space')}"
    if kind in ("buy", "pass", "done"):
        return kind
    if kind == "contract":
        return f"contract {_good(state, msg, 'good')} {_int(msg, 'index')}"
    if kind in ("sell", "store", "keep"):
        return f"{kind} {_good(state, msg, 'good')}"
    if kind == "take":
        good = _good(state, msg, "good")
        source = msg["source"]
        if source not in ("warehouse", "hall"):
            raise ClickError("choice", field="source", allowed="warehouse, hall", got=show_value(source))
        return f"take {good} {source}"
    if kind == "convert":
        given = _goods_list(state, msg, "goods", state.cat.setup.get("hall_convert", 3))
        return f"convert {' '.join(given)} to {_good(state, msg, 'to')}"
    given = _goods_list(state, msg, "goods", state.cat.setup.get("hall_sell", 2))
    return f"hallsell {' '.join(given)}"
