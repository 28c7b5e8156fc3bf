"""The OpenSpiel adapter, judged by OpenSpiel's own ``random_sim_test``, and the shared encoding: every legal action
has a catalogue id that maps back to the same text, and a seat's observation never changes with what it cannot see.
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.interop import openspiel as adapter
from speicherstadt_lab.interop.encoding import action_catalogue, observation_encoder
from tests.support.games import VARIANTS

SHORT = {
    "speicherstadt": "python_speicherstadt", "kaispeicher": "python_kaispeicher", "packet_row": "python_packet_row",
}
PLAYERS = [2, 3, 4, 5]


def start(game: str, expansion: str | None, players: int, seed: int):
    kw = {"expansion": expansion} if expansion else {}
    return sl.new_game(game, players=players, seed=seed, **kw)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("short", list(SHORT.values()))
def test_random_sim_test(short: str, players: int) -> None:
    game = pyspiel.load_game(short, {"players": players})
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_declared_game_type() -> None:
    game = pyspiel.load_game("python_kaispeicher", {"players": 3})
    t = game.get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert game.num_distinct_actions() == action_catalogue("speicherstadt", 3, "kaispeicher").size


def test_actions_are_notation_and_serialization_round_trips() -> None:
    game = pyspiel.load_game("python_speicherstadt", {"players": 3})
    state = game.new_initial_state()
    assert state.is_chance_node()
    state.apply_action(7)
    assert state.state.to_json() == start("speicherstadt", None, 3, 7).to_json()
    texts = [state.action_to_string(state.current_player(), a) for a in state.legal_actions()]
    assert sorted(texts) == sorted(str(a) for a in state.state.legal_actions())
    state.apply_action(state.string_to_action(texts[0]))
    again = game.deserialize_state(state.serialize())
    assert again.serialize() == state.serialize()
    assert again.information_state_string(1) == state.information_state_string(1)


@pytest.mark.parametrize(("game", "expansion"), VARIANTS)
def test_catalogue_round_trip(game: str, expansion: str | None) -> None:
    """Every legal action met in random games has an id, and the id gives back the same text."""
    for players in PLAYERS:
        cat = action_catalogue(game, players, expansion)
        for seed in range(3):
            state = start(game, expansion, players, seed)
            rng = random.Random(seed)
            while not state.is_over:
                actions = state.legal_actions()
                ids = [cat.id_of(state, a) for a in actions]
                assert len(set(ids)) == len(ids)
                assert [cat.text_of(state, i) for i in ids] == [str(a) for a in actions]
                assert sorted(ids) == cat.legal_ids(state)
                state = state.apply(rng.choice(actions))


def _resampled(state, seat: int, k: int):
    """``state`` with what ``seat`` cannot see resampled: Packet Row's secrets of other seats via ``observe``."""
    if state.game == "packet_row":
        return state.observe(seat).determinize(k)
    return state.determinize(k)


@pytest.mark.parametrize(("game", "expansion"), VARIANTS)
def test_observation_does_not_leak(game: str, expansion: str | None) -> None:
    """A seat's tensor and information-state string are the same across resamplings of what it cannot see."""
    players = 3
    enc = observation_encoder(game, players, expansion)
    short = SHORT[expansion or game]
    spiel_game = pyspiel.load_game(short, {"players": players})
    state = start(game, expansion, players, 11)
    rng = random.Random(11)
    steps = 0
    while not state.is_over:
        if steps % 15 == 0:
            for seat in range(players):
                base = enc.encode(state, seat)
                assert base.shape == (enc.size,) and base.dtype == np.float32
                text = adapter.Observer(spiel_game, True).string_from(adapter.SpielState(spiel_game, state), seat)
                for k in range(3):
                    other = _resampled(state, seat, k)
                    assert np.array_equal(enc.encode(other, seat), base)
                    wrapped = adapter.SpielState(spiel_game, other)
                    assert adapter.Observer(spiel_game, True).string_from(wrapped, seat) == text
        state = state.apply(rng.choice(state.legal_actions()))
        steps += 1


def test_observation_differs_between_seats_with_secrets() -> None:
    """Packet Row's starting contracts are secret: seat 0's tensor shows its own, not seat 1's."""
    state = start("packet_row", None, 3, 5)
    enc = observation_encoder("packet_row", 3, None)
    assert not np.array_equal(enc.encode(state, 0), enc.encode(state, 1))


def test_utility_shares_the_win() -> None:
    state = start("speicherstadt", None, 3, 2)
    rng = random.Random(2)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_actions()))
    returns = adapter.utility(state)
    assert sum(returns) == pytest.approx(1.0)
    assert {i for i, r in enumerate(returns) if r > 0} == set(state.winners())


def test_without_the_extra_the_adapters_say_what_to_install() -> None:
    """With OpenSpiel, PettingZoo and Gymnasium unimportable, the lab imports and the adapters name the extra."""
    import subprocess
    import sys

    code = """
import importlib, importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in ("pyspiel", "open_spiel", "pettingzoo", "gymnasium"):
            raise ImportError(name)
sys.meta_path.insert(0, Block())
import speicherstadt_lab, speicherstadt_lab.interop.encoding
for m in ("openspiel", "pettingzoo"):
    try:
        importlib.import_module("speicherstadt_lab.interop." + m)
    except ImportError as e:
        print(e)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.count("pip install 'speicherstadt-lab[rl]'") == 2


def test_each_variant_has_its_openspiel_name_and_an_unknown_one_is_refused() -> None:
    from speicherstadt_lab.engine.protocol import game_variants, variant_start

    names = {key: adapter.openspiel_name(*variant_start(key)) for key in ("speicherstadt", "kaispeicher", "packet_row")}
    assert names == {"speicherstadt": "python_speicherstadt", "kaispeicher": "python_kaispeicher",
                     "packet_row": "python_packet_row"}
    assert all(adapter.GAMES[short][0] == variant_start(key)[0] for key, short in names.items())
    assert set(names) <= set(game_variants())
    with pytest.raises(ValueError, match=r"^game: 'chess'"):
        adapter.openspiel_name("chess")
