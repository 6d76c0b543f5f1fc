"""Discard advisor: rank every legal exchange of a 12-card hand by expected net deal score.

Perspective: the advising player ("own"), points are deal points, net = own total minus the
opponent's (pique, repique, capot included). Every legal discard is a candidate (elder: 1 to 5
cards, 1,585 for a hand; younger: what the rules allow after elder took K) and all candidates are
measured on the same worlds (common random numbers): world w of a request is keyed by
(seed, w), fixing the opponent's hand, the talon order and every later random draw. Candidates
race: after each round, those clearly worse than the leader on the worlds they share (paired
difference more than ``RACE_Z`` standard errors) are dropped, and while many remain the worse half
by mean goes too; survivors get more worlds (always the prefix 0..N-1 shared by all), until the
five best have a standard error at most ``precision`` (or ``samples`` worlds, or the time limit).

With ``play="dd"`` (or "pimc") every candidate is first screened with greedy play, then the best
``refine`` are raced again with the requested play on worlds 0, 1, ...; candidates that were only
screened keep their greedy-play estimates (``"play": "greedy"``) and are listed after the refined.

Order of the result, best first: the finalists (still racing at the end, all on the same worlds) by
EV, then the dropped candidates by EV (each with its own, smaller, sample count): a dropped
candidate's mean on fewer worlds is not comparable to a finalist's, and it was dropped because it
lost to the leader on the worlds they shared.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numba
import numpy as np

from ..core.stats import Z95, wilson_interval
from .cards import format_cards, mask_to_cards, parse_cards, popcount
from .kernels import advisor as K
from .kernels import layouts as L
from .kernels.exchange import EXCHANGE_POLICIES
from .kernels.play import PLAY_POLICIES as KERNEL_PLAY_POLICIES
from .kernels.tables import SUIT_TABLES
from .rules import DEFAULT_RULES, Rules
from .simulation import DD_TT_BITS, SHARED_SOLVER_TABLES, Policies

ROLES = ("elder", "younger")
PLAY_CHOICES = ("none", "greedy", "dd", "pimc")
RACE_Z = 3.0  # a candidate is dropped when the leader beats it by this many paired SEs
CONFIDENT = 5  # the precision target applies to this many best candidates
HALVING_FLOOR = 10  # successive halving stops at this many candidates (racing goes on)
FIRST_ROUND = 64  # worlds every candidate gets before any is dropped
MAX_SAMPLES = 400_000  # default cap on worlds per candidate
MAX_ATTEMPTS = 50_000  # rejection attempts per younger world (then the world is skipped)
P_BEST_DRAWS = 20_000


def _num(x: float) -> float | None:
    """A float for JSON: None for NaN or infinity (a candidate with too few worlds)."""
    return float(x) if math.isfinite(x) else None


class AdviceError(ValueError):
    """A request the advisor cannot answer (bad hand, illegal role options, unavailable play)."""


def pimc_available() -> bool:
    """True when the play kernels offer a "pimc" policy."""
    return "pimc" in KERNEL_PLAY_POLICIES


def candidates_for(hand: int, role: str, elder_took: int | None, rules: Rules) -> list[int]:
    """Every legal discard (masks), by size then card order. Elder: 1..5 cards; younger after
    elder took K: 1..8-K cards (0..8-K when younger need not exchange)."""
    cards = mask_to_cards(hand)
    if role == "elder":
        sizes = range(1, 6)
    else:
        lo = 1 if rules.younger_must_exchange else 0
        sizes = range(lo, 8 - int(elder_took) + 1)
    out = []
    for size in sizes:
        for combo in combinations(cards, size):
            out.append(sum(1 << c for c in combo))
    return out


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


@dataclass
class AdviceResult:
    """The ranking (``candidates``, best first) and how it was measured."""

    hand: int
    role: str
    elder_took: int | None
    play: str
    opponent: str
    elder_model: str | None
    seed: int
    rules: Rules
    candidates: list[CandidateResult]
    stop_reason: str
    seconds: float
    worlds: int  # worlds the leaders saw (the longest prefix)
    acceptance: float | None  # younger: accepted worlds / attempts
    evaluations: int
    comparison: dict = field(default_factory=dict)
    rounds: list[dict] = field(default_factory=list)
    precision: float | None = None
    interrupted: bool = False
    partie: PartieGoal | None = None

    @property
    def objective(self) -> str:
        """What ``ev`` measures: "deal" (net points), "win" (P(win the partie)), "settlement"."""
        return self.partie.objective if self.partie is not None else "deal"

    @property
    def best(self) -> CandidateResult:
        return self.candidates[0]

    def to_dict(self) -> dict:
        """JSON-ready: hand, role, settings, candidates sorted best first, the comparison of the
        leaders (probability each is best, gap to the runner-up), how the run stopped."""
        return {
            "hand": format_cards(self.hand).split(),
            "role": self.role,
            "elder_took": self.elder_took,
            "play": self.play,
            "opponent": self.opponent,
            "elder_model": self.elder_model,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "precision": self.precision,
            "objective": self.objective,
            "partie": None if self.partie is None else vars(self.partie),
            "stop_reason": self.stop_reason,
            "interrupted": self.interrupted,
            "seconds": self.seconds,
            "worlds": self.worlds,
            "evaluations": self.evaluations,
            "acceptance_rate": self.acceptance,
            "comparison": self.comparison,
            "rounds": self.rounds,
            "candidates": [c.to_dict(self.rules.carte_rouge) for c in self.candidates],
        }


class _Worlds:
    """Builds (and caches) worlds of one request by index ranges; tracks rejection counts."""

    def __init__(self, hand, role, elder_took, e_policy, e_params, cb_req, seed, rules):
        self.args = (
            np.int64(hand), K.ROLE_ELDER if role == "elder" else K.ROLE_YOUNGER,
            int(elder_took or 0), np.int32(e_policy), e_params, int(cb_req), MAX_ATTEMPTS,
        )  # fmt: skip
        self.seed = seed
        self.rules = rules
        self.cache: dict[tuple[int, int], tuple] = {}
        self.accepted = 0
        self.attempts = 0

    def get(self, start: int, n: int) -> tuple:
        key = (start, n)
        if key not in self.cache:
            n_spans = 1 if self.args[1] == K.ROLE_ELDER else 4 * numba.get_num_threads()
            w = K.build_worlds(*self.args, self.seed, start, n, n_spans, SUIT_TABLES, self.rules)
            opp, talons, s0, e_disc, attempts = w
            valid = attempts > 0
            self.accepted += int(valid.sum())
            self.attempts += int(np.where(valid, attempts, MAX_ATTEMPTS).sum())
            self.cache[key] = (opp, talons, s0, e_disc, valid)
        return self.cache[key]


class _Stop(Exception):
    pass


def _race(
    worlds: _Worlds,
    hand: int,
    role: str,
    discards: np.ndarray,
    mode: int,
    policies: Policies,
    precision: float | None,
    max_samples: int,
    floor: int,
    budget: int,
    deadline: float | None,
    progress: Callable[[dict], None] | None,
    phase: str,
    log: list[dict],
    value: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray, list[np.ndarray], str, int]:
    """Race ``discards``; returns (sums [C, N_STATS], alive indices, per-candidate value arrays
    over the valid worlds it saw, stop reason, evaluations).

    The value of a world is the net deal score, or ``value(own, opp)`` (deal totals, arrays) when
    given: the partie objective. Its sums replace the net's, so every statistic follows it."""
    ids, params = policies.arrays()
    bits = DD_TT_BITS if policies.uses_solver else 1
    rules_arr = worlds.rules_arr
    n_cand = len(discards)
    sums = np.zeros((n_cand, L.ADV_LEN))
    nets: list[list[np.ndarray]] = [[] for _ in range(n_cand)]
    alive = np.arange(n_cand)
    seen = 0  # worlds 0..seen-1 evaluated by every alive candidate
    target = min(FIRST_ROUND, max_samples)
    evaluations = 0
    reason = "samples"
    rnd = 0
    while True:
        try:
            while seen < target:
                step = max(1, min(target - seen, budget // len(alive)))
                opp, talons, s0, e_disc, valid = worlds.get(seen, step)
                s, nt, own = K.evaluate(
                    np.int64(hand), worlds.args[1], discards[alive], worlds.seed, seen, opp,
                    talons, s0, e_disc, valid, mode, ids, params, SUIT_TABLES, rules_arr,
                    4 * numba.get_num_threads(), bits, policies.uses_solver,
                    SHARED_SOLVER_TABLES,
                )  # fmt: skip
                if value is not None:
                    opp_total = own.astype(np.int64) - nt
                    nt = value(own.astype(np.int64), opp_total)
                    s[:, L.ADV_NET] = np.where(valid, nt, 0.0).sum(axis=1)
                    s[:, L.ADV_NET2] = np.where(valid, nt * nt, 0.0).sum(axis=1)
                sums[alive] += s
                nt = nt[:, valid]
                for i, c in enumerate(alive):
                    nets[c].append(nt[i])
                seen += step
                evaluations += step * len(alive)
                if progress is not None:
                    progress({"phase": phase, "round": rnd, "alive": len(alive), "worlds": seen,
                              "target": target, "evaluations": step * len(alive)})  # fmt: skip
                if deadline is not None and time.perf_counter() > deadline:
                    raise _Stop("time limit")
        except _Stop as stop:
            reason = str(stop)
            break
        except KeyboardInterrupt:
            reason = "interrupted"
            break
        rnd += 1
        # statistics of the alive candidates on their shared worlds
        mat = np.stack([np.concatenate(nets[c]) for c in alive]).astype(np.float64)
        n = mat.shape[1]
        means = mat.mean(axis=1)
        sds = mat.std(axis=1, ddof=1) if n > 1 else np.full(len(alive), np.inf)
        order = np.argsort(-means, kind="stable")
        lead = order[0]
        top = order[: min(CONFIDENT, len(alive))]
        entry = {"phase": phase, "round": rnd, "worlds": seen, "alive": len(alive)}
        if precision is not None and n > 1 and np.all(sds[top] / math.sqrt(n) <= precision):
            reason = "precision"
            log.append(entry | {"kept": len(alive)})
            break
        if seen >= max_samples:
            reason = "samples"
            log.append(entry | {"kept": len(alive)})
            break
        diff = mat[lead] - mat
        d_mean = diff.mean(axis=1)
        d_se = diff.std(axis=1, ddof=1) / math.sqrt(n) if n > 1 else np.full(len(alive), np.inf)
        keep = ~(d_mean > RACE_Z * d_se)
        keep[order[:CONFIDENT]] = True  # the five best always go on (their SEs are the target)
        if keep.sum() > floor:  # successive halving while many remain
            ranked = [i for i in order if keep[i]]
            cut = max(floor, (len(ranked) + 1) // 2)
            keep[:] = False
            keep[ranked[:cut]] = True
        alive = alive[np.sort(np.flatnonzero(keep))]
        log.append(entry | {"kept": len(alive)})
        if len(alive) > floor:
            nxt = 2 * seen
        else:
            kept_sd = sds[[i for i in order if keep[i]][: min(CONFIDENT, len(alive))]]
            need = seen
            if precision is not None and np.all(np.isfinite(kept_sd)):
                need = int(math.ceil(1.05 * (kept_sd.max() / precision) ** 2))
            nxt = max(seen + FIRST_ROUND, min(need, 4 * seen))
        target = min(max_samples, nxt)
    net_arrays = [np.concatenate(x) if x else np.zeros(0) for x in nets]
    return sums, alive, net_arrays, reason, evaluations


def _compare(leaders: list[CandidateResult], nets: list[np.ndarray], seed: int) -> dict:
    """Probability each leader is truly best (normal approximation to the joint sampling
    distribution of the means on shared worlds) and the paired gap of the best to the second."""
    if len(leaders) < 2:
        if leaders:
            leaders[0].p_best = 1.0
        return {"distinguishable": True, "note": "only one candidate"}
    n = min(len(x) for x in nets)
    mat = np.stack([x[:n] for x in nets]).astype(np.float64)
    means = mat.mean(axis=1)
    cov = np.cov(mat) / n
    rng = np.random.default_rng(seed)
    draws = rng.multivariate_normal(means, cov, size=P_BEST_DRAWS, method="eigh")
    # ties (identical candidates on every world) share the win
    best = draws.max(axis=1, keepdims=True)
    wins = (draws >= best - 1e-12).astype(float)
    wins /= wins.sum(axis=1, keepdims=True)
    p_best = wins.mean(axis=0)
    for c, p in zip(leaders, p_best, strict=True):
        c.p_best = float(p)
    d = mat[0] - mat[1]
    gap = float(d.mean())
    se = float(d.std(ddof=1) / math.sqrt(n)) if n > 1 else float("inf")
    identical = bool(np.all(d == 0))
    lo, hi = gap - Z95 * se, gap + Z95 * se
    return {
        "worlds": n,
        "p_best": [float(p) for p in p_best],
        "gap_to_second": gap,
        "gap_ci95": [lo, hi],
        "gap_se": se,
        "identical_on_every_world": identical,
        "distinguishable": bool(lo > 0),
    }


@dataclass(frozen=True)
class PartieGoal:
    """Rank exchanges by the partie, not the deal: the score before this deal (``my_score``,
    ``opp_score``), the deal's number (1-based: 1..6 in a Rubicon partie) and the objective,
    "win" (probability of winning the partie) or "settlement" (expected settlement, points).
    Deal outcomes are mapped to partie values by ``partie.partie_value`` with greedy play on both
    sides after this deal."""

    my_score: int
    opp_score: int
    deal: int
    objective: str = "win"

    def value_function(self, role: str, rules: Rules) -> Callable[[np.ndarray, np.ndarray], Any]:
        from .partie import OBJECTIVES, cached_tables, partie_value

        if self.objective not in OBJECTIVES:
            raise AdviceError(f"objective must be one of deal, {', '.join(OBJECTIVES)}")
        if self.my_score < 0 or self.opp_score < 0:
            raise AdviceError("partie scores must be 0 or more")
        tables = cached_tables(rules=rules)
        last = tables.values.shape[0] - 1
        if not 1 <= self.deal <= last:
            raise AdviceError(f"--deal must be 1..{last} under game={rules.game}, got {self.deal}")

        def value(own: np.ndarray, opp: np.ndarray) -> np.ndarray:
            flat = partie_value(self.my_score, self.opp_score, self.deal, role == "elder",
                                own.ravel(), opp.ravel(), self.objective, tables)  # fmt: skip
            return flat.reshape(own.shape)

        return value


def advise(
    hand: int | str,
    role: str = "elder",
    elder_took: int | None = None,
    play: str = "greedy",
    samples: int | None = None,
    precision: float | None = 0.5,
    time_limit: float | None = None,
    top: int = 10,
    opponent: str = "greedy",
    seed: int = 1,
    rules: Rules = DEFAULT_RULES,
    elder_model: str | None = None,
    elder_carte_blanche: bool = False,
    refine: int = 20,
    progress: Callable[[dict], None] | None = None,
    partie: PartieGoal | None = None,
) -> AdviceResult:
    """Rank every legal discard of ``hand`` (12 cards, mask or text) for ``role``.

    ``elder_took``: younger only, how many cards elder exchanged (1..5). ``play``: "none"
    (declarations only), "greedy", "dd" (screen with greedy, refine the best ``refine`` with
    double-dummy play) or "pimc" (when available). ``samples``: the most worlds any candidate
    gets; ``precision``: stop when the five best have a standard error at most this (points);
    ``time_limit`` seconds. ``opponent``: the opponent's exchange policy (random, max, greedy);
    both players play by ``play``. ``elder_model``: younger only, the policy elder's exchange is
    modelled by (default ``opponent``); ``elder_carte_blanche``: younger only, whether elder
    showed carte blanche. ``top``: rows a report shows (the ranking itself never depends on it;
    every candidate is in the result). EV and probabilities are the advising player's: own minus
    opponent. ``partie``: rank by the partie instead of the deal (P(win the partie) or expected
    settlement from the score before this deal); ``ev`` is then that value and ``precision`` is in
    its units (default 0.005 for P(win)).
    """
    t0 = time.perf_counter()
    if isinstance(hand, str):
        hand = parse_cards(hand, 12)
    hand = int(hand)
    if popcount(hand) != 12:
        raise AdviceError(f"a hand needs 12 cards, got {popcount(hand)}")
    if role not in ROLES:
        raise AdviceError(f"role must be elder or younger, got {role!r}")
    if play not in PLAY_CHOICES:
        raise AdviceError(f"play must be one of {', '.join(PLAY_CHOICES)}, got {play!r}")
    if play == "pimc" and not pimc_available():
        raise AdviceError("--play pimc is not available yet (no pimc play policy in this build)")
    if opponent not in EXCHANGE_POLICIES:
        raise AdviceError(f"opponent must be one of {', '.join(EXCHANGE_POLICIES)}")
    if role == "younger":
        if elder_took is None or not 1 <= int(elder_took) <= 5:
            raise AdviceError("younger needs --elder-took K with K from 1 to 5")
        elder_model = elder_model or opponent
        if elder_model not in EXCHANGE_POLICIES:
            raise AdviceError(f"elder model must be one of {', '.join(EXCHANGE_POLICIES)}")
    else:
        if elder_took is not None:
            raise AdviceError("--elder-took is for younger only")
        elder_model = None
    if samples is None and precision is None and time_limit is None:
        raise AdviceError("give --samples, --precision or --time-limit")
    if precision is not None and precision <= 0:
        raise AdviceError("precision must be positive")
    value = None
    if partie is not None:
        value = partie.value_function(role, rules)
        if precision == 0.5 and partie.objective == "win":
            precision = 0.005
    max_samples = int(samples) if samples is not None else MAX_SAMPLES
    deadline = t0 + time_limit if time_limit is not None else None

    discards = np.array(candidates_for(hand, role, elder_took, rules), dtype=np.int64)
    model_id = EXCHANGE_POLICIES[elder_model or "greedy"]
    e_params = Policies(elder_exchange=elder_model or "greedy").arrays()[1][L.STAGE_ELDER_EXCHANGE]
    cb_req = -1 if role == "elder" else int(bool(elder_carte_blanche))
    worlds = _Worlds(hand, role, elder_took, model_id, e_params, cb_req, seed, rules.to_array())
    worlds.rules_arr = rules.to_array()
    if role == "younger":
        _, _, _, _, valid = worlds.get(0, FIRST_ROUND)
        if not valid.all():
            raise AdviceError(
                f"elder's model ({elder_model}) took {elder_took} cards in "
                f"{worlds.accepted} of {worlds.attempts} elder hands consistent with yours; "
                "too unlikely to sample (try another --elder-model)"
            )

    def policies_for(p: str) -> Policies:
        name = "greedy" if p == "none" else p
        return Policies(elder_exchange=opponent, younger_exchange=opponent,
                        elder_play=name, younger_play=name)  # fmt: skip

    log: list[dict] = []
    refine_play = play in ("dd", "pimc")
    screen_play = "greedy" if refine_play else play
    mode = K.MODE_DECLARE_ONLY if play == "none" else K.MODE_PLAY
    screen_deadline = deadline
    if refine_play and deadline is not None:
        screen_deadline = t0 + 0.25 * time_limit
    floor = max(HALVING_FLOOR, refine if refine_play else 0)
    sums, alive, nets, reason, evals = _race(
        worlds, hand, role, discards, mode, policies_for(screen_play),
        precision if not refine_play else max(precision or 0.5, 0.5 if value is None else 0.005),
        max_samples, floor, 60_000, screen_deadline, progress, "screen", log, value,
    )  # fmt: skip
    results = [CandidateResult(int(d), hand, sums[i], screen_play) for i, d in enumerate(discards)]
    for i in alive:
        results[i].finalist = True
    final_idx = list(alive)
    final_nets = nets
    if refine_play and reason != "interrupted":
        screened = sorted(range(len(results)), key=lambda i: -results[i].ev)[:refine]
        sub = discards[screened]
        budget = 400
        r_sums, r_alive, r_nets, reason, r_evals = _race(
            worlds, hand, role, sub, K.MODE_PLAY, policies_for(play), precision, max_samples,
            HALVING_FLOOR, budget, deadline, progress, "refine", log, value,
        )  # fmt: skip
        evals += r_evals
        for r in results:
            r.finalist = False
        final_idx = []
        final_nets = [np.zeros(0, np.int16)] * len(results)
        for j, i in enumerate(screened):
            results[i] = CandidateResult(int(sub[j]), hand, r_sums[j], play)
            final_nets[i] = r_nets[j]
        for j in r_alive:
            results[screened[j]].finalist = True
            final_idx.append(screened[j])
        if reason == "interrupted" and not r_alive.size:
            final_idx = []

    def sort_key(i: int):
        r = results[i]
        measured = r.play == play or not refine_play
        return (not measured, not r.finalist, -r.ev if r.samples else math.inf)

    order = sorted(range(len(results)), key=sort_key)
    leaders = sorted(final_idx, key=lambda i: -results[i].ev)[:CONFIDENT]
    comparison = _compare([results[i] for i in leaders], [final_nets[i] for i in leaders], seed)
    return AdviceResult(
        hand=hand,
        role=role,
        elder_took=int(elder_took) if elder_took is not None else None,
        play=play,
        opponent=opponent,
        elder_model=elder_model,
        seed=seed,
        rules=rules,
        candidates=[results[i] for i in order],
        stop_reason=reason,
        seconds=time.perf_counter() - t0,
        worlds=max((r.samples for r in results), default=0),
        acceptance=(worlds.accepted / worlds.attempts) if role == "younger" else None,
        evaluations=evals,
        comparison=comparison,
        rounds=log,
        precision=precision,
        interrupted=reason == "interrupted",
        partie=partie,
    )


def world_values(
    hand: int | str,
    discards: list[int],
    role: str = "elder",
    elder_took: int | None = None,
    play: str = "greedy",
    n_worlds: int = 256,
    opponent: str = "greedy",
    seed: int = 1,
    rules: Rules = DEFAULT_RULES,
    elder_model: str | None = None,
    start: int = 0,
) -> tuple[np.ndarray, dict]:
    """Net deal points (own minus opponent, int16[len(discards), n_worlds]) of the given discards
    on worlds start..start+n_worlds-1 of ``seed``, the worlds ``advise`` uses; and the worlds
    themselves ({"opponent", "talon", "valid", "elder_discard"}). A world never depends on which
    discards are evaluated with it (common random numbers)."""
    if isinstance(hand, str):
        hand = parse_cards(hand, 12)
    if play not in ("none", "greedy", "dd") and not (play == "pimc" and pimc_available()):
        raise AdviceError(f"play {play!r} is not available")
    model = elder_model or opponent
    e_params = Policies(elder_exchange=model).arrays()[1][L.STAGE_ELDER_EXCHANGE]
    cb_req = -1 if role == "elder" else 0
    worlds = _Worlds(
        int(hand), role, elder_took, EXCHANGE_POLICIES[model], e_params, cb_req, seed,
        rules.to_array(),
    )  # fmt: skip
    worlds.rules_arr = rules.to_array()
    opp, talons, s0, e_disc, valid = worlds.get(start, n_worlds)
    name = "greedy" if play == "none" else play
    policies = Policies(elder_exchange=opponent, younger_exchange=opponent,
                        elder_play=name, younger_play=name)  # fmt: skip
    ids, params = policies.arrays()
    _, nets, _ = K.evaluate(
        np.int64(hand), worlds.args[1], np.asarray(discards, dtype=np.int64), seed, start, opp,
        talons, s0, e_disc, valid, K.MODE_DECLARE_ONLY if play == "none" else K.MODE_PLAY, ids,
        params, SUIT_TABLES, worlds.rules_arr, 4 * numba.get_num_threads(),
        DD_TT_BITS if policies.uses_solver else 1, policies.uses_solver, SHARED_SOLVER_TABLES,
    )  # fmt: skip
    info = {"opponent": opp, "talon": talons, "valid": valid, "elder_discard": e_disc}
    return nets, info
