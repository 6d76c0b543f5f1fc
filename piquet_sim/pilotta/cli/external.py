"""`piquet pilotta external`: outside players (OpenSpiel's IS-MCTS, colver's bots) against our
play policies on mirrored deals, under the ``contree`` preset (colver's card play): the core's
command (``core.app.external_cli``) at the table Pilotta's studies set (``studies.arena``)."""

from __future__ import annotations

from ...core.app.external_cli import studies_external_command
from ..policies import names
from ..studies import STUDIES

external_cmd = studies_external_command(
    STUDIES,
    names("play"),
    """      piquet pilotta external colver:ismcts:10 --against random,heuristic,pimc -n 20
      piquet pilotta external ismcts:100,colver:heuristic --against heuristic -n 40 --json""",
)
