"""The auction's legality, as kernels and as one small table.

Calls are 0 (pass) or a bid 3..6. Seats speak once each from seat 0; the dealer (last seat) may
pass, bid higher, or take the highest bid at the same number (steal); when every seat before
him passed he must bid (3 to 6). A call mask has bit ``b`` set when call ``b`` is legal.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit, njit_inline
from ..layouts import BID_MAX, BID_MIN, BID_PASS

#: Bits BID_MIN..BID_MAX.
ALL_BIDS = np.int64(((1 << (BID_MAX + 1)) - 1) & ~((1 << BID_MIN) - 1))


@njit_inline
def bids_from(lowest):
    """Mask of the bids ``lowest``..6 (empty above 6)."""
    if lowest < BID_MIN:
        lowest = BID_MIN
    return ALL_BIDS & ~((np.int64(1) << lowest) - 1)


@njit_inline
def legal_calls(highest, dealer):
    """Mask of the legal calls of a seat when the highest bid so far is ``highest`` (0: none);
    ``dealer`` is 1 for the last seat to speak."""
    if dealer:
        if highest == BID_PASS:
            return ALL_BIDS
        return np.int64(1) | bids_from(highest)
    return np.int64(1) | bids_from(highest + 1)


@njit
def auction_result(calls, n):
    """(bidder seat, bid, stole) from the calls of seats 0..n-1 (legal calls assumed); the
    dealer wins a tie with the highest bid (stole = 1)."""
    bidder = np.int64(-1)
    highest = np.int64(0)
    stole = np.int64(0)
    for seat in range(n):
        c = calls[seat]
        if c != BID_PASS and c >= highest:
            stole = np.int64(1) if (seat == n - 1 and c == highest) else np.int64(0)
            highest = c
            bidder = seat
    return bidder, highest, stole


def call_table() -> np.ndarray:
    """int64[2, 7]: the legal-call mask for (dealer 0/1, highest bid so far 0..6)."""
    table = np.zeros((2, BID_MAX + 1), dtype=np.int64)
    for dealer in (0, 1):
        for highest in range(BID_MAX + 1):
            if highest in (1, 2):
                continue  # no such highest bid
            table[dealer, highest] = legal_calls(highest, dealer)
    return table
