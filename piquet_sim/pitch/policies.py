"""The one registry of Pitch's policies: how a player bids and how he plays.

Every policy is one :class:`Policy` row: its stage, name, kernel id, parameters (names and
defaults) and whether it is an oracle (sees every hand). CLI choices and the kernels' policy
arrays derive from :data:`REGISTRY`; kernels dispatch on the ids in ``kernels/policies.py``
(a test holds the two equal).

Adding a policy: one row here and one branch in ``kernels/policies.py`` (``choose_call`` or
``choose_card``). The kernels read one float64 parameter array: the bid policy's parameters
from slot 0, the play policy's from slot :data:`PLAY_PARAMS_AT`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..core.errors import InputError

STAGES = ("bid", "play")
#: The ``montecarlo`` bidder's defaults: worlds per decision, margin (points).
MC_WORLDS = 16.0
MC_MARGIN = 0.0
PARAMS_LEN = 16
PLAY_PARAMS_AT = 8


@dataclass(frozen=True)
class Policy:
    """One stage policy; ``id`` is its dispatch id within the stage."""

    stage: str
    name: str
    id: int
    description: str
    params: tuple[str, ...] = ()
    defaults: tuple[float, ...] = ()
    oracle: bool = False  # sees every hand: a yardstick, not a player
    search: bool = False  # play by the exact search: only the bid advisor's kernels run it
    seated: bool = False  # a bidder that needs its seat and the round's stream: games and
    # batch heroes only (kernels/table.py, kernels/duel.py), not the table model elsewhere


REGISTRY: tuple[Policy, ...] = (
    Policy("bid", "random", 0, "a uniform legal call"),
    Policy("bid", "pass", 1, "pass whenever allowed; a dealer who must bid bids 3"),
    Policy(
        "bid",
        "threshold",
        2,
        "estimate the hand's points in its best suit (a fixed table of trumps held), bid "
        "that estimate less a margin when it beats the bid so far; the dealer steals at equal",
        ("margin",),
        (0.0,),
    ),
    Policy(
        "bid",
        "parametric",
        3,
        "the threshold bidder's table with each term weighted (High, Low, Jack, Six, trump "
        "length, game points; 1 = the threshold's own) and a margin: bid the best suit's "
        "weighted estimate less the margin, rounded down, when it beats the bid so far",
        ("high", "low", "jack", "six", "length", "game", "margin"),
        (1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0),
    ),
    Policy(
        "bid",
        "montecarlo",
        4,
        "the Monte Carlo bidder: deal the unseen cards to the others in a few worlds (uniform, "
        "keyed by the round and seat), play the hand out as bidder in every suit held with "
        "heuristic play, and make the legal bid and suit of highest expected score "
        "k (2 P(points >= k) - 1) when above the margin, else pass; pitches that suit",
        ("worlds", "margin"),
        (MC_WORLDS, MC_MARGIN),
        seated=True,
    ),
    Policy("play", "random", 0, "a uniform legal card"),
    Policy(
        "play",
        "heuristic",
        1,
        "the bidder pulls trumps from the top while he holds the highest trump out, then "
        "leads low plain cards; everyone wins a trick holding the Jack, Six or Low of trumps "
        "or game points as cheaply as he can, gives points to a defender rather than to the "
        "bidder, and otherwise throws his cheapest card (sees only his hand and the cards "
        "played)",
    ),
    Policy(
        "play",
        "pimc",
        2,
        "perfect-information Monte Carlo: at each decision with a choice, deal the unseen "
        "cards to the others consistently with the cards played, the voids shown and the "
        "auction (the others' bid policy must make the calls they made), score each legal card "
        "by the paranoid search in every world (the bidder's points still to come: the bidder "
        "maximises, a defender minimises) and play the best total; ties to the cheapest card",
        ("worlds",),
        (8.0,),
        search=True,
    ),
    Policy(
        "play",
        "dd",
        3,
        "double dummy: the paranoid search on the true hands (the bidder maximises his points, "
        "every defender minimises them); ties to the cheapest card",
        oracle=True,
        search=True,
    ),
)


def by_stage(stage: str) -> dict[str, Policy]:
    """The policies of one stage by name."""
    return {p.name: p for p in REGISTRY if p.stage == stage}


def table_bidders() -> list[str]:
    """The bid policies that can model every other seat (not seated ones)."""
    return [n for n, p in by_stage("bid").items() if not p.seated]


def get(stage: str, name: str) -> Policy:
    """The named policy of a stage; raises InputError on an unknown name."""
    found = by_stage(stage)
    if name not in found:
        raise InputError(f"unknown {stage} policy {name!r}; choose from {', '.join(found)}")
    return found[name]


def make_policy(
    bid: str = "random",
    play: str = "random",
    bid_params: tuple[float, ...] | None = None,
    play_params: tuple[float, ...] | None = None,
    allow_search: bool = False,
    allow_seated: bool = False,
):
    """The kernels' ``Policy`` bundle (ids int64[2], params float64[16]) for two names. A
    search play (pimc, dd) only where ``allow_search`` (the bid advisor), a seated bidder
    (montecarlo) only where ``allow_seated`` (a batch hero); elsewhere they are refused with
    InputError."""
    from .kernels.round import Policy as KernelPolicy

    b, p = get("bid", bid), get("play", play)
    if b.seated and not allow_seated:
        raise InputError(
            f"bid policy {b.name!r} bids for one seat at a table (a strategy, or a batch's "
            f"--a/--b); choose {', '.join(table_bidders())} here"
        )
    if p.search and not allow_search:
        fast = ", ".join(n for n, q in by_stage("play").items() if not q.search)
        raise InputError(f"play policy {p.name!r} runs only in the bid advisor; choose {fast}")
    params = np.zeros(PARAMS_LEN, dtype=np.float64)
    for at, pol, given in ((0, b, bid_params), (PLAY_PARAMS_AT, p, play_params)):
        values = pol.defaults if given is None else tuple(given)
        if len(values) != len(pol.params):
            raise InputError(f"{pol.stage} policy {pol.name!r} takes {len(pol.params)} parameters")
        params[at : at + len(values)] = values
    return KernelPolicy(np.array([b.id, p.id], dtype=np.int64), params)
