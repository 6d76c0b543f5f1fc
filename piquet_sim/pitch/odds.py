"""Odds of the deal for one suit (the trump to be), with exact values beside the estimates.

Deals are simulated in chunks (``core.backend``: local threads or Dask) and merged as integer
counts; every estimate carries its count and a 95% Wilson interval, and where counting gives the
probability (``exact.py``) it is printed beside. Perspective: "my" hand is seat 0; every figure
is for the given number of players.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from ..core.engine.backend import Chunk, merge_chunks
from ..core.engine.stats import wilson_interval
from ..core.study.rates import EventRate
from . import exact
from .cards import MAX_PLAYERS, MIN_PLAYERS, RANKS, SUIT_NAMES
from .kernels.odds import odds_counts
from .layouts import OddsSlot
from .rules import RulesError

CHUNK = 100_000
HIGH_RANKS = (8, 9, 10, 11, 12)  # ten .. ace (OddsSlot.HOLD_HIGH order)
LOW_RANKS = (0, 1, 2)  # two, three, four


@dataclass
class OddsTable:
    players: int
    suit: str
    rounds: int
    seed: int
    rows: list[EventRate] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)


def odds_kernels() -> tuple:
    """The numba entry kernel :func:`odds_table` calls (for a compile notice)."""
    return (odds_counts,)


def _task(chunk: Chunk, seed: int, players: int, suit: int) -> np.ndarray:
    return odds_counts(seed, chunk.start, chunk.size, players, suit)


def count_events(
    players: int,
    rounds: int,
    seed: int,
    suit: int = 0,
    backend=None,
    progress=None,
    chunk: int = CHUNK,
) -> np.ndarray:
    """Merged event counts (int64[OddsSlot.LEN]) over ``rounds`` deals of ``seed``; the same
    whatever the backend, the chunk size or the thread count."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RulesError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, got {players}")
    total = np.zeros(OddsSlot.LEN, dtype=np.int64)
    merge_chunks(total, _task, rounds, chunk, (seed, players, suit), backend, progress=progress)
    return total


def _row(event: str, k: int, n: int, exact_p: float | None) -> EventRate:
    return EventRate(
        event,
        k / n if n else float("nan"),
        wilson_interval(int(k), int(n)),
        int(k),
        int(n),
        exact_p,
    )


def odds_table(
    players: int, rounds: int = 200_000, seed: int = 1, suit: int = 0, backend=None, progress=None
) -> OddsTable:
    """The odds table for ``players`` seats about ``suit`` (the trump to be), seat 0's view."""
    c = count_events(players, rounds, seed, suit, backend, progress)
    deals = int(c[OddsSlot.DEALS])
    table = OddsTable(players, SUIT_NAMES[suit], deals, seed)
    rows = table.rows
    p_card = exact.p_card_in_play(players)
    rows.append(_row("jack of trumps in play", c[OddsSlot.JACK_IN_PLAY], deals, p_card))
    rows.append(_row("six of trumps in play", c[OddsSlot.SIX_IN_PLAY], deals, p_card))
    rows.append(
        _row(
            "my hand holds the highest trump in play",
            c[OddsSlot.I_HOLD_TOP],
            deals,
            exact.p_i_hold_top(players),
        )
    )
    for j, r in enumerate(HIGH_RANKS):
        rows.append(
            _row(
                f"my {RANKS[r]} of trumps is High (given I hold it)",
                c[OddsSlot.IS_HIGH + j],
                c[OddsSlot.HOLD_HIGH + j],
                exact.p_card_is_extreme(players, 12 - r),
            )
        )
    for j, r in enumerate(LOW_RANKS):
        rows.append(
            _row(
                f"my {RANKS[r]} of trumps is Low (given I hold it)",
                c[OddsSlot.IS_LOW + j],
                c[OddsSlot.HOLD_LOW + j],
                exact.p_card_is_extreme(players, r),
            )
        )
    mine = c[OddsSlot.MY_COUNT : OddsSlot.MY_COUNT + 7]
    for k in range(1, 7):
        rows.append(
            _row(
                f"at least {k} trumps in my hand",
                mine[k:].sum(),
                deals,
                exact.p_my_suit_at_least(k),
            )
        )
    in_play = c[OddsSlot.SUIT_IN_PLAY : OddsSlot.SUIT_IN_PLAY + 14]
    for t in range(min(13, 6 * players) + 1):
        rows.append(
            _row(
                f"exactly {t} trumps in play",
                in_play[t],
                deals,
                exact.p_suit_count_in_play(players, t),
            )
        )
    return table


#: The figure's panels: a title and the start of the events it holds (in the table's order).
PLOT_PANELS = (
    ("The deal", ("jack of", "six of", "my hand holds")),
    ("My top trump High, my low trump Low (given I hold it)", ("my ",)),
    ("Trumps in my hand", ("at least",)),
    ("Trumps in play", ("exactly",)),
)


def plot(table: OddsTable, path: str | Path) -> None:
    """The odds table as a figure: its events in four panels (the deal, High and Low, my
    trumps, trumps in play), each rate with its 95% interval and its exact value
    (``core.app.plots.rate_panels``)."""
    from ..core.app.plots import Rate, rate_panels

    panels: list[tuple[str, list[Rate]]] = [(title, []) for title, _ in PLOT_PANELS]
    for r in table.rows:
        # the first panel whose prefixes the event starts with ("my hand holds" before "my ")
        k = next(i for i, (_, starts) in enumerate(PLOT_PANELS) if r.event.startswith(starts))
        event = r.event.removesuffix(" (given I hold it)")
        panels[k][1].append(Rate(event, r.p, r.ci95, r.exact))
    title = (
        f"Pitch odds, {table.players} players, {table.rounds:,} deals (trump {table.suit}; "
        "my hand is seat 0)"
    )
    rate_panels(panels, path, title=title)
