"""Example clicks of the board (the message the browser sends, and the notation it stands for) that more than one
test file checks: the Kaispeicher expansion's kinds, which the base board's tests count too."""

from __future__ import annotations

from typing import Any

from speicherstadt_lab.ui.clicks import act_message

KAISPEICHER_CLICKS: list[tuple[dict[str, Any], str]] = [
    ({"kind": "act", "verb": "reserve", "args": {"space": 3}}, "reserve 3"),
    ({"kind": "act", "verb": "break", "args": {}}, "break"),
    ({"kind": "act", "verb": "stop", "args": {}}, "stop"),
    (act_message("spy", {"space": 0, "level": 1, "space_other": 2, "level_other": 0}), "spy 0 1 2 0"),
    ({"kind": "act", "verb": "double", "args": {}}, "double"),
    ({"kind": "act", "verb": "insure", "args": {}}, "insure"),
    ({"kind": "act", "verb": "buyfree", "args": {}}, "buy free"),
    ({"kind": "act", "verb": "deliver", "args": {"good": "coffee"}}, "deliver coffee"),
    ({"kind": "act", "verb": "auction", "args": {"good": "hemp"}}, "auction hemp"),
    ({"kind": "act", "verb": "smuggle", "args": {"seat": 2, "index": 1, "good": "glass"}}, "smuggle 2 1 glass"),
    ({"kind": "act", "verb": "truck", "args": {"good": "cloth", "from": 0, "to": 2}}, "truck cloth 0 2"),
    ({"kind": "act", "verb": "reserve", "args": {"space": 1.0}}, "reserve 1"),
]
