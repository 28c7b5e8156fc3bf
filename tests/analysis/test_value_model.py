"""The learned value model: read from plain JSON (errors name the field), fast answers in the shape of
evaluate's, the catalogue warning, the hybrid, and training from self-play (small, in the test)."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.bots import make_bot
from speicherstadt_lab.engine.errors import RecordError
from speicherstadt_lab.value import ValueModel, load_model, model_path
from speicherstadt_lab.value.train import train
from tests.support.positions import midgame  # a greedy game at round 6

COLUMNS = ["win_prob", "win_lo", "win_hi", "score_mean", "score_std"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_shipped_models_answer_like_evaluate(players: int) -> None:
    state = midgame(players)
    df = sl.evaluate(state, method="model")
    assert list(df.columns) == COLUMNS and list(df.index) == list(range(players))
    assert df["win_prob"].sum() == pytest.approx(1.0)
    assert ((df["win_lo"] <= df["win_prob"]) & (df["win_prob"] <= df["win_hi"])).all()
    assert (df["score_std"] > 0).all() and df.attrs["method"] == "model"
    assert model_path("speicherstadt", players).is_file()


def test_a_finished_game_is_certain() -> None:
    s = sl.new_game(players=3, seed=2)
    bot = make_bot("greedy", seed=3)
    while not s.is_over:
        s = s.apply(bot.choose(s.observe(s.to_move)))
    df = load_model(s).predict(s)
    winners = s.winners()
    assert df["win_prob"].tolist() == [1 / len(winners) if i in winners else 0.0 for i in range(3)]
    assert df["score_mean"].tolist() == [s.score(i) for i in range(3)] and df.attrs["interval"] == "exact"


def test_the_model_is_plain_json_and_every_field_is_checked(tmp_path: Path) -> None:
    path = model_path("speicherstadt", 3)
    data = json.loads(path.read_text())
    assert data["format"] == "speicherstadt-lab/value-model/1" and data["training"]["games"] > 0
    again = ValueModel.from_dict(json.loads(json.dumps(load_model(path=path).to_dict())))
    state = midgame()
    assert np.allclose(again.predict(state)["win_prob"], load_model(state).predict(state)["win_prob"])
    for field, value, named in [("win", {"coef": [1.0]}, "win.coef"), ("features", "score", "features"),
                                ("mean", [float("nan")] * len(data["features"]), "mean"),
                                ("format", "pickle", "format"), ("players", True, "players")]:
        bad = dict(data, **{field: value})
        with pytest.raises(RecordError, match=f"value model field '{named}"):
            ValueModel.from_dict(bad)
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(RecordError, match="not valid JSON"):
        load_model(path=broken)


def test_the_network_head_is_checked_and_turns_with_the_seats() -> None:
    data = json.loads(model_path("speicherstadt", 3).read_text())
    assert data["win"]["kind"] == "mlp"
    k = len(data["features"])
    first = data["win"]["layers"][0]
    short = dict(first, weights=first["weights"][:-1])
    tiny = {"weights": [[0.0]], "bias": [0.0]}
    for layers, named in [("dense", "win.layers"), ([short], "win.layers[0].weights"), ([first], "win.layers"),
                          ([first, tiny], "win.layers[1].weights")]:
        with pytest.raises(RecordError, match=re.escape(f"value model field '{named}")):
            ValueModel.from_dict(dict(data, win=dict(data["win"], layers=layers)))
    with pytest.raises(RecordError, match=r"win\.kind"):
        ValueModel.from_dict(dict(data, win=dict(data["win"], kind="forest")))
    model = ValueModel.from_dict(data)
    x = np.random.default_rng(3).normal(size=(3, k)) * model.scale + model.mean
    p = model.win_probs(x)
    assert p.sum() == pytest.approx(1.0) and np.allclose(model.win_probs(np.roll(x, 1, axis=0)), np.roll(p, 1))
    plain = ValueModel.from_dict(dict(data, win={"coef": data["win"]["coef"], "intercept": data["win"]["intercept"]}))
    assert not plain.layers and plain.win_probs(x).sum() == pytest.approx(1.0)


def test_the_quick_judgement_is_the_hybrid_of_analysis_quick() -> None:
    from speicherstadt_lab.analysis import QUICK

    state = midgame()
    df = sl.quick_evaluate(state, seed=2)
    assert list(df.columns) == COLUMNS and df.attrs["method"] == "hybrid"
    assert df.attrs["rollouts"] == QUICK["rollouts"] and df["win_prob"].sum() == pytest.approx(1.0)
    assert df.attrs["horizon"] == 1  # Die Speicherstadt's hybrid_horizon


def test_the_hybrid_plays_the_games_own_horizon_unless_told() -> None:
    """Packet Row's rounds are short: its hybrid (and so its quick judgement) plays 6 rounds before the model
    scores; an explicit horizon wins; a horizon that is not a whole number of rounds ≥ 1 is refused."""
    state = sl.new_game("packet_row", players=3, seed=5)
    quick = sl.quick_evaluate(state, seed=1)
    assert quick.attrs["horizon"] == 6 and quick["win_prob"].sum() == pytest.approx(1.0)
    assert quick.equals(sl.evaluate(state, method="hybrid", rollouts=12, bot="greedy", horizon=6, seed=1))
    one = sl.evaluate(state, method="hybrid", rollouts=12, bot="greedy", horizon=1, seed=1)
    assert one.attrs["horizon"] == 1 and not one["win_prob"].equals(quick["win_prob"])
    for bad in (0, -2, 2.0, True):
        with pytest.raises(ValueError, match="horizon"):
            sl.evaluate(state, method="hybrid", rollouts=2, bot="greedy", horizon=bad)


def test_another_catalogue_gets_a_warning(tmp_path: Path) -> None:
    cat = tmp_path / "cards.json"
    cat.write_text(json.dumps({"base": "default", "setup": {"coins": 6}}))
    state = sl.new_game(players=3, seed=1, catalog=str(cat))
    with pytest.warns(UserWarning, match="trained with the default cards"):
        load_model(state)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load_model(sl.new_game(players=3, seed=1))


def test_hybrid_rollouts_stop_early_and_ask_the_model() -> None:
    state = midgame()
    df = sl.evaluate(state, method="hybrid", rollouts=6, bot="greedy", horizon=1, seed=4)
    assert list(df.columns) == COLUMNS and df["win_prob"].sum() == pytest.approx(1.0)
    assert df.attrs["horizon"] == 1 and (df["score_std"] >= load_model(state).score_std - 1e-9).all()
    assert df.equals(sl.evaluate(state, method="hybrid", rollouts=6, bot="greedy", horizon=1, seed=4))
    with pytest.raises(ValueError, match="method must be one of"):
        sl.evaluate(state, method="oracle")


def test_a_rollout_reaching_the_last_round_plays_it_out() -> None:
    """Nothing is left to draw in the last round, so a hybrid rollout that reaches it plays it to the end instead
    of asking the model: from the round before the last, the hybrid is exactly full greedy rollouts (same seeds),
    with the rollouts' own score spread; a round earlier the model still scores the leaves."""
    from speicherstadt_lab.bots.mcts import playout, policy_of
    from speicherstadt_lab.engine.rng import Rng

    before_last = midgame(rounds=11)  # 3 players: 12 rounds
    assert not before_last.last_round
    policy = policy_of(make_bot("greedy", seed=2))
    cut = playout(midgame(rounds=10), policy, Rng(1), until_round=11)
    assert not cut.is_over and cut.round == 11
    assert playout(before_last, policy, Rng(1), until_round=12).is_over
    hybrid = sl.evaluate(before_last, method="hybrid", rollouts=6, bot="greedy", horizon=1, seed=4)
    full = sl.evaluate(before_last, method="rollouts", rollouts=6, bot="greedy", seed=4)
    assert hybrid[["win_prob", "score_mean", "score_std"]].equals(full[["win_prob", "score_mean", "score_std"]])
    earlier = midgame(rounds=10)
    assert not sl.evaluate(earlier, method="hybrid", rollouts=6, bot="greedy", horizon=1, seed=4)["win_prob"].equals(
        sl.evaluate(earlier, method="rollouts", rollouts=6, bot="greedy", seed=4)["win_prob"])


@pytest.mark.usefixtures("toy_game")
def test_a_game_without_features_says_so() -> None:
    with pytest.raises(ValueError, match="declares no features"):
        sl.evaluate(sl.new_game("toy_race", players=3, seed=1), method="model")


def test_training_writes_a_model_that_beats_chance_on_held_out_games(tmp_path: Path) -> None:
    out = tmp_path / "m.json"
    model = train("speicherstadt", 2, games=80, seed=9, calibrate_games=40, processes=1, progress=False, out=out)
    tr = model.training
    assert out.is_file() and tr["games"] == 80 and tr["positions"] > 80 * 10
    assert tr["held_out_brier"] < tr["uniform_brier"]  # it learned something from 80 games
    assert load_model(path=out).predict(midgame(2))["win_prob"].sum() == pytest.approx(1.0)


def test_packet_row_features_see_the_offer_but_no_secret() -> None:
    """Packet Row's features include what the open boards offer each seat (offer_best), and read only public
    facts: the full state and every seat's observation give the same numbers (a secret starting contract
    never counts)."""
    from speicherstadt_lab.bots import make_bot
    from speicherstadt_lab.games.packet_row.features import seat_features

    state = sl.new_game("packet_row", players=3, seed=5)
    bots = [make_bot("greedy", seed=i) for i in range(3)]
    offers = set()
    for _ in range(25):
        names, rows = seat_features(state)
        for viewer in (None, 0, 1, 2):
            assert seat_features(state.observe(viewer))[1] == rows
        k = names.index("offer_best")
        offers.update(round(r[k], 6) for r in rows)
        state = state.apply(bots[state.to_move].choose(state.observe(state.to_move)))
    assert len(offers) > 3  # it moves with the boards
