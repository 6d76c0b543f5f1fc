"""The registry of Pilotta policies: each is an integer id (what kernels dispatch on) plus a
small int64 parameter array, listed once here for the library, the CLI and the kernels.

Play policies (``PlayPolicy``):

* ``random``: a uniform legal card;
* ``greedy``: a simple human-like rule on the player's own hand and the current trick: lead the
  highest card of a suit where it is master among the cards not yet played, else the lowest
  card of the longest plain suit; following, when the partner is winning play the legal card
  worth most points, else win with the cheapest winning card when possible, else play the
  legal card worth fewest points (lowest in its order on ties);
* ``heuristic``: counts the cards played and the voids shown, knows which team contracts and
  where its partner sits (``kernels.heuristic``, rules in its docstring): the contracting side
  draws trumps, masters are cashed where no opponent is known to trump them, points go onto a
  trick the partner is sure to win, trumps are not spent over a winning partner unless the
  rules force it;
* ``dd``: the double-dummy oracle (**marked**: it sees all four hands). Only the bid advisor
  takes it, as the exact value of each contract (``bid.py``); simulated rounds do not;
* ``pimc`` (``worlds``): at each decision with a choice, deal the unseen cards to the other
  seats ``worlds`` times consistently with what the player knows (``kernels.pimc``: cards
  played, voids and failures to trump shown, the combinations announced, the auction), value
  every legal card in each world with the exact solver, play the best mean (its team's card
  points). Not a marked oracle: it never looks at the other hands. Slow (the solver at every
  decision): its rounds run in their own kernel (``kernels.pimc``), never in the plain ones.

Declaration policies (``DeclarePolicy``), one per team:

* ``all``: declare every combination (show its cards);
* ``no-tierce``: keep sequences of three (20 points) unannounced; the rest is declared. A
  concealed tierce scores nothing, cannot win the comparison, does not count toward the
  contract, is not given away by a failed contract and tells the pimc players nothing.

Auction policies (``AuctionPolicy``), one per team, each with up to eight int64 parameters:

* ``random`` (``bid_permille, max_raise``): when allowed to bid, bid with probability
  ``bid_permille / 1000``: one to ``max_raise`` steps above the current bid (the capot at
  most) in a uniform suit; else pass;
* ``fixed``: the first speaker bids ``80 + 10 * params[0]`` (``params[0] = 9``: capot) in suit
  ``params[1]``; everyone else passes (a contract chosen by hand, for studies and tests);
* ``threshold`` (:class:`layouts.BidParam`: base, trump_len, ace, ten, margin, raise, capot):
  a parametric estimate of the team's round points per trump from the hand alone (trump card
  points, trump length, side aces and tens, own combinations, pilotta, the partner's suit); it
  bids the lowest level above the last bid, in its best suit, when the estimate reaches that
  level plus ``margin``, never over its partner; ``capot`` > 0: an estimate that high bids the
  capot;
* ``montecarlo`` (:class:`layouts.MCParam`: worlds, margin): plays ``worlds`` uniform worlds per
  trump suit with heuristic play and bids, in the suit of best mean reach, the lowest level
  above the last bid that the mean reach minus ``margin`` makes (``kernels.montecarlo``; about
  50 heuristic rounds per call: thousands of rounds per second, not millions).
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np


class PlayPolicy(IntEnum):
    RANDOM = 0
    GREEDY = 1
    HEURISTIC = 2
    DD = 3
    PIMC = 4


class DeclarePolicy(IntEnum):
    ALL = 0
    NO_TIERCE = 1


class AuctionPolicy(IntEnum):
    RANDOM = 0
    FIXED = 1
    THRESHOLD = 2
    MONTECARLO = 3


PLAY_POLICIES = {p.name.lower(): p for p in PlayPolicy}
#: Play policies simulated rounds can use (``dd`` is the advisor's oracle only).
ROUND_PLAY_POLICIES = ("random", "greedy", "heuristic", "pimc")
#: Play policies that run in the plain round kernels (no solver compiled).
PLAIN_PLAY_POLICIES = ("random", "greedy", "heuristic")
#: Parameters of the pimc play policy and their defaults.
PIMC_PARAMS = {"worlds": 6}
DECLARE_POLICIES = {p.name.lower().replace("_", "-"): p for p in DeclarePolicy}
AUCTION_POLICIES = {p.name.lower(): p for p in AuctionPolicy}

#: Parameter names and defaults per auction policy.
AUCTION_PARAMS = {
    AuctionPolicy.RANDOM: {"bid_permille": 350, "max_raise": 3},
    AuctionPolicy.FIXED: {"level": 0, "suit": 0},
    AuctionPolicy.THRESHOLD: {
        "base": 35,
        "trump_len": 8,
        "ace": 10,
        "ten": 5,
        "margin": 0,
        "raise": 20,
        "capot": 0,
    },
    AuctionPolicy.MONTECARLO: {"worlds": 12, "margin": 10},
}
N_PARAMS = 8  # parameter slots per team (layouts.N_AUCTION_PARAMS)


def auction_params(policy: AuctionPolicy, params=None) -> np.ndarray:
    """The int64[8] parameter array of an auction policy: its defaults, overridden by
    ``params`` (a sequence in order, or a dict by name)."""
    names = list(AUCTION_PARAMS[policy])
    values = dict(AUCTION_PARAMS[policy])
    if isinstance(params, dict):
        unknown = set(params) - set(names)
        if unknown:
            raise KeyError(f"unknown parameter(s) {sorted(unknown)}; known: {names}")
        values.update(params)
    elif params is not None:
        values.update(zip(names, params, strict=False))
    out = np.zeros(N_PARAMS, dtype=np.int64)
    out[: len(names)] = [int(values[n]) for n in names]
    return out
