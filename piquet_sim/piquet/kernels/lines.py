"""Where a card's double-dummy line ends: each player's points and the tricks, not only the net.

The solver values a card by the net points of the rest of the deal (elder minus younger). The
partie objective needs each player's total (who reaches the rubicon), and a tie between cards of
equal value is broken by who wins the cards: both come from following the principal variation
after the card to the last trick, as ``solver.solve_line`` follows it from a trick start.
"""

from __future__ import annotations

from ...core.engine.bits import popcount32
from ...core.engine.jit import njit
from ..rules import RuleSlot
from .solver import after_trick, best_lead, best_reply
from .tricks import cards_bonus, trick_points


@njit
def line_points(pos, lead, card, value, ws, out):
    """Follow the double-dummy line after ``card`` to the end of the deal.

    ``pos``: the trick-start position (elder's hand, younger's, leader, elder's tricks, pique
    state normalized), the card led (``lead``, -1 when ``card`` is the lead) back in the
    leader's hand; ``value``: the exact value of playing ``card`` there (elder minus younger,
    the rest of the deal, this trick included: what ``mtdf`` or ``pimc.reply_value`` gives).
    The other side answers with the first reply keeping that value, then both follow the
    principal variation. ``out`` (int64[3]) gets elder's points gained in the rest of the deal
    (play, pique, cards or capot), younger's, and elder's trick total at the end."""
    ten = ws.env.rules[RuleSlot.LEAD_POINTS]
    n = popcount32(pos[0])
    if lead < 0:
        c = card
        d = best_reply(pos, c, value, ws)
    else:
        c = lead
        d = card
    gain_e = 0
    gain_y = 0
    v = value
    while True:
        _, _, pe, py, qe, qy = trick_points(c, d, pos[2], ten, pos[4], 1 if n == 1 else 0)
        gain_e += pe + qe
        gain_y += py + qy
        pos, net, n = after_trick(pos, c, d, ten, n)
        v -= net
        if n == 0:
            break
        c = best_lead(pos, v, ws)
        d = best_reply(pos, c, v, ws)
    bonus = cards_bonus(pos[3])
    if bonus > 0:
        gain_e += bonus
    else:
        gain_y -= bonus
    out[0] = gain_e
    out[1] = gain_y
    out[2] = pos[3]


#: The kernels a first use compiles (a compile notice names them).
ENTRY = (line_points,)

__all__ = ["ENTRY", "line_points"]
