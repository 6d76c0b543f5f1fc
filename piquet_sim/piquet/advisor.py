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

With ``play="dd"`` every candidate is first screened with greedy play, then the best ``refine``
are raced again with dd play on worlds 0, 1, ...; with ``play="pimc"`` the heuristic screens and
the best ``refine`` are raced with pimc play and the heuristic as a control variate
(``advisor_refine``: the precision target then applies to every candidate still racing at the
end). Candidates that were only screened keep their screening estimates (``"play"`` says which)
and are listed after the refined.

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

import numpy as np

from ..core.engine.racing import RaceRun, RaceSettings, compare_leaders, race
from . import policies as P
from .advisor_worlds import (
    RACE_Z,
    CandidateResult,
    _Evaluator,
    _WorldSource,
)
from .cards import format_cards, mask_to_cards, parse_cards, popcount
from .kernels.bundles import make_env
from .rules import DEFAULT_RULES, Rules
from .simulation import Policies
from .sinking import DEFAULT_OPPONENT

ROLES = ("elder", "younger")
#: "none" scores the declarations only; every play policy of the registry plays the deal.
PLAY_CHOICES = ("none", *P.names("play"))
#: The default play: a heuristic screen of every discard, then a pimc refine of the best
#: ``PIMC_REFINE`` to SE ``PIMC_PRECISION`` (``advisor_refine``): the strongest setting that
#: answers a hand in about ten seconds. On the 200 hands of ``scripts/advisor_agreement.py`` it
#: agreed with the strongest setting on 147 (SE 0.7: 139; the heuristic screen alone: 135) and
#: lost 0.11 points a hand (0.14; 0.17), in about 8 CPU-s a hand (SE 0.7: 5). Its first run
#: compiles the pimc player and solver (in a helper process, ``advisor_warmup``).
DEFAULT_PLAY = "pimc"
#: The refine plays raced with the heuristic as a control variate (``advisor_refine``), at
#: pimc's defaults (``PIMC_REFINE``, ``PIMC_PRECISION``): pimc and its weighted form pimcw
#: (through the full dispatcher, ``kernels/advisor.evaluate``, so its first run compiles it).
CV_PLAYS = ("pimc", "pimcw")
#: The default play when ranking by the partie (``partie`` given): the heuristic screen, whose
#: default precision (0.5 points, 0.005 for P(win)) is in the objective's units.
PARTIE_PLAY = "heuristic"
PIMC_REFINE = 10  # pimc's default refine: the screen's best 10
PIMC_PRECISION = 0.5  # pimc's default SE target (points)
REFINE = 20  # dd's default refine
PRECISION = 0.5  # the other plays' default SE target (points)
#: ``advise(precision=DEFAULT)``: the play's default precision (``PIMC_PRECISION`` or
#: ``PRECISION``); None is no precision target.
DEFAULT = "default"
#: Plays too slow to screen 1,585 discards: a fast play screens, they refine the best.
REFINED_PLAYS = tuple(p.name for p in P.policies("play").values() if p.needs_solver)
CONFIDENT = 5  # the precision target applies to this many best candidates
HALVING_FLOOR = 10  # successive halving stops at this many candidates (racing goes on)
FIRST_ROUND = 64  # worlds every candidate gets before any is dropped
MAX_SAMPLES = 400_000  # default cap on worlds per candidate


class AdviceError(ValueError):
    """A request the advisor cannot answer (bad hand, illegal role options, unavailable play)."""


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
            flat = partie_value(
                self.my_score,
                self.opp_score,
                self.deal,
                role == "elder",
                own.ravel(),
                opp.ravel(),
                self.objective,
                tables,
            )
            return flat.reshape(own.shape)

        return value


@dataclass(frozen=True)
class AdviceRequest:
    """One advice request, validated once (:meth:`make`); see :func:`advise` for the fields."""

    hand: int
    role: str
    elder_took: int | None
    play: str
    max_samples: int
    precision: float | None
    deadline: float | None
    opponent: str
    elder_model: str | None
    elder_carte_blanche: bool
    refine: int
    seed: int
    rules: Rules
    partie: PartieGoal | None
    value: Callable[[np.ndarray, np.ndarray], Any] | None
    refine_all: bool = False  # pimc refine: drop nothing, every refined candidate to precision
    indifference: float | None = None  # pimc refine: the indifference zone (points), None off

    @classmethod
    def make(
        cls,
        hand,
        role,
        elder_took,
        play,
        samples,
        precision,
        time_limit,
        opponent,
        seed,
        rules,
        elder_model,
        elder_carte_blanche,
        refine,
        partie,
        t0,
        refine_all=False,
        indifference=None,
    ) -> AdviceRequest:
        """Check every input (one clear AdviceError) before any work starts."""
        if isinstance(hand, str):
            hand = parse_cards(hand, 12)
        hand = int(hand)
        if popcount(hand) != 12:
            raise AdviceError(f"a hand needs 12 cards, got {popcount(hand)}")
        if role not in ROLES:
            raise AdviceError(f"role must be elder or younger, got {role!r}")
        if play not in PLAY_CHOICES:
            raise AdviceError(f"play must be one of {', '.join(PLAY_CHOICES)}, got {play!r}")
        exchanges = P.names("exchange")
        if opponent not in exchanges:
            raise AdviceError(f"opponent must be one of {', '.join(exchanges)}")
        if role == "younger":
            if elder_took is None or not 1 <= int(elder_took) <= 5:
                raise AdviceError("younger needs --elder-took K with K from 1 to 5")
            elder_model = elder_model or opponent
            if elder_model not in exchanges:
                raise AdviceError(f"elder model must be one of {', '.join(exchanges)}")
        else:
            if elder_took is not None:
                raise AdviceError("--elder-took is for younger only")
            elder_model = None
        if samples is None and precision is None and time_limit is None:
            raise AdviceError("give --samples, --precision or --time-limit")
        if precision is not None and precision <= 0:
            raise AdviceError("precision must be positive")
        if (refine_all or indifference is not None) and play not in CV_PLAYS:
            raise AdviceError("--refine-all and --indifference are options of --play pimc")
        if indifference is not None and not indifference > 0:
            raise AdviceError("indifference must be positive")
        if indifference is not None and partie is not None:
            raise AdviceError("--indifference is in deal points: not with --objective")
        value = None
        if partie is not None:
            value = partie.value_function(role, rules)
            if precision == 0.5 and partie.objective == "win":
                precision = 0.005
        return cls(
            hand,
            role,
            int(elder_took) if elder_took is not None else None,
            play,
            int(samples) if samples is not None else MAX_SAMPLES,
            precision,
            t0 + time_limit if time_limit is not None else None,
            opponent,
            elder_model,
            bool(elder_carte_blanche),
            refine,
            seed,
            rules,
            partie,
            value,
            bool(refine_all),
            float(indifference) if indifference is not None else None,
        )

    @property
    def refines(self) -> bool:
        """True when candidates are screened with a fast play, then refined with ``play``."""
        return self.play in REFINED_PLAYS

    def policies(self, play: str) -> Policies:
        """Both seats: the opponent's exchange policy, ``play`` for both (greedy for "none")."""
        name = "greedy" if play == "none" else play
        return Policies(
            elder_exchange=self.opponent,
            younger_exchange=self.opponent,
            elder_play=name,
            younger_play=name,
        )


def _screen(
    request: AdviceRequest,
    worlds: _WorldSource,
    discards: np.ndarray,
    t0: float,
    progress,
    log: list[dict],
) -> tuple[list[CandidateResult], list[np.ndarray], str, int, list[int]]:
    """Race every candidate with the screening play (the requested one, or greedy before a
    refine). Returns (results, values per candidate, stop reason, evaluations, finalists)."""
    play = screen_play(request.play)
    deadline = request.deadline
    if request.refines and deadline is not None:
        deadline = t0 + 0.25 * (deadline - t0)
    precision = request.precision
    if request.refines:
        precision = max(precision or 0.5, 0.5 if request.value is None else 0.005)
    floor = max(HALVING_FLOOR, request.refine if request.refines else 0)
    settings = RaceSettings(
        precision, request.max_samples, floor, 60_000, deadline, FIRST_ROUND, CONFIDENT, RACE_Z
    )
    results, values, run = _race_plain(
        request, worlds, discards, play, settings, "screen", progress
    )
    log += run.log
    for i in run.alive:
        results[i].finalist = True
    return results, values, run.reason, run.evaluations, list(run.alive)


def _race_plain(
    request: AdviceRequest,
    worlds: _WorldSource,
    discards: np.ndarray,
    play: str,
    settings: RaceSettings,
    phase: str,
    progress,
) -> tuple[list[CandidateResult], list[np.ndarray], RaceRun]:
    """Race ``discards`` with ``play`` on the net (or partie) value of each world: (a result
    per discard, its values on the worlds it saw, the race's run)."""
    ev = _Evaluator(worlds, request, discards, play)
    raced = race(len(discards), ev, settings, phase, progress)
    results = [
        CandidateResult(int(d), request.hand, ev.sums[i], play) for i, d in enumerate(discards)
    ]
    return results, raced.values, raced.run


def screen_play(play: str) -> str:
    """The play that screens every discard: the requested one, or before a refine the refine's
    control play (pimc: the heuristic) or greedy (dd)."""
    if play in CV_PLAYS:
        from .advisor_refine import CONTROL_PLAY

        return CONTROL_PLAY
    return "greedy" if play in REFINED_PLAYS else play


#: ``race_best(sub)``: race the discards ``sub`` with the requested play; (a result per
#: discard, its values on the worlds it saw, the race's run).
RaceBest = Callable[[np.ndarray], tuple[list[CandidateResult], list[np.ndarray], RaceRun]]


def _screen_rank(r: CandidateResult) -> tuple:
    """A screened candidate's place in the refine's choice: the screen's finalists first, then
    the dropped by how long they raced (a candidate dropped in a later round beat those dropped
    earlier on more worlds), then by EV among those that saw the same worlds. Ranking by EV
    alone let a discard dropped after the first round's few worlds, whose EV there is noisy and
    may sit above the finalists', take a refine place from a finalist."""
    return (not r.finalist, -r.samples, -r.ev if r.samples else math.inf)


def _refine(
    request: AdviceRequest,
    discards: np.ndarray,
    results: list[CandidateResult],
    race_best: RaceBest,
    log: list[dict],
) -> tuple:
    """Race the best ``refine`` screened candidates again (``race_best``: with the requested
    play on worlds 0, 1, ...); their results replace the screened ones and only those still
    racing at the end are finalists. Returns (values per candidate, stop reason, evaluations,
    finalists, the candidates an indifference zone judged tied with the leader or None)."""
    screened = sorted(range(len(results)), key=lambda i: _screen_rank(results[i]))[: request.refine]
    refined, refined_values, run = race_best(discards[screened])
    log += run.log
    values = [np.zeros(0)] * len(results)
    for r in results:
        r.finalist = False
    for j, i in enumerate(screened):
        results[i] = refined[j]
        values[i] = refined_values[j]
    finalists = [screened[j] for j in run.alive]
    for i in finalists:
        results[i].finalist = True
    tied = None if run.tied is None else [screened[j] for j in run.tied]
    return values, run.reason, run.evaluations, finalists, tied


def _race_refined(request: AdviceRequest, worlds: _WorldSource, sub: np.ndarray, progress):
    """The plain refine (dd): the precision target on the five best, halving to the floor."""
    settings = RaceSettings(
        request.precision,
        request.max_samples,
        HALVING_FLOOR,
        400,
        request.deadline,
        FIRST_ROUND,
        CONFIDENT,
        RACE_Z,
    )
    return _race_plain(request, worlds, sub, request.play, settings, "refine", progress)


def default_settings(
    play: str | None, precision: float | str | None, refine: int | None, partie
) -> tuple[str, float | None, int]:
    """(play, precision, refine) with the defaults filled in: play ``DEFAULT_PLAY`` (pimc), or
    ``PARTIE_PLAY`` (heuristic) when ranking by the partie; precision ``DEFAULT`` is
    ``PIMC_PRECISION`` with pimc ranking by the deal, else ``PRECISION`` (in the partie's units:
    0.5 becomes 0.005 for P(win), :meth:`AdviceRequest.make`); refine None is ``PIMC_REFINE``
    with pimc ranking by the deal, else ``REFINE``. A value given explicitly is kept."""
    if play is None:
        play = DEFAULT_PLAY if partie is None else PARTIE_PLAY
    pimc_deal = play in CV_PLAYS and partie is None
    if precision == DEFAULT:
        precision = PIMC_PRECISION if pimc_deal else PRECISION
    if refine is None:
        refine = PIMC_REFINE if pimc_deal else REFINE
    return play, precision, refine


def advise(
    hand: int | str,
    role: str = "elder",
    elder_took: int | None = None,
    play: str | None = None,
    samples: int | None = None,
    precision: float | str | None = DEFAULT,
    time_limit: float | None = None,
    top: int = 10,
    opponent: str = DEFAULT_OPPONENT,
    seed: int = 1,
    rules: Rules = DEFAULT_RULES,
    elder_model: str | None = None,
    elder_carte_blanche: bool = False,
    refine: int | None = None,
    progress: Callable[[dict], None] | None = None,
    partie: PartieGoal | None = None,
    refine_all: bool = False,
    indifference: float | None = None,
) -> AdviceResult:
    """Rank every legal discard of ``hand`` (12 cards, mask or text) for ``role``.

    ``elder_took``: younger only, how many cards elder exchanged (1..5). ``play``: "none"
    (declarations only), "heuristic", "greedy", "random", "dd" or "pimc" (screen every discard
    with greedy play, or the heuristic for pimc, then refine the best ``refine`` with that play;
    pimc's refine estimates with the heuristic as control variate). Default
    (:func:`default_settings`): pimc, refine 10, precision 0.5; with ``partie`` the heuristic,
    precision 0.5 (0.005 for P(win)); dd refines 20. ``samples``: the most worlds any candidate
    gets; ``precision``: stop when the five best (pimc: every candidate still racing) have a
    standard error at most this (points; None: no target); ``time_limit`` seconds.
    ``opponent``: the opponent's exchange policy (``policies.py``; default the heuristic, the
    strongest fast one: greedy until the agreement re-run of 2026-12); both players play by
    ``play``. ``elder_model``: younger only, the policy elder's exchange is modelled by
    (default ``opponent``); ``elder_carte_blanche``: younger only, whether elder showed carte
    blanche. ``top``: rows a report shows (the ranking itself never
    depends on it; every candidate is in the result). EV and probabilities are the advising
    player's: own minus opponent. ``partie``: rank by the partie instead of the deal (P(win the
    partie) or expected settlement from the score before this deal); ``ev`` is then that value and
    ``precision`` is in its units (default 0.005 for P(win)). With ``play="pimc"``:
    ``refine_all`` drops no refined candidate, so each reaches SE <= ``precision``;
    ``indifference`` (points) stops the refine once the candidates still racing are each within
    that much of the leader or clearly worse, at the race's confidence, and reports the former
    as tied (``advisor_refine``).
    """
    t0 = time.perf_counter()
    play, precision, refine = default_settings(play, precision, refine, partie)
    request = AdviceRequest.make(
        hand,
        role,
        elder_took,
        play,
        samples,
        precision,
        time_limit,
        opponent,
        seed,
        rules,
        elder_model,
        elder_carte_blanche,
        refine,
        partie,
        t0,
        refine_all,
        indifference,
    )
    discards = np.array(candidates_for(request.hand, role, request.elder_took, rules), np.int64)
    worlds = _world_source(request)
    log: list[dict] = []
    results, values, reason, evals, finalists = _screen(
        request, worlds, discards, t0, progress, log
    )
    tied = None
    if request.refines and reason != "interrupted":
        if request.play in CV_PLAYS:
            from .advisor_refine import race_cv as race_best
        else:
            race_best = _race_refined
        values, reason, r_evals, finalists, tied = _refine(
            request,
            discards,
            results,
            lambda sub: race_best(request, worlds, sub, progress),
            log,
        )
        evals += r_evals
    return _assemble(request, results, values, finalists, tied, reason, evals, log, worlds, t0)


def _world_source(request: AdviceRequest) -> _WorldSource:
    """The request's worlds; for younger, a one-line error when elder's model almost never takes
    the cards elder took from hands consistent with the player's."""
    model = Policies(elder_exchange=request.elder_model or "greedy")
    cb_req = -1 if request.role == "elder" else int(request.elder_carte_blanche)
    worlds = _WorldSource(
        request.hand,
        request.role,
        request.elder_took,
        model,
        cb_req,
        request.seed,
        make_env(request.rules.to_array()),
    )
    if request.role == "younger" and not worlds.get(0, FIRST_ROUND).valid.all():
        raise AdviceError(
            f"elder's model ({request.elder_model}) took {request.elder_took} cards in "
            f"{worlds.accepted} of {worlds.attempts} elder hands consistent with yours; "
            "too unlikely to sample (try another --elder-model)"
        )
    return worlds


def _assemble(
    request: AdviceRequest,
    results: list[CandidateResult],
    values: list[np.ndarray],
    finalists: list[int],
    tied: list[int] | None,
    reason: str,
    evals: int,
    log: list[dict],
    worlds: _WorldSource,
    t0: float,
) -> AdviceResult:
    """Order the candidates (finalists by EV, then the dropped by EV, then the screened-only)
    and compare the leaders on their shared worlds; with an indifference zone, list the
    candidates it judged ``tied`` with the leader."""
    if reason == "interrupted" and request.refines and not finalists:
        finalists = []

    def sort_key(i: int):
        r = results[i]
        measured = r.play == request.play or not request.refines
        return (not measured, not r.finalist, -r.ev if r.samples else math.inf)

    order = sorted(range(len(results)), key=sort_key)
    leaders = sorted(finalists, key=lambda i: -results[i].ev)[:CONFIDENT]
    p_best, comparison = compare_leaders([values[i] for i in leaders], request.seed)
    if request.indifference is not None:  # only with the option: other outputs keep their form
        comparison["indifference"] = {
            "delta": request.indifference,
            "tied_with_best": [format_cards(results[i].discard).split() for i in tied or []],
        }
    for i, p in zip(leaders, p_best, strict=True):
        results[i].p_best = p
    return AdviceResult(
        hand=request.hand,
        role=request.role,
        elder_took=request.elder_took,
        play=request.play,
        opponent=request.opponent,
        elder_model=request.elder_model,
        seed=request.seed,
        rules=request.rules,
        candidates=[results[i] for i in order],
        stop_reason=reason,
        seconds=time.perf_counter() - t0,
        worlds=max((r.samples for r in results), default=0),
        acceptance=(worlds.accepted / worlds.attempts) if request.role == "younger" else None,
        evaluations=evals,
        comparison=comparison,
        rounds=log,
        precision=request.precision,
        interrupted=reason == "interrupted",
        partie=request.partie,
    )


def world_values(
    hand: int | str,
    discards: list[int],
    role: str = "elder",
    elder_took: int | None = None,
    play: str = "greedy",
    n_worlds: int = 256,
    opponent: str = DEFAULT_OPPONENT,
    seed: int = 1,
    rules: Rules = DEFAULT_RULES,
    elder_model: str | None = None,
    start: int = 0,
) -> tuple[np.ndarray, dict]:
    """Net deal points (own minus opponent, int16[len(discards), n_worlds]) of the given discards
    on worlds start..start+n_worlds-1 of ``seed``, the worlds ``advise`` uses; and the worlds
    themselves ({"opponent", "talon", "valid", "elder_discard"}). A world never depends on which
    discards are evaluated with it (common random numbers)."""
    request = AdviceRequest.make(
        hand,
        role,
        elder_took,
        play,
        n_worlds,
        None,
        None,
        opponent,
        seed,
        rules,
        elder_model,
        False,
        0,
        None,
        0.0,
    )
    worlds = _WorldSource(
        request.hand,
        role,
        request.elder_took,
        Policies(elder_exchange=request.elder_model or "greedy"),
        -1 if role == "elder" else 0,
        seed,
        make_env(rules.to_array()),
    )
    ev = _Evaluator(worlds, request, np.asarray(discards, dtype=np.int64), play)
    _, nets, w = ev.run(start, n_worlds, ev.discards)
    info = {"opponent": w.opp, "talon": w.talons, "valid": w.valid, "elder_discard": w.e_disc}
    return nets, info
