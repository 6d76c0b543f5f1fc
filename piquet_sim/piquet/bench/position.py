"""Position API workloads: what ``PiquetState`` costs a decision (``apply`` plus
``legal_actions``, random legal actions, every phase of whole deals; the random choice itself
not timed), and the start of ``piquet play`` on its --help example, cold (an empty numba cache)
and warm."""

from __future__ import annotations

from ...core.app import bench as bench_core
from ...core.game.position import overhead_row
from ..cli.play import EXAMPLE_HAND, EXAMPLE_HISTORY
from ..position import PiquetState
from . import workload

PLAY_ARGS = ["play", EXAMPLE_HAND, "--younger", "--history", EXAMPLE_HISTORY]


def _deals(seed: int, count: int) -> list[PiquetState]:
    return [PiquetState.from_deal(seed, i) for i in range(count)]


@workload("position overhead")
def position_overhead(quick: bool) -> list[dict]:
    deals = 200 if quick else 2000
    return [overhead_row("position overhead", _deals, deals, deals=deals)]


@workload("start play")
def start_play(quick: bool) -> list[dict]:
    return [bench_core.start_row("start play", PLAY_ARGS)]
