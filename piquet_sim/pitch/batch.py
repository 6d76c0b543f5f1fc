"""Compare two bid policies on the same rounds (common random numbers): the library face of
``kernels/duel.py`` and ``piquet pitch batch``.

Perspective: the "hero" seat (round i: seat i % players, so he sits in every seat equally),
his round score (as bidder +bid or -bid, else the points he took), with policy A and with
policy B on the same deal; the other seats bid with ``table`` and everyone plays ``play``.

The rounds run in chunks of round indices on a backend (``core.backend``: numba threads here,
or a Dask cluster); a chunk's records depend only on the seed and its indices, and the chunks
are put back in index order before any statistic, so the numbers are the same on any backend.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

import numpy as np

from ..core.engine.backend import Chunk, LocalBackend, run_chunks
from ..core.engine.errors import InputError
from ..core.engine.stats import paired_difference, wilson_interval
from .bid import Estimate, _mean
from .kernels.duel import DUEL_FIELDS, duel_rounds
from .policies import PolicyArrays, check, make_policy
from .rules import Rules
from .strategies import resolve

#: Rounds per chunk at most (progress and Ctrl-C between chunks).
CHUNK = 50_000


def parse_spec(spec: str) -> tuple[str, tuple[float, ...]]:
    """The bid policy and its checked parameter values of a strategy spec: ``name`` or
    ``name:param=value,…`` (a bid policy of the registry), a built-in strategy's name or a
    strategy file (its bidder, e.g. ``fitted``); StrategyError (an InputError) otherwise."""
    s = resolve(spec)
    pol, params = check("bid", s.bid, s.params, allow_seat=True)
    return pol.name, params


@dataclass
class Side:
    policy: str
    score: Estimate  # the hero's mean round score
    p_bidder: Estimate
    p_made: Estimate | None  # given he was the bidder


@dataclass
class Duel:
    players: int
    rounds: int
    seed: int
    table: str
    play: str
    a: Side
    b: Side
    difference: dict  # A minus B, paired on the same rounds
    seconds: float
    partial: bool = False  # stopped early (Ctrl-C): ``rounds`` counts the rounds done

    def to_dict(self) -> dict:
        return asdict(self)


def _side(spec: str, o: np.ndarray) -> Side:
    n = len(o)
    if n == 0:  # stopped before the first chunk
        none = Estimate(float("nan"), [float("nan"), float("nan")], 0)
        return Side(spec, none, none, None)
    bidder = int(o[:, 2].sum())
    made = int(o[:, 3].sum())
    lo, hi = wilson_interval(bidder, n)
    p_made = None
    if bidder:
        mlo, mhi = wilson_interval(made, bidder)
        p_made = Estimate(made / bidder, [mlo, mhi], bidder)
    return Side(spec, _mean(o[:, 0]), Estimate(bidder / n, [lo, hi], n), p_made)


def duel_policies(a: str, b: str, rounds: int, table: str, play: str):
    """The kernels' (table policy, heroes) for :func:`compare_bidders`; raises InputError on
    bad input (cheap: callers check before long work)."""
    if not 1 <= rounds <= 100_000_000:
        raise InputError("rounds must be 1 to 100,000,000")
    (an, ap), (bn, bp), (tn, tp) = parse_spec(a), parse_spec(b), parse_spec(table)
    table_policy = make_policy(tn, play, bid_params=tp)
    pa = make_policy(an, play, bid_params=ap, allow_seat=True)
    pb = make_policy(bn, play, bid_params=bp, allow_seat=True)
    heroes = PolicyArrays(np.stack([pa.ids, pb.ids]), np.stack([pa.params, pb.params]))
    return table_policy, heroes


def batch_kernels() -> tuple:
    """The numba entry kernel :func:`compare_bidders` calls (for a compile notice)."""
    return (duel_rounds,)


def _duel_task(chunk: Chunk, seed: int, rules: np.ndarray, table, heroes) -> np.ndarray:
    """One chunk of a duel (every backend's unit of work): rounds ``chunk.start ..``, each
    with A and with B (int64[size, 2, DUEL_FIELDS])."""
    return duel_rounds(
        np.int64(seed), np.int64(chunk.start), np.int64(chunk.size), rules, table, heroes
    )


def compare_bidders(
    a: str,
    b: str,
    players: int = 4,
    rounds: int = 200_000,
    seed: int = 1,
    table: str = "threshold",
    play: str = "heuristic",
    rules: Rules | None = None,
    progress: Callable[[int], None] | None = None,
    backend=None,
    chunk: int | None = None,
) -> Duel:
    """Policy specs ``a`` and ``b`` (``name[:param=value,…]`` or a built-in strategy name)
    for the hero seat; ``progress(rounds done)`` after each chunk. Runs in chunks of at most
    ``chunk`` rounds (default :data:`CHUNK`) on ``backend`` (default local; the same numbers on
    any). Stops after the chunk in flight on Ctrl-C (``core.backend.stop_requested``), keeping
    the rounds done (``partial``)."""
    rules = rules or Rules(players=players)
    table_policy, heroes = duel_policies(a, b, rounds, table, play)
    t0 = time.perf_counter()
    parts: dict[int, np.ndarray] = {}

    def consume(item: Chunk, result: np.ndarray) -> None:
        parts[item.start] = result

    args = (seed, rules.to_array(), table_policy, heroes)
    run_chunks(
        backend or LocalBackend(), _duel_task, rounds, chunk or CHUNK, args, consume, progress
    )
    empty = np.zeros((0, 2, DUEL_FIELDS), dtype=np.int64)
    out = np.concatenate([parts[k] for k in sorted(parts)] or [empty])
    seconds = time.perf_counter() - t0
    return Duel(
        rules.players,
        len(out),
        seed,
        table,
        play,
        _side(a, out[:, 0]),
        _side(b, out[:, 1]),
        paired_difference(out[:, 0, 0], out[:, 1, 0]),
        seconds,
        len(out) < rounds,
    )


__all__ = ["Duel", "Side", "batch_kernels", "compare_bidders", "duel_policies", "parse_spec"]
