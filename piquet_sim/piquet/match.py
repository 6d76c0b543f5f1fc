"""Piquet's mirrored match of two strategies (the study layer's :class:`MatchKind`
:data:`BATCH`): its unit of work through ``kernels.match`` and its statistics.

Every deal is played twice, A elder then B elder, on the same cards and random stream. The unit
of evidence is the deal pair: ``d_i`` = A's net over B in the A-elder play plus A's net over B
in the B-elder play. The luck of the cards cancels in ``d_i``, so its variance is far smaller
than a single play's. "Mean net per deal" is ``mean(d_i) / 2``: A's points minus B's in one
deal, averaged over seats; its 95% interval and the two-sided p-value (normal approximation,
thousands of pairs) come from the pairs' spread.

Counts are integers merged exactly across chunks; a chunked or interrupted run is the prefix of
the full run.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..core.engine.backend import Cancel, Chunk
from ..core.engine.stats import Z95, Estimate, format_p, mean_ci, p_two_sided, proportion
from ..core.game.strategy import Strategy
from ..core.study.match import MatchKind, MatchResult, MatchSpec, Stat, run_match
from ..core.study.tournament import Tournament
from .kernels import layouts as L
from .kernels import match as KM
from .rules import DEFAULT_RULES, Rules
from .strategies import BOOK, mirrored_args, mirrored_bundle_free, summary, uses_solver

EVENTS = ("pique", "repique", "capot", "carte_blanche")
_EVENT_FIELD = {
    "pique": L.MB_PIQUE,
    "repique": L.MB_REPIQUE,
    "capot": L.MB_CAPOT,
    "carte_blanche": L.MB_CARTE_BLANCHE,
}


def match_kernel(a: Strategy, b: Strategy):
    """The mirrored-deals kernel of A against B (both give the same results): the bundle-free
    one when every seat plays greedy, random or heuristic, else the general one."""
    return KM.simple_mirrored_deals if mirrored_bundle_free(a, b) else KM.mirrored_deals


def mirrored_chunk(
    a: Strategy, b: Strategy, seed: int, start: int, n: int, rules: Rules = DEFAULT_RULES
) -> tuple[np.ndarray, np.ndarray]:
    """Deals start..start+n-1 played both ways: (nets int16[n, 2], merged counts int64[M_LEN]).

    ``nets[:, 0]``: net (elder minus younger) with A elder; ``nets[:, 1]``: with B elder."""
    nets, counts = match_kernel(a, b)(seed, start, n, *mirrored_args(a, b, rules))
    return nets, counts.sum(axis=0)


def _match_task(chunk: Chunk, a: Strategy, b: Strategy, seed: int, rules: Rules) -> tuple:
    """One chunk of a head-to-head (the unit of work of every backend)."""
    return mirrored_chunk(a, b, seed, chunk.start, chunk.size, rules)


@dataclass
class MatchCounts:
    """Integer counts of a head-to-head run (``kernels.match`` layout), mergeable chunk by chunk."""

    counts: np.ndarray = field(default_factory=lambda: np.zeros(L.MATCH_LEN, np.int64))

    def add(self, counts: np.ndarray) -> None:
        self.counts += counts

    @property
    def pairs(self) -> int:
        return int(self.counts[L.MATCH_PAIRS])

    def block(self, side: int, seat: int, f: int) -> int:
        return int(self.counts[L.MATCH_BLOCKS + (2 * side + seat) * L.MB_LEN + f])


def summarize(c: MatchCounts, a: str, b: str) -> dict:
    """JSON-ready paired statistics of A against B (points per deal, A minus B)."""
    n = c.pairs
    k = c.counts.astype(np.float64)
    net = mean_ci(k[L.MATCH_SUM_D], k[L.MATCH_SUM_D2], n, scale=0.5)
    z = net["mean"] / net["se"] if n and net["se"] > 0 else 0.0
    p = p_two_sided(z) if n and net["se"] > 0 else (1.0 if net["mean"] == 0 or not n else 0.0)
    seats: dict = {}
    for seat_name, seat in (("elder", KM.SEAT_ELDER), ("younger", KM.SEAT_YOUNGER)):
        s_sum, s_sq = (
            (L.MATCH_SUM_AE, L.MATCH_SUM_AE2)
            if seat == KM.SEAT_ELDER
            else (L.MATCH_SUM_AY, L.MATCH_SUM_AY2)
        )
        row: dict = {"a_net": mean_ci(k[s_sum], k[s_sq], n)}
        for side_name, side in (("a", KM.SIDE_A), ("b", KM.SIDE_B)):
            points = c.block(side, seat, L.MB_POINTS)
            ev = {
                "win": proportion(c.block(side, seat, L.MB_WIN), n),
                "tie": proportion(c.block(side, seat, L.MB_TIE), n),
                "mean_points": points / n if n else float("nan"),
            }
            for e in EVENTS:
                ev[e] = proportion(c.block(side, seat, _EVENT_FIELD[e]), n)
            row[side_name] = ev
        seats[seat_name] = row
    a_wins = c.block(KM.SIDE_A, 0, L.MB_WIN) + c.block(KM.SIDE_A, 1, L.MB_WIN)
    ties = c.block(KM.SIDE_A, 0, L.MB_TIE) + c.block(KM.SIDE_A, 1, L.MB_TIE)
    lo, hi = net["ci95"]
    return {
        "a": a,
        "b": b,
        "pairs": n,
        "deals_played": 2 * n,
        "net_per_deal": net,
        "z": float(z),
        "p_value": float(p),
        "significant": bool(n and (lo > 0 or hi < 0)),
        "a_deal_win_rate": proportion(a_wins, 2 * n),
        "deal_tie_rate": proportion(ties, 2 * n),
        "seats": seats,
        "statement": statement(a, b, net, p),
    }


def statement(a: str, b: str, net: dict, p: float) -> str:
    """The plain-words verdict of a match."""
    mean, half = net["mean"], Z95 * net["se"]
    if not math.isfinite(mean):
        return "no deals played"
    lo, hi = net["ci95"]
    if half == 0 and mean == 0:
        return f"{a} and {b} play identically here: every mirrored pair nets 0"
    if lo > 0 or hi < 0:
        win, lose, m = (a, b, mean) if mean > 0 else (b, a, -mean)
        return f"{win} beats {lose} by {m:.3f} ± {half:.3f} points per deal ({format_p(p)})"
    return (
        f"{a} and {b} cannot be told apart: {a} nets {mean:+.3f} ± {half:.3f} points per deal "
        f"({format_p(p)}, 95% interval includes 0)"
    )


def _estimate(net: dict, n: int, p: float | None = None) -> Estimate:
    return Estimate(net["mean"], net["se"], net["ci95"][0], net["ci95"][1], n, p)


def match_result(spec: MatchSpec, parts: list, seconds: float) -> MatchResult:
    """The statistics of a mirrored match (the study's hook): ``parts`` is the one merged
    (nets, counts) of the chunks (:data:`BATCH` folds them)."""
    counts = MatchCounts()
    if parts:
        counts.add(parts[0][1])
    a, b = spec.a, spec.b
    s = summarize(counts, a.name, b.name)
    partial = stamp(s, spec, counts.pairs)
    seats = s["seats"]
    sides = {
        f"{s[side]} as {seat}": [
            Stat.of("wins the deal", seats[seat][side]["win"]),
            *(Stat.of(e.replace("_", " "), seats[seat][side][e]) for e in EVENTS),
            Stat.of("mean points", seats[seat][side]["mean_points"]),
        ]
        for side in ("a", "b")
        for seat in ("elder", "younger")
    }
    wr = s["a_deal_win_rate"]
    notes = [
        s["statement"],
        f"{a.name} wins {100 * wr['p']:.2f}% of deals [{100 * wr['ci95'][0]:.2f}, "
        f"{100 * wr['ci95'][1]:.2f}]; ties {100 * s['deal_tie_rate']['p']:.2f}%",
    ]
    for seat in ("elder", "younger"):
        e = seats[seat]["a_net"]
        notes.append(
            f"{a.name} as {seat}: net {e['mean']:+.3f} ± {Z95 * e['se']:.3f} points per deal"
        )
    return MatchResult(
        a.name,
        b.name,
        _estimate(s["net_per_deal"], counts.pairs, s["p_value"]),
        "points per deal (A's minus B's, mean of A elder and A younger)",
        counts.pairs,
        spec.n,
        partial,
        s,
        sides,
        notes,
    )


def stamp(s: dict, spec: MatchSpec, pairs: int) -> bool:
    """Add a match's settings to its JSON ``s`` (seed, rules, the strategies in one line) and,
    when it stopped before ``spec.n`` pairs, its partial keys; returns whether it did."""
    partial = pairs < spec.n
    s.update(
        seed=spec.seed,
        rules=spec.rules.to_dict(),
        interrupted=partial,
        strategies={spec.a.name: summary(spec.a), spec.b.name: summary(spec.b)},
    )
    if partial:  # only then, so complete runs keep their exact output
        s.update(partial=True, requested_pairs=spec.n)
    return partial


def _match_args(spec: MatchSpec) -> tuple:
    return (spec.a, spec.b, spec.seed, spec.rules)


def _fold(total: tuple, part: tuple) -> tuple:
    """Merge a chunk's counts into the run's (exact integer sums; the nets are not kept)."""
    return part[0], total[1] + part[1]


def nets_frame(start: int, part: tuple) -> pd.DataFrame:
    """Per-deal rows of a chunk: deal index, A's net as elder, A's net as younger, the pair
    mean."""
    nets = part[0]
    a_e = nets[:, 0].astype(np.int32)
    a_y = -nets[:, 1].astype(np.int32)
    return pd.DataFrame(
        {
            "deal": np.arange(start, start + len(nets)),
            "a_net_as_elder": a_e,
            "a_net_as_younger": a_y,
            "a_net_mean": (a_e + a_y) / 2,
        }
    )


#: The first chunk of a match whose play calls the exact solver (pimc, pimcw, dd: milliseconds
#: to a tenth of a second a pair), so a Ctrl-C before the pace is known answers within a
#: second; the next chunks are sized by its time.
SOLVER_FIRST = 16

#: Piquet's mirrored match: deal pairs, each deal played with A elder and with B elder.
BATCH = MatchKind(
    unit="deal pairs",
    task=_match_task,
    args=_match_args,
    result=match_result,
    chunk=lambda spec: 250_000,
    kernels=lambda spec: (match_kernel(spec.a, spec.b),),
    default_n=lambda a, b: 200_000,
    fold=_fold,
    rows=nets_frame,
    first=lambda spec: SOLVER_FIRST if uses_solver(spec.a) or uses_solver(spec.b) else None,
)


def head_to_head(
    a: str | Strategy,
    b: str | Strategy,
    deals: int,
    seed: int = 1,
    rules: Rules = DEFAULT_RULES,
    chunk: int = 250_000,
    progress: Callable[[int], None] | None = None,
    on_chunk: Callable[[int, tuple], None] | None = None,
    backend=None,
    cancel: Cancel | None = None,
) -> MatchResult:
    """Play ``deals`` mirrored deal pairs of A against B (2 * deals plays): the study's
    :data:`BATCH` match. ``on_chunk(start, (nets, counts))`` receives each chunk (per-deal
    rows: :func:`nets_frame`); ``progress`` the pairs finished. Ctrl-C (``cancel``) stops
    after the chunk in flight with the pairs so far (``partial``)."""
    a, b = BOOK.resolve(a), BOOK.resolve(b)
    run = {"progress": progress, "on_part": on_chunk, "backend": backend, "cancel": cancel}
    return run_match(BATCH, a, b, deals, seed, rules, chunk=chunk, **run)


def tournament_json(t: Tournament) -> dict:
    """A tournament's JSON: one row per match (A's view) and the standings."""
    rows = []
    for r in t.results:
        s = r.body
        net = s["net_per_deal"]
        rows.append(
            {
                "a": r.a,
                "b": r.b,
                "pairs": s["pairs"],
                "net_per_deal": net["mean"],
                "ci_low": net["ci95"][0],
                "ci_high": net["ci95"][1],
                "p_value": s["p_value"],
                "significant": s["significant"],
                "a_deal_win_rate": s["a_deal_win_rate"]["p"],
                "complete": not r.partial,
            }
        )
    data = {
        "matches": rows,
        "standings": t.standings(),
        "interrupted": t.partial,
        "seed": t.seed,
        "rules": t.rules.to_dict(),
    }
    if t.partial:  # only then, so complete runs keep their exact output
        data.update(
            partial=True,
            pairs_played=t.played,
            matches_played=len(t.results),
            matches_requested=t.pairs,
        )
    return data


@dataclass
class TournamentTables:
    """A round robin as tables: one row per match in ``matches`` (A's view), ``standings``,
    the margin matrix (row over column, points per deal; 0 where not played) and its 95%
    half-widths."""

    names: list[str]
    matches: pd.DataFrame
    standings: pd.DataFrame
    margins: np.ndarray
    half_widths: np.ndarray
    partial: bool = False


def tournament_tables(t: Tournament) -> TournamentTables:
    """A round robin (``studies.STUDIES.round_robin``: every pair on the same mirrored deals;
    Ctrl-C keeps the finished matches, the cut one partial) as tables."""
    data = tournament_json(t)
    return TournamentTables(
        t.names,
        pd.DataFrame(data["matches"]),
        pd.DataFrame(data["standings"]),
        np.nan_to_num(t.values),
        np.nan_to_num(t.halves),
        t.partial,
    )
