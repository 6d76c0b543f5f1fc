"""The one registry of Pilotta's stage policies: how a team bids, declares and plays.

Every policy is one row of the core's registry type
(:class:`~piquet_sim.core.game.registry.Policy`):
its stage, name, kernel id, description, parameters (names, defaults and allowed ranges) and what
it needs or is (the exact solver; a knowledge state of what was seen; an oracle that sees every
hand). CLI choices, strategy-file validation, the Setup array (``api.make_setup``) and the
kernels' dispatch ids (the module constants below: numba freezes them) all derive from
:data:`REGISTRY`. This module is data only (no numba, no kernels), so kernels import their ids
from it. The policies' rules in full: ``docs/rules/pilotta.md`` ("Bidding and play policies")
and the kernels' docstrings (``kernels/heuristic.py``, ``kernels/pimc.py``,
``kernels/montecarlo.py``, ``kernels/auction.py``).

Adding a play policy: one row here and its branch in ``kernels/play.py`` (``policy_card``;
a solver policy in ``kernels/pimc.py``); an auction policy: one row and its branch in
``kernels/auction.py`` (``policy_call``). A policy's parameters are whole numbers: a team's
auction row is ``N_PARAMS`` int64 slots of the Setup (the threshold bidder's order is
``layouts.BidParam``, the Monte Carlo bidder's ``layouts.MCParam``, the advisor's
``layouts.AdvParam``), the pimc worlds one slot per team.
"""

from __future__ import annotations

import numpy as np

from ..core.game.registry import Policy, PolicyError, Registry

STAGES = ("auction", "declare", "play")

#: Parameter slots per team in a Setup (``layouts.N_AUCTION_PARAMS``).
N_PARAMS = 8
#: Bounds of the threshold bidder's estimate terms (card-point units).
_POINTS = (-1000, 1000)

REGISTRY = Registry(
    "Pilotta",
    STAGES,
    (
        Policy(
            "auction",
            "random",
            0,
            "bid with probability bid_permille / 1000, 1 to max_raise levels above the last bid "
            "(the capot at most), a uniform suit",
            ("bid_permille", "max_raise"),
            (350, 3),
            ((0, 1000), (1, 9)),
            integers=("bid_permille", "max_raise"),
        ),
        Policy(
            "auction",
            "fixed",
            1,
            "the first speaker bids 80 + 10 * level (9: capot; -1: no bid) in suit 0..3 "
            "(S H D C); everyone else passes",
            ("level", "suit"),
            (0, 0),
            ((-1, 9), (0, 3)),
            integers=("level", "suit"),
        ),
        Policy(
            "auction",
            "threshold",
            2,
            "estimate the team's round points per trump from the hand (base + trump card points "
            "+ trump_len per trump + ace/ten per side ace/ten + combinations + pilotta, + raise "
            "in the partner's suit); bid the lowest level above the last that the estimate minus "
            "margin reaches, never over the partner; capot > 0: an estimate that high bids the "
            "capot",
            ("base", "trump_len", "ace", "ten", "margin", "raise", "capot"),
            (35, 8, 10, 5, 0, 20, 0),
            (_POINTS, _POINTS, _POINTS, _POINTS, _POINTS, _POINTS, (0, 1000)),
            integers=("base", "trump_len", "ace", "ten", "margin", "raise", "capot"),
        ),
        Policy(
            "auction",
            "montecarlo",
            3,
            "play worlds uniform deals per trump with heuristic play; bid, in the suit of best "
            "mean reach, the lowest level above the last that the reach minus margin makes "
            "(slow: thousands of rounds per second)",
            ("worlds", "margin"),
            (12, 10),
            ((1, 10_000), _POINTS),
            integers=("worlds", "margin"),
        ),
        Policy(
            "auction",
            "advisor",
            4,
            "the bid advisor's recommended call: worlds deals consistent with the auction so "
            "far under the threshold prior, every legal call (at most jumps levels above the "
            "lowest) finished by threshold bidders (itself passing, or bidding on as they do "
            "with rebid 1) and played with heuristic play, the call of best mean game points "
            "(its team's minus the opponents', this round); a bid must gain over the pass by "
            "z100 / 100 standard errors (0: the advice's own call)",
            ("worlds", "rebid", "z100", "jumps"),
            (128, 0, 100, 9),
            ((1, 4096), (0, 1), (0, 1000), (0, 9)),
            integers=("worlds", "rebid", "z100", "jumps"),
        ),
        Policy("declare", "all", 0, "declare every combination"),
        Policy(
            "declare",
            "no-tierce",
            1,
            "keep sequences of exactly three cards unannounced (they score nothing, cannot win "
            "the comparison and tell the pimc players nothing), declare the rest",
        ),
        Policy("play", "random", 0, "a uniform legal card"),
        Policy(
            "play",
            "greedy",
            1,
            "own hand and the current trick only: lead a master of a suit (else the lowest card "
            "of the longest plain suit); following, points onto a winning partner, else the "
            "cheapest winner, else the cheapest card",
        ),
        Policy(
            "play",
            "heuristic",
            2,
            "card counting (cards played, voids shown), trumps drawn by the contracting side, "
            "masters cashed, points onto a trick the partner is sure to win",
            needs_knowledge=True,
        ),
        Policy(
            "play",
            "dd",
            3,
            "double-dummy: the exact solver on all four hands (an oracle: the bid advisor's "
            "exact contract values only)",
            needs_solver=True,
            oracle=True,
        ),
        Policy(
            "play",
            "pimc",
            4,
            "imperfect information: deal the unseen cards worlds times consistently with what "
            "was seen, solve each world exactly, play the best mean (slow)",
            ("worlds",),
            (6,),
            ((1, 1000),),
            integers=("worlds",),
            needs_solver=True,
            needs_knowledge=True,
        ),
    ),
)


# The registry's lookups under the names this game's modules use (one definition: the
# core's Registry).
policies = REGISTRY.stage
get = REGISTRY.get
names = REGISTRY.names


def defaults(stage: str, name: str) -> dict:
    """A policy's parameters by name with their defaults."""
    p = get(stage, name)
    return dict(zip(p.params, p.defaults, strict=True))


_id = REGISTRY.id

# Kernel ids (module constants: numba freezes them at compile time).
AUCTION_RANDOM = _id("auction", "random")
AUCTION_FIXED = _id("auction", "fixed")
AUCTION_THRESHOLD = _id("auction", "threshold")
AUCTION_MONTECARLO = _id("auction", "montecarlo")
AUCTION_ADVISOR = _id("auction", "advisor")
DECL_ALL = _id("declare", "all")
DECL_NO_TIERCE = _id("declare", "no-tierce")
PLAY_RANDOM = _id("play", "random")
PLAY_GREEDY = _id("play", "greedy")
PLAY_HEURISTIC = _id("play", "heuristic")
PLAY_DD = _id("play", "dd")
PLAY_PIMC = _id("play", "pimc")

#: Play policies simulated rounds can use (``dd``, the oracle, is the advisor's only).
ROUND_PLAY_POLICIES = names("play", oracle=False)
#: Play policies that run in the plain round kernels (no solver compiled).
PLAIN_PLAY_POLICIES = names("play", oracle=False, needs_solver=False)
#: Auction policies that play rounds at each call (thousands of rounds per second).
SLOW_AUCTIONS = ("montecarlo", "advisor")


def auction_params(policy: str, params=None) -> np.ndarray:
    """The int64[N_PARAMS] parameter row of an auction policy (by name): its defaults,
    overridden by ``params`` (a sequence in order, or a dict by name), each checked against
    the registry's bounds (PolicyError, one line, naming the bad one)."""
    p = get("auction", policy)
    values = p.check_params(params)
    out = np.zeros(N_PARAMS, dtype=np.int64)
    out[: len(values)] = [int(v) for v in values]
    return out


def play_worlds(worlds) -> int:
    """The pimc play policy's worlds per decision, checked (PolicyError when out of range)."""
    return int(get("play", "pimc").check_params({"worlds": worlds})[0])


__all__ = [
    "REGISTRY",
    "STAGES",
    "Policy",
    "PolicyError",
    "auction_params",
    "defaults",
    "get",
    "names",
    "play_worlds",
    "policies",
]
