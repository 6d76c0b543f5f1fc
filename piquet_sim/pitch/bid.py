"""The bid advisor: for one seat's six cards, at a table of ``players``, after the calls made
before him, the value of every legal call (and of every suit he could pitch) on common worlds.

Perspective: the advising seat's points and score change in the round (as bidder: +bid made,
-bid set; as a defender: the points he takes). Worlds and play: ``kernels/advisor.py``. The
other players bid with ``others`` (default ``threshold``); with ``prior="auction"`` a world is
kept only when they would have made the calls already made (a Bayesian prior over their
hands: uniform over deals, conditioned on that bidding model).
"""

from __future__ import annotations

import re
import time
from dataclasses import asdict, dataclass, field

import numba
import numpy as np

from ..core.backend import stop_requested
from ..core.errors import InputError
from ..core.stats import Z95, paired_difference, wilson_interval
from . import cards as C
from .kernels.advisor import BidQuery, advise_worlds, draw_world
from .kernels.advisor_search import advise_worlds_search
from .kernels.auction import legal_calls
from .kernels.round import new_round_work
from .kernels.simulate import simulate_rounds
from .kernels.winprob import win_chances
from .layouts import BID_MAX, BID_MIN, POINT_NAMES, SEATS, AdviceRec
from .policies import get, make_policy
from .rules import Rules
from .winprob import check_scores, p_win_after, p_win_before, round_pool

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


def _mean(x: np.ndarray) -> Estimate:
    x = np.asarray(x, dtype=np.float64)
    se = float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else float("inf")
    m = float(x.mean())
    return Estimate(m, [m - Z95 * se, m + Z95 * se], len(x))


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


def _search_worlds(seed: int, worlds: int, rules: np.ndarray, policy, query):
    """The search plays' worlds in batches of four per thread, stopping early (and keeping the
    worlds done) when Ctrl-C was pressed (``core.backend.stop_requested``). A world costs 0.7
    to 2.7 CPU-s with pimc and the threads split a batch evenly, so four worlds a thread
    rather than one keep both cores busier (24 worlds on 2 cores: 18 s against 21 s from the
    per-world costs)."""
    batch = 4 * max(1, numba.get_num_threads())
    outs, misses = [], []
    for first in range(0, worlds, batch):
        count = min(batch, worlds - first)
        o, m = advise_worlds_search(
            np.int64(seed), np.int64(first), np.int64(count), rules, policy, query
        )
        outs.append(o)
        misses.append(m)
        if stop_requested():
            break
    return np.concatenate(outs), np.concatenate(misses)


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
    kernels = [advise_worlds_search if get("play", play).needs_solver else advise_worlds]
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
    if get("play", play).needs_solver:
        out, misses = _search_worlds(seed, worlds, rules.to_array(), policy, query)
        worlds = len(out)
    else:
        out, misses = advise_worlds(
            np.int64(seed), np.int64(worlds), rules.to_array(), policy, query
        )
    drawn = len(out)
    fitting = 0 if out_of_reach else int((misses == 0).sum())
    if 0 < fitting < drawn:
        out = out[misses == 0]
    worlds = len(out)
    chances = None
    p_now = None
    if scores is not None:
        pool_play = "heuristic" if get("play", play).needs_solver else play
        pool = round_pool(rules, others, pool_play)
        after = (
            np.asarray(scores, dtype=np.int64)
            + out[:, :, AdviceRec.SCORES : AdviceRec.SCORES + players]
        )
        bidder = out[:, :, AdviceRec.BIDDER]
        made = (
            np.take_along_axis(after - np.asarray(scores), bidder[..., None], axis=-1)[..., 0] > 0
        )
        chances = p_win_after(pool, after, seat, bidder, made, rules.target, seed=seed)
        p_now = p_win_before(pool, scores, seat, rules.target, players - 1, seed=seed)
    seconds = time.perf_counter() - t0
    suits: list[SuitStudy] = []
    values: list[CallValue] = []
    measures: list[np.ndarray] = []
    for j, (call, suit, forced) in enumerate(cands.tolist()):
        o = out[:, j]
        if forced:
            taken = o[:, AdviceRec.TAKEN]
            pts = o[:, AdviceRec.POINTS]
            suits.append(
                SuitStudy(
                    C.SUITS[suit],
                    C.popcount(hand & C.suit_cards(suit)),
                    {
                        name: _prop(int(((taken >> p) & 1).sum()), worlds)
                        for p, name in enumerate(POINT_NAMES)
                    },
                    _mean(pts),
                    {k: _prop(int((pts >= k).sum()), worlds) for k in range(3, 7)},
                )
            )
            continue
        mine = o[:, AdviceRec.BIDDER] == seat
        made = mine & (o[:, AdviceRec.POINTS] >= o[:, AdviceRec.BID])
        name = "pass" if call == 0 else f"{call} {C.SUITS[suit]}"
        if call and seat == players - 1 and call == max(calls, default=0):
            name += " (steal)"
        values.append(
            CallValue(
                name,
                call,
                None if call == 0 else C.SUITS[suit],
                _mean(o[:, AdviceRec.SCORE]),
                float(mine.mean()),
                float(made.sum() / mine.sum()) if mine.any() else None,
                None if chances is None else _mean(chances[:, j]),
            )
        )
        measures.append(o[:, AdviceRec.SCORE] if rank == "score" else chances[:, j])
    order = sorted(range(len(values)), key=lambda i: -float(np.mean(measures[i])))
    best = order[0]
    margin = {}
    if len(order) > 1:
        second = next((i for i in order[1:] if values[i].bid != values[best].bid), order[1])
        margin = {
            "versus": values[second].call,
            "measure": "score change" if rank == "score" else "P(win)",
            **paired_difference(measures[best], measures[second]),
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
    "decisive",
    "parse_auction",
]
