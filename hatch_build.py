"""Build hook: the wheel carries plotly's own ``plotly.min.js`` as a static file for the Jupyter server to serve.

It is installed to ``share/jupyter/labextensions/speicherstadt-lab/static/plotly.min.js``, a folder JupyterLab
(``/lab/extensions/``), Voilà and Voilà as a server extension (``/voila/labextensions/``) all serve, so the app's
charts (``speicherstadt_lab/ui/chart_widget.py``, ``ASSET_DIR``: the same name) load plotly.js once per page over
HTTP, cached by the browser, instead of through the kernel's websocket. The file is taken from the plotly package
of the build environment (``build-system.requires``); nothing is fetched.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

TARGET = "share/jupyter/labextensions/speicherstadt-lab/static/plotly.min.js"


class PlotlyAssetHook(BuildHookInterface):
    """Adds plotly.min.js to the wheel's shared data."""

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        """Put the build environment's plotly.min.js into the wheel (standard and editable alike)."""
        if self.target_name != "wheel":
            return
        spec = importlib.util.find_spec("plotly")
        if spec is None or spec.origin is None:
            raise RuntimeError("plotly is missing from the build environment (pyproject.toml, build-system.requires)")
        source = Path(spec.origin).parent / "package_data" / "plotly.min.js"
        if not source.is_file():
            raise RuntimeError(f"plotly.min.js not found in the plotly package at {source}")
        build_data["shared_data"][str(source)] = TARGET
