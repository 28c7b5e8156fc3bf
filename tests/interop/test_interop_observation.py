"""The observation tensor's layout is each game's declared capability ``observation`` (``games/<game>/observation.py``,
built from ``engine/observation.py``), read by ``interop/encoding.py`` with no table of games. Its tensors are pinned:
every position of the golden games (``golden/*.json``, replayed), encoded for every seat, hashes to the digest
recorded when the layouts moved out of ``interop`` (issue 24); a change of layout or of a game's ``view`` changes it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.engine import protocol
from speicherstadt_lab.engine.observation import Field, counts, num, onehot, padded, record
from speicherstadt_lab.engine.protocol import GameInfo, get_game
from speicherstadt_lab.interop.encoding import observation_encoder

TESTS = Path(__file__).resolve().parents[1]
GOLDEN = min(p for p in TESTS.rglob("golden") if p.is_dir())

#: md5 of the float32 tensors of every seat in every position of the variant's four golden games (2-5 players),
#: with each encoder's size. Recorded with the layouts of ``interop/encoding.py`` before they moved.
DIGESTS = {
    "speicherstadt": ("0173e7fa2b180ab62f24dd82fd1f45a9", {2: 3854, 3: 5168, 4: 6482, 5: 7796}),
    "kaispeicher": ("f7624862761a5a0f874b5dacda40029c", {2: 5354, 3: 6676, 4: 7998, 5: 9320}),
    "packet_row": ("be4e03d91c6ae76405b69264babe947a", {2: 3876, 3: 4081, 4: 4286, 5: 4491}),
}


def _digest(variant: str) -> tuple[str, dict[int, int]]:
    h = hashlib.md5()
    sizes = {}
    for path in sorted(GOLDEN.glob(f"{variant}_*.json")):
        rec = json.loads(path.read_text(encoding="utf-8"))
        game, expansion = rec.get("game", "speicherstadt"), rec.get("expansion")
        kw = {"expansion": expansion} if expansion else {}
        n = rec["players"]
        state = sl.new_game(game, players=n, seed=rec["seed"], **kw)
        enc = observation_encoder(game, n, expansion)
        sizes[n] = enc.size
        for text in [*rec["actions"], None]:
            for seat in range(n):
                h.update(enc.encode(state, seat).tobytes())
            if text is not None:
                state = state.apply(text)
    return h.hexdigest(), sizes


@pytest.mark.parametrize("variant", sorted(DIGESTS))
def test_the_tensors_of_the_golden_games_are_pinned(variant: str) -> None:
    assert _digest(variant) == DIGESTS[variant]


@pytest.mark.parametrize("game", ["speicherstadt", "packet_row"])
def test_each_game_declares_its_layout(game: str) -> None:
    layout = get_game(game).capability("observation")
    assert callable(layout)
    assert observation_encoder(game, 3).size == layout(sl.new_game(game, players=3, seed=0)).width


def test_a_game_without_a_layout_is_refused_naming_the_capability(monkeypatch: pytest.MonkeyPatch) -> None:
    info = get_game("speicherstadt")
    bare = GameInfo(name="no_layout_test", title="No Layout", min_players=2, max_players=5, phases=info.phases,
                    parameters={}, module=info.module)
    monkeypatch.setitem(protocol._GAMES, bare.name, bare)  # registered for this test only
    with pytest.raises(ValueError, match="capability 'observation'"):
        observation_encoder("no_layout_test", 3)


def test_the_layout_vocabulary_fills_its_cells() -> None:
    layout = record("view", [("n", num("n")), ("c", onehot("c", ["a", "b"])),
                             ("xs", padded("xs", 2, counts("x", [1, 2])))])
    assert isinstance(layout, Field) and layout.width == 1 + 3 + 4
    out = np.zeros(layout.width, dtype=np.float32)
    layout.encode({"n": 4, "c": "z", "xs": [[1, 1], [2], [1]]}, out)
    assert out.tolist() == [4, 0, 0, 1, 2, 0, 0, 1]
