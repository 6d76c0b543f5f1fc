"""The ``pitch`` click group every Pitch command registers on."""

from __future__ import annotations

import click


@click.group("pitch")
def pitch() -> None:
    """Pitch Six (3 to 6 players, each for himself): hands, exact play values, odds.

    Cards are typed rank then suit (AS KS 10H 6h 2♦) or grouped by suit (S:AK6 H:T2); ranks
    2-9, T/10, J, Q, K, A. Seats are numbered from the dealer's left (seat 0 bids first; the
    dealer is the last seat). Rules: docs/rules/pitch.md.

    \b
    Examples:
      piquet pitch hand "AS JS 6S 2S KH TD" --players 4
      piquet pitch odds --players 5 -n 200000
    """
