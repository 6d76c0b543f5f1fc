"""The ``pilotta`` click group (``piquet pilotta …``); command modules register on it."""

from __future__ import annotations

import click


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
def pilotta() -> None:
    """Pilotta (Cypriot belote): combinations, exact double-dummy play, combination odds.

    Cards are typed rank then suit (AS KS 10H 9h t♦ 7C) or grouped by suit (S:AKQ H:T98);
    seats are N E S W (playing order), teams NS and EW.

    \b
    Example:
      piquet pilotta hand "JS 9S AS TH KH QD 8C 7C" --trump S
    """
