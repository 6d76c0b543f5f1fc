"""Sinking declarations: what declaring less is worth, for one hand and over many deals.

A choice (``CHOICES``) is what the advising player declares: everything, nothing of one class,
or a lesser combination (a quart out of a quint). Every choice is played on the same sampled
worlds with the same random draws (common random numbers, ``kernels/sinking.py``), so the
differences between choices are paired. Points are the advising player's minus the opponent's,
for the whole deal.

The difference of a choice from "declare all" is decomposed (all paired means over worlds):

* ``declarations``: combination points (point, sequences, sets, carte blanche, carte rouge): what
  sinking gives up, including a class the opponent now scores;
* ``repique`` and ``pique``: the bonuses won or lost;
* ``play``: play points and cards under the chosen play, of which ``concealment`` is the part
  that double-dummy play of the same deal does not show (information effects: what the
  opponent does not learn, and what the player learns from the opponent's declaration when he
  sinks); under ``play="dd"`` it is 0 by construction.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field

import numpy as np

from ..core.engine.backend import Cancel, StopOnInterrupt, stop_requested
from ..core.engine.jit_threads import driver
from ..core.engine.stats import sample_mean_ci
from . import cards as C
from .kernels import advisor as KA
from .kernels import layouts as L
from .kernels import sinking as K
from .kernels.bundles import make_env
from .policies import names as policy_names
from .rules import DEFAULT_RULES, Rules
from .simulation import Policies

CHOICES = {
    "declare all": K.CH_ALL,
    "sink point": K.CH_SINK_POINT,
    "sink sequences": K.CH_SINK_SEQUENCES,
    "sink sets": K.CH_SINK_SETS,
    "lesser point": K.CH_LESSER_POINT,
    "lesser sequence": K.CH_LESSER_SEQUENCE,
    "lesser set": K.CH_LESSER_SET,
    "sink everything": K.CH_SINK_ALL,
}
#: How both sides play the deals (every play policy of the registry).
PLAYS = policy_names("play")
#: The opponent's exchange policy (and elder's, modelled in younger's worlds): the strongest
#: fast one (greedy in earlier versions).
DEFAULT_OPPONENT = "heuristic"
PARTS = ("declarations", "repique", "pique", "play", "concealment")
TT_BITS = 18
MAX_ATTEMPTS = 2000  # sampler draws per pimc world before the declaration bounds are dropped


class SinkError(ValueError):
    """A request :func:`analyse` cannot take (bad hand, discard, role options)."""


@dataclass
class ChoiceResult:
    """One choice: expected net deal score (player minus opponent) with its 95% interval, the
    paired difference from declaring all, its decomposition, and the share of worlds in which
    the choice declares anything different from declaring all."""

    name: str
    net: float
    net_ci: tuple[float, float]
    gain: float
    gain_ci: tuple[float, float]
    parts: dict = field(default_factory=dict)
    changed: float = 0.0

    def to_dict(self) -> dict:
        d = asdict(self)
        d["net_ci"] = list(self.net_ci)
        d["gain_ci"] = list(self.gain_ci)
        return d


@dataclass
class SinkAnalysis:
    """Result of :func:`analyse`; ``choices`` best first (applicable choices only)."""

    hand: str
    role: str
    discard: str | None
    worlds: int
    play: str
    pimc_worlds: int
    seconds: float
    choices: list[ChoiceResult]
    margin: float  # best choice's mean net minus the second best's
    margin_ci: tuple[float, float]
    sampler: dict
    requested: int = 0  # worlds asked for; more than ``worlds`` when interrupted (Ctrl-C)

    @property
    def interrupted(self) -> bool:
        return self.worlds < self.requested

    @property
    def best(self) -> ChoiceResult:
        return self.choices[0]

    def to_dict(self) -> dict:
        return {
            "hand": self.hand,
            "role": self.role,
            "discard": self.discard,
            "worlds": self.worlds,
            "play": self.play,
            "pimc_worlds": self.pimc_worlds,
            "seconds": round(self.seconds, 3),
            "best": self.best.name,
            "margin": self.margin,
            "margin_ci": list(self.margin_ci),
            "choices": [c.to_dict() for c in self.choices],
            "sampler": self.sampler,
        } | ({"partial": True, "requested": self.requested} if self.interrupted else {})


#: Worlds per kernel call of :func:`analyse` (Ctrl-C stops between calls; a world depends only
#: on (seed, index), so the numbers do not depend on the split).
CHUNK_WORLDS = 8


def evaluate(
    hand: int,
    role: int,
    discard: int,
    elder_took: int,
    choices: list[int],
    worlds: int,
    play: str,
    pimc_worlds: int,
    seed: int,
    rules: Rules,
    start: int = 0,
    n_spans: int = 2,
    opponent: str = DEFAULT_OPPONENT,
) -> tuple[np.ndarray, np.ndarray]:
    """Kernel rows int32[worlds, len(choices), SINK_LEN] and sampler stats for one hand.

    ``discard`` -1: ``hand`` is held at the declarations (no exchange); else the dealt hand and
    its discard (elder draws that many; younger after elder took ``elder_took``). ``opponent``:
    the exchange policy of the opponent (and of elder in younger's worlds)."""
    env = make_env(rules.to_array())
    w_role = role if discard >= 0 else 0
    k = elder_took if (role == 1 and discard >= 0) else 0
    request = (np.int64(w_role), np.int64(k), np.int64(-1), np.int64(50_000))
    # the opponent exchanges (and elder is modelled) by ``opponent``
    model = Policies(elder_exchange=opponent, younger_exchange=opponent).stages()
    worlds_, _ = KA.build_worlds(np.int64(hand), request, model, seed, start, worlds, 1, env)
    play_params = {r: np.array([pimc_worlds, MAX_ATTEMPTS]) for r in ("elder", "younger")}
    stages = Policies(
        elder_exchange=opponent,
        younger_exchange=opponent,
        elder_play=play,
        younger_play=play,
        play_params=play_params if play == "pimc" else {},
    ).stages()
    player = (np.int64(hand), np.int64(role), np.int64(discard))
    spans = max(1, min(n_spans, int(worlds_.valid.sum())))
    rows, stats = K.evaluate_worlds(
        player,
        worlds_,
        seed,
        start,
        np.array(choices, dtype=np.int64),
        stages,
        env,
        spans,
        TT_BITS if play != "greedy" else 16,
    )
    return rows[worlds_.valid], stats.sum(axis=0)


def summarise(rows: np.ndarray, names: list[str]) -> list[ChoiceResult]:
    """ChoiceResults of kernel rows (choice 0 must be "declare all"), in input order."""
    base = rows[:, 0, :].astype(np.int64)
    out = []
    for j, name in enumerate(names):
        x = rows[:, j, :].astype(np.int64)
        d = x - base
        net, lo, hi = sample_mean_ci(x[:, L.SINK_TOTAL])
        gain, glo, ghi = sample_mean_ci(d[:, L.SINK_TOTAL])
        info = (d[:, L.SINK_PLAY] + d[:, L.SINK_PIQUE]) - (
            d[:, L.SINK_DD_PLAY] + d[:, L.SINK_DD_PIQUE]
        )
        parts = {
            "declarations": float(d[:, L.SINK_DECL].mean()),
            "repique": float(d[:, L.SINK_REPIQUE].mean()),
            "pique": float(d[:, L.SINK_PIQUE].mean()),
            "play": float(d[:, L.SINK_PLAY].mean()),
            "concealment": float(info.mean()),
        }
        out.append(
            ChoiceResult(
                name, net, (lo, hi), gain, (glo, ghi), parts, float(x[:, L.SINK_CHANGED].mean())
            )
        )
    return out


@driver(K.evaluate_worlds)  # what a compile notice checks for it
def analyse(
    hand: str | int,
    role: str = "elder",
    discard: str | int | None = None,
    elder_took: int | None = None,
    worlds: int = 48,
    play: str = "pimc",
    pimc_worlds: int = 8,
    seed: int = 1,
    rules: Rules = DEFAULT_RULES,
    choices: list[str] | None = None,
    n_spans: int = 2,
    opponent: str = DEFAULT_OPPONENT,
) -> SinkAnalysis:
    """Compare declaration choices for one hand on ``worlds`` common sampled worlds.

    ``hand``: 12 cards (text or mask). Without ``discard`` it is the hand held at the
    declarations; with it, the dealt hand and the cards discarded (elder draws as many from
    the talon; younger, after elder took ``elder_took``, draws from what elder left). The
    opponent exchanges with ``opponent`` (default :data:`DEFAULT_OPPONENT`, heuristic; greedy
    in earlier versions) and declares everything. ``play``: "pimc" (both sides
    imperfect-information, ``pimc_worlds`` worlds per decision), "dd" or any other play policy.
    Returns a :class:`SinkAnalysis`, choices best first; nets are player minus opponent.
    """
    import time

    t0 = time.perf_counter()
    hand_mask = C.parse_cards(hand, 12) if isinstance(hand, str) else int(hand)
    if C.popcount(hand_mask) != 12:
        raise SinkError("a hand needs 12 cards")
    if role not in ("elder", "younger"):
        raise SinkError("role must be elder or younger")
    if play not in PLAYS:
        raise SinkError(f"play must be one of {', '.join(PLAYS)}")
    if opponent not in policy_names("exchange"):
        raise SinkError(f"opponent must be one of {', '.join(policy_names('exchange'))}")
    if worlds < 2:
        raise SinkError("needs at least 2 worlds")
    r = 0 if role == "elder" else 1
    disc = -1
    if discard is not None:
        disc = C.parse_cards(discard) if isinstance(discard, str) else int(discard)
        if disc & ~hand_mask:
            raise SinkError(f"the discard {C.format_cards(disc & ~hand_mask)} is not in the hand")
        n = C.popcount(disc)
        if r == 0 and not 1 <= n <= 5:
            raise SinkError(f"elder discards 1 to 5 cards, not {n}")
        if r == 1:
            if elder_took is None:
                raise SinkError("younger's discard needs --elder-took (how many elder took)")
            if not 1 <= elder_took <= 5:
                raise SinkError("elder takes 1 to 5 cards")
            low = 1 if rules.younger_must_exchange else 0
            if not low <= n <= 8 - elder_took:
                raise SinkError(f"younger discards {low} to {8 - elder_took} cards here, not {n}")
    names = (
        list(CHOICES)
        if choices is None
        else ["declare all"] + [c for c in choices if c != "declare all"]
    )
    for name in names:
        if name not in CHOICES:
            raise SinkError(f"unknown choice {name!r}; choices are {', '.join(CHOICES)}")
    parts, stats = [], 0
    with StopOnInterrupt():  # Ctrl-C: keep the chunks of worlds that finished
        for first in range(0, worlds, CHUNK_WORLDS):
            rows_, stats_ = evaluate(
                hand_mask,
                r,
                disc,
                elder_took or 0,
                [CHOICES[n] for n in names],
                min(CHUNK_WORLDS, worlds - first),
                play,
                pimc_worlds,
                seed,
                rules,
                start=first,
                n_spans=n_spans,
                opponent=opponent,
            )
            parts.append(rows_)
            stats = stats + stats_
            if stop_requested():
                break
    rows = np.concatenate(parts)
    finished = min(worlds, len(parts) * CHUNK_WORLDS)
    requested = worlds if finished < worlds else rows.shape[0]  # valid rows when complete
    results = summarise(rows, names)
    keep = []
    for j, res in enumerate(results):
        same = [i for i in range(j) if (rows[:, i, :] == rows[:, j, :]).all()]
        if j == 0 or (res.changed > 0 and not same):
            keep.append(res)
    order = sorted(range(len(keep)), key=lambda i: -keep[i].net)
    ranked = [keep[i] for i in order]
    margin, mlo, mhi = math.nan, math.nan, math.nan
    if len(ranked) > 1:
        idx = {res.name: j for j, res in enumerate(results)}
        a = rows[:, idx[ranked[0].name], L.SINK_TOTAL].astype(np.int64)
        b = rows[:, idx[ranked[1].name], L.SINK_TOTAL].astype(np.int64)
        margin, mlo, mhi = sample_mean_ci(a - b)
    sampler = {
        "decisions": int(stats[L.PIMC_DECISIONS]),
        "worlds": int(stats[L.PIMC_WORLDS]),
        "mean_attempts": float(stats[L.PIMC_ATTEMPTS] / max(1, stats[L.PIMC_WORLDS])),
        "fallbacks": int(stats[L.PIMC_FALLBACKS]),
    }
    return SinkAnalysis(
        C.format_cards(hand_mask),
        role,
        C.format_cards(disc) if disc >= 0 else None,
        rows.shape[0],
        play,
        pimc_worlds if play == "pimc" else 0,
        time.perf_counter() - t0,
        ranked,
        margin,
        (mlo, mhi),
        sampler,
        requested,
    )


def _holding(hand: int, choice: str) -> str:
    """The combination a choice touches, as a category for the study."""
    from .declarations import describe_hand

    info = describe_hand(hand)
    if "point" in choice:
        return f"point of {info['point']['length']}"
    if "sequence" in choice:
        best = info["best_sequence"]
        return best["name"] if best else "none"
    if "set" in choice:
        best = info["best_set"]
        return best["name"].split(" of ")[0] if best else "none"
    return "all classes"


def study(
    n_hands: int = 100,
    roles: tuple[str, ...] = ("elder", "younger"),
    worlds: int = 6,
    play: str = "pimc",
    pimc_worlds: int = 4,
    seed: int = 1,
    rules: Rules = DEFAULT_RULES,
    cancel: Cancel | None = None,
):
    """Batch study over random dealt hands (taken as held at the declarations): one row per
    (hand, role, applicable choice other than declare all) with the mean gain over declaring
    all (player minus opponent, points per deal), its parts and the holding category.
    ``cancel`` (a study's token; a Ctrl-C sets it): once set, no further hand is studied and
    the rows so far are returned. Returns a pandas DataFrame."""
    import pandas as pd

    from .kernels.deal import deal_batch

    elders, youngers, _ = deal_batch(seed, 0, n_hands)
    names = list(CHOICES)
    rows = []
    for role in roles:
        hands = elders if role == "elder" else youngers
        for i, h in enumerate(hands.tolist()):
            if cancel is not None and cancel.is_set:
                break
            data, _ = evaluate(
                h,
                0 if role == "elder" else 1,
                -1,
                0,
                [CHOICES[n] for n in names],
                worlds,
                play,
                pimc_worlds,
                seed + 7919 * (i + 1),
                rules,
            )
            for j, res in enumerate(summarise(data, names)):
                if j == 0 or res.changed == 0:
                    continue
                rows.append(
                    {
                        "role": role,
                        "hand": C.format_cards(h),
                        "choice": res.name,
                        "holding": _holding(h, res.name),
                        "gain": res.gain,
                        **res.parts,
                    }
                )
    return pd.DataFrame(rows)


def study_table(df):
    """Summary of :func:`study` rows by role, choice and holding: hands, mean gain over
    declaring all, share of hands where the choice beats it, mean concealment effect."""
    g = df.groupby(["role", "choice", "holding"])
    out = g.agg(
        hands=("gain", "size"),
        mean_gain=("gain", "mean"),
        share_better=("gain", lambda x: float((x > 0).mean())),
        declarations=("declarations", "mean"),
        pique_repique=("pique", "mean"),
        play=("play", "mean"),
        concealment=("concealment", "mean"),
    ).reset_index()
    out["pique_repique"] = g.apply(lambda x: (x["pique"] + x["repique"]).mean()).values
    return out.sort_values(["role", "mean_gain"], ascending=[True, False])
