"""Outside engines' players on our positions (application level: no game imports this).

:mod:`.colver`: the bots of colver (a Belote Contree engine, MIT, on PyPI; the ``peers`` extra)
as Pilotta card-play deciders under the ``contree`` rules preset. OpenSpiel's players live in
:mod:`piquet_sim.openspiel`. Both are offered to the ladders through
:mod:`piquet_sim.core.study.arena`'s external-player registry (filled by :mod:`piquet_sim.games`).
"""
