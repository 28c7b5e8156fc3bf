"""Packet Row's adapter for the conformance harness (:mod:`speicherstadt_lab.engine.conformance`).

Supplies the invariants, the candidate actions (every verb over every board, slot and money value; the
fulfilments of every seat's hand and single-card changes of them; malformed text), the hidden sequences (deck
orders, removed cards, the box), the public facts, the per-transition and the end-of-game checks. Imported
lazily by ``get_adapter("packet_row")``.

The harness's full mode also checks ``observe(seat)`` of seats that are not to move, and asks that it keep the
mover's legal actions. In Packet Row those depend on the mover's secret starting contract, so that check
cannot hold without a leak: run full checks with ``skip=("observe",)``; the quick mode checks ``observe`` of
the mover at every step, and ``tests/games/packet_row/test_packet_row_hidden.py`` checks every seat's
observation.

A seat whose secret starting contract might be fulfillable (public facts only) is asked even when its real
contract leaves it one action (docs/packet-row-notes.md, entry 9): ``lone_decision`` tells the harness so.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ...engine.conformance import ConformanceAdapter, end_checks
from .catalog import BOARDS
from .fulfil import Option
from .setup import check_invariants, new_game
from .state import PHASES, State

MALFORMED = (
    "", "   ", "choose", "choose harbour", "choose guild docks", "take", "take guild", "take guild x",
    "take guild -1", "take guild future", "take guild past 0", "take nowhere 0", "decline now", "pass 1",
    "done 2", "cash", "cash x", "cash 4 4", "fly", "fulfil", "fulfil ship gb goods grain1",
    "fulfil grain_gb goods grain1", "fulfil grain_gb ship gb", "fulfil grain_gb ship xx goods grain1",
    "fulfil grain_gb ship gb captain gb goods grain1", "fulfil grain_gb ship gb goods grain1 merchant grain",
    "fulfil grain_gb ship gb goods gold1 merchant fur", "fulfil grain_gb ship gb goods ship_gb",
    "fulfil nothing ship gb goods grain1", "fulfil grain_gb ship gb goods grain1 merchant",
)


def _mutations(state: State, option: Option, seat: int) -> Iterator[Option]:
    """Single changes of a fulfilment: a card left out, added or swapped, a captain or merchant added."""
    nt = state.nt
    contracts, ships, uses = option
    hand = state.seats[seat].hand
    n_dest, n_goods = len(nt.dests), len(nt.goods)
    if len(contracts) > 1:
        for i in range(len(contracts)):
            yield (contracts[:i] + contracts[i + 1:], ships, uses)
    if len(uses) > 1:
        for i in range(len(uses)):
            yield (contracts, ships, uses[:i] + uses[i + 1:])
    for t in sorted(set(hand)):
        if nt.kind[t] in ("goods", "gold"):
            yield (contracts, ships, tuple(sorted((*uses, (t, -1)))))
        if nt.kind[t] == "contract" and t not in contracts:
            yield (tuple(sorted((*contracts, t))), ships, uses)
    for i, (frm, to) in enumerate(ships):
        other = (to + 1) % n_dest
        moved = (frm, other if other != frm else (other + 1) % n_dest)
        yield (contracts, (*ships[:i], moved, *ships[i + 1:]), uses)
        yield (contracts, tuple(sorted((*ships, (frm, frm)))), uses)
    for i, (t, target) in enumerate(uses):
        if nt.kind[t] == "goods":
            new = (target + 1) % n_goods if target >= 0 else (nt.good[t] + 1) % n_goods
            if new != nt.good[t]:
                yield (contracts, ships, tuple(sorted((*uses[:i], (t, new), *uses[i + 1:]))))


def candidate_actions(state: State) -> Iterator[str]:
    """Action texts to try in ``state``, legal or not (see the module docstring)."""
    nt = state.nt
    yield from MALFORMED
    yield "  CHOOSE   Guild "  # case and spacing are not significant
    for b in BOARDS:
        yield f"choose {b}"
        for slot in range(nt.current_size[state.n_players] + 1):
            yield f"take {b} {slot}"
        for slot in range(nt.future_size + 1):
            yield f"take {b} future {slot}"
    yield from ("decline", "pass", "done")
    for v in range(max(nt.money_of, default=0) + 2):
        yield f"cash {v}"
    seen: set[str] = set()
    for seat in range(state.n_players):
        for option in state._fulfil_options(state.seats[seat], public=False):
            for o in (option, *_mutations(state, option, seat)):
                text = nt.fulfil(o).text
                if text not in seen:
                    seen.add(text)
                    yield text


def hidden_sequences(state: State) -> list[list[Any]]:
    """The secret orders, as ``to_dict`` writes them: each deck, the removed cards, the box."""
    ids = state.nt.ids
    out = [[ids[c] for c in d] for d in state.decks]
    out += [[ids[c] for c in r] for r in state.removed]
    out.append([ids[c] for c in state.box])
    return out


def rearrangement(state: State, seed: int) -> dict[str, Any]:
    """A legal ``rearranged`` call for the harness: every deck in the order of ``determinize(seed)`` (the
    secret starting contracts stay: rearranging them changes what their holders see)."""
    d = state.determinize(seed)
    ids = d.nt.ids
    return {"decks": {name: [ids[c] for c in d.decks[b]] for b, name in enumerate(BOARDS)}}


def transition_checks(before: State, action: str, after: State) -> list[str]:
    """Round moves on by at most one and never back; decks only shrink; unfillable boards stay unfillable."""
    problems: list[str] = []
    if after.round < before.round or after.round - before.round > 1:
        problems.append(f"went from round {before.round} to {after.round}")
    if after.round == before.round and PHASES.index(after.phase) < PHASES.index(before.phase):
        problems.append(f"went back from {before.phase} to {after.phase} within round {before.round}")
    if after.round > before.round and after.phase not in ("choose", "decide"):
        problems.append(f"round {after.round} begins in the {after.phase} phase")
    for b, name in enumerate(BOARDS):
        if len(after.decks[b]) > len(before.decks[b]):
            problems.append(f"the {name} deck grew")
    if not set(before.short) <= set(after.short):
        problems.append("a board that could not be filled became fillable again")
    return problems


def game_checks(final: State, actions: Sequence[str]) -> list[str]:
    """The game ends ``over`` by the end condition, every money card cashed (and ``end_checks``)."""
    problems = end_checks(final, actions, "pr_game_over")
    nt = final.nt
    if len(final.short) < nt.end_boards[final.n_players]:
        problems.append(f"ended with only {len(final.short)} unfillable boards")
    if any(nt.kind[c] == "money" for s in final.seats for c in s.hand):
        problems.append("a money card was not cashed")
    return problems


def conformance_adapter() -> ConformanceAdapter:
    """The adapter the harness uses for ``"packet_row"``: this module's checks; the game's view is its public
    facts."""

    def make(players: int, seed: int) -> State:
        return new_game(players=players, seed=seed)

    return ConformanceAdapter.from_module(__name__, game="packet_row", player_counts=(2, 3, 4, 5), new_game=make,
                                          invariants=check_invariants, lone_decision=State.asked_for_secrecy,
                                          max_decisions=5_000)
