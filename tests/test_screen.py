"""The screening play (``kernels/screen.py``) gives exactly the numbers of the full play
dispatcher for the fast policies, so the first run can compile it alone: advisor evaluations,
kernel against kernel, on many random worlds (both kernels are compiled by other tests anyway)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import numba
import numpy as np
import pytest

from piquet_sim.piquet.advisor import AdviceRequest
from piquet_sim.piquet.advisor_warmup import SERIAL_ENV
from piquet_sim.piquet.advisor_worlds import _Evaluator, _WorldSource
from piquet_sim.piquet.cards import parse_cards
from piquet_sim.piquet.kernels import advisor as K
from piquet_sim.piquet.kernels.bundles import make_env
from piquet_sim.piquet.kernels.refine import pimc_only
from piquet_sim.piquet.kernels.screen import table_only
from piquet_sim.piquet.rules import Rules
from piquet_sim.piquet.simulation import Policies

HAND = "AS KS QS JS 9H 8H 7H AD KD AC QC JC"
YOUNGER = "AH KH 9H 7H QS TS 8S JD 9D 8C 7C KC"


def _both(hand, role, took, play, rules, fast=K.screen_evaluate):
    request = AdviceRequest.make(
        hand, role, took, play, 64, None, None, "greedy", 5, rules, None, False, 0, None, 0.0
    )
    worlds = _WorldSource(
        request.hand,
        role,
        took,
        Policies(),
        -1 if role == "elder" else 0,
        5,
        make_env(rules.to_array()),
    )
    ev = _Evaluator(worlds, request, np.zeros(0, np.int64), play)
    assert ev.kernel is fast  # the fast plays never reach the full dispatcher, nor pimc
    w = worlds.get(0, 96 if fast is K.screen_evaluate else 12)
    rng = np.random.default_rng(3)
    cards = [c for c in range(32) if (request.hand >> c) & 1]
    cands = [
        sum(1 << int(c) for c in rng.choice(cards, rng.integers(1, 4), replace=False))
        for _ in range(6)
    ]
    args = (
        ev.player,
        np.array(cands, np.int64),
        5,
        0,
        w,
        K.MODE_PLAY,
        ev.stages,
        worlds.env,
        4 * numba.get_num_threads(),
        ev.bits,
    )
    return fast(*args), K.evaluate(*args)


@pytest.mark.parametrize("role", ["elder", "younger"])
def test_screen_evaluation_equals_the_full_dispatcher(role):
    hand = HAND if role == "elder" else YOUNGER
    took = None if role == "elder" else 3
    for play in ("greedy", "heuristic", "random"):
        (s1, n1, o1), (s2, n2, o2) = _both(parse_cards(hand), role, took, play, Rules())
        assert np.array_equal(n1, n2) and np.array_equal(o1, o2)
        assert np.array_equal(s1, s2)
        assert np.abs(n1).sum() > 0  # deals were played


@pytest.mark.parametrize("role", ["elder", "younger"])
def test_pimc_evaluation_equals_the_full_dispatcher(role):
    """The pimc refine's kernel (``kernels/refine.py``: no dd branch, the table heuristic, the
    screen's exchange and declaration kernels) plays the cards of the full dispatcher."""
    hand = HAND if role == "elder" else YOUNGER
    took = None if role == "elder" else 3
    (s1, n1, o1), (s2, n2, o2) = _both(
        parse_cards(hand), role, took, "pimc", Rules(), K.pimc_evaluate
    )
    assert np.array_equal(n1, n2) and np.array_equal(o1, o2)
    assert np.array_equal(s1, s2)
    assert np.abs(n1).sum() > 0


def test_pimc_only_refuses_dd_and_the_heuristics_arithmetic():
    def stages(elder, younger, depth=0.0):
        params = {"elder": np.array([depth, 1.0, 0.0, 5.0])}
        return Policies(elder_play=elder, younger_play=younger, play_params=params).stages()

    assert pimc_only(stages("pimc", "pimc")) and pimc_only(stages("heuristic", "pimc"))
    assert not pimc_only(stages("pimc", "dd")) and not pimc_only(stages("dd", "greedy"))
    assert not pimc_only(stages("heuristic", "pimc", depth=0.5))


def test_table_only_reads_the_heuristic_seats_depth_and_bias():
    def stages(elder, younger, depth=0.0, bias=0.0):
        params = {"elder": np.array([depth, 1.0, bias, 5.0])}
        return Policies(elder_play=elder, younger_play=younger, play_params=params).stages()

    assert table_only(stages("heuristic", "heuristic"))
    assert table_only(stages("heuristic", "greedy", bias=0.9))  # the kernel reads int64 0
    assert table_only(stages("greedy", "heuristic", depth=0.5))  # elder's row is greedy's
    assert not table_only(stages("heuristic", "random", depth=0.5))
    assert not table_only(stages("heuristic", "greedy", bias=1.0))
    assert not table_only(stages("heuristic", "greedy", bias=-1.0))
    assert not table_only(stages("heuristic", "greedy", depth=float("nan")))


def _cold_then_warm_discard(tmp_path, args, notice):
    """Run ``discard HAND --json ARGS`` on the empty cache ``tmp_path`` (helper processes
    allowed), check its stderr names ``notice``; return the cached kernel file names and a check
    that a second run compiles nothing and prints the same JSON (``seconds`` aside)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    env.pop(SERIAL_ENV, None)
    cmd = [sys.executable, "-m", "piquet_sim", "discard", HAND, "--json", *args]
    cold = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    assert notice in cold.stderr
    names = [p.name for p in tmp_path.rglob("*.nbc")]

    def warm_again():
        warm = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
        assert "compiling" not in warm.stderr
        a, b = json.loads(cold.stdout), json.loads(warm.stdout)
        a.pop("seconds"), b.pop("seconds")
        assert a == b

    return names, warm_again


@pytest.mark.slow
def test_first_discard_compiles_each_screening_kernel_once(tmp_path):
    """A first ``discard`` on an empty cache, its helper process included, compiles each kernel
    of the screening path for one signature (the helper's explicit signatures are the ones the
    advisor calls) and nothing of the solver path; a second run answers the same."""
    names, warm_again = _cold_then_warm_discard(
        tmp_path, ["--play", "heuristic", "--samples", "64"], "compiling kernels, first run only"
    )
    for kernel in (
        "screen.table_play_deal",
        "screen.screen_exchange",
        "screen.screen_declare",
        "knowledge.both_knowledge",
        "advisor.build_worlds_serial",
        "advisor.screen_evaluate",
    ):
        assert sum(n.startswith(kernel + "-") for n in names) == 1, kernel
    solver_path = ("solver.search", "solver.mtdf", "pimc.", "play.player_card", "play.play_deal")
    assert not any(n.startswith(solver_path) for n in names)
    general = ("heuristic.general_move", "heuristic.heuristic_move")
    assert not any(n.startswith(general) for n in names)  # the heuristic at its defaults
    warm_again()


def test_warm_up_parts_cover_each_screening_kernel_once():
    """Every kernel the warm-up types is compiled by exactly one step of the two processes, and
    typing them compiles nothing (the allocating kernels' plain-Python twins build the examples)."""
    from piquet_sim.piquet import advisor_warmup as W

    parts = W.HELPER_FIRST + W.SHARED + W.MAIN_LAST
    for role in ("elder", "younger"):
        before = {name: len(d.overloads) for name, (d, _) in W.screen_signatures(role).items()}
        sigs = W.screen_signatures(role)
        assert sorted(parts) == sorted(sigs)
        assert {name: len(d.overloads) for name, (d, _) in sigs.items()} == before
        assert all(isinstance(sig, tuple) for _, sig in sigs.values())
    assert W.MAIN_LAST == ("evaluate",) and W.HELPER_FIRST == ("play",)


def test_warm_up_splits_shared_kernels_by_claims(monkeypatch):
    """This process compiles the shared kernels from the front until one is claimed (the helper
    claims from the back), waits for the helper's lines, compiles what the helper claimed but
    never reported, then the driver; the trick loop only when the helper never said ready."""
    from piquet_sim.piquet import advisor_warmup as W

    compiled = []
    monkeypatch.setattr(W, "compile_part", lambda role, names: compiled.extend(names))

    class Helper:
        def __init__(self, claims, lines):
            for name in W.SHARED[-2:]:
                assert W.claim(claims, name)
            assert not W.claim(claims, W.SHARED[-1])
            self.stdout = io.StringIO(lines)

        def poll(self):
            return 0

        def wait(self):
            return 0

    reported = f"{W.READY}\n{W.DONE} {W.SHARED[-1]}\n"  # then the helper died
    monkeypatch.setattr(W, "start_helper", lambda role, claims: Helper(claims, reported))
    W.compile_screen_path("elder")
    assert compiled == [*W.SHARED[:-2], W.SHARED[-2], "evaluate"]
    compiled.clear()
    monkeypatch.setattr(W, "start_helper", lambda role, claims: Helper(claims, ""))
    W.compile_screen_path("elder")
    assert compiled == [*W.SHARED[:-2], "play", *W.SHARED[-2:], "evaluate"]


def test_refine_warm_up_types_without_compiling_and_finishes_what_the_helper_did_not(
    monkeypatch,
):
    """The pimc refine's helper kernels are typed like the advisor's calls without compiling
    anything; after the helper, this process compiles (or loads) the parts it never reported."""
    from piquet_sim.piquet import advisor_warmup as W

    for role in ("elder", "younger"):
        sigs = W.refine_signatures(role)
        before = {name: len(d.overloads) for name, (d, _) in sigs.items()}
        assert sorted(sigs) == sorted(W.REFINE_PARTS)
        assert {name: len(d.overloads) for name, (d, _) in W.refine_signatures(role).items()} == (
            before
        )

    class Helper:
        def __init__(self, lines):
            self.stdout = io.StringIO(lines)

        def poll(self):
            return 0

        def wait(self):
            return 0

    compiled = []
    monkeypatch.setattr(W, "compile_refine_part", lambda role, names: compiled.extend(names))
    W.finish_refine("elder", Helper(f"{W.DONE} pimc\n"))  # then the helper died
    assert compiled == ["refine"]
    compiled.clear()
    W.finish_refine("elder", Helper(f"{W.DONE} pimc\n{W.DONE} refine\n"))
    assert compiled == []
    W.finish_refine("elder", None)  # compiling serially
    assert compiled == list(W.REFINE_PARTS)


@pytest.mark.slow
def test_first_default_discard_compiles_each_refine_kernel_once(tmp_path):
    """A first ``discard`` at its default (heuristic screen, pimc refine) on an empty cache, its
    two helper processes included, compiles each kernel of the pimc refine for one signature
    (the refine helper's explicit signatures are the advisor's), never the full dispatcher, the
    dd player or the heuristic's general arithmetic; a second run answers the same."""
    names, warm_again = _cold_then_warm_discard(tmp_path, ["--samples", "16"], "pimc's answer")
    for kernel in (
        "refine.refine_card",
        "refine.pimc_play_deal",
        "advisor._pimc_span",
        "screen.table_play_deal",
        "advisor.screen_evaluate",
        "solver.search",
    ):
        assert sum(n.startswith(kernel + "-") for n in names) == 1, kernel
    general = ("play.player_card", "play.play_deal", "advisor._play_span-", "play.dd_")
    assert not any(n.startswith(general) for n in names)
    assert not any(
        n.startswith(("heuristic.general_move", "heuristic.heuristic_move")) for n in names
    )
    warm_again()


def test_refine_helper_starts_after_the_screen_helper_when_a_ranking_comes_first(monkeypatch):
    """With a preliminary ranking (a first ``discard`` with pimc), the refine's helper starts
    once the screen's helper is done, before this process compiles the screen's driver; without
    one (``--json``) it starts first, alongside the whole screen path."""
    from piquet_sim.piquet import advisor_warmup as W

    events = []
    monkeypatch.setattr(W, "compile_part", lambda role, names: events.extend(names))
    monkeypatch.setattr(W, "start_helper", lambda role, claims: None)  # serial screen path
    monkeypatch.setattr(W, "start_refine_helper", lambda role: events.append("refine helper"))
    monkeypatch.setattr(W, "finish_refine", lambda role, helper: events.append("finish"))
    monkeypatch.setattr("piquet_sim.piquet.advisor.world_values", lambda *a, **k: None)

    from piquet_sim.piquet.cards import parse_cards
    from piquet_sim.piquet.rules import DEFAULT_RULES

    hand = parse_cards("AS KS QS JS 9H 8H 7H AD KD AC QC JC")

    def warm(preliminary):
        events.clear()
        W.warm_up(
            hand,
            "elder",
            None,
            "pimc",
            "greedy",
            1,
            DEFAULT_RULES,
            None,
            notice=lambda kernels, expect: True,
            preliminary=preliminary,
        )
        return list(events)

    late = warm(lambda: events.append("ranking"))
    assert late.index("refine helper") == late.index("evaluate") - 1
    assert late.index("refine helper") < late.index("ranking") < late.index("finish")
    assert warm(None)[0] == "refine helper"
