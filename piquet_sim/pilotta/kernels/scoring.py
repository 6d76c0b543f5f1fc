"""Scoring a round (the spec's "Scoring a round", steps 1 to 5) into a :class:`layouts.Score`.

Inputs are the play's outcome (NS card points with the last trick, NS tricks), the contract
(contracting team, bid in points or ``BID_CAPOT``), the combinations each team scores after the
comparison and the pilotta holder's team. Points are card-point units up to step 3, game points
after (``*_GP_*``).
"""

from __future__ import annotations

from ...core.engine.jit import njit
from ..layouts import BID_CAPOT, BID_CAPOT_GP, Score
from ..rules import RuleSlot
from .tables import CAPOTS


@njit
def drop_digit(a, b, total):
    """Game points of two teams' points ``a`` and ``b`` (sum ``total``): each divided by 10
    rounded down; when the two fall one short of ``total // 10``, the extra point goes to the
    larger dropped digit, and on equal digits to the team with more points (``a`` on a tie)."""
    ga = a // 10
    gb = b // 10
    if ga + gb < total // 10:
        da = a % 10
        db = b % 10
        if da > db or (da == db and a >= b):
            ga += 1
        else:
            gb += 1
    return ga, gb


@njit
def score_round(raw_ns, tricks_ns, c_team, bid, comb_ns, comb_ew, pilotta_team, rules, out):
    """Score a played round into ``out`` (int32[Score.LEN]).

    Step 1 gives a capot ``capot_points`` (250, or 252). raw_ns: card points NS took in play,
    last trick (10) included (EW has the rest of 162, or
    160 under trump K 3 Q 2); tricks_ns: tricks NS took (0..8); c_team: contracting team
    (0 NS, 1 EW); bid: 80..160 or BID_CAPOT; comb_ns/comb_ew: combination points each team
    scores after the comparison (card-point units; at most one is non-zero); pilotta_team:
    team holding K+Q of trumps (-1 none)."""
    total = 160 if rules[RuleSlot.TRUMP_KQ_POINTS] else 162
    capot_points = CAPOTS[rules[RuleSlot.CAPOT_POINTS]]
    raw = (raw_ns, total - raw_ns)
    tricks = (tricks_ns, 8 - tricks_ns)
    capot = -1
    card0 = raw[0]
    card1 = raw[1]
    if tricks_ns == 8:
        capot = 0
        card0 = capot_points
        card1 = 0
    elif tricks_ns == 0:
        capot = 1
        card0 = 0
        card1 = capot_points
    out[Score.CARD_NS] = card0
    out[Score.CARD_EW] = card1
    out[Score.CAPOT_TEAM] = capot
    d_team = 1 - c_team
    c_card = card0 if c_team == 0 else card1
    c_comb = comb_ns if c_team == 0 else comb_ew
    c_pil = 20 if pilotta_team == c_team else 0
    if bid == BID_CAPOT:
        made = 1 if tricks[c_team] == 8 else 0
    else:
        reach = c_card if rules[RuleSlot.CONTRACT_ON_CARD_POINTS_ONLY] else c_card + c_comb + c_pil
        made = 1 if reach >= bid else 0
    out[Score.MADE] = made
    final0 = card0
    final1 = card1
    if not made:
        everything = capot_points if capot >= 0 else total
        if d_team == 0:
            final0 = everything
            final1 = 0
        else:
            final0 = 0
            final1 = everything
    out[Score.FINAL_NS] = final0
    out[Score.FINAL_EW] = final1
    g0, g1 = drop_digit(final0, final1, final0 + final1)
    out[Score.CARD_GP_NS] = g0
    out[Score.CARD_GP_EW] = g1
    bid_gp = BID_CAPOT_GP if bid == BID_CAPOT else bid // 10
    bid_team = c_team if made else d_team
    out[Score.BID_GP_NS] = bid_gp if bid_team == 0 else 0
    out[Score.BID_GP_EW] = bid_gp if bid_team == 1 else 0
    comb0 = comb_ns // 10
    comb1 = comb_ew // 10
    if not made and rules[RuleSlot.FAILED_CONTRACT_LOSES_DECLARATIONS]:
        if c_team == 0:
            comb1 += comb0
            comb0 = 0
        else:
            comb0 += comb1
            comb1 = 0
    out[Score.COMB_GP_NS] = comb0
    out[Score.COMB_GP_EW] = comb1
    out[Score.PILOTTA_GP_NS] = 2 if pilotta_team == 0 else 0
    out[Score.PILOTTA_GP_EW] = 2 if pilotta_team == 1 else 0
    out[Score.TOTAL_NS] = g0 + out[Score.BID_GP_NS] + comb0 + out[Score.PILOTTA_GP_NS]
    out[Score.TOTAL_EW] = g1 + out[Score.BID_GP_EW] + comb1 + out[Score.PILOTTA_GP_EW]
