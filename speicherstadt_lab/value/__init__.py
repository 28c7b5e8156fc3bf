"""Learned value models: from a position's features to each seat's win probability and expected final score.

``load_model(state)`` finds the shipped model for the state's game, expansion and player count
(``data/models/*.json``, plain JSON read with json and numpy); ``ValueModel.predict(state)`` answers in
about a millisecond. ``speicherstadt-lab train`` (``value.train``, needs the ``[train]`` extra for
scikit-learn) makes a model from self-play and writes the file, with its training set-up recorded in it.
"""

from __future__ import annotations

from .model import MODEL_FORMAT, ValueModel, load_model, model_path

__all__ = ["MODEL_FORMAT", "ValueModel", "load_model", "model_path"]
