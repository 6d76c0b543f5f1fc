"""An auction typed by a user, in plain Python: whose call it is, the last bid, who may still
bid, when it is over. The bid advisor (``bid.py``) checks the calls it is given with it before
any kernel runs; the kernels keep their own int64 state (``kernels/auction.py``), and the
plain-Python reference (``reference/auction.py``, for tests) its own copy of these rules.

A call is ``(seat, level, suit)``: level -1 for a pass, else 0..9 (80, 90 … 160, the capot).
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Bid points of each level (250: the capot).
LEVELS = (80, 90, 100, 110, 120, 130, 140, 150, 160, 250)
CAPOT_LEVEL = len(LEVELS) - 1


@dataclass
class Auction:
    """Calls so far of an auction dealt by ``dealer`` (the player after him speaks first)."""

    dealer: int
    pass_is_final: bool = False
    calls: list[tuple[int, int, int]] = field(default_factory=list)

    def to_speak(self) -> int:
        """Seat whose call it is."""
        return (self.dealer + 1 + len(self.calls)) % 4

    def last_bid(self) -> tuple[int, int, int] | None:
        """The last bid (seat, level, suit), None before the first."""
        for call in reversed(self.calls):
            if call[1] >= 0:
                return call
        return None

    def may_bid(self, seat: int) -> bool:
        """Nothing above the capot; under ``pass_is_final`` a seat that passed may not bid."""
        last = self.last_bid()
        if last is not None and last[1] == CAPOT_LEVEL:
            return False
        return not (self.pass_is_final and any(s == seat and lv < 0 for s, lv, _ in self.calls))

    def is_over(self) -> bool:
        """Four passes at the start (thrown in), or three passes after the last bid."""
        passes = 0
        for call in reversed(self.calls):
            if call[1] >= 0:
                return passes == 3
            passes += 1
        return passes == 4

    def call(self, level: int, suit: int) -> None:
        """The next seat's call: ``level`` -1 to pass, else 0..9 above the last bid (the caller
        checks legality first: :meth:`may_bid`, :meth:`last_bid`)."""
        if self.is_over():
            raise ValueError("the auction is over")
        self.calls.append((self.to_speak(), level, suit))
