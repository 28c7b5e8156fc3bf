"""Features of a Die Speicherstadt position for the learned value model (the "features" capability).

Per seat, from public facts only (the pile's and bag's composition is public, their order is not): what the
seat has now and what the position will still bring: the projected score and its lead, coins (buying
power and the tie-break), the firemen standing against the fire strength still in the pile, contracts on
the way (their points by how far they are filled, the goods still missing), goods stored, income, and how
much of the game is left, with the leads weighted by it (a lead late in the game is worth more), the
seat's place in this round's turn order (0: the start player), and the greedy bot's public judgement: the
points the seat's holdings promise (``projected``) and what the best card on the water is worth to it.
"""

from __future__ import annotations

from typing import Any

from ...engine.protocol import get_game

NAMES = (
    "score", "score_lead", "score_vs_mean", "coins", "coins_lead", "fire_top", "fire_bottom", "fire_lead",
    "contract_vp_open", "contract_vp_done_part", "contract_missing", "goods_stored", "income_bonus", "cards",
    "progress", "score_lead_x_progress", "coins_lead_x_progress", "fire_top_x_left", "fire_bottom_x_left",
    "rounds_left", "turn_order", "projected", "projected_lead", "projected_lead_x_progress", "offer_best",
    "offer_best_lead",
)


def seat_features(state: Any) -> tuple[tuple[str, ...], list[list[float]]]:
    """(feature names, one row of numbers per seat)."""
    cat = state.cat
    n = state.n_players
    cards = cat.cards
    scores = [float(state.score(i)) for i in range(n)]
    coins = [float(s.coins) for s in state.seats]
    firemen = [float(s.firemen) for s in state.seats]
    fire_left = float(sum(cards[c].strength for c in state.pile if cards[c].kind == "fire"))
    rounds_left = float(getattr(state, "rounds_left", 1)) if not state.is_over else 0.0
    progress = 1.0 / (1.0 + rounds_left)
    hi, lo = max(firemen), min(firemen)
    # The greedy bot's public judgement (its "heuristic" capability): the points a seat's holdings promise,
    # and what the best card on the water is worth to it.
    judge = get_game(state.game).capability("heuristic")(state)
    projected = [judge.projected_score(i) for i in range(n)]
    spaces = range(len(judge.offer))
    best = [max((judge.card_value(i, k) for k in spaces), default=0.0) for i in range(n)]
    rows: list[list[float]] = []
    for i, s in enumerate(state.seats):
        others = [x for j, x in enumerate(scores) if j != i] or [0.0]
        other_coins = [x for j, x in enumerate(coins) if j != i] or [0.0]
        other_fire = [x for j, x in enumerate(firemen) if j != i] or [0.0]
        vp_open = part = missing = 0.0
        for ci, placed in s.contracts:
            need = len(cards[ci].goods)
            if len(placed) < need:
                vp_open += cards[ci].vp
                part += cards[ci].vp * len(placed) / need
                missing += need - len(placed)
        top = 1.0 if firemen[i] == hi and hi > lo else 0.0
        bottom = 1.0 if firemen[i] == lo and hi > lo else 0.0
        lead = scores[i] - max(others)
        coin_lead = coins[i] - max(other_coins)
        projected_lead = projected[i] - max((x for j, x in enumerate(projected) if j != i), default=0.0)
        rows.append([
            scores[i], lead, scores[i] - sum(others) / len(others), coins[i], coin_lead, top, bottom,
            firemen[i] - max(other_fire), vp_open, part, missing, float(len(s.warehouse) + len(s.hall)),
            float(s.income_bonus), float(len(s.cards)), progress, lead * progress, coin_lead * progress,
            top * fire_left, bottom * fire_left, rounds_left, float((i - state.first) % n),
            projected[i], projected_lead, projected_lead * progress, best[i],
            best[i] - max((x for j, x in enumerate(best) if j != i), default=0.0),
        ])
    return NAMES, rows
