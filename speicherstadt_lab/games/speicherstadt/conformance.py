"""Die Speicherstadt's adapter for the conformance harness (:mod:`speicherstadt_lab.engine.conformance`).

Supplies the invariants, the candidate actions (every verb with every argument combination over the goods,
plus malformed text), the hidden sequences (pile and bag order), the public facts, a chance variation to
check, the per-transition and the end-of-game checks. Imported lazily by ``get_adapter("speicherstadt")``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Any

from ...engine.conformance import ConformanceAdapter, end_checks
from .setup import check_invariants, new_game
from .state import PHASES, State

#: Rounds a game lasts (rulebook: the game ends after the round in which only the 4th fire is left;
#: with the base game's pile this is 16/12/10/8 rounds for 2/3/4/5 players, and with Kaispeicher's pile too:
#: twice the cards per round from 104 cards less the removals, docs/rules-notes.md K1).
ROUNDS = {2: 16, 3: 12, 4: 10, 5: 8}

#: Text that is no action at all, or an action with impossible arguments.
MALFORMED = (
    "", "   ", "place", "place x", "place -1", "place 99", "place 1 2", "buy now", "pass 1", "done done", "fly",
    "sell gold", "sell", "store", "keep coffee tea", "take coffee attic", "take coffee", "contract coffee",
    "contract coffee x", "convert coffee tea to rubber", "convert coffee tea saffron rubber", "hallsell coffee",
    "hallsell coffee tea saffron",
)


#: Kaispeicher's verbs with missing or impossible arguments.
MALFORMED_KAI = (
    "reserve", "reserve x", "reserve 1 2", "break 1", "stop now", "spy 0 0 0", "spy a 0 0 0", "double 2",
    "insure x", "buy cheap", "buy free now", "deliver", "deliver gold", "auction", "smuggle 1 0", "smuggle x 0 coffee",
    "truck coffee 0", "truck coffee x 1", "convert coffee to tea",
)


def candidate_actions(state: State) -> Iterator[str]:
    """Action texts to try in ``state``, legal or not: every verb of the base game with every argument
    combination over the goods (and a contract index one past the largest), plus malformed text."""
    goods = state.goods
    yield from MALFORMED
    for n in range(max(8, len(state.offer_idx) + 1)):
        yield f"place {n}"
    yield "buy"
    yield "pass"
    yield "done"
    yield "  PLACE   0 "  # case and spacing are not significant
    contracts = max(len(s.contracts) for s in state.seats)
    for g in goods:
        yield f"sell {g}"
        yield f"store {g}"
        yield f"keep {g}"
        yield f"take {g} warehouse"
        yield f"take {g} hall"
        for k in range(contracts + 1):
            yield f"contract {g} {k}"
    for pair in itertools.combinations_with_replacement(goods, 2):
        yield "hallsell " + " ".join(pair)
    for triple in itertools.combinations_with_replacement(goods, 3):
        for target in goods:
            yield f"convert {' '.join(triple)} to {target}"
    if state.kai is not None:
        yield from _kai_candidates(state, contracts)


def _kai_candidates(state: State, contracts: int) -> Iterator[str]:
    """Kaispeicher's verbs. Arguments are enumerated in full only in the phase where the verb can be legal
    (a spy swap in the spy step, the loading cards in loading); elsewhere a few samples show they are refused."""
    goods = state.goods
    yield from MALFORMED_KAI
    for n in range(len(state.kai.top) + 1):
        yield f"reserve {n}"
    yield from ("break", "stop", "double", "insure", "buy free")
    if state.phase == "spy":
        levels = max((len(c) for c in state.columns), default=0) + 1
        cells = [(s, lv) for s in range(len(state.columns) + 1) for lv in range(levels)]
        for (s1, l1), (s2, l2) in itertools.product(cells, repeat=2):
            yield f"spy {s1} {l1} {s2} {l2}"
    else:
        yield "spy 0 0 0 1"
    loading = state.phase == "loading"
    seats = range(state.n_players + 1) if loading else (1,)
    ks = range(contracts + 1) if loading else (0, 1)
    for g in goods:
        yield f"deliver {g}"
        yield f"auction {g}"
        for j in seats:
            for k in ks:
                yield f"smuggle {j} {k} {g}"
        for k1 in ks:
            for k2 in ks:
                yield f"truck {g} {k1} {k2}"
    pairs = itertools.combinations_with_replacement(goods, 2) if loading else [(goods[0], goods[1])]
    for pair in pairs:
        for target in goods:
            yield f"convert {' '.join(pair)} to {target}"


def hidden_sequences(state: State) -> list[list[Any]]:
    """The secret orders, as ``to_dict`` writes them: the draw pile and the bag."""
    return [[state.cat.cards[c].id for c in state.pile], [state.goods[g] for g in state.bag]]


def public(state: State, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see; the ``observer`` tag only says the state came from ``observe``."""
    v = state.view(seat)
    v.pop("observer", None)
    return v


def rearrangement(state: State, seed: int) -> dict[str, Any]:
    """A legal ``rearranged`` call for the harness: the whole pile and bag in the order of ``determinize(seed)``."""
    d = state.determinize(seed)
    return {"pile": [d.cat.cards[c].id for c in d.pile], "bag": [d.goods[g] for g in d.bag]}


def _progress(state: State) -> tuple[int, int]:
    """(round, step) that only grows: with Kaispeicher a fire decision during a round's supply comes before
    its demand; the fires after the last round come after its loading."""
    if state.phase == "fire" and not (state.last_round and state.loading_turn >= state.n_players):
        return (state.round, -1)
    return (state.round, PHASES.index(state.phase))


def transition_checks(before: State, action: str, after: State) -> list[str]:
    """Round and phase only move forward (round by at most one per decision); the pile only shrinks."""
    problems: list[str] = []
    b = _progress(before)
    a = _progress(after)
    if a < b:
        problems.append(f"went back from round {b[0]} {before.phase} to round {a[0]} {after.phase}")
    if after.round - before.round > 1:
        problems.append(f"jumped from round {before.round} to {after.round}")
    if after.pile_size > before.pile_size:
        problems.append(f"the pile grew from {before.pile_size} to {after.pile_size} cards")
    return problems


def game_checks(final: State, actions: Sequence[str]) -> list[str]:
    """The game ends ``over`` after the right number of rounds, with every fire resolved (and ``end_checks``)."""
    problems = end_checks(final, actions, "game_over")
    n = final.n_players
    if final.round != ROUNDS[n]:
        problems.append(f"{n} players played {final.round} rounds, not {ROUNDS[n]}")
    if final.pile_size:
        problems.append(f"{final.pile_size} cards left on the pile")
    cards = final.cat.cards
    fires_in_game = sum(1 for c in cards if c.kind == "fire" and c.expansion in (None, final.expansion))
    fires_resolved = sum(1 for c in final.discard if cards[c].kind == "fire")
    if fires_resolved != fires_in_game:
        problems.append(f"{fires_resolved} of {fires_in_game} fires resolved")
    return problems


def conformance_adapter(expansion: str | None = None) -> ConformanceAdapter:
    """The adapter the harness uses for ``"speicherstadt"``: this module's checks (``expansion`` is passed on to
    ``new_game``)."""

    def make(players: int, seed: int) -> State:
        return new_game(players=players, seed=seed, expansion=expansion)

    game = "speicherstadt" if expansion is None else f"speicherstadt+{expansion}"
    return ConformanceAdapter.from_module(__name__, game=game, player_counts=(2, 3, 4, 5), new_game=make,
                                          invariants=check_invariants)
