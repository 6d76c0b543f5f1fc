"""Strategy reports: one self-contained HTML file (images embedded) and a Markdown twin.

:func:`build_report` runs every study on one seed, so deal i is the same deal in all of them:

* odds of the first strategy playing itself (``odds.odds``), with exact dealt-hand values;
* score distributions (elder, younger, net);
* the value of exchanging k cards: the same deals finished with elder forced to take k = 1..5
  (greedy keep values choose which k), and younger forced to take j after elder's k
  (``kernels.exchange_value``; paired differences on common deals);
* pique, repique and capot rates by strategy (each strategy playing itself);
* a round-robin tournament on mirrored deals (``studies.STUDIES.round_robin`` as
  ``match.tournament_tables``) and its heatmap;
* mirrored Rubicon parties of every pairing (``partie.parties``);
* the sinking study's table when asked for (``sink_hands``) and ``piquet.sinking`` offers one.

Each study is one function of a :class:`ReportContext` returning its sections, listed in
:data:`STUDIES`; the reproduce section is built last and placed first.

Percentages are of deals (or parties); points are per deal unless a table says per partie. Every
estimate is printed as ``value [95% interval low, high]`` beside its sample count.
"""

from .build import build_report, entry_kernels
from .constants import DEFAULT_DEALS, DEFAULT_STRATEGIES
from .exchange import (
    ExchangeCounts,
    exchange_cells,
    exchange_chunk,
    exchange_study,
    exchange_tables,
)
from .frames import odds_csv, odds_frames, sinking_summary, sinking_table
from .studies import ReportContext
from .text import fmt_pct, fmt_pct_ci, fmt_pts, fmt_pts_ci, p_cell

__all__ = [
    "DEFAULT_DEALS",
    "DEFAULT_STRATEGIES",
    "ExchangeCounts",
    "ReportContext",
    "build_report",
    "entry_kernels",
    "exchange_cells",
    "exchange_chunk",
    "exchange_study",
    "exchange_tables",
    "fmt_pct",
    "fmt_pct_ci",
    "fmt_pts",
    "fmt_pts_ci",
    "odds_csv",
    "odds_frames",
    "p_cell",
    "sinking_summary",
    "sinking_table",
]
