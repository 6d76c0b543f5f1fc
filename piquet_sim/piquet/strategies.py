"""Piquet's strategies: its built-ins and their conversion to the deal kernels' stage arrays.

A strategy (``core.game.strategy``) names an exchange, a declaration and a play policy, each
with parameters, and may make any of them differently as elder or younger (``[elder]`` /
``[younger]`` in a file). Two strategies facing each other become one ``simulation.Policies``
(and so the kernels' ``ids``/``params`` arrays): the elder's stages from the strategy sitting
elder, the younger's from the other. Files, inline specs (``pimcw:worlds=32``: a play policy
on the ``heuristic`` strategy) and their checks are the core's (:data:`BOOK`); a file may still
write the sink classes as ``declare = { policy = "sink", sink = ["sets"] }`` and parameters as
a list in the registry's order. A stage a file leaves out is the strongest fast policy:
heuristic exchange, declare all, heuristic play.
"""

from __future__ import annotations

import numpy as np

from ..core.game.strategy import Choice, Strategy, StrategyBook, builtin_strategies
from . import policies as P
from .kernels.bundles import make_env
from .policies import STAGES
from .rules import Rules
from .simulation import Policies, bundle_free, solver_bits

ROLES = ("elder", "younger")


def _values(stage: str, choice: Choice) -> tuple[float, ...]:
    """A choice's parameters in the registry's order, defaults filled in."""
    return P.get(stage, choice.policy).check_params(choice.given)


def summary(s: Strategy) -> str:
    """Stages in one line, ``exchange / declare / play``, each ``policy`` or ``policy(values in
    the registry's order)``, ``elder|younger`` where the seats differ."""

    def describe(stage: str, c: Choice) -> str:
        if not c.params:
            return c.policy
        return f"{c.policy}({', '.join(f'{float(v):g}' for v in _values(stage, c))})"

    parts = []
    for stage in STAGES:
        e, y = (describe(stage, s.choice(stage, role)) for role in ROLES)
        parts.append(e if e == y else f"{e}|{y}")
    return " / ".join(parts)


def uses_solver(s: Strategy) -> bool:
    """True when a seat's play policy calls the exact solver."""
    return BOOK.uses(s, needs_solver=True)


def policies(elder: Strategy, younger: Strategy) -> Policies:
    """The stage policies of a deal with ``elder`` sitting elder and ``younger`` younger."""
    seats = {"elder": elder, "younger": younger}
    given: dict[str, dict[str, np.ndarray]] = {stage: {} for stage in STAGES}
    for role, s in seats.items():
        for stage in STAGES:
            c = s.choice(stage, role)
            if c.params:
                given[stage][role] = np.asarray(_values(stage, c), dtype=float)
    return Policies(
        **{
            f"{role}_{stage}": s.policy(stage, role)
            for role, s in seats.items()
            for stage in STAGES
        },
        exchange_params=given["exchange"],
        declare_params=given["declare"],
        play_params=given["play"],
    )


def kernel_arrays(elder: Strategy, younger: Strategy) -> tuple[np.ndarray, np.ndarray]:
    """(policy ids int32[STAGE_LEN], params float64[STAGE_LEN, STAGE_PARAMS]) for the deal
    kernels."""
    return policies(elder, younger).arrays()


#: Parallel spans of the mirrored kernels: fixed, so the split never depends on the threads.
MIRRORED_SPANS = 64


def mirrored_args(a: Strategy, b: Strategy, rules: Rules) -> tuple:
    """Arguments after (seed, start, n) of the mirrored kernels (``kernels.match.mirrored_deals``
    and ``kernels.partie.mirrored_parties``, and their bundle-free ``simple_`` twins): A's and
    B's seatings, how much they share, the run's Env, the span count and the solver table
    size."""
    from .kernels.match import share_level

    stages_ab = policies(a, b).stages()
    stages_ba = policies(b, a).stages()
    share = share_level(stages_ab, stages_ba)
    bits = solver_bits(uses_solver(a) or uses_solver(b))
    return stages_ab, stages_ba, share, make_env(rules.to_array()), MIRRORED_SPANS, bits


def mirrored_bundle_free(a: Strategy, b: Strategy) -> bool:
    """True when every seat of A and B plays greedy, random or heuristic, so their mirrored
    deals and parties take the bundle-free kernels (``simulation.bundle_free``)."""
    return bundle_free(policies(a, b)) and bundle_free(policies(b, a))


def play_strategy(policy: str, exchange: str = "heuristic") -> Strategy:
    """``exchange`` exchange, declare all, ``policy`` play (its default parameters), named
    ``policy``: the ladder's players."""
    return BOOK.check(
        Strategy.of(
            policy,
            f"{exchange} exchange, declare all, {policy} play",
            exchange=exchange,
            declare="all",
            play=policy,
        )
    )


def _sink(*classes: str) -> Choice:
    return Choice.of("sink", {c: 1.0 if c in classes else 0.0 for c in P.SINK_CLASSES})


#: Built-in strategies, every stage named (a built-in keeps its behaviour whatever the
#: defaults of a file): exchange and play by each row, declare all unless a row says.
_STAGES = {"exchange": "greedy", "declare": "all", "play": "greedy"}

BUILTINS = (
    *builtin_strategies(
        _STAGES,
        (
            "heuristic",
            "heuristic exchange (keep values fitted for heuristic play), declare all, heuristic "
            "play (card counting, guards, capot defence): the strongest fast strategy",
            {"exchange": "heuristic", "play": "heuristic"},
        ),
        ("greedy", "greedy exchange (heuristic keep values), declare all, greedy play", {}),
        (
            "max",
            "take every card allowed, keep high cards; declare all; greedy play",
            {"exchange": "max"},
        ),
        (
            "random",
            "random exchange, declare all, random play (a floor to beat)",
            {"exchange": "random", "play": "random"},
        ),
        ("dd-play", "greedy exchange, declare all, double-dummy play (slow)", {"play": "dd"}),
        (
            "pimc-play",
            "greedy exchange, declare all, imperfect-information play (pimc, slow)",
            {"play": "pimc"},
        ),
        (
            "pimcw-play",
            "greedy exchange, declare all, pimc over worlds weighted by the opponent's play "
            "(pimcw, slow)",
            {"play": "pimcw"},
        ),
        (
            "heuristic-play",
            "greedy exchange, declare all, heuristic play (card counting, guards, capot defence)",
            {"play": "heuristic"},
        ),
        ("greedy-random-play", "greedy exchange, declare all, random play", {"play": "random"}),
        (
            "sink-sets",
            "greedy, but never declares sets (always answers 'good')",
            {"declare": _sink("sets")},
        ),
        ("sink-point", "greedy, but never declares the point", {"declare": _sink("point")}),
        ("sink-sequence", "greedy, but never declares sequences", {"declare": _sink("sequence")}),
    ),
    Strategy.of(
        "younger-sinks-sets",
        "greedy; sinks sets only when younger (declares all as elder)",
        roles={"younger": {"declare": _sink("sets")}},
        exchange="greedy",
        declare="all",
        play="greedy",
    ),
)

#: Piquet's strategies: the built-ins, files and inline specs.
BOOK = StrategyBook(
    game="piquet",
    registry=P.REGISTRY,
    builtins={s.name: s for s in BUILTINS},
    defaults={"exchange": "heuristic", "declare": "all", "play": "heuristic"},
    base="heuristic",
    inline=("play", "exchange", "declare"),
    roles=ROLES,
    summary=summary,
    flags=(("declare", "sink"),),
)
#: The built-ins by name.
REGISTRY = BOOK.builtins
