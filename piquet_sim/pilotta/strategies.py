"""Pilotta's strategies: its built-ins and their conversion to the round kernels' Setup array.

A strategy (``core.game.strategy``) names a team's bidding policy (with its parameters), its
declaration choice and its play policy (pimc with its worlds per decision). Two strategies
facing each other make one Setup array (:func:`setup`): North-South bid and play with one,
East-West with the other. Files, inline specs (``pimc:worlds=3``: a play policy on the
``heuristic`` strategy, ``threshold:base=45`` a bidder) and their checks are the core's
(:data:`BOOK`); a file writes the bidder as ``[auction]`` with ``policy`` and ``params``, and
pimc's worlds as ``play_params = { worlds = 6 }``. A strategy plays only the policies the round
kernels play (not the ``dd`` oracle).
"""

from __future__ import annotations

import numpy as np

from ..core.game.strategy import Choice, Strategy, StrategyBook, builtin_strategies
from . import policies as P
from .api import make_setup
from .policies import ROUND_PLAY_POLICIES, SLOW_AUCTIONS, defaults


def summary(s: Strategy) -> str:
    """``bidder(params) / declare D / play P(params)``."""
    p = ", ".join(f"{k}={v}" for k, v in s.choice("auction").params)
    q = ", ".join(f"{k}={v}" for k, v in s.choice("play").params)
    play = f"{s.policy('play')}({q})" if q else s.policy("play")
    return f"{s.policy('auction')}({p}) / declare {s.policy('declare')} / play {play}"


def is_slow(s: Strategy) -> bool:
    """pimc play (the solver at every decision) or the Monte Carlo bidder (heuristic rounds at
    every call): thousands of rounds per second or fewer, not millions."""
    return P.get("play", s.policy("play")).needs_solver or s.policy("auction") in SLOW_AUCTIONS


def plays_pimc(s: Strategy) -> bool:
    """True when the strategy plays its cards by pimc (the round kernels' slowest play)."""
    return s.policy("play") == "pimc"


def worlds(s: Strategy) -> int:
    """Worlds per decision of its pimc play (the default when not pimc or not given)."""
    return int(s.params("play").get("worlds", defaults("play", "pimc")["worlds"]))


def setup(ns: Strategy, ew: Strategy) -> np.ndarray:
    """The Setup array of North-South playing ``ns`` against East-West playing ``ew``."""
    return make_setup(
        ns.policy("auction"),
        ns.policy("play"),
        ew.policy("play"),
        ns.params("auction"),
        ew.policy("auction"),
        ew.params("auction"),
        declare=(ns.policy("declare"), ew.policy("declare")),
        worlds=(worlds(ns), worlds(ew)),
    )


#: The stages every built-in names, with the choice a built-in leaves out.
_STAGES = {"auction": "threshold", "declare": "all", "play": "heuristic"}

BUILTINS = builtin_strategies(
    _STAGES,
    ("heuristic", "threshold bidder (default parameters), heuristic play", {}),
    (
        "cautious",
        "threshold bidder wanting 20 points of margin, heuristic play",
        {"auction": Choice.of("threshold", {"margin": 20})},
    ),
    (
        "bold",
        "threshold bidder estimating 10 points higher, heuristic play",
        {"auction": Choice.of("threshold", {"base": 45})},
    ),
    ("greedy", "threshold bidder, greedy play (no card counting)", {"play": "greedy"}),
    (
        "montecarlo",
        "Monte Carlo bidder (12 worlds per call, margin 10), heuristic play",
        {"auction": "montecarlo"},
    ),
    (
        "advisor",
        "the bid advisor's call (128 worlds a call, threshold prior, heuristic play; a bid "
        "must beat the pass by one standard error), heuristic play",
        {"auction": "advisor"},
    ),
    (
        "quiet",
        "threshold bidder, heuristic play, keeps tierces unannounced",
        {"declare": "no-tierce"},
    ),
    (
        "pimc",
        "threshold bidder, pimc play (6 worlds per decision, exact solver; slow)",
        {"play": "pimc"},
    ),
    (
        "random",
        "random bidding (35% of calls, 1-3 levels up), random play",
        {"auction": "random", "play": "random"},
    ),
)

#: Pilotta's strategies: the built-ins, files and inline specs.
BOOK = StrategyBook(
    game="pilotta",
    registry=P.REGISTRY,
    builtins={s.name: s for s in BUILTINS},
    defaults=_STAGES,
    base="heuristic",
    inline=("auction", "play", "declare"),
    allowed={"play": ROUND_PLAY_POLICIES},
    summary=summary,
    tables=("auction",),
    param_keys={"play": "play_params"},
)
#: The built-ins by name.
REGISTRY = BOOK.builtins
