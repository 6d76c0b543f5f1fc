"""Pitch's mirrored match of two bidders (the study layer's :class:`MatchKind` :data:`DUEL`,
``piquet pitch batch``): two bid policies compared on the same rounds (common random numbers)
through ``kernels/duel.py``.

Perspective: the "hero" seat (round i: seat i % players, so he sits in every seat equally),
his round score (as bidder +bid or -bid, else the points he took), with policy A and with
policy B on the same deal; the other seats bid with ``table`` and everyone plays ``play``.

The rounds run in chunks of round indices on a backend (``core.backend``: numba threads here,
or a Dask cluster); a chunk's records depend only on the seed and its indices, and the chunks
are put back in index order before any statistic, so the numbers are the same on any backend.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from ..core.engine.backend import Chunk
from ..core.engine.errors import InputError
from ..core.engine.stats import Estimate as Interval
from ..core.engine.stats import paired_difference, wilson_interval
from ..core.game.strategy import Strategy
from ..core.study.match import MatchKind, MatchResult, MatchSpec, Stat, run_match
from .bid import Estimate, _advice_estimate
from .kernels.duel import DUEL_FIELDS, duel_rounds
from .policies import PolicyArrays, check, make_policy
from .rules import Rules
from .strategies import BOOK

#: Rounds per chunk at most (progress and Ctrl-C between chunks).
CHUNK = 50_000


def parse_spec(spec: str | Strategy) -> tuple[str, tuple[float, ...]]:
    """The bid policy and its checked parameter values of a strategy spec: ``name`` or
    ``name:param=value,…`` (a bid policy of the registry), a built-in strategy's name or a
    strategy file (its bidder, e.g. ``fitted``); StrategyError (an InputError) otherwise."""
    s = BOOK.resolve(spec)
    pol, params = check("bid", s.policy("bid"), s.params("bid"), allow_seat=True)
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
    return Side(
        spec,
        _advice_estimate(Interval.of_sample(o[:, 0])),
        Estimate(bidder / n, [lo, hi], n),
        p_made,
    )


def duel_policies(a: str | Strategy, b: str | Strategy, rounds: int, table: str, play: str):
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


def _duel_args(spec: MatchSpec) -> tuple:
    table, play = spec.options.get("table", "threshold"), spec.options.get("play", "heuristic")
    table_policy, heroes = duel_policies(spec.a, spec.b, spec.n, table, play)
    return (spec.seed, spec.rules.to_array(), table_policy, heroes)


def duel_result(spec: MatchSpec, parts: list, seconds: float) -> MatchResult:
    """The statistics of a duel (the study's hook): each side's mean round score in the hero
    seat, how often he bids and makes it, and A's score minus B's, paired on the same rounds."""
    empty = np.zeros((0, 2, DUEL_FIELDS), dtype=np.int64)
    out = np.concatenate(parts or [empty])
    table, play = spec.options.get("table", "threshold"), spec.options.get("play", "heuristic")
    duel = Duel(
        spec.rules.players,
        len(out),
        spec.seed,
        table,
        play,
        _side(spec.a.name, out[:, 0]),
        _side(spec.b.name, out[:, 1]),
        paired_difference(out[:, 0, 0], out[:, 1, 0]),
        seconds,
        len(out) < spec.n,
    )
    d = duel.difference
    sides = {
        side.policy: [
            Stat("score per round", side.score.mean, tuple(side.score.ci95)),
            Stat("bids", side.p_bidder.mean, tuple(side.p_bidder.ci95), rate=True),
            Stat(
                "makes it when bidder",
                side.p_made.mean if side.p_made else float("nan"),
                tuple(side.p_made.ci95) if side.p_made else None,
                rate=True,
            ),
        ]
        for side in (duel.a, duel.b)
    }
    return MatchResult(
        spec.a.name,
        spec.b.name,
        Interval(d["mean"], d["se"], *d["ci95"], d["n"], d["p"]),
        "points per round of the rotating seat (A's minus B's, the same rounds)",
        duel.rounds,
        spec.n,
        duel.partial,
        duel.to_dict(),
        sides,
        [f"{spec.rules.players} players; the others bid {table}, everyone plays {play}"],
        data=duel,
    )


#: Two bidders for one rotating seat on the same rounds (``piquet pitch batch``).
DUEL = MatchKind(
    unit="rounds",
    task=_duel_task,
    args=_duel_args,
    result=duel_result,
    chunk=lambda spec: CHUNK,
    kernels=lambda spec: batch_kernels(),
    default_n=lambda a, b: 200_000,
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
    **run,
) -> Duel:
    """Policy specs ``a`` and ``b`` (``name[:param=value,…]`` or a built-in strategy name)
    for the hero seat: :data:`DUEL`'s match on ``rounds`` rounds (``run``: the ``progress``,
    ``backend``, ``chunk`` (default :data:`CHUNK`) and ``cancel`` of
    :func:`core.study.match.play_match`; the same numbers on any; Ctrl-C keeps the rounds
    done, ``partial``)."""
    rules = rules or Rules(players=players)
    sa, sb, options = BOOK.resolve(a), BOOK.resolve(b), {"table": table, "play": play}
    duel = run_match(DUEL, sa, sb, rounds, seed, rules, options, **run).data
    duel.a.policy, duel.b.policy = str(a), str(b)  # as the caller wrote them
    return duel


__all__ = [
    "DUEL",
    "Duel",
    "Side",
    "batch_kernels",
    "compare_bidders",
    "duel_policies",
    "duel_result",
    "parse_spec",
]
