"""The pimc refine of the discard advisor, with the heuristic as a control variate.

One pimc deal's net score varies by about 40 points, but on the same world (same opponent hand,
talon and first random draws) it stays close to the heuristic play's score: their difference
varies by about 3-13 points. So a candidate's pimc EV is estimated as

    EV = mean of h over worlds 0..N-1  +  mean of d = (pimc - h) over worlds 0..n-1,  n <= N,

with h the heuristic's net on a world (cheap: N is tens of thousands) and d the paired
difference on the first n worlds (the expensive part). Both means are unbiased, so EV is the
pimc EV (the control's coefficient is fixed at 1: no fitted coefficient, no bias). On a shared
prefix of worlds its variance is (see :func:`cv_mean_se`)

    var(h)/N + var(d)/n + 2 cov(h, d)/N.

Candidates race on the same estimator applied to paired differences (candidate minus the
leader, on the same worlds): one is dropped when it is more than ``RACE_Z`` SEs of that
difference behind, never before ``FIRST_ROUND`` worlds (the differences are heavy-tailed, so a
small sample's SD can be far under the true one); optionally the pair's SD is floored at
``PAIR_SD_FLOOR`` times the round's median over the pairs (off). The precision target (SE <=
``precision``) applies to every candidate still racing at the end (the finalists); the dropped
keep their larger SEs. World w of every play is world (seed, w) of the request, whatever the
thread count.

Two options change what the race promises (``advise(refine_all=..., indifference=...)``):

* ``refine_all``: no candidate is dropped, so every one of the refined candidates reaches SE <=
  ``precision`` (the literal reading of "refine the best 20 to SE <= 0.5"); by default only the
  finalists do, the dropped being shown worse than the leader by more than ``RACE_Z`` SEs.
* ``indifference`` (delta, points): an indifference zone for near-ties. After each round every
  candidate other than the leader is tested on its paired gap to the leader (the same
  control-variate estimator, on shared worlds): *tied* when |gap| + ``RACE_Z`` SE <= delta (the
  two differ by at most delta, at the race's confidence), *worse* when gap > ``RACE_Z`` SE (the
  drop test). The race stops ("indifference") once every candidate still racing is tied or
  worse and at least one is tied: the leader is then within delta of the best with that
  confidence and the tied are reported as such. A pair that is neither (its gap to the
  leader >= 0) has 2 ``RACE_Z`` SE > delta, so the stop comes at the latest when every pair's
  SE is below delta / (2 ``RACE_Z``). Measured at precision 0.5, a zone of 1 or 2 points never
  stopped a race before the precision target did (the pairs' SEs are close to the candidates'
  own once the control has removed the shared variance): it labels the near-ties. Each test
  holds at about 99.87% per side one look at a time; the race looks after every round at every
  pair, so the confidence is nominal (Bonferroni over r rounds and k pairs: an error at most
  r k 0.00135 per side).

Perspective: the advising player's net deal points (own minus the opponent's), or the partie
value when one is asked for.
"""

from __future__ import annotations

import math

import numpy as np

from ..core.engine.racing import RaceSettings, Selection, run_race
from .advisor_worlds import RACE_Z, CandidateResult, _Evaluator, _WorldSource
from .kernels import layouts as L

CONTROL_PLAY = "heuristic"  # the control variate's play (and the screen's before a pimc refine)
#: pimc worlds every refined candidate gets before any is dropped (was 32: with heavy-tailed
#: differences, drops of candidates within 1 point of the best were 3.7x as frequent; measured
#: by resampling 256 pimc worlds of the hard hand's best 10; cost +21% CPU on the standard hand,
#: +18% on the hard one)
FIRST_ROUND = 64
CONTROL_FIRST = 4096  # control worlds before the control's spread is known
CONTROL_MAX = 131_072  # most control worlds per candidate
CONTROL_SHARE = 1 / 3  # the control's part of the SE target: SE_h <= CONTROL_SHARE * precision
BUDGET = 400  # pimc deals per kernel call (progress and the time limit are checked between)
#: A drop uses each pair's SD of (pimc - heuristic) differences, but at least this share of the
#: round's median over the pairs (0: off). Off: measured with FIRST_ROUND 32, a floor of 1.0
#: did not reduce the drops of close candidates and cost +43% pimc deals on the hard hand.
PAIR_SD_FLOOR = 0.0


def cv_mean_se(h: np.ndarray, d: np.ndarray, d_sd_floor: float = 0.0) -> tuple[float, float]:
    """(estimate, standard error) of E[h] + E[d] from ``h`` on worlds 0..N-1 and ``d`` on
    worlds 0..n-1 (the same worlds' first n, n <= N, n >= 2); ``d``'s SD is taken as at least
    ``d_sd_floor`` (points)."""
    big, n = len(h), len(d)
    hv = float(np.var(h, ddof=1))
    dv = max(float(np.var(d, ddof=1)), d_sd_floor**2)
    cov = float(np.cov(h[:n], d)[0, 1])
    var = hv / big + dv / n + 2 * cov / big
    return float(h.mean() + d.mean()), math.sqrt(max(var, 0.0))


class CVCandidate(CandidateResult):
    """A refined candidate: ``ev``/``se`` are the control-variate estimate; ``sums`` (the
    probabilities, declaration and play points) are plain means over its ``samples`` pimc
    worlds."""

    def __init__(self, discard, hand, sums, play, ev, se, control_ev, control_n, pimc_mean):
        super().__init__(discard, hand, sums, play)
        self._ev, self._se = ev, se
        self.control_ev, self.control_n, self.pimc_mean = control_ev, control_n, pimc_mean

    @property
    def ev(self) -> float:
        return self._ev

    @property
    def se(self) -> float:
        return self._se

    def to_dict(self, carte_rouge: bool) -> dict:
        d = super().to_dict(carte_rouge)
        d["estimator"] = {
            "kind": "control variate",
            "control_play": CONTROL_PLAY,
            "control_worlds": self.control_n,
            "control_ev": self.control_ev,
            "pimc_worlds": self.samples,
            "pimc_plain_mean": self.pimc_mean,
        }
        return d


class _Refine:
    """The state of one refine race: control values h (worlds 0..N-1) and pimc values p
    (worlds 0..n-1) per candidate, unfiltered, with the worlds' validity; its sampling step
    and selection rule drive ``core.racing.run_race``."""

    def __init__(self, request, worlds: _WorldSource, sub: np.ndarray, settings: RaceSettings):
        self.control = _Evaluator(worlds, request, sub, CONTROL_PLAY)
        self.pimc = _Evaluator(worlds, request, sub, request.play)
        self.s = settings
        self.indifference = request.indifference
        self.h = [np.zeros(0) for _ in sub]
        self.p = [np.zeros(0) for _ in sub]
        self.valid = np.zeros(0, dtype=bool)
        self.n_control = 0

    def extend_control(self, alive: np.ndarray, target: int) -> None:
        """The control's values of the ``alive`` candidates on worlds up to ``target``."""
        while self.n_control < target:
            step = min(target - self.n_control, 16_384)
            _, nets, w = self.control.run(self.n_control, step, self.control.discards[alive])
            for j, c in enumerate(alive):
                self.h[c] = np.concatenate([self.h[c], nets[j].astype(np.float64)])
            self.valid = np.concatenate([self.valid, w.valid])
            self.n_control += step

    def sample(self, alive: np.ndarray, start: int, n: int) -> None:
        """The race's sampling step: pimc on worlds start..start+n-1 (the control at least as
        far) for the ``alive`` candidates."""
        self.extend_control(alive, start + n)
        sums, nets, _ = self.pimc.run(start, n, self.pimc.discards[alive])
        self.pimc.sums[alive] += sums
        for j, c in enumerate(alive):
            self.p[c] = np.concatenate([self.p[c], nets[j].astype(np.float64)])

    def select(self, alive: np.ndarray, n: int) -> Selection:
        """The race's selection rule after a round of ``n`` pimc worlds: keep the leader and
        every candidate within ``drop_z`` SEs of it (module docstring); stop when they all
        have SE <= precision or at ``max_samples``; else extend the control and aim the next
        round at the precision."""
        s = self.s
        est = {int(c): cv_mean_se(*self.hd(c)) for c in alive}
        lead = max(est, key=lambda c: est[c][0])
        keep = [lead]
        pairs = {c: self.hd(lead, c) for c in est if c != lead}
        floor = PAIR_SD_FLOOR * _median_sd([d for _, d in pairs.values()])
        gaps = {}
        for c, (h, d) in pairs.items():
            gap, se = gaps[c] = cv_mean_se(h, d, floor)
            if not gap > s.drop_z * se:
                keep.append(c)
        kept = np.array(sorted(keep))
        stop, tied = False, None
        if self.indifference is not None:
            live = {c: gaps[c] for c in kept if c != lead}
            stop, tied_list = indifference_verdict(live, self.indifference, RACE_Z)
            tied = np.array(sorted(tied_list), dtype=np.int64)
        if s.precision is not None and all(est[c][1] <= s.precision for c in kept):
            return Selection(kept, "precision", n, tied)
        if stop:
            return Selection(kept, "indifference", n, tied)
        if n >= s.max_samples:
            return Selection(kept, "samples", n, tied)
        self.extend_control(kept, self._control_target(kept))
        return Selection(kept, None, self._pimc_target(kept, n), tied)

    def hd(self, c: int, other: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Candidate c's (h on its valid control worlds, d on its valid pimc worlds); minus
        candidate ``other``'s on the same worlds when given."""
        n = len(self.p[c])
        vn = self.valid[:n]
        h = self.h[c]
        h_all = h[self.valid[: len(h)]]
        d = self.p[c][vn] - h[:n][vn]
        if other is not None:
            ho, do = self.hd(other)
            m = min(len(h_all), len(ho))
            return h_all[:m] - ho[:m], d - do
        return h_all, d

    def _pimc_target(self, alive: np.ndarray, n: int) -> int:
        """pimc worlds the finalists need for SE <= precision (at most 4x the current ``n``),
        given the control's share of the variance."""
        precision = self.s.precision
        need = n
        if precision is not None:
            for c in alive:
                h, d = self.hd(c)
                rest = precision**2 - np.var(h, ddof=1) / len(h)
                dv = np.var(d, ddof=1)
                need = max(need, int(math.ceil(1.05 * dv / max(rest, 0.25 * precision**2))))
        return min(self.s.max_samples, max(n + self.s.first_round, min(need, 4 * n)))

    def _control_target(self, alive: np.ndarray) -> int:
        """Control worlds for SE_h <= CONTROL_SHARE * precision on every alive candidate."""
        precision = self.s.precision
        if precision is None:
            return self.n_control
        sd = max(float(np.std(self.hd(c)[0], ddof=1)) for c in alive)
        need = int(math.ceil((sd / (CONTROL_SHARE * precision)) ** 2))
        return min(CONTROL_MAX, max(self.n_control, need))


def indifference_verdict(
    gaps: dict[int, tuple[float, float]], delta: float, z: float
) -> tuple[bool, list[int]]:
    """The indifference zone's verdict after a round (module docstring). ``gaps``: for each
    candidate still racing other than the leader, (the leader's EV minus its EV, paired on
    shared worlds; the SE of that gap), points. A candidate is tied when |gap| + z SE <= delta,
    worse when gap > z SE. Returns (stop: every candidate tied or worse and one tied at least,
    the tied candidates)."""
    tied, undecided = [], False
    for c, (gap, se) in gaps.items():
        if abs(gap) + z * se <= delta:
            tied.append(c)
        elif not gap > z * se:
            undecided = True
    return bool(tied) and not undecided, tied


def _median_sd(ds: list[np.ndarray]) -> float:
    """The median SD of the pairs' differences (0 with none)."""
    sds = [float(np.std(d, ddof=1)) for d in ds if len(d) > 1]
    return float(np.median(sds)) if sds else 0.0


def refine_settings(request) -> RaceSettings:
    """The refine race's settings for an ``AdviceRequest``: its precision, worlds and deadline;
    with ``refine_all`` no drop (an infinite drop threshold)."""
    return RaceSettings(
        request.precision,
        request.max_samples,
        budget=BUDGET,
        deadline=request.deadline,
        first_round=FIRST_ROUND,
        drop_z=math.inf if request.refine_all else RACE_Z,
    )


def race_cv(request, worlds: _WorldSource, sub: np.ndarray, progress) -> tuple:
    """Race the discards ``sub`` with the requested play (pimc) and the heuristic as control
    variate (module docstring). Returns (a :class:`CVCandidate` per discard, its values for
    ``compare_leaders``: control mean + d on each pimc world, the race's run)."""
    settings = refine_settings(request)
    ref = _Refine(request, worlds, sub, settings)
    ref.extend_control(
        np.arange(len(sub)), max(CONTROL_FIRST, min(FIRST_ROUND, request.max_samples))
    )
    run = run_race(len(sub), ref.sample, ref.select, settings, "refine", progress)
    refined, values = [], []
    for j, discard in enumerate(sub):
        h, d = ref.hd(j)
        if len(d) < 2:
            ev, se = float("nan"), float("inf")
        else:
            ev, se = cv_mean_se(h, d)
        sums = ref.pimc.sums[j]
        plain = float(sums[L.ADV_NET] / sums[L.ADV_N]) if sums[L.ADV_N] else float("nan")
        refined.append(
            CVCandidate(
                int(discard),
                request.hand,
                sums,
                request.play,
                ev,
                se,
                float(h.mean()),
                len(h),
                plain,
            )
        )
        values.append(h.mean() + d)
    return refined, values, run
