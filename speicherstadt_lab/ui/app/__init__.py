"""The analysis app, a room of small modules: ``lab`` (the LabApp that composes them), ``texts`` (EN/DE texts
from ``data/messages/app.toml``), ``widgets`` (move tree, save and load buttons; their JS and CSS in
``widgets/``), ``jobs`` (background work).

``from speicherstadt_lab.ui.app import LabApp`` keeps working.
"""

from __future__ import annotations

from .jobs import Job
from .lab import MAX_SEATS, SEAT_KINDS, LabApp, game_variants, variant_of
from .texts import TEXTS, text
from .widgets import Loader, Saver, TreeView

__all__ = ["MAX_SEATS", "SEAT_KINDS", "TEXTS", "Job", "LabApp", "Loader", "Saver", "TreeView", "game_variants",
           "text", "variant_of"]
