"""The bid advisor: with these eight cards, in this seat, after these calls, which call?

:func:`advise` samples worlds (the other 24 cards dealt to the three other seats) consistent
with the auction so far under a **prior**: the auction policy of those seats (default the
``threshold`` bidder with its default parameters; ``random`` makes every world consistent).
In every world it plays the round with the player contracting in each trump suit, and for
every legal call (each bid above the last, and the pass) it lets the three others finish the
auction with the same policy (the player passes from then on), plays the final contract and
scores it. Every candidate is valued on the same worlds (common random numbers).

Perspective: **the player's team**. Round points are its card points (250 for its capot)
plus the combinations it scores and its pilotta (card-point units, what a contract is measured
against); a call's value is the round's game points of the player's team minus the
opponents' (the round alone, not the game).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NamedTuple

import numba
import numpy as np

from ..core.engine.backend import LocalBackend, run_chunks, stop_requested, worlds_on_threads
from ..core.engine.errors import InputError, check_choice
from ..core.engine.interruptible import call_interruptibly
from ..core.engine.stats import Estimate, paired_difference, proportion
from .api import make_setup, simulate_batch
from .calls import Auction
from .cards import PACK, SEATS, SUITS, parse_seat, parse_suit, popcount
from .kernels import advise as K
from .kernels import pimc as PK
from .kernels import solver as SK
from .kernels.winprob import win_table
from .layouts import BIDS, RoundRec, Score
from .policies import defaults, names
from .rules import DEFAULT_RULES, Rules

#: How the advisor's rounds may be played: every play policy of the registry (``dd``: the
#: exact double-dummy values, a marked oracle).
PLAYS = names("play")
#: The other seats' bidding policies the advisor can sample worlds under (policies that can
#: finish an auction quickly and test a call for consistency).
PRIORS = ("threshold", "random")
MAKE_LEVELS = (80, 90, 100, 110, 120, 130, 140, 150, 160)
#: Worlds drawn by default: fewer for the solver's plays.
DEFAULT_DEALS = {"pimc": 24, "dd": 200}
DEFAULT_WORLDS = 2000
#: Worlds per decision of the pimc players inside ``advise`` (fewer than a strategy's default:
#: every world plays about five contracts, each with 32 pimc decisions).
ADVISE_PIMC_WORLDS = 4


def call_name(level: int, suit: int) -> str:
    """'pass', '90H', 'capotS' for a level 0..9 (-1: pass)."""
    if level < 0:
        return "pass"
    return ("capot" if level == 9 else str(BIDS[level])) + SUITS[suit]


def parse_call(text: str) -> tuple[int, int]:
    """(level, suit) of 'pass', 'p', '90H', '160 S', 'capotC'; raises InputError."""
    t = text.strip().replace(" ", "")
    if t.lower() in ("pass", "p", "-"):
        return -1, -1
    if t.lower().startswith("capot"):
        number, suit = 250, t[5:]
    else:
        digits = len(t) - len(t.lstrip("0123456789"))
        if digits == 0:
            raise InputError(f"'{text}' is not a call (pass, 80H … 160S, capotC)")
        number, suit = int(t[:digits]), t[digits:]
    if number not in BIDS:
        raise InputError(f"'{text}': bids are 80, 90, …, 160 or capot")
    try:
        s = parse_suit(suit)
    except InputError:
        raise InputError(f"'{text}': a bid names a trump suit (S, H, D or C)") from None
    return BIDS.index(number), s


def parse_auction(text: str, dealer: int, rules: Rules = DEFAULT_RULES) -> list[tuple]:
    """Calls 'E:pass S:90H …' (seat:call, in turn from the player after the dealer) as
    (seat, level, suit) tuples; raises InputError for a call out of turn, too low, after a
    final pass, or after the auction ended."""
    auction = Auction(dealer, rules.pass_is_final)
    out = []
    for token in text.split():
        if ":" not in token:
            raise InputError(f"'{token}': write each call as SEAT:CALL (E:pass, S:90H)")
        seat_text, call_text = token.split(":", 1)
        seat = parse_seat(seat_text)
        if auction.is_over():
            raise InputError(f"'{token}': the auction is already over")
        if seat != auction.to_speak():
            raise InputError(f"'{token}' is out of turn: it is {SEATS[auction.to_speak()]}'s call")
        level, suit = parse_call(call_text)
        if level >= 0:
            last = auction.last_bid()
            if last is not None and level <= last[1]:
                raise InputError(f"'{token}' must be higher than {call_name(last[1], last[2])}")
            if not auction.may_bid(seat):
                raise InputError(f"'{token}': {SEATS[seat]} has passed (pass is final)")
        auction.call(level, suit)
        out.append((seat, level, suit))
    return out


def candidates(calls: list[tuple], dealer: int, seat: int, rules: Rules) -> list[tuple[int, int]]:
    """The player's legal calls: the pass, then every bid above the last (each suit)."""
    auction = Auction(dealer, rules.pass_is_final)
    for _, level, suit in calls:
        auction.call(level, suit)
    if auction.is_over():
        raise InputError("the auction is over: nothing left to call")
    if auction.to_speak() != seat:
        raise InputError(f"after these calls it is {SEATS[auction.to_speak()]}'s call, not yours")
    out = [(-1, -1)]
    if auction.may_bid(seat):
        last = auction.last_bid()
        start = last[1] + 1 if last else 0
        out += [(lv, s) for lv in range(start, 10) for s in range(4)]
    return out


def _mean(x: np.ndarray) -> dict:
    """A sample's mean, standard error and 95% interval (``core.stats``; the count is the
    advice's ``worlds``)."""
    d = Estimate.of_sample(x).to_dict()
    del d["n"]
    return d


def entry_kernels(play: str = "heuristic") -> list:
    """The numba kernels :func:`advise` calls with this play (for a compile notice)."""
    extra = {"pimc": [PK.pimc_contracts], "dd": [SK.solve_batch]}
    return [K._chunk, *extra.get(play, [])]


def advise(
    hand: int,
    seat: int,
    dealer: int | None = None,
    auction: str = "",
    play: str = "heuristic",
    deals: int | None = None,
    seed: int = 1,
    prior: str = "threshold",
    rules: Rules = DEFAULT_RULES,
    score: tuple[int, int] | None = None,
    on_start: Callable[[], object] | None = None,
) -> dict:
    """Advise the call of ``seat`` (0 N .. 3 W) holding ``hand`` (8-card mask) after
    ``auction`` ('E:pass S:90H …', in turn from the player after ``dealer``; default dealer:
    the seat before the first caller, or before the player when the auction is empty).
    ``play``: heuristic, random, greedy, pimc (all four seats) or dd (exact double-dummy
    values, the marked oracle). ``deals``: worlds drawn (default 2000; 200 with dd; 24 with
    pimc, whose players sample ``ADVISE_PIMC_WORLDS`` worlds of their own per decision).
    Returns a dict (see the module docstring for perspective): per trump suit, the player's
    team's round points and P(making 80 … 160, capot); per call, its mean value in game points
    with a 95% interval; the recommendation with its paired margin over the runner-up.
    ``score`` (the player's team's game points, the opponents'): also each call's P(winning
    the game) and the call that maximises it (:func:`win_probability_table`). ``on_start()``
    is called once the input is checked, before the first kernel (the CLI's compile notice)."""
    if popcount(hand) != 8:
        raise InputError(f"a hand holds 8 cards, got {popcount(hand)}")
    check_choice("play", play, PLAYS)
    check_choice("prior", prior, PRIORS)
    if dealer is None:
        tokens = auction.split()
        first = parse_seat(tokens[0].split(":", 1)[0]) if tokens else seat
        dealer = (first - 1) % 4
    calls = parse_auction(auction, dealer, rules)
    cands = candidates(calls, dealer, seat, rules)
    n = DEFAULT_DEALS.get(play, DEFAULT_WORLDS) if deals is None else int(deals)
    if not 1 <= n <= 1_000_000:
        raise InputError(f"deals must be 1 .. 1,000,000, got {n}")
    play_policy = "heuristic" if play == "dd" else play
    w = ADVISE_PIMC_WORLDS
    setup = make_setup(prior, play_policy, play_policy, worlds=(w, w))
    cand_arr = np.array(cands, dtype=np.int64)
    call_arr = np.array(calls, dtype=np.int64).reshape(-1, 3)
    if score is not None and not all(0 <= int(x) < rules.game_target for x in score):
        raise InputError(f"--score: both totals must be 0 .. {rules.game_target - 1}")
    if on_start is not None:
        on_start()
    table = None
    if score is not None:  # before the worlds: one kernel call, so Ctrl-C ends it at once
        table_play = "heuristic" if play == "pimc" else play_policy
        table = call_interruptibly(
            lambda: win_probability_table(prior, table_play, rules),
            stop=lambda: None,  # nothing kept: the command aborts
            stopped=stop_requested,
        )
    t0 = time.perf_counter()
    done = _run_worlds(hand, seat, dealer, play, n, seed, setup, rules, call_arr, cand_arr)
    requested, n = n, done.count
    if n == 0:  # a second Ctrl-C before the first chunk finished: nothing to show
        raise KeyboardInterrupt
    seconds = time.perf_counter() - t0
    tries = done.tries
    ok = tries > 0
    m = int(ok.sum())
    if m == 0:
        raise InputError(
            "no sampled world fits the auction under the prior (try --prior random, or more deals)"
        )
    per_trump, per_cand = done.trump, done.cand  # fields first, a world a column
    if m < n:
        per_trump, per_cand = per_trump[:, :, ok], per_cand[:, :, ok]
    trumps = {}
    for t in range(4):
        reach = per_trump[K.T_REACH, t]
        capot = per_trump[K.T_CAPOT, t]
        trumps[SUITS[t]] = {
            "points": _mean(reach.astype(float)),
            "card_points": _mean(per_trump[K.T_CARD, t].astype(float)),
            "quantiles": {f"p{q}": float(np.percentile(reach, q)) for q in (10, 25, 50, 75, 90)},
            "p_make": {str(lv): proportion(int((reach >= lv).sum()), m) for lv in MAKE_LEVELS},
            "p_capot": proportion(int(capot.sum()), m),
        }
    us_team = seat & 1
    us, them = per_cand[K.C_US], per_cand[K.C_THEM]
    values = us - them  # a candidate a row
    bidder = per_cand[K.C_BIDDER]
    ours = ((bidder >= 0) & ((bidder & 1) == us_team)).sum(axis=1)
    thrown = (bidder < 0).sum(axis=1)
    stands = (bidder == seat) & (per_cand[K.C_LEVEL] == cand_arr[:, :1])
    stood = stands.sum(axis=1)
    stood_made = (stands & (per_cand[K.C_MADE] == 1)).sum(axis=1)
    rows = []
    for i, (lv, s) in enumerate(cands):
        row = {
            "call": call_name(lv, s),
            "value": _mean(values[i]),
            "us": float(us[i].mean()),
            "them": float(them[i].mean()),
            "p_we_contract": proportion(int(ours[i]), m),
            "p_thrown_in": proportion(int(thrown[i]), m),
        }
        if lv >= 0:
            row["p_stands"] = proportion(int(stood[i]), m)
            row["p_made_if_stands"] = proportion(int(stood_made[i]), max(int(stood[i]), 1))
        rows.append(row)
    wins = None
    if score is not None:
        us0, them0 = (int(x) for x in score)
        wins = _wins_after(table, us0 + us, them0 + them, rules.game_target)
        for i, row in enumerate(rows):
            row["p_win"] = _mean(wins[i])
    order = np.argsort(-np.array([r["value"]["mean"] for r in rows]), kind="stable")
    best, second = int(order[0]), int(order[1]) if len(order) > 1 else None
    rec = {"call": rows[best]["call"], "value": rows[best]["value"]["mean"]}
    if second is not None:
        rec["runner_up"] = rows[second]["call"]
        rec["margin"] = paired_difference(values[best], values[second])
    pass_i = 0
    if best != pass_i:
        rec["over_pass"] = paired_difference(values[best], values[pass_i])
    if wins is not None:
        w_order = np.argsort(-wins.mean(axis=1), kind="stable")
        wb, ws = int(w_order[0]), int(w_order[1]) if len(w_order) > 1 else None
        rec["by_p_win"] = {"call": rows[wb]["call"], "p_win": rows[wb]["p_win"]["mean"]}
        if ws is not None:
            rec["by_p_win"]["runner_up"] = rows[ws]["call"]
            rec["by_p_win"]["margin"] = paired_difference(wins[wb], wins[ws])
    prior_params = defaults("auction", prior)
    return {
        "hand": PACK.format(hand),
        "seat": SEATS[seat],
        "dealer": SEATS[dealer],
        "auction": [f"{SEATS[p]}:{call_name(lv, s)}" for p, lv, s in calls],
        "play": play,
        "prior": {"policy": prior, "params": prior_params},
        "worlds": m,
        "drawn": n,
        "acceptance": float(m / (tries[ok].sum() + (n - m) * K.MAX_TRIES)),
        "seed": seed,
        "seconds": seconds,
        "rules": rules.to_dict(),
        "perspective": (
            f"{SEATS[seat]}'s team ({'NS' if us_team == 0 else 'EW'}): round points = card "
            "points (250 capot) + combinations scored + pilotta; a call's value = this "
            "round's game points of the team minus the opponents'"
        ),
        "trumps": trumps,
        "calls": rows,
        "recommendation": rec,
        "score": list(score) if score is not None else None,
        **({"partial": True, "requested": requested} if n < requested else {}),
    }


def _wins_after(table: np.ndarray, a: np.ndarray, b: np.ndarray, target: int) -> np.ndarray:
    """``kernels.winprob.win_after`` elementwise: P(the player's team wins the game) once the
    round has brought the score to ``a``:``b`` (team's game points : the opponents')."""
    over = (a >= target) | (b >= target)
    inside = table[np.minimum(a, target - 1), np.minimum(b, target - 1)]
    ended = np.where(a == b, 0.5, np.where(a > b, 1.0, 0.0))
    return np.where(over, ended, inside)


def _solve_needed(known: np.ndarray, hands: np.ndarray, dealer: int, rules: Rules) -> None:
    """Fill the contracts a record pass marked (``known == NEEDED``) with their exact
    double-dummy values (``solver.solve_batch``): the contracting team's card points and
    tricks (8 for its capot; 0, the defenders' capot, when it takes no point; else 1: the
    solver's defenders do not play for a capot of their own, see docs)."""
    w, b, t = np.nonzero(known[:, :, :, 0] == K.NEEDED)
    if len(w) == 0:
        return
    leaders = np.full(len(w), (dealer + 1) % 4) if rules.first_lead == "after_dealer" else b
    template = SK.position(0, 0, rules=rules.to_array())
    rounds = SK.Rounds(
        np.ascontiguousarray(hands[w]),
        t.astype(np.int64),
        np.asarray(leaders, dtype=np.int64),
        (b & 1).astype(np.int64),
    )
    values = SK.solve_batch(rounds, template, 16, SK.TABLES)
    capot = values > rules.total_points
    known[w, b, t, 0] = np.where(capot, rules.total_points, values)
    known[w, b, t, 1] = np.where(capot, 8, np.where(values == 0, 0, 1))


def _pimc_step() -> int:
    """Worlds per pimc kernel call: a world per thread (two at least)."""
    return max(2, numba.get_num_threads())


def _pimc_needed(
    known: np.ndarray,
    hands: np.ndarray,
    dealer: int,
    rules: Rules,
    setup: np.ndarray,
    calls: np.ndarray,
    seed: int,
    first: int = 0,
) -> int:
    """Fill the contracts a record pass marked by playing them with pimc at all four seats
    (``kernels.pimc.pimc_contracts``; its players know the auction given to the advisor, the
    contract, the declarations and the play). Contract j draws from stream (seed, j) in the
    order of the marked entries, counted from all the advice's worlds: ``first`` is the number
    marked in the worlds before these. Returns the number marked here."""
    w, b, t = np.nonzero(known[:, :, :, 0] == K.NEEDED)
    if len(w) == 0:
        return 0
    leaders = np.full(len(w), (dealer + 1) % 4) if rules.first_lead == "after_dealer" else b
    deals = PK.Deals(
        np.ascontiguousarray(hands[w]),
        t.astype(np.int64),
        np.asarray(leaders, dtype=np.int64),
        (b & 1).astype(np.int64),
    )
    out = PK.pimc_contracts(
        np.int64(seed),
        np.int64(first),
        deals,
        np.ascontiguousarray(calls),
        setup,
        rules.to_array(),
        SK.TABLES,
    )
    known[w, b, t, 0] = out[:, 0]
    known[w, b, t, 1] = out[:, 1]
    return len(w)


#: Worlds per chunk (largest, first) by play: chunks are paced to about
#: ``core.backend.CHUNK_SECONDS`` each, so a Ctrl-C is answered within about that; a dd world
#: costs about a hundred times a heuristic one, a pimc world seconds.
CHUNKS = {"heuristic": (1 << 16, 1024), "dd": (4096, 4)}


class Worlds(NamedTuple):
    """The worlds finished, ``count`` from world 0 (fewer than asked after a Ctrl-C), field by
    field (one row per world, ``count`` columns; copied out of the kernel's rows chunk by
    chunk, so the summary reads contiguous rows and costs little after a Ctrl-C):
    ``tries`` int64[count]; ``trump`` int32[T_LEN, 4, count] (``kernels.advise``'s per-trump
    record); ``cand`` int32[C_LEN, m, count] (its per-candidate record)."""

    count: int
    tries: np.ndarray
    trump: np.ndarray
    cand: np.ndarray


def _run_worlds(
    hand: int,
    seat: int,
    dealer: int,
    play: str,
    n: int,
    seed: int,
    setup: np.ndarray,
    rules: Rules,
    calls: np.ndarray,
    cands: np.ndarray,
) -> Worlds:
    """The advice's ``n`` worlds in chunks (``core.backend.run_chunks``: the first Ctrl-C
    stops after the chunk in flight). With dd or pimc each chunk is a record pass, the marked
    contracts solved (dd) or played by pimc, then the policy pass; the numbers do not depend
    on the chunks."""
    r_arr = rules.to_array()
    out = K.Out(
        np.zeros((n, 4, K.T_LEN), dtype=np.int64),
        np.zeros((n, len(cands), K.C_LEN), dtype=np.int64),
        np.zeros(n, dtype=np.int64),
        np.zeros((n, 4), dtype=np.int64),
    )
    known = np.full((n, 4, 4, 2), -1, dtype=np.int64)
    tries = np.zeros(n, dtype=np.int64)
    trump = np.zeros((K.T_LEN, 4, n), dtype=np.int32)
    cand = np.zeros((K.C_LEN, len(cands), n), dtype=np.int32)

    def query(mode: int):
        return K.Query(np.array([hand, seat, dealer, mode], dtype=np.int64), calls, cands)

    q, rec_q = query(K.MODE_POLICY), query(K.MODE_RECORD)
    marked = [0]  # pimc: contracts marked in the chunks before (their stream numbers)

    # pimc: one chunk is a fixed step of worlds (a world per thread; pacing would shrink a
    # chunk of seconds-long worlds to one and leave threads idle)
    unit = _pimc_step() if play == "pimc" else 1
    finished = [0]

    def task(chunk) -> None:
        lo, hi = chunk.start * unit, min(n, (chunk.start + chunk.size) * unit)
        if play in ("dd", "pimc"):
            worlds_on_threads(K._chunk, seed, lo, hi, rec_q, setup, r_arr, known, out)
            if play == "dd":
                _solve_needed(known[lo:hi], out.hands[lo:hi], dealer, rules)
            else:
                marked[0] += _pimc_needed(
                    known[lo:hi], out.hands[lo:hi], dealer, rules, setup, calls, seed, marked[0]
                )
            out.per_cand[lo:hi] = 0  # the record pass's placeholders
        worlds_on_threads(K._chunk, seed, lo, hi, q, setup, r_arr, known, out)
        tries[lo:hi] = out.tries[lo:hi]
        trump[:, :, lo:hi] = out.per_trump[lo:hi].transpose(2, 1, 0)
        cand[:, :, lo:hi] = out.per_cand[lo:hi].transpose(2, 1, 0)
        finished[0] = hi

    largest, first = (1, 1) if play == "pimc" else CHUNKS.get(play, CHUNKS["heuristic"])
    units = -(-n // unit)
    run_chunks(LocalBackend(), task, units, largest, (), lambda c, r: None, first=first)
    count = finished[0]
    return Worlds(count, tries[:count], trump[:, :, :count], cand[:, :, :count])


_WIN_TABLES: dict = {}
WIN_ROUNDS = 40_000


def win_probability_table(prior: str, play: str, rules: Rules = DEFAULT_RULES) -> np.ndarray:
    """``V[a, b]``: P(a team wins the game to ``rules.game_target`` from a:b, before a round),
    rounds drawn from ``WIN_ROUNDS`` simulated rounds (seed 1) with both teams bidding by
    ``prior`` and playing ``play``, each round counted from both teams' side (so the table is
    symmetric: V[a, b] + V[b, a] = 1 up to ties). Cached per process."""
    key = (prior, play, rules)
    if key not in _WIN_TABLES:
        setup = make_setup(prior, play, play)
        recs, _, _ = simulate_batch(
            np.int64(1), np.int64(0), np.int64(WIN_ROUNDS), setup, rules.to_array()
        )
        played = recs[:, RoundRec.BIDDER] >= 0
        ns = np.where(played, recs[:, RoundRec.SCORE + Score.TOTAL_NS], 0)
        ew = np.where(played, recs[:, RoundRec.SCORE + Score.TOTAL_EW], 0)
        pairs = np.concatenate([np.stack([ns, ew], 1), np.stack([ew, ns], 1)])
        outcomes, counts = np.unique(pairs, axis=0, return_counts=True)
        _WIN_TABLES[key] = win_table(
            outcomes[:, 0].astype(np.int64),
            outcomes[:, 1].astype(np.int64),
            counts / counts.sum(),
            rules.game_target,
        )
    return _WIN_TABLES[key]
