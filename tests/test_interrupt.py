"""Ctrl-C: one mechanism (``core.backend.StopOnInterrupt`` + ``run_chunks`` + ``core.cli``'s
``long_command``) stops every long command after the chunk in flight, skips what had not
started, marks the output partial and exits with 130. Sizes past what the sums hold are refused
before any work, and chunks are made on demand (memory flat for any size)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import tracemalloc

import pytest

from piquet_sim.core.engine.backend import (
    MAX_DEALS,
    LocalBackend,
    StopOnInterrupt,
    chunks,
    run_chunks,
    stop_requested,
)
from piquet_sim.core.engine.errors import InputError


def _sum_task(chunk, scale):
    return chunk.size * scale


def test_sigint_after_k_chunks_stops_there_and_later_runs_do_nothing():
    seen = []

    def consume(chunk, result):
        seen.append(result)
        if len(seen) == 3:
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C while the third chunk is merged

    with StopOnInterrupt():
        done = run_chunks(LocalBackend(), _sum_task, 10_000, 100, (1,), consume)
        assert done == 300 and seen == [100, 100, 100]
        assert stop_requested()
        # a later study of the same command starts nothing
        assert run_chunks(LocalBackend(), _sum_task, 1000, 100, (1,), consume) == 0
    assert seen == [100, 100, 100] and not stop_requested()
    # a new command (outermost block) starts afresh
    assert run_chunks(LocalBackend(), _sum_task, 500, 100, (1,), lambda c, r: None) == 500
    assert not stop_requested()


def test_a_second_ctrl_c_ends_the_run_at_once():
    def consume(chunk, result):
        os.kill(os.getpid(), signal.SIGINT)

    def progress(k):
        os.kill(os.getpid(), signal.SIGINT)  # the second one raises inside run_chunks

    with StopOnInterrupt():
        done = run_chunks(LocalBackend(), _sum_task, 10_000, 100, (1,), consume, progress)
        assert done == 100 and stop_requested()
    assert not stop_requested()  # leaving the command's block clears it


def test_worker_threads_never_see_a_stop():
    import threading

    seen = []
    with StopOnInterrupt():
        os.kill(os.getpid(), signal.SIGINT)
        assert stop_requested()

        def worker():
            with StopOnInterrupt() as flag:
                seen.append(flag.stop)

        t = threading.Thread(target=worker)
        t.start()
        t.join()
    assert seen == [False]


def test_chunks_are_lazy_and_huge_sizes_are_refused():
    big = chunks(MAX_DEALS, 500_000)
    assert len(big) == MAX_DEALS // 500_000
    assert big[-1].start + big[-1].size == MAX_DEALS
    tracemalloc.start()
    for i, _ in enumerate(big):
        if i == 1000:
            break
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 100_000  # no list of 2e8 chunks
    with pytest.raises(InputError, match="more than one run can hold"):
        run_chunks(LocalBackend(), _sum_task, MAX_DEALS + 1, 1000, (1,), lambda c, r: None)


@pytest.mark.parametrize(
    "args",
    [
        ["odds", "--deals", "9000000000000000000"],
        ["batch", "greedy", "random", "--deals", str(MAX_DEALS + 1)],
        ["tournament", "greedy", "random", "--deals", str(10**15)],
        ["partie", "greedy", "random", "--parties", str(10**15)],
        ["report", "--deals", str(10**15)],
    ],
)
def test_absurd_sizes_are_one_line_and_exit_2(run_main, args):
    code, out, err = run_main(*args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "range" in err


_SCRIPT = textwrap.dedent(
    """
    import sys, time
    import click
    from piquet_sim.core.engine.backend import LocalBackend, run_chunks
    from piquet_sim.core.app.cli import echo_json, long_command, run_main

    def task(chunk):
        time.sleep(0.05)
        return chunk.size

    @click.command()
    @long_command
    def slow():
        done = []
        def consume(chunk, result):
            if not done:
                print("started", file=sys.stderr, flush=True)
            done.append(result)
        n = run_chunks(LocalBackend(), task, 10**9, 1000, (), consume)
        echo_json({"deals": n, "requested": 10**9, "partial": n < 10**9})

    run_main(click.Group(commands={"slow": slow}), ["slow"], "piquet")
    """
)


def test_sigint_to_a_running_command_writes_partial_and_exits_130():
    proc = subprocess.Popen(
        [sys.executable, "-c", _SCRIPT],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stderr.readline().strip() == "started"
        time.sleep(0.2)
        t0 = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
        stopped = time.perf_counter() - t0
    finally:
        proc.kill()
    assert proc.returncode == 130
    assert stopped < 2.0
    data = json.loads(out)
    assert data["partial"] is True and 0 < data["deals"] < data["requested"]
    assert data["deals"] % 1000 == 0  # whole chunks only
    assert "stopping after the work in flight" in err


def _fake_match(kind, spec, backend=None, progress=None, cancel=None, chunk=None, on_part=None):
    """A finished match without kernels (the study layer's ``play_match``): A wins by 1.5
    points per deal."""
    from piquet_sim.core.engine.stats import Estimate
    from piquet_sim.core.study.match import MatchResult

    if progress is not None:
        progress(spec.n)
    body = {
        "pairs": spec.n,
        "net_per_deal": {"mean": 1.5, "se": 0.1, "ci95": [1.3, 1.7]},
        "p_value": 1e-30,
        "significant": True,
        "a_deal_win_rate": {"p": 0.6},
        "deal_tie_rate": {"p": 0.0},
    }
    margin = Estimate(1.5, 0.1, 1.3, 1.7, spec.n, 1e-30)
    return MatchResult(spec.a.name, spec.b.name, margin, "points", spec.n, spec.n, False, body)


def test_interrupted_tournament_shows_pairs_played_and_no_nan(run_main, monkeypatch):
    from piquet_sim.core.study import tournament as M

    def first_match_then_ctrl_c(*args, **kwargs):
        result = _fake_match(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGINT)
        return result

    monkeypatch.setattr(M, "play_match", first_match_then_ctrl_c)
    code, out, err = run_main("tournament", "greedy", "random", "max", "--deals", "300", "--quiet")
    assert code == 130
    assert "nan" not in out.lower()
    assert "300 of 900 deal pairs played" in out and "interrupted" in out
    code, out, _ = run_main("tournament", "greedy", "random", "max", "--deals", "300", "--json")
    data = json.loads(out)
    assert code == 130 and data["partial"] and data["pairs_played"] == 300
    assert data["matches_played"] == 1 and data["matches_requested"] == 3
    assert {s["strategy"] for s in data["standings"]} == {"greedy", "random"}
    # a complete tournament carries no partial keys
    monkeypatch.setattr(M, "play_match", _fake_match)
    code, out, _ = run_main("tournament", "greedy", "random", "--deals", "300", "--json")
    assert code == 0 and "partial" not in json.loads(out)


def test_interrupted_odds_json_is_partial_with_counts(run_main, monkeypatch):
    """The odds command's own chunks (kernel replaced by all-zero deal records)."""
    import numpy as np

    from piquet_sim.piquet import odds as O
    from piquet_sim.piquet.kernels import layouts as L

    calls = []

    def fake_simulate(n, seed, policies, rules, start=0):
        calls.append(n)
        if len(calls) == 2:
            os.kill(os.getpid(), signal.SIGINT)
        return np.zeros((n, L.REC_LEN), np.int16)

    monkeypatch.setattr(O, "simulate", fake_simulate)
    code, out, _ = run_main("odds", "--deals", "50000", "--chunk", "1000", "--json")
    data = json.loads(out)
    assert code == 130 and data["partial"] is True
    assert len(calls) == 2 and data["deals"] == sum(calls) and data["requested"] == 50_000


def test_slow_local_chunks_are_split_and_the_counts_do_not_change(monkeypatch):
    """A chunk slower than CHUNK_SECONDS makes the next smaller (so Ctrl-C answers fast);
    the merged result is the same as with fixed chunks."""
    import piquet_sim.core.engine.backend as B

    sizes = []
    clock = iter(range(0, 10**6, 1))  # every chunk "takes" 1 s

    def task(chunk):
        sizes.append(chunk.size)
        return sum(range(chunk.start, chunk.start + chunk.size))

    monkeypatch.setattr(B.time, "perf_counter", lambda: float(next(clock)))
    total = []
    done = run_chunks(LocalBackend(), task, 10_000, 4000, (), lambda c, r: total.append(r))
    assert done == 10_000 and sum(total) == sum(range(10_000))
    assert sizes[0] == 4000 and sizes[1] == int(4000 * B.CHUNK_SECONDS) and max(sizes[1:]) < 4000
    # fast chunks start at FIRST_CHUNK and grow at most fourfold up to the requested size
    monkeypatch.setattr(B.time, "perf_counter", lambda: 0.0 + len(sizes) * 1e-6)
    sizes.clear()
    run_chunks(LocalBackend(), task, 200_000, 50_000, (), lambda c, r: None)
    assert sizes[:3] == [B.FIRST_CHUNK, 4 * B.FIRST_CHUNK, 50_000] and sum(sizes) == 200_000


@pytest.mark.parametrize("game", ["pilotta", "pitch"])
def test_other_games_odds_interrupted_are_partial_and_exit_130(run_main, monkeypatch, game):
    """Pilotta's and Pitch's odds (kernel replaced by counts of nothing) stop after the chunk
    in flight, print what finished marked partial, and exit 130."""
    import numpy as np

    sizes = []
    if game == "pilotta":
        from piquet_sim.pilotta import odds as O
        from piquet_sim.pilotta.layouts import ODDS_LEN

        def fake(chunk, seed, trump):
            sizes.append(chunk.size)
            if len(sizes) == 2:
                os.kill(os.getpid(), signal.SIGINT)
            return np.zeros(ODDS_LEN, np.int64)

        args = ("pilotta", "odds", "--deals", "500000", "--chunk", "1000")
        counted = "deals"
    else:
        from piquet_sim.pitch import odds as O
        from piquet_sim.pitch.layouts import OddsSlot

        def fake(chunk, seed, players, suit):
            sizes.append(chunk.size)
            if len(sizes) == 2:
                os.kill(os.getpid(), signal.SIGINT)
            counts = np.zeros(OddsSlot.LEN, np.int64)
            counts[OddsSlot.DEALS] = chunk.size
            return counts

        args = ("pitch", "odds", "--rounds", "500000")
        counted = "rounds"
    monkeypatch.setattr(O, "_task", fake)
    code, out, _ = run_main(*args, "--json")
    data = json.loads(out)
    assert code == 130 and data["partial"] is True and data["requested"] == 500_000
    assert len(sizes) == 2 and data[counted] == sum(sizes) < 500_000
    sizes.clear()
    code, out, _ = run_main(*args, "--quiet")
    assert code == 130 and f"interrupted: partial, {sum(sizes):,} of 500,000" in " ".join(
        out.split()
    )


def test_interrupted_sink_keeps_the_worlds_that_finished(run_main, monkeypatch):
    """``sink`` evaluates its worlds in chunks (kernel replaced by fixed rows): Ctrl-C during
    the second chunk keeps both finished chunks, marked partial, exit 130."""
    import numpy as np

    from piquet_sim.piquet import sinking as S
    from piquet_sim.piquet.kernels import layouts as L

    starts = []

    def fake(hand, role, discard, took, choices, worlds, *args, start=0, n_spans=2, **kw):
        starts.append(start)
        if len(starts) == 2:
            os.kill(os.getpid(), signal.SIGINT)
        rows = np.arange(worlds * len(choices) * L.SINK_LEN, dtype=np.int32) % 7
        return rows.reshape(worlds, len(choices), L.SINK_LEN), np.zeros(L.PIMC_LEN, np.int64)

    monkeypatch.setattr(S, "evaluate", fake)
    hand = "AS KS QS JS TS 9H 8H 7H AD KD AC QC"
    code, out, _ = run_main("sink", hand, "--worlds", "48", "--play", "greedy", "--json")
    data = json.loads(out)
    assert code == 130 and starts == [0, S.CHUNK_WORLDS]
    assert data["partial"] is True and data["requested"] == 48
    assert data["worlds"] == 2 * S.CHUNK_WORLDS
    starts.clear()
    code, out, _ = run_main("sink", hand, "--worlds", "48", "--play", "greedy")
    assert code == 130 and "interrupted: partial, 16 of 48 worlds" in " ".join(out.split())
    starts[:] = [0, 0, 0]  # past the second call: no more Ctrl-C
    code, out, _ = run_main("sink", hand, "--worlds", "16", "--play", "greedy", "--json")
    assert code == 0 and "partial" not in json.loads(out)


def test_ladder_stops_at_one_ctrl_c_and_marks_partial(run_main, monkeypatch):
    """The ladder used to end only the match in flight at each Ctrl-C and go on (exit 0):
    now one Ctrl-C skips the matches not started, the JSON says partial, exit 130."""
    from piquet_sim.core.study import tournament as LD

    played = []

    def first_match_then_ctrl_c(*args, **kwargs):
        played.append(args[1])
        result = _fake_match(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGINT)
        return result

    monkeypatch.setattr(LD, "play_match", first_match_then_ctrl_c)
    code, out, _ = run_main(
        "ladder", "--policies", "random,greedy,heuristic", "--deals", "300", "--json"
    )
    assert code == 130 and len(played) == 1
    data = json.loads(out)
    assert data["partial"] is True and len(data["matches"]) == 1
