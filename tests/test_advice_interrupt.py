"""One Ctrl-C from the terminal (SIGINT to the process group) stops a long ``play`` or
``review`` within 2 s after the block of worlds in flight: exit 130, the worlds solved so far
printed and marked partial, no traceback. (A second Ctrl-C aborts at once.)"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"

#: The child: ``piquet ARGS`` with the game's world solver saying "block" after each block.
CHILD = textwrap.dedent(
    """
    import sys
    from importlib import import_module

    module = import_module(sys.argv[1])
    real = module._evaluate

    def spy(*args, **kwargs):
        value = real(*args, **kwargs)
        print("block", file=sys.stderr, flush=True)
        return value

    module._evaluate = spy
    from piquet_sim.cli import main
    main(sys.argv[2:])
    """
)

#: Each case asks for worlds enough to solve for many seconds after the first block, and few
#: enough that the first block comes within seconds (the worlds are drawn before any is solved).
CASES = {
    "piquet play": (
        "piquet_sim.piquet.card_values",
        [
            "play",
            "QS JH 9H 8H 7H AD QD TD",
            "--seat",
            "younger",
            "--history",
            "discard: 7S 8S 7D 8C; took: TD QS 7H AS; talon: -; elder took: 4; "
            "point: his KC QC JC TC 9C; sequence: his KC QC JC TC 9C; sets: mine; "
            "tricks: 9C-AC AS-TS KS-JS AH-TH",
            "--worlds",
            "20000",
            "--exact-limit",
            "0",
            "--json",
        ],
    ),
    "pilotta review": (
        "piquet_sim.pilotta.card_values",
        [
            "pilotta",
            "review",
            str(EXAMPLES / "pilotta-round.txt"),
            "--worlds",
            "5000",
            "--exact-limit",
            "0",
            "--max-seconds",
            "100000",
            "--json",
            "--quiet",
        ],
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_one_ctrl_c_stops_the_worlds_in_flight(case):
    module, args = CASES[case]
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, module, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own group: the SIGINT goes to it as a terminal's would
    )
    try:
        seen = []
        for line in proc.stderr:
            seen.append(line)
            if line.strip() == "block":
                break
        else:
            pytest.fail(f"the child ended before solving a block: {''.join(seen)}")
        t0 = time.perf_counter()
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        elapsed = time.perf_counter() - t0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err[-2000:]
    assert "Traceback" not in err
    assert elapsed < 2.0, elapsed
    data = json.loads(out)
    assert data["partial"]
