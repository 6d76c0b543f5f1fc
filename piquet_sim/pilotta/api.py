"""Pilotta's library API: what the CLI calls, importable by users.

* :func:`describe_hand`: every combination and the card points of an 8-card hand;
* :func:`simulate_rounds` / :func:`simulate_games`: random rounds and whole games as DataFrames;
* :func:`piquet_sim.pilotta.solver.solve` (re-exported): exact double-dummy play;
* :func:`piquet_sim.pilotta.odds.odds` (re-exported): combination odds with exact values.

Card masks use the project's encoding (``cards.py``); seats 0 N, 1 E, 2 S, 3 W.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .cards import KING, PACK, QUEEN, SUITS, popcount, suit_holding
from .declarations import list_combinations
from .kernels.game import simulate_games as _games_kernel
from .kernels.simulate import simulate_batch
from .kernels.tricks import card_points
from .layouts import SETUP_LEN, Game, RoundRec, Score, Setup
from .odds import odds
from .policies import AUCTION_POLICIES, PLAY_POLICIES, auction_params
from .rules import DEFAULT_RULES, Rules
from .solver import Solution, SolveError, solve


def describe_hand(hand: int, trump: int | None = None, rules: Rules = DEFAULT_RULES) -> dict:
    """Combinations (card-point units) and card points of a hand. With ``trump`` (0..3):
    sequences in trumps are flagged, pilotta is checked, and the card points and trump count
    are for that trump; without, card points and trumps are given for each possible trump."""
    if popcount(hand) != 8:
        raise SolveError(f"a hand holds 8 cards, got {popcount(hand)}")
    kq = 1 if rules.trump_kq_points == (3, 2) else 0
    combos = list_combinations(hand, -1 if trump is None else trump)
    trumps = range(4) if trump is None else [trump]
    points = {
        SUITS[t]: sum(int(card_points(c, t, kq)) for c in range(32) if hand >> c & 1)
        for t in trumps
    }
    n_trumps = {SUITS[t]: popcount(suit_holding(hand, t)) for t in trumps}
    out = {
        "hand": PACK.format(hand),
        "combinations": combos,
        "combination_points": sum(c["value"] for c in combos),
        "card_points": points,
        "trumps": n_trumps,
    }
    kq_cards = {t: (1 << (8 * t + KING)) | (1 << (8 * t + QUEEN)) for t in trumps}
    pil = {SUITS[t]: hand & m == m for t, m in kq_cards.items()}
    out["pilotta"] = pil if trump is None else pil[SUITS[trump]]
    return out


def make_setup(
    auction: str = "random",
    play_ns: str = "random",
    play_ew: str = "random",
    auction_args: tuple[int, int] | None = None,
) -> np.ndarray:
    """The int64 setup array (:class:`layouts.Setup`) from policy names (``policies.py``)."""
    setup = np.zeros(SETUP_LEN, dtype=np.int64)
    a = AUCTION_POLICIES[auction]
    setup[Setup.AUCTION] = a
    setup[Setup.AUCTION_P0 : Setup.AUCTION_P1 + 1] = auction_params(a, auction_args)
    setup[Setup.PLAY_NS] = PLAY_POLICIES[play_ns]
    setup[Setup.PLAY_EW] = PLAY_POLICIES[play_ew]
    return setup


def simulate_rounds(
    n: int,
    seed: int = 1,
    setup: np.ndarray | None = None,
    rules: Rules = DEFAULT_RULES,
    start: int = 0,
) -> pd.DataFrame:
    """Rounds ``start .. start+n-1`` of ``seed`` (deal, auction, declarations, play, score), one
    row per round, columns named after :class:`layouts.RoundRec` and :class:`layouts.Score`
    (lower case; team columns end in _ns / _ew)."""
    setup = make_setup() if setup is None else setup
    recs, _, _ = simulate_batch(
        np.int64(seed), np.int64(start), np.int64(n), setup, rules.to_array()
    )
    cols = {f.name.lower(): recs[:, int(f)] for f in RoundRec if f.name not in ("LEN", "SCORE")}
    for f in Score:
        if f.name != "LEN":
            cols["score_" + f.name.lower()] = recs[:, int(RoundRec.SCORE) + int(f)]
    return pd.DataFrame(cols)


def simulate_games(
    n: int, seed: int = 1, setup: np.ndarray | None = None, rules: Rules = DEFAULT_RULES
) -> pd.DataFrame:
    """Whole games to ``rules.game_target``: final totals, rounds played, winning team
    (0 NS, 1 EW), one row per game."""
    setup = make_setup() if setup is None else setup
    out = _games_kernel(np.int64(seed), np.int64(0), np.int64(n), setup, rules.to_array())
    return pd.DataFrame({f.name.lower(): out[:, int(f)] for f in Game if f.name != "LEN"})


__all__ = [
    "Solution",
    "SolveError",
    "describe_hand",
    "make_setup",
    "odds",
    "simulate_games",
    "simulate_rounds",
    "solve",
]
