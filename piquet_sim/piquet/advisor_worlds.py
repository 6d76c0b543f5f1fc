"""The discard advisor's worlds and evaluations, shared by the screen (``advisor``) and the
pimc refine (``advisor_refine``): a candidate's estimates (:class:`CandidateResult`), the
request's worlds by index range (:class:`_WorldSource`) and the evaluator a race calls
(:class:`_Evaluator`).

Perspective: the advising player's net deal points (own minus the opponent's), or the partie
value when one is asked for.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from ..core.engine.stats import Z95, wilson_interval
from .cards import format_cards
from .kernels import advisor as K
from .kernels import layouts as L
from .kernels.bundles import Worlds
from .kernels.refine import pimc_only
from .kernels.screen import table_only
from .simulation import Policies, solver_bits

RACE_Z = 3.0  # a candidate is dropped when the leader beats it by this many paired SEs
MAX_ATTEMPTS = 50_000  # rejection attempts per younger world (then the world is skipped)


def _num(x: float) -> float | None:
    """A float for JSON: None for NaN or infinity (a candidate with too few worlds)."""
    return float(x) if math.isfinite(x) else None


@dataclass
class CandidateResult:
    """Estimates for one discard; ``sums`` are the kernel's ``S_*`` column sums."""

    discard: int
    hand: int
    sums: np.ndarray
    play: str  # the play policy these estimates were measured with
    finalist: bool = False  # survived to the end of its last race
    p_best: float | None = None

    @property
    def samples(self) -> int:
        return int(self.sums[L.ADV_N])

    def mean(self, col: int) -> float:
        n = self.samples
        return float(self.sums[col] / n) if n else float("nan")

    @property
    def ev(self) -> float:
        return self.mean(L.ADV_NET)

    @property
    def se(self) -> float:
        n = self.samples
        if n < 2:
            return float("inf")
        var = (self.sums[L.ADV_NET2] - self.sums[L.ADV_NET] ** 2 / n) / (n - 1)
        return math.sqrt(max(var, 0.0) / n)

    @property
    def ci95(self) -> tuple[float, float]:
        h = Z95 * self.se
        return (self.ev - h, self.ev + h)

    def to_dict(self, carte_rouge: bool) -> dict:
        n = self.samples
        lo, hi = self.ci95
        d = {
            "discard": [c for c in format_cards(self.discard).split()],
            "keep": format_cards(self.hand & ~self.discard).split(),
            "ev": _num(self.ev),
            "ci95": [_num(lo), _num(hi)],
            "se": _num(self.se),
            "samples": n,
            "play": self.play,
            "finalist": self.finalist,
            "declaration_points": self.mean(L.ADV_DECL),
            "opponent_declaration_points": self.mean(L.ADV_DECL_OPP),
            "play_points": self.mean(L.ADV_PLAY),
            "opponent_play_points": self.mean(L.ADV_PLAY_OPP),
        }
        for name, col in PROBABILITIES:
            if name == "p_carte_rouge" and not carte_rouge:
                continue
            d[name] = self.mean(col)
        if self.p_best is not None:
            d["p_best"] = self.p_best
        return d

    def probability(self, col: int) -> tuple[float, tuple[float, float]]:
        n = self.samples
        k = int(round(self.sums[col]))
        return (k / n if n else float("nan"), wilson_interval(k, n))


PROBABILITIES = (
    ("p_win_point", L.ADV_WIN_POINT),
    ("p_win_sequence", L.ADV_WIN_SEQUENCE),
    ("p_win_sets", L.ADV_WIN_SETS),
    ("p_pique", L.ADV_PIQUE),
    ("p_repique", L.ADV_REPIQUE),
    ("p_capot", L.ADV_CAPOT),
    ("p_carte_rouge", L.ADV_CARTE_ROUGE),
    ("p_win_cards", L.ADV_WIN_CARDS),
    ("p_opponent_pique", L.ADV_OPP_PIQUE),
    ("p_opponent_repique", L.ADV_OPP_REPIQUE),
    ("p_opponent_capot", L.ADV_OPP_CAPOT),
)


class _WorldSource:
    """The request's worlds by index ranges (``kernels.advisor.build_worlds``), cached; counts
    the rejection sampling of younger's worlds."""

    def __init__(
        self,
        hand: int,
        role: str,
        elder_took: int | None,
        model: Policies,
        cb_req: int,
        seed: int,
        env,
    ):
        role_id = K.ROLE_ELDER if role == "elder" else K.ROLE_YOUNGER
        self.request = (
            np.int64(role_id),
            np.int64(elder_took or 0),
            np.int64(cb_req),
            np.int64(MAX_ATTEMPTS),
        )
        self.hand = np.int64(hand)
        self.model = model.stages()
        self.seed = seed
        self.env = env
        self.cache: dict[tuple[int, int], Worlds] = {}
        self.accepted = 0
        self.attempts = 0

    def get(self, start: int, n: int) -> Worlds:
        key = (start, n)
        if key not in self.cache:
            if self.request[0] == K.ROLE_ELDER:  # cheap worlds: serial (and faster to compile)
                worlds, attempts = K.build_worlds_serial(
                    self.hand, self.request, self.model, self.seed, start, n, self.env
                )
            else:
                spans = 4 * numba.get_num_threads()
                worlds, attempts = K.build_worlds(
                    self.hand, self.request, self.model, self.seed, start, n, spans, self.env
                )
            self.accepted += int(worlds.valid.sum())
            self.attempts += int(np.where(worlds.valid, attempts, MAX_ATTEMPTS).sum())
            self.cache[key] = worlds
        return self.cache[key]


def evaluation_kernel(mode: int, uses_solver: bool, stages) -> Callable:
    """The evaluation kernel of ``kernels/advisor.py`` for these stages: each path compiles
    only its own (the fast plays never compile the solver, and at the heuristic's defaults not
    its general arithmetic either; pimc without the dd player)."""
    if mode == K.MODE_DECLARE_ONLY:
        return K.declare_evaluate
    if not table_only(stages):
        return K.evaluate
    if uses_solver:
        return K.pimc_evaluate if pimc_only(stages) else K.evaluate
    return K.screen_evaluate


class _Evaluator:
    """Evaluates discards on worlds for a race (``core.racing``): the value of a world is the
    net deal score, or ``value(own, opp)`` (deal totals, arrays) for the partie objective; per
    candidate it accumulates the kernel's ``ADV_*`` sums (their net columns follow the value)."""

    def __init__(self, worlds: _WorldSource, request: Any, discards: np.ndarray, play: str):
        self.worlds = worlds
        self.discards = discards
        self.player = (np.int64(request.hand), np.int64(worlds.request[0]))
        self.mode = K.MODE_DECLARE_ONLY if play == "none" else K.MODE_PLAY
        policies = request.policies(play)
        self.stages = policies.stages()
        self.bits = solver_bits(policies.uses_solver)
        self.kernel = evaluation_kernel(self.mode, policies.uses_solver, self.stages)
        self.value = request.value
        self.sums = np.zeros((len(discards), L.ADV_LEN))

    def run(self, start: int, n: int, chosen: np.ndarray) -> tuple[np.ndarray, np.ndarray, Worlds]:
        """(sums [C, ADV_LEN], values [C, n]) of the ``chosen`` discards on worlds start..; no
        accumulation."""
        w = self.worlds.get(start, n)
        sums, nets, own = self.kernel(
            self.player,
            chosen,
            self.worlds.seed,
            start,
            w,
            self.mode,
            self.stages,
            self.worlds.env,
            4 * numba.get_num_threads(),
            self.bits,
        )
        if self.value is not None:
            own = own.astype(np.int64)
            nets = self.value(own, own - nets)
            sums[:, L.ADV_NET] = np.where(w.valid, nets, 0.0).sum(axis=1)
            sums[:, L.ADV_NET2] = np.where(w.valid, nets * nets, 0.0).sum(axis=1)
        return sums, nets, w

    def __call__(self, alive: np.ndarray, start: int, n: int) -> np.ndarray:
        sums, nets, w = self.run(start, n, self.discards[alive])
        self.sums[alive] += sums
        return nets[:, w.valid]
