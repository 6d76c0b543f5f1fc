"""The Pitch Six report: the bidder's points by trump length and top trump, bids made by
player count, and one game match, as sections (``core.report``) with plots (``core.plots``).

Rounds are simulated with the ``threshold`` bidder (or the given bid policy) and heuristic
play; perspective in every caption: the bidder's points (of the six) in his round.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..core.app.plots import pyplot, save
from ..core.app.report import Section, not_run, partial_note, percent_ci
from ..core.engine.backend import Cancel, Chunk, merge_chunks
from ..core.engine.stats import Z95, Estimate, proportion, wilson_interval
from ..core.game.strategy import Strategy
from .kernels.simulate import simulate_rounds
from .layouts import BID_MAX, BID_MIN, RoundRec
from .match import GameMatch, game_match, match_kernels
from .policies import PolicyArrays, make_policy
from .rules import Rules
from .strategies import summary

TOP_LABELS = ("A", "K", "Q", "J", "10 or lower")
#: Rounds per chunk at most (chunks are paced to about ``core.backend.CHUNK_SECONDS``).
CHUNK = 1 << 17
#: The bidder's trumps (0 .. 6), his top trump + 1 (0: none, 1 two .. 13 ace) and his points
#: (0 .. 6): the shape of :class:`RoundTally`'s counts.
SHAPE = (7, 14, 7)


@dataclass
class RoundTally:
    """Simulated rounds counted for the report (merged exactly chunk by chunk, so a run of any
    size holds a few hundred counts): ``rounds`` done of ``requested``; ``bidder``: rounds by
    (the bidder's trumps in his dealt hand, his top trump's rank + 1, his points);
    ``bids``: rounds by (winning bid, made 0/1)."""

    requested: int
    rounds: int = 0
    bidder: np.ndarray = field(default_factory=lambda: np.zeros(SHAPE, dtype=np.int64))
    bids: np.ndarray = field(default_factory=lambda: np.zeros((BID_MAX + 1, 2), dtype=np.int64))

    @property
    def partial(self) -> bool:
        return self.rounds < self.requested

    def add(self, recs: np.ndarray) -> None:
        """Count rounds (``RoundRec`` rows)."""
        length, top, points = bidder_trumps(recs)
        idx = np.ravel_multi_index((length, top + 1, points), SHAPE)
        self.bidder += np.bincount(idx, minlength=self.bidder.size).reshape(SHAPE)
        made = (recs[:, RoundRec.MADE] == 1).astype(np.int64)
        cells = recs[:, RoundRec.BID] * 2 + made
        self.bids += np.bincount(cells, minlength=self.bids.size).reshape(self.bids.shape)
        self.rounds += len(recs)

    def merge(self, other: RoundTally) -> None:
        """Add ``other``'s counts (a chunk counted where it was played): exact, in any order."""
        self.rounds += other.rounds
        self.bidder += other.bidder
        self.bids += other.bids


def tally_task(chunk: Chunk, seed: int, rules: np.ndarray, policy: PolicyArrays) -> RoundTally:
    """One chunk of rounds (every backend's unit of work), counted where it was played: a
    Dask worker sends back counts, not round records."""
    recs, _ = simulate_rounds(seed, chunk.start, chunk.size, rules, policy, False)
    tally = RoundTally(chunk.size)
    tally.add(recs)
    return tally


def _tally(
    rules: Rules, rounds: int, seed: int, bid: str, backend=None, cancel: Cancel | None = None
) -> RoundTally:
    """Rounds 0 .. rounds-1 of ``seed`` at ``rules`` (every seat bidding ``bid``, playing
    heuristic), counted in chunks on ``backend`` (default local; the counts merge exactly, so
    the same on any) (``core.backend.run_chunks``: Ctrl-C stops after the chunk in flight,
    and a later run of the same command starts nothing; so does ``cancel`` once set)."""
    args = (seed, rules.to_array(), make_policy(bid, "heuristic"))
    tally = RoundTally(rounds)
    merge_chunks(tally, tally_task, rounds, CHUNK, args, backend, cancel=cancel)
    return tally


def report_kernels() -> tuple:
    """The numba entry kernels :func:`build` calls (for a compile notice)."""
    return (simulate_rounds, *match_kernels())


def _mean_ci(counts: np.ndarray) -> tuple[float, float]:
    """Mean points and the 95% half-width from counts of rounds by points (0 .. 6), from exact
    integer sums; NaN below two rounds."""
    v = np.arange(len(counts))
    n, s, ss = int(counts.sum()), int((counts * v).sum()), int((counts * v * v).sum())
    if n < 2:
        return float("nan"), float("nan")
    est = Estimate.of_sums(s, ss, n)
    return est.mean, Z95 * est.se


def bidder_trumps(recs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per round: trumps in the bidder's dealt hand, his top trump's rank (0 two .. 12 ace; -1
    none), his points."""
    idx = np.arange(len(recs))
    bidder = recs[:, RoundRec.BIDDER]
    hand = recs[idx, RoundRec.HANDS + bidder].astype(np.uint64)
    trump = recs[:, RoundRec.TRUMP].astype(np.uint64)
    lane = (hand >> (np.uint64(16) * trump)) & np.uint64(0x1FFF)
    length = np.bitwise_count(lane).astype(np.int64)
    top = np.frexp(lane.astype(np.float64))[1].astype(np.int64) - 1  # bit length - 1, exact
    points = recs[idx, RoundRec.POINTS + bidder]
    return length, top, points


def _mean_figures(counts: np.ndarray) -> dict:
    """A group's rounds and mean points with the 95% half-width (:func:`_mean_ci`)."""
    m, h = _mean_ci(counts)
    return {"rounds": int(counts.sum()), "mean": m, "half95": h}


def points_section(tally: RoundTally, players: int, bid: str, out: Path) -> Section:
    sec = Section("pitch-points", "The bidder's points by trump length and top trump")
    if tally.rounds == 0:
        return not_run(sec)
    by_length = tally.bidder.sum(axis=1)  # [trumps, points]
    by_top = tally.bidder.sum(axis=0)  # [top + 1, points]
    top_groups = [by_top[13], by_top[12], by_top[11], by_top[10], by_top[:10].sum(axis=0)]
    rows = []
    figures: dict = {"rounds": tally.rounds, "requested": tally.requested, "players": players}
    figures.update(bid=bid, by_trumps={}, by_top_trump={})
    for k in range(1, 7):
        m, h = _mean_ci(by_length[k])
        figures["by_trumps"][str(k)] = _mean_figures(by_length[k])
        rows.append(
            {
                "trumps held": str(k),
                "rounds": f"{int(by_length[k].sum()):,}",
                "mean points": f"{m:.2f} ± {h:.2f}",
            }
        )
    trows = []
    for label, counts in zip(TOP_LABELS, top_groups, strict=True):
        m, h = _mean_ci(counts)
        figures["by_top_trump"][label] = _mean_figures(counts)
        trows.append(
            {
                "top trump": label,
                "rounds": f"{int(counts.sum()):,}",
                "mean points": f"{m:.2f} ± {h:.2f}",
            }
        )
    sec.text(
        f"{tally.rounds:,} simulated rounds, {players} players, every seat bidding `{bid}` and "
        "playing `heuristic`; the bidder's points (of the six) by the trumps in his dealt hand "
        "and by his highest trump. ± is the 95% half-width."
        + partial_note(tally.rounds, tally.requested, "rounds")
    )
    sec.figures = figures
    sec.table(pd.DataFrame(rows), "Bidder's points by trumps held")
    sec.table(pd.DataFrame(trows), "Bidder's points by his top trump")
    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.2))
    ks = [k for k in range(1, 7) if by_length[k].sum() > 1]
    ms = [_mean_ci(by_length[k]) for k in ks]
    axes[0].errorbar(ks, [m for m, _ in ms], yerr=[h for _, h in ms], marker="o", capsize=3)
    axes[0].set_xlabel("trumps in the bidder's hand")
    axes[0].set_ylabel("bidder's points (mean, 95%)")
    tm = [_mean_ci(c) for c in top_groups]
    axes[1].bar(range(len(TOP_LABELS)), [m for m, _ in tm], yerr=[h for _, h in tm], capsize=3)
    axes[1].set_xticks(range(len(TOP_LABELS)), TOP_LABELS)
    axes[1].set_xlabel("bidder's top trump")
    fig.suptitle(f"Bidder's points, {players} players")
    sec.image(save(fig, out / "pitch_points.png"), "Bidder's points by trump length and top trump")
    return sec


def success_section(by_players: dict[int, RoundTally], bid: str, out: Path) -> Section:
    sec = Section("pitch-bids", "Bids made by player count")
    done = {n: t for n, t in by_players.items() if t.rounds}
    if not done:
        return not_run(sec)
    rows = []
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 3.2))
    levels = list(range(BID_MIN, BID_MAX + 1))
    width = 0.8 / len(done)
    figures: dict = {"bid": bid, "by_players": {}}
    for i, (n, tally) in enumerate(done.items()):
        counts = tally.bids  # [bid, made]
        bids = counts.sum(axis=1)
        mean_bid = float((bids * np.arange(len(bids))).sum() / tally.rounds)
        row = {"players": str(n), "rounds": f"{tally.rounds:,}", "mean bid": f"{mean_bid:.2f}"}
        made_by_bid = {}
        rates, errs = [], [[], []]
        for b in levels:
            k, m = int(counts[b, 1]), int(bids[b])
            row[f"made at {b} %"] = percent_ci(k, m)
            made_by_bid[str(b)] = proportion(k, m)
            lo, hi = wilson_interval(k, m) if m else (np.nan, np.nan)
            p = k / m if m else np.nan
            rates.append(100 * p)
            errs[0].append(max(0.0, 100 * (p - lo)) if m else 0)
            errs[1].append(max(0.0, 100 * (hi - p)) if m else 0)
        row["made overall %"] = percent_ci(int(counts[:, 1].sum()), tally.rounds)
        figures["by_players"][str(n)] = {
            "rounds": tally.rounds,
            "requested": tally.requested,
            "mean_bid": mean_bid,
            "made": made_by_bid,
            "made_overall": proportion(int(counts[:, 1].sum()), tally.rounds),
        }
        rows.append(row)
        x = np.arange(len(levels)) + i * width - 0.4 + width / 2
        ax.bar(x, rates, width, yerr=errs, capsize=2, label=f"{n} players")
    ax.set_xticks(range(len(levels)), [str(b) for b in levels])
    ax.set_xlabel("winning bid")
    ax.set_ylabel("% made (95%)")
    ax.legend(fontsize=8)
    ax.set_title(f"Bids made, every seat bidding {bid}")
    missing = [str(n) for n, t in by_players.items() if not t.rounds]
    cut = [f"{n} players ({t.rounds:,} of {t.requested:,})" for n, t in done.items() if t.partial]
    note = ""
    if cut or missing:
        note = " **Partial: the report was interrupted"
        note += f"; rounds done: {', '.join(cut)}" if cut else ""
        note += f"; not run: {', '.join(missing)} players" if missing else ""
        note += ".**"
    sec.text(
        f"Every seat bids `{bid}` and plays `heuristic`. 'made at b' is the share of rounds "
        "won at bid b in which the bidder took at least b points (95% Wilson intervals)." + note
    )
    sec.figures = figures
    sec.table(pd.DataFrame(rows), "Bid levels made, by player count")
    sec.image(save(fig, out / "pitch_bids.png"), "Bids made by level and player count")
    return sec


def match_section(a: Strategy, b: Strategy, m: GameMatch | None, rules: Rules) -> Section:
    sec = Section("pitch-games", f"Games to {rules.target}")
    if m is None or not m.results:
        return not_run(sec)
    sec.figures = {
        "players": rules.players,
        "target": rules.target,
        "partial": bool(m.partial),
        "results": [
            {
                "hero": r.hero,
                "field": r.field,
                "games": int(r.games),
                "p_hero_wins": proportion(round(r.p_win.mean * r.games), r.games),
                "fair": float(r.fair),
                "rounds_per_game": r.rounds_per_game.mean,
            }
            for r in m.results
        ],
    }
    rows = [
        {
            "hero": r.hero,
            "field": r.field,
            "games": f"{r.games:,}",
            "P(hero wins) %": percent_ci(round(r.p_win.mean * r.games), r.games),
            "fair %": f"{100 * r.fair:.1f}",
            "rounds per game": f"{r.rounds_per_game.mean:.1f}",
        }
        for r in m.results
    ]
    sec.text(
        f"{rules.players} players. One hero strategy against a field of the other; the hero's "
        "seat and the first dealer rotate. Perspective: P(the hero wins the game), 95% Wilson."
        + (" **Partial: the report was interrupted during the games.**" if m.partial else "")
    )
    sec.table(pd.DataFrame(rows), f"{a.name} ({summary(a)}) and {b.name} ({summary(b)})")
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
    backend=None,
    cancel: Cancel | None = None,
) -> list[Section]:
    """The report's sections (PNGs written into ``out``, created once the simulations are
    done: a run stopped or failed before leaves no empty directory). ``rules``: the rules
    options of every section (their ``players`` is replaced by each player count studied;
    default: the default rules at ``players``). Ctrl-C, or ``cancel`` (the report's token,
    which a Ctrl-C in any run sets) once set, stops the run in flight after its chunk and
    skips the rest: the sections say what is partial or not run.
    ``backend`` (default local) runs every study (the same numbers on any)."""
    from .strategies import REGISTRY

    rules = (rules or Rules()).replace(players=players)
    a, b = a or REGISTRY["cautious"], b or REGISTRY["threshold"]
    cancel = cancel or Cancel()
    by_players = {
        n: _tally(rules.replace(players=n), rounds, seed, bid, backend, cancel) for n in range(3, 7)
    }
    run = {"backend": backend, "cancel": cancel}
    m = None if cancel.is_set else game_match(a, b, players, games, seed, rules, **run)
    out.mkdir(exist_ok=True)
    return [
        points_section(by_players[players], players, bid, out),
        success_section(by_players, bid, out),
        match_section(a, b, m, rules),
    ]


__all__ = ["RoundTally", "bidder_trumps", "build", "report_kernels"]
