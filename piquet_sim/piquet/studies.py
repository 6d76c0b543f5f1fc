"""Piquet as the study layer plays it (``core.study``): its strategies, its mirrored match of
deal pairs (:data:`.match.BATCH`), whole parties to the partie's end (:data:`PARTIE`: the
``game`` command, and ``partie``), the tournament's JSON, and an outside player's seat."""

from __future__ import annotations

import pandas as pd

from ..core.engine.stats import Z95, Estimate
from ..core.game.position import Decider
from ..core.study.external import Arena
from ..core.study.match import MatchKind, MatchResult, MatchSpec, Stat
from ..core.study.studies import Matrix, Studies
from . import partie as P
from .match import BATCH, stamp, tournament_json
from .policies import REGISTRY
from .rules import DEFAULT_RULES, Rules
from .strategies import BOOK


def _partie_result(spec: MatchSpec, parts: list, seconds: float) -> MatchResult:
    """The statistics of mirrored parties (``partie.summarize``), A's view."""
    counts = parts[0] if parts else P.PartieCounts()
    a, b = spec.a, spec.b
    s = P.summarize(counts, a.name, b.name)
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


def _merge(total: P.PartieCounts, part: P.PartieCounts) -> P.PartieCounts:
    total.merge(part)
    return total


#: Whole parties (Rubicon settlement), each played with A elder first and with B elder first.
PARTIE = MatchKind(
    unit="partie pairs",
    task=P.partie_task,
    args=lambda spec: (spec.a, spec.b, spec.seed, spec.rules),
    result=_partie_result,
    chunk=lambda spec: 20_000,
    kernels=lambda spec: (P.partie_kernel(spec.a, spec.b),),
    default_n=lambda a, b: 50_000,
    fold=_merge,
    plot=lambda r, path: P.plot_parties(r.data, r.body, path),
)


def arena(seed: int = 1, rules: Rules = DEFAULT_RULES) -> Arena:
    """Piquet's seat for an outside player: our heuristic exchange and every declaration for
    both players (the elder's deciders in both roles), the outside player elder, then
    younger, on the same cards."""
    from .deciders import SeatDecider, seat_deciders
    from .position import PiquetState
    from .simulation import Policies

    def seats(play: str):
        return seat_deciders(
            Policies(
                elder_exchange="heuristic",
                younger_exchange="heuristic",
                elder_play=play,
                younger_play=play,
            )
        )[0]

    base = seats("heuristic")

    def seat(play: Decider) -> Decider:
        return SeatDecider(base.exchange, base.declare, play)

    return Arena(
        "piquet",
        seat,
        lambda name: seats(name).play,
        lambda i: PiquetState.from_deal(seed, i, rules),
        [(True, False), (False, True)],
        "the outside player's deal points minus ours (mean of its elder and younger seatings)",
        "default rules" if rules == DEFAULT_RULES else "rules " + str(rules.to_dict()),
        REGISTRY.names("play", oracle=True),
    )


#: Piquet's studies.
STUDIES = Studies(
    game="piquet",
    title="Piquet",
    book=BOOK,
    batch=BATCH,
    tournament=BATCH,
    tournament_json=tournament_json,
    matrix=Matrix(
        "Pairwise margins (mirrored deals, 95% half-widths)",
        "mean net per deal, row minus column (points)",
    ),
    tournament_table=lambda t: pd.DataFrame(tournament_json(t)["matches"]),
    game_kind=PARTIE,
    arena=arena,
    seating="Our heuristic exchange and every declaration on both sides; the outside player "
    "elder, then younger, on the same cards.",
)
