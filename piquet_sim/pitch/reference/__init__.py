"""Plain-Python versions of every Pitch rule, for tests only: slow, obvious, no numba, no code
shared with the kernels beyond the card encoding (card = suit * 16 + rank, rank 0 = two).

* :mod:`.rules`: legal plays, the trick winner, the six points of a round, the bid made or
  failed, the auction's legal calls and result, the game to 12;
* :mod:`.round`: a round as a state machine (auction, then play) with legal actions and apply;
* :mod:`.search`: brute-force play values (max^n and paranoid) of small positions.
"""
