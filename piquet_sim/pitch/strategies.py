"""Pitch's strategies: its built-ins and their conversion to the kernels' policy rows.

A strategy (``core.game.strategy``) names a bid policy (with its parameters) and a play
policy. Files, inline specs (``threshold:margin=-0.5``: a bidder on the ``threshold``
strategy's heuristic play) and their checks are the core's (:data:`BOOK`); a file writes the
bidder as ``[bid]`` with ``policy`` and ``params``. A search play (pimc, dd) is not a
strategy's play: games need thousands of rounds.
"""

from __future__ import annotations

import numpy as np

from ..core.game.strategy import Choice, Strategy, StrategyBook, builtin_strategies
from . import policies as P
from .policies import make_policy


def summary(s: Strategy) -> str:
    """``bid B(params) / play P``."""
    p = ", ".join(f"{k}={v:g}" for k, v in s.choice("bid").params)
    return f"bid {s.policy('bid')}({p}) / play {s.policy('play')}"


def row(s: Strategy) -> tuple[np.ndarray, np.ndarray]:
    """(ids int64[2], params float64[16]) of the kernels for a seat playing ``s``."""
    ids, params = make_policy(
        s.policy("bid"), s.policy("play"), bid_params=s.params("bid"), allow_seat=True
    )
    return ids, params


#: The stages every built-in names, with the choice a built-in leaves out.
_STAGES = {"bid": "threshold", "play": "heuristic"}

BUILTINS = builtin_strategies(
    _STAGES,
    ("threshold", "threshold bidder (margin 0), heuristic play", {}),
    (
        "cautious",
        "threshold bidder wanting a point of margin",
        {"bid": Choice.of("threshold", {"margin": 1.0})},
    ),
    (
        "bold",
        "threshold bidder a point braver",
        {"bid": Choice.of("threshold", {"margin": -1.0})},
    ),
    (
        "fitted",
        "parametric bidder with the weights fitted to the advisor's expected points "
        "(scripts/pitch_calibrate.py) and its intercept as the margin (0.4)",
        {
            "bid": Choice.of(
                "parametric",
                {
                    "high": 1.36,
                    "low": 0.84,
                    "jack": 1.02,
                    "six": 0.91,
                    "length": 2.17,
                    "game": 0.54,
                    "margin": 0.4,
                },
            )
        },
    ),
    (
        "montecarlo",
        "Monte Carlo bidder: plays its hand out as bidder in 16 sampled worlds per "
        "decision, bids the best expected score (margin 0), heuristic play",
        {"bid": "montecarlo"},
    ),
    ("random", "uniform legal calls, random play", {"bid": "random", "play": "random"}),
    ("passer", "passes whenever allowed (dealer forced: 3)", {"bid": "pass"}),
)

#: Pitch's strategies: the built-ins, files and inline specs.
BOOK = StrategyBook(
    game="pitch",
    registry=P.REGISTRY,
    builtins={s.name: s for s in BUILTINS},
    defaults=_STAGES,
    base="threshold",
    inline=("bid", "play"),
    allowed={"play": P.names("play", needs_solver=False)},
    summary=summary,
    tables=("bid",),
)
#: The built-ins by name.
REGISTRY = BOOK.builtins
