"""Helpers of the app's tests, with and without a browser: a bot that waits for its gate, the tree view's items,
a finished game in the app, and a round start whose season still hides a fire."""

from __future__ import annotations

import threading
from typing import Any

import speicherstadt_lab as sl
from speicherstadt_lab.bots import make_bot
from speicherstadt_lab.ui.app import LabApp


class GatedBot:
    """A bot that thinks until the test opens its gate: jobs stay running exactly as long as a test needs."""

    name = "gated"

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.thinking = threading.Event()

    def params(self) -> dict[str, Any]:
        """The bot's parameters as a record stores them."""
        return {"bot": "gated"}

    def choose(self, state: Any) -> Any:
        """The first legal action, once the test has opened the gate (fails after 60 s of a closed gate)."""
        self.thinking.set()
        assert self.gate.wait(60), "the test never opened the gate"
        return state.legal_actions()[0]


def tree_items(app: LabApp) -> list[dict[str, Any]]:
    """Every item of the tree view's data, depth first."""
    out: list[dict[str, Any]] = []

    def walk(line: list[dict[str, Any]]) -> None:
        for item in line:
            out.append(item)
            for var in item.get("v", []):
                walk(var)

    walk(app.tree.tree["line"])
    return out


def finished_app(seed: int = 4, seats: str = "human") -> tuple[LabApp, sl.GameRecord]:
    """An unthreaded app with a finished three-player greedy game (seed ``seed``) loaded, and its record."""
    record = sl.record_game(sl.new_game(players=3, seed=seed), [make_bot("greedy", seed=i) for i in range(3)])
    app = LabApp(players=3, seed=seed, seats=[seats] * 3, threaded=False, chart_delay=0)
    assert app.load_json(record.to_json())
    return app, app.record


def round_start_with_a_fire(record: sl.GameRecord) -> tuple[sl.Node, str]:
    """The last round start whose current season still holds a fire below the top card, and that fire."""
    found = None
    for node in record.mainline():
        if node.parent is None or node.state.round == node.parent.state.round:
            continue
        pile = node.state.hidden_parts()["pile"]
        if not pile:
            continue
        fires = [c for k, (c, se) in enumerate(pile)
                 if k > 0 and se == pile[0][1] and node.state.cat.by_id[c].kind == "fire"]
        if fires:
            found = (node, fires[0])
    assert found is not None
    return found
