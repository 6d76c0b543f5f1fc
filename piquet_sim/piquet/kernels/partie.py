"""Parties: whole games of several deals under the partie options of docs/rules/piquet.md, and
settlement.

Partie rules (``rules`` array, ``RULE_GAME`` / ``RULE_TIE`` / ``RULE_BLANK_PARTIE_BONUS``):

* ``rubicon`` (default): 6 deals, the deal alternating (each player elder 3 times).
* ``four_deals``: 4 deals, the first and the last counting double.
* ``hundred`` (piquet au cent): deals until a player has 100 or more after a deal, at most
  ``HUNDRED_MAX_DEALS`` deals (then the totals stand as they are; never reached in practice,
  since every deal scores at least 13 points under the default lead rule).
* A tie when the partie would end: 2 more deals (``two_more_deals``; each counts double under
  ``refait_double``); still tied after those, the partie is drawn.
* Settlement (Rubicon, applied to every form): the higher total wins; loser >= 100: the winner
  gets (winner - loser) + 100; loser < 100 (rubiconed): winner + loser + 100. With
  ``blank_partie_bonus`` a loser who scored nothing in the whole partie gives 100 more. A draw
  settles 0. Deal points are multiplied before they are added, so doubled deals count double
  toward the 100 as well.

The partie is a small state machine on an int64 array (``S_*``), so the same code runs the
simulated parties and the tests' fixed point sequences: ``partie_reset``, then while
``state[PST_DONE] == 0``: ``partie_multiplier`` for the next deal, ``partie_add`` its points;
then ``partie_settle``.

Mirrored parties: partie p is played twice on the same deals, version 0 with A elder in the
partie's first deal (and 3rd, 5th, ...), version 1 with B elder first. Deal d of partie p is
deal ``p * DEAL_STRIDE + d`` of the seed, so the two versions see the same cards: at deal d one
version needs the A-elder play and the other the B-elder play, which is exactly a mirrored pair
(``match.play_pair``; ``share`` as there). Seatings that each play greedy, random or heuristic
take :func:`simple_mirrored_parties`, the same parties through ``simple_deal.simple_pair``.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit, njit_inline
from ...core.engine.jit_threads import driver, run_spans
from ...core.engine.jit_threads import span_range as span_range_py
from ..rules import RuleSlot
from . import layouts as L
from .match import bundled_pair
from .play import general_of, new_scratch
from .simple_deal import deal_work, own_env, own_stages, pair_records, plays_fast, simple_pair
from .solver import new_workspace

GAME_RUBICON = 0  # index into rules.GAMES
GAME_HUNDRED = 1
GAME_FOUR_DEALS = 2
TIE_TWO_MORE = 0  # index into rules.TIE_RULES
TIE_REFAIT_DOUBLE = 1
RUBICON = 100  # the loser is rubiconed under this total
GAME_BONUS = 100  # the winner's 100 for the game
BLANK_BONUS = 100
TIE_DEALS = 2
HUNDRED_TARGET = 100
HUNDRED_MAX_DEALS = 40
DEAL_STRIDE = 64  # deal keys per partie (>= HUNDRED_MAX_DEALS + TIE_DEALS)

# Partie state.

# Row of one finished partie (A's view).


@njit
def partie_reset(state):
    state[L.PST_A] = 0
    state[L.PST_B] = 0
    state[L.PST_DEALS] = 0
    state[L.PST_EXTRA] = -1
    state[L.PST_DONE] = 0


@njit
def partie_multiplier(state, rules):
    """How many times the next deal's points count (1 or 2)."""
    if state[L.PST_EXTRA] >= 0:
        return 2 if rules[RuleSlot.TIE] == TIE_REFAIT_DOUBLE else 1
    if rules[RuleSlot.GAME] == GAME_FOUR_DEALS and (
        state[L.PST_DEALS] == 0 or state[L.PST_DEALS] == 3
    ):
        return 2
    return 1


@njit
def _would_end(state, rules):
    game = rules[RuleSlot.GAME]
    d = state[L.PST_DEALS]
    if game == GAME_HUNDRED:
        return (
            state[L.PST_A] >= HUNDRED_TARGET
            or state[L.PST_B] >= HUNDRED_TARGET
            or (d >= HUNDRED_MAX_DEALS)
        )
    if game == GAME_FOUR_DEALS:
        return d >= 4
    return d >= 6


@njit
def partie_add(state, a_points, b_points, rules):
    """Add one deal's points (before the multiplier) for A and B; update the partie's end."""
    m = partie_multiplier(state, rules)
    state[L.PST_A] += m * a_points
    state[L.PST_B] += m * b_points
    state[L.PST_DEALS] += 1
    if state[L.PST_EXTRA] >= 0:
        state[L.PST_EXTRA] += 1
        if state[L.PST_EXTRA] >= TIE_DEALS:
            state[L.PST_DONE] = 1
    elif _would_end(state, rules):
        if state[L.PST_A] == state[L.PST_B]:
            state[L.PST_EXTRA] = 0
        else:
            state[L.PST_DONE] = 1


@njit
def settlement(winner_total, loser_total, blank_bonus):
    """The winner's gain under the Rubicon rule (``blank_bonus`` 1: the blank-partie rule)."""
    if loser_total >= RUBICON:
        gain = winner_total - loser_total + GAME_BONUS
    else:
        gain = winner_total + loser_total + GAME_BONUS
    if blank_bonus and loser_total == 0:
        gain += BLANK_BONUS
    return gain


@njit
def partie_settle(state, rules, row):
    """Write the finished partie's ``PROW_*`` row (A's view) into ``row``."""
    a = state[L.PST_A]
    b = state[L.PST_B]
    row[L.PROW_A] = a
    row[L.PROW_B] = b
    row[L.PROW_DEALS] = state[L.PST_DEALS]
    blank = rules[RuleSlot.BLANK_PARTIE_BONUS]
    if a == b:
        row[L.PROW_WINNER] = 0
        row[L.PROW_SETTLE] = 0
        row[L.PROW_RUBICON] = 0
        row[L.PROW_BLANK] = 0
    elif a > b:
        row[L.PROW_WINNER] = 1
        row[L.PROW_SETTLE] = settlement(a, b, blank)
        row[L.PROW_RUBICON] = b < RUBICON
        row[L.PROW_BLANK] = b == 0
    else:
        row[L.PROW_WINNER] = -1
        row[L.PROW_SETTLE] = -settlement(b, a, blank)
        row[L.PROW_RUBICON] = a < RUBICON
        row[L.PROW_BLANK] = a == 0


@njit
def partie_from_points(points, rules):
    """A partie fed a fixed sequence of deal points (int[k, 2]: A's, B's raw points per deal):
    returns its ``PROW_*`` row; -1 in ``PROW_DEALS`` if the sequence ran out first (tests)."""
    state = np.zeros(L.PST_LEN, dtype=np.int64)
    row = np.zeros(L.PROW_LEN, dtype=np.int64)
    partie_reset(state)
    i = 0
    while state[L.PST_DONE] == 0:
        if i >= points.shape[0]:
            row[L.PROW_DEALS] = -1
            return row
        partie_add(state, points[i, 0], points[i, 1], rules)
        i += 1
    partie_settle(state, rules, row)
    return row


@njit_inline
def _partie_span(seed, first, count, play, pair, rules, out, row0):
    """Mirrored parties ``first .. first+count-1`` of ``seed``, their deal pairs played by
    ``play`` (``match.bundled_pair`` or ``simple_deal.simple_pair``, given ``pair``): rows
    ``row0 ..`` of ``out``."""
    states = np.zeros((2, L.PST_LEN), dtype=np.int64)
    row = np.zeros(L.PROW_LEN, dtype=np.int64)
    for i in range(count):
        p = first + i
        partie_reset(states[0])
        partie_reset(states[1])
        d = 0
        while states[0, L.PST_DONE] == 0 or states[1, L.PST_DONE] == 0:
            index = p * DEAL_STRIDE + d
            # version v has A elder at deal d when (d + v) is even
            need_ab = (states[0, L.PST_DONE] == 0 and d % 2 == 0) or (
                states[1, L.PST_DONE] == 0 and d % 2 == 1
            )
            need_ba = (states[0, L.PST_DONE] == 0 and d % 2 == 1) or (
                states[1, L.PST_DONE] == 0 and d % 2 == 0
            )
            rec_ab, rec_ba = play(seed, index, (need_ab, need_ba), pair)
            for v in range(2):
                if states[v, L.PST_DONE] == 0:
                    if (d + v) % 2 == 0:  # A elder
                        a_pts = rec_ab[L.REC_ELDER + L.RF_TOTAL]
                        b_pts = rec_ab[L.REC_YOUNGER + L.RF_TOTAL]
                    else:
                        a_pts = rec_ba[L.REC_YOUNGER + L.RF_TOTAL]
                        b_pts = rec_ba[L.REC_ELDER + L.RF_TOTAL]
                    partie_add(states[v], a_pts, b_pts, rules)
            d += 1
        for v in range(2):
            partie_settle(states[v], rules, row)
            for f in range(L.PROW_LEN):
                out[row0 + i, v, f] = row[f]


@njit
def _bundled_span(seed, first, count, stages_ab, stages_ba, share, ws, out, row0):
    pair = (stages_ab, stages_ba, share, ws, new_scratch(), new_scratch())
    _partie_span(seed, first, count, bundled_pair, pair, ws.env.rules, out, row0)


@njit
def _simple_span(seed, first, count, stages_ab, stages_ba, share, env, out, row0, general):
    seats = (own_stages(stages_ab), own_stages(stages_ba))
    own = own_env(env)
    pair = (seats, share, own, deal_work(), pair_records(), general)
    _partie_span(seed, first, count, simple_pair, pair, own.rules, out, row0)


def _parties_on_threads(span_kernel, seed, start, n, pairing, work, n_spans):
    """Parties start..start+n-1 of ``seed`` cut into ``n_spans`` spans on threads
    (``core.engine.jit_threads``), each played by ``span_kernel`` (``pairing`` = (stages_ab,
    stages_ba, share), then ``work()``: the span's workspace or the ``Env``)."""
    out = np.zeros((n, 2, L.PROW_LEN), dtype=np.int32)
    stages_ab, stages_ba, share = pairing

    def run(s: int) -> None:
        first, count = span_range_py(n, n_spans, s)
        if count > 0:
            span_kernel(seed, start + first, count, stages_ab, stages_ba, share, work(), out, first)

    run_spans(run, n_spans)
    return out


@driver(_bundled_span, new_workspace)
def mirrored_parties(seed, start, n, stages_ab, stages_ba, share, env, n_spans, tt_bits):
    """Parties start..start+n-1 of ``seed``, each played as version 0 (A elder first) and
    version 1 (B elder first) on the same deals: int32[n, 2, PROW_LEN] rows, A's view.
    Parallel over ``n_spans`` spans on threads; rows do not depend on the span or thread
    count."""

    def work():
        return new_workspace(env, tt_bits, tt_bits > 1)

    pairing = (stages_ab, stages_ba, share)
    return _parties_on_threads(_bundled_span, seed, start, n, pairing, work, n_spans)


@driver(_simple_span)
def simple_mirrored_parties(seed, start, n, stages_ab, stages_ba, share, env, n_spans, tt_bits):
    """:func:`mirrored_parties` (same arguments, same rows) when each seat of both seatings
    plays greedy, random or heuristic (``simple_deal.plays_fast``; else ValueError); no solver,
    ``tt_bits`` unused."""
    if not (plays_fast.py_func(stages_ab.ids) and plays_fast.py_func(stages_ba.ids)):
        raise ValueError(
            "simple_mirrored_parties: a play policy is not greedy, random or heuristic"
        )
    pairing = (stages_ab, stages_ba, share)
    # None: the heuristic's general arithmetic is not compiled
    general = general_of(stages_ab, stages_ba)

    def span(*args) -> None:
        _simple_span(*args, general)

    return _parties_on_threads(span, seed, start, n, pairing, lambda: env, n_spans)
