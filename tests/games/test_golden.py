"""Golden playthroughs: seeded bot games stored in ``tests/golden/`` (made by ``tests/support/make_golden.py``).

Each is replayed from ``sl.new_game(players, seed)``: every stored action must be legal when it comes,
and the game must end after the stored number of rounds with the stored scores, breakdowns, coins and
winners. A failure means the rules changed; if that was deliberate, regenerate the files.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import speicherstadt_lab as sl
from tests.support.paths import GOLDEN, REPO, TESTS

FILES = sorted(p for p in GOLDEN.glob("*.json") if not p.name.startswith("packet_row_"))
PACKET_ROW_FILES = sorted(GOLDEN.glob("packet_row_*.json"))


def _load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def test_golden_files_cover_every_player_count() -> None:
    counts = sorted(_load(p)["players"] for p in FILES if "expansion" not in _load(p))
    assert counts == [2, 3, 4, 5], f"golden files for {counts} players in {GOLDEN}"


def test_kaispeicher_golden_files_cover_every_player_count() -> None:
    kai = [_load(p) for p in FILES if p.name.startswith("kaispeicher_")]
    assert all(r["expansion"] == "kaispeicher" for r in kai)
    assert sorted(r["players"] for r in kai) == [2, 3, 4, 5], f"Kaispeicher golden files in {GOLDEN}"
    assert {r["players"]: r["rounds"] for r in kai} == {2: 16, 3: 12, 4: 10, 5: 8}


def _replay(path: Path, rec: dict[str, Any], s: Any, purse: str) -> None:
    """Play the stored actions from ``s`` (each legal when it comes), then compare the stored outcome; ``purse`` is
    the seats' money in the state and the file (``coins``, ``money``)."""
    n = rec["players"]
    for i, text in enumerate(rec["actions"]):
        assert not s.is_over, f"{path.name}: the game ended before action {i} ({text!r})"
        legal = [str(a) for a in s.legal_actions()]
        assert text in legal, f"{path.name}: action {i} {text!r} is not legal in round {s.round} {s.phase}; {legal}"
        s = s.apply(text)
        assert s.last_action == text
    assert s.is_over, f"{path.name}: not over after {len(rec['actions'])} actions (round {s.round} {s.phase})"
    assert len(rec["actions"]) == rec["decisions"]
    assert s.round == rec["rounds"]
    assert list(s.scores()) == rec["scores"]
    assert [s.score_breakdown(i) for i in range(n)] == rec["breakdowns"]
    assert list(getattr(s, purse)) == rec[purse]
    assert s.winners() == rec["winners"]


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_replay(path: Path) -> None:
    rec = _load(path)
    assert rec["format"] == "speicherstadt-lab/golden/1"
    _replay(path, rec, sl.new_game(players=rec["players"], seed=rec["seed"], expansion=rec.get("expansion")), "coins")


def _run(args: list[str], hashseed: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONHASHSEED"}
    if hashseed is not None:
        env["PYTHONHASHSEED"] = hashseed
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, cwd=REPO,
                          timeout=300)


def test_make_golden_reproduces_the_files() -> None:
    """The files are what the script makes (not hand-edited results)."""
    out = _run([str(TESTS / "support" / "make_golden.py"), "--check"], None)
    assert out.returncode == 0, out.stdout + out.stderr


_BOT_SCRIPT = """
import speicherstadt_lab as sl
from speicherstadt_lab.bots import RandomBot
s = sl.new_game(players=3, seed=11)
bots = [RandomBot(seed=seat) for seat in range(3)]
out = []
for _ in range(60):
    a = bots[s.to_move].choose(s.observe(s.to_move))
    out.append(str(a))
    s = s.apply(a)
print(" | ".join(out))
"""


def test_random_bot_is_reproducible_across_processes() -> None:
    """A seeded RandomBot must choose the same in every process (golden files and records depend on it)."""
    first = _run(["-c", _BOT_SCRIPT], "1")
    second = _run(["-c", _BOT_SCRIPT], "2")
    assert first.returncode == 0 and second.returncode == 0, first.stderr + second.stderr
    assert first.stdout == second.stdout, (
        "RandomBot(seed) chose differently under PYTHONHASHSEED=1 and =2 (position_key uses the salted "
        f"built-in hash):\n{first.stdout[:300]}\n{second.stdout[:300]}"
    )


# ---- Packet Row -------------------------------------------------------------------------------------------------


def test_packet_row_golden_files_cover_every_player_count() -> None:
    records = [_load(p) for p in PACKET_ROW_FILES]
    assert all(r["game"] == "packet_row" for r in records)
    assert sorted(r["players"] for r in records) == [2, 3, 4, 5], f"Packet Row golden files in {GOLDEN}"


@pytest.mark.parametrize("path", PACKET_ROW_FILES, ids=[p.stem for p in PACKET_ROW_FILES])
def test_packet_row_golden_replay(path: Path) -> None:
    rec = _load(path)
    assert rec["format"] == "speicherstadt-lab/golden/1" and rec["game"] == "packet_row"
    _replay(path, rec, sl.new_game("packet_row", players=rec["players"], seed=rec["seed"]), "money")
