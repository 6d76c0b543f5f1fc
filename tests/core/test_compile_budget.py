"""First runs: the compile profile, threaded drivers, the compile notice's estimate, Ctrl-C while
kernels compile, and ``piquet warm``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import click
import pytest

from piquet_sim.core.app import compile as C
from piquet_sim.core.app.examples import capped, example_lines
from piquet_sim.core.engine import jit_threads as T
from piquet_sim.core.engine.jit_profile import PROFILE_ENV, load, summarise
from piquet_sim.games import GAME_PACKAGES

REPO = Path(__file__).resolve().parents[2]


def test_spans_run_each_span_once_on_several_threads():
    seen: list[tuple[int, str]] = []
    lock = threading.Lock()

    def span(s: int) -> None:
        time.sleep(0.01)
        with lock:
            seen.append((s, threading.current_thread().name))

    T.run_spans(span, 9, n_threads=3)
    assert sorted(s for s, _ in seen) == list(range(9))
    assert len({name for _, name in seen}) > 1


def test_spans_split_like_the_kernels_and_skip_empty_ones():
    from piquet_sim.core.engine.spans import span_range

    got = []
    T.for_spans(5, 4, lambda s, first, count: got.append((s, first, count)))
    assert sorted(got) == [(0, 0, 2), (1, 2, 2), (2, 4, 1)]
    for n, k in ((5, 4), (100, 7), (3, 8)):
        assert all(T.span_range(n, k, s) == span_range.py_func(n, k, s) for s in range(k))


def test_a_failing_span_raises_in_the_caller():
    def span(s: int) -> None:
        if s == 3:
            raise ValueError("span 3")

    with pytest.raises(ValueError, match="span 3"):
        T.run_spans(span, 6, n_threads=2)


def test_a_threaded_driver_stands_for_its_kernels_in_the_compile_notice():
    from piquet_sim.piquet.kernels import advisor as K

    assert K._pimc_span in K.pimc_evaluate.kernels
    assert K._pimc_span in C._expanded((K.pimc_evaluate, K.screen_evaluate))
    assert K.screen_evaluate in C._expanded((K.pimc_evaluate, K.screen_evaluate))


def test_the_notice_scales_the_measured_time_by_the_load(monkeypatch):
    monkeypatch.setattr("piquet_sim.core.app.compile_times.COLD", {"solve": (20.0, 1)})
    assert C.expected_wait("solve", load_factor=1.0) == "about 20 s on this machine"
    assert C.expected_wait("solve", load_factor=3.0) == "about 60 s at this load, about 20 s idle"
    assert C.expected_wait("not measured") is None
    assert C.wait_factor(cores=2, load=0.5) == 1.0
    assert C.wait_factor(cores=2, load=5.0) == 3.0


def test_help_examples_join_continued_lines_and_sizes_are_capped():
    text = textwrap.dedent(
        """\
        Does things.

        Example:
          piquet solve "AS KS" \\
                       "QS JS" --json
          piquet play "QS" --history "discard: 7S;
            took: TD"

        Options:
          --json
        """
    )
    assert example_lines(text) == [
        'piquet solve "AS KS" "QS JS" --json',
        'piquet play "QS" --history "discard: 7S; took: TD"',
    ]
    args = ["odds", "--deals", "1000000", "-n", "50", "--solver-deals", "900"]
    assert capped(args, 100, {"--solver-deals": 4}) == [
        "odds", "--deals", "100", "-n", "50", "--solver-deals", "4",
    ]  # fmt: skip


def test_warm_lists_every_game_example_at_a_tiny_size():
    from piquet_sim.warm_cli import WARM_SIZE, warm_tasks

    tasks = warm_tasks(("pilotta",))
    assert tasks and {t.game for t in tasks} == {"pilotta"}
    labels = {t.label for t in tasks}
    assert {"pilotta bid", "pilotta play", "pilotta solve", "pilotta review"} <= labels
    for t in tasks:
        for option in ("--deals", "-n", "--games"):
            if option in t.args:
                assert int(t.args[t.args.index(option) + 1]) <= max(WARM_SIZE, 100)
    assert not any("--external" in t.args for t in warm_tasks(("piquet",)))


@pytest.mark.parametrize("game", GAME_PACKAGES)
def test_every_warm_task_is_a_command_line_its_command_accepts(game):
    """A size cut below an option's range (a report's 100 deals at least) or a file the
    repository lacks would fail in the worker and warm nothing."""
    from piquet_sim.cli import cli
    from piquet_sim.core.app.examples import command_at
    from piquet_sim.warm_cli import warm_tasks

    for t in warm_tasks((game,)):
        command = command_at(cli, t.label)
        words = t.args[len(t.label.split()) :]
        command.make_context(t.label, list(words), resilient_parsing=False)


def test_capped_sizes_stop_at_the_smallest_value_the_option_takes():
    command = click.Command(
        "report", params=[click.Option(["--deals", "-n"], type=click.IntRange(100, None))]
    )
    assert capped(["report", "--deals", "5000"], 64, command=command) == [
        "report", "--deals", "100",
    ]  # fmt: skip
    assert capped(["report", "--deals", "5000"], 64) == ["report", "--deals", "64"]


def test_warm_keeps_a_worker_on_its_game():
    from piquet_sim.core.app.warm import Task, _next_task

    queues = {"a": [Task("a", "x", ())], "b": [Task("b", "y", ()), Task("b", "z", ())]}
    assert _next_task(queues, "a").game == "a"
    assert _next_task(queues, "a").game == "b"  # a is done: the game with the most left
    assert _next_task(queues, None).label == "z"
    assert _next_task(queues, "b") is None


def test_warm_starts_each_worker_on_a_game_no_other_worker_compiles():
    from piquet_sim.core.app.warm import Task, _next_task

    queues = {g: [Task(g, f"{g}{i}", ()) for i in range(n)] for g, n in (("a", 5), ("b", 3))}
    first = _next_task(queues, None)
    assert first.game == "a"
    assert _next_task(queues, None, [first.game]).game == "b"  # not a again, though a has more
    assert _next_task(queues, "b", ["a"]).game == "b"


def test_warm_runs_commands_in_workers_and_reports_failures(tmp_path):
    from piquet_sim.core.app.warm import Task, warm

    tasks = [
        Task("piquet", "hand", ("hand", "AS KS QS JS 9H 8H 7H AD KD AC QC JC")),
        Task("piquet", "bad", ("hand", "not cards")),
    ]
    outcome = warm(tasks, "piquet_sim.cli:cli", jobs=2)
    assert outcome.done == 2 and not outcome.interrupted
    assert [label for label, _ in outcome.failed] == ["bad"]


def _child_env(cache: Path) -> dict[str, str]:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(REPO))
    for name in ("PIQUET_NUMBA_CACHE_ROOT", "PIQUET_NUMBA_CACHE_CHOSEN"):
        env.pop(name, None)
    return env


def test_compile_profile_records_each_kernel_it_compiles(tmp_path):
    """A child process with ``PIQUET_COMPILE_PROFILE`` writes each compiled kernel's CPU
    seconds (its own, and with its callees) at exit."""
    code = "from piquet_sim.cli import main; main(['hand', 'AS KS QS JS 9H 8H 7H AD KD AC QC JC'])"
    env = _child_env(tmp_path / "numba")
    env[PROFILE_ENV] = str(tmp_path / "profile")
    subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True)
    compiles = load(tmp_path / "profile")
    assert compiles and all(r["total_s"] >= r["self_s"] >= 0 for r in compiles)
    summary = summarise(compiles)
    assert summary["processes"] == 1 and summary["signatures"] == len(compiles)
    names = [k["kernel"] for k in summary["kernels"]]
    assert any(name.startswith("piquet.kernels.declarations.") for name in names)
    assert summary["compile_s"] == pytest.approx(sum(r["self_s"] for r in compiles))


#: A cold ``pitch solve`` compiles its search for minutes of CPU: long enough to be stopped.
_COLD = ["pitch", "solve", "AS KS 2S 3H 4D 5C", "JS 6S TH 9H 8D 7C", "QS 3S AH KH QD 2C"]
_TERMINAL = (
    "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "sys.argv[0] = 'piquet'; from piquet_sim.cli import main; main()"
)


def test_ctrl_c_while_kernels_compile_stops_at_once_and_keeps_what_compiled(tmp_path):
    """Ctrl-C sent to the process group (as a terminal does) while a cold command compiles,
    once its first kernel is cached: exit 130 within 2 s, saying that what compiled is
    cached; the cached kernels are still there. (Python's SIGINT handler as in a terminal:
    pytest-xdist's workers ignore SIGINT, and their children would too.)"""
    cache = tmp_path / "numba"
    child = subprocess.Popen(
        [sys.executable, "-c", _TERMINAL, *_COLD, "--trump", "S", "--json"],
        env=_child_env(cache),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 240
        while not list(cache.rglob("*.nbi")) and time.monotonic() < deadline:
            assert child.poll() is None, child.stderr.read()
            time.sleep(0.1)
        assert list(cache.rglob("*.nbi")), "no kernel compiled in time"
        time.sleep(0.5)  # into the next kernel's compilation
        assert child.poll() is None, "the command finished before the Ctrl-C"
        sent = time.monotonic()
        os.killpg(child.pid, signal.SIGINT)
        code = child.wait(timeout=10)
        waited = time.monotonic() - sent
        err = child.stderr.read()
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
    assert code == 130, err
    assert waited < 2.0, waited
    assert "the kernels compiled so far are cached" in err
    assert list(cache.rglob("*.nbi"))


def test_compile_times_module_lists_commands_as_the_cli_names_them():
    from piquet_sim.core.app.compile_times import COLD

    for command, (cpu_s, processes) in COLD.items():
        assert command == command.strip() and not command.startswith("piquet")
        assert cpu_s > 0 and processes >= 1
    json.dumps(COLD)  # plain data
