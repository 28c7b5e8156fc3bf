"""State fields declared once (engine/schema.py): a field added to the toy game's schema, in that one place, goes
through every path a position takes (the clone of a transition, the state file both ways, a new game's and a
record's set-up, a record saved and loaded, ``view``'s masking, ``rearranged``'s changes), and the shipped games'
states are made from their schemas."""

from __future__ import annotations

import json

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.engine.basestate import BaseState, SeatBase, base_fields
from speicherstadt_lab.engine.errors import RecordError
from speicherstadt_lab.engine.protocol import state_from_dict
from speicherstadt_lab.engine.schema import INT, REQUIRED, Field, Schema
from speicherstadt_lab.records import GameRecord
from tests.support import toy_game

# The one place: each variant is Toy Race with one more field, hidden or public.
toy_game.variant("toy_bonus", Field("bonus", int, INT, hidden="the bonus", mask=lambda v, st: "?", default=0,
                                    setup=True))
toy_game.variant("toy_flag", Field("flag", int, INT, default=0, setup=True))

CASES = [("toy_bonus", "bonus", True), ("toy_flag", "flag", False)]


def _played(game: str, key: str, value: int, moves: int = 3) -> list:
    states = [sl.new_game(game, players=2, seed=5, **{key: value})]
    for k in range(moves):
        states.append(states[-1].apply("draw" if k % 2 else "take 1"))
    return states


@pytest.mark.parametrize(("game", "key", "hidden"), CASES)
def test_the_added_field_survives_the_clone_of_every_transition(game: str, key: str, hidden: bool) -> None:
    states = _played(game, key, 7)
    assert [getattr(s, key) for s in states] == [7] * 4
    assert states[0].ply == 0 and states[0].to_dict()[key] == 7  # the first state is unchanged by the moves
    assert getattr(states[-1].observe(0), key) == 7 and getattr(states[-1].determinize(3), key) == 7


@pytest.mark.parametrize(("game", "key", "hidden"), CASES)
def test_the_added_field_round_trips_through_the_state_file(game: str, key: str, hidden: bool) -> None:
    last = _played(game, key, 4)[-1]
    d = json.loads(last.to_json())
    assert d[key] == 4
    again = state_from_dict(d)
    assert getattr(again, key) == 4 and again == last and again.to_json() == last.to_json()
    del d[key]  # a file written before the field existed loads, with the field's default
    assert getattr(state_from_dict(d), key) == 0
    d[key] = "four"
    with pytest.raises(RecordError, match=f"state field '{key}' has the wrong type"):
        state_from_dict(d)


@pytest.mark.parametrize(("game", "key", "hidden"), CASES)
def test_the_added_field_is_saved_and_loaded_with_a_record(game: str, key: str, hidden: bool) -> None:
    rec = GameRecord.new(players=2, seed=3, game=game, **{key: 9})
    node = rec.root
    for action in ("take 1", "draw", "draw"):
        node = node.play(action)
    text = rec.to_json()
    assert json.loads(text)["setup"][key] == 9
    again = GameRecord.from_json(text)
    assert getattr(again.root.state, key) == 9 and getattr(again.end().state, key) == 9
    assert again.end().state == rec.end().state and again.to_json() == text


@pytest.mark.parametrize(("game", "key", "hidden"), CASES)
def test_view_masks_the_added_field_only_if_it_is_hidden(game: str, key: str, hidden: bool) -> None:
    a, b = (_played(game, key, v)[-1] for v in (1, 2))
    view = a.view(0)
    assert view[key] == ("?" if hidden else 1)
    assert ("the bonus" in view["hidden"]) is hidden and "deck order" in view["hidden"]
    assert (a.view(1) == b.view(1)) is hidden  # two positions that differ only in a hidden field look the same
    assert view["deck"] == {"count": len(a.deck), "values": sorted(a.deck)}


@pytest.mark.parametrize(("game", "key", "hidden"), CASES)
def test_only_hidden_fields_can_be_rearranged(game: str, key: str, hidden: bool) -> None:
    s = _played(game, key, 1)[-1]
    before = s.to_json()
    if hidden:
        r = s.schema.with_hidden(s._clone(), bonus=5)
        assert r.bonus == 5 and r.scores == s.scores and s.to_json() == before
    else:
        with pytest.raises(TypeError, match=key):
            s.schema.with_hidden(s._clone(), **{key: 5})
    with pytest.raises(TypeError, match="scores"):
        s.schema.with_hidden(s._clone(), scores=(9, 9))


def test_a_new_position_cannot_forget_a_field() -> None:
    schema = Schema(Field("a", int), Field("b", tuple, default=tuple), Field("c", list, default=list))

    class Thing:
        __slots__ = schema.slots

    t = schema.build(Thing, a=1)
    assert (t.a, t.b, t.c) == (1, (), []) and schema.build(Thing, a=1).c is not t.c
    with pytest.raises(TypeError, match="'a' is not given"):
        schema.build(Thing)
    with pytest.raises(TypeError, match=r"\['d'\] are not fields"):
        schema.build(Thing, a=1, d=2)
    with pytest.raises(TypeError, match="field 'a' must be"):
        schema.build(Thing, a="1")
    with pytest.raises(TypeError, match="copy must be one of"):
        Field("x", copy="deep")
    with pytest.raises(TypeError, match="needs its mask"):
        Schema(Field("x", codec=INT, hidden="x")).view(t, {})
    with pytest.raises(TypeError, match="without a codec of its own"):
        Schema(Field("x", codec=INT, together=("y",)), Field("y", codec=INT))
    with pytest.raises(TypeError, match="named twice"):
        Schema(Field("x"), Field("x"))
    assert REQUIRED is Field("x").default


def test_the_clone_copies_each_field_as_declared() -> None:
    schema = Schema(Field("kept", tuple), Field("changed", list, copy="list"), Field("legal", default=None,
                                                                                   copy="reset"),
                    Field("events", copy="apply"))

    class Thing:
        __slots__ = schema.slots

        def _clone(self) -> Thing:
            """A copy."""
            raise NotImplementedError

    Thing._clone = schema.copier(Thing)  # type: ignore[method-assign]
    t = schema.build(Thing, kept=(1,), changed=[1], legal=("x",), events=("e",))
    c = t._clone()
    assert c.kept is t.kept and c.changed == [1] and c.changed is not t.changed and c.legal is None
    assert not hasattr(c, "events")  # apply sets it


@pytest.mark.parametrize(("game", "options"), [("speicherstadt", {}), ("speicherstadt", {"expansion": "kaispeicher"}),
                                               ("packet_row", {})])
def test_the_shipped_games_states_are_made_from_their_schemas(game: str, options: dict) -> None:
    from speicherstadt_lab.engine.rng import Rng

    s = sl.new_game(game, players=3, seed=2, **options)
    schema = type(s).schema
    assert type(s).__slots__ == schema.slots and type(s.seats[0]).__slots__ == type(s.seats[0]).schema.slots
    rng = Rng(4, "schema")
    for _ in range(40):
        s = s.apply(rng.choice(s.legal_actions()))
    assert not schema.missing(s) and not schema.missing(s._clone())
    d = s.to_dict()
    written = {f.file_key for f in schema.fields if f.codec is not None and (f.present is None or f.present(s))}
    assert written <= set(d) and state_from_dict(d).to_json() == s.to_json()
    seat_keys = {f.file_key for f in type(s.seats[0]).schema.fields if f.codec is not None
                 and (f.present is None or f.present(s))}
    assert set(d["seats"][0]) == seat_keys
    assert ("kai" in d) is (options.get("expansion") == "kaispeicher")
    assert ("breaks" in seat_keys) is (options.get("expansion") == "kaispeicher")
    hidden = [f.name for f in schema.hidden]
    assert hidden == (["pile", "bag"] if game == "speicherstadt" else ["decks", "removed"])
    with pytest.raises(TypeError, match="not hidden fields"):
        schema.with_hidden(s._same_position(), seats=[])


def test_a_class_statement_naming_its_schema_gets_the_schema_and_its_slots() -> None:
    seat_schema = Schema(Field("coins", int, default=0), Field("_gen", int, copy="generation", default=0))

    class Purse(SeatBase, schema=seat_schema):
        """A seat of one field."""

    assert Purse.schema is seat_schema and Purse.__slots__ == seat_schema.slots
    purse = seat_schema.build(Purse)
    with pytest.raises(AttributeError):
        purse.wallet = 1  # type: ignore[attr-defined]  # slots only: no field that is not declared
    assert purse.clone(3).coins == 0 and purse.clone(3)._gen == 3  # clone(gen) written from the schema

    fields = Schema(*base_fields(), Field("pot", int, default=0))

    class Pot(BaseState, game="pot", schema=fields, seat_type=Purse):
        """A state of one field of its own."""

    assert Pot.schema is fields and Pot.__slots__ == fields.slots and Pot.seat_type is Purse and Pot.game == "pot"
    assert "pot" in Pot.__slots__ and callable(Pot._clone)
    with pytest.raises(TypeError, match="named in its class statement"):
        class Bare(BaseState, game="bare"):
            """A game's state without a schema."""
