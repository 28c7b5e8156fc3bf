"""Helpers of both games' scenario tests: change one field of a scenario's data, check that a wrong scenario names its
field, changes nothing and is refused as a record too, and positions of random games to describe."""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.records import GameRecord
from speicherstadt_lab.scenarios import shipped_scenario

Change = Callable[[dict[str, Any]], Any]


def set_field(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A change that sets the field at ``path`` ("seats.1.hand": keys and list indices by dots) to ``value``."""
    def change(d: dict[str, Any]) -> None:
        *head, last = path.split(".")
        where: Any = d
        for key in head:
            where = where[int(key)] if key.isdigit() else where.setdefault(key, {})
        if last.isdigit():
            where[int(last)] = value
        else:
            where[last] = value
    return change


def common_errors(game_words: str) -> list[tuple[Change, str, str]]:
    """The first rows of a game's table of wrong scenarios: the fields every game's scenario has (change, field, words
    of the refusal); ``game_words`` is what the refusal of another game's name says."""
    return [
        (set_field("format", "speicherstadt-lab/scenario/9"), "format", "must be"),
        (set_field("game", "chess"), "game", game_words),
        (set_field("players", 6), "players", "2 to 5"),
        (set_field("colour", 1), "colour", "unknown field"),
        (set_field("round", 0), "round", "1 or more"),
    ]


def refused(start: Callable[[Any], Any], data: dict[str, Any], field: str, words: str) -> None:
    """``start(data)`` raises a ScenarioError naming ``field`` with ``words`` in its detail and leaves ``data`` as it
    was; ``GameRecord.from_scenario`` refuses it as a RecordError (one except for every file a user opens)."""
    before = copy.deepcopy(data)
    with pytest.raises(sl.ScenarioError) as info:
        start(data)
    err = info.value
    assert err.field == field, str(err)
    assert str(err).startswith(f"scenario field '{field}': ") and words in err.detail, str(err)
    assert data == before
    with pytest.raises(sl.RecordError):
        GameRecord.from_scenario(data)


def random_positions(players: int, seed: int, expansion: str | None = None, every: int = 7,
                     game: str = "speicherstadt") -> list[Any]:
    """Every ``every``-th position of a random game of ``game`` (and its end), reproducible for a seed."""
    options = {"expansion": expansion} if expansion is not None else {}
    s = sl.new_game(game, players=players, seed=seed, **options)
    rng = random.Random(seed)
    out = []
    for k in range(10_000):
        if k % every == 0 or s.is_over:
            out.append(s)
        if s.is_over:
            return out
        s = s.apply(rng.choice(s.legal_actions()))
    raise AssertionError("the game did not end")


def record_tampered_refused(name: str, cases: list[tuple[Change, str]]) -> None:
    """A record of the shipped scenario ``name`` changed by each of ``cases``, or by a change of the player count every
    game's set-up has, is refused naming its field (:func:`tampered_refused`)."""
    good = json.loads(GameRecord.from_scenario(shipped_scenario(name)).to_json())
    players = [(lambda d: d["setup"]["scenario"].update(players=9), "setup.scenario.players"),
               (lambda d: d["setup"].update(players=3), "setup")]
    tampered_refused(good, [*players, *cases])


def tampered_refused(good: dict[str, Any], cases: list[tuple[Change, str]]) -> None:
    """Each change of a record file's data ``good`` is refused with a RecordError naming its field (``setup.<...>``)."""
    for change, field in cases:
        data = copy.deepcopy(good)
        change(data)
        with pytest.raises(sl.RecordError, match=re.escape(f"record field '{field}")):
            GameRecord.from_json(json.dumps(data))
