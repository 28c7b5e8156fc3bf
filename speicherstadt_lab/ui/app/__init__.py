"""The analysis app, a room of small modules: ``lab`` (the LabApp, the coordinator), ``panel`` (what a panel object
is: ``show(node, settings)``, events, ``close``) and ``panel_host`` (the coordinator's side of the panels: live
analysis, What if…, rules, scenario, lessons, seats, one module each), ``texts`` (EN/DE texts from
``data/messages/app.toml``), ``widgets`` (move tree, save and load buttons; their JS and CSS in ``widgets/``),
``jobs`` (background work).

``from speicherstadt_lab.ui.app import LabApp`` keeps working.
"""

from __future__ import annotations

from .jobs import Job
from .lab import MAX_SEATS, SEAT_KINDS, LabApp, game_variants, variant_of
from .texts import TEXTS, text
from .widgets import Loader, Saver, TreeView

__all__ = ["MAX_SEATS", "SEAT_KINDS", "TEXTS", "Job", "LabApp", "Loader", "Saver", "TreeView", "game_variants",
           "text", "variant_of"]
