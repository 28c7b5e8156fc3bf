"""Adapters to the games ecosystem: OpenSpiel (:mod:`.openspiel`) and PettingZoo (:mod:`.pettingzoo`).

They need the optional extra: ``pip install 'speicherstadt-lab[rl]'``. This package imports nothing heavy;
:mod:`.encoding` (action catalogues, observation tensors) needs only numpy.
"""

INSTALL_HINT = "pip install 'speicherstadt-lab[rl]'"
