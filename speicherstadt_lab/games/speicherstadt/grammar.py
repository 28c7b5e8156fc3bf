"""Die Speicherstadt's action grammar (with Kaispeicher's verbs), declared once: each verb, its arguments' kinds
and the click that makes it (``engine/grammar.py`` reads it for parsing, clicks, forms and the action catalogue).

The domains are the notation's: ``good`` (the goods in play), ``source`` (where a stored cube is taken from).
"""

from __future__ import annotations

from typing import Any

from ...engine.grammar import Arg, Grammar, Verb

KAI = "kaispeicher"
SOURCES = ("warehouse", "hall")


def _good(name: str = "good", hint: str = "GOOD") -> Arg:
    return Arg(name, "one", "good", what="good", hint=hint, error="good")


def _int(name: str, limit: str, what: str, hint: str = "N") -> Arg:
    return Arg(name, "int", limit, what=what, hint=hint)


def numbers(state: Any, name: str) -> int:
    """What a click's list length is in ``state``: ``convert`` (the market hall's 3, the Harbour Master's 2 for its
    owner's loading turn) and ``hallsell`` (2)."""
    setup = state.cat.setup
    if name == "hallsell":
        return int(setup.get("hall_sell", 2))
    k = int(setup.get("hall_convert", 3))
    if state.phase == "loading" and state.to_move is not None:
        return state.seats[state.to_move].k_convert or k
    return k


GRAMMAR = Grammar(
    game="speicherstadt",
    verbs=(
        Verb("buy"),
        Verb("pass"),
        Verb("done"),
        Verb("place", (_int("space", "spaces", "the water space"),)),
        Verb("contract", (_good(), _int("index", "contracts", "the contract", "K"))),
        Verb("sell", (_good(),)),
        Verb("store", (_good(),)),
        Verb("keep", (_good(),)),
        Verb("take", (_good(), Arg("source", "one", "source", what="place", hint="warehouse|hall"))),
        Verb("hallsell", (Arg("goods", "many", "good", what="good", hint="G1 G2", counts=(2,), count="hallsell",
                              error="good"),)),
        Verb("convert", (Arg("goods", "many", "good", what="good", hint="G1 G2 G3", counts=(3, 2), count="convert",
                             error="good"), Arg("", "word", "to"), _good("to", "G"))),
        # Kaispeicher
        Verb("buyfree", (Arg("", "word", "free"),), word="buy", expansion=KAI),
        Verb("break", expansion=KAI),
        Verb("stop", expansion=KAI),
        Verb("double", expansion=KAI),
        Verb("insure", expansion=KAI),
        Verb("reserve", (_int("space", "spaces", "the top-row space"),), expansion=KAI),
        Verb("spy", (_int("space", "spaces", "a space or level", "S1"),
                     _int("level", "levels", "a space or level", "L1"),
                     _int("space_other", "spaces", "a space or level", "S2"),
                     _int("level_other", "levels", "a space or level", "L2")), expansion=KAI),
        Verb("deliver", (_good(),), expansion=KAI),
        Verb("auction", (_good(),), expansion=KAI),
        Verb("smuggle", (_int("seat", "seats", "the seat", "SEAT"), _int("index", "contracts", "the contract", "K"),
                         _good()), expansion=KAI),
        Verb("truck", (_good(), _int("from", "contracts", "the contract", "K1"),
                       _int("to", "contracts", "the contract", "K2")), expansion=KAI),
    ),
    # the action catalogue's bounds: water spaces (players + 1, at most 6), workers above one, a seat's contracts;
    # the sizes of a conversion (the Harbour Master's 2 exists only with Kaispeicher)
    limits={"spaces": 6, "levels": 8, "contracts": 10, "convert": {None: (3,), KAI: (3, 2)},
            "hallsell": {None: (2,), KAI: (2,)}},
    numbers=numbers,
)
