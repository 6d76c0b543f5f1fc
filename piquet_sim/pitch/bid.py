"""The bid advisor: for one seat's six cards, at a table of ``players``, after the calls made
before him, the value of every legal call (and of every suit he could pitch) on common worlds.

Perspective: the advising seat's points and score change in the round (as bidder: +bid made,
-bid set; as a defender: the points he takes). Worlds and play: ``kernels/advisor.py``. The
other players bid with ``others`` (default ``threshold``); with ``prior="auction"`` a world is
kept only when they would have made the calls already made (a Bayesian prior over their
hands: uniform over deals, conditioned on that bidding model).
"""

from __future__ import annotations

import mmap
import re
import time
from dataclasses import asdict, dataclass, field
from typing import NamedTuple

import numba
import numpy as np

from ..core.engine.backend import LocalBackend, run_chunks, worlds_on_threads
from ..core.engine.errors import InputError
from ..core.engine.stats import Estimate as Sample
from ..core.engine.stats import p_two_sided, paired_difference, wilson_interval
from . import cards as C
from .kernels.advisor import BidQuery, draw_world, world_span
from .kernels.advisor_search import advise_worlds_search
from .kernels.auction import legal_calls
from .kernels.round import new_round_work
from .kernels.simulate import simulate_rounds
from .kernels.winprob import win_chances
from .layouts import BID_MAX, BID_MIN, POINT_NAMES, SEATS, AdviceRec
from .policies import get, make_policy
from .rules import Rules
from .winprob import check_scores, p_win_after, p_win_before, round_pool

ADV_LEN = AdviceRec.LEN
PRIORS = ("auction", "uniform")
#: What the recommendation maximises: ``auto`` (P(win) when the scores make the round
#: decisive, :func:`decisive`, else the score change), the score change, or P(win).
RANKS = ("auto", "score", "win")
#: Default worlds per search play (each world plays every candidate by search).
SEARCH_DEALS = {"pimc": 24, "dd": 100}


def parse_auction(text: str | None, seat: int, players: int) -> list[int]:
    """Calls of seats 0..seat-1 from ``"0:pass 1:4 …"`` (seat:call, calls pass or 3..6, in seat
    order, each legal); raises InputError."""
    calls: list[int] = []
    items = (text or "").replace(",", " ").split()
    highest = 0
    for i, item in enumerate(items):
        m = re.fullmatch(r"(\d+):(pass|p|[3-6])", item.strip().lower())
        if not m:
            raise InputError(f"auction item {item!r}: expected SEAT:CALL (CALL pass or 3..6)")
        s, call = int(m.group(1)), m.group(2)
        if s != i:
            raise InputError(f"auction item {item!r}: calls go in seat order from seat 0")
        c = 0 if call.startswith("p") else int(call)
        if c and c <= highest:
            raise InputError(f"auction item {item!r}: a bid must be higher than {highest}")
        highest = max(highest, c)
        calls.append(c)
    if len(calls) != seat:
        raise InputError(
            f"seat {seat} speaks after seats 0..{seat - 1}: give their {seat} calls "
            f"(got {len(calls)})"
            if seat
            else "seat 0 speaks first: no calls before him"
        )
    if seat >= players:
        raise InputError(f"seat must be 0..{players - 1} at {players} players")
    return calls


@dataclass
class Estimate:
    """A mean with its 95% interval and sample count."""

    mean: float
    ci95: list[float]
    n: int


@dataclass
class SuitStudy:
    """The advising seat as bidder with ``suit`` as trump (the auction stopped at him)."""

    suit: str
    trumps: int
    p_points: dict[str, Estimate]  # P(he scores High, Low, Jack, Six, Last, Game)
    expected_points: Estimate
    p_at_least: dict[int, Estimate]  # P(points >= k), k = 3..6


@dataclass
class CallValue:
    """One call (a bid with the suit to pitch, or a pass) and its expected score change."""

    call: str
    bid: int
    suit: str | None
    score: Estimate
    p_bidder: float  # share of worlds where he ended the bidder
    p_made: float | None  # of those, share where he made the bid
    p_win: Estimate | None = None  # with scores: P(he wins the game to the target)


@dataclass
class BidAdvice:
    hand: str
    players: int
    seat: int
    dealer: bool
    auction: list[int]
    others: str
    play: str
    prior: str
    worlds: int  # worlds every figure counts (those that fit the calls when any does)
    inconsistent_worlds: int  # worlds drawn that do not fit the calls (left out when any fits)
    seed: int
    suits: list[SuitStudy]
    calls: list[CallValue]
    recommendation: str
    margin: dict = field(default_factory=dict)  # best minus runner-up call (paired)
    seconds: float = 0.0
    scores: list[int] | None = None  # game scores per seat before the round
    rank: str = "score"  # what the recommendation maximised: "score" or "win"
    p_win_now: float | None = None  # with scores: P(he wins) before the round (table policies)
    partial: bool = False  # stopped early (Ctrl-C): fewer worlds than asked
    worlds_drawn: int = 0  # worlds dealt (fitting the calls or not)
    worlds_fitting: int = 0  # of those, the ones where the others' bid policy makes their calls
    rank_reason: str = ""  # why that ranking (asked, or the round decisive or not)

    def to_dict(self) -> dict:
        return asdict(self)


def decisive(
    scores: list[int], seat: int, calls: list[int], players: int, target: int
) -> list[str]:
    """Why the round can end the game (empty when it cannot): a player wins it by making his
    bid at ``target`` or more, so it is decisive when the advising seat reaches the target with
    a bid he may make, when the highest bidder before him reaches it with his bid, or when a
    seat after him reaches it with the lowest bid it could make."""
    highest = max(calls, default=0)
    why = []
    mine = int(legal_calls(highest, 1 if seat == players - 1 else 0))
    bids = [b for b in range(BID_MIN, BID_MAX + 1) if mine >> b & 1]
    need = [b for b in bids if scores[seat] + b >= target]
    if need:
        more = " or more" if need[0] < BID_MAX else ""
        why.append(f"making a bid of {need[0]}{more} takes you from {scores[seat]} to {target}")
    if highest:
        top = max(s for s, c in enumerate(calls) if c == highest)
        if scores[top] + highest >= target:
            why.append(f"seat {top} at {scores[top]} wins by making his {highest}")
    for s in range(seat + 1, players):
        low = max(BID_MIN, highest if s == players - 1 else highest + 1)
        if low <= BID_MAX and scores[s] + low >= target:
            why.append(f"seat {s} at {scores[s]} wins by making a bid of {low}")
    return why


#: The most points one round gives out (High, Low, Jack, Six, Last, Game).
ROUND_POINTS = len(POINT_NAMES)


def check_in_progress(scores: list[int], target: int) -> None:
    """Refuse game scores no game in progress plausibly has (InputError): a bidder who makes
    his bid at ``target`` or more wins at once, so a seat at the target got there defending
    and wins with the first bid he makes; scores from ``target`` + :data:`ROUND_POINTS` on
    (a defender past the target by more than one round's points) are taken for a typing
    error or a finished game."""
    limit = target + ROUND_POINTS
    for seat, score in enumerate(scores):
        if score >= limit:
            raise InputError(
                f"--score: seat {seat} at {score} is not a game in progress to {target}: a "
                f"bidder wins on making his bid at {target} or more (scores from {limit} on "
                "are refused)"
            )


def _advice_estimate(e: Sample) -> Estimate:
    """The advice's form (mean, 95% interval, count) of a core estimate."""
    return Estimate(e.mean, [e.lo, e.hi], e.n)


def _prop(k: int, n: int) -> Estimate:
    lo, hi = wilson_interval(int(k), n)
    return Estimate(k / n, [lo, hi], n)


def candidates(hand: int, seat: int, players: int, calls: list[int]) -> np.ndarray:
    """Candidate rows (Cand): the per-suit studies, then each legal call (bids once per suit
    held)."""
    suits = [s for s in range(4) if hand & C.suit_cards(s)]
    rows = [(BID_MIN, s, 1) for s in suits]
    legal = int(legal_calls(max(calls, default=0), 1 if seat == players - 1 else 0))
    if legal & 1:
        rows.append((0, -1, 0))
    for b in range(BID_MIN, BID_MAX + 1):
        if legal >> b & 1:
            rows += [(b, s, 0) for s in suits]
    return np.array(rows, dtype=np.int64)


#: Worlds per chunk of the solver-free plays (largest, first): chunks are paced to about
#: ``core.backend.CHUNK_SECONDS``, so a Ctrl-C is answered within about that.
CHUNKS = (1 << 16, 1024)


#: Values of a candidate's points and score change kept in the tallies: -SPAN .. SPAN-1.
SPAN = 16


class Tally:
    """Counts and sums of every candidate's outcomes over worlds, kept apart for the worlds
    that fit the calls (group 0) and those that do not (group 1), merged exactly chunk by
    chunk: the summary after a Ctrl-C then costs nothing whatever the worlds done. Per
    candidate: histograms of the advising seat's score change and points (value + SPAN), the
    worlds each Point was his, the worlds he was the bidder and made it, and the sums of
    products of score changes between candidates (paired differences)."""

    def __init__(self, m: int, seat: int) -> None:
        self.seat = seat
        self.worlds = np.zeros(2, dtype=np.int64)
        self.score = np.zeros((2, m, 2 * SPAN), dtype=np.int64)
        self.points = np.zeros((2, m, 2 * SPAN), dtype=np.int64)
        self.taken = np.zeros((2, m, len(POINT_NAMES)), dtype=np.int64)
        self.mine = np.zeros((2, m), dtype=np.int64)
        self.made = np.zeros((2, m), dtype=np.int64)
        self.products = np.zeros((2, m, m), dtype=np.int64)

    def add(self, out: np.ndarray, misses: np.ndarray) -> None:
        """Count ``out`` (int64[worlds, m, AdviceRec.LEN], the kernel's rows) with
        ``misses`` (1: the world does not fit the calls)."""
        m = out.shape[1]
        for g in (0, 1):
            sel = misses == g
            k = int(sel.sum())
            if k == 0:
                continue
            x = out if k == len(out) else out[sel]
            score, points = x[:, :, AdviceRec.SCORE], x[:, :, AdviceRec.POINTS]
            if min(score.min(), points.min()) < -SPAN or max(score.max(), points.max()) >= SPAN:
                raise AssertionError("a score change or points out of the tallies' range")
            lanes = 2 * SPAN * np.arange(m)
            self.worlds[g] += k
            self.score[g] += np.bincount(
                (score + SPAN + lanes).ravel(), minlength=2 * SPAN * m
            ).reshape(m, 2 * SPAN)
            self.points[g] += np.bincount(
                (points + SPAN + lanes).ravel(), minlength=2 * SPAN * m
            ).reshape(m, 2 * SPAN)
            taken = x[:, :, AdviceRec.TAKEN]
            for bit in range(len(POINT_NAMES)):
                self.taken[g, :, bit] += ((taken >> bit) & 1).sum(axis=0)
            mine = x[:, :, AdviceRec.BIDDER] == self.seat
            self.mine[g] += mine.sum(axis=0)
            self.made[g] += (mine & (points >= x[:, :, AdviceRec.BID])).sum(axis=0)
            f = score.astype(np.float64)  # exact: |products| * worlds far below 2**53
            self.products[g] += np.rint(f.T @ f).astype(np.int64)

    def groups(self, which: tuple[int, ...]) -> Tally:
        """The tally of these groups together."""
        t = Tally(self.mine.shape[1], self.seat)
        for name in ("worlds", "score", "points", "taken", "mine", "made", "products"):
            mine = getattr(self, name)
            total = getattr(t, name)
            for g in which:
                total[0] += mine[g]
        return t


def _hist_mean(h: np.ndarray) -> Estimate:
    """The mean of the values a histogram counts (bin i: value i - SPAN) with its 95%
    interval, as ``Estimate.of_sample`` gives for the values themselves (the sums are exact)."""
    v = np.arange(len(h)) - SPAN
    return _advice_estimate(
        Sample.of_sums(int((h * v).sum()), int((h * v * v).sum()), int(h.sum()))
    )


def _paired_from_sums(n: int, sd: int, sdd: int) -> dict:
    """``core.stats.paired_difference`` from the count, sum and sum of squares of the
    differences (integers, exact)."""
    e = Sample.of_sums(sd, sdd, n)
    mean, se = e.mean, e.se
    p = p_two_sided(mean / se) if n > 1 and se > 0 else (1.0 if mean == 0 else 0.0)
    return {"mean": mean, "se": se, "ci95": [e.lo, e.hi], "p": p, "n": n}


class Worlds(NamedTuple):
    """The worlds finished, ``count`` from world 0 (fewer than asked after a Ctrl-C): their
    :class:`Tally`, and when asked for (``keep``, the game chances need them) the worlds one by
    one: ``misses`` int8[count] (1: the world does not fit the calls) and ``fields``
    int8[LEN, m, count], ``kernels.advisor``'s outcome of each candidate in each world
    (``AdviceRec``: points, score change, bidder, bid, points taken as bits, every seat's score
    change; all within -6 .. 63) with a world a column; else both None."""

    count: int
    tally: Tally
    misses: np.ndarray | None
    fields: np.ndarray | None


def _run_worlds(
    seed: int, worlds: int, rules: np.ndarray, policy, query, search: bool, keep: bool
) -> Worlds:
    """The advice's worlds in chunks (``core.backend.run_chunks``: the first Ctrl-C stops after
    the chunk in flight; the numbers do not depend on the chunks), each chunk tallied (and
    kept, with ``keep``). The search plays run ``kernels.advisor_search.advise_worlds_search``
    on batches of four worlds per thread (a world costs 0.7 to 2.7 CPU-s with pimc and the
    threads split a batch evenly, so four worlds a thread rather than one keep both cores
    busier). The others run the serial ``kernels.advisor.world_span`` (``advise_worlds``
    always starts at world 0) on numba's thread count of Python threads (it releases the GIL),
    into rows of a buffer of every world whose memory is handed back to the system once a
    chunk is counted, so a run of millions of worlds holds its tallies only."""
    m = query.cands.shape[0]
    tally = Tally(m, int(query.seat))
    misses = np.zeros(worlds if keep else 0, dtype=np.int8)
    fields = np.zeros((ADV_LEN, m, worlds if keep else 0), dtype=np.int8)
    finished = [0]

    def count(lo: int, hi: int, o: np.ndarray, miss: np.ndarray) -> None:
        tally.add(o, miss)
        if keep:
            misses[lo:hi] = miss
            fields[:, :, lo:hi] = o.transpose(2, 1, 0)
        finished[0] = hi

    if search:
        unit = 4 * max(1, numba.get_num_threads())

        def task(chunk) -> None:
            lo = chunk.start * unit
            hi = min(worlds, (chunk.start + chunk.size) * unit)
            o, miss = advise_worlds_search(
                np.int64(seed), np.int64(lo), np.int64(hi - lo), rules, policy, query
            )
            count(lo, hi, o, miss)

        run_chunks(LocalBackend(), task, -(-worlds // unit), 1, (), lambda c, r: None, first=1)
    else:
        row = m * ADV_LEN * 8
        buf = mmap.mmap(-1, max(1, worlds * row))  # anonymous: pages cost memory once touched
        out = np.frombuffer(buf, dtype=np.int64, count=worlds * m * ADV_LEN).reshape(
            worlds, m, ADV_LEN
        )
        kernel_misses = np.zeros(worlds, dtype=np.int64)
        released = [0]

        def task(chunk) -> None:
            lo, hi = chunk.start, chunk.start + chunk.size
            worlds_on_threads(world_span, seed, lo, hi, rules, policy, query, out, kernel_misses)
            count(lo, hi, out[lo:hi], kernel_misses[lo:hi])
            end = hi * row // mmap.PAGESIZE * mmap.PAGESIZE  # whole pages of counted rows
            if end > released[0]:
                buf.madvise(mmap.MADV_DONTNEED, released[0], end - released[0])
                released[0] = end

        # the buffer is unmapped when the last array viewing it goes (a thread of a chunk lost
        # to a second Ctrl-C may still be writing into it)
        largest, first = CHUNKS
        run_chunks(LocalBackend(), task, worlds, largest, (), lambda c, r: None, first=first)
    n = finished[0]
    return Worlds(n, tally, misses[:n] if keep else None, fields[:, :, :n] if keep else None)


#: Worlds :func:`_calls_can_fit` tries before the calls are taken as out of reach.
PILOT_WORLDS = 4


def _calls_can_fit(seed: int, players: int, policy, query) -> bool:
    """False when none of the first :data:`PILOT_WORLDS` worlds (``kernels.advisor.draw_world``,
    every draw) fits the calls: the others' bid policy (practically) never calls so, and the
    advisor then draws its worlds uniformly instead of spending every world's draws in vain."""
    work = new_round_work()
    dealt = np.zeros(SEATS, dtype=np.int64)
    for w in range(PILOT_WORLDS):
        _, miss = draw_world(
            np.int64(seed), np.int64(w), np.int64(players), policy, query, work, dealt
        )
        if not miss:
            return True
    return False


def advisor_kernels(play: str = "heuristic", with_scores: bool = False) -> tuple:
    """The numba entry kernels :func:`advise_bid` calls with this play (the search plays' own
    advisor; with ``with_scores`` also the round simulator and the game chances of P(win)):
    what a command asks about for its compile notice (``core.cli.kernels_cold``)."""
    kernels = [advise_worlds_search if get("play", play).needs_solver else world_span]
    if with_scores:
        kernels += [simulate_rounds, win_chances]
    return tuple(kernels)


def advise_bid(
    hand: int,
    players: int,
    seat: int,
    auction: list[int] | None = None,
    rules: Rules | None = None,
    play: str = "heuristic",
    others: str = "threshold",
    prior: str = "auction",
    worlds: int = 5000,
    seed: int = 1,
    scores: list[int] | None = None,
    rank: str = "auto",
    play_params: tuple[float, ...] | None = None,
) -> BidAdvice:
    """Value every legal call of ``seat`` holding ``hand`` (six cards) on ``worlds`` common
    worlds. With ``scores`` (game scores per seat, seat 0 first) every call also gets P(this
    seat wins the game to the target), from the round's outcomes in each world and games played
    on from there (``winprob``); ``rank="win"`` recommends by it, ``"auto"`` (the default) by
    it when the scores make the round decisive (:func:`decisive`), else by the expected score
    change. Worlds that do not fit the calls (``kernels.advisor.draw_world`` found none in its
    draws) are left out when any world fits. Raises InputError on bad input (before any
    simulation)."""
    rules = rules or Rules(players=players)
    if rules.players != players:
        raise InputError("rules and players disagree")
    if C.popcount(hand) != C.HAND_SIZE:
        raise InputError(f"a hand has 6 cards, got {C.popcount(hand)}")
    if not 0 <= seat < players:
        raise InputError(f"seat must be 0..{players - 1} at {players} players")
    calls = list(auction or [])
    if len(calls) != seat:
        raise InputError(f"seat {seat} needs the {seat} calls before him")
    if prior not in PRIORS:
        raise InputError(f"prior must be one of {', '.join(PRIORS)}")
    if not 1 <= worlds <= 10_000_000:
        raise InputError("worlds must be 1 to 10,000,000")
    if rank not in RANKS:
        raise InputError(f"rank must be one of {', '.join(RANKS)}")
    if rank == "win" and scores is None:
        raise InputError("ranking by P(win) needs the scores (--score)")
    if scores is not None:
        scores = check_scores(scores, players)
        check_in_progress(scores, rules.target)
    if rank != "auto":
        rank_reason = f"asked (rank {rank})"
    elif scores is None:
        rank, rank_reason = "score", "no scores given"
    else:
        why = decisive(scores, seat, calls, players, rules.target)
        rank = "win" if why else "score"
        rank_reason = (
            "the round is decisive: " + "; ".join(why)
            if why
            else f"the round is not decisive: nobody can reach {rules.target} in it"
        )
    policy = make_policy(others, play, play_params=play_params, allow_solver=True)
    cands = candidates(hand, seat, players, calls)
    padded = np.full(6, -1, dtype=np.int64)
    padded[:seat] = calls
    query = BidQuery(
        np.int64(seat), np.int64(hand), padded, cands, np.int64(prior == "auction" and seat > 0)
    )
    t0 = time.perf_counter()
    asked = worlds
    out_of_reach = query.prior == 1 and not _calls_can_fit(seed, players, policy, query)
    if out_of_reach:  # every world would spend its draws in vain: draw them uniformly
        query = query._replace(prior=np.int64(0))
    done = _run_worlds(
        seed,
        worlds,
        rules.to_array(),
        policy,
        query,
        get("play", play).needs_solver,
        keep=scores is not None,
    )
    if done.count == 0:  # a second Ctrl-C before the first chunk finished: nothing to show
        raise KeyboardInterrupt
    drawn = done.count
    fit_only = not out_of_reach and 0 < done.tally.worlds[0] < drawn
    fitting = 0 if out_of_reach else int(done.tally.worlds[0])
    tally = done.tally.groups((0,) if fit_only else (0, 1))
    worlds = int(tally.worlds[0])
    chances = None
    p_now = None
    if scores is not None:
        fields = done.fields[:, :, done.misses == 0] if fit_only else done.fields
        pool_play = "heuristic" if get("play", play).needs_solver else play
        pool = round_pool(rules, others, pool_play)
        change = np.moveaxis(fields[AdviceRec.SCORES : AdviceRec.SCORES + players], 0, -1)
        after = np.asarray(scores, dtype=np.int64) + change  # [candidate, world, seat]
        bidder = fields[AdviceRec.BIDDER].astype(np.int64)
        made = np.take_along_axis(change, bidder[..., None], axis=-1)[..., 0] > 0
        chances = p_win_after(pool, after, seat, bidder, made, rules.target, seed=seed)
        p_now = p_win_before(pool, scores, seat, rules.target, players - 1, seed=seed)
    seconds = time.perf_counter() - t0
    suits: list[SuitStudy] = []
    values: list[CallValue] = []
    rows: list[int] = []  # the candidate row of each call
    for j, (call, suit, forced) in enumerate(cands.tolist()):
        if forced:
            h = tally.points[0, j]
            suits.append(
                SuitStudy(
                    C.SUITS[suit],
                    C.popcount(hand & C.suit_cards(suit)),
                    {
                        name: _prop(int(tally.taken[0, j, p]), worlds)
                        for p, name in enumerate(POINT_NAMES)
                    },
                    _hist_mean(h),
                    {k: _prop(int(h[SPAN + k :].sum()), worlds) for k in range(3, 7)},
                )
            )
            continue
        mine, made = int(tally.mine[0, j]), int(tally.made[0, j])
        name = "pass" if call == 0 else f"{call} {C.SUITS[suit]}"
        if call and seat == players - 1 and call == max(calls, default=0):
            name += " (steal)"
        values.append(
            CallValue(
                name,
                call,
                None if call == 0 else C.SUITS[suit],
                _hist_mean(tally.score[0, j]),
                mine / worlds,
                made / mine if mine else None,
                None if chances is None else _advice_estimate(Sample.of_sample(chances[j])),
            )
        )
        rows.append(j)
    if rank == "score":
        means = [v.score.mean for v in values]
    else:
        means = [float(np.mean(chances[j])) for j in rows]
    order = sorted(range(len(values)), key=lambda i: -means[i])
    best = order[0]
    margin = {}
    if len(order) > 1:
        second = next((i for i in order[1:] if values[i].bid != values[best].bid), order[1])
        if rank == "score":
            a, b = rows[best], rows[second]
            h_a, h_b = tally.score[0, a], tally.score[0, b]
            v = np.arange(2 * SPAN) - SPAN
            sd = int((h_a * v).sum()) - int((h_b * v).sum())
            pr = tally.products[0]
            sdd = int(pr[a, a]) + int(pr[b, b]) - 2 * int(pr[a, b])
            diff = _paired_from_sums(worlds, sd, sdd)
        else:
            diff = paired_difference(chances[rows[best]], chances[rows[second]])
        margin = {
            "versus": values[second].call,
            "measure": "score change" if rank == "score" else "P(win)",
            **diff,
        }
    return BidAdvice(
        C.format_cards(hand),
        players,
        seat,
        seat == players - 1,
        calls,
        others,
        play,
        prior,
        worlds,
        drawn - fitting,
        seed,
        suits,
        values,
        values[best].call,
        margin,
        seconds,
        scores,
        rank,
        p_now,
        drawn < asked,
        drawn,
        fitting,
        rank_reason,
    )


__all__ = [
    "PRIORS",
    "BidAdvice",
    "CallValue",
    "SuitStudy",
    "advise_bid",
    "advisor_kernels",
    "check_in_progress",
    "decisive",
    "parse_auction",
]
