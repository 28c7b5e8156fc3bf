"""Kaispeicher plugs into the base rules through their interface only (issue 24).

The expansion (``games/speicherstadt/kaispeicher.py``) changes a position only through the methods the base rules
use themselves (``seat_add``, ``seat_set``, ``seat_add_at``, ``contract_load``, ``contract_unload``, ``part_set``,
``to_stock``, ...): it assigns no attribute of anything it reads from a state, and the base state module tests no
``kai``. These tests read the code for that and check the interface's copy-on-write.
"""

from __future__ import annotations

import ast
import inspect

import speicherstadt_lab as sl
from speicherstadt_lab.games.speicherstadt import kaispeicher
from speicherstadt_lab.games.speicherstadt import state as base_state


def _tree(module: object) -> ast.Module:
    return ast.parse(inspect.getsource(module))  # type: ignore[arg-type]


def _attribute_writes(tree: ast.AST, allowed_class: str | None = None) -> list[str]:
    """``line: target`` of every assignment to an attribute outside class ``allowed_class`` (its own fields)."""
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == allowed_class:
            skip |= {id(n) for n in ast.walk(node)}
    out = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for t in targets:
            for sub in ast.walk(t):
                if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store):
                    out.append(f"{node.lineno}: {ast.unparse(sub)}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr":
            out.append(f"{node.lineno}: setattr")
    return out


def test_the_expansion_writes_no_attribute_of_a_state_or_a_seat() -> None:
    assert _attribute_writes(_tree(kaispeicher), allowed_class="Kai") == []


def test_the_check_finds_a_direct_write() -> None:
    tree = ast.parse("def rule(state):\n    part = state.kai\n    part.turn = 1\n    state.seats[0].coins -= 2\n")
    assert _attribute_writes(tree) == ["3: part.turn", "4: state.seats[0].coins"]


def test_the_base_state_module_tests_no_kai() -> None:
    tests = [n.test for n in ast.walk(_tree(base_state)) if isinstance(n, ast.If | ast.IfExp | ast.While)]
    named = [ast.unparse(t) for t in tests if any((isinstance(x, ast.Attribute) and x.attr == "kai") or
                                                  (isinstance(x, ast.Name) and x.id == "kai") for x in ast.walk(t))]
    assert named == []


def test_seat_changes_are_copy_on_write() -> None:
    s = sl.new_game(players=3, seed=4)
    t = s._same_position()  # a new generation, as inside apply
    coins = s.seats[1].coins
    assert t.seat_add(1, "coins", 5) == coins + 5
    t.seat_set(1, "k_convert", 2)
    assert t.seat_add_at(1, "sells", 0, 3) == 3
    assert (t.seats[1].coins, t.seats[1].k_convert, t.seats[1].sells[0]) == (coins + 5, 2, 3)
    assert (s.seats[1].coins, s.seats[1].k_convert, s.seats[1].sells[0]) == (coins, 0, 0)  # the old state is as it was
    assert t.seats[0] is s.seats[0]  # an untouched seat stays shared


def test_contract_moves_are_copy_on_write() -> None:
    s = sl.new_game(players=2, seed=1)
    s.seats[0].contracts = ((5, (1,)),)  # a fresh state's own seat: set up a contract holding one cube
    t = s._same_position()  # a new generation, as inside apply
    assert t.contract_load(0, 0, 2) == (1, 2)
    t.contract_unload(0, 0, 1)
    assert t.seats[0].contracts == ((5, (2,)),)
    assert s.seats[0].contracts == ((5, (1,)),)


def test_part_changes_are_copy_on_write() -> None:
    s = sl.new_game(players=3, seed=2, expansion="kaispeicher")
    t = s._same_position()  # a new generation, as inside apply
    rpos, turn = s.kai.rpos, s.kai.turn
    t.part_set("rpos", rpos + 2)
    t.part_update(turn=(turn + 1) % 3, spy_turn=1)
    assert (t.kai.rpos, t.kai.turn, t.kai.spy_turn) == (rpos + 2, (turn + 1) % 3, 1)
    assert (s.kai.rpos, s.kai.turn) == (rpos, turn)
    assert t.to_dict()["kai"]["rpos"] == rpos + 2 and s.to_dict()["kai"]["rpos"] == rpos
