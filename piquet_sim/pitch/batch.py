"""Compare two bid policies on the same rounds (common random numbers): the library face of
``kernels/duel.py`` and ``piquet pitch batch``.

Perspective: the "hero" seat (round i: seat i % players, so he sits in every seat equally),
his round score (as bidder +bid or -bid, else the points he took), with policy A and with
policy B on the same deal; the other seats bid with ``table`` and everyone plays ``play``.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass

import numpy as np

from ..core.errors import InputError
from ..core.stats import paired_difference, wilson_interval
from .bid import Estimate, _mean
from .kernels.duel import duel_rounds
from .policies import get, make_policy
from .rules import Rules


def parse_spec(spec: str) -> tuple[str, tuple[float, ...] | None]:
    """``name`` or ``name:param=value,…`` (parameters of the registry's bid policy)."""
    name, _, rest = spec.partition(":")
    pol = get("bid", name.strip())
    if not rest:
        return pol.name, None
    values = dict(zip(pol.params, pol.defaults, strict=True))
    for item in rest.split(","):
        key, _, val = item.partition("=")
        if key.strip() not in values:
            raise InputError(
                f"bid policy {pol.name!r} has no parameter {key.strip()!r} "
                f"(it takes: {', '.join(pol.params) or 'none'})"
            )
        try:
            values[key.strip()] = float(val)
        except ValueError:
            raise InputError(f"{spec!r}: {val!r} is not a number") from None
    return pol.name, tuple(values[p] for p in pol.params)


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

    def to_dict(self) -> dict:
        return asdict(self)


def _side(spec: str, o: np.ndarray) -> Side:
    n = len(o)
    bidder = int(o[:, 2].sum())
    made = int(o[:, 3].sum())
    lo, hi = wilson_interval(bidder, n)
    p_made = None
    if bidder:
        mlo, mhi = wilson_interval(made, bidder)
        p_made = Estimate(made / bidder, [mlo, mhi], bidder)
    return Side(spec, _mean(o[:, 0]), Estimate(bidder / n, [lo, hi], n), p_made)


def compare_bidders(
    a: str,
    b: str,
    players: int = 4,
    rounds: int = 200_000,
    seed: int = 1,
    table: str = "threshold",
    play: str = "heuristic",
    rules: Rules | None = None,
) -> Duel:
    """Policy specs ``a`` and ``b`` (``name[:param=value,…]``) for the hero seat."""
    rules = rules or Rules(players=players)
    if not 1 <= rounds <= 100_000_000:
        raise InputError("rounds must be 1 to 100,000,000")
    (an, ap), (bn, bp), (tn, tp) = parse_spec(a), parse_spec(b), parse_spec(table)
    table_policy = make_policy(tn, play, bid_params=tp)
    pa, pb = make_policy(an, play, bid_params=ap), make_policy(bn, play, bid_params=bp)
    heroes = type(pa)(np.stack([pa.ids, pb.ids]), np.stack([pa.params, pb.params]))
    t0 = time.perf_counter()
    out = duel_rounds(np.int64(seed), np.int64(rounds), rules.to_array(), table_policy, heroes)
    seconds = time.perf_counter() - t0
    return Duel(
        rules.players,
        rounds,
        seed,
        table,
        play,
        _side(a, out[:, 0]),
        _side(b, out[:, 1]),
        paired_difference(out[:, 0, 0], out[:, 1, 0]),
        seconds,
    )


__all__ = ["Duel", "Side", "compare_bidders", "parse_spec"]
