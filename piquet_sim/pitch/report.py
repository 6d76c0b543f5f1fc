"""The Pitch Six report: the bidder's points by trump length and top trump, bids made by
player count, and one game match, as sections (``core.report``) with plots (``core.plots``).

Rounds are simulated with the ``threshold`` bidder (or the given bid policy) and heuristic
play; perspective in every caption: the bidder's points (of the six) in his round.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..core.plots import pyplot, save
from ..core.report import Section
from ..core.stats import Z95, wilson_interval
from .kernels.simulate import simulate_rounds
from .layouts import BID_MAX, BID_MIN, RoundRec
from .match import game_match, match_kernels
from .policies import make_policy
from .rules import Rules
from .strategies import Strategy

TOP_LABELS = ("A", "K", "Q", "J", "10 or lower")


def _rounds(rules: Rules, rounds: int, seed: int, bid: str) -> np.ndarray:
    arr = rules.to_array()
    recs, _ = simulate_rounds(seed, 0, rounds, arr, make_policy(bid, "heuristic"), False)
    return recs


def report_kernels() -> tuple:
    """The numba entry kernels :func:`build` calls (for a compile notice)."""
    return (simulate_rounds, *match_kernels())


def _pct(k: int, n: int) -> str:
    if n == 0:
        return "-"
    lo, hi = wilson_interval(int(k), int(n))
    return f"{100 * k / n:.1f} ({100 * lo:.1f}-{100 * hi:.1f})"


def _mean_ci(x: np.ndarray) -> tuple[float, float]:
    if len(x) < 2:
        return float("nan"), float("nan")
    return float(x.mean()), float(Z95 * x.std(ddof=1) / np.sqrt(len(x)))


def bidder_trumps(recs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per round: trumps in the bidder's dealt hand, his top trump's rank (0 two .. 12 ace),
    his points."""
    idx = np.arange(len(recs))
    bidder = recs[:, RoundRec.BIDDER]
    hand = recs[idx, RoundRec.HANDS + bidder].astype(np.uint64)
    trump = recs[:, RoundRec.TRUMP].astype(np.uint64)
    lane = (hand >> (np.uint64(16) * trump)) & np.uint64(0x1FFF)
    length = np.array([int(x).bit_count() for x in lane])
    top = np.array([int(x).bit_length() - 1 for x in lane])
    points = recs[idx, RoundRec.POINTS + bidder]
    return length, top, points


def points_section(recs: np.ndarray, players: int, bid: str, out: Path) -> Section:
    sec = Section("pitch-points", "The bidder's points by trump length and top trump")
    length, top, points = bidder_trumps(recs)
    rows = []
    for k in range(1, 7):
        sel = length == k
        m, h = _mean_ci(points[sel])
        rows.append(
            {"trumps held": str(k), "rounds": int(sel.sum()), "mean points": f"{m:.2f} ± {h:.2f}"}
        )
    groups = [top == 12, top == 11, top == 10, top == 9, top <= 8]
    trows = []
    for label, sel in zip(TOP_LABELS, groups, strict=True):
        m, h = _mean_ci(points[sel])
        trows.append(
            {"top trump": label, "rounds": int(sel.sum()), "mean points": f"{m:.2f} ± {h:.2f}"}
        )
    sec.text(
        f"{len(recs):,} simulated rounds, {players} players, every seat bidding `{bid}` and "
        "playing `heuristic`; the bidder's points (of the six) by the trumps in his dealt hand "
        "and by his highest trump. ± is the 95% half-width."
    )
    sec.table(pd.DataFrame(rows), "Bidder's points by trumps held")
    sec.table(pd.DataFrame(trows), "Bidder's points by his top trump")
    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.2))
    ks = [k for k in range(1, 7) if (length == k).sum() > 1]
    ms = [_mean_ci(points[length == k]) for k in ks]
    axes[0].errorbar(ks, [m for m, _ in ms], yerr=[h for _, h in ms], marker="o", capsize=3)
    axes[0].set_xlabel("trumps in the bidder's hand")
    axes[0].set_ylabel("bidder's points (mean, 95%)")
    tm = [_mean_ci(points[sel]) for sel in groups]
    axes[1].bar(range(len(TOP_LABELS)), [m for m, _ in tm], yerr=[h for _, h in tm], capsize=3)
    axes[1].set_xticks(range(len(TOP_LABELS)), TOP_LABELS)
    axes[1].set_xlabel("bidder's top trump")
    fig.suptitle(f"Bidder's points, {players} players")
    sec.image(save(fig, out / "pitch_points.png"), "Bidder's points by trump length and top trump")
    return sec


def success_section(by_players: dict[int, np.ndarray], bid: str, out: Path) -> Section:
    sec = Section("pitch-bids", "Bids made by player count")
    rows = []
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 3.2))
    levels = list(range(BID_MIN, BID_MAX + 1))
    width = 0.8 / len(by_players)
    for i, (n, recs) in enumerate(by_players.items()):
        bids = recs[:, RoundRec.BID]
        made = recs[:, RoundRec.MADE] == 1
        row = {"players": str(n), "rounds": len(recs), "mean bid": f"{bids.mean():.2f}"}
        rates, errs = [], [[], []]
        for b in levels:
            sel = bids == b
            k, m = int((sel & made).sum()), int(sel.sum())
            row[f"made at {b} %"] = _pct(k, m)
            lo, hi = wilson_interval(k, m) if m else (np.nan, np.nan)
            p = k / m if m else np.nan
            rates.append(100 * p)
            errs[0].append(max(0.0, 100 * (p - lo)) if m else 0)
            errs[1].append(max(0.0, 100 * (hi - p)) if m else 0)
        row["made overall %"] = _pct(int(made.sum()), len(recs))
        rows.append(row)
        x = np.arange(len(levels)) + i * width - 0.4 + width / 2
        ax.bar(x, rates, width, yerr=errs, capsize=2, label=f"{n} players")
    ax.set_xticks(range(len(levels)), [str(b) for b in levels])
    ax.set_xlabel("winning bid")
    ax.set_ylabel("% made (95%)")
    ax.legend(fontsize=8)
    ax.set_title(f"Bids made, every seat bidding {bid}")
    sec.text(
        f"Every seat bids `{bid}` and plays `heuristic`. 'made at b' is the share of rounds "
        "won at bid b in which the bidder took at least b points (95% Wilson intervals)."
    )
    sec.table(pd.DataFrame(rows), "Bid levels made, by player count")
    sec.image(save(fig, out / "pitch_bids.png"), "Bids made by level and player count")
    return sec


def match_section(a: Strategy, b: Strategy, rules: Rules, games: int, seed: int) -> Section:
    players = rules.players
    sec = Section("pitch-games", f"Games to {rules.target}")
    m = game_match(a, b, players, games, seed, rules)
    rows = [
        {
            "hero": r.hero,
            "field": r.field,
            "games": r.games,
            "P(hero wins) %": _pct(round(r.p_win.mean * r.games), r.games),
            "fair %": f"{100 * r.fair:.1f}",
            "rounds per game": f"{r.rounds_per_game.mean:.1f}",
        }
        for r in m.results
    ]
    sec.text(
        f"{players} players. One hero strategy against a field of the other; the hero's seat "
        "and the first dealer rotate. Perspective: P(the hero wins the game), 95% Wilson."
    )
    sec.table(pd.DataFrame(rows), f"`{a.name}` ({a.summary()}) and `{b.name}` ({b.summary()})")
    return sec


def build(
    out: Path,
    rounds: int = 100_000,
    players: int = 4,
    a: Strategy | None = None,
    b: Strategy | None = None,
    games: int = 4000,
    seed: int = 1,
    bid: str = "threshold",
    rules: Rules | None = None,
) -> list[Section]:
    """The report's sections (PNGs written into ``out``). ``rules``: the rules options of every
    section (their ``players`` is replaced by each player count studied; default: the default
    rules at ``players``)."""
    from .strategies import REGISTRY

    rules = (rules or Rules()).replace(players=players)
    out.mkdir(parents=True, exist_ok=True)
    by_players = {n: _rounds(rules.replace(players=n), rounds, seed, bid) for n in range(3, 7)}
    return [
        points_section(by_players[players], players, bid, out),
        success_section(by_players, bid, out),
        match_section(a or REGISTRY["cautious"], b or REGISTRY["threshold"], rules, games, seed),
    ]


__all__ = ["bidder_trumps", "build", "report_kernels"]
