"""The rules of one trick: legal replies, who wins, which play points score, and pique.

Source: ``docs/rules/piquet.md``, "Play" and "Pique". No trumps; follow suit if able, else any card;
the higher card of the suit led wins; the winner leads next. Play points (``lead_points``):

* ``"every"`` (default): the leader scores 1 when he leads (before the reply); the second player
  scores 1 for winning the trick;
* ``"ten_or_higher"``: a lead scores only with a ten or higher; winning the opponent's lead
  scores only with a winning card of ten or higher;
* the winner of the last trick scores 1 more (either rule).

Cards (10, capot 40) are scored after the last trick and never count toward a pique.

Pique is tracked as one small int, the *pique state* ``ps`` (design choice: the smallest state
that decides every future pique, so the solver can key its table on it):

* ``0``: nobody can pique any more (repique happened, a pique was scored, both players have
  scored, or the player who could pique cannot reach 30 in the tricks left);
* ``PS_ELDER * 32 + need`` / ``PS_YOUNGER * 32 + need``: that player may still pique; his
  opponent has scored nothing in the deal; he needs ``need`` (1..31) more points.

A player scores at most 1 play point per trick plus 1 for the last trick, so with ``n`` tricks
left a pique is possible only when ``need <= n + 1`` (:func:`pique_normalize`). When neither
player has scored yet, each would need 30 play points: impossible, so that state is ``0`` too.

Perspective everywhere: player 0 is elder, 1 is younger; "net" means elder minus younger.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.jit import njit

ELDER = 0
YOUNGER = 1
PS_NONE = 0
PS_ELDER = 1
PS_YOUNGER = 2
PIQUE_POINTS = 30
PIQUE_TARGET = 30
CARDS_POINTS = 10
CAPOT_POINTS = 40
TEN_RANK = 3  # rank index of the ten
N_TRICKS = 12
SUIT_BITS = np.int64(0xFF)


@njit
def suit_of(card):
    """Suit 0..3 of a card index."""
    return card >> 3


@njit
def legal_replies(hand, lead_card):
    """Mask of the cards of ``hand`` that may answer ``lead_card``: its suit if held, else all."""
    same = hand & (SUIT_BITS << (lead_card & 0x18))
    return same if same != 0 else hand


@njit
def reply_wins(lead_card, reply_card):
    """True when the reply beats the lead: same suit and higher rank."""
    return (reply_card >> 3) == (lead_card >> 3) and reply_card > lead_card


@njit
def lead_scores(lead_card, ten_rule):
    """1 when leading this card scores a play point under the rule (``ten_rule`` 0/1)."""
    return 1 if (ten_rule == 0 or (lead_card & 7) >= TEN_RANK) else 0


@njit
def win_scores(reply_card, ten_rule):
    """1 when winning the opponent's lead with this card scores a play point."""
    return 1 if (ten_rule == 0 or (reply_card & 7) >= TEN_RANK) else 0


@njit
def pique_normalize(ps, tricks_left):
    """``ps`` or 0 when the eligible player can no longer reach 30 in ``tricks_left`` tricks."""
    if ps != 0 and (ps & 31) > tricks_left + 1:
        return 0
    return ps


@njit
def pique_start(e_pts, y_pts, pique_open, tricks_left):
    """Pique state before a trick, from the deal's points so far (combinations, carte blanche
    and play points already scored; repique bonus excluded) and ``pique_open`` (0 when a
    repique or a pique already happened). A player whose total is already 30 or more while his
    opponent has 0 (only possible on inconsistent input) piques on his next play point."""
    if pique_open == 0 or (e_pts > 0 and y_pts > 0) or (e_pts == 0 and y_pts == 0):
        return 0
    if y_pts == 0:
        ps = PS_ELDER * 32 + max(1, PIQUE_TARGET - e_pts)
    else:
        ps = PS_YOUNGER * 32 + max(1, PIQUE_TARGET - y_pts)
    return pique_normalize(ps, tricks_left)


@njit
def pique_point(ps, player):
    """One play point to ``player``: returns (new state, 30 if that point makes his pique else 0).
    A point to the opponent of the eligible player ends every pique chance."""
    if ps == 0:
        return 0, 0
    if (ps >> 5) - 1 == player:
        need = (ps & 31) - 1
        if need == 0:
            return 0, PIQUE_POINTS
        return ps - 1, 0
    return 0, 0


@njit
def cards_bonus(elder_tricks):
    """Net cards points (elder minus younger) for elder's trick total out of 12."""
    if elder_tricks == N_TRICKS:
        return CAPOT_POINTS
    if elder_tricks == 0:
        return -CAPOT_POINTS
    if elder_tricks >= 7:
        return CARDS_POINTS
    if elder_tricks <= 5:
        return -CARDS_POINTS
    return 0


@njit
def trick_points(lead_card, reply_card, leader, ten_rule, ps, last):
    """Score one trick in event order (lead point, win point, last-trick point), checking pique
    after each. Returns (winner, new pique state, elder play, younger play, elder pique,
    younger pique) gained in this trick; the state is not normalized."""
    gain_e = 0
    gain_y = 0
    pique_e = 0
    pique_y = 0
    if lead_scores(lead_card, ten_rule):
        ps, b = pique_point(ps, leader)
        if leader == ELDER:
            gain_e += 1
            pique_e += b
        else:
            gain_y += 1
            pique_y += b
    winner = leader
    if reply_wins(lead_card, reply_card):
        winner = 1 - leader
        if win_scores(reply_card, ten_rule):
            ps, b = pique_point(ps, winner)
            if winner == ELDER:
                gain_e += 1
                pique_e += b
            else:
                gain_y += 1
                pique_y += b
    if last:
        ps, b = pique_point(ps, winner)
        if winner == ELDER:
            gain_e += 1
            pique_e += b
        else:
            gain_y += 1
            pique_y += b
    return winner, ps, gain_e, gain_y, pique_e, pique_y


@njit
def play_trick(lead_card, reply_card, leader, ten_rule, ps, last, gain):
    """:func:`trick_points` into ``gain`` (int32[4]: elder play, younger play, elder pique,
    younger pique). Returns (winner, new pique state)."""
    winner, ps, gain[0], gain[1], gain[2], gain[3] = trick_points(
        lead_card, reply_card, leader, ten_rule, ps, last
    )
    return winner, ps


@njit
def trick_net(lead_card, reply_card, leader, ten_rule, ps, last):
    """(winner, net points elder minus younger including pique, new pique state) of a trick;
    the allocation-free twin of :func:`play_trick` for the search."""
    net = 0
    sign = 1 if leader == ELDER else -1
    if lead_scores(lead_card, ten_rule):
        net += sign
        ps, b = pique_point(ps, leader)
        net += sign * b
    winner = leader
    if (reply_card >> 3) == (lead_card >> 3) and reply_card > lead_card:
        winner = 1 - leader
        sign = -sign
        if win_scores(reply_card, ten_rule):
            net += sign
            ps, b = pique_point(ps, winner)
            net += sign * b
    if last:
        net += sign
        ps, b = pique_point(ps, winner)
        net += sign * b
    return winner, net, ps
