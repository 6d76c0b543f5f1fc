"""Weighted imperfect-information play (``pimcw``): pimc over worlds weighted by what the
opponent did.

``pimc`` (``pimc.py``) draws the opponent's hand uniformly from every hand consistent with what
the player knows: the card locations (his own cards, discards and talon cards seen, the cards
played, the voids shown) and the declarations taken at face value. Every such hand counts the
same, however unlikely it is that a player holding it would have played the cards the opponent
played. ``pimcw`` scores each drawn hand by the likelihood of the opponent's exchange and play
so far under a model of his policies, and values the candidate cards on worlds resampled by
those weights:

* the model (:func:`play_loglik`): at each of the opponent's earlier decisions in the deal (his
  leads and replies, the card he led to the current trick included) with a real choice (more
  than one equivalence class of legal cards, as ``pimc.candidates`` reduces them), a player
  holding the world's hand at that point plays the ``heuristic`` policy's card (at its
  defaults: ``heuristic.table_move``) with probability ``1 - epsilon``, else a uniform class:
  the card he played has probability ``1 - epsilon + epsilon / k`` when it is the heuristic's
  (or one worth the same to him: same suit, nothing but his own cards and cards gone between
  them) and ``epsilon / k`` when it is not (``k`` classes). ``epsilon`` is the model's
  temperature: 1 weighs every world alike (plain pimc on more draws), small values trust the
  model. The heuristic replayed in a world sees what the opponent saw then: his hand, the
  cards played, the suits the player had shown void in, the tricks he had won (capot defence),
  the player's cards known to him (his knowledge's ``KNOW_IN``, which the player can tell:
  what he showed at the declarations and talon cards both saw) and, as cards known not to be
  the player's, the world's declaration-time hand (his discards are not part of a world);
* the weights (:func:`resample`): ``oversample`` x ``worlds`` hands are drawn by the exact
  sampler (``knowledge.sample_opponent``), each weighted by ``exp(loglik)``, and ``worlds`` of
  them are drawn by systematic resampling (one uniform from the deal's stream): a world is
  valued about as many times as its share of the weight says. With nothing to weigh (no
  exchange known, no card of his yet) ``worlds`` hands are drawn as pimc draws them;
* the valuation: as pimc (every candidate solved exactly in each world, racing with ``race``
  and ``race_z``; no kept worlds: a weighted draw is not a uniform one); a world drawn twice in
  a row takes its values from the first copy.

The exchange model (:func:`exchange_loglik`) weighs a hand by how well the heuristic exchange,
applied to the dealt hand the world implies, reproduces the opponent's take and discard (the
takes are public: ``KNOW_E_TOOK`` / ``KNOW_Y_TOOK``); it is on from the first lead, before he
has played a card.

Measured (``docs/piquet.md``): against pimc on mirrored deals with heuristic exchange,
the defaults (16 worlds of 16 x 16 hands drawn, epsilon 0.8, exchange_epsilon 0.2, 8
completions) +0.46 [0.38, 0.53] points a deal (``piquet ladder --policies pimc,pimcw
--solver-deals 6000 --seed 1``), at about 2.8 times pimc's CPU a deal (10.5 against 3.8 ms with
both seats alike). The exchange model carries the gain (+0.37 alone at 4 x 16 hands); the play
model helps against the heuristic itself but loses against pimc when sharp (epsilon 0.3: -0.4),
so it is kept light; 24 worlds +0.59 +- 0.10 where pimc gains nothing from 24 (+0.05 +- 0.09).

``play.player_card`` calls :func:`pimcw_decide` for a seat whose play policy is ``pimcw``; its
parameters are the row ``(worlds, max_attempts, adaptive, race, race_z, oversample, epsilon,
exchange_epsilon, exchange_draws)``. A plain-Python twin of :func:`play_loglik`,
:func:`completion_mismatch` and :func:`resample` is in ``reference/pimcw.py``.
"""

from __future__ import annotations

import math

import numpy as np

from ...core.engine.bits import popcount32, select_bit
from ...core.engine.jit import njit
from ...core.engine.rng import bounded
from ..heuristic_exchange import HEURISTIC_EXCHANGE_WEIGHTS
from ..rules import RuleSlot
from . import layouts as L
from .exchange import ELDER_MAX_TAKE, TALON, _greedy_discard
from .heuristic import table_move
from .knowledge import sample_opponent
from .pimc import MAX_CANDIDATES, adaptive_worlds, candidates, race_step, reply_value, world_twin
from .solver import mtdf
from .tricks import SUIT_BITS, legal_replies

#: The heuristic's capot endgame size at its defaults (``policies.py`` row ``heuristic``).
MODEL_ENDGAME = 5
#: Resolution of the systematic resampling's uniform (one ``bounded`` draw).
U_STEPS = 1 << 24
#: The exchange model's keep-value weights: the ``heuristic`` exchange policy's.
MODEL_EXCHANGE = np.array(HEURISTIC_EXCHANGE_WEIGHTS, dtype=np.float64)
FULL = np.int64(0xFFFFFFFF)


@njit
def random_subset(mask, n, key, state):
    """``n`` cards of ``mask`` drawn uniformly without replacement (``n`` clipped to its size;
    one ``bounded`` draw per card)."""
    out = np.int64(0)
    rest = mask
    size = popcount32(rest)
    for _ in range(min(n, size)):
        c = select_bit(rest, bounded(key, state, size))
        bit = np.int64(1) << c
        out |= bit
        rest &= ~bit
        size -= 1
    return out


@njit
def completion_mismatch(decl, drawn, x, bounds, younger, tables):
    """Cards by which the heuristic exchange's discard from the dealt hand ``decl - drawn + x``
    (between ``bounds`` = (lowest, highest) cards taken) misses the discard ``x``."""
    dealt = (decl & ~drawn) | x
    model, _ = _greedy_discard(dealt, bounds[0], bounds[1], younger, MODEL_EXCHANGE, tables)
    return popcount32(model ^ x)


@njit
def exchange_mismatch(decl, opp_seat, exch, key, state, tables):
    """:func:`completion_mismatch` of one completion of a world where the opponent's
    declaration-time hand is ``decl`` (:func:`exchange_loglik`)."""
    k_e, k_y, unknown, seen_in, y_lo = exch
    left = unknown & ~decl  # his discard and talon cards nobody took that the player never saw
    if opp_seat == 0:
        n_x = k_e
        drawn = random_subset(decl, k_e, key, state)
        bounds = (np.int64(1), np.int64(ELDER_MAX_TAKE))
    else:
        n_x = k_y
        known = decl & seen_in  # elder's left cards he took
        drawn = known | random_subset(decl & ~known, k_y - popcount32(known), key, state)
        bounds = (np.int64(y_lo), np.int64(TALON - k_e))
    n_left = popcount32(left)
    x = left if n_left <= n_x else left & ~random_subset(left, n_left - n_x, key, state)
    return completion_mismatch(decl, drawn, x, bounds, opp_seat == 1, tables)


@njit
def exchange_loglik(decl, opp_seat, exch, eps_x, draws, key, state, tables):
    """Log-likelihood of the opponent's exchange in a world where his declaration-time hand is
    ``decl``, under the heuristic exchange with a per-card temperature ``eps_x``, averaged over
    ``draws`` completions of the world.

    ``exch`` = (cards elder took, cards younger took, the cards unknown to the player at the
    declarations ``~(KNOW_IN | KNOW_OUT)``, talon cards the player saw that the opponent took,
    the lowest number younger may take). The world does not say which of his cards he drew nor
    which unknown cards he threw; a completion draws them uniformly (the exact conditional law:
    every arrangement of the unseen cards is equally likely): his discard ``X`` from the unknown
    cards outside ``decl`` (the rest are talon cards nobody took), the cards he drew among
    ``decl`` (besides the known ones). His dealt hand is then ``decl`` less what he drew, plus
    ``X``; the model's discard ``M`` from it (``exchange._greedy_discard`` with the heuristic
    exchange's weights, between the rules' bounds) is compared with ``X``: each card in one and
    not the other multiplies the likelihood by ``eps_x``. The mean over completions estimates
    the likelihood of ``decl`` without bias (one completion alone is too noisy to weigh by)."""
    total = 0.0
    for _ in range(draws):
        total += eps_x ** exchange_mismatch(decl, opp_seat, exch, key, state, tables)
    return math.log(max(total / draws, 1e-300))


@njit
def same_class(a, b, own, gone, ten):
    """True when cards ``a`` and ``b`` of the hand ``own`` are worth the same to the play: the
    same card, or the same suit with every card strictly between them in ``own`` or ``gone``
    (not across nine/ten under ``ten_or_higher``)."""
    if a == b:
        return True
    if (a >> 3) != (b >> 3):
        return False
    lo = min(a, b)
    hi = max(a, b)
    if ten and (lo & 7) < 3 and (hi & 7) >= 3:
        return False
    between = ((np.int64(1) << hi) - 1) & ~((np.int64(2) << lo) - 1)
    return (between & ~(own | gone)) == 0


@njit
def play_loglik(opp_now, opp_seat, line, n_tricks, lead, kin, ten, eps, buf):
    """Log-likelihood of the opponent's cards so far in a world where he holds ``opp_now`` now
    (the card he led to the current trick excluded), under the heuristic model with temperature
    ``eps`` (module docstring). ``opp_seat``: his seat (0 elder, 1 younger); ``line``: the cards
    of the finished tricks (lead, reply per trick; elder led the first); ``n_tricks``: how many;
    ``lead``: the card led to the current trick, -1 when the player leads (a card led to him is
    the opponent's decision too); ``kin``: the player's cards the opponent knows; ``buf``
    int64[12] scratch. Returns 0.0 when he has made no choice yet."""
    his_all = np.int64(0)
    leader = np.int64(0)
    for t in range(n_tricks):
        c = np.int64(line[2 * t])
        d = np.int64(line[2 * t + 1])
        his_all |= np.int64(1) << (c if leader == opp_seat else d)
        win_reply = (d >> 3) == (c >> 3) and d > c
        leader = 1 - leader if win_reply else leader
    if lead >= 0:
        his_all |= np.int64(1) << lead
    decl = opp_now | his_all  # his hand at the declarations
    leader = np.int64(0)
    played = np.int64(0)
    before = np.int64(0)  # cards he had played before the trick
    my_voids = np.int64(0)  # suits the player had shown void in
    won = 0
    ll = 0.0
    last = n_tricks + (1 if lead >= 0 else 0)
    for t in range(last):
        if t < n_tricks:
            c = np.int64(line[2 * t])
            d = np.int64(line[2 * t + 1])
        else:
            c = np.int64(lead)
            d = np.int64(-1)
        his = c if leader == opp_seat else d
        hand = decl & ~before
        lead_t = np.int64(-1) if leader == opp_seat else c
        legal = hand if lead_t < 0 else legal_replies(hand, lead_t)
        k = candidates(legal, played, ten, buf)
        if k > 1:
            h = table_move(
                hand, lead_t, played, my_voids, kin, decl, won == 0, np.int64(MODEL_ENDGAME)
            )
            p = eps / k
            if same_class(h, his, hand, played, ten):
                p += 1.0 - eps
            ll += math.log(p)
        if t == n_tricks:
            break
        if leader == opp_seat and (d >> 3) != (c >> 3):
            my_voids |= SUIT_BITS << (c & 0x18)
        win_reply = (d >> 3) == (c >> 3) and d > c
        winner = 1 - leader if win_reply else leader
        won += winner == opp_seat
        before |= np.int64(1) << his
        played |= (np.int64(1) << c) | (np.int64(1) << d)
        leader = winner
    return ll


@njit
def resample(logw, m, n, u, out):
    """Systematic resampling: ``n`` indices into ``out`` (ascending) drawn from the first ``m``
    log-weights, index ``i`` about ``n * w_i / sum(w)`` times; ``u`` in [0, 1) is the one
    uniform offset. Returns the number of distinct indices drawn."""
    top = logw[0]
    for i in range(1, m):
        top = max(top, logw[i])
    total = 0.0
    for i in range(m):
        total += math.exp(logw[i] - top)
    step = total / n
    point = u * step
    acc = math.exp(logw[0] - top)
    i = 0
    distinct = 0
    prev = -1
    for j in range(n):
        while acc <= point and i < m - 1:
            i += 1
            acc += math.exp(logw[i] - top)
        out[j] = i
        if i != prev:
            distinct += 1
            prev = i
        point += step
    return distinct


@njit
def draw_worlds(know, seen, draw, weigh, key, state, ws, stats, worlds):
    """The hands the decision values, into ``worlds`` (int64[n]; the card led to the current
    trick excluded). ``seen`` = (cards gone, the card led included; the opponent's share; the
    suits he has shown void in); ``draw`` = (cards he holds now, hands to value ``n``, sampler
    attempts, oversample); ``weigh`` = (his seat, the line, finished tricks, card led or -1, the
    player's cards he knows, epsilon). Returns the number of distinct hands."""
    n_opp, n, max_attempts, over = draw
    opp_seat, line, n_tricks, lead, kin, eps, eps_x, x_draws = weigh
    opp_played = seen[1]
    ten = ws.env.rules[RuleSlot.LEAD_POINTS]
    k_e = know[L.KNOW_E_TOOK] - 1
    k_y = know[L.KNOW_Y_TOOK] - 1
    y_lo = np.int64(1 if ws.env.rules[RuleSlot.YOUNGER_MUST_EXCHANGE] != 0 else 0)
    unknown = FULL & ~(know[L.KNOW_IN] | know[L.KNOW_OUT])
    exch = (k_e, k_y, unknown, know[L.KNOW_SEEN_IN], y_lo)
    weigh_exchange = k_e >= 1 and k_y >= 0 and eps_x < 1.0  # an exchange took place
    weigh_play = n_tricks > 0 or lead >= 0  # he has made a play decision
    chose = weigh_exchange or weigh_play
    m = n * over if chose else n
    pool = np.empty(32, dtype=np.int8)
    hi = np.empty(3, dtype=np.int64)
    buf = np.empty(MAX_CANDIDATES, dtype=np.int64)
    hands = np.empty(m, dtype=np.int64)
    logw = np.zeros(m, dtype=np.float64)
    for i in range(m):
        opp, attempts, flags = sample_opponent(
            know, seen, (n_opp, max_attempts), ws.env.suit, key, state, pool, hi
        )
        if attempts < 0:
            stats[L.PIMC_FALLBACKS] += 1
            stats[L.PIMC_ATTEMPTS] -= attempts
        else:
            stats[L.PIMC_ATTEMPTS] += attempts
        if flags & 7:
            stats[L.PIMC_REFUTED] += 1
        hands[i] = opp
        if weigh_play:
            logw[i] = play_loglik(opp, opp_seat, line, n_tricks, lead, kin, ten, eps, buf)
        if weigh_exchange:
            decl = opp | opp_played
            logw[i] += exchange_loglik(
                decl, opp_seat, exch, eps_x, x_draws, key, state, ws.env.suit
            )
    if not chose:
        for i in range(n):
            worlds[i] = hands[i]
        return n
    idx = np.empty(n, dtype=np.int64)
    u = (bounded(key, state, U_STEPS) + 0.5) / U_STEPS
    distinct = resample(logw, m, n, u, idx)
    for j in range(n):
        worlds[j] = hands[idx[j]]
    return distinct


@njit
def pimcw_decide(seat, view, know, weigh, sampler, key, state, ws, stats):
    """The pimcw card of ``seat`` (0 elder, 1 younger): ``view`` and ``know`` as
    ``pimc.pimc_decide``; ``weigh`` = (the cards played so far, lead and reply per trick; the
    player's cards the opponent knows); ``sampler`` = (worlds per decision, sampler attempts,
    adaptive, race, race_z, oversample, epsilon, exchange_epsilon, exchange_draws). ``stats``
    int64[PIMC_LEN] accumulates counts (``PIMC_KEPT``: worlds valued from an identical
    neighbour)."""
    own, leader, lead, et, ps, played, opp_played, voids = view
    n_worlds, max_attempts, adaptive, race, z, over, eps, eps_x, x_draws = sampler
    line, kin = weigh
    ten = ws.env.rules[RuleSlot.LEAD_POINTS]
    cand = np.empty(MAX_CANDIDATES, dtype=np.int64)
    gone = played
    n_tricks = popcount32(played) >> 1
    if lead < 0:
        legal = own
    else:
        legal = legal_replies(own, lead)
        played = played | (np.int64(1) << lead)
        opp_played = opp_played | (np.int64(1) << lead)
    if gone == 0:
        ws.stats[L.SOLVE_GEN] += 1  # a new deal: the table's entries from earlier ones go first
    k = candidates(legal, gone, ten, cand)
    if k == 1:
        return cand[0]
    stats[L.PIMC_DECISIONS] += 1
    n_opp = popcount32(own) - (1 if lead >= 0 else 0)
    if adaptive:
        n_worlds = adaptive_worlds(know, played, voids, n_opp, n_worlds)
    n_worlds = max(n_worlds, 1)
    worlds = np.empty(n_worlds, dtype=np.int64)
    draw_worlds(
        know,
        (played, opp_played, voids),
        (n_opp, n_worlds, max_attempts, max(over, 1)),
        (1 - seat, line, n_tricks, lead, kin, eps, eps_x, max(x_draws, 1)),
        key,
        state,
        ws,
        stats,
        worlds,
    )
    sums = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    guesses = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    vals = np.empty((n_worlds, MAX_CANDIDATES), dtype=np.int64)
    alive = np.ones(MAX_CANDIDATES, dtype=np.uint8)
    last_v = 0
    for w in range(n_worlds):
        stats[L.PIMC_WORLDS] += 1
        again = w > 0 and worlds[w] == worlds[w - 1]
        if again:
            stats[L.PIMC_KEPT] += 1
        opp = worlds[w]
        if lead >= 0:
            opp |= np.int64(1) << lead
        pos = (own, opp, leader, et, ps) if seat == 0 else (opp, own, leader, et, ps)
        n = popcount32(pos[0])
        first = True
        for i in range(k):
            if not alive[i]:
                continue
            if again:  # alive now, so valued in the copy before
                v = vals[w - 1, i]
            else:
                g = guesses[i] if first and w > 0 else last_v
                first = False
                j = world_twin(cand, i, alive, opp, ten)
                if j >= 0:
                    v = vals[w, j]
                else:
                    c = cand[i]
                    v = mtdf(pos, c, n, g, ws) if lead < 0 else reply_value(pos, lead, c, ws, g)
                    stats[L.PIMC_SOLVES] += 1
                last_v = v
                guesses[i] = v
            sums[i] += v
            vals[w, i] = v
        if race > 0 and w + 1 >= race and race_step(vals, w + 1, alive, k, seat, z) == 1:
            break
    best = -1
    for i in range(k):
        if alive[i] and (
            best < 0 or (seat == 0 and sums[i] > sums[best]) or (seat == 1 and sums[i] < sums[best])
        ):
            best = i
    return cand[best]
