"""Playing out the twelve tricks of a deal: the play policies and the one trick loop.

The rules of a trick (legal replies, who wins, play points, pique) are in ``tricks.py``; the
exact solver in ``solver.py``; pimc in ``pimc.py``. Play policies are data (``policies.py``: an
id and a row of parameters), dispatched in :func:`player_card`:

* ``random``: a uniform legal card, drawn with ``rng.bounded``;
* ``greedy``: a human-like rule on public information (own hand and cards played): lead a master
  card (higher than every unseen card of its suit) from the longest suit holding one, else the
  lowest card of the longest suit; follow with the cheapest winning card, else the lowest card of
  the suit; when void, throw the lowest card of the weakest suit (lowest top card, masters
  counting as strength), sparing a lone guard of a queen or king;
* ``dd``: the double-dummy move (exact solver on both hands; an oracle);
* ``pimc``: sampled worlds consistent with the player's knowledge, each solved exactly
  (params: worlds per decision, sampler attempts);
* ``heuristic``: card counting on the player's knowledge, guard-keeping leads and discards,
  capot defence (``heuristic.py``);
* ``pimcw``: pimc over worlds weighted by the likelihood of the opponent's play so far under
  the heuristic's (``pimcw.py``).

Output record (``sc.play``, int32[PO_LEN]): play points (leads, wins of the opponent's leads,
last trick), tricks, cards (10, 40 or 0) and pique (30 or 0) per player.
"""

from __future__ import annotations

import numpy as np

from ...core.engine.bits import high_index, low_index, popcount, popcount32, select_bit
from ...core.engine.jit import njit, njit_inline
from ...core.engine.jit_threads import driver, for_spans
from ...core.engine.rng import bounded, stream_key
from ..policies import PLAY_DD, PLAY_GREEDY, PLAY_HEURISTIC, PLAY_PIMC, PLAY_PIMCW, PLAY_RANDOM
from ..rules import RuleSlot
from . import layouts as L
from .bundles import Scratch
from .deal import N_PACK, deal_hands
from .heuristic import heuristic_turn, seat_setup, table_turn
from .pimc import pimc_decide
from .pimcw import pimcw_decide
from .solver import best_lead, best_reply, lead_value, new_workspace, solve_position
from .tricks import (
    ELDER,
    N_TRICKS,
    SUIT_BITS,
    cards_bonus,
    legal_replies,
    pique_normalize,
    pique_start,
    trick_points,
)

BATCH_CHUNKS = 64  # fixed, so results never depend on the thread count
FULL = np.int64(0xFFFFFFFF)


@njit
def random_card(mask, key, rng_state):
    """A uniform card of a non-empty mask: the k-th lowest for one ``bounded`` draw k (no draw
    when only one card is legal)."""
    n = popcount32(mask)
    if n == 1:
        return low_index(mask)
    return select_bit(mask, bounded(key, rng_state, n))


@njit
def _is_master(card, unseen):
    """True when no unseen card of the card's suit ranks above it."""
    above = (SUIT_BITS << (card & 0x18)) & ~((np.int64(2) << card) - 1)
    return (unseen & above) == 0


@njit_inline
def greedy_lead(hand, unseen):
    """Greedy lead: a master from the longest suit holding one, else the lowest card of the
    longest suit (ties: the higher top card)."""
    best_master = -1
    best_master_len = -1
    best_low = -1
    best_low_key = -1
    for s in range(4):
        h = hand & (SUIT_BITS << (8 * s))
        if h == 0:
            continue
        n = popcount(h)
        top = high_index(h)
        if _is_master(top, unseen) and n > best_master_len:
            best_master = top
            best_master_len = n
        k = n * 8 + (top & 7)
        if k > best_low_key:
            best_low_key = k
            best_low = low_index(h)
    return best_master if best_master >= 0 else best_low


@njit_inline
def greedy_reply(hand, lead, unseen):
    """Greedy reply: the cheapest winner, else the lowest card of the suit; void, the lowest
    card of the weakest suit (see module docstring)."""
    legal = legal_replies(hand, lead)
    same = legal & (SUIT_BITS << (lead & 0x18))
    if same:
        winners = same & ~((np.int64(2) << lead) - 1)
        if winners:
            return low_index(winners)
        return low_index(same)
    best = -1
    best_key = 1 << 30
    for s in range(4):
        h = hand & (SUIT_BITS << (8 * s))
        if h == 0:
            continue
        n = popcount(h)
        top = high_index(h)
        strength = top & 7
        if _is_master(top, unseen):
            strength += 8
        if n == 2 and (top & 7) >= 5 and strength < 8:
            strength += 4  # the low card guards a queen or king
        k = strength * 16 + n
        if k < best_key:
            best_key = k
            best = low_index(h)
    return best


@njit_inline
def choose_lead(policy, hand, played, key, rng_state):
    """The lead of a random or greedy player holding ``hand`` (``played``: cards gone)."""
    if policy == PLAY_GREEDY:
        return greedy_lead(hand, FULL & ~(hand | played))
    return random_card(hand, key, rng_state)


@njit_inline
def choose_reply(policy, hand, lead, played, key, rng_state):
    """The reply to ``lead`` of a random or greedy player holding ``hand`` (``played``: cards of
    the finished tricks)."""
    if policy == PLAY_GREEDY:
        return greedy_reply(hand, lead, FULL & ~(hand | played))
    return random_card(legal_replies(hand, lead), key, rng_state)


@njit
def dd_lead(pos, ws):
    """The double-dummy lead (first optimal card by index) of the position ``pos``."""
    return best_lead(pos, solve_position(pos, ws), ws)


@njit
def dd_reply(pos, lead, ws):
    """The double-dummy reply to ``lead`` (first optimal card by index)."""
    return best_reply(pos, lead, lead_value(pos, lead, ws), ws)


@njit_inline
def pimc_card(params, seat, view, key, state, ws, sc):
    """The pimc card of ``seat`` (:func:`player_card`'s arguments): its knowledge state, its
    params row read as the sampler's settings."""
    know = sc.know_e if seat == 0 else sc.know_y
    sampler = (
        np.int64(params[0]),
        np.int64(params[1]),
        np.int64(params[2]),
        np.int64(params[3]),
        params[4],
        np.int64(params[5]),
    )
    return pimc_decide(seat, view, know, sampler, key, state, ws, sc.pimc, sc.worlds[seat])


@njit_inline
def pimcw_card(params, seat, view, key, state, ws, sc):
    """The pimcw card of ``seat`` (:func:`player_card`'s arguments): its knowledge state, the
    cards played so far (``sc.line``), the player's cards the opponent knows (his knowledge's
    ``KNOW_IN``: what the player showed and talon cards both saw), its params row read as
    ``pimcw.pimcw_decide``'s sampler."""
    know = sc.know_e if seat == 0 else sc.know_y
    other = sc.know_y if seat == 0 else sc.know_e
    sampler = (
        np.int64(params[0]),
        np.int64(params[1]),
        np.int64(params[2]),
        np.int64(params[3]),
        params[4],
        np.int64(params[5]),
        params[6],
        params[7],
        np.int64(params[8]),
    )
    weigh = (sc.line, other[L.KNOW_IN])
    return pimcw_decide(seat, view, know, weigh, sampler, key, state, ws, sc.pimc)


@njit_inline
def dd_card(view, hands, ws):
    """The double-dummy card of the seat to play (:func:`player_card`'s ``view`` and
    ``hands``): the oracle looks at both hands."""
    _, leader, lead, et, ps, _, _, _ = view
    pos = (hands[0], hands[1], leader, et, ps)
    return dd_lead(pos, ws) if lead < 0 else dd_reply(pos, lead, ws)


@njit_inline
def simple_card(policy, view, key, state):
    """The greedy or random card of the seat to play (:func:`player_card`'s ``view``)."""
    own, _, lead, _, _, played, _, _ = view
    if lead < 0:
        return choose_lead(policy, own, played, key, state)
    return choose_reply(policy, own, lead, played, key, state)


@njit
def player_card(policy, params, seat, view, hands, key, state, ws, sc):
    """The card ``seat`` (0 elder, 1 younger) plays under play policy ``policy`` (its params
    row ``params``): pimc, pimcw, dd, else greedy or random (:func:`trick_loop` plays greedy,
    random and heuristic seats itself, so only the solver plays reach this). ``view`` is what
    he sees: (own hand, leader, card led or -1, elder's tricks, pique state normalized, cards of
    the finished tricks, the opponent's share of them, the suits the opponent has shown void
    in); ``hands`` = (elder's, younger's): only the oracle
    (dd) looks at both. Random draws continue the stream (``key``, ``state``)."""
    if policy == PLAY_PIMC:
        return pimc_card(params, seat, view, key, state, ws, sc)
    if policy == PLAY_PIMCW:
        return pimcw_card(params, seat, view, key, state, ws, sc)
    if policy == PLAY_DD:
        return dd_card(view, hands, ws)
    return simple_card(policy, view, key, state)


@njit
def pimc_dd_card(policy, params, seat, view, hands, key, state, ws, sc):
    """:func:`player_card` for seats playing pimc or dd (:data:`PIMC_DD_PLAYS`): without
    pimcw, whose world weighting compiles about as long as pimc; a pimcw seat reaching it would
    play greedy."""
    if policy == PLAY_PIMC:
        return pimc_card(params, seat, view, key, state, ws, sc)
    if policy == PLAY_DD:
        return dd_card(view, hands, ws)
    return simple_card(PLAY_GREEDY, view, key, state)


@njit_inline
def write_play_record(out, e_play, y_play, e_tricks, e_pique, y_pique):
    """Write the ``PO_*`` record of a finished deal (cards and capot from the tricks) and
    return the net points of the play, elder minus younger."""
    cards = cards_bonus(e_tricks)
    e_cards = max(cards, 0)
    y_cards = max(-cards, 0)
    out[L.PO_E_PLAY] = e_play
    out[L.PO_Y_PLAY] = y_play
    out[L.PO_E_TRICKS] = e_tricks
    out[L.PO_Y_TRICKS] = N_TRICKS - e_tricks
    out[L.PO_E_CARDS] = e_cards
    out[L.PO_Y_CARDS] = y_cards
    out[L.PO_E_PIQUE] = e_pique
    out[L.PO_Y_PIQUE] = y_pique
    return (e_play + e_cards + e_pique) - (y_play + y_cards + y_pique)


@njit_inline
def is_simple(policy):
    """True for the play policies that read neither bundle (greedy, random)."""
    return (policy == PLAY_GREEDY) | (policy == PLAY_RANDOM)


@njit
def play_simple(elder, younger, policies, start, key, state, ten, line):
    """:func:`play_deal` when both seats play greedy or random (``policies`` = (elder's id,
    younger's)): the same tricks and draws, with no bundle handed in (a call given ``ws`` and
    ``sc`` reference-counts every array in them, which costs more than the greedy play). The
    cards played go into ``line``. Returns (elder's play points, younger's, elder's tricks,
    elder's pique, younger's pique)."""
    # A twin of play_fast's loop without its void tracking and heuristic branches, kept because
    # greedy deals played through play_fast ran 8% slower (heur6's playouts); the shared trick
    # scoring is trick_points.
    e_pol, y_pol = policies
    E = np.int64(elder)
    Y = np.int64(younger)
    ps = pique_start(start[0], start[1], 1 - start[2], np.int64(N_TRICKS))
    leader = np.int64(ELDER)
    et = np.int64(0)
    played = np.int64(0)
    e_play = 0
    y_play = 0
    e_pique = 0
    y_pique = 0
    for t in range(N_TRICKS):
        # as choose_lead / choose_reply, with ``state`` named only where a random seat draws
        # (an array bound to a variable of an inlined helper is reference-counted per trick)
        if leader == ELDER:
            lh = E
            fh = Y
            l_pol = e_pol
            f_pol = y_pol
        else:
            lh = Y
            fh = E
            l_pol = y_pol
            f_pol = e_pol
        if l_pol == PLAY_GREEDY:
            c = greedy_lead(lh, FULL & ~(lh | played))
        else:
            c = random_card(lh, key, state)
        if f_pol == PLAY_GREEDY:
            d = greedy_reply(fh, c, FULL & ~(fh | played))
        else:
            d = random_card(legal_replies(fh, c), key, state)
        if leader == ELDER:
            E &= ~(np.int64(1) << c)
            Y &= ~(np.int64(1) << d)
        else:
            Y &= ~(np.int64(1) << c)
            E &= ~(np.int64(1) << d)
        line[2 * t] = c
        line[2 * t + 1] = d
        played |= (np.int64(1) << c) | (np.int64(1) << d)
        winner, ps, ge, gy, pe, py = trick_points(c, d, leader, ten, ps, t == N_TRICKS - 1)
        e_play += ge
        y_play += gy
        e_pique += pe
        y_pique += py
        et += winner == ELDER
        leader = np.int64(winner)
    return e_play, y_play, et, e_pique, y_pique


@njit_inline
def is_fast(policy):
    """True for the play policies :func:`play_fast` plays on scalars (greedy, random,
    heuristic)."""
    return is_simple(policy) | (policy == PLAY_HEURISTIC)


def table_heuristic(stages) -> bool:
    """True when every heuristic play seat of ``stages`` is at depth 0 without tilt (params
    depth 0.0 and bias strictly between -1 and 1: ``heuristic.seat_setup`` truncates it to an
    integer), so ``heuristic.table_turn`` plays its cards (Python side)."""
    for row in (L.STAGE_ELDER_PLAY, L.STAGE_YOUNGER_PLAY):
        if stages.ids[row] == PLAY_HEURISTIC:
            depth, bias = stages.params[row, 0], stages.params[row, 2]
            if not (depth == 0.0 and -1.0 < bias < 1.0):
                return False
    return True


def general_of(*stages):
    """The ``general`` argument of :func:`play_fast` (and of the kernels that pass it on) for
    the stages a kernel plays: None when every heuristic seat of them is at depth 0 without
    tilt (:func:`table_heuristic`), else True."""
    return None if all(table_heuristic(s) for s in stages) else True


@njit
def play_fast(elder, younger, policies, seats, start, key, state, ten, line, general):
    """:func:`play_simple` when each seat plays greedy, random or heuristic: the same tricks,
    draws and cards as :func:`trick_loop`, on scalars only (``seats`` = (elder's, younger's)
    ``heuristic.seat_setup``, read once per deal; the trick loop, handed ``ws`` and ``sc``,
    reference-counts every array in them on each call). Returns as :func:`play_simple`.

    ``general`` None (:func:`general_of` stages whose heuristic seats are all at depth 0
    without tilt, the built-in strategies' default) plays heuristic seats by
    ``heuristic.table_turn``, the same cards without compiling the heuristic's general
    arithmetic (numba prunes a branch on an argument typed None before typing it); True by
    ``heuristic.heuristic_turn``, any depth."""
    turn = table_turn if general is None else heuristic_turn
    e_pol, y_pol = policies
    e_h, y_h = seats
    E = np.int64(elder)
    Y = np.int64(younger)
    ps = pique_start(start[0], start[1], 1 - start[2], np.int64(N_TRICKS))
    leader = np.int64(ELDER)
    et = np.int64(0)
    played = np.int64(0)
    e_voids = np.int64(0)  # suits elder has shown void in
    y_voids = np.int64(0)
    e_play = 0
    y_play = 0
    e_pique = 0
    y_pique = 0
    for t in range(N_TRICKS):
        # as trick_loop's seats, with ``state`` named only where a random seat draws
        if leader == ELDER:
            lh = E
            fh = Y
            l_pol = e_pol
            f_pol = y_pol
            l_h = e_h
            f_h = y_h
            l_seen = y_voids  # the suits the leader's opponent has shown void in
            f_seen = e_voids
            l_won = et
            f_won = t - et
        else:
            lh = Y
            fh = E
            l_pol = y_pol
            f_pol = e_pol
            l_h = y_h
            f_h = e_h
            l_seen = e_voids
            f_seen = y_voids
            l_won = t - et
            f_won = et
        if l_pol == PLAY_HEURISTIC:
            c = turn(lh, np.int64(-1), played, l_seen, l_h, l_won)
        elif l_pol == PLAY_GREEDY:
            c = greedy_lead(lh, FULL & ~(lh | played))
        else:
            c = random_card(lh, key, state)
        if f_pol == PLAY_HEURISTIC:
            d = turn(fh, np.int64(c), played, f_seen, f_h, f_won)
        elif f_pol == PLAY_GREEDY:
            d = greedy_reply(fh, c, FULL & ~(fh | played))
        else:
            d = random_card(legal_replies(fh, c), key, state)
        void = (d >> 3) != (c >> 3)
        suit = SUIT_BITS << (c & 0x18)
        if leader == ELDER:
            E &= ~(np.int64(1) << c)
            Y &= ~(np.int64(1) << d)
            if void:
                y_voids |= suit
        else:
            Y &= ~(np.int64(1) << c)
            E &= ~(np.int64(1) << d)
            if void:
                e_voids |= suit
        line[2 * t] = c
        line[2 * t + 1] = d
        played |= (np.int64(1) << c) | (np.int64(1) << d)
        winner, ps, ge, gy, pe, py = trick_points(c, d, leader, ten, ps, t == N_TRICKS - 1)
        e_play += ge
        y_play += gy
        e_pique += pe
        y_pique += py
        et += winner == ELDER
        leader = np.int64(winner)
    return e_play, y_play, et, e_pique, y_pique


@njit_inline
def play_if_simple(elder, younger, ids, start, key, state, ten, line, out):
    """The one place that decides whether a deal is played without bundles: when both seats
    play greedy or random (``ids``: the stage policy ids), play it with :func:`play_simple`,
    write its ``PO_*`` record into ``out`` and return True; else play nothing and return False
    (the caller then plays the deal through its trick loop, :func:`play_deal` or
    ``screen.table_play_deal``; or :func:`play_if_fast`). Plain arrays only: a call handed
    ``ws`` and ``sc``, or an inlined helper taking them, reference-counts every array in them,
    which costs more than the greedy play. ``ten``: ``rules[RULE_LEAD_TEN_OR_HIGHER]``."""
    e_pol = ids[L.STAGE_ELDER_PLAY]
    y_pol = ids[L.STAGE_YOUNGER_PLAY]
    if not (is_simple(e_pol) and is_simple(y_pol)):
        return False
    pols = (np.int64(e_pol), np.int64(y_pol))
    e_play, y_play, et, e_pique, y_pique = play_simple(
        elder, younger, pols, start, key, state, ten, line
    )
    write_play_record(out, e_play, y_play, et, e_pique, y_pique)
    return True


@njit_inline
def play_if_fast(elder, younger, stages, know, start, key, state, ten, line, out, general):
    """After :func:`play_if_simple` declined: a deal where each seat plays greedy, random or
    heuristic played by :func:`play_fast` (``know`` = (elder's knowledge state, younger's): a
    heuristic seat reads his cards known in and out), its ``PO_*`` record into ``out``, True;
    else False. For loops that play many deals (:func:`play_batch`); the bundled full-deal loop
    keeps :func:`play_if_simple` alone, so the advisor's screen compiles no second copy of the
    heuristic (its cold start)."""
    e_pol = stages.ids[L.STAGE_ELDER_PLAY]
    y_pol = stages.ids[L.STAGE_YOUNGER_PLAY]
    if not (is_fast(e_pol) and is_fast(y_pol)):
        return False
    pols = (np.int64(e_pol), np.int64(y_pol))
    seats = (
        seat_setup(know[0], stages.params[L.STAGE_ELDER_PLAY]),
        seat_setup(know[1], stages.params[L.STAGE_YOUNGER_PLAY]),
    )
    e_play, y_play, et, e_pique, y_pique = play_fast(
        elder, younger, pols, seats, start, key, state, ten, line, general
    )
    write_play_record(out, e_play, y_play, et, e_pique, y_pique)
    return True


@njit
def play_deal(elder, younger, stages, start, key, state, ws, sc):
    """Play a full deal from elder's first lead with every play policy of the registry (see
    :func:`trick_loop`; ``player_card`` chooses the cards of pimc and dd seats). Callers that
    play many deals try :func:`play_if_simple` first."""
    return trick_loop(
        elder, younger, stages, start, key, state, ws, sc, player_card, heuristic_turn
    )


#: The plays :func:`pimc_dd_play_deal` plays as :func:`play_deal` does (no pimcw, no heuristic).
PIMC_DD_PLAYS = (PLAY_RANDOM, PLAY_GREEDY, PLAY_PIMC, PLAY_DD)


def plays_within(stages, plays) -> bool:
    """True when both play seats of ``stages`` play one of ``plays`` (Python side: a caller
    choosing the trick loop a kernel compiles)."""
    rows = (L.STAGE_ELDER_PLAY, L.STAGE_YOUNGER_PLAY)
    return all(int(stages.ids[r]) in plays for r in rows)


@njit_inline
def greedy_turn(own, lead, played, voids, seat, won):
    """A stand-in for ``heuristic.heuristic_turn`` (same arguments) in a trick loop that no
    heuristic seat reaches: the greedy card, without compiling the heuristic."""
    unseen = FULL & ~(own | played)
    if lead < 0:
        return greedy_lead(own, unseen)
    return greedy_reply(own, lead, unseen)


@njit
def pimc_dd_play_deal(elder, younger, stages, start, key, state, ws, sc):
    """:func:`play_deal` (same arguments, record and net) for stages whose seats play
    :data:`PIMC_DD_PLAYS` only (``sink``'s plays and its double-dummy comparison): without
    pimcw or the heuristic."""
    return trick_loop(elder, younger, stages, start, key, state, ws, sc, pimc_dd_card, greedy_turn)


@njit_inline
def trick_loop(elder, younger, stages, start, key, state, ws, sc, card, turn):
    """Play a full deal from elder's first lead; write the ``PO_*`` record into ``sc.play`` and
    the cards played into ``sc.line`` (lead, reply per trick). ``card``: the dispatcher of
    the other seats (pimc, dd), with :func:`player_card`'s arguments (``play_deal`` passes
    ``player_card``; ``screen.table_play_deal`` a smaller one without the solver plays).
    Greedy, random and heuristic seats are played here directly (a deal where both seats play
    greedy or random is best played by :func:`play_if_simple`), a heuristic seat by ``turn``:
    ``heuristic.heuristic_turn``, or ``heuristic.table_turn`` when every heuristic seat is at
    depth 0 without tilt (``screen.table_play_deal``: it never compiles the arithmetic).

    ``elder``/``younger``: 12-card masks. ``stages``: the deal's stage policies (play rows
    ``STAGE_ELDER_PLAY`` / ``STAGE_YOUNGER_PLAY``). ``start`` = (elder's points before play,
    younger's: combinations and carte blanche, repique bonus excluded; 1 when a repique was
    scored, so no pique). Random draws come only from ``rng.bounded(key, state, n)``. ``ws``:
    the thread's solver workspace (rules, tables; dd and pimc search with it). A pimc player
    reads his knowledge from ``sc.know_e`` / ``sc.know_y`` and counts into ``sc.pimc``.
    Returns the net points of the play (elder minus younger: play, cards and pique).
    """
    ten = ws.env.rules[RuleSlot.LEAD_POINTS]
    e_pol = stages.ids[L.STAGE_ELDER_PLAY]
    y_pol = stages.ids[L.STAGE_YOUNGER_PLAY]
    e_params = stages.params[L.STAGE_ELDER_PLAY]
    y_params = stages.params[L.STAGE_YOUNGER_PLAY]
    # greedy and random read neither bundle: called directly, since handing ``ws`` and ``sc`` to
    # player_card costs several times a greedy decision (every array in them is reference-counted)
    e_simple = is_simple(e_pol)
    y_simple = is_simple(y_pol)
    e_heur = e_pol == PLAY_HEURISTIC  # likewise, on scalars read once here
    y_heur = y_pol == PLAY_HEURISTIC
    e_h = seat_setup(sc.know_e, e_params)
    y_h = seat_setup(sc.know_y, y_params)
    # seats as plain int64 values (a literal 0 / 1 would compile ``card`` once per seat)
    e_seat = np.int64(0)
    y_seat = np.int64(1)
    E = np.int64(elder)
    Y = np.int64(younger)
    ps = pique_start(start[0], start[1], 1 - start[2], np.int64(N_TRICKS))
    leader = np.int64(ELDER)
    et = np.int64(0)
    played = np.int64(0)
    e_gone = np.int64(0)  # cards elder has played
    y_gone = np.int64(0)
    e_voids = np.int64(0)  # suits elder has shown void in
    y_voids = np.int64(0)
    e_play = 0
    y_play = 0
    e_pique = 0
    y_pique = 0
    for t in range(N_TRICKS):
        psn = pique_normalize(ps, N_TRICKS - t)
        hands = (E, Y)
        if leader == ELDER:
            if e_simple:
                c = choose_lead(e_pol, E, played, key, state)
            elif e_heur:
                c = turn(E, np.int64(-1), played, y_voids, e_h, et)
            else:
                view = (E, leader, np.int64(-1), et, psn, played, y_gone, y_voids)
                c = card(e_pol, e_params, e_seat, view, hands, key, state, ws, sc)
            if y_simple:
                d = choose_reply(y_pol, Y, c, played, key, state)
            elif y_heur:
                d = turn(Y, c, played, e_voids, y_h, t - et)
            else:
                view = (Y, leader, c, et, psn, played, e_gone, e_voids)
                d = card(y_pol, y_params, y_seat, view, hands, key, state, ws, sc)
        else:
            if y_simple:
                c = choose_lead(y_pol, Y, played, key, state)
            elif y_heur:
                c = turn(Y, np.int64(-1), played, e_voids, y_h, t - et)
            else:
                view = (Y, leader, np.int64(-1), et, psn, played, e_gone, e_voids)
                c = card(y_pol, y_params, y_seat, view, hands, key, state, ws, sc)
            if e_simple:
                d = choose_reply(e_pol, E, c, played, key, state)
            elif e_heur:
                d = turn(E, c, played, y_voids, e_h, et)
            else:
                view = (E, leader, c, et, psn, played, y_gone, y_voids)
                d = card(e_pol, e_params, e_seat, view, hands, key, state, ws, sc)
        cb = np.int64(1) << c
        db = np.int64(1) << d
        sc.line[2 * t] = c
        sc.line[2 * t + 1] = d
        void = (d >> 3) != (c >> 3)
        suit = SUIT_BITS << (c & 0x18)
        if leader == ELDER:
            E &= ~cb
            Y &= ~db
            e_gone |= cb
            y_gone |= db
            if void:
                y_voids |= suit
        else:
            Y &= ~cb
            E &= ~db
            y_gone |= cb
            e_gone |= db
            if void:
                e_voids |= suit
        played |= cb | db
        # events in order: lead point, win point, last-trick point; pique checked after each
        winner, ps, ge, gy, pe, py = trick_points(c, d, leader, ten, ps, t == N_TRICKS - 1)
        e_play += ge
        y_play += gy
        e_pique += pe
        y_pique += py
        if winner == ELDER:
            et += 1
        leader = np.int64(winner)
    return write_play_record(sc.play, e_play, y_play, et, e_pique, y_pique)


@njit
def new_scratch():
    """The per-thread ``bundles.Scratch`` of a simulated deal (knowledge left empty)."""
    return Scratch(
        np.empty(N_PACK, dtype=np.int8),
        np.zeros(1, dtype=np.int64),
        np.zeros(L.DECL_LEN, dtype=np.int32),
        np.zeros(L.PO_LEN, dtype=np.int32),
        np.zeros(L.REC_LEN, dtype=np.int32),
        np.zeros((2, 3), dtype=np.int64),
        np.zeros(L.KNOW_LEN, dtype=np.int64),
        np.zeros(L.KNOW_LEN, dtype=np.int64),
        np.zeros(L.PIMC_LEN, dtype=np.int64),
        np.zeros(2 * N_TRICKS, dtype=np.int8),
        np.zeros((2, L.PW_LEN), dtype=np.int64),
    )


@njit
def _play_span(seed, start, first, last, stages, pre, env, tt_bits, rows, general):
    ws = new_workspace(env, tt_bits, tt_bits > 1)
    sc = new_scratch()
    for i in range(first, last):
        index = start + i
        elder, younger = deal_hands(seed, index, sc.pack, sc.state)
        key = stream_key(seed, index)
        ten = env.rules[RuleSlot.LEAD_POINTS]
        # greedy and random deals call play_if_simple alone, as before: handing ``stages`` and
        # ``know`` to an inlined helper reference-counts their arrays on every deal
        if not play_if_simple(
            elder, younger, stages.ids, pre, key, sc.state, ten, sc.line, sc.play
        ):
            know = (sc.know_e, sc.know_y)
            if not play_if_fast(
                elder, younger, stages, know, pre, key, sc.state, ten, sc.line, sc.play, general
            ):
                play_deal(elder, younger, stages, pre, key, sc.state, ws, sc)
        for f in range(L.PO_LEN):
            rows[i, f] = sc.play[f]


@driver(_play_span)
def play_batch(seed, start, n, stages, pre, env, tt_bits):
    """Deals ``start .. start+n-1`` of ``seed`` (``deal.deal_hands``, no exchange) played out
    from the points ``pre`` (as ``start`` of :func:`play_deal`): int32 rows [n, PO_LEN].
    A fixed number of chunks on threads (``core.engine.jit_threads``), each deal on its own
    stream (the play continues the deal's stream), so rows are identical whatever the thread
    count. ``tt_bits``: size of each chunk's solver table (more than 1 only when a policy calls
    the solver)."""
    rows = np.zeros((n, L.PO_LEN), dtype=np.int32)
    general = general_of(stages)  # None: the heuristic's general arithmetic is not compiled

    def work(ch: int, lo: int, count: int) -> None:
        _play_span(seed, start, lo, lo + count, stages, pre, env, tt_bits, rows, general)

    for_spans(n, min(n, BATCH_CHUNKS), work)
    return rows
