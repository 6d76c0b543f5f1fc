"""The study layer's mirrored match and tournament, on a toy game's match (plain Python, no
kernels): the numbers never depend on the chunking, the cancel token stops a match after the
chunk in flight and a tournament before its next match, both marked partial, and standings
are the row means of the pairwise results."""

from __future__ import annotations

import numpy as np
import pytest

from piquet_sim.core.engine.backend import Cancel, Chunk
from piquet_sim.core.engine.errors import InputError
from piquet_sim.core.engine.stats import Estimate
from piquet_sim.core.game.spec import RulesBase
from piquet_sim.core.game.strategy import Strategy
from piquet_sim.core.study.match import MatchKind, MatchResult, MatchSpec, play_match
from piquet_sim.core.study.tournament import play_tournament


def _strength(s: Strategy) -> int:
    return int(s.policy("play")[1:])


def toy_task(chunk: Chunk, a: Strategy, b: Strategy, seed: int) -> np.ndarray:
    """Deals ``chunk.start ..``: A's points minus B's, mean of the two seatings (a deal's luck,
    drawn from (seed, deal), cancels between them; the strengths' difference stays)."""
    deals = np.arange(chunk.start, chunk.start + chunk.size)
    luck = (deals * 7919 + seed * 104729) % 13 - 6
    return (luck + _strength(a) - _strength(b)) - luck * 0.5 + (deals % 3 - 1)


def toy_result(spec: MatchSpec, parts: list, seconds: float) -> MatchResult:
    per_deal = np.concatenate(parts or [np.zeros(0)])
    n = len(per_deal)
    body = {"deals": n, "mean": float(per_deal.mean()) if n else None}
    margin = Estimate.of_sample(per_deal)
    return MatchResult(spec.a.name, spec.b.name, margin, "points", n, spec.n, n < spec.n, body)


TOY = MatchKind(
    unit="deals",
    task=toy_task,
    args=lambda spec: (spec.a, spec.b, spec.seed),
    result=toy_result,
    chunk=lambda spec: 64,
)
RULES = RulesBase()
A, B, C = (Strategy.of(n, play=f"p{k}") for n, k in (("strong", 3), ("middle", 1), ("weak", 0)))


def test_the_numbers_do_not_depend_on_the_chunking():
    spec = MatchSpec(A, B, 1000, 5, RULES)
    whole = play_match(TOY, spec, chunk=1000)
    for chunk in (1, 7, 250):
        assert play_match(TOY, spec, chunk=chunk).to_dict() == whole.to_dict()
    assert whole.played == 1000 and not whole.partial
    assert whole.margin.mean == pytest.approx(2.0, abs=0.5)


def test_the_cancel_token_stops_after_the_chunk_in_flight_and_marks_partial():
    cancel, seen = Cancel(), []

    def progress(k: int) -> None:
        seen.append(k)
        if len(seen) == 3:
            cancel.set()

    r = play_match(
        TOY, MatchSpec(A, B, 10_000, 1, RULES), progress=progress, cancel=cancel, chunk=10
    )
    assert r.partial and r.played == 30 == r.to_dict()["deals"] and r.requested == 10_000
    assert play_match(TOY, MatchSpec(A, B, 50, 1, RULES), cancel=cancel).played == 0


def test_a_tournament_plays_every_pair_and_ranks_by_row_means():
    t = play_tournament(TOY, [C, A, B], 600, 2, RULES)
    assert [(r.a, r.b) for r in t.results] == [
        ("weak", "strong"),
        ("weak", "middle"),
        ("strong", "middle"),
    ]
    assert np.allclose(t.values, -t.values.T, equal_nan=True)
    stand = t.standings()
    assert [s["strategy"] for s in stand] == ["strong", "middle", "weak"]
    assert stand[0]["significant_wins"] == 2 and stand[-1]["significant_losses"] == 2
    assert stand[0]["mean_margin"] == pytest.approx(np.nanmean(t.values[1]))
    assert not t.partial and t.played == 3 * 600


def test_a_cancelled_tournament_keeps_the_matches_finished():
    cancel = Cancel()

    def on_match(a, b, n):
        if (a.name, b.name) == ("weak", "middle"):
            cancel.set()

    t = play_tournament(TOY, [C, A, B], 100, 2, RULES, cancel=cancel, on_match=on_match)
    assert t.partial and [(r.a, r.b) for r in t.results] == [("weak", "strong")]
    assert [s["strategy"] for s in t.standings()] == ["strong", "weak"]


def test_a_tournament_needs_distinct_strategies():
    for strategies in ([A], [A, A.renamed("strong")]):
        with pytest.raises(InputError):
            play_tournament(TOY, strategies, 10, 1, RULES)
