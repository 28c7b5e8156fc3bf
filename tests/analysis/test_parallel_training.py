"""Training a value model and measuring its intervals give the same numbers in this process, on a local process
pool and on a ``dask.distributed`` cluster (``speicherstadt_lab.parallel``; each game has its own seeds, the parts
come back in order), through the API and the command line's ``--scheduler``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from speicherstadt_lab.cli import main
from speicherstadt_lab.heldout import measure_intervals
from speicherstadt_lab.parallel import executor_size, run_parts
from speicherstadt_lab.value.model import ValueModel, model_path
from speicherstadt_lab.value.train import train

pytest.importorskip("sklearn")
# random self-play: the fastest games (what is checked is where they run, not how well the model judges)
TINY = {"game": "speicherstadt", "players": 3, "games": 8, "seed": 5, "calibrate_games": 4, "bot": "random",
        "head": "logistic", "progress": False, "write": False}


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """A local dask.distributed cluster of two worker processes (one thread each), as a cluster of machines would
    run the parts: every part pickled to another process."""
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
        distributed.Client(cluster) as c,
    ):
        yield c


@pytest.fixture(scope="module")
def serial_model() -> ValueModel:
    return train(**TINY, processes=1)


def _numbers(model: ValueModel) -> dict[str, Any]:
    """The model's file contents without the seconds it took (the only figure that depends on the machine)."""
    d = model.to_dict()
    d["training"] = {k: v for k, v in d["training"].items() if k != "seconds"}
    if "intervals" in d["training"]:
        d["training"]["intervals"] = {k: v for k, v in d["training"]["intervals"].items() if k != "seconds"}
    return d


def test_training_on_dask_gives_the_serial_model(serial_model: ValueModel, client: Any) -> None:
    assert _numbers(train(**TINY, executor=client)) == _numbers(serial_model)


def test_intervals_on_dask_are_the_serial_ones(serial_model: ValueModel, client: Any) -> None:
    with pytest.warns(RuntimeWarning):  # two play-outs a position: some play the same game, and evaluate says so
        serial = measure_intervals(serial_model, games=1, reference=2, seed=3, processes=1, progress=False)
        on_dask = measure_intervals(serial_model, games=1, reference=2, seed=3, executor=client.get_executor(),
                                    progress=False)
    assert _numbers(on_dask) == _numbers(serial)
    assert serial.intervals["model"].positions > 0


def test_parts_come_back_in_order_wherever_they_ran(client: Any) -> None:
    parts = list(range(7))
    for executor in (client, client.get_executor(), 2, "serial", None):
        assert run_parts(abs, [-p for p in parts], executor, progress=False) == parts
    assert executor_size(client) == 2 and executor_size("serial") == 1 and executor_size(3) == 3


@pytest.mark.parametrize("executor", ["threads", 0, 2.5, object()])
def test_a_bad_executor_is_named_before_any_game_is_played(executor: Any) -> None:
    with pytest.raises(ValueError, match="executor"):
        train(**TINY, executor=executor)


def test_the_command_line_measures_on_a_scheduler(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                  client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--scheduler ADDRESS`` hands measure_intervals a Client of that cluster (what it then does is the API's,
    checked above), and closes it."""
    import speicherstadt_lab.heldout as heldout

    seen: list[Any] = []

    def measured(model: ValueModel, **kw: Any) -> ValueModel:
        seen.append((kw["executor"], kw["executor"].scheduler.address))
        assert executor_size(kw["executor"]) == 2  # the cluster's two workers answer through it
        return model

    monkeypatch.setattr(heldout, "measure_intervals", measured)
    path = tmp_path / "m.json"
    path.write_text(model_path("speicherstadt", 5).read_text())
    address = client.scheduler.address
    assert main(["intervals", "--players", "5", "--model", str(path), "--scheduler", address, "--no-progress"]) == 0
    assert len(seen) == 1 and seen[0][1] == address and seen[0][0].status == "closed"
    capsys.readouterr()


def test_the_scheduler_and_processes_do_not_go_together(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["train", "--players", "3", "--games", "10", "--scheduler", "tcp://127.0.0.1:1", "--processes", "2"])
    err = capsys.readouterr().err
    assert code == 2 and "--scheduler" in err and "--processes" in err and "Traceback" not in err
