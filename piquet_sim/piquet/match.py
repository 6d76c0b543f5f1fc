"""Head-to-head matches of strategies over mirrored deals, and round-robin tournaments.

Every deal is played twice, A elder then B elder, on the same cards and random stream
(``kernels.match``). The unit of evidence is the deal pair: ``d_i`` = A's net over B in the
A-elder play plus A's net over B in the B-elder play. The luck of the cards cancels in ``d_i``,
so its variance is far smaller than a single play's. "Mean net per deal" is ``mean(d_i) / 2``:
A's points minus B's in one deal, averaged over seats; its 95% interval and the two-sided
p-value (normal approximation, thousands of pairs) come from the pairs' spread.

Counts are integers merged exactly across chunks; a chunked or interrupted run is the prefix of
the full run.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..core.app.tables import export_table  # noqa: F401 - the commands write tables through it
from ..core.engine.backend import Chunk, LocalBackend, run_chunks
from ..core.engine.stats import Z95, format_p, mean_ci, p_two_sided, proportion
from ..core.study.series import Series
from .kernels import layouts as L
from .kernels import match as KM
from .rules import DEFAULT_RULES, Rules
from .strategies import Strategy, mirrored_args, mirrored_bundle_free, resolve

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


@dataclass
class MatchResult:
    summary: dict
    counts: MatchCounts
    interrupted: bool


def head_to_head(
    a: str | Strategy,
    b: str | Strategy,
    deals: int,
    seed: int = 1,
    rules: Rules = DEFAULT_RULES,
    chunk: int = 250_000,
    progress: Callable[[int], None] | None = None,
    on_chunk: Callable[[int, np.ndarray], None] | None = None,
    backend=None,
) -> MatchResult:
    """Play ``deals`` mirrored deal pairs of A against B (2 * deals plays).

    ``on_chunk(start, nets)`` receives each chunk's per-deal nets (for CSV export); ``progress``
    the number of pairs finished. Ctrl-C stops cleanly after the chunk in flight with the pairs
    so far (``interrupted`` true; the summary's ``pairs`` says how many). ``backend``: where the
    chunks run (``piquet_sim.backend``; default local); the counts are the same on any."""
    sa, sb = resolve(a), resolve(b)
    counts = MatchCounts()

    def consume(item: Chunk, result: tuple) -> None:
        nets, chunk_counts = result
        counts.add(chunk_counts)
        if on_chunk is not None:
            on_chunk(item.start, nets)

    done = run_chunks(
        backend or LocalBackend(),
        _match_task,
        deals,
        chunk,
        (sa, sb, seed, rules),
        consume,
        progress,
    )
    summary = summarize(counts, sa.name, sb.name)
    summary.update(
        seed=seed,
        rules=rules.to_dict(),
        interrupted=done < deals,
        strategies={sa.name: sa.summary(), sb.name: sb.summary()},
    )
    return MatchResult(summary, counts, done < deals)


def nets_frame(start: int, nets: np.ndarray) -> pd.DataFrame:
    """Per-deal rows: deal index, A's net as elder, A's net as younger, the pair mean."""
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


# ----------------------------------------------------------------------------- tournaments


@dataclass
class Tournament:
    """Round-robin results: one row per ordered pair in ``matches`` (A's view), ``standings``."""

    names: list[str]
    matches: pd.DataFrame
    standings: pd.DataFrame
    margins: np.ndarray  # [i, j]: mean net per deal of i over j
    half_widths: np.ndarray  # [i, j]: 95% half-width
    interrupted: bool = False


def tournament(
    specs: Sequence[str | Strategy],
    deals: int,
    seed: int = 1,
    rules: Rules = DEFAULT_RULES,
    chunk: int = 250_000,
    progress: Callable[[int], None] | None = None,
    backend=None,
) -> Tournament:
    """Every pair of strategies plays ``deals`` mirrored deal pairs on the same deals (seed).

    ``progress`` receives pairs finished (the whole tournament is ``C(k, 2) * deals``). Ctrl-C
    stops after the current chunk; finished matches are kept, the cut one is reported partial."""
    strategies = [resolve(s) for s in specs]
    names = [s.name for s in strategies]
    if len(set(names)) != len(names):
        raise ValueError("each strategy may appear once in a tournament")
    k = len(strategies)
    margins = np.zeros((k, k))
    halves = np.zeros((k, k))
    rows = []
    with Series() as series:
        for i, j in series.each(itertools.combinations(range(k), 2)):
            r = head_to_head(
                strategies[i], strategies[j], deals, seed, rules, chunk, progress, backend=backend
            )
            s = r.summary
            net = s["net_per_deal"]
            margins[i, j], margins[j, i] = net["mean"], -net["mean"]
            halves[i, j] = halves[j, i] = Z95 * net["se"]
            rows.append(
                {
                    "a": names[i],
                    "b": names[j],
                    "pairs": s["pairs"],
                    "net_per_deal": net["mean"],
                    "ci_low": net["ci95"][0],
                    "ci_high": net["ci95"][1],
                    "p_value": s["p_value"],
                    "significant": s["significant"],
                    "a_deal_win_rate": s["a_deal_win_rate"]["p"],
                    "complete": not r.interrupted,
                }
            )
            if series.mark(r.interrupted):
                break
    interrupted = series.interrupted
    matches = pd.DataFrame(rows)
    played = {(r["a"], r["b"]) for r in rows}
    stand = []
    for i, name in enumerate(names):
        opp = [j for j in range(k) if j != i and ((names[min(i, j)], names[max(i, j)]) in played)]
        wins = sum(1 for j in opp if margins[i, j] - halves[i, j] > 0)
        losses = sum(1 for j in opp if margins[i, j] + halves[i, j] < 0)
        stand.append(
            {
                "strategy": name,
                "mean_margin": float(np.mean(margins[i, opp])) if opp else float("nan"),
                "significant_wins": wins,
                "significant_losses": losses,
                "matches": len(opp),
            }
        )
    standings = pd.DataFrame(stand).sort_values("mean_margin", ascending=False)
    return Tournament(
        names, matches, standings.reset_index(drop=True), margins, halves, interrupted
    )
