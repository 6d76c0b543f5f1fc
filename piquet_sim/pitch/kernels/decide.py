"""Kernels of the position API (``pitch/position.py``, ``pitch/deciders.py``, ``piquet pitch
play``): worlds consistent with what one seat saw, each legal card's value in given worlds, the
search play's decision with its per-world values, and whole rounds played by the search play.

Worlds (:func:`sample_world`): the cards a seat has not seen are dealt to the other seats (each
as many as it holds now) and to the undealt rest, uniformly over the deals that keep

* every void a seat showed (``pimc.note_play``'s rule: he did not follow a plain suit led
  without trumping, or did not follow a trump lead; under "may trump" a trump on a plain lead
  shows nothing),
* every call made, when the others' bid policy is deterministic (``pass``, ``threshold``,
  ``parametric``): that policy, holding the world's hand plus what the seat has played, makes
  the call the seat made (a policy that draws, ``random``, conditions nothing).

It is exact rejection sampling with early exit: seat after seat (in ``order``), its cards are
drawn from those it may hold (not of a void suit), the draw kept with probability
C(a, r) / C(b, r) (``a`` the cards it could take then, ``b`` a bound on ``a`` fixed for the
seat), which makes every consistent deal equally likely, and its call checked at once; a
failure starts the deal again. After ``tries`` deals the calls are dropped (voids kept:
status 1), after ``tries`` more the voids too (status 2). ``call_tries`` (at most ``tries``)
bounds the first phase alone: the caller lowers it once the calls proved out of reach.

Values (:func:`world_values`): the paranoid search's value of every legal card (the bidder's
points still to be decided after it, ``position.child_values``) in each given world,
with the bidder's points already decided in that world and the points at stake in it.

The search play's decision (:func:`search_card_values`) is ``pimc.search_card`` step for step
(the same draws from the round's stream, the same choice), keeping each world's values. The
dd play's one world (the true deal) is valued by :func:`world_values` (``deciders.SearchPlay``):
every kernel calling the search re-optimizes it when numba links them, so a caller needing
only dd compiles no world drawing and no second entry to the search.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...core.engine.arrays import copy_into
from ...core.engine.bits import popcount64, select_bit64
from ...core.engine.combinatorics import n_choose
from ...core.engine.jit import njit
from ...core.engine.jit_threads import driver, for_spans
from ...core.engine.rng import bounded, deal_hands, stream_key
from ..layouts import SEATS, TRICKS, Pos, RoundRec
from ..policies import BID_PARAMETRIC, BID_THRESHOLD
from ..policies import BID_PASS as BID_PASS_POLICY
from ..rules import RuleSlot
from .auction import legal_calls
from .pimc import (
    FULL,
    add_world,
    best_card,
    draw_world,
    fix_low,
    new_search_play_work,
    play_out_search,
    scored,
    search_worlds,
    world_base,
)
from .policies import choose_call
from .position import child_values
from .round import auction, new_round_work
from .scoring import score_tricks
from .search_node import F_ALL
from .search_tt import new_generation
from .tricks import suit_mask

N_CHUNKS = 64
#: A draw is kept when a uniform 30-bit number falls below its acceptance ratio times this.
ACCEPT_ONE = 1 << 30
REC_LEN = int(RoundRec.LEN)
#: Most legal cards a player has (six in hand).
MAX_CARDS = 16


#: What one seat saw, for the world sampler: the table size ``n``, his seat ``me`` and cards now
#: ``mine``, each seat's cards now ``counts[s]`` (how many), cards played ``played[s]`` (the
#: trick on the table included) and void suits ``voids[s]`` (suit bits), the calls made
#: ``calls[0:ncalls]``, and the seats in drawing order ``order``.
Sight = namedtuple(
    "Sight", ["n", "me", "mine", "counts", "played", "voids", "calls", "ncalls", "order"]
)


@njit
def deterministic_bidder(pid):
    """True when the bid policy ``pid`` calls from the hand alone (the calls condition worlds)."""
    return pid in (BID_PASS_POLICY, BID_THRESHOLD, BID_PARAMETRIC)


@njit
def highest_before(calls, ncalls, out):
    """``out[s]``: the highest bid before seat ``s`` speaks (0: none), for the calls made."""
    h = np.int64(0)
    for s in range(SEATS):
        out[s] = h
        if s < ncalls and calls[s] > h:
            h = calls[s]


@njit
def seat_fits(s, hand, sight, highs, policy, key, state):
    """True when the bid policy (``policy.ids[0]``) holding ``hand`` (as dealt) makes seat
    ``s``'s call (or seat ``s`` has not called yet, or the policy draws)."""
    pid = policy.ids[0]
    if s >= sight.ncalls or not deterministic_bidder(pid):
        return True
    allowed = legal_calls(highs[s], 1 if s == sight.n - 1 else 0)
    return choose_call(pid, policy.params, allowed, hand, key, state) == sight.calls[s]


@njit
def _try_deal(key, state, sight, unseen, highs, policy, use_calls, use_voids, out):
    """One attempt of :func:`sample_world`: True when every seat got its cards (kept) and, with
    ``use_calls``, its call fits."""
    total = popcount64(unseen)
    rem = unseen
    taken = np.int64(0)
    for idx in range(sight.n):
        s = sight.order[idx]
        if s == sight.me:
            continue
        r = sight.counts[s]
        ban = np.int64(0)
        if use_voids:
            for suit in range(4):
                if (sight.voids[s] >> suit) & 1:
                    ban |= suit_mask(suit)
        allowed = rem & ~ban
        a = popcount64(allowed)
        if a < r:
            return False
        b = min(popcount64(unseen & ~ban), total - taken)
        hand = np.int64(0)
        for i in range(r):
            c = select_bit64(allowed, bounded(key, state, a - i))
            bit = np.int64(1) << c
            allowed &= ~bit
            hand |= bit
        if a < b:
            ratio = n_choose(a, r) / n_choose(b, r)  # exact counts: the same float
            if bounded(key, state, ACCEPT_ONE) >= ratio * ACCEPT_ONE:
                return False
        if use_calls and not seat_fits(s, hand | sight.played[s], sight, highs, policy, key, state):
            return False
        rem &= ~hand
        taken += r
        out[s] = hand
    return True


@njit
def sample_world(key, state, sight, policy, tries, call_tries, out):
    """One world for seat ``sight.me`` (see the module docstring and :data:`Sight`): every
    seat's cards now into ``out``; ``policy.ids[0]``: the others' bid policy; ``call_tries``
    deals with the calls checked, then ``tries`` with the voids only. Returns 0 (every
    constraint kept), 1 (the calls dropped) or 2 (the voids dropped too)."""
    seen = sight.mine
    for s in range(sight.n):
        seen |= sight.played[s]
    unseen = FULL & ~seen
    highs = np.zeros(SEATS, dtype=np.int64)
    highest_before(sight.calls, sight.ncalls, highs)
    for s in range(SEATS):
        out[s] = 0
    out[sight.me] = sight.mine
    yes = np.bool_(True)
    for phase in range(2):
        for _ in range(call_tries if phase == 0 else tries):
            if _try_deal(key, state, sight, unseen, highs, policy, phase == 0, yes, out):
                return np.int64(phase)
    no = np.bool_(False)  # not a literal: one compiled signature of _try_deal
    _try_deal(key, state, sight, unseen, highs, policy, no, no, out)
    return np.int64(2)


@njit
def sample_span(seed, first, lo, hi, sight, policy, tries, call_tries, hands, status):
    state = np.zeros(1, dtype=np.int64)
    for w in range(lo, hi):
        state[0] = 0
        key = stream_key(seed, first + w)
        status[w] = sample_world(key, state, sight, policy, tries, call_tries, hands[w])


@driver(sample_span)
def sampled_hands(seed, first, count, sight, policy, tries, call_tries):
    """Worlds ``first .. first+count-1`` of ``seed`` (world w with the stream (seed, w)):
    ``hands`` int64[count, 6] (every seat's cards now) and ``status`` int64[count]
    (:func:`sample_world`); fixed chunks on threads (``core.engine.jit_threads``), the same
    whatever the thread count."""
    hands = np.zeros((count, SEATS), dtype=np.int64)
    status = np.zeros(count, dtype=np.int64)

    def work(ch: int, lo: int, size: int) -> None:
        sample_span(seed, first, lo, lo + size, sight, policy, tries, call_tries, hands, status)

    for_spans(count, min(count, N_CHUNKS), work)
    return hands, status


@njit
def values_span(lo, hi, rules, truth, hands, sight, won, policy, vals, base, fits, spw):
    n = truth[Pos.PLAYERS]
    me = (truth[Pos.LEADER] + truth[Pos.TRICK_COUNT]) % n
    copy_into(spw.truth, truth)  # not a slice assignment: see core.engine.arrays
    for s in range(SEATS):
        spw.played[s] = sight.played[s]
    highs = np.zeros(SEATS, dtype=np.int64)
    highest_before(sight.calls, sight.ncalls, highs)
    state = np.zeros(1, dtype=np.int64)
    key = np.uint64(0)
    for w in range(lo, hi):
        for j in range(truth.shape[0]):
            spw.pos[j] = truth[j]
        ok = True
        for s in range(n):
            spw.pos[Pos.HANDS + s] = hands[w, s]
            dealt = hands[w, s] | sight.played[s]
            if s != me and not seat_fits(s, dealt, sight, highs, policy, key, state):
                ok = False
        fits[w] = 1 if ok else 0
        fix_low(spw, n, rules)
        got, stake = world_base(spw.pos, sight.played, won, rules[RuleSlot.LOW_TO])
        base[w, 0] = got
        base[w, 1] = stake
        new_generation(spw.sw.gen, spw.sw.tt)
        k = child_values(spw.pos, rules, spw.sw, True, F_ALL, spw.cards, spw.values)
        for i in range(k):
            vals[w, i] = spw.values[i]


@driver(values_span)
def world_values(rules, truth, hands, sight, won, policy, spans, works=None):
    """Every legal card's paranoid value (the bidder's points still to be decided after it;
    cards in ascending order) in each world of ``hands`` (int64[W, 6], every seat's cards now;
    ``truth``: the position, a Pos row whose hands are replaced; ``sight``: what the seat to
    move saw, for the cards played and the calls): ``vals`` int64[W, 16]; ``base``
    int64[W, 2]: the bidder's points already decided and the points at stake in the world
    (:func:`world_base`); ``fits`` int64[W]: 1 when the others' bid policy (``policy.ids[0]``)
    makes their calls holding the world's hands. ``spans``: how many parts the worlds are split
    into, run on threads (``core.engine.jit_threads``; each needs a search workspace of
    megabytes, :func:`~.pimc.new_search_play_work`: a few per thread, not one per world); the
    values do not depend on it. ``works``: a workspace per span, kept by a caller that values
    one world at a time (allocating one costs more than a world's search); by default each
    call allocates its own."""
    count = hands.shape[0]
    vals = np.zeros((count, MAX_CARDS), dtype=np.int64)
    base = np.zeros((count, 2), dtype=np.int64)
    fits = np.zeros(count, dtype=np.int64)
    parts = max(1, min(count, spans))
    if works is None:
        works = [new_search_play_work() for _ in range(parts)]

    def work(ch: int, lo: int, size: int) -> None:
        values_span(
            lo, lo + size, rules, truth, hands, sight, won, policy, vals, base, fits, works[ch]
        )

    for_spans(count, parts, work)
    return vals, base, fits


@njit
def search_card_values(rules, policy, spw, calls, legal, key, state, vals, hands):
    """``pimc.search_card`` step for step for the pimc play (the same draws, the same card;
    dd's one world is valued by :func:`world_values`), keeping world w's value of each legal card in
    ``vals[w]`` and its hands in ``hands[w]``. Returns (the card, the worlds)."""
    truth = spw.truth
    n = truth[Pos.PLAYERS]
    me = (truth[Pos.LEADER] + truth[Pos.TRICK_COUNT]) % n
    k = popcount64(legal)
    spw.totals[:] = 0
    worlds = search_worlds(policy)
    by_score = scored(policy, me, truth)
    for w in range(worlds):
        draw_world(spw, me, calls, policy, key, state, rules)
        add_world(spw, rules, k, by_score)  # one site: it inlines the search's entry
        for i in range(k):
            vals[w, i] = spw.values[i]
        for s in range(SEATS):
            hands[w, s] = spw.pos[Pos.HANDS + s] if s < n else 0
    return best_card(spw, policy, me, k), worlds


@njit
def search_round(key, rules, policy, work, spw, rec, tricks):
    """One round as ``round.play_round`` deals and bids it, played by the search play (pimc or
    dd, ``pimc.play_out_search``) and scored into ``rec``; ``tricks``: each trick's cards
    (mask, 6 slots) then its winner (6 slots)."""
    n = rules[RuleSlot.PLAYERS]
    work.state[0] = 0
    work.hands[:] = 0
    deal_hands(key, work.pack, work.state, n, TRICKS, 13, 16, work.hands)
    rec[:] = 0
    rec[RoundRec.PLAYERS] = n
    for s in range(SEATS):
        work.dealt[s] = work.hands[s]
        rec[RoundRec.HANDS + s] = work.hands[s]
        rec[RoundRec.BIDS + s] = -1
    bidder, bid = auction(rules, policy, work, key, rec)
    trump = play_out_search(rules, policy, work, key, bidder, np.int64(-1), spw)
    score_tricks(work.dealt, bidder, bid, trump, work.tricks, work.winners, rules, rec)
    for t in range(TRICKS):
        tricks[t] = work.tricks[t]
        tricks[TRICKS + t] = work.winners[t]


@njit
def search_rounds(seed, start, count, rules, policy):
    """Rounds ``start .. start+count-1`` of ``seed`` (round i with the stream (seed, i)) played
    by the search play: RoundRec rows and each round's tricks and winners (int64[count, 12]).
    Serial (a round with pimc costs tenths of a second)."""
    recs = np.zeros((count, REC_LEN), dtype=np.int64)
    tricks = np.zeros((count, 2 * TRICKS), dtype=np.int64)
    work = new_round_work()
    spw = new_search_play_work()
    for i in range(count):
        search_round(stream_key(seed, start + i), rules, policy, work, spw, recs[i], tricks[i])
    return recs, tricks


__all__ = [
    "Sight",
    "sample_world",
    "sampled_hands",
    "search_card_values",
    "search_rounds",
    "world_base",
    "world_values",
]
