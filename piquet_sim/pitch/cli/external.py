"""`piquet pitch external`: outside players (OpenSpiel's IS-MCTS) against our play policies on
mirrored deals: the core's command (``core.app.external_cli``) at the table Pitch's studies
set (``studies.arena``)."""

from __future__ import annotations

from ...core.app.external_cli import studies_external_command
from ..policies import names
from ..studies import STUDIES
from .common import rules_options

external_cmd = studies_external_command(
    STUDIES,
    names("play"),
    """      piquet pitch external ismcts:100 --against heuristic -n 16 --players 4
      piquet pitch external ismcts:10,ismcts:100 --against random,heuristic -n 8 --json""",
    [rules_options],
)
