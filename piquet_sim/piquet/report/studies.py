"""The report's studies, one function a section (:class:`ReportContext` carries the settings):
odds, rates, exchange, tournament, parties, sinking, ladder, and how to reproduce it."""

from __future__ import annotations

import itertools
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numba
import numpy as np
import pandas as pd

from ...core.app.report import Section
from ...core.engine.backend import Cancel
from ...core.game.strategy import Strategy
from .. import plots
from ..ladder import ladder, ladder_section, ratings_frame
from ..match import tournament_tables
from ..odds import odds
from ..partie import parties
from ..rules import Rules
from ..strategies import policies
from ..strategies import summary as in_one_line
from ..studies import STUDIES as GAME_STUDIES
from .exchange import (
    _rate,
    exchange_study,
    exchange_tables,
)
from .frames import (
    _float_cells,
    odds_csv,
    odds_frames,
    sinking_table,
)
from .text import (
    fmt_pct_ci,
    fmt_pts_ci,
    p_cell,
)


@dataclass
class ReportContext:
    """What every study of a report shares: its inputs, where it writes, and what earlier studies
    left for later ones (``results``), the numbers for report.json (``data``), the images, one
    row per study for the sample-size table (``samples``), each study's state, and the report's
    cancel token (``cancel``: set by a Ctrl-C in any study's run, or by the caller; every study
    passes it to its runs, so the one in flight stops after its chunk and no later one starts)."""

    out: Path
    deals: int
    strategies: list[Strategy]
    seed: int
    rules: Rules
    backend: object
    log: Callable[[str], None]
    sink_hands: int | None = None
    ladder_solver_deals: int = 0
    results: dict = field(default_factory=dict)
    data: dict = field(default_factory=dict)
    images: dict[str, Path] = field(default_factory=dict)
    samples: list[dict] = field(default_factory=list)
    state: dict[str, str] = field(default_factory=dict)  # study -> complete / partial / not run
    timings: dict[str, float] = field(default_factory=dict)
    cancel: Cancel = field(default_factory=Cancel)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.strategies]

    @property
    def main(self) -> Strategy:
        return self.strategies[0]

    @property
    def n_exchange(self) -> int:
        return max(self.deals // 2, 2)

    @property
    def n_pairs(self) -> int:
        return max(self.deals // 2, 2)

    @property
    def n_parties(self) -> int:
        return max(self.deals // 40, 2)

    def record(
        self, study: str, sample: str, seconds: float, partial: bool, started: bool = True
    ) -> None:
        """One row of the sample-size table; ``partial``: cut short by Ctrl-C; ``started``:
        false when Ctrl-C came before the study did anything ("not run")."""
        state = "not run" if not started else ("partial" if partial else "complete")
        self.state[study] = state
        self.timings[study] = seconds
        note = {"not run": " (interrupted: not run)", "partial": " (interrupted: partial)"}
        self.samples.append(
            {"study": study, "sample": sample + note.get(state, ""), "seconds": f"{seconds:.1f}"}
        )


#: A study runs its work and returns its sections (in report order).
Study = Callable[[ReportContext], list[Section]]


def odds_study(ctx: ReportContext) -> list[Section]:
    """Odds of every strategy playing itself; the first strategy's odds and score sections."""
    summaries: dict[str, dict] = {}
    counts = {}
    for s in ctx.strategies:
        if ctx.cancel.is_set:
            break
        summary, c = odds(
            ctx.deals, ctx.seed, policies(s, s), ctx.rules, backend=ctx.backend, cancel=ctx.cancel
        )
        summaries[s.name], counts[s.name] = summary, c
        ctx.log(f"odds: {s.name} playing itself, {summary['deals']:,} deals")
    ctx.results["odds"] = summaries
    main = ctx.main
    if main.name not in summaries or summaries[main.name]["deals"] == 0:
        return [_not_run("odds", f"Odds: {main.name} playing itself")]
    ms, mc = summaries[main.name], counts[main.name]
    partial = any(x["interrupted"] for x in summaries.values()) or len(summaries) < len(
        ctx.strategies
    )
    ctx.data["odds"] = ms
    frames = odds_frames(ms)
    ctx.results["odds_csv"] = ctx.out / "odds.csv"
    odds_csv(ms).to_csv(ctx.results["odds_csv"], index=False)
    ctx.images["scores"] = plots.score_distributions(
        mc.total_hist, mc.net_hist, mc.deals, ctx.out / "scores.png", f"{main.name} playing itself"
    )
    ctx.results["odds_partial"] = partial
    n = ms["deals"]
    sec = Section("odds", f"Odds: {main.name} playing itself")
    sec.text(
        f"Both players use **{main.name}** ({in_one_line(main)}); {n:,} deals. The exact "
        "column is the dealt-hand value from combinatorics." + _cut(ms["interrupted"])
    )
    sec.table(frames["events"], "Deal events, percent of deals [95% interval]")
    sec.table(frames["point"], "Longest suit (point length): dealt and kept hands")
    sec.table(frames["sequence"], "Best sequence: dealt and kept hands")
    sec.table(frames["sets"], "Best set (tens and higher): dealt and kept hands")
    scores = Section("scores", "Score distributions")
    scores.text(
        f"Points per deal, {main.name} playing itself. Elder's advantage is the mean net "
        f"score: {fmt_pts_ci(ms['net'], 2)} points per deal (sd {ms['net']['sd']:.1f})."
    )
    scores.table(frames["totals"], "Mean deal totals [95% interval]")
    scores.image(
        ctx.images["scores"], "Deal totals for elder and younger, and the net score, with 95% bands"
    )
    return [sec, scores]


def rates_study(ctx: ReportContext) -> list[Section]:
    """Pique, repique and capot rates of each strategy playing itself (from the odds study)."""
    summaries = {k: v for k, v in ctx.results.get("odds", {}).items() if v["deals"]}
    if not summaries:
        return [_not_run("rates", "Pique, repique and capot by strategy")]
    rate_rows, rate_plot = [], []
    for name, s in summaries.items():
        row = {"strategy": name}
        for event in ("pique", "repique", "capot"):
            for role in ("elder", "younger"):
                est = s[role][event]
                row[f"{event}, {role} (%)"] = fmt_pct_ci(est)
                rate_plot.append(
                    {
                        "strategy": name,
                        "event": event,
                        "role": role,
                        "p": est["p"],
                        "lo": est["ci95"][0],
                        "hi": est["ci95"][1],
                    }
                )
        row["deals"] = f"{s['deals']:,}"
        rate_rows.append(row)
    ctx.data["event_rates"] = {
        n: {r: {e: s[r][e] for e in ("pique", "repique", "capot")} for r in ("elder", "younger")}
        for n, s in summaries.items()
    }
    ctx.images["rates"] = plots.event_rates(rate_plot, ctx.out / "event_rates.png")
    sec = Section("rates", "Pique, repique and capot by strategy")
    sec.text(
        "Each strategy playing itself; the deals column says how many."
        + _cut(ctx.results.get("odds_partial", False))
    )
    sec.table(pd.DataFrame(rate_rows), "Percent of deals [95% interval]")
    sec.image(ctx.images["rates"], "Pique, repique and capot rates by strategy and seat")
    return [sec]


def exchange_section_study(ctx: ReportContext) -> list[Section]:
    """The value of exchanging k cards (elder) and j cards (younger), on common deals."""
    t = time.perf_counter()
    main = ctx.main
    x = exchange_study(
        ctx.n_exchange, ctx.seed, policies(main, main), ctx.rules, ctx.backend, cancel=ctx.cancel
    )
    partial = x.deals < ctx.n_exchange
    ctx.record(
        "value of exchanging k cards",
        f"{x.deals:,} deals x {len(x.cells)} exchange settings",
        time.perf_counter() - t,
        partial,
        x.deals > 0,
    )
    if x.deals < 2:
        return [_not_run("exchange", "Value of exchanging k cards")]
    elder_x, younger_x, x_raw = exchange_tables(x, ctx.rules)
    ctx.data["exchange"] = x_raw
    ctx.log(f"exchange value: {len(x.cells)} settings x {x.deals:,} deals")
    ctx.images["exchange"] = plots.exchange_value(
        x_raw["elder"], x_raw["younger"], ctx.out / "exchange_value.png"
    )
    sec = Section("exchange", "Value of exchanging k cards")
    sec.text(
        f"Method: **causal**. The same {x.deals:,} deals are finished once per exchange "
        f"size; a player forced to take k cards throws the k of lowest greedy keep value "
        f"({main.name}'s weights) and draws k; everything after is {main.name}'s play. "
        "Differences are paired on common deals. For younger, elder's take is forced to "
        "k and younger's to j." + _cut(partial)
    )
    sec.table(elder_x, "Elder: net per deal (elder minus younger) when taking exactly k cards")
    sec.table(
        younger_x,
        "Younger: net per deal (younger minus elder) when taking exactly j "
        "cards after elder took k",
    )
    sec.image(ctx.images["exchange"], "Mean net per deal by exchange size, 95% intervals")
    return [sec]


def tournament_study(ctx: ReportContext) -> list[Section]:
    """Round robin on mirrored deals: standings, matches and the heatmap of margins."""
    t = time.perf_counter()
    tour = tournament_tables(
        GAME_STUDIES.round_robin(
            ctx.strategies, ctx.n_pairs, ctx.seed, ctx.rules, ctx.backend, cancel=ctx.cancel
        )
    )
    played = int(tour.matches["pairs"].sum()) if len(tour.matches) else 0
    ctx.record(
        "tournament",
        f"{ctx.n_pairs:,} mirrored deal pairs per match ({played:,} played in all)",
        time.perf_counter() - t,
        tour.partial,
        played > 0,
    )
    if not len(tour.matches) or played == 0:
        return [_not_run("tournament", "Tournament")]
    ctx.log(f"tournament: {len(tour.matches)} matches x {ctx.n_pairs:,} mirrored pairs")
    ctx.images["heatmap"] = plots.margins_heatmap(
        tour.names, tour.margins, tour.half_widths, ctx.out / "tournament_heatmap.png"
    )
    names = ctx.names
    stand = []
    for _, r in tour.standings.dropna(subset=["mean_margin"]).iterrows():
        i = names.index(r["strategy"])
        opp = [j for j in range(len(names)) if j != i and tour.half_widths[i, j] > 0]
        half = float(np.mean(tour.half_widths[i, opp])) if opp else float("nan")
        stand.append(
            {
                "strategy": r["strategy"],
                "mean margin (points/deal)": fmt_pts_ci(
                    {
                        "mean": r["mean_margin"],
                        "ci95": [r["mean_margin"] - half, r["mean_margin"] + half],
                    },
                    3,
                ),
                "significant wins": int(r["significant_wins"]),
                "significant losses": int(r["significant_losses"]),
                "matches": int(r["matches"]),
            }
        )
    matches = pd.DataFrame(
        [
            {
                "A": r["a"],
                "B": r["b"],
                "A's margin (points/deal)": fmt_pts_ci(
                    {"mean": r["net_per_deal"], "ci95": [r["ci_low"], r["ci_high"]]}, 3
                ),
                "p-value": p_cell(r["p_value"]),
                "A wins the deal (%)": fmt_pct_ci(_rate(r["a_deal_win_rate"], 2 * int(r["pairs"]))),
                "mirrored pairs": f"{int(r['pairs']):,}",
            }
            for _, r in tour.matches.iterrows()
        ]
    )
    ctx.data["tournament"] = {
        "matches": tour.matches.to_dict(orient="records"),
        "standings": tour.standings.to_dict(orient="records"),
    }
    sec = Section("tournament", "Tournament")
    sec.text(
        f"Round robin on mirrored deals: {ctx.n_pairs:,} deal pairs per match, seed {ctx.seed}. "
        "The standings' interval is conservative (the mean of the row's half-widths)."
        + _cut(tour.partial)
    )
    sec.table(pd.DataFrame(stand), "Standings (mean margin over all opponents)")
    sec.table(matches, "Matches (A's view)")
    sec.image(
        ctx.images["heatmap"],
        "Pairwise margins, row minus column, points per deal (± 95% half-width)",
    )
    return [sec]


def parties_study(ctx: ReportContext) -> list[Section]:
    """Mirrored parties of every pairing: outcomes, rubicons and settlement."""
    t = time.perf_counter()
    rows, plot_rows, summaries = [], [], []
    partial = False
    for a, b in itertools.combinations(ctx.strategies, 2):
        if ctx.cancel.is_set:
            partial = True
            break
        run = {"backend": ctx.backend, "cancel": ctx.cancel}
        ps = parties(a, b, ctx.n_parties, ctx.seed, ctx.rules, **run).summary
        if ps["pairs"] == 0:
            partial = True
            break
        partial = partial or ps["interrupted"]
        summaries.append(ps)
        st = ps["a_settlement"]
        rows.append(
            {
                "A": a.name,
                "B": b.name,
                "A wins (%)": fmt_pct_ci(ps["a_win"]),
                "draw (%)": fmt_pct_ci(ps["draw"]),
                "rubicon, either way (%)": fmt_pct_ci(ps["rubicon"]),
                "A rubicons B (%)": fmt_pct_ci(ps["a_rubicons_b"]),
                "B rubicons A (%)": fmt_pct_ci(ps["b_rubicons_a"]),
                "A's settlement (points/partie)": fmt_pts_ci(st, 1),
                "deals per partie": f"{ps['mean_deals']:.2f}",
                "parties": f"{ps['parties']:,}",
            }
        )
        plot_rows.append(
            {"label": f"{a.name} vs {b.name}", "mean": st["mean"], "lo": st["ci95"][0]}
            | {"hi": st["ci95"][1]}
        )
    sample = f"{2 * ctx.n_parties:,} parties per pairing ({ctx.n_parties:,} mirrored pairs)"
    if partial:
        done = sum(ps["pairs"] for ps in summaries)
        sample += f"; {len(summaries)} pairings, {done:,} mirrored pairs done"
    ctx.record(
        "parties",
        sample,
        time.perf_counter() - t,
        partial,
        bool(rows),
    )
    if not rows:
        return [_not_run("parties", "Parties")]
    ctx.log(f"parties: {len(rows)} pairings x {2 * ctx.n_parties:,} parties")
    ctx.data["parties"] = summaries
    ctx.images["parties"] = plots.partie_settlement(
        plot_rows, ctx.out / "partie_settlement.png", f"Mirrored parties ({ctx.rules.game})"
    )
    sec = Section("parties", "Parties")
    sec.text(
        f"Mirrored parties ({ctx.rules.game}): {2 * ctx.n_parties:,} parties per pairing, half "
        "with each strategy elder in the first deal." + _cut(partial)
    )
    sec.table(pd.DataFrame(rows), "Partie results (A's view) [95% interval]")
    sec.image(
        ctx.images["parties"],
        "A's expected settlement per partie; bars are 95% intervals, written beside each point",
    )
    return [sec]


def sinking_study(ctx: ReportContext) -> list[Section]:
    """Sinking study over ``sink_hands`` dealt hands per seat (not in the default report: it
    plays each hand's choices out, about a second a hand, and needs hundreds of hands for
    intervals worth reading)."""
    sec = Section("sinking", "Sinking study")
    if not ctx.sink_hands:
        sec.text(
            "Not run in this report: the sinking study plays every declaration choice of each "
            "hand out (about a second a hand) and needs a few hundred hands per seat before its "
            "intervals say anything. Add it with `--sink-hands 400`, or study one hand with "
            "`piquet sink HAND`."
        )
        ctx.state["sinking study"] = "not requested"
        return [sec]
    if ctx.cancel.is_set:
        ctx.record("sinking study", f"{ctx.sink_hands:,} dealt hands per seat", 0.0, True, False)
        return [_not_run("sinking", "Sinking study")]
    t = time.perf_counter()
    table, source = sinking_table(ctx.sink_hands, ctx.seed, ctx.rules, ctx.log, ctx.cancel)
    ctx.record(
        "sinking study",
        f"{ctx.sink_hands:,} dealt hands per seat" if table is not None else "not available",
        time.perf_counter() - t,
        ctx.cancel.is_set,
    )
    ctx.data["sinking"] = {
        "available": table is not None,
        "source": source,
        "table": None if table is None else json.loads(table.to_json(orient="records")),
    }
    ctx.log("sinking study: " + ("included" if table is not None else "not available"))
    if table is not None:
        sec.text(
            f"{ctx.sink_hands:,} dealt hands per seat, each choice played out on common worlds. "
            "Gains are points per deal (player minus opponent) over declaring everything, with "
            "95% intervals over hands."
        )
        sec.table(_float_cells(table), "Sinking study")
    else:
        sec.text(f"The sinking study is not available: {source}.")
    return [sec]


def _timed_odds(ctx: ReportContext) -> list[Section]:
    t = time.perf_counter()
    sections = odds_study(ctx)
    odds_done = ctx.results.get("odds", {})
    done = [v["deals"] for v in odds_done.values()]
    sample = f"{ctx.deals:,} deals per strategy (playing itself)"
    if len(done) < len(ctx.strategies) or any(d < ctx.deals for d in done):
        counts = ", ".join(
            f"{s.name} {odds_done[s.name]['deals'] if s.name in odds_done else 0:,}"
            for s in ctx.strategies
        )
        sample = f"{ctx.deals:,} deals per strategy asked; done: {counts}"
    ctx.record(
        "odds, score distributions, event rates",
        sample,
        time.perf_counter() - t,
        len(done) < len(ctx.strategies) or any(d < ctx.deals for d in done),
        any(done),
    )
    return sections


def ladder_study(ctx: ReportContext) -> list[Section]:
    """The strength ladder of the play policies on mirrored deals (random, greedy, heuristic;
    pimc and dd too when ``ladder_solver_deals`` > 0: they call the solver, so they play that
    many pairs)."""
    if ctx.cancel.is_set:
        ctx.record("ladder", "play policies", 0.0, True, False)
        return [_not_run("ladder", "Strength ladder of the play policies")]
    names = ["random", "greedy", "heuristic"]
    if ctx.ladder_solver_deals:
        names += ["pimc", "pimcw", "dd"]
    t = time.perf_counter()
    solver_deals = ctx.ladder_solver_deals or 1
    run = {"rules": ctx.rules, "cancel": ctx.cancel}
    result = ladder(names, ctx.n_pairs, solver_deals, ctx.seed, **run)
    pairs = f"{ctx.n_pairs:,} mirrored pairs per match"
    if ctx.ladder_solver_deals:
        pairs += f" ({ctx.ladder_solver_deals:,} with pimc or dd)"
    ctx.record("ladder", pairs, time.perf_counter() - t, ctx.cancel.is_set)
    ctx.data["ladder"] = {
        "ratings": ratings_frame(result).to_dict(orient="records"),
        "matches": result.matches.to_dict(orient="records"),
    }
    ctx.log(f"ladder: {len(result.matches)} matches")
    sec = ladder_section(result)
    if not ctx.ladder_solver_deals:
        sec.text(
            "pimc and dd are left out of the default report (they call the exact solver); "
            "add them with `--ladder-solver-deals 500`, or run `piquet ladder`."
        )
    return [sec]


#: The studies of a report, run in this order; each adds its sections after the previous ones'.
#: Adding a section is one function ``f(ctx) -> list[Section]`` and one entry here.
STUDIES: list[tuple[str, Study]] = [
    ("odds", _timed_odds),
    ("exchange", exchange_section_study),
    ("rates", rates_study),
    ("tournament", tournament_study),
    ("parties", parties_study),
    ("sinking", sinking_study),
    ("ladder", ladder_study),
]


def _cut(partial: bool) -> str:
    """The sentence a study's text ends with when Ctrl-C cut it."""
    if not partial:
        return ""
    return " **Interrupted (Ctrl-C): partial, the counts shown are what finished.**"


def _not_run(key: str, title: str) -> Section:
    sec = Section(key, title)
    sec.text("Not run: the report was interrupted (Ctrl-C) before this study.")
    return sec


def reproduce_section(ctx: ReportContext, elapsed: float, command: str, versions: dict) -> Section:
    """The first section, built last: how to regenerate, the rules, samples and run times,
    strategies and software versions."""
    sec = Section("reproduce", "Reproduce this report")
    head = ""
    if ctx.cancel.is_set or "partial" in ctx.state.values():
        head = (
            "**This report is partial: it was interrupted (Ctrl-C); the sample table says what "
            "each study finished.** "
        )
    sec.text(
        f"{head}Generated {datetime.now(UTC).strftime('%Y-%m-%d %H:%M UTC')} in "
        f"{elapsed:.0f} s on {os.cpu_count()} cores ({numba.get_num_threads()} numba "
        f"threads; backend: {ctx.backend.describe()}). Every study uses seed {ctx.seed}, so "
        f"deal i is the same deal in all of them. To regenerate:\n\n`{command}`"
    )
    sec.table(
        pd.DataFrame([{"option": k, "value": str(v)} for k, v in ctx.rules.to_dict().items()]),
        "Rules options",
    )
    sec.table(pd.DataFrame(ctx.samples), "Sample sizes and run times")
    sec.table(
        pd.DataFrame(
            [
                {
                    "strategy": s.name,
                    "stages (exchange / declare / play)": in_one_line(s),
                    "description": s.description,
                }
                for s in ctx.strategies
            ]
        ),
        "Strategies",
    )
    sec.table(
        pd.DataFrame([{"software": k, "version": v} for k, v in versions.items()]),
        "Software versions",
    )
    return sec
