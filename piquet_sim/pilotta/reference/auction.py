"""The auction written from the rules, as a state machine, and the two policies in plain
Python (the random one takes its draws from a ``draw(n)`` callable, uniform in 0..n-1)."""

from __future__ import annotations

from dataclasses import dataclass, field

LEVELS = (80, 90, 100, 110, 120, 130, 140, 150, 160, 250)  # 250: capot


@dataclass
class Auction:
    dealer: int
    pass_is_final: bool = False
    calls: list[tuple[int, int, int]] = field(default_factory=list)  # (seat, level, suit); -1 pass

    def to_speak(self) -> int:
        return (self.dealer + 1 + len(self.calls)) % 4

    def last_bid(self) -> tuple[int, int, int] | None:
        bids = [c for c in self.calls if c[1] >= 0]
        return bids[-1] if bids else None

    def may_bid(self, seat: int) -> bool:
        last = self.last_bid()
        if last is not None and last[1] == len(LEVELS) - 1:
            return False
        return not (self.pass_is_final and any(s == seat and lv < 0 for s, lv, _ in self.calls))

    def is_over(self) -> bool:
        last = self.last_bid()
        if last is None:
            return len(self.calls) == 4
        after = self.calls[self.calls.index(last) + 1 :]
        return len(after) == 3

    def call(self, level: int, suit: int) -> None:
        """``level`` -1 to pass, else 0..9 (80 .. 160, capot) above the last bid."""
        seat = self.to_speak()
        assert not self.is_over()
        if level >= 0:
            last = self.last_bid()
            assert self.may_bid(seat) and (last is None or level > last[1]) and 0 <= suit < 4
        self.calls.append((seat, level, suit))

    def result(self) -> tuple[int, int, int]:
        """(bidder, bid points, trump); (-1, 0, -1) when all four passed."""
        last = self.last_bid()
        if last is None:
            return (-1, 0, -1)
        return (last[0], LEVELS[last[1]], last[2])


def random_call(auction: Auction, bid_permille: int, max_raise: int, draw) -> tuple[int, int]:
    """The random policy: bid with probability bid_permille / 1000, 1..max_raise levels above
    the last bid (capot at most), a uniform suit."""
    if not auction.may_bid(auction.to_speak()):
        return (-1, -1)
    if draw(1000) < bid_permille:
        last = auction.last_bid()
        level = last[1] if last else -1
        steps = min(max_raise, len(LEVELS) - 1 - level)
        new = level + 1 + draw(steps)
        return (new, draw(4))
    return (-1, -1)


def fixed_call(auction: Auction, level: int, suit: int) -> tuple[int, int]:
    """The fixed policy: the first speaker bids (level, suit) on his first call; all pass."""
    if len(auction.calls) == 0 and level >= 0:
        return (level, suit)
    return (-1, -1)
