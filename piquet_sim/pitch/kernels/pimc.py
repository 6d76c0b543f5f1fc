"""The search plays: ``pimc`` (perfect-information Monte Carlo) and ``dd`` (double dummy, an
oracle), on the paranoid search's entry (``position.child_values``).

At a decision with more than one legal card the player values each legal card in a set of
worlds and plays the best total: ``dd`` uses the one true world; ``pimc`` deals the cards he
has not seen (``worlds`` times) to the others, each getting as many as he still holds, so
that:

* a player who showed a void keeps it (he did not follow a suit led, or, when trump was led,
  played no trump; under "may trump" a trump played to a plain lead shows nothing);
* the others' calls are what their bid policy would have called holding the world's hands
  plus the cards they have played (checked when that policy is deterministic: ``threshold``
  or ``pass``; up to ``AUCTION_TRIES`` deals, then the voids alone are kept).

A card's value in a world is the paranoid value after it: the bidder's points still to be
decided when every defender plays against him. The bidder maximises the total over worlds, a
defender minimises it (the defenders act as one side: the scoring pays every defender for
what the bidder misses, so this is what they want). Ties go to the cheapest card
(``heuristic.cost``). With pimc's ``score`` a world adds ``3 * score + b`` instead (``b``: the
bidder's points at its end, those already decided in it plus the card's value; ``score``: his
bid if ``b`` reaches it, else minus it), the round's score weighed as the table's margins weigh
it, the points breaking ties (:data:`SCORE_UNIT`). All random draws use the round's stream,
so a round stays fixed by (seed, index) and the policies.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...core.engine.bits import high_index, low_index, popcount64
from ...core.engine.jit import njit, njit_inline
from ...core.engine.rng import bounded
from ..layouts import SEATS, TRICKS, Ctx, Endgame, Frame, Pos, SearchStat, TTWord
from ..policies import BID_PASS as BID_PASS_POLICY
from ..policies import (
    BID_THRESHOLD,
    PIMC_MAX_WORLDS,
    PIMC_OWN_AT,
    PIMC_SCORE_AT,
    PLAY_DD,
    PLAY_PARAMS_AT,
)
from ..rules import RuleSlot
from .auction import legal_calls
from .heuristic import cost
from .policies import choose_call
from .position import child_values, pos_legal, pos_play, pos_trump
from .search_node import F_ALL, LINE_WORDS, MAX_MOVES, MAX_PLY, SearchWork
from .search_tt import new_generation
from .tricks import suit_mask

FULL = np.int64(0x1FFF_1FFF_1FFF_1FFF)
SEARCH_TT_BITS = 16
AUCTION_TRIES = 16
VOID_TRIES = 48
MAX_WORLDS = PIMC_MAX_WORLDS
POS_LEN = int(Pos.LEN)
TT_WORDS = int(TTWord.LEN)
FRAME_LEN = int(Frame.LEN)
STAT_LEN = int(SearchStat.LEN)
CTX_LEN = int(Ctx.LEN)
ENDGAME_LEN = int(Endgame.LEN)
JACK_RANK = 9
SIX_RANK = 4
#: pimc's ``score``: a world's total for a card is ``SCORE_UNIT * (3 * score + b) + v`` (``v``
#: the card's search value, ``b`` the bidder's points at the end): the score first, the points
#: on a tie (a sum of at most 6 points over 1,024 worlds stays below the unit).
SCORE_UNIT = 1 << 16

#: Per-thread state of the search plays: the search workspace, the true position and a world's
#: (Pos rows), the position after a card, per-seat cards played and voids (suit bits), the
#: unseen cards of a deal, the value totals and one world's values per legal card; for pimc's
#: ``score``, the cards of each seat's finished tricks (``won``) and the round's bid (``bid[0]``).
SearchPlayWork = namedtuple(
    "SearchPlayWork", "sw truth pos child played voids deck totals cards values won bid"
)


@njit
def new_search_work():
    """A search workspace (as ``search_node.make_work``) built inside a kernel, one per thread
    (``search_node.new_work`` does not compile: it sizes an array by an IntEnum member)."""
    return SearchWork(
        np.full((np.int64(1) << SEARCH_TT_BITS) * TT_WORDS, -1, dtype=np.int64),
        np.zeros((MAX_PLY, FRAME_LEN), dtype=np.int64),
        np.zeros((MAX_PLY, MAX_MOVES), dtype=np.int64),
        np.zeros((MAX_PLY, MAX_MOVES), dtype=np.int64),
        np.zeros(SEATS, dtype=np.int64),
        np.zeros(SEATS, dtype=np.int64),
        np.zeros(STAT_LEN, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.zeros(CTX_LEN, dtype=np.int64),
        np.zeros(SEATS, dtype=np.int64),
        np.zeros(64, dtype=np.int64),
        np.zeros((SEATS, ENDGAME_LEN), dtype=np.int64),
        np.full((np.int64(1) << (SEARCH_TT_BITS - 4), LINE_WORDS), -1, dtype=np.int64),
    )


@njit
def new_search_play_work():
    """Fresh :data:`SearchPlayWork` (one per thread)."""
    return SearchPlayWork(
        new_search_work(),
        np.zeros(POS_LEN, dtype=np.int64),
        np.zeros(POS_LEN, dtype=np.int64),
        np.zeros(POS_LEN, dtype=np.int64),
        np.zeros(SEATS, dtype=np.int64),
        np.zeros(SEATS, dtype=np.int64),
        np.zeros(52, dtype=np.int64),
        np.zeros(16, dtype=np.int64),
        np.zeros(16, dtype=np.int64),
        np.zeros(16, dtype=np.int64),
        np.zeros(SEATS, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
    )


@njit
def start_position(truth, n, hands, bidder, trump):
    """The true position at the pitch: the bidder leads; ``trump`` given (>= 0) or set by his
    pitch (-1)."""
    truth[:] = 0
    truth[Pos.PLAYERS] = n
    truth[Pos.LEADER] = bidder
    truth[Pos.BIDDER] = bidder
    truth[Pos.TRUMP] = trump
    truth[Pos.PITCH] = 1
    truth[Pos.SCORE_HIGH_LOW] = 1
    truth[Pos.LOW_CARD] = -1
    truth[Pos.TRICK_COUNT] = 0
    for j in range(SEATS):
        truth[Pos.TRICK + j] = -1
    for s in range(n):
        truth[Pos.HANDS + s] = hands[s]


@njit
def auction_fits(world, spw, calls, n, me, policy, key, state):
    """True when every other seat's bid policy, holding its world hand plus what it has played,
    makes the call it made (always true for a policy that draws random numbers)."""
    pid = policy.ids[0]
    if pid != BID_THRESHOLD and pid != BID_PASS_POLICY:
        return True
    highest = np.int64(0)
    for s in range(n):
        c = calls[s]
        if s != me:
            allowed = legal_calls(highest, 1 if s == n - 1 else 0)
            hand = world[Pos.HANDS + s] | spw.played[s]
            if choose_call(pid, policy.params, allowed, hand, key, state) != c:
                return False
        if c > highest:
            highest = c
    return True


@njit
def deal_unseen(spw, me, n, key, state, use_voids):
    """Deal the cards ``me`` has not seen into ``spw.pos``'s other hands (each seat as many as
    it holds), every card to a seat with room, not void in its suit (``use_voids``), or to the
    undealt rest, drawn in proportion to the room left. False when a card found no place."""
    pos = spw.pos
    truth = spw.truth
    seen = truth[Pos.HANDS + me]
    for s in range(n):
        seen |= spw.played[s]
    unseen = FULL & ~seen
    k = 0
    m = unseen
    while m:
        spw.deck[k] = low_index(m)
        m &= m - 1
        k += 1
    room = np.zeros(SEATS + 1, dtype=np.int64)
    total = np.int64(0)
    for s in range(n):
        pos[Pos.HANDS + s] = truth[Pos.HANDS + s] if s == me else 0
        if s != me:
            room[s] = popcount64(truth[Pos.HANDS + s])
            total += room[s]
    room[SEATS] = k - total
    for i in range(k - 1, -1, -1):
        j = bounded(key, state, i + 1) if i > 0 else 0
        card = spw.deck[j]
        spw.deck[j] = spw.deck[i]
        spw.deck[i] = card
        suit_bit = np.int64(1) << (card >> 4)
        weight = room[SEATS]
        for s in range(n):
            if s != me and room[s] and not (use_voids and spw.voids[s] & suit_bit):
                weight += room[s]
        if weight == 0:
            return False
        r = bounded(key, state, weight)
        if r < room[SEATS]:
            room[SEATS] -= 1
            continue
        r -= room[SEATS]
        for s in range(n):
            if s != me and room[s] and not (use_voids and spw.voids[s] & suit_bit):
                if r < room[s]:
                    room[s] -= 1
                    pos[Pos.HANDS + s] |= np.int64(1) << card
                    break
                r -= room[s]
    return True


@njit
def fix_low(spw, n, rules):
    """A world's Low card still to be captured (``low_to`` capturer): the lowest trump in play
    in that world (its hands, the trick on the table, the finished tricks) unless it already
    fell in a finished trick."""
    pos = spw.pos
    truth = spw.truth
    trump = pos_trump(truth)
    pos[Pos.LOW_CARD] = -1
    if not rules[RuleSlot.LOW_TO] or trump < 0 or truth[Pos.SCORE_HIGH_LOW]:
        return
    live = np.int64(0)
    for s in range(n):
        live |= pos[Pos.HANDS + s]
    table = np.int64(0)
    for j in range(truth[Pos.TRICK_COUNT]):
        table |= np.int64(1) << truth[Pos.TRICK + j]
    live |= table
    done = np.int64(0)
    for s in range(n):
        done |= spw.played[s]
    trumps = (live | (done & ~table)) & suit_mask(trump)
    if trumps:
        low = low_index(trumps)
        if (live >> low) & 1:
            pos[Pos.LOW_CARD] = low


@njit
def world_base(pos, played, won, low_capt):
    """(the bidder's points already decided, the points at stake) in the world of ``pos``
    (hands now; ``played[s]`` each seat's cards played; ``won``: the cards of the bidder's
    finished tricks). High and Low count once trump is known (to their holders, or Low to its
    capturer); Jack and Six once taken. At stake: High, Low, Last, Game, and Jack and Six when
    dealt."""
    n = pos[Pos.PLAYERS]
    trump = pos_trump(pos)
    if trump < 0:
        return np.int64(0), np.int64(0)
    bidder = pos[Pos.BIDDER]
    in_play = np.int64(0)
    for s in range(n):
        in_play |= pos[Pos.HANDS + s] | played[s]
    trumps = in_play & suit_mask(trump)
    stake = np.int64(4)
    jack = 16 * trump + JACK_RANK
    six = 16 * trump + SIX_RANK
    if (in_play >> jack) & 1:
        stake += 1
    if (in_play >> six) & 1:
        stake += 1
    got = np.int64(0)
    if pos[Pos.SCORE_HIGH_LOW] == 0 and trumps:
        hi = high_index(trumps)
        lo = low_index(trumps)
        m = pos[Pos.HANDS + bidder] | played[bidder]
        if (m >> hi) & 1:
            got += 1
        if low_capt:
            got += (won >> lo) & 1
        elif (m >> lo) & 1:
            got += 1
    got += ((won >> jack) & 1) + ((won >> six) & 1)
    return got, stake


@njit
def scored(policy, me, truth):
    """Whether pimc's ``score`` sums the round's score over the worlds at this decision (not
    for a defender of ``own``: his worlds value his own points)."""
    if policy.ids[1] == PLAY_DD or policy.params[PIMC_SCORE_AT] <= 0:
        return False
    return me == truth[Pos.BIDDER] or policy.params[PIMC_OWN_AT] <= 0


@njit_inline
def add_world(spw, rules, k, by_score):
    """Add the current world's value of each legal card to the totals; ``by_score``: its total
    by the round's score (:data:`SCORE_UNIT`) rather than the bidder's points."""
    sw = spw.sw
    new_generation(sw.gen, sw.tt)
    got = child_values(spw.pos, rules, sw, True, F_ALL, spw.cards, spw.values)
    base = np.int64(0)
    bid = spw.bid[0]
    if by_score:
        bidder = spw.pos[Pos.BIDDER]
        base = world_base(spw.pos, spw.played, spw.won[bidder], rules[RuleSlot.LOW_TO])[0]
    for i in range(min(got, k)):
        v = spw.values[i]
        if by_score:
            b = base + v
            v += SCORE_UNIT * (3 * (bid if b >= bid else -bid) + b)
        spw.totals[i] += v


@njit
def search_card(rules, policy, spw, calls, legal, key, state):
    """The search play's card for the player to move in ``spw.truth`` (``legal``: his legal
    cards, more than one)."""
    truth = spw.truth
    n = truth[Pos.PLAYERS]
    me = (truth[Pos.LEADER] + truth[Pos.TRICK_COUNT]) % n
    k = popcount64(legal)
    spw.totals[:] = 0
    dd = policy.ids[1] == PLAY_DD
    by_score = scored(policy, me, truth)
    for _ in range(1 if dd else search_worlds(policy)):
        if dd:
            spw.pos[:] = truth
        else:
            draw_world(spw, me, calls, policy, key, state, rules)
        add_world(spw, rules, k, by_score)  # one site: it inlines the search's entry
    return best_card(spw, policy, me, k)


@njit
def search_worlds(policy):
    """pimc's worlds a decision (its parameter, within 1 .. MAX_WORLDS)."""
    return min(MAX_WORLDS, max(1, np.int64(policy.params[PLAY_PARAMS_AT])))


@njit
def draw_world(spw, me, calls, policy, key, state, rules):
    """Deal ``spw.pos`` one world for seat ``me`` from ``spw.truth``: the unseen cards kept to
    the voids shown and, for the first AUCTION_TRIES draws, to the others' calls; with pimc's
    ``own`` the world values his own points (he stands as its bidder)."""
    n = spw.truth[Pos.PLAYERS]
    spw.pos[:] = spw.truth
    ok = False
    yes = np.bool_(True)  # not literals: one compiled signature of deal_unseen
    for attempt in range(VOID_TRIES):
        if not deal_unseen(spw, me, n, key, state, yes):
            continue
        if attempt >= AUCTION_TRIES or auction_fits(spw.pos, spw, calls, n, me, policy, key, state):
            ok = True
            break
    if not ok:
        deal_unseen(spw, me, n, key, state, np.bool_(False))
    fix_low(spw, n, rules)
    if policy.params[PIMC_OWN_AT] > 0:
        spw.pos[Pos.BIDDER] = me


@njit
def best_card(spw, policy, me, k):
    """The card of the best total of ``spw.totals`` (the first ``k`` legal cards), ties to the
    cheapest: the highest for the bidder, and for a defender with pimc's ``own`` (his own
    points), else the lowest (the bidder's points, which a defender holds down)."""
    truth = spw.truth
    trump = pos_trump(truth)
    high = me == truth[Pos.BIDDER] or (policy.ids[1] != PLAY_DD and policy.params[PIMC_OWN_AT] > 0)
    best = np.int64(-1)
    for i in range(k):
        c = spw.cards[i]
        if best < 0:
            best = i
            continue
        v, b = spw.totals[i], spw.totals[best]
        better = v > b if high else v < b
        if better or (v == b and cost(c, trump) < cost(spw.cards[best], trump)):
            best = i
    return spw.cards[best]


@njit
def note_play(spw, seat, card, first, trump, must_follow):
    """Record ``card`` played by ``seat``: his played cards, and a void it shows."""
    spw.played[seat] |= np.int64(1) << card
    if first < 0:
        return
    led = first >> 4
    suit = card >> 4
    if suit == led:
        return
    if must_follow or led == trump or suit != trump:
        spw.voids[seat] |= np.int64(1) << led


@njit
def play_out_search(rules, policy, work, key, bidder, trump, spw):
    """Play the six tricks from ``work.hands`` with the search play (pimc or dd); ``trump`` -1:
    the bidder's pitch sets it. Fills ``work.tricks`` and ``work.winners``; returns the trump."""
    n = rules[RuleSlot.PLAYERS]
    must_follow = rules[RuleSlot.MUST_FOLLOW]
    truth = spw.truth
    start_position(truth, n, work.hands, bidder, trump)
    spw.played[:] = 0
    spw.voids[:] = 0
    spw.won[:] = 0
    spw.bid[0] = 0
    for s in range(n):  # the bid: the highest call (a steal matches it)
        spw.bid[0] = max(spw.bid[0], work.calls[s])
    for t in range(TRICKS):
        first = np.int64(-1)
        tmask = np.int64(0)
        for j in range(n):
            seat = (truth[Pos.LEADER] + j) % n
            legal = pos_legal(truth, rules)
            if popcount64(legal) == 1:
                card = low_index(legal)
            else:
                card = search_card(rules, policy, spw, work.calls, legal, key, work.state)
            if first < 0:
                first = card
            note_play(spw, seat, card, first, pos_trump(truth), must_follow)
            tmask |= np.int64(1) << card
            pos_play(truth, card, rules, spw.child)
            truth[:] = spw.child
            work.hands[seat] &= ~(np.int64(1) << card)
        work.tricks[t] = tmask
        work.winners[t] = truth[Pos.LEADER]
        spw.won[truth[Pos.LEADER]] |= tmask
    return truth[Pos.TRUMP]
