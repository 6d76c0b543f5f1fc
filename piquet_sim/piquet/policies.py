"""The one registry of Piquet's stage policies: how a player exchanges, declares and plays.

Every policy is one row of the core's registry type
(:class:`~piquet_sim.core.game.registry.Policy`):
its stage, name, kernel id, parameters (names, defaults and ranges: the row of ``params`` the
kernels read) and what it needs (the exact solver; a
knowledge state of what the player has seen). CLI choices, strategy-file validation, the
simulator's policy arrays and the kernels' dispatch ids all derive from :data:`REGISTRY`.

Adding a play policy: one row here and one function in ``kernels/play.py`` dispatched on its id
(``player_card``). This module is data only (no numba, no kernels), so kernels import their ids
from it.
"""

from __future__ import annotations

from ..core.game.registry import Policy, Registry
from .heuristic_exchange import HEURISTIC_EXCHANGE_WEIGHTS

STAGES = ("exchange", "declare", "play")

#: Greedy exchange weight names, in kernel order (``kernels/exchange.py`` documents each).
GREEDY_WEIGHTS = (
    "rank",
    "point",
    "point_len",
    "seq",
    "seq_near",
    "set3",
    "set2",
    "guard",
    "singleton",
    "draw",
    "leave",
)
#: Default greedy weights, tuned by coordinate search on declaration points against ``max``
#: (rank and guard weights held small for play).
GREEDY_DEFAULTS = (0.1, 1.0, 0.4, 1.1, 0.1, 3.0, 0.4, 0.3, 0.5, 1.7, 0.3)
#: Sink flag names of the ``sink`` declaration policy (params 0..2: non-zero sinks the class).
SINK_CLASSES = ("point", "sequence", "sets")


REGISTRY = Registry(
    "Piquet",
    STAGES,
    (
        Policy("exchange", "random", 0, "a uniform legal count, then a uniform discard"),
        Policy("exchange", "max", 1, "take every card allowed, keep the high cards"),
        Policy(
            "exchange",
            "greedy",
            2,
            "keep values per card (point, sequences, sets, rank); "
            "discard what is worth less than an unknown card",
            GREEDY_WEIGHTS,
            GREEDY_DEFAULTS,
        ),
        Policy(
            "exchange",
            "heuristic",
            3,
            "the greedy keep-value rule with weights fitted for heuristic play "
            "(heuristic_exchange.py: fitted on mirrored deals against the greedy exchange)",
            GREEDY_WEIGHTS,
            HEURISTIC_EXCHANGE_WEIGHTS,
        ),
        Policy("declare", "all", 0, "declare everything"),
        Policy(
            "declare",
            "sink",
            1,
            "answer 'good' in the classes flagged (sink them)",
            SINK_CLASSES,
            (0.0, 0.0, 0.0),
            bounds=((0, 1), (0, 1), (0, 1)),
        ),
        Policy("play", "random", 0, "a uniform legal card"),
        Policy(
            "play",
            "greedy",
            1,
            "masters from long suits, cheapest winner, throw from weakness "
            "(own hand and cards played only)",
        ),
        Policy(
            "play",
            "dd",
            2,
            "double-dummy: the exact solver on both hands "
            "(an oracle: it sees the opponent's cards)",
            needs_solver=True,
            oracle=True,
        ),
        Policy(
            "play",
            "pimc",
            3,
            "imperfect information: sample the opponent's hand from what "
            "was seen (cards, declarations, voids), solve each world, play the best mean "
            "(adaptive 1: fewer worlds as the opponent's hand becomes known; race k: from the "
            "k-th world on, drop a card whose mean deficit to the best exceeds race_z standard "
            "errors and stop when one is left, 0 off; keep 1: a world stays for the player's later "
            "decisions while the play has not ruled it out)",
            ("worlds", "max_attempts", "adaptive", "race", "race_z", "keep"),
            (16.0, 2000.0, 0.0, 4.0, 2.0, 1.0),
            bounds=((1, 10_000), (1, 10_000_000), (0, 1), (0, 10_000), (0, 100), (0, 1)),
            integers=("worlds", "max_attempts", "adaptive", "race", "keep"),
            needs_solver=True,
            needs_knowledge=True,
        ),
        Policy(
            "play",
            "heuristic",
            4,
            "card counting on what was seen (cards, declarations, discards, voids): sure tricks "
            "and free masters first, a master that guards a short suit kept as an entry, leads "
            "and discards that keep a stopper in each suit (trick "
            "chances; depth: weight of a suit's further winners), the cheapest winner whenever a "
            "trick can be won; without a trick, discards keep the best chance of one "
            "(capot_defence: 1 on, 0 off); the opponent's unseen discards are taken to be low "
            "cards (discard_bias: 0 none, higher stronger); with at most endgame cards left "
            "and no trick yet, an exact search over his possible hands picks the card that keeps "
            "a trick in the most of them (0: off)",
            ("depth", "capot_defence", "discard_bias", "endgame"),
            (0.0, 1.0, 0.0, 5.0),
            bounds=((-100, 100), (0, 1), (0, 100), (0, 12)),
            integers=("capot_defence", "endgame"),
            needs_knowledge=True,
        ),
        Policy(
            "play",
            "pimcw",
            5,
            "pimc over weighted worlds: oversample x worlds hands drawn as pimc draws them, each "
            "weighted by the likelihood of what the opponent did under the heuristic policies: "
            "his exchange (the heuristic exchange's discard from his dealt hand; each card off "
            "it a factor exchange_epsilon, 1 off) and his cards so far (the heuristic play's "
            "card with probability 1 - epsilon, else a uniform choice), worlds resampled by "
            "weight and valued as pimc (racing; no kept worlds)",
            (
                "worlds",
                "max_attempts",
                "adaptive",
                "race",
                "race_z",
                "oversample",
                "epsilon",
                "exchange_epsilon",
                "exchange_draws",
            ),
            (16.0, 2000.0, 0.0, 4.0, 2.0, 16.0, 0.8, 0.2, 8.0),
            bounds=(
                (1, 10_000),
                (1, 10_000_000),
                (0, 1),
                (0, 10_000),
                (0, 100),
                (1, 64),
                (0.001, 1),
                (0.001, 1),
                (1, 256),
            ),
            integers=("worlds", "max_attempts", "adaptive", "race", "oversample", "exchange_draws"),
            needs_solver=True,
            needs_knowledge=True,
        ),
    ),
)


# The registry's lookups under the names this game's modules use (one definition: the
# core's Registry).
policies = REGISTRY.stage
get = REGISTRY.get
names = REGISTRY.names
ids = REGISTRY.ids
by_id = REGISTRY.by_id
_id = REGISTRY.id


# Kernel ids (module constants: numba freezes them at compile time).
EXCH_RANDOM = _id("exchange", "random")
EXCH_MAX = _id("exchange", "max")
EXCH_GREEDY = _id("exchange", "greedy")
EXCH_HEURISTIC = _id("exchange", "heuristic")
DECL_ALL = _id("declare", "all")
DECL_SINK = _id("declare", "sink")
PLAY_RANDOM = _id("play", "random")
PLAY_GREEDY = _id("play", "greedy")
PLAY_DD = _id("play", "dd")
PLAY_PIMC = _id("play", "pimc")
PLAY_HEURISTIC = _id("play", "heuristic")
PLAY_PIMCW = _id("play", "pimcw")
#: Ids of the play policies that call the solver / need a knowledge state.
SOLVER_PLAY_IDS = tuple(p.id for p in policies("play").values() if p.needs_solver)
KNOWLEDGE_PLAY_IDS = tuple(p.id for p in policies("play").values() if p.needs_knowledge)
