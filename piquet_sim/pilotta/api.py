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

from ..core.engine.errors import InputError
from .cards import KING, PACK, QUEEN, SUITS, popcount, suit_holding
from .declarations import list_combinations
from .kernels import solver as SK
from .kernels.game import simulate_games as _games_kernel
from .kernels.pimc import simulate_batch_pimc
from .kernels.simulate import simulate_batch as _simulate_plain
from .kernels.tricks import card_points
from .layouts import N_AUCTION_PARAMS, SETUP_LEN, Game, RoundRec, Score, Setup
from .odds import odds
from .policies import (
    PLAY_PIMC,
    ROUND_PLAY_POLICIES,
    auction_params,
    defaults,
    play_worlds,
)
from .policies import get as get_policy
from .rules import DEFAULT_RULES, Rules
from .solver import Solution, SolveError, solve


def describe_hand(hand: int, trump: int | None = None, rules: Rules = DEFAULT_RULES) -> dict:
    """Combinations (card-point units) and card points of a hand. With ``trump`` (0..3):
    sequences in trumps are flagged, pilotta is checked, and the card points and trump count
    are for that trump; without, card points and trumps are given for each possible trump."""
    if popcount(hand) != 8:
        raise SolveError(f"a hand holds 8 cards, got {popcount(hand)}")
    kq = rules.kq_literal
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
    auction_args=None,
    auction_ew: str | None = None,
    auction_args_ew=None,
    *,
    declare: tuple[str, str] = ("all", "all"),
    worlds: tuple[int, int] | None = None,
) -> np.ndarray:
    """The int64 setup array (:class:`layouts.Setup`) from policy names (``policies.REGISTRY``):
    ``auction`` / ``auction_args`` for North-South, and for East-West too unless
    ``auction_ew`` / ``auction_args_ew`` are given (args: a sequence or a dict by name, each
    checked against the registry's bounds); ``declare``: the declaration policy of NS and of
    EW; ``worlds``: the pimc play policy's worlds per decision for NS and EW (default the
    registry's; used only by pimc seats). A bad name or parameter raises an InputError."""
    for play in (play_ns, play_ew):
        if play not in ROUND_PLAY_POLICIES:
            raise InputError(
                f"play policy {play!r} cannot play simulated rounds; "
                f"use one of {', '.join(ROUND_PLAY_POLICIES)}"
            )
    if worlds is None:
        worlds = (defaults("play", "pimc")["worlds"],) * 2
    setup = np.zeros(SETUP_LEN, dtype=np.int64)
    if auction_ew is None:
        auction_ew, auction_args_ew = auction, auction_args
    for team, (name, args) in enumerate(((auction, auction_args), (auction_ew, auction_args_ew))):
        setup[Setup.AUCTION_NS + team] = get_policy("auction", name).id
        lo = Setup.PARAMS_EW if team else Setup.PARAMS_NS
        setup[lo : lo + N_AUCTION_PARAMS] = auction_params(name, args)
    setup[Setup.PLAY_NS] = get_policy("play", play_ns).id
    setup[Setup.PLAY_EW] = get_policy("play", play_ew).id
    setup[Setup.WORLDS_NS], setup[Setup.WORLDS_EW] = (play_worlds(w) for w in worlds)
    setup[Setup.DECLARE_NS], setup[Setup.DECLARE_EW] = (
        get_policy("declare", d).id for d in declare
    )
    return setup


def uses_pimc(setup: np.ndarray) -> bool:
    """True when a team of the Setup plays pimc (its rounds need :mod:`kernels.pimc`)."""
    return PLAY_PIMC in (setup[Setup.PLAY_NS], setup[Setup.PLAY_EW])


def simulate_batch(seed: int, start: int, n: int, setup: np.ndarray, rules: np.ndarray):
    """Rounds ``start .. start+n-1`` of ``seed`` under ``setup`` and the rules array: the plain
    kernel (``kernels.simulate``), or the pimc one when a team plays pimc (same deals, auctions,
    declarations and records). Returns (records, plays, legal counts)."""
    args = (np.int64(seed), np.int64(start), np.int64(n), setup, rules)
    if uses_pimc(setup):
        return simulate_batch_pimc(*args, SK.TABLES)
    return _simulate_plain(*args)


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
    n: int,
    seed: int = 1,
    setup: np.ndarray | None = None,
    rules: Rules = DEFAULT_RULES,
    start: int = 0,
) -> pd.DataFrame:
    """Whole games ``start .. start+n-1`` to ``rules.game_target``: final totals, rounds
    played, winning team (0 NS, 1 EW), one row per game."""
    setup = make_setup() if setup is None else setup
    if uses_pimc(setup):
        raise InputError("pimc play is too slow for whole games: use it in batch, or in bid")
    out = _games_kernel(np.int64(seed), np.int64(start), np.int64(n), setup, rules.to_array())
    return pd.DataFrame({f.name.lower(): out[:, int(f)] for f in Game if f.name != "LEN"})


__all__ = [
    "Solution",
    "SolveError",
    "describe_hand",
    "make_setup",
    "odds",
    "simulate_batch",
    "simulate_games",
    "simulate_rounds",
    "solve",
]
