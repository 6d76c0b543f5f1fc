"""The one registry of Pitch's policies: how a player bids and how he plays.

Every policy is one row of the core's registry type
(:class:`~piquet_sim.core.game.registry.Policy`):
its stage, name, kernel id, parameters (names, defaults and allowed ranges) and what it needs
(``needs_solver``: the exact search, which only the bid advisor's kernels run; ``needs_seat``:
a bidder deciding for one seat with the round's own stream, which only a table of strategies
runs: games and a batch's A and B) or is (``oracle``: sees every hand). CLI choices, strategy
validation, the kernels' policy arrays and the kernels' dispatch ids (the constants below) all
derive from :data:`REGISTRY`.

Adding a policy: one row here and one branch in ``kernels/policies.py`` (``choose_call`` or
``choose_card``). The kernels read one float64 parameter array: the bid policy's parameters
from slot 0, the play policy's from slot :data:`PLAY_PARAMS_AT`. This module is data only (no
numba, no kernels), so kernels import their ids from it.
"""

from __future__ import annotations

import math
from collections import namedtuple

import numpy as np

from ..core.game.registry import Policy, PolicyError, Registry

STAGES = ("bid", "play")
#: The ``montecarlo`` bidder's defaults: worlds per decision, margin (points).
MC_WORLDS = 16.0
MC_MARGIN = 0.0
#: Most worlds a ``montecarlo`` decision samples (its worlds' streams are spaced by this).
MC_MAX_WORLDS = 4096
#: Most worlds a ``pimc`` decision samples (room for a time budget of about a second a move).
PIMC_MAX_WORLDS = 1024
PARAMS_LEN = 16
PLAY_PARAMS_AT = 8
_ANY = (-math.inf, math.inf)

REGISTRY = Registry(
    "Pitch Six",
    STAGES,
    (
        Policy("bid", "random", 0, "a uniform legal call"),
        Policy("bid", "pass", 1, "pass whenever allowed; a dealer who must bid bids 3"),
        Policy(
            "bid",
            "threshold",
            2,
            "estimate the hand's points in its best suit (a fixed table of trumps held), bid "
            "that estimate less a margin when it beats the bid so far; the dealer steals at "
            "equal",
            ("margin",),
            (0.0,),
        ),
        Policy(
            "bid",
            "parametric",
            3,
            "the threshold bidder's table with each term weighted (High, Low, Jack, Six, trump "
            "length, game points; 1 = the threshold's own) and a margin: bid the best suit's "
            "weighted estimate less the margin, rounded down, when it beats the bid so far",
            ("high", "low", "jack", "six", "length", "game", "margin"),
            (1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0),
        ),
        Policy(
            "bid",
            "montecarlo",
            4,
            "the Monte Carlo bidder: deal the unseen cards to the others in a few worlds "
            "(uniform, keyed by the round and seat), play the hand out as bidder in every suit "
            "held with heuristic play, and make the legal bid and suit of highest expected score "
            "k (2 P(points >= k) - 1) when above the margin, else pass; pitches that suit",
            ("worlds", "margin"),
            (MC_WORLDS, MC_MARGIN),
            bounds=((1, MC_MAX_WORLDS), _ANY),
            integers=("worlds",),
            needs_seat=True,
        ),
        Policy("play", "random", 0, "a uniform legal card"),
        Policy(
            "play",
            "heuristic",
            1,
            "the bidder pulls trumps from the top while he holds the highest trump out, then "
            "leads low plain cards; everyone wins a trick holding the Jack, Six or Low of "
            "trumps or game points as cheaply as he can, gives points to a defender rather "
            "than to the bidder, and otherwise throws his cheapest card (sees only his hand "
            "and the cards played)",
        ),
        Policy(
            "play",
            "pimc",
            2,
            "perfect-information Monte Carlo: at each decision with a choice, deal the unseen "
            "cards to the others consistently with the cards played, the voids shown and the "
            "auction (the others' bid policy must make the calls they made), score each legal "
            "card by the paranoid search in every world (the bidder's points still to come: "
            "the bidder maximises, a defender minimises) and play the best total; ties to the "
            "cheapest card. own=1: a defender scores each card by his own points instead (he "
            "maximises them, everyone else minimises), the bidder as before. score=1: sum the "
            "round's score instead, 3 x (the bid if the bidder makes it, else minus the bid) + "
            "his points, in each world (a point beyond the bid is worth little, the point that "
            "makes or sets the bid a lot); ties to more of the bidder's points",
            ("worlds", "own", "score"),
            (8.0, 0.0, 0.0),
            bounds=((1, PIMC_MAX_WORLDS), (0, 1), (0, 1)),
            integers=("worlds", "own", "score"),
            needs_solver=True,
            needs_knowledge=True,
        ),
        Policy(
            "play",
            "dd",
            3,
            "double dummy: the paranoid search on the true hands (the bidder maximises his "
            "points, every defender minimises them); ties to the cheapest card",
            needs_solver=True,
            oracle=True,
        ),
    ),
)

_id = REGISTRY.id

# Kernel ids (module constants: numba freezes them at compile time).
BID_RANDOM = _id("bid", "random")  # uniform over the legal calls
BID_PASS = _id("bid", "pass")  # pass whenever allowed; a dealer who must bid bids 3
BID_THRESHOLD = _id("bid", "threshold")  # kernels.bidding.threshold_call
BID_PARAMETRIC = _id("bid", "parametric")  # kernels.bidding.parametric_call
BID_MONTECARLO = _id("bid", "montecarlo")  # kernels.mcbid (at a table: table.py, duel.py)
PLAY_RANDOM = _id("play", "random")  # uniform over the legal cards
PLAY_HEURISTIC = _id("play", "heuristic")  # kernels.heuristic.heuristic_card
PLAY_PIMC = _id("play", "pimc")  # kernels.pimc (the bid advisor's search play only)
PLAY_DD = _id("play", "dd")  # kernels.pimc, on the true hands (an oracle)
#: pimc's ``own`` flag in the kernels' parameter row (after its worlds, at PLAY_PARAMS_AT).
PIMC_OWN_AT = PLAY_PARAMS_AT + 1
#: pimc's ``score`` flag (after ``own``).
PIMC_SCORE_AT = PLAY_PARAMS_AT + 2

#: The kernels' policy bundle: ids int64[2] (``ids[0]`` the auction, ``ids[1]`` the play) and
#: params float64[PARAMS_LEN] (the bid policy's from 0, the play policy's from PLAY_PARAMS_AT).
PolicyArrays = namedtuple("PolicyArrays", ["ids", "params"])


# The registry's lookups under the names this game's modules use (one definition: the
# core's Registry).
by_stage = REGISTRY.stage
names = REGISTRY.names
get = REGISTRY.get


def table_bidders() -> tuple[str, ...]:
    """The bid policies that can model every other seat (those not needing their own seat)."""
    return REGISTRY.names("bid", needs_seat=False)


def check(
    stage: str,
    name: str,
    params=None,
    allow_solver: bool = False,
    allow_seat: bool = False,
) -> tuple[Policy, tuple[float, ...]]:
    """The policy and its parameter values (defaults for those not given; ``params`` a
    sequence or a dict by name), checked before any work: an unknown name, a parameter out of
    its range (not finite, a fractional or zero world count …), a solver play where only the
    bid advisor runs it (``allow_solver``) or a one-seat bidder where no strategy sits
    (``allow_seat``) is an InputError of one line."""
    pol = get(stage, name)
    if pol.needs_seat and not allow_seat:
        raise PolicyError(
            f"bid policy {pol.name!r} bids for one seat at a table (a strategy, or a batch's "
            f"A or B); choose {', '.join(table_bidders())} here"
        )
    if pol.needs_solver and not allow_solver:
        fast = ", ".join(names(stage, needs_solver=False))
        raise PolicyError(f"play policy {pol.name!r} runs only in the bid advisor; choose {fast}")
    return pol, pol.check_params(params)


def make_policy(
    bid: str = "random",
    play: str = "random",
    bid_params=None,
    play_params=None,
    allow_solver: bool = False,
    allow_seat: bool = False,
) -> PolicyArrays:
    """The kernels' :data:`PolicyArrays` for a bid and a play policy, every parameter checked
    (:func:`check`)."""
    b, bp = check("bid", bid, bid_params, allow_seat=allow_seat)
    p, pp = check("play", play, play_params, allow_solver=allow_solver)
    params = np.zeros(PARAMS_LEN, dtype=np.float64)
    params[: len(bp)] = bp
    params[PLAY_PARAMS_AT : PLAY_PARAMS_AT + len(pp)] = pp
    return PolicyArrays(np.array([b.id, p.id], dtype=np.int64), params)


__all__ = [
    "REGISTRY",
    "STAGES",
    "Policy",
    "PolicyArrays",
    "PolicyError",
    "by_stage",
    "check",
    "get",
    "make_policy",
    "names",
    "table_bidders",
]
