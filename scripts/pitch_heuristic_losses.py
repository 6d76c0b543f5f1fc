"""Pitch: where the ``heuristic`` card play loses points, by one-card deviations.

Rounds are dealt and bid (threshold auction) and played with the heuristic at every seat. At
each decision, every other legal card is tried in its place, the rest of the round played by
the heuristic on the true hands, and the deciding seat's score change recorded. Per class of
decision (leading or following, trick, place in the trick, bidder or defender, what he
played) it prints how often a deviation gains, the mean gain of the best deviation (optimistic:
it is chosen with every hand seen) and the mean gain of a few fixed deviations that a rule
could make without seeing the hands (these are fair estimates: the true deal is a draw from
what the player cannot tell apart, so their mean over many rounds is the rule's value at that
decision, the others playing on as the heuristic).

Run: ``NUMBA_NUM_THREADS=1 python scripts/pitch_heuristic_losses.py --rounds 5000 --seed 7``
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from pitch_round_loop import deal_and_bid, make_round_player

from piquet_sim.core.engine.jit import njit
from piquet_sim.pitch.kernels.heuristic import heuristic_card
from piquet_sim.pitch.kernels.scoring import score_tricks
from piquet_sim.pitch.layouts import SEATS, TRICKS, RoundRec, View
from piquet_sim.pitch.policies import make_policy
from piquet_sim.pitch.rules import Rules, RuleSlot

VIEW_LEN = int(View.LEN)
REC_LEN = int(RoundRec.LEN)
#: Per decision: seat, bidder?, trick, place in trick, card played, legal mask, his score,
#: the best deviation's score and card, trump, the trick's cards before him, the card then
#: winning and its seat, his hand; then from ALT each legal card's score, by card index.
SEAT, IS_BIDDER, TRICK, PLACE, CARD, LEGAL, GOT, BEST, BEST_CARD, TRUMP = range(10)
TMASK, WINNING, WSEAT, HAND = range(10, 14)
ALT = 14
ALTS = 64
FIELDS = ALT + ALTS
NO_SCORE = -99


@njit
def choose(arg, k, seat, legal, hand, view):
    """The heuristic's card, except at decision ``force_at`` (-1: none) ``force_card``;
    ``arg``: (force_at, force_card, log)."""
    force_at, force_card, _ = arg
    return force_card if k == force_at else heuristic_card(legal, hand, view)


@njit
def note(arg, k, legal, hand, view, card):
    """With ``log`` of rows (``arg[2]``), writes decision ``k``'s row: seat, trick, place,
    card, legal, trick so far."""
    log = arg[2]
    if log.shape[0] > 0:
        r = log[k]
        seat = view[View.SEAT]
        r[SEAT] = seat
        r[IS_BIDDER] = seat == view[View.BIDDER]
        r[TRICK] = view[View.TRICK]
        r[PLACE] = view[View.IN_TRICK]
        r[CARD] = card
        r[LEGAL] = legal
        r[TMASK] = view[View.TMASK]
        r[WINNING] = view[View.BEST]
        r[WSEAT] = view[View.WSEAT]
        r[HAND] = hand


#: The round with the heuristic everywhere, but for the forced card (see ``choose``).
play = make_round_player(choose, note)


@njit
def deviations(seed, lo, hi, rules, bid_id, bid_params, out):
    """Rows of ``out`` (int64[(hi-lo) * n * TRICKS, FIELDS]) for rounds lo..hi-1."""
    n = rules[RuleSlot.PLAYERS]
    pack = np.empty(52, dtype=np.int8)
    state = np.zeros(1, dtype=np.int64)
    dealt = np.zeros(SEATS, dtype=np.int64)
    hands = np.zeros(SEATS, dtype=np.int64)
    calls = np.zeros(SEATS, dtype=np.int64)
    tricks = np.zeros(TRICKS, dtype=np.int64)
    winners = np.zeros(TRICKS, dtype=np.int64)
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    rec = np.zeros(REC_LEN, dtype=np.int64)
    nolog = np.zeros((0, FIELDS), dtype=np.int64)
    per = n * TRICKS
    for i in range(lo, hi):
        bidder, bid = deal_and_bid(seed, i, n, bid_id, bid_params, pack, state, dealt, calls)
        log = out[(i - lo) * per : (i - lo + 1) * per]
        hands[:] = dealt
        trump = play(rules, hands, bidder, tricks, winners, view, (-1, -1, log))
        rec[:] = 0
        score_tricks(dealt, bidder, bid, trump, tricks, winners, rules, rec)
        for k in range(per):
            r = log[k]
            seat = r[SEAT]
            r[GOT] = rec[RoundRec.SCORE + seat]
            r[BEST] = r[GOT]
            r[BEST_CARD] = r[CARD]
            r[ALT:] = NO_SCORE
            r[ALT + r[CARD]] = r[GOT]
            m = r[LEGAL] & ~(np.int64(1) << r[CARD])
            while m:
                c = np.int64(0)
                while not (m >> c) & 1:
                    c += 1
                m &= ~(np.int64(1) << c)
                hands[:] = dealt
                tr = play(rules, hands, bidder, tricks, winners, view, (k, c, nolog))
                rec[:] = 0
                score_tricks(dealt, bidder, bid, tr, tricks, winners, rules, rec)
                v = rec[RoundRec.SCORE + seat]
                r[ALT + c] = v
                if v > r[BEST]:
                    r[BEST] = v
                    r[BEST_CARD] = c
            r[TRUMP] = trump


def _bits(m: int) -> list[int]:
    return [c for c in range(64) if (m >> c) & 1]


def _beats(c: int, w: int, trump: int) -> bool:
    if (c >> 4) == trump:
        return (w >> 4) != trump or c > w
    return (c >> 4) == (w >> 4) and c > w


def _rank(c: int) -> int:
    return c & 15


def classify(out: np.ndarray):
    """One row per decision with a choice: its class, the optimistic regret and the gain of
    each fixed deviation (NaN where it has no card)."""
    import pandas as pd

    rows = []
    for r in out:
        legal = _bits(int(r[LEGAL]))
        if len(legal) < 2:
            continue
        tr, got, alt = int(r[TRUMP]), int(r[GOT]), r[ALT:]
        following = r[PLACE] > 0
        trumps = [c for c in legal if c >> 4 == tr]
        plain = [c for c in legal if c >> 4 != tr]
        win = [c for c in legal if following and _beats(c, int(r[WINNING]), tr)]
        lose = [c for c in legal if following and c not in win]

        def by_rank(c: int, tr: int = tr) -> tuple:
            return (c >> 4 == tr, _rank(c))

        pick = {
            "top_trump": max(trumps) if trumps else None,
            "low_trump": min(trumps) if trumps else None,
            "low_plain": min(plain, key=_rank) if plain else None,
            "top_plain": max(plain, key=_rank) if plain else None,
            "low_win": min(win, key=by_rank) if win else None,
            "top_win": max(win, key=by_rank) if win else None,
            "low_lose": min(lose, key=by_rank) if lose else None,
        }
        row = {
            "lead": not following,
            "bidder": bool(r[IS_BIDDER]),
            "trick": int(r[TRICK]),
            "place": int(r[PLACE]),
            "played_trump": (int(r[CARD]) >> 4) == tr,
            "played_wins": int(r[CARD]) in win,
            "regret": int(r[BEST]) - got,
        }
        for name, c in pick.items():
            row[name] = np.nan if c is None else float(alt[c] - got)
        rows.append(row)
    return pd.DataFrame(rows)


DEVIATIONS = ("top_trump", "low_trump", "low_plain", "top_plain", "low_win", "top_win", "low_lose")


def main() -> None:
    import pandas as pd

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--players", type=int, default=4)
    a = ap.parse_args()
    t0 = time.time()
    pol = make_policy("threshold", "heuristic")
    rules = Rules(players=a.players).to_array()
    out = np.zeros((a.rounds * a.players * TRICKS, FIELDS), dtype=np.int64)
    deviations(a.seed, 0, a.rounds, rules, pol.ids[0], pol.params, out)
    df = classify(out)
    print(f"{a.rounds} rounds, {len(df)} decisions with a choice, {time.time() - t0:.1f}s")
    print(
        "Per round (all seats summed): 'regret' is the best one-card deviation seen with every "
        "hand (optimistic); the other columns are fixed deviations' mean gains (fair); "
        "positive: the deviation beats the heuristic there."
    )
    pd.set_option("display.width", 200)
    for keys in (
        ["lead", "bidder"],
        ["lead", "bidder", "trick"],
        ["lead", "bidder", "played_trump", "played_wins"],
    ):
        g = df.groupby(keys)
        cols = ["regret", *DEVIATIONS]
        table = pd.concat([g.size().rename("n"), g[cols].sum() / a.rounds], axis=1)
        print(table.to_string(float_format="%.3f"))


if __name__ == "__main__":
    main()
