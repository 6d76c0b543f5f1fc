"""Whole parties of two strategies, and the value of a partie state for partie-aware advice.

``parties`` simulates mirrored parties (``kernels.partie``): partie p is played with A elder in
the first deal and again with B elder first, on the same deals. Estimates come from the pairs:
P(A wins the partie), P(draw), P(rubicon) either way and A's expected settlement per partie
(points, negative when B gains), each with a 95% interval.

``PartieTables`` is the building block for partie-aware advice: from the joint distribution of
one deal's points (mine, the opponent's) when I am elder and when I am younger, a dynamic
programme over the score state gives P(win), P(draw) and the expected settlement for every
(deals done, my score, opponent's score, my seat in the next deal). See ``PartieTables.after_deal``
for how the advisor maps a deal's outcomes to partie value.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..core.engine.backend import Cancel, Chunk
from ..core.engine.stats import Z95, Estimate, format_p, mean_ci, p_two_sided, proportion
from ..core.game.strategy import Strategy
from ..core.study.match import MatchKind, MatchResult, MatchSpec, Stat, run_match
from .kernels import layouts as L
from .kernels import partie as KP
from .match import stamp
from .rules import DEFAULT_RULES, Rules
from .simulation import simulate
from .strategies import BOOK, mirrored_args, mirrored_bundle_free, policies

SETTLE_RANGE = 1000  # settlements histogrammed over [-SETTLE_RANGE, SETTLE_RANGE]
TOTAL_RANGE = 600


def partie_rows(
    a: str | Strategy,
    b: str | Strategy,
    seed: int,
    start: int,
    n: int,
    rules: Rules = DEFAULT_RULES,
) -> np.ndarray:
    """Rows int32[n, 2, PROW_LEN] of mirrored parties start..start+n-1 (A's view; version 0: A
    elder in the first deal, version 1: B elder first)."""
    a, b = BOOK.resolve(a), BOOK.resolve(b)
    return partie_kernel(a, b)(seed, start, n, *mirrored_args(a, b, rules))


def partie_kernel(a: Strategy, b: Strategy):
    """The mirrored-parties kernel of A against B (both give the same rows): the bundle-free
    one when every seat plays greedy, random or heuristic, else the general one."""
    return KP.simple_mirrored_parties if mirrored_bundle_free(a, b) else KP.mirrored_parties


def partie_task(chunk: Chunk, a: Strategy, b: Strategy, seed: int, rules: Rules) -> PartieCounts:
    """Counts of one chunk of partie pairs (the unit of work of every backend)."""
    counts = PartieCounts()
    counts.add(partie_rows(a, b, seed, chunk.start, chunk.size, rules))
    return counts


class PartieCounts:
    """Sums over mirrored partie pairs, merged chunk by chunk (integers and exact float sums)."""

    def __init__(self) -> None:
        self.pairs = 0
        self.sums: dict[str, float] = {}
        #: parties by A's settlement (index + SETTLE_RANGE, clipped) and by each final total
        self.settle_hist = np.zeros(2 * SETTLE_RANGE + 1, np.int64)
        self.total_hist = {
            "a": np.zeros(TOTAL_RANGE + 1, np.int64),
            "b": np.zeros(TOTAL_RANGE + 1, np.int64),
        }

    def merge(self, other: PartieCounts) -> None:
        """Add another partial aggregate (integer-valued sums, so exact in any order)."""
        self.pairs += other.pairs
        for name, value in other.sums.items():
            self._add(name, value)
        self.settle_hist += other.settle_hist
        for side, hist in other.total_hist.items():
            self.total_hist[side] += hist

    def _add(self, name: str, value) -> None:
        self.sums[name] = self.sums.get(name, 0.0) + float(value)

    def add(self, rows: np.ndarray) -> None:
        r = rows.astype(np.int64)
        self.pairs += len(r)
        win = (r[:, :, L.PROW_WINNER] == 1).astype(np.int64)
        lose = (r[:, :, L.PROW_WINNER] == -1).astype(np.int64)
        draw = (r[:, :, L.PROW_WINNER] == 0).astype(np.int64)
        rub = r[:, :, L.PROW_RUBICON].astype(np.int64)
        settle = r[:, :, L.PROW_SETTLE]
        self.settle_hist += np.bincount(
            np.clip(settle.ravel(), -SETTLE_RANGE, SETTLE_RANGE) + SETTLE_RANGE,
            minlength=self.settle_hist.size,
        )
        for side, f in (("a", L.PROW_A), ("b", L.PROW_B)):
            self.total_hist[side] += np.bincount(
                np.clip(r[:, :, f].ravel(), 0, TOTAL_RANGE), minlength=TOTAL_RANGE + 1
            )
        pw = win.sum(axis=1)  # 0..2 per pair
        ps = settle.sum(axis=1)
        self._add("win2", pw.sum())
        self._add("win2_sq", (pw * pw).sum())
        self._add("settle2", ps.sum())
        self._add("settle2_sq", (ps * ps).sum())
        for v in range(2):
            self._add(f"v{v}.win", win[:, v].sum())
            self._add(f"v{v}.draw", draw[:, v].sum())
            self._add(f"v{v}.lose", lose[:, v].sum())
            self._add(f"v{v}.settle", settle[:, v].sum())
            self._add(f"v{v}.settle_sq", (settle[:, v] ** 2).sum())
            self._add(f"v{v}.a_rubicons", (win[:, v] * rub[:, v]).sum())
            self._add(f"v{v}.b_rubicons", (lose[:, v] * rub[:, v]).sum())
            self._add(f"v{v}.blank", r[:, v, L.PROW_BLANK].sum())
            self._add(f"v{v}.deals", r[:, v, L.PROW_DEALS].sum())
            self._add(f"v{v}.a_total", r[:, v, L.PROW_A].sum())
            self._add(f"v{v}.b_total", r[:, v, L.PROW_B].sum())


def summarize(c: PartieCounts, a: str, b: str) -> dict:
    """JSON-ready partie statistics, A's view; probabilities over all 2 * pairs parties."""
    n = c.pairs
    s = c.sums
    g = lambda k: s.get(k, 0.0)  # noqa: E731
    both = lambda k: g(f"v0.{k}") + g(f"v1.{k}")  # noqa: E731
    win_paired = mean_ci(g("win2"), g("win2_sq"), n, scale=0.5)
    settle = mean_ci(g("settle2"), g("settle2_sq"), n, scale=0.5)
    z = settle["mean"] / settle["se"] if n and settle["se"] > 0 else 0.0
    p = p_two_sided(z) if n and settle["se"] > 0 else 1.0
    by_first = {}
    for v, who in ((0, "a_elder_first"), (1, "b_elder_first")):
        by_first[who] = {
            "a_win": proportion(g(f"v{v}.win"), n),
            "draw": proportion(g(f"v{v}.draw"), n),
            "a_settlement": mean_ci(g(f"v{v}.settle"), g(f"v{v}.settle_sq"), n),
        }
    m = 2 * n
    return {
        "a": a,
        "b": b,
        "pairs": n,
        "parties": m,
        "a_win": {**proportion(both("win"), m), "paired_ci95": win_paired["ci95"]},
        "b_win": proportion(both("lose"), m),
        "draw": proportion(both("draw"), m),
        "a_rubicons_b": proportion(both("a_rubicons"), m),
        "b_rubicons_a": proportion(both("b_rubicons"), m),
        "rubicon": proportion(both("a_rubicons") + both("b_rubicons"), m),
        "blank_partie": proportion(both("blank"), m),
        "a_settlement": settle,
        "p_value": float(p),
        "mean_deals": both("deals") / m if m else float("nan"),
        "mean_totals": {
            "a": both("a_total") / m if m else float("nan"),
            "b": both("b_total") / m if m else float("nan"),
        },
        "by_first_elder": by_first,
        "statement": _statement(a, b, settle, p),
    }


def _statement(a: str, b: str, settle: dict, p: float) -> str:
    mean, half = settle["mean"], Z95 * settle["se"]
    if not math.isfinite(mean):
        return "no parties played"
    lo, hi = settle["ci95"]
    if half == 0 and mean == 0:
        return f"{a} and {b} play identically here: every mirrored pair settles 0"
    if lo > 0 or hi < 0:
        win, lose, m = (a, b, mean) if mean > 0 else (b, a, -mean)
        return f"{win} gains {m:.1f} ± {half:.1f} points per partie from {lose} ({format_p(p)})"
    return (
        f"{a} and {b} cannot be told apart over parties: {a} settles {mean:+.1f} ± {half:.1f} "
        f"points per partie ({format_p(p)})"
    )


def _partie_result(spec: MatchSpec, parts: list, seconds: float) -> MatchResult:
    """The statistics of mirrored parties (``partie.summarize``), A's view."""
    counts = parts[0] if parts else PartieCounts()
    a, b = spec.a, spec.b
    s = summarize(counts, a.name, b.name)
    partial = stamp(s, spec, counts.pairs)
    settle = s["a_settlement"]
    totals = s["mean_totals"]
    sides = {
        side: [
            Stat.of("wins the partie", s[f"{key}_win"]),
            Stat.of("rubicons the other", s[f"{key}_rubicons_{other}"]),
            Stat.of("mean final total", totals[key]),
        ]
        for side, key, other in ((a.name, "a", "b"), (b.name, "b", "a"))
    }
    notes = [
        s["statement"],
        f"{a.name} rubicons {b.name} {s['a_rubicons_b']['p']:.4f}, {b.name} rubicons "
        f"{a.name} {s['b_rubicons_a']['p']:.4f}; drawn {s['draw']['p']:.4f}; "
        f"{s['mean_deals']:.2f} deals a partie",
    ]
    if spec.rules.blank_partie_bonus:
        notes.append(f"blank partie {s['blank_partie']['p']:.4f}")
    for key, who in (("a_elder_first", a.name), ("b_elder_first", b.name)):
        e = s["by_first_elder"][key]
        notes.append(
            f"{who} elder first: {a.name} wins {e['a_win']['p']:.4f}, settles "
            f"{e['a_settlement']['mean']:+.2f} ± {Z95 * e['a_settlement']['se']:.2f}"
        )
    margin = Estimate(settle["mean"], settle["se"], *settle["ci95"], counts.pairs, s["p_value"])
    return MatchResult(
        a.name,
        b.name,
        margin,
        "points of settlement per partie (A's, mean of A elder first and B elder first)",
        counts.pairs,
        spec.n,
        partial,
        s,
        sides,
        notes,
        data=counts,
    )


def _merge(total: PartieCounts, part: PartieCounts) -> PartieCounts:
    total.merge(part)
    return total


#: Whole parties (Rubicon settlement), each played with A elder first and with B elder first.
PARTIE = MatchKind(
    unit="partie pairs",
    task=partie_task,
    args=lambda spec: (spec.a, spec.b, spec.seed, spec.rules),
    result=_partie_result,
    chunk=lambda spec: 20_000,
    kernels=lambda spec: (partie_kernel(spec.a, spec.b),),
    default_n=lambda a, b: 50_000,
    fold=_merge,
    plot=lambda r, path: plot_parties(r.data, r.body, path),
)


@dataclass
class PartieResult:
    summary: dict
    counts: PartieCounts
    interrupted: bool


def parties(
    a: str | Strategy,
    b: str | Strategy,
    n: int,
    seed: int = 1,
    rules: Rules = DEFAULT_RULES,
    chunk: int = 20_000,
    progress: Callable[[int], None] | None = None,
    backend=None,
    cancel: Cancel | None = None,
) -> PartieResult:
    """Simulate ``n`` mirrored partie pairs of A against B (2n parties) under ``rules``: the
    study layer's match of parties (``studies.PARTIE``). Ctrl-C stops cleanly after the chunk
    in flight (``interrupted``; ``pairs`` says how many finished), and so does ``cancel`` (a
    study's token) once set. ``backend``: where the chunks run (default local); same counts on
    any."""
    run = {"chunk": chunk, "progress": progress, "backend": backend, "cancel": cancel}
    r = run_match(PARTIE, BOOK.resolve(a), BOOK.resolve(b), n, seed, rules, **run)
    return PartieResult(r.body, r.data, r.partial)


def plot_parties(c: PartieCounts, summary: dict, path: str, title: str = "") -> None:
    """A's settlement per partie (histogram, mean marked) and both players' final totals with the
    Rubicon line at 100."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = max(int(c.settle_hist.sum()), 1)
    a, b = summary["a"], summary["b"]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.2))
    x = np.arange(-SETTLE_RANGE, SETTLE_RANGE + 1)
    width = 10
    binned = np.add.reduceat(c.settle_hist, np.arange(0, x.size, width)) / n
    ax1.bar(x[::width] + width / 2, binned, width=width, color="tab:green")
    mean = summary["a_settlement"]["mean"]
    ax1.axvline(mean, color="black", lw=1, label=f"mean {mean:+.1f}")
    ax1.axvline(0, color="grey", lw=0.6)
    ax1.set_xlim(-700, 700)
    ax1.set_xlabel(f"{a}'s settlement per partie (points; negative: {b} gains)")
    ax1.set_ylabel("probability per 10 points")
    ax1.legend()
    ax1.set_title("Settlement (a win is worth 100 more; outer humps: rubicons)")
    t = np.arange(TOTAL_RANGE + 1)
    for side, name, colour in (("a", a, "tab:blue"), ("b", b, "tab:orange")):
        ax2.step(t, c.total_hist[side] / n, where="mid", label=name, color=colour)
    ax2.axvline(100, color="red", lw=0.8, label="Rubicon (100)")
    ax2.set_xlim(0, 400)
    ax2.set_xlabel("final total of the partie (points)")
    ax2.set_title("Final totals")
    ax2.legend()
    fig.suptitle(
        title
        or f"{a} v {b}: {summary['parties']:,} parties (P({a} wins) {summary['a_win']['p']:.3f})"
    )
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


# ----------------------------------------------------------------------------- partie value

MAX_DEAL_POINTS = 256  # a player's points in one deal are clipped to MAX_DEAL_POINTS - 1


def deal_distributions(
    me: str | Strategy,
    opp: str | Strategy,
    rules: Rules = DEFAULT_RULES,
    deals: int = 200_000,
    seed: int = 7,
) -> tuple[np.ndarray, np.ndarray]:
    """Joint distributions of one deal's points (mine, the opponent's), float64[256, 256]
    indexed [my points, opponent's points]: (when I am elder, when I am younger)."""
    sm, so = BOOK.resolve(me), BOOK.resolve(opp)
    out = []
    for elder, younger, mine, theirs in (
        (sm, so, L.REC_ELDER, L.REC_YOUNGER),
        (so, sm, L.REC_YOUNGER, L.REC_ELDER),
    ):
        rec = simulate(deals, seed, policies(elder, younger), rules)
        x = np.clip(rec[:, mine + L.RF_TOTAL], 0, MAX_DEAL_POINTS - 1).astype(np.int64)
        y = np.clip(rec[:, theirs + L.RF_TOTAL], 0, MAX_DEAL_POINTS - 1).astype(np.int64)
        h = np.bincount(x * MAX_DEAL_POINTS + y, minlength=MAX_DEAL_POINTS**2)
        out.append(h.reshape(MAX_DEAL_POINTS, MAX_DEAL_POINTS) / deals)
    return out[0], out[1]


def _terminal(grid: int, blank: bool) -> np.ndarray:
    """[3, G, G] (win, draw, settlement) of a finished partie at (my total, opponent's)."""
    m = np.arange(grid)[:, None]
    o = np.arange(grid)[None, :]
    hi, lo = np.maximum(m, o), np.minimum(m, o)
    gain = np.where(lo >= KP.RUBICON, hi - lo, hi + lo) + KP.GAME_BONUS
    if blank:
        gain = gain + np.where(lo == 0, KP.BLANK_BONUS, 0)
    sign = np.sign(m - o)
    out = np.empty((3, grid, grid))
    out[0] = m > o
    out[1] = m == o
    out[2] = sign * gain
    return out


def _step(values: np.ndarray, dist: np.ndarray, k: int) -> np.ndarray:
    """E[values(m + k a, o + k b)] over (a, b) ~ dist, for every (m, o) of the grid.

    ``values`` [3, G, G]; states beyond the grid take the value at its edge."""
    grid = values.shape[1]
    a = dist.shape[0]
    size = grid + k * a
    ext = np.pad(values, ((0, 0), (0, size - grid), (0, size - grid)), mode="edge")
    kernel = np.zeros((size, size))
    kernel[: k * a : k, : k * a : k] = dist
    f = np.fft.rfft2(ext, axes=(1, 2)) * np.conj(np.fft.rfft2(kernel))[None]
    out = np.fft.irfft2(f, s=(size, size), axes=(1, 2))[:, :grid, :grid]
    return out


@dataclass
class PartieTables:
    """Partie value at every state, my view, before the deal ``deals_done + 1`` is played.

    ``values[j, e]``: float64[3, G, G] = (P(win), P(draw), expected settlement) with j deals
    done, e = 1 when I am elder in the next deal, indexed [my score, opponent's score] (scores
    already multiplied for doubled deals; clipped to G - 1). For rubicon and four_deals, j runs
    0..N (N = 6 or 4; j = N is the end of the base deals, a tie leading to the two extra deals),
    then N + 1 (one extra deal played after a tie) and N + 2 (the partie over). For
    piquet au cent j runs 0..HUNDRED_MAX_DEALS and a state with a score of 100 or more is over.
    """

    rules: Rules
    values: np.ndarray  # [J, 2, 3, G, G]
    base_deals: int

    @property
    def grid(self) -> int:
        return self.values.shape[-1]

    def multiplier(self, deal: int) -> int:
        """How many times deal ``deal`` (1-based) counts."""
        if deal > self.base_deals and self.rules.game != "hundred":
            return 2 if self.rules.tie == "refait_double" else 1
        if self.rules.game == "four_deals" and deal in (1, 4):
            return 2
        return 1

    def value(self, my_score, opp_score, deals_done: int, elder_next: bool):
        """(P(win), P(draw), expected settlement) at a state; scores may be arrays."""
        g = self.grid - 1
        m = np.clip(np.asarray(my_score), 0, g)
        o = np.clip(np.asarray(opp_score), 0, g)
        v = self.values[deals_done, int(elder_next)]
        return v[0][m, o], v[1][m, o], v[2][m, o]

    def after_deal(self, my_score, opp_score, deal: int, elder: bool, my_points, opp_points):
        """Partie value of the outcomes of deal ``deal`` (1-based, of ``N`` or an extra deal),
        played from scores (my_score, opp_score) with me elder when ``elder``.

        ``my_points``/``opp_points``: arrays of the deal's raw points (one pair per simulated
        outcome). Returns arrays (P(win), P(draw), expected settlement) per outcome; their means
        are the candidate's partie value."""
        k = self.multiplier(deal)
        m = np.asarray(my_score) + k * np.asarray(my_points)
        o = np.asarray(opp_score) + k * np.asarray(opp_points)
        return self.value(m, o, deal, not elder)


def partie_tables(
    p_elder: np.ndarray,
    p_younger: np.ndarray,
    rules: Rules = DEFAULT_RULES,
    grid: int | None = None,
) -> PartieTables:
    """Dynamic programme over the partie state from the deal distributions of
    :func:`deal_distributions` (``p_elder``: (my, opp) points when I am elder).

    ``grid``: scores 0..grid-1 per player are tabulated (default 512; 360 for piquet au cent,
    whose live states are under 100); a score beyond takes the edge's value, an error only for
    totals no partie reaches in practice. Tables are float32: about 57 MB for six deals,
    130 MB for piquet au cent. Builds in a few seconds (numpy FFTs)."""
    if grid is None:
        grid = 360 if rules.game == "hundred" else 512
    dists = (p_younger, p_elder)  # index e: 1 when I am elder in the deal
    final = _terminal(grid, rules.blank_partie_bonus)
    mult_extra = 2 if rules.tie == "refait_double" else 1
    # the two extra deals after a tie: x2 = over, x1 = one played, x0 = none played
    x1 = [_step(final, dists[e], mult_extra) for e in range(2)]
    x0 = [_step(x1[1 - e], dists[e], mult_extra) for e in range(2)]

    def ended(e: int) -> np.ndarray:
        """Value of a partie whose base deals are over: settled, or a tie going to extra deals."""
        v = final.copy()
        diag = np.arange(grid)
        v[:, diag, diag] = x0[e][:, diag, diag]
        return v

    if rules.game == "hundred":
        n = KP.HUNDRED_MAX_DEALS
        m = np.arange(grid)
        over = (m[:, None] >= KP.HUNDRED_TARGET) | (m[None, :] >= KP.HUNDRED_TARGET)
        values = np.empty((n + 1, 2, 3, grid, grid), dtype=np.float32)
        for e in range(2):
            values[n, e] = ended(e)
        for j in range(n - 1, -1, -1):
            for e in range(2):
                cont = _step(values[j + 1, 1 - e], dists[e], 1)
                values[j, e] = np.where(over[None], ended(e), cont)
        return PartieTables(rules, values, n)
    n = 6 if rules.game == "rubicon" else 4
    values = np.empty((n + 3, 2, 3, grid, grid), dtype=np.float32)
    for e in range(2):
        values[n + 2, e] = final
        values[n + 1, e] = x1[e]
        values[n, e] = ended(e)
    for j in range(n - 1, -1, -1):
        k = 2 if (rules.game == "four_deals" and j in (0, 3)) else 1
        for e in range(2):
            values[j, e] = _step(values[j + 1, 1 - e], dists[e], k)
    return PartieTables(rules, values, n)


@functools.lru_cache(maxsize=8)
def cached_tables(
    me: str = "greedy",
    opp: str = "greedy",
    rules: Rules = DEFAULT_RULES,
    deals: int = 200_000,
    seed: int = 7,
) -> PartieTables:
    """:func:`partie_tables` from :func:`deal_distributions` of two named strategies, built once
    per process (about 2 s of simulation and 2 s of FFTs at the defaults)."""
    pe, py = deal_distributions(me, opp, rules, deals, seed)
    return partie_tables(pe, py, rules)


OBJECTIVES = ("win", "settlement")


def partie_value(
    my_score: int,
    opp_score: int,
    deal: int,
    elder: bool,
    my_points,
    opp_points,
    objective: str = "win",
    tables: PartieTables | None = None,
    rules: Rules = DEFAULT_RULES,
) -> np.ndarray:
    """Partie value of each possible outcome of the current deal, my view.

    ``my_score``/``opp_score``: partie totals before deal ``deal`` (1-based: 1..6 for the Rubicon
    partie, 1..4 for four deals, 7..8 (or 5..6) for the extra deals after a tie; 1..40 au cent);
    ``elder``: I am elder in this deal; ``my_points``/``opp_points``: arrays of the deal's raw
    points per outcome (e.g. one per simulated world of a candidate exchange). ``objective``:
    "win" gives P(I win the partie), "settlement" my expected settlement in points. The mean over
    a candidate's outcomes is its partie value. ``tables`` default: :func:`cached_tables` with
    greedy play on both sides under ``rules``."""
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}")
    t = tables if tables is not None else cached_tables(rules=rules)
    last = t.values.shape[0] - 1
    if not 1 <= deal <= last:
        raise ValueError(f"deal must be 1..{last} under game={t.rules.game}, got {deal}")
    win, _, settle = t.after_deal(my_score, opp_score, deal, elder, my_points, opp_points)
    return np.asarray(win if objective == "win" else settle, dtype=np.float64)
