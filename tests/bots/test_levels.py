"""Opponent levels: ``make_bot("level:N")`` plays every variant, a bad level names its field, the ladder files hold
their format field by field and rise with the level, and a tiny ladder run writes a well-formed table."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.bots import bot_names, make_bot
from speicherstadt_lab.bots.levels import (
    LEVELS,
    LadderError,
    check_ladder,
    get_level,
    level_label,
    level_names,
    level_options,
    level_spec,
    load_ladder,
)
from speicherstadt_lab.engine.i18n import LANGS
from tests.support.benchmarks import load_benchmark

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = [("speicherstadt", None), ("speicherstadt", "kaispeicher"), ("packet_row", None)]
SHIPPED = sorted((ROOT / "speicherstadt_lab" / "data" / "ladder").glob("*.json"))


def _position(game: str, expansion: str | None):
    """A position a few decisions into a 3-player game (not only the first decision)."""
    state = sl.new_game(game, players=3, seed=11, **({"expansion": expansion} if expansion else {}))
    bot = make_bot("greedy", seed=0)
    for _ in range(7):
        state = state.apply(bot.choose(state.observe(state.to_move)))
    return state


@pytest.mark.parametrize(("game", "expansion"), VARIANTS, ids=["base", "kaispeicher", "packet_row"])
def test_every_level_plays_a_legal_move_in_every_variant(game: str, expansion: str | None) -> None:
    state = _position(game, expansion)
    before = state.to_json()
    for spec in level_names():
        action = make_bot(spec, seed=5).choose(state.observe(state.to_move))
        assert action in state.legal_actions(), (spec, str(action))
    assert state.to_json() == before  # choosing changes nothing


def test_a_level_is_its_declared_bot() -> None:
    assert [lv.number for lv in LEVELS] == list(range(1, len(LEVELS) + 1))
    assert 5 <= len(LEVELS) <= 8
    for lv in LEVELS:
        assert make_bot(f"level:{lv.number}", seed=3).params() == make_bot(lv.spec, seed=3).params()
    assert make_bot("level:1", seed=3).params()["epsilon"] == 0.6
    assert make_bot("LEVEL: 6", seed=0).params()["value"] == "model"
    assert "level" in bot_names()


@pytest.mark.parametrize("spec", ["level:0", "level:7", "level:-1", "level:x", "level:1.5", "level", "level:level=9"])
def test_an_unknown_level_is_refused_naming_the_field(spec: str) -> None:
    with pytest.raises(ValueError, match=r"^level: ") as err:
        make_bot(spec)
    assert "1 to 6" in str(err.value)


def test_a_level_takes_no_other_settings() -> None:
    with pytest.raises(ValueError, match=r"level: a level takes no other parameters \(got iterations\)"):
        make_bot("level:5,iterations=3")
    with pytest.raises(ValueError, match="key=value"):
        make_bot("mcts:5")  # only a level may be written by its value alone


def test_every_level_has_a_name_and_a_line_in_both_languages() -> None:
    for lv in LEVELS:
        for lang in LANGS:
            assert lv.name(lang) and lv.description(lang).endswith(".")
            for game, _ in lv.games:  # a level playing another spec in a game says so there
                assert lv.description(lang, game).endswith(".") and lv.description(lang, game) != lv.description(lang)
            assert lv.description(lang, "speicherstadt") == lv.description(lang)
    assert level_label(3, "de") == f"Stufe 3 · {get_level(3).name('de')}"
    options = level_options("en")
    assert [spec for _, spec, _ in options] == level_names()


# -- the ladder files --------------------------------------------------------------------------------------------------

def test_the_shipped_ladders_fit_the_levels() -> None:
    assert SHIPPED, "no ladder file shipped"
    for path in SHIPPED:
        data = check_ladder(json.loads(path.read_text(encoding="utf-8")))
        assert path.stem == (data["game"] if not data["expansion"] else f"{data['game']}+{data['expansion']}")
        for row in data["levels"]:  # the spec the level plays in that game (a search level's horizon written out)
            assert row["spec"] == level_spec(row["level"], data["game"]), \
                f"{path.name}: level {row['level']} was changed since"
    assert load_ladder("speicherstadt") is not None


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_the_measured_ratings_rise_with_the_level(path: Path) -> None:
    data = check_ladder(json.loads(path.read_text(encoding="utf-8")))
    rows = sorted(data["levels"], key=lambda r: r["level"])
    ratings = [r["rating"] for r in rows]
    assert ratings == sorted(ratings), f"{path.name}: levels not in order of measured strength: {ratings}"
    ref = data["reference"]
    assert ref["win_rate_lo"] <= 0.5 <= ref["win_rate_hi"], "the reference (a level against itself) is off 50%"


def test_a_level_label_shows_its_rating_with_its_interval() -> None:
    data = load_ladder("speicherstadt")
    row = next(r for r in data["levels"] if r["level"] == 3)
    en, de = level_label(3, "en", "speicherstadt"), level_label(3, "de", "speicherstadt")
    assert f"{round(row['rating'])} rating points, 95% interval {round(row['rating_lo'])}–" in en
    assert f"{round(row['rating'])} Wertungspunkte, 95-%-Intervall" in de


def _good() -> dict:
    return {
        "format": "speicherstadt-lab ladder", "version": 1, "game": "speicherstadt", "expansion": None,
        "players": 3, "measured": "2026-11-27", "games_per_pairing": 6, "seed": 0, "bootstrap": 50, "anchor": 1000.0,
        "rating_scale": "Elo", "win_rate_meaning": "share of comparisons",
        "levels": [{"level": 1, "spec": "greedy:epsilon=0.5", "rating": 1000.0, "rating_lo": 1000.0,
                    "rating_hi": 1000.0, "ms_per_decision": 0.1},
                   {"level": 2, "spec": "greedy:epsilon=0.15", "rating": 1200.0, "rating_lo": 1100.0,
                    "rating_hi": 1300.0, "ms_per_decision": 0.1}],
        "pairings": [{"a": 2, "b": 1, "games": 6, "win_rate": 0.7, "win_rate_lo": 0.4, "win_rate_hi": 0.9}],
        "reference": {"a": 2, "b": 2, "games": 6, "win_rate": 0.5, "win_rate_lo": 0.2, "win_rate_hi": 0.8},
    }


BROKEN = [
    ("format", lambda d: d.update(format="other"), "format"),
    ("version", lambda d: d.update(version=2), "version"),
    ("game", lambda d: d.update(game=3), "game"),
    ("expansion", lambda d: d.update(expansion=1), "expansion"),
    ("players", lambda d: d.update(players=2.5), "players"),
    ("games", lambda d: d.update(games_per_pairing=-1), "games_per_pairing"),
    ("anchor", lambda d: d.update(anchor="x"), "anchor"),
    ("levels", lambda d: d.update(levels=[]), "levels"),
    ("level number", lambda d: d["levels"][1].update(level=9), "levels[1].level"),
    ("level twice", lambda d: d["levels"][1].update(level=1), "levels"),
    ("spec", lambda d: d["levels"][0].update(spec=None), "levels[0].spec"),
    ("rating", lambda d: d["levels"][1].update(rating=float("nan")), "levels[1].rating"),
    ("rating interval", lambda d: d["levels"][1].update(rating_lo=1250.0), "levels[1].rating_lo"),
    ("timing", lambda d: d["levels"][0].update(ms_per_decision=-1), "levels[0].ms_per_decision"),
    ("pairing level", lambda d: d["pairings"][0].update(b=4), "pairings[0].b"),
    ("win rate", lambda d: d["pairings"][0].update(win_rate=1.5), "pairings[0].win_rate"),
    ("win rate bool", lambda d: d["pairings"][0].update(games=True), "pairings[0].games"),
    ("reference", lambda d: d["reference"].update(b=1), "reference.b"),
    ("no reference", lambda d: d.pop("reference"), "reference"),
]


def test_the_format_check_accepts_a_good_file() -> None:
    assert check_ladder(_good())["levels"][1]["rating"] == 1200.0


@pytest.mark.parametrize(("what", "spoil", "field"), BROKEN, ids=[b[0] for b in BROKEN])
def test_the_format_check_names_the_field_at_fault(what: str, spoil, field: str) -> None:
    data = _good()
    spoil(data)
    kept = copy.deepcopy(data)
    with pytest.raises(LadderError) as err:
        check_ladder(data)
    assert err.value.field == field
    assert f"field {field}:" in str(err.value)
    assert data == kept  # the check changes nothing


# -- the benchmark, tiny -----------------------------------------------------------------------------------------------

def _ladder_module():
    return load_benchmark("ladder")


def test_seats_rotate_and_the_lineup_alternates() -> None:
    ladder = _ladder_module()
    assert [ladder.seating(5, 2, 0, r, 3) for r in range(3)] == [[5, 2, 2], [2, 5, 2], [2, 2, 5]]
    assert [ladder.seating(5, 2, 1, r, 3) for r in range(3)] == [[2, 5, 5], [5, 2, 5], [5, 5, 2]]
    jobs = ladder.jobs_for("speicherstadt", [1, 2, 3], 2, 4, 3, 0)
    assert [(j["a"], j["b"]) for j in jobs[:4]] == [(2, 1), (3, 1), (3, 2), (2, 2)]  # every pairing, then the next
    assert {j["deal"] for j in jobs if j["a"] == 3 and j["b"] == 1} == {0, 1}
    # Each game carries the spec a level plays in that game: Packet Row's search looks 6 rounds ahead.
    assert {(j["spec_a"], j["spec_b"]) for j in jobs} == {(get_level(a).spec, get_level(b).spec)
                                                          for a, b in [(2, 1), (3, 1), (3, 2), (2, 2)]}
    row = ladder.jobs_for("packet_row", [3, 4], 3, 1, 3, 0)[0]
    assert (row["a"], row["b"], row["spec_b"]) == (4, 3, get_level(3).spec)
    assert row["spec_a"] == level_spec(4, "packet_row") == f"{get_level(4).spec_for('packet_row')},horizon=6"


def test_a_kept_game_counts_for_a_renumbered_level_that_plays_the_same_spec(tmp_path: Path) -> None:
    """A game is fixed by its deal, seats and specs: results kept for levels 3 vs 2 serve level 5 vs 2 when level 5
    plays level 3's spec (a level inserted below), relabelled, timing included, without playing again."""
    ladder = _ladder_module()
    results = tmp_path / "games.jsonl"
    first = ladder.run(ladder.jobs_for("speicherstadt", [2, 3], 2, 3, 3, 0), 1, results)
    jobs = ladder.jobs_for("speicherstadt", [2, 5], 2, 3, 3, 0, specs={5: get_level(3).spec})
    again = ladder.run(jobs, 1, results, played_only=True)
    assert len(again) == len(first) == len(jobs) == 6
    for old, new in zip(first, again, strict=True):
        assert (new["a"], new["b"]) == ((5, 2) if old["a"] == 3 else (2, 2))
        assert (new["won"], new["compared"], new["deal"]) == (old["won"], old["compared"], old["deal"])
        assert set(new["timing"]) == {str(new["a"]), str(new["b"])}
    assert len(results.read_text().splitlines()) == 6  # nothing played twice


def test_a_tiny_ladder_run_writes_a_well_formed_table(tmp_path: Path, capsys) -> None:
    ladder = _ladder_module()
    out, results = tmp_path / "ladder.json", tmp_path / "games.jsonl"
    argv = ["--games", "2", "--levels", "1,2,3", "--bootstrap", "10", "--out", str(out), "--results", str(results)]
    pairs, table = ladder.main(argv)
    printed = capsys.readouterr().out
    assert "L3 vs L1" in printed and "(reference)" in printed and "rating_lo" in printed
    assert list(pairs["pairing"]) == ["L2 vs L1", "L3 vs L1", "L3 vs L2", "L2 vs L2 (reference)"]
    assert (pairs["games"] == 2).all()
    assert ((pairs["win_rate_lo"] <= pairs["win_rate"]) & (pairs["win_rate"] <= pairs["win_rate_hi"])).all()
    assert list(table["level"]) == [1, 2, 3] and table["rating"].iloc[0] == 1000.0
    assert ((table["rating_lo"] <= table["rating"]) & (table["rating"] <= table["rating_hi"])).all()
    assert (table["ms_per_decision"] > 0).all() and table["time_vs_reference"].iloc[1] == 1.0
    data = check_ladder(json.loads(out.read_text(encoding="utf-8")))
    assert data["games_per_pairing"] == 2 and len(data["pairings"]) == 3 and data["reference"]["a"] == 2
    assert len(results.read_text(encoding="utf-8").splitlines()) == 8
    # A second run with the same arguments plays nothing again and gives the same table.
    again, _ = ladder.main(argv)
    assert again.equals(pairs)
    assert len(results.read_text(encoding="utf-8").splitlines()) == 8


def test_a_screen_plays_a_candidate_spec_and_keeps_its_games_apart(tmp_path: Path, capsys) -> None:
    """``--spec N=SPEC`` plays level N as another bot in this run (a candidate definition), its games keyed by that
    spec; a bad item is refused naming ``--spec``, and a screen is never written as the shipped ladder."""
    ladder = _ladder_module()
    assert ladder.parse_specs(["3=greedy:epsilon=0.9"], [2, 3]) == {3: "greedy:epsilon=0.9"}
    for item, says in (("3", "not N=SPEC"), ("9=greedy", "not a level"), ("1=greedy", "not played in this run"),
                       ("3=nobot", "not a bot spec")):
        with pytest.raises(ValueError, match=f"--spec: .*{says}"):
            ladder.parse_specs([item], [2, 3])
    jobs = ladder.jobs_for("speicherstadt", [2, 3], 2, 3, 3, 0, specs={3: "greedy:epsilon=0.9"})
    assert {(j["spec_a"], j["spec_b"]) for j in jobs if j["a"] == 3} == {("greedy:epsilon=0.9", get_level(2).spec)}
    results = tmp_path / "games.jsonl"
    base = ["--games", "3", "--levels", "2,3", "--bootstrap", "5", "--results", str(results)]
    ladder.main(base)
    _, table = ladder.main([*base, "--spec", "3=greedy:epsilon=0.9"])
    rows = [json.loads(line) for line in results.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 9  # 3 games of the declared level 3, 3 of the candidate, 3 of the reference (shared)
    assert table.set_index("level").loc[3, "spec"] == "greedy:epsilon=0.9"
    assert {r["spec_a"] for r in rows if r["a"] == 3} == {get_level(3).spec, "greedy:epsilon=0.9"}
    capsys.readouterr()
    with pytest.raises(SystemExit):
        ladder.main([*base, "--spec", "3=greedy:epsilon=0.9", "--write"])
    assert "cannot be written as the shipped ladder" in capsys.readouterr().err
