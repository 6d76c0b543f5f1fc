"""Pitch Six: an auction-pitch game for 3 to 6 players with a point for the six of trumps.

The rules implemented are described in ``docs/rules/pitch.md``. Library entry points are in
:mod:`piquet_sim.pitch.api`; the ``piquet pitch`` command group is in :mod:`.cli`.
"""
