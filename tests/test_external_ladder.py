"""Equal-time ladders (core.study.ladder, the ``external`` command's ``--budget-ms`` and
``--resume``): a run interrupted then resumed from its results file ends with the very margins
of an uninterrupted run on the same deals; the calibration finds the count whose CPU time a
move is the budget; a file made with another seed is refused in one line. Outside players are
stand-ins drawing from their own seeded stream (no extra needed)."""

from __future__ import annotations

import json
import time

import numpy as np

from piquet_sim.core.app import external_cli
from piquet_sim.core.engine.backend import Cancel
from piquet_sim.core.game.position import Decider
from piquet_sim.core.study import arena as core_arena
from piquet_sim.core.study.ladder import LadderFile, Player, calibrate, count_for_budget, ladder
from piquet_sim.pitch.rules import DEFAULT_RULES
from piquet_sim.pitch.studies import arena as pitch_arena


class OwnStream(Decider):
    """A random legal card from its own stream, reseeded per deal (``new_deal``); each
    decision burns ``spin`` x 0.2 ms of CPU (a player whose cost is a count)."""

    def __init__(self, spin: int = 0, seed: int = 7):
        self.rng = np.random.RandomState(seed)
        self.spin = spin
        self.name = f"own-{spin}"

    def new_deal(self, key: int) -> None:
        self.rng.seed(key & 0xFFFFFFFF)

    def choose(self, state) -> int:
        legal = state.legal_actions()
        if len(legal) > 1 and self.spin:
            t0 = time.process_time()
            while time.process_time() - t0 < self.spin * 2e-4:
                pass
        return int(legal[self.rng.randint(len(legal))])


def _run(table, deals, results=None, cancel=None, progress=None):
    outside = [Player("own", True, lambda _n: OwnStream())]
    ours = [Player("heuristic", False, lambda _n: table.our_play("heuristic"))]
    return ladder(table, outside, ours, deals, 1, None, results, progress=progress, cancel=cancel)


def test_an_interrupted_then_resumed_run_equals_an_uninterrupted_one(tmp_path):
    table = pitch_arena(1, DEFAULT_RULES)
    whole = _run(table, 4).data["rows"][0]["margins"]
    path = tmp_path / "ladder.json"
    cancel = Cancel()
    first = _run(table, 4, LadderFile.open(path, table, 1, None), cancel, lambda _n: cancel.set())
    (row,) = first.data["rows"]
    assert first.data["partial"] and row["partial"] and len(row["margins"]) == 1
    assert json.loads(path.read_text())["rows"][0]["margins"] == row["margins"]
    again = _run(table, 4, LadderFile.open(path, table, 1, None))
    (row,) = again.data["rows"]
    assert row["margins"] == whole and row["deals"] == 4 and not row["partial"]
    assert row["moves"]["a"] > 0 and row["move_cpu_seconds"]["a"] >= 0


def test_the_calibration_finds_the_count_of_the_budget():
    table = pitch_arena(1, DEFAULT_RULES)
    player = Player("spin", True, lambda n: OwnStream(n or 1), "spins", (1, 100))
    found = calibrate(table, player, budget_ms=2.0, deals=1)
    assert 7 <= found["count"] <= 13, found  # 0.2 ms a spin
    assert found["probes"][0]["count"] == 4 and found["probes"][0]["moves"] > 0


def test_the_budget_count_is_read_off_every_probe_not_the_last_two():
    # probes of a loaded machine (IS-MCTS in Pilotta at 500 ms): the line through the last
    # two said 78 simulations, a sixth of the time; the line through all three about 285
    probes = [
        {"count": 4, "ms_per_move": 5.411},
        {"count": 370, "ms_per_move": 606.086},
        {"count": 305, "ms_per_move": 582.515},
    ]
    assert 250 <= count_for_budget(probes, 500.0, 10_000) <= 300
    assert count_for_budget(probes[:1], 500.0, 10_000) == 4 * 500.0 / 5.411  # in proportion
    flat = [{"count": 4, "ms_per_move": 0.0}]
    assert count_for_budget(flat, 500.0, 10_000) == 10_000  # no time: the most


def test_resume_through_the_command(run_main, tmp_path, monkeypatch):
    """``--budget-ms`` calibrates a counted outside player once and records it; ``--resume``
    continues the file; another seed is refused in one line."""
    monkeypatch.setitem(
        core_arena.EXTERNAL,
        "spin",
        core_arena.ExternalKind(
            "x:y", "none", "json", ("pitch",), "a stand-in", {"": ("spins", 1)}
        ),
    )
    monkeypatch.setattr(
        external_cli,
        "external_decider",
        lambda game, spec, seed: OwnStream(int(spec.partition(":")[2] or 1)),
    )
    path = tmp_path / "r.json"
    args = ["pitch", "external", "spin", "--against", "heuristic", "--budget-ms", "1"]
    args += ["--resume", str(path), "--quiet", "--json"]
    code, out, err = run_main(*args, "-n", "1")
    assert code == 0, err
    data = json.loads(path.read_text())
    count = data["calibration"]["spin"]["count"]
    assert data["rows"][0]["counts"] == {"a": count, "b": None}
    code, out, err = run_main(*args, "-n", "2")
    assert code == 0, err
    data = json.loads(path.read_text())
    assert len(data["rows"][0]["margins"]) == 2 and len(data["commands"]) == 2
    assert data["calibration"]["spin"]["count"] == count
    code, out, err = run_main(*args, "-n", "2", "--seed", "2")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "made with seed 1" in err
