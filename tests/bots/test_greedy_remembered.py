"""What Die Speicherstadt's greedy player remembers for speed is what it computes afresh: its memo key with numbers
(``greedy._numbered_keyer``: seats, the expansion's part and the hidden multisets by number) names positions exactly
as ``memo.public_key`` does, and a worker column's seats, remembered, are the fresh ones: at the positions of whole
games and the rollout starts a review makes from them, base game and Kaispeicher."""

from __future__ import annotations

from typing import Any

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.bots import greedy
from speicherstadt_lab.bots.memo import public_key
from speicherstadt_lab.engine.rng import Rng


def _positions(expansion: str | None) -> list[Any]:
    """Every position of two random games, each with two determinizations, an observation and a step from each."""
    kw = {"expansion": expansion} if expansion else {}
    out = []
    for players, seed in ((3, 31), (4, 32)):
        state = sl.new_game(players=players, seed=seed, **kw)
        rng = Rng(seed)
        while not state.is_over:
            out += [state, state.determinize(1), state.determinize(2), state.observe(state.to_move)]
            actions = state.legal_actions()
            for start in out[-3:]:
                out.append(start.apply(actions[0]))
            state = state.apply(actions[rng.below(len(actions))])
    return out


def _keys(positions: list[Any], size: int) -> list[tuple[Any, Any]]:
    """(public key, numbered key) of each position, the numbered ones from fresh keyers holding ``size`` numbers (not
    the module's shared ones, whose numbers restart after whatever earlier tests keyed in the same process)."""
    cls = greedy._heuristic_class(positions[0])
    keyers: dict[type, Any] = {}
    out = []
    for st in positions:
        keyer = keyers.get(st.__class__)
        if keyer is None:
            keyer = keyers[st.__class__] = greedy._numbered_keyer(st.__class__, cls, size=size)
        nk = keyer(st)
        assert nk[0] is cls
        out.append((public_key(st), nk))
    return out


@pytest.mark.parametrize("expansion", [None, "kaispeicher"])
def test_the_numbered_key_names_positions_as_the_public_key(expansion: str | None) -> None:
    positions = _positions(expansion)
    by_public: dict[Any, Any] = {}
    by_numbered: dict[Any, Any] = {}
    for pk, nk in _keys(positions, size=10**9):  # numbers never restart here
        assert by_public.setdefault(pk, nk) == nk  # equal public keys: equal numbered keys
        assert by_numbered.setdefault(nk, pk) == pk  # and the other way
    assert len(by_public) < len(positions)  # determinizations share their keys: the check compared some


@pytest.mark.parametrize("expansion", [None, "kaispeicher"])
def test_restarted_numbers_only_split_keys(expansion: str | None) -> None:
    """When the numbers restart (64 held here, the shipped keyer holds 20,000), a value numbered again gets a new
    number: equal positions may get two keys, but two different positions never share one."""
    positions = _positions(expansion)
    by_numbered: dict[Any, Any] = {}
    by_public: dict[Any, set[Any]] = {}
    for pk, nk in _keys(positions, size=64):
        assert by_numbered.setdefault(nk, pk) == pk  # one numbered key, one position
        by_public.setdefault(pk, set()).add(nk)
    assert any(len(v) > 1 for v in by_public.values())  # the numbers did restart and split some keys


@pytest.mark.parametrize("expansion", [None, "kaispeicher"])
def test_remembered_column_seats_are_the_fresh_ones(expansion: str | None) -> None:
    for st in _positions(expansion)[::7]:
        if st.is_over:
            continue
        h = greedy.heuristic_for(st)
        fresh = [tuple(w & 7 for w in c) for c in st.columns]
        assert h.columns[:len(fresh)] == fresh
        assert all(c == () for c in h.columns[len(fresh):])

