"""The app starts without pandas and numpy (speicherstadt_lab/lazyimport.py): importing the app imports neither, and a
lazy module imports its module once, on the first name read, whichever thread reads it first. Nor does it import a
game other than the default before it is asked for (engine.protocol.register_later): not on import, not when the app
is made in a kernel, not while the page draws its first board; the first live analysis waits for the page too.
Die Speicherstadt's scenario reader, explanations and notebook table wait for their first use as well."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from speicherstadt_lab.lazyimport import LazyModule
from tests.support.paths import REPO

CHECK = ("import sys; import {module}; "
         "print(sorted(m for m in ('pandas', 'numpy', 'plotly') if m in sys.modules))")


@pytest.mark.parametrize("module", ["speicherstadt_lab", "speicherstadt_lab.ui.app"])
def test_importing_the_app_imports_no_pandas_numpy_or_plotly(module: str) -> None:
    out = subprocess.run([sys.executable, "-c", CHECK.format(module=module)], capture_output=True, text=True,
                         cwd=REPO, check=True).stdout.strip()
    assert out == "[]", f"importing {module} imported {out}: a module-level `import pandas` crept back in " \
                        "(use `from .lazyimport import pandas as pd`)"


LATER = ("import sys; {code}; "
         "print(sorted(m for m in ('pandas', 'numpy', 'speicherstadt_lab.games.packet_row') if m in sys.modules))")


@pytest.mark.parametrize("code", ["import speicherstadt_lab", "import speicherstadt_lab.ui.app",
                                  "from speicherstadt_lab.ui.app import LabApp; app = LabApp(players=3, seed=1)"])
def test_the_app_starts_without_the_other_games_and_the_first_live_analysis(code: str) -> None:
    """In a kernel (``threaded``, the default) the app's first cell imports neither Packet Row's modules nor what the
    first live analysis needs (numpy, pandas): both wait for the page to have drawn."""
    out = subprocess.run([sys.executable, "-c", LATER.format(code=code)], capture_output=True, text=True,
                         cwd=REPO, check=True).stdout.strip().splitlines()[-1]
    assert out == "[]", f"{code!r} imported {out} before the first board"


#: modules the first board does not need, imported where they are first used: the progress bar (by a review run from
#: Python), the puzzles with their lessons and the line view (by the Tutorial page, made on first use)
ON_FIRST_USE = ("tqdm", "speicherstadt_lab.puzzles", "speicherstadt_lab.puzzle_lessons",
                "speicherstadt_lab.ui.app.puzzle_line")
FIRST_USE = ("import sys; from speicherstadt_lab.ui.app import LabApp; app = LabApp(players=3, seed=1); "
             "watch = {watch!r}; before = sorted(m for m in watch if m in sys.modules); {use}; "
             "print(before, sorted(m for m in watch if m in sys.modules)); app.close()")


@pytest.mark.parametrize(("use", "imported"), [
    ("app.tutorial_button.value = True", ["speicherstadt_lab.puzzle_lessons", "speicherstadt_lab.puzzles",
                                          "speicherstadt_lab.ui.app.puzzle_line"]),
    ("from speicherstadt_lab.reviewing import _run_jobs; _run_jobs([], 1, progress=True)", ["tqdm"]),
])
def test_the_app_starts_without_the_puzzles_and_the_progress_bar(use: str, imported: list[str]) -> None:
    """Making the app imports none of :data:`ON_FIRST_USE`; opening the Tutorial page imports the puzzles, a review's
    jobs the progress bar."""
    code = FIRST_USE.format(watch=ON_FIRST_USE, use=use)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                         check=True).stdout.strip().splitlines()[-1]
    assert out == f"[] {imported}", f"made the app, then {use!r}: imported {out} (before, after)"


def test_a_game_registered_for_later_is_imported_when_first_asked_for() -> None:
    code = ("import sys; import speicherstadt_lab as sl; from speicherstadt_lab.engine.protocol import game_names; "
            "mod = 'speicherstadt_lab.games.packet_row'; before = mod in sys.modules; "
            "state = sl.load_state(sl.new_game('packet_row', players=2, seed=3).to_json()); "
            "print(before, mod in sys.modules, state.game, game_names())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                         check=True).stdout.strip().splitlines()[-1]
    assert out == "False True packet_row ['packet_row', 'speicherstadt']"


def test_the_chooser_offers_every_game_once_the_page_has_drawn() -> None:
    """Until a page says it drew the chart (below the board), the chooser offers the games imported so far; then all."""
    code = ("import sys; from speicherstadt_lab.ui.app import LabApp; app = LabApp(players=3, seed=1); "
            "before = [v for _, v in app.game.options]; app.chart.handle_message({'kind': 'shown'}); "
            "after = [v for _, v in app.game.options]; "
            "print(before, after, 'speicherstadt_lab.games.packet_row' in sys.modules, app.game.value); app.close()")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                         check=True).stdout.strip().splitlines()[-1]
    # the games shown keep their places, the others follow (tests/ui/test_game_chooser.py)
    assert out == "['speicherstadt', 'kaispeicher'] ['speicherstadt', 'kaispeicher', 'packet_row'] True speicherstadt"


@pytest.fixture
def fresh_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Path]]:
    """A module nobody has imported, which writes a line to a log each time it is executed."""
    log = tmp_path / "imports.log"
    (tmp_path / "ssl_lazy_probe.py").write_text(
        f"from pathlib import Path\nwith Path({str(log)!r}).open('a') as f:\n    f.write('imported\\n')\n"
        "VALUE = object()\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "ssl_lazy_probe", raising=False)
    yield "ssl_lazy_probe", log
    sys.modules.pop("ssl_lazy_probe", None)


def test_a_lazy_module_imports_on_the_first_name_read(fresh_module: tuple[str, Path]) -> None:
    name, log = fresh_module
    lazy = LazyModule(name)
    assert not log.exists() and name not in sys.modules
    assert "not imported yet" in repr(lazy)
    value = lazy.VALUE
    assert value is sys.modules[name].VALUE and lazy.VALUE is value
    assert log.read_text().splitlines() == ["imported"]
    assert "(imported)" in repr(lazy)
    with pytest.raises(AttributeError):
        _ = lazy.NO_SUCH_NAME


def test_threads_reading_first_at_once_import_it_once(fresh_module: tuple[str, Path]) -> None:
    name, log = fresh_module
    lazy = LazyModule(name)
    start = threading.Barrier(8)
    got: list[object] = []

    def read() -> None:
        start.wait()
        got.append(lazy.VALUE)

    threads = [threading.Thread(target=read) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 8 and all(v is sys.modules[name].VALUE for v in got)
    assert log.read_text().splitlines() == ["imported"]


SCENARIO_MODULE = "speicherstadt_lab.games.speicherstadt.scenario"
SCENARIOS = ("import sys; import speicherstadt_lab as sl; from speicherstadt_lab.ui.app import LabApp; "
             "from speicherstadt_lab.scenarios import shipped_scenario; "
             "app = LabApp(players=3, seed=1); sl.new_game(players=4, seed=5); mod = {mod!r}; "
             "before = mod in sys.modules; data = shipped_scenario('example-coffee-or-fire'); "
             "state = sl.new_game(scenario=data, seed=2); after = mod in sys.modules; "
             "from speicherstadt_lab.games.speicherstadt.scenario import build; "
             "print(before, after, state.to_json() == build(data, seed=2)[0].to_json()); app.close()")


def test_a_new_game_and_the_app_wait_not_for_the_scenario_reader() -> None:
    """Die Speicherstadt's scenario module (reading a described position) is imported by the first game started from
    a scenario, not by importing the lab, making the app or a new game; that game is the position described."""
    out = subprocess.run([sys.executable, "-c", SCENARIOS.format(mod=SCENARIO_MODULE)], capture_output=True,
                         text=True, cwd=REPO, check=True).stdout.strip().splitlines()[-1]
    assert out == "False True True", f"(imported before a scenario, after, the same position): {out}"


PLUGIN_MODULES = ("speicherstadt_lab.games.speicherstadt.explain", "speicherstadt_lab.games.speicherstadt.render")
PLUGINS = ("import sys, threading; import speicherstadt_lab as sl; watch = {watch!r}; "
           "state = sl.new_game(players=3, seed=1).apply('place 2'); "
           "before = [m for m in watch if m in sys.modules]; got = []; "
           "threads = [threading.Thread(target=lambda: got.append(state.explain_action('place 0', 'de'))) "
           "for _ in range(4)]; [t.start() for t in threads]; [t.join() for t in threads]; "
           "from speicherstadt_lab.games.speicherstadt import explain, render; "
           "same = (set(got) == {{explain.explain_action(state, 'place 0', 'de')}} "
           "and state.phrase_action('place 0') == explain.phrase_action(state, 'place 0', 'en') "
           "and state._repr_html_() == render.state_html(state)); "
           "print(before, [m for m in watch if m in sys.modules], same)")


def test_the_explanations_and_the_notebook_table_are_imported_when_first_asked_for() -> None:
    """Importing the lab and playing Die Speicherstadt imports neither its explanations nor its notebook table
    (``State.plugins_later``); the first ``explain_action`` (from four threads at once) imports both, and every
    capability then answers as the modules' own functions do."""
    out = subprocess.run([sys.executable, "-c", PLUGINS.format(watch=PLUGIN_MODULES)], capture_output=True,
                         text=True, cwd=REPO, check=True).stdout.strip().splitlines()[-1]
    assert out == f"[] {list(PLUGIN_MODULES)} True", f"(imported before, after, the same texts): {out}"
