"""The registry of Pilotta policies: each is an integer id (what kernels dispatch on) plus a
small int64 parameter array, listed once here for the library, the CLI and the kernels.

Play policies (``PlayPolicy``):

* ``random``: a uniform legal card;
* ``greedy``: a simple human-like rule on the player's own hand and the current trick: lead the
  highest card of a suit where it is master among the cards not yet played, else the lowest
  card of the longest plain suit; following, when the partner is winning play the legal card
  worth most points, else win with the cheapest winning card when possible, else play the
  legal card worth fewest points (lowest in its order on ties).

Auction policies (``AuctionPolicy``), params ``(bid_permille, max_raise)``:

* ``random``: when allowed to bid, bid with probability ``bid_permille / 1000``: one to
  ``max_raise`` steps above the current bid (the capot at most) in a uniform suit; else pass;
* ``fixed``: the first speaker bids ``80 + 10 * params[0]`` (``params[0] = 9``: capot) in suit
  ``params[1]``; everyone else passes (a contract chosen by hand, for studies and tests).
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np


class PlayPolicy(IntEnum):
    RANDOM = 0
    GREEDY = 1


class AuctionPolicy(IntEnum):
    RANDOM = 0
    FIXED = 1


PLAY_POLICIES = {p.name.lower(): p for p in PlayPolicy}
AUCTION_POLICIES = {p.name.lower(): p for p in AuctionPolicy}

#: Default parameter arrays (int64[2]) per auction policy.
AUCTION_DEFAULTS = {
    AuctionPolicy.RANDOM: (350, 3),
    AuctionPolicy.FIXED: (0, 0),
}


def auction_params(policy: AuctionPolicy, params: tuple[int, int] | None = None) -> np.ndarray:
    """The int64[2] parameter array of an auction policy (its defaults when ``params`` is None)."""
    return np.array(params if params is not None else AUCTION_DEFAULTS[policy], dtype=np.int64)
