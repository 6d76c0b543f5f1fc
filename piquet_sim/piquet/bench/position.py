"""Position API workloads: what ``PiquetState`` costs a decision (``apply`` plus
``legal_actions``, random legal actions, every phase of whole deals; the random choice itself
not timed), and the start of ``piquet play`` on its --help example, cold (an empty numba cache)
and warm."""

from __future__ import annotations

from ...core.app import bench as bench_core
from ...core.app.bench import overhead_row
from ..definition import DEFINITION
from ..position import PiquetState
from . import workload

PLAY_ARGS = DEFINITION.play_example.args()


def _deals(seed: int, count: int) -> list[PiquetState]:
    return [PiquetState.from_deal(seed, i) for i in range(count)]


@workload("position overhead")
def position_overhead(quick: bool) -> list[dict]:
    deals = 200 if quick else 2000
    return [overhead_row("position overhead", _deals, deals, deals=deals)]


@workload("start play")
def start_play(quick: bool) -> list[dict]:
    return [bench_core.start_row("start play", PLAY_ARGS)]
