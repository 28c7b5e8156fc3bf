"""The 95% intervals of the value model and the quick judgement: widths fitted from held-out errors (the
reference's own noise taken out), stored in the model file (every field checked), used by ``predict`` and by
``evaluate`` only for the setting they were measured for, measured end to end on a tiny scale."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.engine.errors import RecordError
from speicherstadt_lab.heldout import held_out_positions, measure_intervals
from speicherstadt_lab.value import ValueModel, load_model, model_path
from speicherstadt_lab.value.intervals import Intervals, fit_widths, spread
from tests.support.positions import midgame  # a greedy game at round 6, shared with the model tests

SHIPPED = [("speicherstadt", p, e) for p in (2, 3, 4, 5) for e in (None, "kaispeicher")] + [
    ("packet_row", p, None) for p in (2, 3, 4, 5)]


def test_widths_are_the_95_percent_quantile_of_the_scaled_error() -> None:
    """Errors drawn as N(0, σ·spread(p)) give q ≈ 1.96 σ per round; a noisy reference (its variance known) is
    taken out again."""
    rng = np.random.default_rng(7)
    n = 6000
    rounds = np.repeat([1, 2], n // 2)
    sigma = np.where(rounds == 1, 0.2, 0.6)
    p = rng.uniform(0.05, 0.95, n)
    truth = p + rng.normal(0, 1, n) * sigma * spread(p)
    starts, q = fit_widths(p, truth, np.zeros(n), rounds)
    assert starts == (1, 2)
    assert q[0] == pytest.approx(1.96 * 0.2, rel=0.06) and q[1] == pytest.approx(1.96 * 0.6, rel=0.06)
    tau = 0.08
    noisy = truth + rng.normal(0, tau, n)
    _, q_noisy = fit_widths(p, noisy, np.full(n, tau**2), rounds)
    _, q_raw = fit_widths(p, noisy, np.zeros(n), rounds)
    assert q_raw[0] > 1.15 * q[0]  # the reference's noise widens round 1's interval a lot...
    assert q_noisy[0] == pytest.approx(q[0], rel=0.08)  # ...and is taken out again


def test_thin_rounds_are_pooled_with_their_neighbours() -> None:
    rounds = np.array([1] * 200 + [2] * 50 + [3] * 100 + [4] * 30)
    p = np.full(len(rounds), 0.5)
    starts, q = fit_widths(p, p + 0.01, np.zeros(len(rounds)), rounds)
    assert starts == (1, 2)  # round 2 (50) took round 3 with it; round 4 (30) joined the group before
    assert len(q) == 2


def test_bounds_follow_the_round_and_stay_within_zero_and_one() -> None:
    iv = Intervals((3, 8), (0.5, 2.0), {}, 10)
    lo, hi = iv.bounds([0.0, 0.5, 1.0], 1)  # before the first bucket: the first
    assert lo.tolist() == [0.0, pytest.approx(0.5 - 0.5 * spread(0.5)), pytest.approx(1 - 0.05)]
    assert hi[0] == pytest.approx(0.05) and hi[2] == 1.0
    lo, hi = iv.bounds([0.5], 30)  # after the last: the last
    assert (lo[0], hi[0]) == (0.0, 1.0)


def test_every_field_of_the_intervals_is_checked() -> None:
    data = json.loads(model_path("speicherstadt", 3).read_text())
    good = data["intervals"]["quick"]
    k = len(good["rounds"])
    for field, value, named in [("rounds", [3, 2], "rounds"), ("rounds", [], "rounds"), ("q", [1.0], "q"),
                                ("q", ["x"] * k, "q"), ("q", [-1.0] * k, "q"), ("settings", [], "settings"),
                                ("positions", -1, "positions")]:
        bad = dict(data, intervals=dict(data["intervals"], quick=dict(good, **{field: value})))
        with pytest.raises(RecordError, match=f"value model field 'intervals.quick.{named}'"):
            ValueModel.from_dict(bad)
    for bad_block in ([], {"oracle": good}):
        with pytest.raises(RecordError, match="value model field 'intervals'"):
            ValueModel.from_dict(dict(data, intervals=bad_block))


@pytest.mark.parametrize(("game", "players", "expansion"), SHIPPED)
def test_every_shipped_model_has_measured_intervals(game: str, players: int, expansion: str | None) -> None:
    model = load_model(path=model_path(game, players, expansion))
    assert set(model.intervals) == {"model", "quick"}
    assert model.intervals["quick"].settings["rollouts"] == 12 and model.intervals["quick"].positions >= 60
    setup = model.training["intervals"]
    assert setup["reference_rollouts"] >= 100 and setup["games"] >= 60


def test_predict_and_the_quick_judgement_use_the_measured_intervals() -> None:
    state = midgame()
    model = load_model(state)
    df = sl.evaluate(state, method="model")
    assert df.attrs["interval"] == "measured"
    lo, hi = model.intervals["model"].bounds(df["win_prob"].to_numpy(), state.round)
    assert np.allclose(df["win_lo"], lo) and np.allclose(df["win_hi"], hi)
    quick = sl.quick_evaluate(state, seed=3)
    assert quick.attrs["interval"] == "measured"
    lo, hi = model.intervals["quick"].bounds(quick["win_prob"].to_numpy(), state.round)
    assert np.allclose(quick["win_lo"], lo) and np.allclose(quick["win_hi"], hi)
    # another setting, or the oracle, is not what was measured: the rollouts' own (Wilson) interval
    other = sl.evaluate(state, method="hybrid", rollouts=6, bot="greedy", seed=3)
    oracle = sl.quick_evaluate(state, seed=3, mode="oracle")
    assert other.attrs["interval"] == "sampling" and oracle.attrs["interval"] == "sampling"
    assert sl.evaluate(state, rollouts=20, bot="greedy").attrs["interval"] == "sampling"


def test_a_file_without_intervals_falls_back_to_the_calibration_bins(tmp_path: Path) -> None:
    data = json.loads(model_path("speicherstadt", 3).read_text())
    del data["intervals"]
    model = ValueModel.from_dict(data)
    assert model.intervals == {} and "intervals" not in model.to_dict()
    state = midgame()
    df = model.predict(state)
    assert df.attrs["interval"] == "calibration bins"
    lo, hi = model.bin_bounds(df["win_prob"].to_numpy())
    assert np.allclose(df["win_lo"], lo) and np.allclose(df["win_hi"], hi)
    assert sl.quick_evaluate(state, seed=1, model=model).attrs["interval"] == "sampling"


def test_intervals_survive_the_round_trip() -> None:
    model = load_model(path=model_path("speicherstadt", 3))
    again = ValueModel.from_dict(json.loads(json.dumps(model.to_dict())))
    assert again.intervals == model.intervals


def test_held_out_positions_take_one_decision_of_every_round() -> None:
    picks = held_out_positions("speicherstadt", 3, seed=1, index=0)
    assert [p.round for p in picks] == list(range(1, 13))
    assert picks == held_out_positions("speicherstadt", 3, seed=1, index=0)  # seeded
    assert {p.phase for p in picks} - {"demand"}  # not only round starts


def test_measuring_on_a_tiny_scale_records_what_it_did() -> None:
    model = load_model(path=model_path("speicherstadt", 5))
    with pytest.warns(UserWarning, match="more reference play-outs"):  # 4 play-outs: mostly noise, and it says so
        out = measure_intervals(model, games=2, reference=4, seed=3, processes=1, progress=False)
    setup = out.training["intervals"]
    assert (setup["games"], setup["reference_rollouts"], setup["positions"]) == (2, 4, 16)  # 5 players: 8 rounds
    assert out.intervals["quick"].settings == {"rollouts": 12, "bot": "greedy", "horizon": 1}
    assert out.intervals["model"].positions == 16
    assert min(out.intervals["model"].q) > 0  # the model is never exact before the end: no band collapses to 0
    with pytest.raises(ValueError, match="reference"):
        measure_intervals(model, games=2, reference=1, progress=False)


def test_noise_that_explains_every_error_keeps_the_raw_width_and_warns() -> None:
    """A reference so noisy that its variance exceeds the errors seen must not shrink the band to 0."""
    rng = np.random.default_rng(3)
    p = np.full(300, 0.4)
    truth = p + rng.normal(0, 0.05, 300)
    noise = np.full(300, 0.05**2 * 4)  # claims four times the variance actually seen
    with pytest.warns(UserWarning, match="rounds 1–1"):
        _, q = fit_widths(p, truth, noise, np.ones(300))
    raw = np.quantile(np.abs(p - truth) / spread(p), 0.95)
    assert q[0] == pytest.approx(raw, abs=1e-4) and q[0] > 0
    _, exact = fit_widths(p, p, noise, np.ones(300))  # errors of exactly 0: the one band of width 0
    assert exact == (0.0,)


def test_a_model_measured_for_other_cards_says_so_and_is_not_measured_again(tmp_path: Path) -> None:
    cards = tmp_path / "fire.toml"
    cards.write_text('base = "default"\n[[cards]]\nid = "fire_1"\nstrength = 7\n', encoding="utf-8")
    other = sl.new_game(players=3, seed=5, catalog=cards)
    model = load_model(path=model_path("speicherstadt", 3))
    assert not model.cards_match(other) and model.cards_match(midgame())
    assert model.predict(other).attrs["interval"] == "measured for other cards"
    with pytest.raises(ValueError, match="catalogue"):
        measure_intervals(model, games=1, reference=20, options={"catalog": str(cards)}, progress=False)


def test_a_model_file_is_written_whole_or_not_at_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from speicherstadt_lab.value import train as train_module

    path = tmp_path / "m.json"
    path.write_text(model_path("speicherstadt", 3).read_text())
    before = path.read_text()
    model = load_model(path=path)

    def broken(_model: ValueModel) -> str:
        raise OSError("disk full")

    monkeypatch.setattr(train_module, "model_json", broken)
    with pytest.raises(OSError, match="disk full"):
        train_module.write_model(model, path)
    assert path.read_text() == before and [p.name for p in tmp_path.iterdir()] == ["m.json"]
    monkeypatch.undo()
    train_module.write_model(ValueModel(**{**model.__dict__, "intervals": {}}), path)
    assert load_model(path=path).intervals == {} and [p.name for p in tmp_path.iterdir()] == ["m.json"]
