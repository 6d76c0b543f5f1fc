"""The Dask options as a user types them: a bad address, a scheduler nobody runs, too many
workers are one line and exit 2 before any work; Ctrl-C sent to the whole process group (as a
terminal sends it, the LocalCluster's workers included) stops a Dask run."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from piquet_sim.core.engine.backend import scheduler_address

pytest.importorskip("dask.distributed")

ODDS = ("odds", "-n", "1000", "--quiet", "--json", "--backend", "dask")


@pytest.mark.parametrize(
    "text, address",
    [
        ("localhost:8786", "tcp://localhost:8786"),
        ("tcp://10.0.0.2:8786", "tcp://10.0.0.2:8786"),
        ("tls://host.example:9000/", "tls://host.example:9000"),
        ("[::1]:8786", "tcp://[::1]:8786"),
    ],
)
def test_scheduler_addresses_are_read_with_tcp_by_default(text, address):
    assert scheduler_address(text) == address


@pytest.mark.parametrize("text", ["notanaddress", "host:", "host:99999", "tcp://:8786", ""])
def test_a_malformed_scheduler_address_is_one_line_and_exit_2(run_main, text):
    code, out, err = run_main(*ODDS, "--scheduler", text)
    assert code == 2 and out == ""
    assert "not a scheduler address" in err and "Traceback" not in err


def test_a_scheduler_nobody_listens_on_is_one_line_and_exit_2(run_main):
    code, _, err = run_main(*ODDS, "--scheduler", "127.0.0.1:9")
    assert code == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err
    assert len(err.strip().splitlines()) == 1


def test_a_local_cluster_of_a_hundred_thousand_workers_is_refused(run_main):
    code, _, err = run_main(*ODDS, "--workers", "100000")
    assert code == 2 and "--workers" in err


_TERMINAL = (
    "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "sys.argv[0] = 'piquet'; from piquet_sim.cli import main; main()"
)


@pytest.mark.slow
def test_ctrl_c_to_the_process_group_stops_a_local_cluster_run():
    """``odds --backend dask`` on a LocalCluster, SIGINT to the whole group once deals are being
    counted: exit 130 within a few seconds (the workers ignore it; the command stops waiting at
    once and closes the cluster), the deals counted so far printed and marked partial."""
    proc = subprocess.Popen(
        [sys.executable, "-c", _TERMINAL, "odds", "-n", "1000000000", "--json", "--quiet"]
        + ["--backend", "dask", "--workers", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        time.sleep(25)  # the cluster started, its worker compiled and counting
        assert proc.poll() is None, proc.stderr.read()
        sent = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=60)
        waited = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err[-2000:]
    assert "Traceback" not in err
    assert waited < 5.0, waited
    data = json.loads(out)
    assert data["interrupted"]
