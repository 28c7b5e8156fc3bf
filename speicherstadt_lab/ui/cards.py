"""Card texts for the board and the rules panel: what a card of Die Speicherstadt does, with its own values,
in English or German (templates ``[card.*]`` in ``data/messages/speicherstadt_cards.toml``)."""

from __future__ import annotations

from typing import Any

from ..engine.i18n import load_messages, messages
from .rules import card_rule

load_messages("speicherstadt_cards")


def _t(section: str, key: str, lang: str, namer: Any = None, **args: Any) -> str:
    return messages.text(section, key, lang, args, namer)


# ---- cards ---------------------------------------------------------------------------------------


def card_text(state: Any, card_id: str, lang: str = "en") -> str:
    """What the card does, in ``lang``, with the card's own values filled in ("" for an unknown kind)."""
    card = state.cat.card(card_id)
    key = "merchant_novp" if card.kind == "merchant" and not card.vp else card.kind
    if not messages.has("card", key):
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
    return messages.text("card", key, lang, args, state)


def _badge(card: Any) -> str:
    """The number printed large on the card: points, firemen value, fire strength, or coins."""
    if card.kind == "fireman":
        return str(card.value)
    if card.kind == "fire":
        return str(card.strength)
    if card.kind == "bank":
        return f"+{card.income}"
    if card.kind == "delivery":
        return f"+{card.points}"
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
        "rule": card_rule(state, card.kind, lang),  # the rule it belongs to (hover text; ui/rules.py)
        "badge": _badge(card),
        "good": card.good,
        "goods": list(card.goods),
    }


def card_kinds(state: Any, lang: str = "en") -> list[dict[str, Any]]:
    """One card of each kind in play that has a text, in catalogue order: what the rules panel lists (the
    "card_kinds" capability of Die Speicherstadt; an expansion's kinds only when it is on)."""
    seen: dict[str, dict[str, Any]] = {}
    expansion = getattr(state, "expansion", None)
    for card in state.cat.cards:
        if card.expansion not in (None, expansion):
            continue  # an expansion's card in a game without it
        if card.kind not in seen:
            info = card_info(state, card.id, lang)
            if info["text"]:
                seen[card.kind] = info
    return list(seen.values())
