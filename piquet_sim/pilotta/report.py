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

from ..core.errors import InputError
from ..core.plots import pyplot, save
from ..core.report import Section
from ..core.stats import wilson_interval
from .api import simulate_batch
from .bid import MAKE_LEVELS, advise
from .bid import entry_kernels as advice_kernels
from .cards import parse_cards
from .layouts import BIDS, RoundRec, Score
from .match import batch, game
from .match import entry_kernels as match_kernels
from .rules import DEFAULT_RULES, Rules
from .strategies import Strategy, setup

EXAMPLE_HAND = "JS 9S AS TS KH AD TD 7C"

#: Memory the report's rounds may take (bytes).
MEMORY = 4 * 2**30
#: Bytes a mirrored deal takes at the peak: ``_rounds`` holds both seatings' records and
#: their concatenation (four int64 rows of ``RoundRec.LEN``) and a team per round.
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


def _pct(k: int, n: int) -> str:
    if n == 0:
        return "-"
    lo, hi = wilson_interval(int(k), int(n))
    return f"{100 * k / n:.1f} ({100 * lo:.1f}-{100 * hi:.1f})"


def _rounds(a: Strategy, b: Strategy, deals: int, seed: int, rules: Rules):
    r = rules.to_array()
    x, _, _ = simulate_batch(np.int64(seed), np.int64(0), np.int64(deals), setup(a, b), r)
    y, _, _ = simulate_batch(np.int64(seed), np.int64(0), np.int64(deals), setup(b, a), r)
    recs = np.concatenate([x, y])
    team_a = np.concatenate([np.zeros(deals, dtype=np.int64), np.ones(deals, dtype=np.int64)])
    return recs, team_a


def contract_section(a, b, recs, team_a, out: Path) -> Section:
    sec = Section("contracts", "Contracts bid and made")
    bidder = recs[:, RoundRec.BIDDER]
    played = bidder >= 0
    made = recs[:, RoundRec.SCORE + Score.MADE] == 1
    n = len(recs)
    rows = []
    for lv in BIDS:
        row = {"contract": "capot" if lv == 250 else str(lv)}
        for name, side in (("A", team_a), ("B", 1 - team_a)):
            sel = played & ((bidder & 1) == side) & (recs[:, RoundRec.BID] == lv)
            row[f"{name} bids %"] = _pct(int(sel.sum()), n)
            row[f"{name} made %"] = _pct(int((sel & made).sum()), int(sel.sum()))
        rows.append(row)
    sec.text(
        f"A = `{a.name}` ({a.summary()}), B = `{b.name}` ({b.summary()}); {n // 2:,} deals, "
        "each played with A North-South and with A East-West. Rates are per round with 95% "
        "Wilson intervals; 'made' is out of that side's contracts at that level."
    )
    sec.table(pd.DataFrame(rows), "How often each side's final contract is each level, and made")
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 3.2))
    x = np.arange(len(BIDS))
    for k, (name, side) in enumerate((("A", team_a), ("B", 1 - team_a))):
        counts = [
            int((played & ((bidder & 1) == side) & (recs[:, RoundRec.BID] == lv)).sum())
            for lv in BIDS
        ]
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


def points_section(recs, team_a, out: Path) -> Section:
    sec = Section("points", "Points, capots, pilotta and combinations")
    played = recs[:, RoundRec.BIDDER] >= 0
    r = recs[played]
    c_team = r[:, RoundRec.BIDDER] & 1
    card_c = np.where(
        c_team == 0, r[:, RoundRec.SCORE + Score.CARD_NS], r[:, RoundRec.SCORE + Score.CARD_EW]
    )
    comb_c = np.where(c_team == 0, r[:, RoundRec.DECL_NS], r[:, RoundRec.DECL_EW])
    pil = r[:, RoundRec.PILOTTA_SEAT]
    pil_c = np.where((pil >= 0) & ((pil & 1) == c_team), 20, 0)
    reach = card_c + comb_c + pil_c
    n = len(r)
    side_a = team_a[played]
    rows = []
    for label, who in (("A", side_a), ("B", 1 - side_a)):
        capot = r[:, RoundRec.SCORE + Score.CAPOT_TEAM] == who
        rows.append(
            {
                "side": label,
                "capots %": _pct(int(capot.sum()), n),
                "pilotta %": _pct(int(((pil >= 0) & ((pil & 1) == who)).sum()), n),
                "scores combinations %": _pct(int((r[:, RoundRec.DECL_TEAM] == who).sum()), n),
            }
        )
    sec.text(
        f"{n:,} played rounds (thrown-in rounds left out). The contracting team's round points "
        f"= card points (250 capot) + combinations it scores + pilotta: mean {reach.mean():.1f}, "
        f"median {np.median(reach):.0f}; card points alone mean {card_c.mean():.1f}."
    )
    sec.table(pd.DataFrame(rows), "Capots, pilotta and combinations by side (% of rounds, 95%)")
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 3.2))
    ax.hist(reach, bins=np.arange(0, 460, 10), color="#4477aa")
    ax.set_xlabel("contracting team's round points (cards + combinations + pilotta)")
    ax.set_ylabel("rounds")
    sec.image(
        save(fig, out / "pilotta_points.png"), "Distribution of the contracting team's points"
    )
    return sec


def match_section(a, b, m: dict, g: dict, deals: int, rules: Rules) -> Section:
    """The section of a mirrored match ``m`` (``match.batch``) and games ``g``
    (``match.game``)."""
    sec = Section("match", "Mirrored match and games to 351")
    d = m["a_minus_b"]
    p = g["p_a_wins"]
    sec.text(
        f"A `{a.name}` against B `{b.name}`: A's game points minus B's per round "
        f"{d['mean']:+.2f} (95% {d['ci95'][0]:+.2f} .. {d['ci95'][1]:+.2f}, {deals:,} mirrored "
        f"deals). Games to {rules.game_target}: P(A wins) {100 * p['p']:.1f}% (95% "
        f"{100 * p['ci95'][0]:.1f}-{100 * p['ci95'][1]:.1f}, {g['games']:,} games, each game "
        f"number played in both seatings); {g['rounds']['mean']:.1f} rounds per game."
    )
    return sec


def advice_section(out: Path, r: dict) -> Section:
    """The section of the bid advice ``r`` (``bid.advise`` on :data:`EXAMPLE_HAND`)."""
    sec = Section("bid", "One bid advice")
    sec.text(
        f"South holds {r['hand']}, North dealt, East passed. {r['worlds']:,} worlds under the "
        f"{r['prior']['policy']} prior, heuristic play. Perspective: {r['perspective']}. "
        f"Recommendation: **{r['recommendation']['call']}**."
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
) -> list[Section]:
    """The report's sections; PNGs are written into ``out``, created once every simulation is
    done (a run refused, stopped or failed before leaves no empty directory). Raises
    InputError for more deals than :data:`MAX_DEALS`, before any work."""
    check_deals(deals)
    recs, team_a = _rounds(a, b, deals, seed, rules)
    m = batch(a, b, deals, seed, rules)
    g = game(a, b, games, seed, rules)
    r = advise(parse_cards(EXAMPLE_HAND), 2, auction="E:pass", deals=bid_deals, rules=rules)
    out.mkdir(exist_ok=True)
    return [
        contract_section(a, b, recs, team_a, out),
        points_section(recs, team_a, out),
        match_section(a, b, m, g, deals, rules),
        advice_section(out, r),
    ]
