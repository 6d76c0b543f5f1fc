"""Exact probabilities of the deal, by counting (``math.comb``): the pack is 52 cards and each
of ``players`` seats receives 6, so ``6 * players`` cards are in play and the rest unused.

Perspective: "my" is one seat (seat 0 in the odds tables; the hand given to ``pitch hand``).
"""

from __future__ import annotations

from math import comb

from .cards import HAND_SIZE, N_CARDS


def in_play(players: int) -> int:
    """Cards dealt in a round."""
    return HAND_SIZE * players


def p_card_in_play(players: int) -> float:
    """P(a given card is dealt to somebody)."""
    return in_play(players) / N_CARDS


def p_suit_count_in_play(players: int, t: int) -> float:
    """P(exactly ``t`` cards of a given suit are in play)."""
    d = in_play(players)
    return comb(13, t) * comb(39, d - t) / comb(52, d)


def p_my_suit_count(k: int) -> float:
    """P(exactly ``k`` cards of a given suit in my six)."""
    return comb(13, k) * comb(39, HAND_SIZE - k) / comb(52, HAND_SIZE)


def p_my_suit_at_least(k: int) -> float:
    """P(at least ``k`` cards of a given suit in my six)."""
    return sum(p_my_suit_count(j) for j in range(k, HAND_SIZE + 1))


def p_card_is_extreme(players: int, others_beyond: int) -> float:
    """P(a card I hold is the highest (or lowest) of its suit in play, given only that I hold
    it): none of the ``others_beyond`` cards above (below) it is among the other ``6n - 1``
    cards dealt out of the remaining 51."""
    m = in_play(players) - 1
    return comb(51 - others_beyond, m) / comb(51, m)


def p_i_hold_top(players: int) -> float:
    """P(my hand holds the highest card of a given suit in play): by symmetry 1/n of P(the suit
    is in play at all)."""
    return (1 - comb(39, in_play(players)) / comb(52, in_play(players))) / players


def p_none_to_others(players: int, unseen_count: int) -> float:
    """Given my six cards, P(none of ``unseen_count`` given unseen cards is dealt to the other
    players): they receive ``6 (n - 1)`` of the 46 unseen cards."""
    m = HAND_SIZE * (players - 1)
    return comb(46 - unseen_count, m) / comb(46, m)
