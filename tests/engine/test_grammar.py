"""The action grammar declared once per game (engine/grammar.py, games/*/grammar.py, the toy's): parsing, clicks,
the interop catalogue and the explanations read it; a click is checked once and applied once; no game-name test
outside games/."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.engine.grammar import Arg, ArgKind, Grammar, GrammarError, Verb, register_kind
from speicherstadt_lab.engine.protocol import game_names, get_game, grammar_of
from speicherstadt_lab.interop.encoding import action_catalogue
from speicherstadt_lab.records import GameRecord
from speicherstadt_lab.ui import Board
from speicherstadt_lab.ui.clicks import ClickError, act_message
from tests.support.games import VARIANTS as LAB_VARIANTS

pytestmark = pytest.mark.usefixtures("toy_game")  # the toy's grammar is checked beside the lab's games
PACKAGE = Path(sl.__file__).parent
VARIANTS = [*LAB_VARIANTS, ("toy_race", None)]


def _start(game: str, expansion: str | None, players: int = 3) -> Any:
    kw: dict[str, Any] = {"players": players, "seed": 5}
    if expansion:
        kw["expansion"] = expansion
    return sl.new_game(game, **kw)


@pytest.mark.parametrize(("game", "expansion"), VARIANTS)
def test_every_legal_action_is_one_click_and_one_text_of_the_grammar(game: str, expansion: str | None) -> None:
    """Along a random game: each legal action's click (``fields_of``) makes that very action, its text parses to
    it, and the interop catalogue numbers it."""
    state = _start(game, expansion)
    grammar = grammar_of(game)
    catalogue = action_catalogue(game, 3, expansion)
    rng = random.Random(3)
    kinds: set[str] = set()
    steps = 0
    while not state.is_over and steps < 400:
        legal = state.legal_actions()
        for a in legal:
            msg = grammar.fields_of(a)
            kinds.add(msg["verb"])
            assert msg["kind"] == "act" and set(msg) == {"kind", "verb", "args"}
            assert set(msg["args"]) == set(grammar.verb(msg["verb"]).fields)
            assert state.notation.click(state, msg, ClickError) is a, (a, msg)
            assert state.parse_action(str(a)) is a
            assert catalogue.text_of(state, catalogue.id_of(state, a)) == str(a)
        assert len(catalogue.legal_ids(state)) == len(legal)
        state = state.apply(rng.choice(legal))
        steps += 1
    assert len(kinds) >= 2


def test_the_toy_games_catalogue_comes_from_its_grammar(toy_game: ModuleType) -> None:
    assert action_catalogue("toy_race", 2).texts == ("draw", "take 0", "take 1")
    assert get_game("toy_race").capability("grammar") is toy_game.GRAMMAR
    with pytest.raises(sl.IllegalAction, match=r"write 'take POINTS'"):
        toy_game.new_game().apply("take")


def test_written_forms_and_refusals_come_from_the_declaration() -> None:
    g = grammar_of("packet_row")
    assert g.forms("take") == ["take BOARD N", "take BOARD future N"]
    assert grammar_of("speicherstadt").forms("buy") == ["buy", "buy free"]
    assert grammar_of("speicherstadt").forms("convert") == ["convert G1 G2 G3 to G"]
    s = sl.new_game(players=3, seed=1)
    with pytest.raises(sl.IllegalAction, match=r"write 'buy' or 'buy free'"):
        s.apply("buy now")
    with pytest.raises(sl.IllegalAction, match=r"unknown good 'gold'"):
        s.apply("convert tea gold tea to coffee")
    assert str(s.notation.parse("convert tea coffee TEA to rubber")) == "convert coffee tea tea to rubber"


def test_a_click_is_checked_by_the_grammar_naming_the_field() -> None:
    s = sl.new_game(players=3, seed=1)
    g = s.notation.grammar
    assert g.click_fields["spy"] == ("space", "level", "space_other", "level_other")
    assert g.click(s.notation, s, {"kind": "act", "verb": "buyfree", "args": {}}, ClickError) == "buy free"
    for msg, key, field in [({"kind": "act", "verb": "place", "args": {"space": -1}}, "int", "space"),
                            (act_message("take", {"good": "tea", "source": "attic"}), "choice", "source"),
                            ({"kind": "act", "verb": "hallsell", "args": {"goods": ["tea"]}}, "list", "goods"),
                            ({"kind": "act", "verb": "contract", "args": {"good": "tea"}}, "missing", "index")]:
        with pytest.raises(ClickError) as info:
            g.click(s.notation, s, msg, ClickError)
        assert (info.value.key, info.value.params["field"]) == (key, field)


def test_a_declaration_naming_anything_unknown_is_refused_naming_the_field() -> None:
    with pytest.raises(GrammarError) as info:
        Grammar("g", (Verb("go"), Verb("hop", (Arg("far", "distance"),))))
    assert info.value.field == "g.verbs[1].args[0].kind" and "distance" in str(info.value)
    with pytest.raises(GrammarError) as info:
        Grammar("g", (Verb("go"), Verb("go")))
    assert info.value.field == "g.verbs[1].click"
    with pytest.raises(GrammarError) as info:
        Grammar("g", (Verb("go", (Arg("n", "int", "n"),), order=("m",)),))
    assert info.value.field == "g.verbs[0].order"
    with pytest.raises(GrammarError) as info:
        Grammar("g", (Verb("go", (Arg("to", "word", "to"),)),))
    assert info.value.field == "g.verbs[0].args[0]"
    with pytest.raises(GrammarError) as info:
        register_kind("int", ArgKind())
    assert "already registered" in str(info.value)


def test_the_explanations_cover_exactly_the_grammars_verbs() -> None:
    g = Grammar("g", (Verb("go"), Verb("stay")))
    g.covers("explanations", {"go": 1, "stay": 2})
    with pytest.raises(GrammarError, match=r"g\.explanations: no entry for the verb\(s\) stay"):
        g.covers("explanations", {"go": 1})
    with pytest.raises(GrammarError, match=r"does not have: jump"):
        g.covers("explanations", {"go": 1, "stay": 2, "jump": 3})


def test_a_board_click_is_applied_once_and_the_record_takes_that_state(monkeypatch: pytest.MonkeyPatch) -> None:
    record = GameRecord.new(players=3, seed=2)
    node = record.root
    board = Board(node.state)
    calls: list[str] = []
    cls = type(node.state)
    apply = cls.apply

    def counted(self: Any, action: Any) -> Any:
        calls.append(str(action))
        return apply(self, action)

    monkeypatch.setattr(cls, "apply", counted)
    played: list[Any] = []
    board.on_action(lambda a, before, after: played.append(node.play(a, applied=(before, after))), with_states=True)
    assert board.handle_message({"kind": "act", "verb": "place", "args": {"space": 1}})
    assert calls == ["place 1"] and played[0].state.last_action == "place 1"
    assert not board.handle_message(act_message("buy"))  # the rules refuse it: no callback, nothing played
    assert calls == ["place 1", "buy"] and len(played) == 1 and board.error
    # a state that is not the node's own is not trusted: the record applies the action itself
    other = sl.new_game(players=3, seed=2)
    child = record.root.play("place 2", applied=(other, other.apply("place 2")))
    assert child.state.last_action == "place 2" and calls.count("place 2") == 2


def _game_name_tests(tree: ast.AST, names: set[str]) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            words = {s.value for s in sides if isinstance(s, ast.Constant) and isinstance(s.value, str)}
            for s in sides:
                if isinstance(s, ast.Tuple | ast.List | ast.Set):
                    words |= {e.value for e in s.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
            if words & names:
                found.append(f"{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_module_outside_games_tests_which_game_it_is() -> None:
    """No ``if game == "packet_row"`` (nor a test against any game's or expansion's name) outside ``games/``."""
    names = set(game_names()) | {e for n in game_names() for e in get_game(n).expansions}
    assert {"speicherstadt", "packet_row", "kaispeicher"} <= names
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if "games" in path.relative_to(PACKAGE).parts[:1]:
            continue
        hits = _game_name_tests(ast.parse(path.read_text(encoding="utf-8")), names)
        if hits:
            found[str(path.relative_to(PACKAGE))] = hits
    assert found == {}
    # the check itself finds such a test
    assert _game_name_tests(ast.parse('if game == "packet_row":\n    pass'), names)
    assert _game_name_tests(ast.parse('x = state.expansion in ("kaispeicher",)'), names)
