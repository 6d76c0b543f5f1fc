"""P(winning the game to the target) from the scores: the library face of ``kernels/winprob.py``.

The round pool comes from simulated rounds of the table's policies (every seat bids with
``bid`` and plays with ``play``); it is built once per (rules, policies, rounds, seed) in a
process. Perspective: one player ("me"); scores are per player, in this round's seat order
(seat 0 is the dealer's left, the dealer last), so the next round is dealt by seat 0.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..core.engine.errors import InputError
from .kernels.simulate import simulate_rounds
from .kernels.winprob import POOL_BIDDER, POOL_LEN, POOL_MADE, win_chances
from .layouts import SEATS, RoundRec
from .policies import make_policy
from .rules import Rules

POOL_ROUNDS = 20_000
POOL_SEED = 12
GAMES = 1000


@lru_cache(maxsize=16)
def _pool(rules: Rules, bid: str, play: str, rounds: int, seed: int) -> np.ndarray:
    recs, _ = simulate_rounds(seed, 0, rounds, rules.to_array(), make_policy(bid, play), False)
    pool = np.zeros((rounds, POOL_LEN), dtype=np.int64)
    pool[:, :SEATS] = recs[:, RoundRec.SCORE : RoundRec.SCORE + SEATS]
    pool[:, POOL_BIDDER] = recs[:, RoundRec.BIDDER]
    pool[:, POOL_MADE] = recs[:, RoundRec.MADE]
    return pool


def round_pool(
    rules: Rules,
    bid: str = "threshold",
    play: str = "heuristic",
    rounds: int = POOL_ROUNDS,
    seed: int = POOL_SEED,
) -> np.ndarray:
    """Simulated rounds the continuations draw from (int64[rounds, POOL_LEN])."""
    return _pool(rules, bid, play, int(rounds), int(seed))


def p_win_after(
    pool: np.ndarray,
    scores: np.ndarray,
    me: int,
    bidder: np.ndarray,
    made: np.ndarray,
    target: int,
    games: int = GAMES,
    seed: int = 1,
) -> np.ndarray:
    """P(``me`` wins) after rounds that left the scores at ``scores`` (int[..., n], per player
    in this round's seat order), with the round's ``bidder`` seat and whether he ``made`` his
    bid (arrays of the leading shape): 1 or 0 when that bidder reached the target, else from
    ``games`` continuations (the next round dealt by seat 0). Distinct starts are valued once."""
    n = scores.shape[-1]
    flat = scores.reshape(-1, n).astype(np.int64)
    b = bidder.reshape(-1)
    won = made.reshape(-1) & (flat[np.arange(len(flat)), b] >= target)
    starts, inverse = np.unique(flat[~won], axis=0, return_inverse=True)
    out = np.where(b == me, 1.0, 0.0)
    if len(starts):
        chances = win_chances(
            pool,
            np.ascontiguousarray(starts),
            np.int64(0),
            np.int64(me),
            np.int64(target),
            np.int64(games),
            np.int64(seed),
        )
        out[~won] = chances[inverse.reshape(-1)]
    return out.reshape(bidder.shape)


def p_win_before(
    pool: np.ndarray,
    scores: list[int],
    me: int,
    target: int,
    dealer: int,
    games: int = GAMES,
    seed: int = 1,
) -> float:
    """P(``me`` wins) before a round dealt by ``dealer`` at ``scores`` (per player)."""
    start = np.array([scores], dtype=np.int64)
    return float(
        win_chances(
            pool,
            start,
            np.int64(dealer),
            np.int64(me),
            np.int64(target),
            np.int64(games),
            np.int64(seed),
        )[0]
    )


def check_scores(scores: list[int], players: int) -> list[int]:
    """Validate a score per seat (raises InputError)."""
    if len(scores) != players:
        raise InputError(f"--score needs {players} scores (one per seat, seat 0 first)")
    if any(abs(s) > 1000 for s in scores):
        raise InputError("scores must be between -1000 and 1000")
    return [int(s) for s in scores]


__all__ = ["check_scores", "p_win_after", "p_win_before", "round_pool"]
