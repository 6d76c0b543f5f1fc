"""How often a hand, a team and the table hold each combination, and how many trumps: Monte
Carlo counts over dealt rounds with 95% intervals, exact values beside (``exact.py``).

Deal i of a seed is round i's deal, so the estimates depend only on (seed, deals): chunks are
integer counts merged exactly, whatever the backend, the chunk size or the thread count.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from ..core.engine.backend import Chunk, merge_chunks
from ..core.engine.stats import proportion
from . import exact
from .cards import SUITS
from .kernels.odds import odds_batch
from .layouts import ODDS_LEN, OddsBin, OddsScope

SCOPE_NAMES = {"hand": OddsScope.HAND, "team": OddsScope.TEAM, "table": OddsScope.TABLE}
SEQ_NAMES = ("none", "3", "4", "5+")
DEFAULT_CHUNK = 500_000


def odds_kernels() -> tuple:
    """The kernels ``odds`` calls first (a cold cache among them: the compile notice)."""
    return (odds_batch,)


def _task(chunk: Chunk, seed: int, trump: int) -> np.ndarray:
    return odds_batch(np.int64(seed), np.int64(chunk.start), np.int64(chunk.size), trump)


def count(
    deals: int,
    seed: int = 1,
    trump: int = 0,
    backend=None,
    chunk: int = DEFAULT_CHUNK,
    progress: Callable[[int], None] | None = None,
) -> tuple[np.ndarray, int]:
    """Integer counters (int64[ODDS_LEN]) over deals 0..deals-1 of ``seed`` and the number of
    deals counted (fewer when interrupted)."""
    total = np.zeros(ODDS_LEN, dtype=np.int64)
    done = merge_chunks(total, _task, deals, chunk, (seed, trump), backend, progress=progress)
    return total, done


def table(counts: np.ndarray, n: int) -> dict:
    """Estimates by scope ("hand" = North, "team" = North-South, "table" = all four): for each
    event {"p", "ci95" (Wilson), "count", "exact"} (exact where combinatorics give it)."""
    out: dict[str, dict] = {}
    for name, scope in SCOPE_NAMES.items():
        base = int(scope) * int(OddsBin.LEN)
        c = counts[base : base + int(OddsBin.LEN)]
        ex_seq = exact.longest_sequence(name)
        ev: dict[str, dict] = {}
        for i, s in enumerate(SEQ_NAMES):
            ev[f"longest_sequence.{s}"] = proportion(c[OddsBin.SEQ + i], n, ex_seq[s])
        for at_least in (3, 4, 5):
            k = int(c[OddsBin.SEQ + at_least - 2 : OddsBin.SEQ + 4].sum())
            ev[f"sequence_{at_least}+"] = proportion(k, n, exact.sequence_at_least(name, at_least))
        four = exact.four_of_a_rank(name)
        for rank_name, r in exact.FOUR_RANKS.items():
            ev[f"four.{rank_name}"] = proportion(c[OddsBin.FOUR + r], n, four)
        ev["four.any"] = proportion(c[OddsBin.ANY_FOUR], n, exact.any_four(name))
        ev["pilotta"] = proportion(c[OddsBin.PILOTTA], n, exact.pilotta(name))
        ex_tr = exact.trumps(name)
        for k in range(9):
            ev[f"trumps.{k}"] = proportion(c[OddsBin.TRUMPS + k], n, ex_tr[k])
        out[name] = ev
    return out


#: The ranks of the fours that score, in words (``exact.FOUR_RANKS``' keys).
RANK_WORDS = {"J": "jacks", "9": "nines", "A": "aces", "T": "tens", "K": "kings", "Q": "queens"}


def label(event: str, scope: str) -> str:
    """An event key of :func:`table` in words, short enough for a table at 80 columns:
    ``longest_sequence.none`` -> "longest sequence: none", ``sequence_4+`` -> "sequence of 4+
    cards", ``four.T`` -> "four tens", ``trumps.1`` -> "1 trump" (in the table scope: "max
    trumps in a hand: 1")."""
    kind, _, value = event.partition(".")
    if kind == "longest_sequence":
        return f"longest sequence: {value}"
    if kind.startswith("sequence_"):
        return f"sequence of {kind.removeprefix('sequence_')} cards"
    if kind == "four":
        return "any scoring four" if value == "any" else f"four {RANK_WORDS[value]}"
    if kind == "pilotta":
        return "pilotta (trump K+Q)"
    if kind == "trumps":
        if scope == "table":
            return f"max trumps in a hand: {value}"
        return f"{value} trump" + ("" if value == "1" else "s")
    return event


#: Each scope's title in words (the odds command's tables and its figure).
SCOPE_TITLES = {
    "hand": "North's hand",
    "team": "North-South (either partner)",
    "table": "The table (any hand)",
}


def plot(result: dict, path: str | Path) -> None:
    """The odds of :func:`odds`'s ``result`` as a figure: one panel per scope, each event's
    rate with its 95% interval and its exact value (``core.app.plots.rate_panels``)."""
    from ..core.app.plots import Rate, rate_panels

    panels = [
        (
            SCOPE_TITLES[scope],
            [
                Rate(label(name, scope), est["p"], tuple(est["ci95"]), est.get("exact"))
                for name, est in result["scopes"][scope].items()
            ],
        )
        for scope in SCOPE_NAMES
    ]
    title = f"Pilotta odds over {result['deals']:,} deals (trump {result['trump']})"
    rate_panels(panels, path, title=title, across=True)


def odds(
    deals: int = 1_000_000,
    seed: int = 1,
    trump: int = 0,
    backend=None,
    chunk: int = DEFAULT_CHUNK,
    progress: Callable[[int], None] | None = None,
) -> dict:
    """The odds table (see :func:`table`) over ``deals`` dealt rounds of ``seed``, with
    ``trump`` (0..3) the suit named for pilotta and trump counts."""
    counts, done = count(deals, seed, trump, backend, chunk, progress)
    return {"deals": done, "seed": seed, "trump": SUITS[trump], "scopes": table(counts, done)}


__all__ = ["count", "label", "odds", "plot", "table"]
