"""The strength ladder of Piquet's play policies: every play policy against every other over
mirrored deals (the study layer's tournament of ``match.BATCH``), each with the same exchange
policy (default ``heuristic``, the strongest fast one) and every declaration made, so only the
play differs.

Ratings, all in points per deal and from each policy's own side:

* ``vs_reference``: its mean net per deal against the reference policy (default ``heuristic``,
  the strongest fast play; when it is not among the policies, the first of them), with the
  match's 95% interval (0 for the reference itself);
* ``rating``: a least-squares fit of every pairwise margin, ``margin[i, j] ~ r[i] - r[j]``, each
  match weighted by 1 / SE**2, ``r[reference] = 0``; its SE from the fit's covariance. On points
  this is the linear (Thurstone-like) analogue of a Bradley-Terry fit;
* ``elo``: a Bradley-Terry fit on deal wins (a tied deal counts half to each), as Elo points
  (400 log10 of the strength ratio), reference at 0, SE from the observed information.

Oracle policies (``dd``: it sees both hands) play in the ladder as a yardstick and are marked
``oracle``. Matches that involve a solver policy (pimc, pimcw, dd) use ``solver_deals`` pairs.

External players (``external``: outside programs' play deciders, e.g. OpenSpiel's IS-MCTS,
offered by :func:`piquet_sim.core.study.arena.external_decider`) play every policy on
``external_deals`` deals through the position API (``core.arena.mirrored_match``: each deal
with the external player elder, then younger; both exchange by ``exchange`` and declare all),
with their time per move; they join the fits and are marked ``external``.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..core.app.report import Section
from ..core.engine.backend import Cancel
from ..core.engine.stats import Z95
from ..core.game.position import Decider
from ..core.study.arena import TimedPlay, mirrored_match
from ..core.study.ratings import fit_bradley_terry, fit_points  # noqa: F401 - re-exported
from ..core.study.tournament import play_tournament
from . import policies as P
from .match import BATCH
from .rules import DEFAULT_RULES, Rules
from .strategies import play_strategy, uses_solver

#: The ladder's default policies, weakest expected first.
DEFAULT_POLICIES = ("random", "greedy", "heuristic", "pimc", "pimcw", "dd")
#: The policy rated 0 (when it plays; else the first policy given).
REFERENCE = "heuristic"
#: Both players' exchange policy on the ladder.
EXCHANGE = "heuristic"


def reference_of(policies: Sequence[str], reference: str | None = None) -> str:
    """The reference of a ladder of ``policies``: ``reference`` when given, else
    :data:`REFERENCE` when it plays, else the first policy."""
    if reference is not None:
        return reference
    return REFERENCE if REFERENCE in policies else policies[0]


@dataclass
class Ladder:
    """A finished ladder: ``matches`` (one row per pair, A's view), ``ratings`` (one row per
    policy, strongest first), the margin and SE matrices (row over column, points per deal)."""

    names: list[str]
    matches: pd.DataFrame
    ratings: pd.DataFrame
    margins: np.ndarray
    ses: np.ndarray
    reference: str
    seed: int
    seconds: float
    deals: int = 0
    solver_deals: int = 0
    partial: bool = False  # Ctrl-C: the matches played so far, the last one maybe cut
    exchange: str = EXCHANGE
    #: external players' names (after ``names`` in the matrices) and their matches
    external: list[str] = field(default_factory=list)
    external_matches: pd.DataFrame | None = None
    external_deals: int = 0

    @property
    def players(self) -> list[str]:
        """Every name of the matrices: the policies, then the external players."""
        return [*self.names, *self.external]

    def to_dict(self) -> dict:
        extra = {}
        if self.external:
            extra = {
                "external_deals": self.external_deals,
                "external_matches": self.external_matches.to_dict(orient="records"),
            }
        return (
            {
                "reference": self.reference,
                "exchange": self.exchange,
                "seed": self.seed,
                "deals": self.deals,
                "solver_deals": self.solver_deals,
                "play_params": {
                    n: dict(zip(P.get("play", n).params, P.get("play", n).defaults, strict=True))
                    for n in self.names
                },
                "seconds": round(self.seconds, 2),
                "perspective": "points per deal, each policy's own side; margins row minus column",
                "matches": self.matches.to_dict(orient="records"),
                "ratings": self.ratings.to_dict(orient="records"),
            }
            | extra
            | ({"partial": True} if self.partial else {})
        )


def ladder(
    policies: Sequence[str] = DEFAULT_POLICIES,
    deals: int = 100_000,
    solver_deals: int = 1_000,
    seed: int = 1,
    reference: str | None = None,
    rules: Rules = DEFAULT_RULES,
    progress: Callable[[str], None] | None = None,
    backend=None,
    exchange: str = EXCHANGE,
    external: Sequence[Decider] = (),
    external_deals: int = 20,
    cancel: Cancel | None = None,
) -> Ladder:
    """Every pair of ``policies`` (play policy names) plays mirrored deal pairs on the same deals
    of ``seed``: ``deals`` pairs, or ``solver_deals`` when either calls the exact solver; both
    players exchange by ``exchange``. ``reference``: the policy rated 0 (default
    :func:`reference_of`). ``progress(label)`` is told each match as it starts. ``external``:
    outside play deciders, each against every policy on ``external_deals`` deals (module
    docstring). Ctrl-C (``cancel``) stops the match in flight after its chunk and skips the
    rest (``partial``)."""
    names = list(dict.fromkeys(policies))
    if len(names) < 2:
        raise ValueError("a ladder needs at least two play policies")
    reference = reference_of(names, reference)
    if reference not in names:
        raise ValueError(f"the reference {reference!r} must be one of the policies")
    strategies = [play_strategy(n, exchange) for n in names]
    k = len(names)
    outside = [TimedPlay(d) for d in external]
    ext_names = [d.name for d in outside]
    if len(set(ext_names)) < len(ext_names) or set(ext_names) & set(names):
        raise ValueError("external players need names distinct from each other and the policies")
    size = k + len(outside)
    margins = np.zeros((size, size))
    ses = np.full((size, size), np.nan)
    wins = np.zeros((size, size))
    rows = []
    ext_rows: list[dict] = []
    cancel = cancel or Cancel()
    t0 = time.perf_counter()

    def pairs(a, b) -> int:
        return solver_deals if uses_solver(a) or uses_solver(b) else deals

    def told(a, b, n: int) -> None:
        if progress is not None:
            progress(f"{a.name} v {b.name} ({n:,} pairs)")

    t = play_tournament(
        BATCH, strategies, deals, seed, rules, None, backend, None, cancel, None, pairs, told
    )
    for r in t.results:
        s = r.body
        if s["pairs"] < 2:
            continue  # cut before two pairs: no standard error to fit with
        i, j = names.index(r.a), names.index(r.b)
        net = s["net_per_deal"]
        margins[i, j], margins[j, i] = net["mean"], -net["mean"]
        ses[i, j] = ses[j, i] = net["se"]
        played = 2 * s["pairs"]
        a_win = s["a_deal_win_rate"]["p"] * played
        tie = s["deal_tie_rate"]["p"] * played
        wins[i, j] = a_win + tie / 2
        wins[j, i] = played - a_win - tie / 2
        rows.append(
            {
                "a": r.a,
                "b": r.b,
                "pairs": s["pairs"],
                "net_per_deal": net["mean"],
                "se": net["se"],
                "ci_low": net["ci95"][0],
                "ci_high": net["ci95"][1],
                "a_deal_win_rate": s["a_deal_win_rate"]["p"],
                "seconds": round(r.seconds, 2),
            }
        )
    if outside and not t.partial:
        _external_matches(
            outside,
            names,
            exchange,
            rules,
            seed,
            external_deals,
            progress,
            cancel,
            (margins, ses, wins),
            ext_rows,
        )
    players = [*names, *ext_names]
    ref = names.index(reference)
    r, r_se = fit_points(margins, ses, ref)
    elo, elo_se = fit_bradley_terry(wins, ref)
    # a player with no finished match (Ctrl-C before its first) has no rating: not ranked
    played = [bool(np.isfinite(np.delete(ses[i], i)).any()) for i in range(size)]
    table = []
    for i, name in enumerate(players):
        vs = 0.0 if i == ref else margins[i, ref]
        vs_se = 0.0 if i == ref else ses[i, ref]
        if not np.isfinite(vs_se):  # no direct match with the reference
            vs = vs_se = math.nan
        oracle = outside[i - k].oracle if i >= k else P.get("play", name).oracle
        fits = (r[i], r_se[i], elo[i], elo_se[i]) if played[i] else (math.nan,) * 4
        table.append(
            {
                "policy": name,
                "oracle": oracle,
                "played": played[i],
                "vs_reference": vs,
                "vs_reference_ci_low": vs - Z95 * vs_se,
                "vs_reference_ci_high": vs + Z95 * vs_se,
                "rating": fits[0],
                "rating_se": fits[1],
                "elo": fits[2],
                "elo_se": fits[3],
            }
            | ({"external": i >= k} if outside else {})
        )
    ratings = (
        pd.DataFrame(table)
        .sort_values(["played", "rating"], ascending=False)
        .reset_index(drop=True)
    )
    return Ladder(
        names,
        pd.DataFrame(rows),
        ratings,
        margins,
        ses,
        reference,
        seed,
        time.perf_counter() - t0,
        deals,
        solver_deals,
        t.partial or cancel.is_set,
        exchange,
        ext_names,
        pd.DataFrame(ext_rows) if outside else None,
        external_deals if outside else 0,
    )


class _ByRole(Decider):
    """Elder's decider for seat 0, younger's for seat 1 (one player in either seat)."""

    def __init__(self, elder: Decider, younger: Decider, name: str):
        self.seats = (elder, younger)
        self.name = name

    def choose(self, state) -> int:
        return self.seats[state.current_player()].choose(state)


def _external_matches(outside, names, exchange, rules, seed, n, progress, cancel, mats, rows):
    """Each external player (a :class:`TimedPlay`) against every policy on ``n`` deals of
    ``seed`` (mirrored: elder then younger); fills the matrices ``mats`` (margins, SEs, wins)
    after the policies' rows and appends one row per match to ``rows``."""
    from .deciders import SeatDecider, seat_deciders
    from .position import PiquetState
    from .simulation import Policies

    margins, ses, wins = mats
    k = len(names)
    seatings = [(True, False), (False, True)]

    def deal(i: int) -> PiquetState:
        return PiquetState.from_deal(seed, i, rules)

    for e, agent in enumerate(outside):
        for j, name in enumerate(names):
            if cancel.is_set:
                return
            ours = seat_deciders(
                Policies(
                    elder_exchange=exchange,
                    younger_exchange=exchange,
                    elder_play=name,
                    younger_play=name,
                )
            )
            mine = [TimedPlay(d.play) for d in ours]
            b = _ByRole(
                *(SeatDecider(d.exchange, d.declare, m) for d, m in zip(ours, mine, strict=True)),
                name,
            )
            a = _ByRole(*(SeatDecider(d.exchange, d.declare, agent) for d in ours), agent.name)
            if progress is not None:
                progress(f"{agent.name} v {name} ({n:,} deals, external)")
            moves0, seconds0 = agent.moves, agent.seconds
            t1 = time.perf_counter()
            match = mirrored_match(deal, a, b, n, seatings, cancel=cancel)
            if match.partial and match.deals < 2:
                return
            i = k + e
            m = match.margin
            margins[i, j], margins[j, i] = m.mean, -m.mean
            ses[i, j] = ses[j, i] = m.se
            x = np.asarray(match.margins)
            won = float((x > 0).sum() + (x == 0).sum() / 2)
            wins[i, j], wins[j, i] = won, len(x) - won
            moves = agent.moves - moves0
            ours_moves = sum(t.moves for t in mine)
            rows.append(
                {
                    "a": agent.name,
                    "b": name,
                    "deals": match.deals,
                    "net_per_deal": m.mean,
                    "se": m.se,
                    "ci_low": m.lo,
                    "ci_high": m.hi,
                    "a_deal_win_rate": float((x > 0).mean()) if len(x) else 0.0,
                    "a_seconds_per_move": (agent.seconds - seconds0) / moves if moves else 0.0,
                    "b_seconds_per_move": (
                        sum(t.seconds for t in mine) / ours_moves if ours_moves else 0.0
                    ),
                    "seconds": round(time.perf_counter() - t1, 2),
                    "external": True,
                }
            )


def margins_text(result: Ladder) -> str:
    """Consecutive margins of the ladder, strongest first, from the direct matches:
    ``a > b by m ± h`` (95%)."""
    ratings = result.ratings
    if "played" in ratings:  # a player with no finished match is not ranked
        ratings = ratings[ratings["played"]]
    order = list(ratings["policy"])
    idx = {n: i for i, n in enumerate(result.players)}
    oracle = dict(zip(result.ratings["policy"], result.ratings["oracle"], strict=True))
    parts = []
    for hi, lo in itertools.pairwise(order):
        i, j = idx[hi], idx[lo]
        m, h = result.margins[i, j], Z95 * result.ses[i, j]
        if not np.isfinite(h):  # two external players: no direct match
            parts.append(f"{hi} > {lo} (no direct match)")
            continue
        mark = " (oracle)" if oracle[hi] or oracle[lo] else ""
        parts.append(f"{hi} > {lo} by {m:+.2f} ± {h:.2f}{mark}")
    return "; ".join(parts)


def ratings_frame(result: Ladder) -> pd.DataFrame:
    """The ratings table formatted for reading (strings with intervals); a player with no
    finished match (stopped by Ctrl-C before one) says so instead of numbers, last."""
    out = []
    for row in result.ratings.itertuples():
        name = f"{row.policy} (oracle)" if row.oracle else row.policy
        if getattr(row, "external", False):
            name += " (external)"
        if not getattr(row, "played", True):
            vs = rating = elo = "no deal finished"
        else:
            vs = (
                f"{row.vs_reference:+.2f} [{row.vs_reference_ci_low:+.2f}, "
                f"{row.vs_reference_ci_high:+.2f}]"
                if math.isfinite(row.vs_reference)
                else "no direct match"
            )
            rating = f"{row.rating:+.2f} ± {Z95 * row.rating_se:.2f}"
            elo = f"{row.elo:+.0f} ± {Z95 * row.elo_se:.0f}"
        out.append(
            {
                "play policy": name,
                f"net/deal vs {result.reference} (95% CI)": vs,
                "points rating ± 1.96 SE": rating,
                "Elo (deal wins) ± 1.96 SE": elo,
            }
        )
    return pd.DataFrame(out)


def ladder_section(result: Ladder) -> Section:
    """The ladder as a report section (text, ratings table, match table)."""
    sec = Section("ladder", "Strength ladder of the play policies")
    sec.text(
        "Every play policy against every other over mirrored deals (each deal played twice, "
        f"seats swapped), with {result.exchange} exchange and every declaration made, so only the "
        f"play differs. Points per deal from each policy's side; reference {result.reference} = 0; "
        f"seed {result.seed}. dd sees both hands: an oracle, not a player. "
        f"Margins: {margins_text(result)}."
    )
    sec.table(ratings_frame(result), "Ratings (strongest first)")
    m = result.matches.copy()
    m["net_per_deal"] = m["net_per_deal"].map(lambda v: f"{v:+.3f}")
    m["ci95"] = [f"[{lo:+.3f}, {hi:+.3f}]" for lo, hi in zip(m.ci_low, m.ci_high, strict=True)]
    m = m[["a", "b", "pairs", "net_per_deal", "ci95", "a_deal_win_rate", "seconds"]]
    sec.table(m, "Matches: A's mean net per deal over B (95% interval)")
    if result.external:
        sec.table(external_frame(result), "External players' matches (position API)")
    return sec


def external_frame(result: Ladder) -> pd.DataFrame:
    """The external players' matches formatted for reading: margin per deal from the external
    player's side with its 95% interval, deals, each side's seconds per move."""
    out = []
    for row in result.external_matches.itertuples():
        out.append(
            {
                "external": row.a,
                "v": row.b,
                "deals": row.deals,
                "net/deal (95% CI)": (
                    f"{row.net_per_deal:+.2f} [{row.ci_low:+.2f}, {row.ci_high:+.2f}]"
                ),
                "s/move (external / ours)": (
                    f"{row.a_seconds_per_move:.3f} / {row.b_seconds_per_move:.4f}"
                ),
            }
        )
    return pd.DataFrame(out)
