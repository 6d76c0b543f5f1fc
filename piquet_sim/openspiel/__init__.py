"""Piquet, Pilotta and Pitch Six as OpenSpiel Python games (the ``openspiel`` extra).

``import piquet_sim.openspiel`` registers ``python_piquet``, ``python_pilotta`` and
``python_pitch`` (parameter ``players``, 3 to 6) with OpenSpiel, each over the game's own
``State`` (:mod:`piquet_sim.core.game.position`) through :mod:`.adapter`::

    import pyspiel, piquet_sim.openspiel
    game = pyspiel.load_game("python_pitch", {"players": 4})
"""

from __future__ import annotations

from .adapter import AdaptedState, Spec, register

__all__ = ["AdaptedState", "Spec", "register"]

from .games import register_all  # noqa: E402

register_all()
