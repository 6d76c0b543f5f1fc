"""The Pilotta report: contracts bid and made under a strategy pair, points, capots, pilotta and
combinations by team, a mirrored match and games to 351, and one bid advice, as sections
(``core.report``) with plots (``core.plots``).

Perspective is given in every caption: "A" and "B" are the two strategies (each deal played
with A North-South and with A East-West); contract figures are the contracting team's.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from ..core.app.plots import pyplot, save
from ..core.app.report import Section, not_run, partial_note, percent_ci
from ..core.engine.backend import Cancel, Chunk, merge_chunks
from ..core.engine.errors import InputError
from ..core.engine.stats import proportion
from ..core.game.strategy import Strategy
from .bid import MAKE_LEVELS, advise
from .bid import entry_kernels as advice_kernels
from .cards import parse_cards
from .layouts import BIDS, RoundRec, Score
from .match import batch, batch_task, game
from .match import entry_kernels as match_kernels
from .rules import DEFAULT_RULES, Rules
from .strategies import summary

EXAMPLE_HAND = "JS 9S AS TS KH AD TD 7C"

#: Memory the report's rounds may take (bytes).
MEMORY = 4 * 2**30
#: Bytes a mirrored deal takes at the peak: the match section's ``match.batch`` holds both
#: seatings' records and their concatenation (four int64 rows of ``RoundRec.LEN``) and a team
#: per round (the contracts and points sections count as they go: :class:`RoundTally`).
BYTES_PER_DEAL = 4 * RoundRec.LEN * 8 + 2 * 8
#: The most mirrored deals a report takes: :data:`MEMORY` over :data:`BYTES_PER_DEAL`, in
#: whole hundred thousands.
MAX_DEALS = MEMORY // BYTES_PER_DEAL // 100_000 * 100_000


def check_deals(deals: int) -> None:
    """Refuse (InputError) more mirrored deals than the report's memory holds."""
    if deals > MAX_DEALS:
        raise InputError(
            f"--deals {deals:,}: a report takes at most {MAX_DEALS:,} deals (it holds every "
            f"round in memory, {BYTES_PER_DEAL:,} bytes a deal, {MEMORY // 2**30} GiB at most)"
        )


#: Deals per chunk at most (chunks are paced to about ``core.backend.CHUNK_SECONDS``).
CHUNK = 1 << 15


class RoundTally:
    """What the contracts and points sections read, counted chunk by chunk (no round kept:
    a Ctrl-C summary costs nothing, and memory does not grow with the deals).

    ``contracts`` int64[2, len(BIDS), 2]: rounds by side contracting (0 A, 1 B), final level
    and made; ``rounds``: every round (both seatings, thrown-in ones included); ``played``:
    rounds with a bidder; ``reach``: histogram of the contracting team's round points (card
    points + combinations it scores + pilotta); ``card_points``: their card points summed;
    ``sides`` int64[2, 3]: per side (A, B) its capots, pilotta and rounds it scored
    combinations."""

    def __init__(self) -> None:
        self.contracts = np.zeros((2, len(BIDS), 2), dtype=np.int64)
        self.rounds = 0
        self.played = 0
        self.reach = np.zeros(0, dtype=np.int64)
        self.card_points = 0
        self.sides = np.zeros((2, 3), dtype=np.int64)

    def add(self, recs: np.ndarray, a_team: int) -> None:
        """Count ``recs``, rounds played with A on team ``a_team`` (0 North-South)."""
        bidder = recs[:, RoundRec.BIDDER]
        played = bidder >= 0
        level = np.searchsorted(BIDS, recs[:, RoundRec.BID]).clip(0, len(BIDS) - 1)
        cell = ((bidder & 1) != a_team) * (2 * len(BIDS)) + level * 2
        cell = np.where(played, cell + (recs[:, RoundRec.SCORE + Score.MADE] == 1), 4 * len(BIDS))
        tally = np.bincount(cell, minlength=4 * len(BIDS) + 1)[:-1]
        self.contracts += tally.reshape(2, len(BIDS), 2)
        self.rounds += len(recs)
        p = recs[played]
        c_team = p[:, RoundRec.BIDDER] & 1
        ns = c_team == 0
        card_c = np.where(
            ns, p[:, RoundRec.SCORE + Score.CARD_NS], p[:, RoundRec.SCORE + Score.CARD_EW]
        )
        comb_c = np.where(ns, p[:, RoundRec.DECL_NS], p[:, RoundRec.DECL_EW])
        pil = p[:, RoundRec.PILOTTA_SEAT]
        pil_c = np.where((pil >= 0) & ((pil & 1) == c_team), 20, 0)
        reach = np.bincount(card_c + comb_c + pil_c)
        if len(reach) > len(self.reach):
            self.reach = np.pad(self.reach, (0, len(reach) - len(self.reach)))
        self.reach[: len(reach)] += reach
        self.played += len(p)
        self.card_points += int(card_c.sum())
        for k, who in enumerate((a_team, 1 - a_team)):
            self.sides[k] += (
                int((p[:, RoundRec.SCORE + Score.CAPOT_TEAM] == who).sum()),
                int(((pil >= 0) & ((pil & 1) == who)).sum()),
                int((p[:, RoundRec.DECL_TEAM] == who).sum()),
            )

    def merge(self, other: RoundTally) -> None:
        """Add ``other``'s counts (a chunk counted where it was played): exact, in any order."""
        self.contracts += other.contracts
        self.rounds += other.rounds
        self.played += other.played
        if len(other.reach) > len(self.reach):
            self.reach = np.pad(self.reach, (0, len(other.reach) - len(self.reach)))
        self.reach[: len(other.reach)] += other.reach
        self.card_points += other.card_points
        self.sides += other.sides

    def reach_median(self) -> float:
        """The median of the contracting team's round points (``np.median``'s: the mean of
        the two middle values for an even count)."""
        cum = np.cumsum(self.reach)
        lo = int(np.searchsorted(cum, (self.played - 1) // 2, side="right"))
        hi = int(np.searchsorted(cum, self.played // 2, side="right"))
        return (lo + hi) / 2


def tally_task(chunk: Chunk, a: Strategy, b: Strategy, seed: int, rules: Rules) -> RoundTally:
    """One chunk (every backend's unit of work): its deals played with A North-South and with
    A East-West (``match.batch_task``) and counted where they were played, so a Dask worker
    sends back a few hundred counts rather than every round record."""
    recs_a_ns, recs_a_ew = batch_task(chunk, a, b, seed, rules)
    tally = RoundTally()
    tally.add(recs_a_ns, 0)
    tally.add(recs_a_ew, 1)
    return tally


def _rounds(
    a: Strategy,
    b: Strategy,
    deals: int,
    seed: int,
    rules: Rules,
    backend=None,
    cancel: Cancel | None = None,
) -> RoundTally:
    """Deals 0 .. deals-1 played with A North-South, then the same deals with A East-West,
    counted (:class:`RoundTally`) on ``backend`` (default local; integer counts merged
    exactly, so the same on any); in chunks (``core.backend.run_chunks``: Ctrl-C stops after
    the chunk in flight, and the tally covers the deals done; so does ``cancel`` once set)."""
    tally = RoundTally()
    merge_chunks(tally, tally_task, deals, CHUNK, (a, b, seed, rules), backend, cancel=cancel)
    return tally


def contract_section(a, b, t: RoundTally, out: Path, requested: int | None = None) -> Section:
    sec = Section("contracts", "Contracts bid and made")
    if t.rounds == 0:
        return not_run(sec)
    tally = t.contracts
    n = t.rounds
    rows = []
    levels: dict[str, dict] = {"A": {}, "B": {}}
    for i, lv in enumerate(BIDS):
        contract = "capot" if lv == 250 else str(lv)
        row = {"contract": contract}
        for k, name in enumerate(("A", "B")):
            bids, made = int(tally[k, i].sum()), int(tally[k, i, 1])
            row[f"{name} bids %"] = percent_ci(bids, n)
            row[f"{name} made %"] = percent_ci(made, bids)
            levels[name][contract] = {"bids": proportion(bids, n), "made": proportion(made, bids)}
        rows.append(row)
    sec.figures = {
        "deals": n // 2,
        "requested": requested or n // 2,
        "rounds": n,
        "a": a.name,
        "b": b.name,
        "contracts": levels,
    }
    sec.text(
        f"A = `{a.name}` ({summary(a)}), B = `{b.name}` ({summary(b)}); {n // 2:,} deals, "
        "each played with A North-South and with A East-West. Rates are per round with 95% "
        "Wilson intervals; 'made' is out of that side's contracts at that level."
        + partial_note(n // 2, requested or n // 2, "deals")
    )
    sec.table(pd.DataFrame(rows), "How often each side's final contract is each level, and made")
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 3.2))
    x = np.arange(len(BIDS))
    for k, name in enumerate(("A", "B")):
        counts = tally[k].sum(axis=1)
        ax.bar(
            x + 0.4 * k - 0.2,
            np.array(counts) / n * 100,
            0.4,
            label=f"{name} {a.name if k == 0 else b.name}",
        )
    ax.set_xticks(x, [("capot" if lv == 250 else str(lv)) for lv in BIDS])
    ax.set_ylabel("% of rounds")
    ax.set_title("Final contract level by side")
    ax.legend()
    sec.image(save(fig, out / "pilotta_contracts.png"), "Final contracts by level and side")
    return sec


def points_section(t: RoundTally, out: Path) -> Section:
    sec = Section("points", "Points, capots, pilotta and combinations")
    if t.played == 0:
        return not_run(sec)
    n = t.played
    rows = []
    sides = {}
    for k, label in enumerate(("A", "B")):
        capots, pilotta, combinations = (int(x) for x in t.sides[k])
        sides[label] = {
            "capots": proportion(capots, n),
            "pilotta": proportion(pilotta, n),
            "scores_combinations": proportion(combinations, n),
        }
        rows.append(
            {
                "side": label,
                "capots %": percent_ci(capots, n),
                "pilotta %": percent_ci(pilotta, n),
                "scores combinations %": percent_ci(combinations, n),
            }
        )
    points = np.arange(len(t.reach))
    reach_mean = float((points * t.reach).sum()) / n
    sec.figures = {
        "played": n,
        "contracting_points": {"mean": reach_mean, "median": t.reach_median()},
        "card_points_mean": t.card_points / n,
        "sides": sides,
    }
    sec.text(
        f"{n:,} played rounds (thrown-in rounds left out). The contracting team's round points "
        f"= card points (250 capot) + combinations it scores + pilotta: mean {reach_mean:.1f}, "
        f"median {t.reach_median():.0f}; card points alone mean {t.card_points / n:.1f}."
    )
    sec.table(pd.DataFrame(rows), "Capots, pilotta and combinations by side (% of rounds, 95%)")
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 3.2))
    ax.hist(points, bins=np.arange(0, 460, 10), weights=t.reach, color="#4477aa")
    ax.set_xlabel("contracting team's round points (cards + combinations + pilotta)")
    ax.set_ylabel("rounds")
    sec.image(
        save(fig, out / "pilotta_points.png"), "Distribution of the contracting team's points"
    )
    return sec


def match_section(a, b, m: dict | None, g: dict | None, deals: int, rules: Rules) -> Section:
    """The section of a mirrored match ``m`` (``match.batch``) and games ``g``
    (``match.game``); None: not run (Ctrl-C)."""
    sec = Section("match", "Mirrored match and games to 351")
    if m is None or g is None or m["deals"] == 0 or g["games"] == 0:
        return not_run(sec)
    d = m["a_minus_b"]
    p = g["p_a_wins"]
    sec.figures = {
        "deals": m["deals"],
        "a_minus_b": d,
        "games": g["games"],
        "target": rules.game_target,
        "p_a_wins": p,
        "rounds_per_game": g["rounds"]["mean"],
        "partial": bool(m.get("partial") or g.get("partial")),
    }
    sec.text(
        f"A `{a.name}` against B `{b.name}`: A's game points minus B's per round "
        f"{d['mean']:+.2f} (95% {d['ci95'][0]:+.2f} .. {d['ci95'][1]:+.2f}, "
        f"{m['deals']:,} mirrored deals). Games to {rules.game_target}: P(A wins) "
        f"{100 * p['p']:.1f}% (95% {100 * p['ci95'][0]:.1f}-{100 * p['ci95'][1]:.1f}, "
        f"{g['games']:,} games, each game number played in both seatings); "
        f"{g['rounds']['mean']:.1f} rounds per game."
        + (
            " **Partial: the report was interrupted.**"
            if m.get("partial") or g.get("partial")
            else ""
        )
    )
    return sec


def advice_section(out: Path, r: dict | None) -> Section:
    """The section of the bid advice ``r`` (``bid.advise`` on :data:`EXAMPLE_HAND`; None: not
    run, Ctrl-C)."""
    sec = Section("bid", "One bid advice")
    if r is None:
        return not_run(sec)
    sec.text(
        f"South holds {r['hand']}, North dealt, East passed. {r['worlds']:,} worlds under the "
        f"{r['prior']['policy']} prior, heuristic play. Perspective: {r['perspective']}. "
        f"Recommendation: **{r['recommendation']['call']}**."
        + partial_note(r["drawn"], r.get("requested", r["drawn"]), "worlds")
    )
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 3.2))
    for suit, d in r["trumps"].items():
        ax.plot(
            MAKE_LEVELS,
            [100 * d["p_make"][str(lv)]["p"] for lv in MAKE_LEVELS],
            marker="o",
            label=suit,
        )
    ax.set_xlabel("bid")
    ax.set_ylabel("P(making) %")
    ax.legend(title="trump")
    sec.image(save(fig, out / "pilotta_bid.png"), "P(making each bid) by trump suit")
    rows = sorted(r["calls"], key=lambda c: -c["value"]["mean"])[:8]
    sec.figures = {
        "hand": r["hand"],
        "worlds": r["worlds"],
        "prior": r["prior"]["policy"],
        "recommendation": r["recommendation"]["call"],
        "best_calls": [
            {"call": c["call"], "mean": c["value"]["mean"], "ci95": c["value"]["ci95"]}
            for c in rows
        ],
    }
    sec.table(
        pd.DataFrame(
            [
                {
                    "call": c["call"],
                    "value (GP)": f"{c['value']['mean']:+.2f}",
                    "95%": f"{c['value']['ci95'][0]:+.2f} .. {c['value']['ci95'][1]:+.2f}",
                }
                for c in rows
            ]
        ),
        "Best calls: this round's game points, South's team minus the opponents'",
    )
    return sec


def entry_kernels(a: Strategy, b: Strategy) -> list:
    """The numba kernels :func:`build` calls (for a compile notice on a cold cache)."""
    return [*match_kernels(a, b), *match_kernels(a, b, games=True), *advice_kernels()]


def build(
    a: Strategy,
    b: Strategy,
    out: Path,
    deals: int = 100_000,
    games: int = 5000,
    bid_deals: int = 2000,
    seed: int = 1,
    rules: Rules = DEFAULT_RULES,
    backend=None,
    cancel: Cancel | None = None,
) -> list[Section]:
    """The report's sections; PNGs are written into ``out``, created once every simulation is
    done (a run refused, stopped or failed before leaves no empty directory). Raises
    InputError for more deals than :data:`MAX_DEALS`, before any work. Ctrl-C, or ``cancel``
    (the report's token, which a Ctrl-C in any study sets) once set, stops the study in flight
    after its chunk and skips the others: the sections say what is partial or not run.
    ``backend`` (default local) runs the rounds, the match and the games (the same numbers on
    any); the bid advice runs here (its worlds are few)."""
    check_deals(deals)
    pyplot()  # matplotlib's import (about a second) before the work, not after a Ctrl-C
    cancel = cancel or Cancel()
    tally = _rounds(a, b, deals, seed, rules, backend, cancel)
    # once cancelled (a Ctrl-C) the studies not started are skipped: their sections say so
    run = {"backend": backend, "cancel": cancel}
    m = None if cancel.is_set else batch(a, b, deals, seed, rules, **run)
    g = None if cancel.is_set else game(a, b, games, seed, rules, **run)
    hand = parse_cards(EXAMPLE_HAND)
    r = None if cancel.is_set else advise(hand, 2, auction="E:pass", deals=bid_deals, rules=rules)
    out.mkdir(exist_ok=True)
    return [
        contract_section(a, b, tally, out, deals),
        points_section(tally, out),
        match_section(a, b, m, g, deals, rules),
        advice_section(out, r),
    ]
