"""Imperfect-information play (``pimc``): perfect-information Monte Carlo over exact worlds.

At each decision the player draws ``n_worlds`` opponent hands from his knowledge
(``knowledge.sample_opponent``: his cards and discards, talon cards seen, the declarations and
answers, the cards played, the voids shown), values every candidate card in every world with the
exact double-dummy solver and plays the card of best mean value (elder maximises, younger
minimises: values are elder minus younger). Candidates are the legal cards after equivalence
reduction (two cards of one suit with nothing between them but cards already played are worth
the same in every world; cut between nine and ten under ``ten_or_higher``); every candidate meets
the same worlds. Ties go to the lowest card index.

The solver workspace is reused across candidates, worlds and decisions: its table is keyed on the
exact position (both hands' holdings relative to the cards out, leader, tricks won, pique state,
lead rule), everything a value depends on, so what it holds stays true whatever the world. Its
generation (``SOLVE_GEN``) moves on at each deal's first decision, so entries of earlier deals
are replaced first (about 5% fewer nodes with a 2 ** 18 table).

Within one world a candidate whose earlier twin (:func:`world_twin`: same suit, none of that
world's opponent cards between them) is still raced takes the twin's value without a solve: the
two are one card to the solver, so the values, and the play, are the same as solving both.

Racing (``race`` parameter, the least number of worlds before a card may be dropped; 0 off):
after each world from the ``race``-th on, :func:`race_step` drops every candidate whose mean
deficit to the current best, paired over the same worlds, exceeds ``race_z`` standard errors;
the decision stops when one candidate is left, so a clear decision costs fewer worlds and a
close one the full count. With ``race`` 0 every candidate meets every world (the behaviour
before racing, kept bit for bit: ``sinking`` and its golden case pass no racing parameters).
Measured (``policies.py`` defaults, race 4, z 2): 0.19 ± 0.19 points per deal weaker than 16
fixed worlds on 1,000 mirrored pairs, at 0.6 of its CPU time; dropping a card that was merely
never better in the first worlds lost 1.4 points, and ``adaptive`` alone 0.6. Later trials
against these defaults (1,000 mirrored pairs each, ``scripts/pimc_speed_strength.py``; solver
nodes per deal against the default's): race 3 -0.05 ± 0.06 (3% fewer nodes), 12 worlds
-0.09 ± 0.10 (9%), 12 worlds race 3 -0.18 ± 0.10 (11%), 10 worlds race 3 -0.23 ± 0.10 (18%);
an indifference margin (also dropping a card not shown 0.5 point better than the best, ties
included) -1.20 ± 0.15. Most of a deal's work is in the first worlds of the first two tricks
(60% of the nodes at trick 1, 22% at trick 2), which racing cannot skip.

Kept worlds (``keep`` parameter, on by default): a player's world ``w`` stays for his later
decisions of the deal while the play has not ruled it out (:func:`kept_world`: the opponent held
every card he has played, the rest avoids what is gone and the suits he showed void in, and the
sampler's bound flags are unchanged), and only dead worlds are redrawn. Drawing uniformly over
the hands consistent with what was known, then keeping those still consistent with what is known
now, is a uniform draw over the latter, so a kept world is distributed like a fresh one; and the
solver's table already holds its later positions. Measured (``scripts/pimc_speed_strength.py``,
1,000 mirrored pairs, keep on minus off): +0.07 ± 0.10 points per deal; on 100 deals (seed 1)
about half the worlds were kept and solver nodes fell by 10% (194,923 to 175,783 per deal).
Each card the opponent shows kills the worlds that lack it (about 40% per card early on), which
limits the gain. A kept world also carries its value at the player's last decision (the exact
value of the card he played, ``PW_VALUES``): less the points of the trick finished since
(:func:`trick_since`) it is the first MTD(f) guess of the world's first card and of the best
card so far, exact whenever the opponent answered as that world's double-dummy play. On the
bench's 30 deals it cut the passes per deal from 1,120 to 1,070 but the nodes by only 0.2%:
most of a deal's work is at tricks 1 and 2, before any value is kept.

``play.player_card`` calls :func:`pimc_decide` for a player whose play policy is ``pimc``; its
parameters (worlds per decision, sampler attempts, adaptive, race, race_z, keep) are the
policy's row of the stage params (a shorter row leaves the rest 0: ``sinking`` keeps no worlds).
"""

from __future__ import annotations

import numpy as np

from ...core.engine.bits import low_index, popcount32
from ...core.engine.jit import njit, njit_inline
from ..rules import RuleSlot
from . import layouts as L
from .knowledge import active_bounds, sample_opponent
from .solver import after_trick, mtdf
from .tricks import SUIT_BITS, cards_bonus, legal_replies, trick_net

MAX_CANDIDATES = 12
#: racing's default threshold (the policy's ``race_z``): standard errors of the mean deficit
RACE_Z = 2.0


@njit
def candidates(legal, gone, ten, out):
    """Representatives of ``legal`` after equivalence reduction into ``out`` (int64[12]), the
    lowest card of each class; ``gone``: cards no longer in either hand. Returns the count."""
    n = 0
    for s in range(4):
        h = (legal >> (8 * s)) & SUIT_BITS
        if h == 0:
            continue
        g = (gone >> (8 * s)) & SUIT_BITS
        prev = -1
        for r in range(8):
            if not (h >> r) & 1:
                continue
            same = False
            if prev >= 0:
                between = ((np.int64(1) << r) - 1) & ~((np.int64(2) << prev) - 1)
                same = (between & ~g) == 0
                if ten and prev < 3 and r >= 3:
                    same = False
            if not same:
                out[n] = 8 * s + r
                n += 1
            prev = r
    return n


@njit
def adaptive_worlds(know, gone, voids, n_opp, n_worlds):
    """Worlds for one decision when the count adapts to what is still unknown: 1 when the
    opponent's hand is determined (every pool card is his, or none), else ``n_worlds`` scaled
    by the cards still to draw over 8 (ceil), at least min(4, ``n_worlds``)."""
    known_now = know[L.KNOW_IN] & ~gone
    m = n_opp - popcount32(known_now)
    excluded = know[L.KNOW_IN] | know[L.KNOW_OUT] | gone | voids
    npool = 32 - popcount32(excluded & np.int64(0xFFFFFFFF))  # as knowledge.pool_cards
    if m <= 0 or m >= npool:
        return np.int64(1)
    w = (n_worlds * m + 7) // 8
    return np.int64(max(min(4, n_worlds), min(n_worlds, w)))


@njit
def world_twin(cand, i, alive, opp, ten):
    """Index of an earlier alive candidate worth the same as ``cand[i]`` in the world where the
    opponent holds ``opp`` (the card led included when replying), or -1: same suit, none of his
    cards between them (every other card between is the player's own or out of play), not
    across nine/ten under ``ten_or_higher``. The solver treats such cards as one (its
    equivalence reduction), so their exact values are equal."""
    c = cand[i]
    for j in range(i - 1, -1, -1):
        d = cand[j]
        if (d >> 3) != (c >> 3) or (ten and (d & 7) < 3 and (c & 7) >= 3):
            return -1
        between = ((np.int64(1) << c) - 1) & ~((np.int64(2) << d) - 1)
        if between & opp:
            return -1
        if alive[j]:
            return j
    return -1


@njit
def reply_value(pos, lead, reply, ws, guess):
    """Exact value (elder minus younger, rest of the deal) of the trick-start position ``pos``
    after ``lead`` and ``reply`` (both still in the hands of ``pos``)."""
    n = popcount32(pos[0])
    nxt, net, left = after_trick(pos, lead, reply, ws.env.rules[RuleSlot.LEAD_POINTS], n)
    if left == 0:
        return net + cards_bonus(nxt[3])
    return net + mtdf(nxt, np.int64(-1), left, guess - net, ws)


@njit
def race_step(vals, w, alive, k, seat, z):
    """Racing after ``w`` worlds: ``vals[j, i]`` is candidate ``i``'s value in world ``j``
    (elder minus younger; ``seat`` 0 maximises, 1 minimises); ``alive`` uint8[k] marks the
    candidates still raced and is updated in place. The best is the alive candidate of best
    total (ties: lowest index); another is dropped when its mean deficit to the best (paired
    over the same worlds) is positive and exceeds ``z`` standard errors (zero variance: any
    positive deficit). Returns the number left."""
    sign = 1 if seat == 0 else -1
    best = -1
    best_sum = 0
    for i in range(k):
        if not alive[i]:
            continue
        t = 0
        for j in range(w):
            t += vals[j, i]
        t *= sign
        if best < 0 or t > best_sum:
            best = i
            best_sum = t
    left = 0
    for i in range(k):
        if not alive[i] or i == best:
            left += alive[i]
            continue
        s1 = 0.0
        s2 = 0.0
        for j in range(w):
            d = float(sign * (vals[j, best] - vals[j, i]))
            s1 += d
            s2 += d * d
        mean = s1 / w
        var = (s2 - s1 * mean) / (w - 1) if w > 1 else 0.0
        if mean > 0.0 and mean * mean * w > z * z * var:
            alive[i] = 0
        else:
            left += 1
    return left


@njit
def kept_world(row, w, opp_played, excluded, n_opp, flags):
    """The opponent's current hand in world ``w`` of the kept row (``PW_*`` layout), or 0 when
    that world is empty or no longer possible: it must hold every card he has played
    (``opp_played``, the card led included), none of ``excluded`` (cards gone, the player's own,
    the suits he has shown void in) among the rest, exactly ``n_opp`` cards besides, and it must
    have been drawn under the sampler's current ``flags`` (same bounds believed, no fallback)."""
    full = row[L.PW_HANDS + w]
    if full == 0 or row[L.PW_FLAGS + w] != flags or (full & opp_played) != opp_played:
        return np.int64(0)
    rest = full & ~opp_played
    if rest & excluded or popcount32(rest) != n_opp:
        return np.int64(0)
    return rest


@njit
def trick_since(kept, gone, ten):
    """(worlds of the kept row ``kept`` that hold a value, the points elder minus younger of
    the one trick finished since the seat's last decision): the row records that decision's
    trick (card led, his card, leader, pique state) and the cards gone then; ``gone``: the
    cards gone now. (0, 0) unless exactly that trick was finished since."""
    valid = kept[L.PW_VALID]
    trick = gone & ~kept[L.PW_GONE]
    lead = kept[L.PW_LEAD]
    reply = kept[L.PW_OWN]
    if valid == 0 or popcount32(trick) != 2 or lead < 0 or reply < 0:
        return np.int64(0), np.int64(0)
    if lead == reply:  # he led: the reply is the trick's other card
        reply = low_index(trick & ~(np.int64(1) << lead))
    if not ((trick >> lead) & 1 and (trick >> reply) & 1):
        return np.int64(0), np.int64(0)
    _, net, _ = trick_net(lead, np.int64(reply), kept[L.PW_LEADER], ten, kept[L.PW_PS], np.int64(0))
    return valid, np.int64(net)


@njit
def keep_values(kept, lead, card, vals, n_done, best):
    """Record the decision just taken in the kept row: his ``card`` (``lead``: the card led to
    him, -1 when he led) and, for each of the first ``n_done`` worlds, the exact value of
    candidate ``best`` (``vals[w, best]``; none with ``best`` < 0, a forced card)."""
    kept[L.PW_OWN] = card
    kept[L.PW_LEAD] = card if lead < 0 else lead
    m = np.int64(0)
    if best >= 0:
        for w in range(min(n_done, L.PW_CAP)):
            kept[L.PW_VALUES + w] = vals[w, best]
            m |= np.int64(1) << w
    kept[L.PW_VALID] = m


@njit_inline
def best_alive(sums, alive, k, seat):
    """The candidate still alive (of the first ``k``) with the best sum of values for ``seat``
    (0 elder: highest, 1 younger: lowest; the first on ties); -1 when none is alive."""
    best = -1
    for i in range(k):
        if alive[i] and (
            best < 0 or (seat == 0 and sums[i] > sums[best]) or (seat == 1 and sums[i] < sums[best])
        ):
            best = i
    return best


@njit
def pimc_decide(seat, view, know, sampler, key, state, ws, stats, kept):
    """The pimc card of ``seat`` (0 elder, 1 younger).

    ``view`` = (own hand, leader, card led or -1 when he leads, elder's tricks so far, pique
    state normalized for the tricks left, cards of the finished tricks, the opponent's share of
    them, the suits the opponent has shown void in); ``know``: the player's knowledge of the
    opponent (``knowledge.deal_knowledge``); ``sampler`` = (worlds per decision, draws per world
    before the declaration bounds are dropped, adaptive: non-zero lets :func:`adaptive_worlds`
    set the count, race: the worlds before :func:`race_step` may drop candidates, 0 off,
    race_z: its threshold in standard errors, keep: non-zero keeps the worlds across the
    player's decisions in a deal).
    ``stats`` int64[PIMC_LEN] accumulates counts. ``kept`` int64[PW_LEN]: the seat's kept worlds
    (with keep on, world ``w`` of an earlier decision is used again while it stays possible,
    :func:`kept_world`, and redrawn when not; a kept world is a draw from the same distribution
    as a fresh one, and the solver's table already holds its later positions).
    """
    own, leader, lead, et, ps, played, opp_played, voids = view
    n_worlds, max_attempts, adaptive, race, z, keep = sampler
    ten = ws.env.rules[RuleSlot.LEAD_POINTS]
    cand = np.empty(MAX_CANDIDATES, dtype=np.int64)
    gone = played
    if lead < 0:
        legal = own
    else:
        legal = legal_replies(own, lead)
        played = played | (np.int64(1) << lead)
        opp_played = opp_played | (np.int64(1) << lead)
    if gone == 0:
        ws.stats[L.SOLVE_GEN] += 1  # a new deal: the table's entries from earlier ones go first
    valid = np.int64(0)  # kept worlds with a value from his last decision
    since = np.int64(0)  # the points of the trick finished since
    if keep:
        if gone == 0 or kept[L.PW_GONE] & ~gone:
            kept[:] = 0  # a new deal
        valid, since = trick_since(kept, gone, ten)
        kept[L.PW_GONE] = gone
        kept[L.PW_LEADER] = leader
        kept[L.PW_PS] = ps
    k = candidates(legal, gone, ten, cand)
    if k == 1:
        if keep:
            # no world solved (n_done 0): no value kept; typed, not constants, so the kernel
            # compiles once for both calls
            keep_values(kept, lead, cand[0], cand.reshape((1, -1)), np.int64(0), np.int64(0))
        return cand[0]
    stats[L.PIMC_DECISIONS] += 1
    n_opp = popcount32(own) - (1 if lead >= 0 else 0)
    if adaptive:
        n_worlds = adaptive_worlds(know, played, voids, n_opp, n_worlds)
    sums = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    guesses = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    pool = np.empty(32, dtype=np.int8)
    hi = np.empty(3, dtype=np.int64)
    flags_now = active_bounds(know, opp_played, ws.env.suit, hi) if keep else 0
    excluded = played | own | voids
    vals = np.empty((max(n_worlds, 1), MAX_CANDIDATES), dtype=np.int64)
    alive = np.ones(MAX_CANDIDATES, dtype=np.uint8)
    last_v = 0
    n_done = 0
    for w in range(n_worlds):
        n_done = w + 1
        slot = keep != 0 and w < L.PW_CAP
        opp = kept_world(kept, w, opp_played, excluded, n_opp, flags_now) if slot else np.int64(0)
        stats[L.PIMC_WORLDS] += 1
        # a kept world valued at his last decision: that value less the trick's points since
        # is the exact value of its best card here when the opponent answered as the world's
        # double-dummy play would (MTD(f)'s guess for the first card and the best so far)
        from_kept = opp != 0 and (valid >> w) & 1
        wg = kept[L.PW_VALUES + w] - since if from_kept else np.int64(0)
        lead_i = best_alive(sums, alive, k, seat) if from_kept else -1
        if opp != 0:
            stats[L.PIMC_KEPT] += 1
            flags = flags_now
        else:
            opp, attempts, flags = sample_opponent(
                know,
                (played, opp_played, voids),
                (n_opp, max_attempts),
                ws.env.suit,
                key,
                state,
                pool,
                hi,
            )
            if attempts < 0:
                stats[L.PIMC_FALLBACKS] += 1
                stats[L.PIMC_ATTEMPTS] -= attempts
            else:
                stats[L.PIMC_ATTEMPTS] += attempts
            if slot:
                kept[L.PW_HANDS + w] = opp | opp_played
                kept[L.PW_FLAGS + w] = flags
        if flags & 7:
            stats[L.PIMC_REFUTED] += 1
        if lead >= 0:
            opp |= np.int64(1) << lead
        pos = (own, opp, leader, et, ps) if seat == 0 else (opp, own, leader, et, ps)
        n = popcount32(pos[0])
        first = True
        for i in range(k):
            if not alive[i]:
                continue
            c = cand[i]
            # MTD(f) guess: the card valued before it in this world (one world's values move
            # together, by the cards and capot bonuses); the first, its own last world's value;
            # in a world kept from his last decision, the first and the best so far take wg
            if from_kept and (first or i == lead_i):
                g = wg
            elif first and w > 0:
                g = guesses[i]
            else:
                g = last_v
            first = False
            j = world_twin(cand, i, alive, opp, ten)
            if j >= 0:
                v = vals[w, j]
            else:
                v = mtdf(pos, c, n, g, ws) if lead < 0 else reply_value(pos, lead, c, ws, g)
                stats[L.PIMC_SOLVES] += 1
            last_v = v
            guesses[i] = v
            sums[i] += v
            vals[w, i] = v
        if race > 0 and w + 1 >= race and race_step(vals, w + 1, alive, k, seat, z) == 1:
            break
    best = best_alive(sums, alive, k, seat)
    if keep:
        keep_values(kept, lead, cand[best], vals, n_done, best)
    return cand[best]
