"""The PettingZoo adapter, judged by PettingZoo's own ``api_test`` and ``seed_test`` for every game and player count."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from speicherstadt_lab.interop.pettingzoo import env
from tests.support.games import VARIANTS

PLAYERS = [2, 3, 4, 5]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize(("game", "expansion"), VARIANTS)
def test_api_and_seed(game: str, expansion: str | None, players: int) -> None:
    api_test(env(game, players, expansion), num_cycles=1000)
    seed_test(lambda: env(game, players, expansion), num_cycles=500)


def test_a_whole_game_ends_with_shared_rewards() -> None:
    e = env("speicherstadt", 3, render_mode="ansi")
    e.reset(seed=3)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert obs["observation"].dtype == np.float32 and mask.sum() >= 2
        e.step(int(np.flatnonzero(mask)[0]))
    assert sum(totals.values()) == pytest.approx(1.0)
    winners = {f"player_{i}" for i in e.state.winners()}
    assert {a for a, r in totals.items() if r > 0} == winners
    assert "winners:" in e.render()


def test_same_seed_same_game_and_text_of_actions() -> None:
    a, b = env("packet_row", 4), env("packet_row", 4)
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.state.to_json() == b.state.to_json()
    obs = a.observe(a.agent_selection)
    texts = {a.action_text(i) for i in np.flatnonzero(obs["action_mask"])}
    assert texts == {str(x) for x in a.state.legal_actions()}
