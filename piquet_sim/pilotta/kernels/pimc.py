"""The ``pimc`` play policy (perfect-information Monte Carlo) and the round kernels that use it.

At a decision with more than one legal card, the player deals the cards he has not seen to the
other three seats ``worlds`` times, each deal consistent with what he knows (:func:`deal_world`):

* **hard**: his own hand, every card played (by whom), each seat's hand size, the voids shown
  (a seat that did not follow holds none of the suit led; one that neither followed nor trumped
  when it had to holds no trump: :class:`layouts.View` VOIDS), the cards shown in declared
  combinations (still unplayed ones sit in their owner's hand); the position's sampler
  (``worlds.sample_world``) adds the finer duties of each card played (a seat that did not
  over-trump holds no higher trump), which pimc itself does not read;
* **soft** (dropped after ``MAX_TRIES`` failed deals, then only the hard facts are kept): each
  seat's announced combination points equal what its whole hand (held plus played) declares
  under its team's declaration policy, and each seat's calls in the auction are ones its
  team's bidding policy (the Setup's, taken as known, like a partnership's system) could have
  made with that hand.

Unseen cards are dealt one by one in a random order, each to a seat that may hold it and
leaves the rest placeable (Hall's condition over the seats that may hold each card), with
probability proportional to the room left in that seat's hand: with no voids this is a uniform
deal; with voids it is close to uniform and never reaches a dead end.

In every world each legal card is played and the rest of the round valued by the exact solver
(``kernels.solver``: the contracting team's card points to come, 250 for its capot; after the
first card, each search starts from the previous card's value, MTD(f)); of cards next to each
other in their suit and worth the same points only one is solved. The card with the best sum
over the worlds is played (highest for the contracting team, lowest for the defenders; ties:
lowest natural index).

Only this module compiles the solver into play; the plain round kernels never do.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ...core.engine.bits import low_index, popcount32
from ...core.engine.jit import njit
from ...core.engine.jit_threads import driver, for_spans
from ...core.engine.rng import stream_key
from ..layouts import (
    ASTATE_LEN,
    AUCTION_LEN,
    DECL_LEN,
    POS_LEN,
    PUB_LEN,
    ROUND_LEN,
    VIEW_LEN,
    AState,
    Auction,
    Decl,
    Pub,
    RoundRec,
    Setup,
    SolverPos,
    View,
)
from ..policies import PLAY_PIMC
from ..rules import RuleSlot
from .auction import (
    apply_call,
    auction_reset,
    auction_result,
    consistent_call,
    policy_call,
    team_policy,
    to_speak,
)
from .deal import N_PACK
from .declarations import combination_cards, declare_policy_hand
from .draws import draw
from .play import card_played, policy_card
from .simulate import BATCH_CHUNKS, close_round, declare_round, open_round
from .solver import (
    F_ALL,
    new_workspace,
    play_card,
    rules_position,
    set_position,
    value,
)
from .solver_tt import card_to_internal, to_internal
from .tables import STRENGTH
from .tricks import SUIT_BITS, card_points, legal_cards, play_code

FULL = 0xFFFFFFFF
MAX_TRIES = 64  # deals tried per world with the soft facts before keeping only the hard ones
MAX_CALLS = 48  # calls an auction can hold (ten levels, each followed by at most three passes)
TT_BITS = 16  # solver table per chunk of a parallel driver

#: What a pimc player works with: the solver workspace, the auction so far (int64[k, 3]:
#: seat, level or -1, suit), the Setup and the rules array.
Ctx = namedtuple("Ctx", "ws calls setup rules")
#: Full rounds for :func:`pimc_contracts`: hands int64[n, 4] (natural masks N E S W), trump,
#: first leader and contracting team per round.
Deals = namedtuple("Deals", "hands trumps leaders teams")


@njit
def _hand_sizes(seat, hand, view, pub, sizes):
    """Cards each seat holds now: the player's count, one less for seats already in the trick."""
    n = popcount32(hand)
    pos = view[View.POS]
    leader = pub[Pub.LEADER]
    for o in range(4):
        if o != seat:
            sizes[o] = n - 1 if (o - leader) % 4 < pos else n


@njit
def _soft_ok(seat, world, pub, ctx, ast):
    """The soft facts: announced points and the auction fit every other seat's whole hand."""
    setup = ctx.setup
    decl = np.zeros(DECL_LEN, dtype=np.int32)
    for o in range(4):
        if o == seat:
            continue
        whole = world[o] | pub[Pub.GONE + o]
        # the trump does not change the points announced; an int64, not the literal 0, so the
        # declarations are compiled once (a literal argument is a signature of its own)
        declare_policy_hand(whole, np.int64(0), setup[Setup.DECLARE_NS + (o & 1)], decl)
        if decl[Decl.POINTS] != pub[Pub.ANNOUNCED + o]:
            return False
    calls = ctx.calls
    if calls.shape[0] == 0:
        return True
    auction_reset(ast, (calls[0, 0] + 3) % 4)
    for i in range(calls.shape[0]):
        p = calls[i, 0]
        if p != seat:
            policy, params = team_policy(setup, p)
            whole = world[p] | pub[Pub.GONE + p]
            if not consistent_call(
                policy, params, whole, p, ast, ctx.rules, calls[i, 1], calls[i, 2]
            ):
                return False
        apply_call(ast, calls[i, 1], calls[i, 2])
    return True


@njit
def _feasible(cnt, room):
    """Can the cards still to deal go to the seats with ``room[o]`` places left, ``cnt[m]`` of
    them held only by the seats in the set ``m`` (bit o: seat o may hold it)? Hall's condition
    for the transportation problem: for every set of seats, the cards only they may hold fit
    in their room."""
    for sub in range(16):
        need = 0
        for m in range(16):
            if m & ~sub == 0:
                need += cnt[m]
        have = 0
        for o in range(4):
            if (sub >> o) & 1:
                have += room[o]
        if need > have:
            return False
    return True


@njit
def _holders(seat, c, voids, forbid):
    """The set of seats (bit o) other than ``seat`` that may hold card ``c``: not void in its
    suit and not barred from it by ``forbid[o]``."""
    m = 0
    for o in range(4):
        if o != seat and not (voids >> (4 * o + (c >> 3))) & 1 and not (forbid[o] >> c) & 1:
            m |= 1 << o
    return m


@njit
def _deal_once(seat, unseen, voids, forbid, pub, sizes, world, key, state):
    """One constrained deal of ``unseen`` to the seats other than ``seat`` into ``world``:
    shown cards to their owners, then the rest card by card (a random order), each to a seat
    that may hold it (:func:`_holders`) and leaves the rest placeable, with probability
    proportional to its room. False when the hard facts admit no deal."""
    room = np.zeros(4, dtype=np.int64)
    free = unseen
    for o in range(4):
        if o == seat:
            continue
        world[o] = pub[Pub.SHOWN + o] & unseen
        free &= ~world[o]
        room[o] = sizes[o] - popcount32(world[o])
        if room[o] < 0:
            return False
    cnt = np.zeros(16, dtype=np.int64)
    holders = np.zeros(32, dtype=np.int64)
    cards = np.zeros(32, dtype=np.int64)
    n = 0
    m = free
    while m:
        c = low_index(m)
        m &= m - 1
        cards[n] = c
        holders[c] = _holders(seat, c, voids, forbid)
        cnt[holders[c]] += 1
        n += 1
    if not _feasible(cnt, room):
        return False
    for i in range(n - 1, 0, -1):  # Fisher-Yates
        j = draw(key, state, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    ok = np.zeros(4, dtype=np.int64)
    for i in range(n):
        c = cards[i]
        h = holders[c]
        cnt[h] -= 1
        # int64 from the start: typed first as the literal 0, draw compiled once more for it
        total = np.int64(0)
        for o in range(4):
            ok[o] = 0
            if (h >> o) & 1 and room[o] > 0:
                room[o] -= 1
                if _feasible(cnt, room):
                    ok[o] = room[o] + 1
                    total += ok[o]
                room[o] += 1
        r = draw(key, state, total)
        for o in range(4):
            if r < ok[o]:
                world[o] |= np.int64(1) << c
                room[o] -= 1
                break
            r -= ok[o]
    return True


@njit
def deal_world(seat, hand, view, pub, ctx, world, key, state, forbid):
    """A world (``world`` int64[4], natural masks N E S W, ``world[seat] = hand``) consistent
    with what ``seat`` knows (module docstring) and holding no card ``forbid[o]`` bars seat o
    from (pimc passes none; the position's sampler the duties of every card played). Returns
    2 when the soft facts hold too, 1 when only the hard ones do, 0 when the hard facts admit
    none (then the voids and ``forbid`` are ignored)."""
    unseen = FULL & ~view[View.PLAYED] & ~hand
    sizes = np.zeros(4, dtype=np.int64)
    _hand_sizes(seat, hand, view, pub, sizes)
    world[seat] = hand
    ast = np.zeros(ASTATE_LEN, dtype=np.int64)
    voids = view[View.VOIDS]
    for t in range(MAX_TRIES + 1):
        if not _deal_once(seat, unseen, voids, forbid, pub, sizes, world, key, state):
            break
        if t == MAX_TRIES:
            return 1
        if _soft_ok(seat, world, pub, ctx, ast):
            return 2
    _deal_once(
        seat, unseen, np.int64(0), np.zeros(4, dtype=np.int64), pub, sizes, world, key, state
    )
    return 0


@njit
def _distinct(hand, legal, view, pub):
    """The legal cards worth solving: of cards of one suit next to each other in its order
    (no unseen card and no card of the current trick between them) and worth the same points,
    only the lowest is kept (they take the same tricks in every world)."""
    trump = view[View.TRUMP]
    kq = view[View.KQ]
    unseen = FULL & ~view[View.PLAYED] & ~hand
    for i in range(view[View.POS]):
        unseen |= np.int64(1) << pub[Pub.TRICK + i]
    keep = legal
    m = legal
    while m:
        c = low_index(m)
        m &= m - 1
        s = c >> 3
        t = 1 if s == trump else 0
        st = STRENGTH[t, c & 7]
        out = (unseen >> (8 * s)) & SUIT_BITS
        # the next weaker card of the suit that is not played yet
        below = -1
        for r in range(8):
            sr = STRENGTH[t, r]
            live = (hand >> (8 * s + r)) & 1 or (out >> r) & 1
            if sr < st and live and (below < 0 or sr > STRENGTH[t, below]):
                below = r
        if (
            below >= 0
            and (legal >> (8 * s + below)) & 1
            and card_points(8 * s + below, trump, kq) == card_points(c, trump, kq)
        ):
            keep &= ~(np.int64(1) << c)
    return keep


@njit
def pimc_card(hand, legal, view, pub, ctx, worlds, key, state):
    """The pimc player's card for the seat in ``view`` (module docstring): ``worlds`` deals,
    every legal card solved in each."""
    if popcount32(legal) == 1:
        return low_index(legal)
    seat = view[View.SEAT]
    trump = view[View.TRUMP]
    ws = ctx.ws
    pos = np.zeros(POS_LEN, dtype=np.int64)
    pos[SolverPos.LEADER] = pub[Pub.LEADER]
    pos[SolverPos.PLAYED] = view[View.POS]
    pos[SolverPos.TEAM] = view[View.C_TEAM]
    pos[SolverPos.CAPOT] = pub[Pub.CAPOT]
    rules_position(pos, ctx.rules)
    itrick = np.zeros(4, dtype=np.int64)
    for i in range(view[View.POS]):
        itrick[i] = card_to_internal(pub[Pub.TRICK + i], trump)
    world = np.zeros(4, dtype=np.int64)
    ih = np.zeros(4, dtype=np.int64)
    sums = np.zeros(32, dtype=np.int64)
    todo = _distinct(hand, legal, view, pub)
    no_bars = np.zeros(4, dtype=np.int64)  # pimc reads the voids only
    for _ in range(worlds):
        deal_world(seat, hand, view, pub, ctx, world, key, state, no_bars)
        for p in range(4):
            ih[p] = to_internal(world[p], trump)
        guess = np.int64(-1)
        m = todo
        while m:
            c = low_index(m)
            m &= m - 1
            set_position(ws, ih, itrick, pos)
            v = play_card(ws, card_to_internal(c, trump))
            if ws.hands[0] | ws.hands[1] | ws.hands[2] | ws.hands[3]:
                r = value(ws, guess, F_ALL)
                guess = r
                v += r
            sums[c] += v
    maximise = (seat & 1) == view[View.C_TEAM]
    best = -1
    m = todo
    while m:
        c = low_index(m)
        m &= m - 1
        if best < 0 or (sums[c] > sums[best] if maximise else sums[c] < sums[best]):
            best = c
    return best


@njit
def pimc_round(hands, trump, leader, c_team, key, state, plays, legal_n, ctx):
    """:func:`play.play_round` with pimc seats: play the eight tricks from the deal (``hands``
    int64[4], 8 cards each, modified in place), ``leader`` leading, ``c_team`` contracting;
    each team plays its Setup play policy (pimc with its WORLDS_* worlds). Every seat declares
    under its team's declaration policy before the first trick (what pimc players read).
    Writes ``plays`` / ``legal_n`` like ``play_round``; returns (NS card points with the last
    trick, NS tricks)."""
    setup = ctx.setup
    rules = ctx.rules
    kq = rules[RuleSlot.TRUMP_KQ_POINTS]
    exempt = play_code(rules)
    view = np.zeros(VIEW_LEN, dtype=np.int64)
    view[View.C_TEAM] = c_team
    view[View.TRUMP] = trump
    view[View.KQ] = kq
    pub = np.zeros(PUB_LEN, dtype=np.int64)
    decl = np.zeros(DECL_LEN, dtype=np.int32)
    for p in range(4):
        policy = setup[Setup.DECLARE_NS + (p & 1)]
        pub[Pub.SHOWN + p] = combination_cards(hands[p], policy)
        declare_policy_hand(hands[p], np.int64(0), policy, decl)  # as in _soft_ok
        pub[Pub.ANNOUNCED + p] = decl[Decl.POINTS]
    pub[Pub.CAPOT] = 1
    played = np.int64(0)
    voids = np.int64(0)
    pts_ns = 0
    tricks_ns = 0
    step = 0
    for t in range(8):
        led = -1
        top_trump = -1
        win_power = -1
        win_seat = leader
        pts = 0
        pub[Pub.LEADER] = leader
        for i in range(4):
            p = (leader + i) % 4
            partner_winning = i >= 2 and win_seat == (p + 2) % 4
            legal = legal_cards(hands[p], i, led, trump, top_trump, partner_winning, exempt)
            view[View.SEAT] = p
            view[View.POS] = i
            view[View.LED] = led
            view[View.TOP_TRUMP] = top_trump
            view[View.WIN_POWER] = win_power
            view[View.WIN_SEAT] = win_seat
            view[View.PLAYED] = played
            view[View.VOIDS] = voids
            policy = setup[Setup.PLAY_NS + (p & 1)]
            if policy == PLAY_PIMC:
                worlds = setup[Setup.WORLDS_NS + (p & 1)]
                c = pimc_card(hands[p], legal, view, pub, ctx, worlds, key, state)
            else:
                c = policy_card(policy, hands[p], legal, view, partner_winning, key, state)
            plays[step] = c
            legal_n[step] = popcount32(legal)
            step += 1
            bit = np.int64(1) << c
            hands[p] &= ~bit
            played |= bit
            pub[Pub.GONE + p] |= bit
            if i < 3:
                pub[Pub.TRICK + i] = c
            led, voids, win_power, win_seat, top_trump, pts = card_played(
                c, p, led, trump, rules, voids, win_power, win_seat, top_trump, pts
            )
        if t == 7:
            pts += 10
        if (win_seat & 1) == 0:
            pts_ns += pts
            tricks_ns += 1
        if (win_seat & 1) != c_team:
            pub[Pub.CAPOT] = 0
        leader = win_seat
    return pts_ns, tricks_ns


@njit
def _contracts_chunk(seed, first, deals, calls, setup, rules, tables, lo, hi, out):
    ws = new_workspace(TT_BITS, tables[0], tables[1], tables[2], tables[3])
    ctx = Ctx(ws, calls, setup, rules)
    state = np.zeros(1, dtype=np.int64)
    h = np.zeros(4, dtype=np.int64)
    plays = np.zeros(32, dtype=np.int8)
    legal_n = np.zeros(32, dtype=np.int8)
    total = 160 if rules[RuleSlot.TRUMP_KQ_POINTS] else 162
    for i in range(lo, hi):
        key = stream_key(seed, first + i)
        state[0] = 0
        for p in range(4):
            h[p] = deals.hands[i, p]
        team = deals.teams[i]
        raw_ns, tricks_ns = pimc_round(
            h, deals.trumps[i], deals.leaders[i], team, key, state, plays, legal_n, ctx
        )
        out[i, 0] = raw_ns if team == 0 else total - raw_ns
        out[i, 1] = tricks_ns if team == 0 else 8 - tricks_ns


@driver(_contracts_chunk)
def pimc_contracts(seed, first, deals, calls, setup, rules, tables):
    """Play full rounds (:data:`Deals`) with the Setup's play policies (pimc seats included);
    round ``i`` (row i of ``deals``) draws from stream (seed, first + i), so calls over
    consecutive slices give the same rounds as one call. Returns int64[n, 2]: the contracting
    team's card points with the last trick, its tricks. ``calls``: the auction the pimc players
    know (int64[k, 3]; may be empty); ``tables``: ``solver.TABLES`` (each chunk makes its own
    workspace). Fixed chunks on threads (``core.engine.jit_threads``), one solver table each:
    the same numbers whatever the thread count (the solver is exact; tables only save time)."""
    n = deals.hands.shape[0]
    out = np.zeros((n, 2), dtype=np.int64)

    def work(ch: int, lo: int, count: int) -> None:
        _contracts_chunk(seed, first, deals, calls, setup, rules, tables, lo, lo + count, out)

    for_spans(n, min(n, BATCH_CHUNKS), work)
    return out


@njit
def _auction_logged(hands, setup, rules, key, state, rec, log):
    """The auction of a dealt round (``rec`` DEALER set) with every call written to ``log``
    (int64[MAX_CALLS, 3]); fills BIDDER, BID and TRUMP of ``rec``. Returns the calls made."""
    ast = np.zeros(ASTATE_LEN, dtype=np.int64)
    auction_reset(ast, rec[RoundRec.DEALER])
    while ast[AState.DONE] == 0:
        p = to_speak(ast)
        policy, params = team_policy(setup, p)
        level, suit = policy_call(policy, params, hands[p], p, ast, rules, key, state)
        k = ast[AState.CALLS]
        log[k, 0] = p
        log[k, 1] = level
        log[k, 2] = suit
        apply_call(ast, level, suit)
    res = np.zeros(AUCTION_LEN, dtype=np.int32)
    auction_result(ast, res)
    rec[RoundRec.BIDDER] = res[Auction.BIDDER]
    if res[Auction.BIDDER] >= 0:
        rec[RoundRec.BID] = res[Auction.BID]
        rec[RoundRec.TRUMP] = res[Auction.TRUMP]
    return ast[AState.CALLS]


@njit
def _rounds_chunk(seed, start, lo, hi, setup, rules, tables, out):
    ws = new_workspace(TT_BITS, tables[0], tables[1], tables[2], tables[3])
    recs, plays, legal_n = out
    state = np.zeros(1, dtype=np.int64)
    pack = np.empty(N_PACK, dtype=np.int8)
    hands = np.zeros(4, dtype=np.int64)
    log = np.zeros((MAX_CALLS, 3), dtype=np.int64)
    for i in range(lo, hi):
        rec = recs[i]
        state[0] = 0
        key = open_round(seed, start + i, rec, hands, pack, state)
        k = _auction_logged(hands, setup, rules, key, state, rec, log)
        if rec[RoundRec.BIDDER] < 0:
            continue
        leader = declare_round(hands, setup, rules, rec)
        ctx = Ctx(ws, log[:k].copy(), setup, rules)
        raw_ns, tricks_ns = pimc_round(
            hands,
            rec[RoundRec.TRUMP],
            leader,
            rec[RoundRec.BIDDER] & 1,
            key,
            state,
            plays[i],
            legal_n[i],
            ctx,
        )
        close_round(raw_ns, tricks_ns, rules, rec, legal_n[i])


@driver(_rounds_chunk)
def simulate_batch_pimc(seed, start, n, setup, rules, tables):
    """:func:`simulate.simulate_batch` for setups with pimc play: the same deals, auctions,
    declarations and scores (round ``i`` from stream (seed, start + i)), played by
    :func:`pimc_round`. ``tables``: ``solver.TABLES``. Same outputs; same numbers whatever
    the thread count (fixed chunks on threads, ``core.engine.jit_threads``)."""
    recs = np.zeros((n, ROUND_LEN), dtype=np.int64)
    plays = np.full((n, 32), -1, dtype=np.int8)
    legal_n = np.zeros((n, 32), dtype=np.int8)
    out = (recs, plays, legal_n)

    def work(ch: int, lo: int, count: int) -> None:
        _rounds_chunk(seed, start, lo, lo + count, setup, rules, tables, out)

    for_spans(n, min(n, BATCH_CHUNKS), work)
    return recs, plays, legal_n
