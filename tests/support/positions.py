"""Positions that tests in several folders build: a greedy game of Die Speicherstadt in mid-play, and a Packet Row
position where Blue can complete its secret starting contract with cards lying open."""

from __future__ import annotations

import speicherstadt_lab as sl
from speicherstadt_lab.bots import make_bot
from speicherstadt_lab.games.packet_row.scenario import rigged, stacked_decks


def random_moves(state: sl.GameState, steps: int, seed: int = 1, label: str = "random") -> sl.GameState:
    """``state`` after up to ``steps`` legal moves chosen uniformly by ``Rng(seed, label)`` (or at its end)."""
    rng = sl.Rng(seed, label)
    for _ in range(steps):
        if state.is_over:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def midgame(players: int = 3, seed: int = 5, rounds: int = 6) -> sl.GameState:
    """A game of ``players`` (seed ``seed``) played by one greedy bot (seed 1) until round ``rounds`` begins."""
    s = sl.new_game(players=players, seed=seed)
    bot = make_bot("greedy", seed=1)
    while s.round < rounds:
        s = s.apply(bot.choose(s.observe(s.to_move)))
    return s


def blue_with_open_fur_and_spain(contract: str = "start_fur_es", *, money: int = 0, players: int = 3,
                                  market: tuple[str, ...] = ("grain1", "market_university", "market_library"),
                                  box: str | None = None) -> sl.GameState:
    """Blue (seat 1) with ``money``, a fur 3 card and a ship to Spain lying open, and the secret starting contract
    ``contract`` (``box``: a starting contract put last, into the box); Red has just to choose the Market."""
    cat = sl.new_game("packet_row", players=4, seed=0).cat
    first = [contract] + ([box] if box else [])
    rest = [c.id for c in cat.start_contracts if c.id not in first]
    order = [rest[0], contract, *rest[1:], *([box] if box else [])]
    decks = stacked_decks({"market": list(market)}, bottom=["fur3", "ship_es"])
    s = sl.new_game("packet_row", players=players, decks=decks, start_contracts=order)
    return rigged(s, 1, hand=["fur3"], ships=["ship_es"], money=money)
