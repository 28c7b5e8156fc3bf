"""The live panel's first look (Packet Row): shown from fewer of the very same play-outs, with its own intervals,
then replaced by the full judgement, whose numbers are those of ``live_analysis`` with every play-out."""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest

from speicherstadt_lab.records import Node
from speicherstadt_lab.ui.app.live_panel import LIVE_FIRST, LIVE_ROLLOUTS, LivePanel, live_analysis, live_html
from speicherstadt_lab.ui.app.panel import Settings
from tests.support.games import greedy_record


@pytest.fixture(scope="module")
def node() -> Node:
    return greedy_record("packet_row", plies=12).mainline()[12]


def shown(node: Node, lang: str) -> list[str]:
    """Every value the panel's box takes while it analyses ``node`` (not threaded)."""
    panel = LivePanel("live")
    seen: list[str] = []
    panel.box.observe(lambda change: seen.append(change["new"]), "value")
    panel.show(node, Settings(lang=lang, threaded=False))
    panel.close()
    return seen


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_first_look_comes_first_with_its_wider_intervals_then_the_full_numbers(node: Node, lang: str) -> None:
    first, final = shown(node, lang)
    st = node.state
    assert f'data-first-ply="{node.ply}"' in first and "ssl-live-first" in first and "data-ply=" not in first
    win4, best4 = live_analysis(st, LIVE_FIRST)
    assert live_html(st, win4, best4, lang) in first  # the numbers of the first play-outs, their intervals with them
    assert (f"{LIVE_FIRST} play-outs" if lang == "en" else f"{LIVE_FIRST} Ausspielungen") in first
    win, best = live_analysis(st)
    assert final == f'<div class="ssl-live" data-ply="{node.ply}">{live_html(st, win, best, lang)}</div>'
    assert win.attrs["rollouts"] == LIVE_ROLLOUTS and win4.attrs["rollouts"] == LIVE_FIRST
    bands = [(float(lo), float(hi)) for lo, hi in re.findall(r"(\d+)%–(\d+)%", live_html(st, win4, best4, lang))]
    full = [(float(lo), float(hi)) for lo, hi in re.findall(r"(\d+)%–(\d+)%", live_html(st, win, best, lang))]
    assert sum(hi - lo for lo, hi in bands) > sum(hi - lo for lo, hi in full)  # fewer play-outs: wider intervals


def test_a_finished_game_and_the_base_game_show_no_first_look() -> None:
    rec = greedy_record("speicherstadt", plies=6)
    assert len(shown(rec.mainline()[6], "en")) == 1


def counting(monkeypatch: pytest.MonkeyPatch) -> dict[int, list[Any]]:
    """The states ``live_analysis`` is asked to judge from now on in the live panel, by play-outs a move."""
    import speicherstadt_lab.ui.app.live_panel as live_panel

    calls: dict[int, list[Any]] = {LIVE_FIRST: [], LIVE_ROLLOUTS: []}
    real = live_panel.live_analysis

    def counted(st: Any, rollouts: int = LIVE_ROLLOUTS, cancel: Any = None) -> Any:
        calls[rollouts].append(st)
        return real(st, rollouts, cancel)

    monkeypatch.setattr(live_panel, "live_analysis", counted)
    return calls


def test_a_step_to_a_position_worked_out_ahead_shows_its_first_look_without_computing_it(
        node: Node, monkeypatch: pytest.MonkeyPatch) -> None:
    """After the full judgement the thread works out the first look one move on; a step there shows exactly the first
    look it would compute, computing none (the full judgement alone runs in the thread)."""
    panel = LivePanel("live")
    panel.show(node, Settings(lang="en", threaded=False))  # the game judged once here: its first looks come inline
    panel.analyse(node, "en", threading.Event(), first=False, ahead=True)  # the thread's work, here
    action = str(node.state.legal_actions()[-1])  # the last one worked out (none of the best moves, if it has 4)
    child = node.play(action)
    calls = counting(monkeypatch)
    seen: list[str] = []
    panel.box.observe(lambda change: seen.append(change["new"]), "value")
    panel.show(child, Settings(lang="en", threaded=True))
    panel.close()
    # (the thread may have begun working out the next positions before close() cancelled it: those are not the child)
    assert all(st is not child.state for st in calls[LIVE_FIRST]) and calls[LIVE_ROLLOUTS] == [child.state]
    monkeypatch.undo()
    win4, best4 = live_analysis(child.state, LIVE_FIRST)
    assert seen[0] == shown(child, "en")[0] and live_html(child.state, win4, best4, "en") in seen[0]


def test_a_cancelled_analysis_skips_its_full_judgement_and_works_nothing_out_ahead(
        node: Node, monkeypatch: pytest.MonkeyPatch) -> None:
    panel = LivePanel("live")
    panel.show(node, Settings(lang="en", threaded=False))
    calls = counting(monkeypatch)
    cancel = threading.Event()
    cancel.set()  # a step came while the first look was computed
    panel.analyse(node, "en", cancel, ahead=True)
    assert calls == {LIVE_FIRST: [node.state], LIVE_ROLLOUTS: []}
