"""A Pilotta batch folds each chunk into integer counts and sums as it comes: its memory and
the work left after a Ctrl-C (the statistics) do not grow with the deals played, and the
numbers are those of the round records (:func:`match.team_stats` of every round at once)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from piquet_sim.core.engine.stats import Estimate
from piquet_sim.core.study.match import MatchSpec, play_match
from piquet_sim.pilotta import match
from piquet_sim.pilotta import strategies as S
from piquet_sim.pilotta.layouts import RoundRec, Score
from piquet_sim.pilotta.rules import DEFAULT_RULES


def test_a_batch_keeps_one_tally_not_the_round_records():
    a, b = S.BOOK.resolve("bold"), S.BOOK.resolve("cautious")
    seen = []

    def result(spec, parts, seconds):
        seen.append(parts)
        return match.batch_result(spec, parts, seconds)

    kind = dataclasses.replace(match.BATCH, result=result)
    play_match(kind, MatchSpec(a, b, 600, 4, DEFAULT_RULES, {}), chunk=100)
    (parts,) = seen
    assert len(parts) == 1 and isinstance(parts[0], dict)
    leaves = []

    def walk(x):
        for v in x.values():
            walk(v) if isinstance(v, dict) else leaves.append(v)

    walk(parts[0])
    assert not any(isinstance(v, np.ndarray) for v in leaves)


def test_the_tally_gives_the_figures_of_the_round_records():
    a, b = S.BOOK.resolve("bold"), S.BOOK.resolve("cautious")
    recs_ns, recs_ew = match.batch_task(match.Chunk(0, 700), a, b, 9, DEFAULT_RULES)
    body = match.batch_result(
        MatchSpec(a, b, 700, 9, DEFAULT_RULES, {}), [match.batch_tally(recs_ns, recs_ew)], 0.0
    )
    t_ns, t_ew = RoundRec.SCORE + Score.TOTAL_NS, RoundRec.SCORE + Score.TOTAL_EW
    per_deal = ((recs_ns[:, t_ns] - recs_ns[:, t_ew]) + (recs_ew[:, t_ew] - recs_ew[:, t_ns])) / 2
    want = Estimate.of_sample(per_deal).to_dict()
    got = body.body["a_minus_b"]
    assert got["n"] == want["n"] == 700
    for key in ("mean", "se"):
        assert got[key] == pytest.approx(want[key], rel=1e-12)
    gp = np.concatenate([recs_ns[:, t_ns], recs_ew[:, t_ew]]).astype(float)
    assert body.body["stats"]["a"]["game_points"]["mean"] == pytest.approx(gp.mean(), rel=1e-12)
    assert body.body["stats"]["a"]["contracts"]["count"] == int(
        ((recs_ns[:, RoundRec.BIDDER] >= 0) & (recs_ns[:, RoundRec.BIDDER] % 2 == 0)).sum()
        + ((recs_ew[:, RoundRec.BIDDER] >= 0) & (recs_ew[:, RoundRec.BIDDER] % 2 == 1)).sum()
    )
