"""For a class, without a browser: moves as phrases in both languages, the rules of the game on the board (and each
card's rule), links that open what they name (a wrong setting named, nothing else lost), and the share link."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import speicherstadt_lab as sl
from speicherstadt_lab.bots import make_bot
from speicherstadt_lab.games.packet_row import explain as pr_explain
from speicherstadt_lab.games.speicherstadt import explain as ssl_explain
from speicherstadt_lab.ui.app.classroom import LinkProblem, parse_query
from speicherstadt_lab.ui.app.lab import LabApp
from speicherstadt_lab.ui.cards import card_kinds
from speicherstadt_lab.ui.rules import card_rule, rule_sections
from tests.support import games

# ---- moves as phrases --------------------------------------------------------------------------------


def test_every_kind_of_move_has_a_phrase() -> None:
    assert set(ssl_explain._PHRASES) == set(ssl_explain._EXPLAINERS)
    assert set(pr_explain._PHRASES) == set(pr_explain._EXPLAINERS)


def test_every_move_of_random_games_reads_as_a_phrase_in_both_languages(variant: tuple[str, str | None]) -> None:
    game, options = variant[0], games.options(variant[1])
    seen: set[str] = set()
    for seed in range(4):
        state = sl.new_game(game, players=2 + seed % 3, seed=seed, **options)
        rng = random.Random(seed)
        while not state.is_over:
            action = rng.choice(state.legal_actions())
            en, de = state.phrase_action(action, "en"), state.phrase_action(action, "de")
            assert en and de and en != str(action) and de != str(action) and "{" not in en + de, (action, en, de)
            seen.add(action.kind)
            state = state.apply(action)
    assert len(seen) >= 5


def test_a_phrase_names_the_card_and_its_price() -> None:
    state = sl.new_game(players=3, seed=1)
    card = state.offer[2]
    after = state.apply("place 2")
    assert after.phrase_action  # the state before a move phrases it
    en, de = state.phrase_action("place 2", "en"), state.phrase_action("place 2", "de")
    assert state.card_name(card, "en") in en and "1 coin" in en
    assert state.card_name(card, "de") in de and "1 Münze" in de
    s = state
    while s.phase != "purchase":
        s = s.apply(s.legal_actions()[0])
    buy = s.phrase_action("buy", "de")
    assert buy.startswith("Kauf: ") and "Münze" in buy
    with pytest.raises(ValueError):
        state.phrase_action("place 2", "fr")


def test_the_move_list_the_log_and_the_bots_reasons_show_phrases_with_the_notation_beside() -> None:
    app = LabApp(players=3, seed=1, threaded=False, chart_delay=0, lang="de")
    app.set_seat(0, "greedy")
    app.bot_move()
    node = app.node
    item = app.tree.tree["line"][-1]
    assert item["a"] == node.action and item["t"] == node.parent.state.phrase_action(node.action, "de")
    entry = app.board.model["log"][0]
    assert entry["action"] == node.action and entry["phrase"] == item["t"]
    assert f"diesen Zug wählte: {item['t']}" in app.explanation.value
    app.set_lang("en")  # the tree is sent again in the new language
    assert app.tree.tree["line"][-1]["t"] == node.parent.state.phrase_action(node.action, "en")
    app.close()


# ---- the rules of the game on the board ----------------------------------------------------------------


def test_the_rules_are_the_games_own_and_the_current_phase_comes_first() -> None:
    base = sl.new_game(players=3, seed=1)
    kai = sl.new_game(players=3, seed=1, expansion="kaispeicher")
    pr = sl.new_game("packet_row", players=3, seed=1)
    keys = [s["key"] for s in rule_sections(base)]
    assert keys[0] == "demand" and not any(k.startswith(("kai_", "pr_")) for k in keys)
    assert {"kai_demand", "kai_spy", "kai_fire"} <= {s["key"] for s in rule_sections(kai)}
    pr_keys = [s["key"] for s in rule_sections(pr, "de")]
    assert pr_keys[0] == "pr_choose" and all(k.startswith("pr_") for k in pr_keys)
    assert rule_sections(pr, "de")[0]["now"] and "Hafenmeister" in rule_sections(pr, "de")[0]["text"]
    with pytest.raises(ValueError):
        rule_sections(pr, "fr")


def test_every_card_kind_has_its_rule_in_both_languages(fresh_state: sl.GameState,
                                                        variant: tuple[str, str | None]) -> None:
    state = fresh_state
    for kind in {c.kind for c in state.cat.cards if getattr(c, "expansion", None) in (None, variant[1])}:
        en, de = card_rule(state, kind, "en"), card_rule(state, kind, "de")
        assert en.startswith("Rule – ") and de.startswith("Regel – "), kind


def test_the_card_list_of_the_base_game_leaves_the_expansions_cards_out() -> None:
    base = {k["kind"] for k in card_kinds(sl.new_game(players=3, seed=1))}
    kai = {k["kind"] for k in card_kinds(sl.new_game(players=3, seed=1, expansion="kaispeicher"))}
    assert "spy" not in base and "warehouse_workers" not in base and {"spy", "warehouse_workers"} <= kai


def test_the_rules_panel_follows_the_game_and_opens_from_the_top_bar() -> None:
    app = LabApp(players=3, seed=1, threaded=False, chart_delay=0)
    assert app.rules.layout.display == "none" and app.rules_button.description == "Rules"
    app.rules_button.value = True
    assert app.rules.layout.display == "" and app.rules.selected_index == 0
    app.new_game(game="packet_row")
    assert app.rules.get_title(0) == "Rules of Packet Row" and 'data-game="packet_row"' in app.rules.children[0].value
    app.rules.selected_index = None  # closed by its own header: the top bar's toggle follows
    assert not app.rules_button.value and app.rules.layout.display == "none"
    app.close()


# ---- links ---------------------------------------------------------------------------------------------


@pytest.fixture()
def app() -> Iterator[LabApp]:
    lab = LabApp(players=3, seed=1, threaded=False, chart_delay=0)
    yield lab
    lab.close()


def test_parse_query_names_unknown_and_repeated_settings_and_skips_voilas_own() -> None:
    got, problems = parse_query("?game=packet_row&foo=1&seed=2&seed=3&theme=dark")
    assert got == {"game": "packet_row"}
    assert [(p.param, p.key) for p in problems] == [("'foo'", "bad_unknown"), ("seed", "bad_twice")]
    assert problems[1].text("de") == "seed: mehr als einmal angegeben"


def test_a_link_opens_game_players_seed_language_and_projector(app: LabApp) -> None:
    assert app.open_query("game=packet_row&players=4&seed=9&lang=de&projector=on") == []
    assert (app.state.game, app.state.n_players, app.record.seed, app.lang_code) == ("packet_row", 4, 9, "de")
    assert app.projector_button.value and "ssl-projector" in app.widget._dom_classes
    assert app.link_note.layout.display == "none"
    assert app.share_query() == "lang=de&game=packet_row&players=4&seed=9&projector=1"


def test_wrong_settings_are_named_and_a_normal_game_opens(app: LabApp) -> None:
    problems = app.open_query("game=chess&players=9&seed=-1&lang=fr&projector=maybe&ply=3")
    named = {p.param: p.text("en") for p in problems}
    assert set(named) == {"game", "players", "seed", "lang", "projector", "ply"}
    # the registered games' variants (other tests may have registered toy games too: only the shipped ones named here)
    assert named["game"].startswith("game: 'chess' is not one of packet_row, speicherstadt, kaispeicher")
    assert named["players"] == "players: '9' is not a whole number from 2 to 5"
    assert app.state.game == "speicherstadt" and app.state.n_players == 3 and app.lang_code == "en"
    assert app.link_note.layout.display == "" and "game: &#x27;chess&#x27;" in app.link_note.value
    app.set_lang("de")  # the notice follows the language
    assert "ist nicht eines von" in app.link_note.value
    assert app.open_query("players=2") == [] and app.link_note.layout.display == "none"


def test_a_shipped_scenario_opens_by_name_and_shares_by_name(app: LabApp) -> None:
    assert app.open_query("scenario=tutorial-3-fire") == []
    assert app.share_query() == "lang=en&scenario=tutorial-3-fire"
    problems = app.open_query("scenario=../secret&lesson=x")  # only one opener (the lesson), and its name is wrong
    assert [(p.param, p.key) for p in problems] == [("scenario", "bad_several"), ("lesson", "bad_value")]


def test_a_lesson_opens_by_name(app: LabApp) -> None:
    from speicherstadt_lab.lessons import lesson_names

    name = lesson_names()[0]
    assert app.open_query(f"lesson={name}&lang=de") == []
    assert app.tutorial_button.value and f"lesson={app.panels.lessons.lesson.id}" in app.share_query()
    (bad,) = app.open_query("lesson=no-such-lesson")
    assert bad.param == "lesson" and "no-such-lesson" in bad.text("en")


def test_a_record_beside_the_notebook_opens_at_a_ply(app: LabApp, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    record = sl.record_game(sl.new_game(players=3, seed=2), [make_bot("random", seed=s) for s in range(3)])
    record.save(str(tmp_path / "day-2.json"))
    (tmp_path / "broken.json").write_text("{not json", encoding="utf-8")
    assert app.open_query("record=day-2.json&ply=12") == []
    assert app.node.ply == 12 and len(app.record.mainline()) == len(record.mainline())
    assert app.share_query() == f"lang=en&record={app._file()[0]}&ply=12"
    app.share_button.value = True
    assert "Save" in app.share_box.value and app._file()[0] in app.share_box.value
    for query, key in [("record=../day-2.json", "bad_file"), ("record=sub/day-2.json", "bad_file"),
                       ("record=day-2.pkl", "bad_file"), ("record=nope.json", "bad_missing"),
                       ("record=broken.json", "bad_record"), ("record=day-2.json&ply=99999", "bad_ply")]:
        problems = app.open_query(query)
        assert [p.key for p in problems] == [key], query
        assert isinstance(problems[0], LinkProblem) and problems[0].text("de")


def test_on_binder_the_share_box_gives_the_binder_link(app: LabApp, monkeypatch: pytest.MonkeyPatch) -> None:
    assert app.binder_link() is None
    monkeypatch.setenv("BINDER_LAUNCH_HOST", "https://mybinder.org/")
    monkeypatch.setenv("BINDER_PERSISTENT_REQUEST", "v2/gh/owner/repo/abc123")
    monkeypatch.setenv("SCRIPT_NAME", "/user/x-y/voila/render/notebooks/app.ipynb")
    monkeypatch.setenv("VOILA_REQUEST_URL", "https://hub.example/user/x-y/voila/render/notebooks/app.ipynb?lang=en")
    app.open_query("game=kaispeicher&seed=4")
    assert app.binder_link() == ("https://mybinder.org/v2/gh/owner/repo/abc123?urlpath=voila/render/notebooks/"
                                 "app.ipynb%3Flang%3Den%26game%3Dkaispeicher%26players%3D3%26seed%3D4")
    assert app.share_link() == ("https://hub.example/user/x-y/voila/render/notebooks/app.ipynb"
                                "?lang=en&game=kaispeicher&players=3&seed=4")
    app.share_button.value = True
    assert "ssl-binder-link" in app.share_box.value
