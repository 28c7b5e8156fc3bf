"""A level per game: MCTS's ``horizon="auto"`` takes the game's ``hybrid_horizon`` (1 round in Die Speicherstadt, 6
in Packet Row), a level may declare another spec for a game (Packet Row's level 6), ``level_spec`` writes out what a
level plays in a game, and bad settings are refused by name."""

from __future__ import annotations

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.bots import make_bot
from speicherstadt_lab.bots.levels import LEVELS, LevelBot, get_level, level_spec
from speicherstadt_lab.bots.mcts import MCTSBot, auto_horizon, check_horizon
from speicherstadt_lab.engine.protocol import get_game


def test_auto_horizon_is_the_games_hybrid_horizon() -> None:
    assert auto_horizon("speicherstadt") == get_game("speicherstadt").hybrid_horizon == 1
    assert auto_horizon("packet_row") == get_game("packet_row").hybrid_horizon == 6
    assert auto_horizon("no_such_game") == 1


@pytest.mark.parametrize(("spec", "game", "rounds"), [
    ("mcts", "speicherstadt", 1),
    ("mcts", "packet_row", 6),
    ("mcts:value=model", "packet_row", 6),
    ("mcts:rollout=random,value=model", "packet_row", 6),  # the model judges: cut where it judges well
    ("mcts:rollout=random", "packet_row", None),  # nothing judges a cut rollout: played to the end
    ("mcts:horizon=2", "packet_row", 2),
    ("mcts:horizon=0", "packet_row", None),
    ("mcts:horizon=0,value=model", "packet_row", 1),  # the model needs a cut: one round, as before
])
def test_the_rounds_a_rollout_plays(spec: str, game: str, rounds: int | None) -> None:
    bot = make_bot(spec)
    assert bot.horizon_for(game) == rounds
    if bot.value is None:
        assert bot._setup(game)[2] == rounds  # what the search uses


@pytest.mark.parametrize("bad", ["soon", 1.5, True, [3]])
def test_a_bad_horizon_is_refused_naming_the_field(bad: object) -> None:
    with pytest.raises(ValueError, match=r"^horizon: "):
        MCTSBot(horizon=bad)
    with pytest.raises(ValueError, match=r"^horizon: "):
        check_horizon(bad)


def test_check_horizon_keeps_auto_and_reads_zero_as_to_the_end() -> None:
    assert [check_horizon(h) for h in ("auto", None, 0, -2, 3, 4.0)] == ["auto", None, None, None, 3, 4]


def test_a_levels_spec_per_game_writes_out_a_horizon_other_than_one_round() -> None:
    for lv in LEVELS:
        assert level_spec(lv.number) == lv.spec == lv.spec_for(None)
        assert level_spec(lv.number, "speicherstadt") == lv.spec  # Die Speicherstadt's levels are as declared
        spec = level_spec(lv.number, "packet_row")
        if lv.spec_for("packet_row").startswith("mcts"):
            assert spec == f"{lv.spec_for('packet_row')},horizon=6"
        else:
            assert spec == lv.spec
    assert level_spec(6, "packet_row") == "mcts:iterations=300,horizon=6"  # its own spec there (Level.games)


def test_every_per_game_spec_names_a_registered_game_and_a_bot() -> None:
    for lv in LEVELS:
        for game, spec in lv.games:
            assert get_game(game).name == game and spec != lv.spec
            assert make_bot(spec).params()["bot"]


def _packet_row_position() -> sl.GameState:
    state = sl.new_game("packet_row", players=3, seed=4)
    greedy = make_bot("greedy", seed=0)
    for _ in range(5):
        state = state.apply(greedy.choose(state.observe(state.to_move)))
    return state


def test_a_levels_spec_per_game_plays_as_the_level_does() -> None:
    obs = _packet_row_position()
    obs = obs.observe(obs.to_move)
    for n in (4, 5, 6):
        written = make_bot(level_spec(n, "packet_row"), seed=7)
        assert written.horizon == 6
        assert written.choose(obs) == make_bot(f"level:{n}", seed=7).choose(obs)
        assert written.last_stats.equals(make_bot(f"level:{n}", seed=7).explain(obs))  # the same search


def test_a_level_with_a_spec_per_game_plays_each_games_bot() -> None:
    bot = make_bot("level:6", seed=3)
    assert isinstance(bot, LevelBot)
    declared = make_bot(get_level(6).spec, seed=3)
    assert bot.name == "mcts" and bot.params() == declared.params()  # before any position: the declared bot
    state = _packet_row_position()
    obs = state.observe(state.to_move)
    action = bot.choose(obs)
    assert action in state.legal_actions()
    assert bot.params() == make_bot("mcts:iterations=300", seed=3).params()  # what records store: its settings
    assert bot.last_stats.attrs["iterations"] == 300 and bot.horizon_for("packet_row") == 6
    assert bot.explain(obs).equals(bot.last_stats)
    assert not hasattr(bot, "act")  # no rollout fast path the bot playing lacks
    assert not isinstance(make_bot("level:3"), LevelBot)  # a level without per-game specs is its bot itself


@pytest.mark.parametrize(("number", "game", "field"), [(7, "packet_row", "level"), ("x", None, "level"),
                                                       (4, "chess", "game")])
def test_a_levels_spec_refuses_bad_input_naming_the_field(number: object, game: str | None, field: str) -> None:
    with pytest.raises(ValueError, match=rf"^{field}: "):
        level_spec(number, game)
