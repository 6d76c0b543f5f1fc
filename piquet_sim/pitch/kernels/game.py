"""A game to ``target`` (12): running scores, the rotating deal and the only way to win.

Players are table positions 0..n-1; a round's seats start at the dealer's left, so seat ``s`` of
a round dealt by ``d`` is player ``(d + 1 + s) % n``. The row layout is ``GameSlot``.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit
from ..layouts import GameSlot
from ..rules import RuleSlot


@njit
def new_game(game, first_dealer):
    """Reset a game row: scores 0, ``first_dealer`` to deal, no winner."""
    game[:] = 0
    game[GameSlot.DEALER] = first_dealer
    game[GameSlot.WINNER] = -1


@njit
def apply_round(game, rules, bidder_seat, bid, points):
    """Add a round (the bidder's seat, his bid, points taken per seat) to the game row: the
    bidder scores +bid when he took at least his bid, else -bid; every other seat the points it
    took. The bidder wins when he made his bid and now has ``target`` or more (a defender at the
    target has not won). The deal passes left. Returns the winning player or -1."""
    n = rules[RuleSlot.PLAYERS]
    dealer = game[GameSlot.DEALER]
    winner = np.int64(-1)
    for seat in range(n):
        player = (dealer + 1 + seat) % n
        if seat == bidder_seat:
            made = points[seat] >= bid
            game[GameSlot.SCORES + player] += bid if made else -bid
            if made and game[GameSlot.SCORES + player] >= rules[RuleSlot.TARGET]:
                winner = player
        else:
            game[GameSlot.SCORES + player] += points[seat]
    game[GameSlot.DEALER] = (dealer + 1) % n
    game[GameSlot.ROUNDS] += 1
    if game[GameSlot.WINNER] < 0:
        game[GameSlot.WINNER] = winner
    return winner
