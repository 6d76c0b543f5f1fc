"""Deciders: every registered Pilotta policy (``policies.REGISTRY``) answering one decision of a
:class:`~piquet_sim.pilotta.position.PilottaState` (the
:class:`~piquet_sim.core.game.position.Decider` contract).

Each decider calls the function the round kernels call for that policy, with the same policy
id and parameter row, so a round played through a state and these deciders records what
``api.simulate_batch`` records for the same seed, round and Setup:

* auction (``random``, ``fixed``, ``threshold``, ``montecarlo``): ``kernels.auction.policy_call``
  on the state's auction array;
* declare (``all``, ``no-tierce``): the ``declare`` action, or ``keep tierce`` when the hand
  holds one (``kernels.declarations.declare_policy_hand`` scores the same);
* play: ``random``, ``greedy``, ``heuristic`` (``kernels.play.policy_card`` on the state's
  View), ``pimc`` (``kernels.pimc.pimc_card`` with the state's View, Pub and auction, and the
  Setup as the policies the table knows), ``dd`` (the exact solver on all four hands: an
  oracle, not a round policy).

Random draws (random bids and play, the Monte Carlo bidder's worlds, pimc's worlds) come from
the state's own stream (the round's, for :meth:`PilottaState.from_deal`), in the order the round
kernels draw. A decider that draws remembers its answer in ``state.memory``: asking twice at one
decision draws once.

``values(state)``: :class:`PimcPlay` values every legal card over the worlds its ``choose``
would draw (the same stream, not advanced), :func:`card_values` over worlds drawn from a seed
(or every world when few enough to enumerate: the last tricks exactly) that also respect every
duty of the cards played, each solved double-dummy; :class:`DdPlay` gives the exact values of
the true deal. The unit (:data:`UNIT`): the acting team's card points for the round.
"""

from __future__ import annotations

import time

import numpy as np

from ..core.engine.errors import InputError
from ..core.game.position import (
    ActionValues,
    Decider,
    KernelPlay,
    PlayDecider,
    PlayDeciders,
    deciding_seat,
    remembered,
    seat_decider_type,
    true_deal_values,
)
from . import policies as P
from .actions import DECL_ACTIONS, DECLARE, PASS, bid_action
from .card_values import (
    UNIT,
    _evaluate,
    _team_points,
    card_values,
    workspace,
)
from .kernels.auction import policy_call
from .kernels.pimc import Ctx, pimc_card
from .kernels.play import policy_card
from .layouts import N_AUCTION_PARAMS, Setup
from .position import PilottaState

# ---------------------------------------------------------------------- auction and declarations


class AuctionDecider(Decider):
    """An auction policy: its call through ``kernels.auction.policy_call``."""

    def __init__(self, name: str = "threshold", params=None, row: np.ndarray | None = None):
        self.name = name
        self.id = P.get("auction", name).id
        self.params = (
            np.asarray(row, dtype=np.int64) if row is not None else P.auction_params(name, params)
        )

    def choose(self, state: PilottaState) -> int:
        seat = deciding_seat(state, "auction", f"the {self.name} bidder")

        def call() -> int:
            level, suit = policy_call(
                np.int64(self.id),
                self.params,
                np.int64(state.dealt[seat]),
                np.int64(seat),
                state.ast,
                state._rules,
                state.key,
                state.stream,
            )
            return PASS if level < 0 else bid_action(int(level), int(suit))

        return remembered(state, ("choice", self.name, len(state.history())), call)


class DeclareDecider(Decider):
    """A declaration policy: ``all`` declares, ``no-tierce`` keeps a tierce when it has one."""

    def __init__(self, name: str = "all", params=None):
        self.name = name
        self.id = P.get("declare", name).id

    def choose(self, state: PilottaState) -> int:
        deciding_seat(state, "declare", f"the {self.name} declaration policy")
        action = DECL_ACTIONS[self.id]
        return action if action in state.legal_actions() else DECLARE


# ---------------------------------------------------------------------- play


class PilottaPlay(PlayDecider):
    """A Pilotta play policy (``policy``: its registry name; the kernels take no parameter
    row): subclasses give :meth:`card`."""

    policy = ""
    who = "the {name} player"

    def __init__(self, params=None):
        super().__init__(self.policy, P.get("play", self.policy).id)


def _policy_card(decider: KernelPlay, state: PilottaState, seat: int) -> int:
    """``kernels.play.policy_card`` (the round kernels' dispatcher) on the state's View."""
    return policy_card(
        np.int64(decider.id),
        np.int64(state.hands[seat]),
        np.int64(state.legal_mask()),
        state.view_array(seat),
        state.partner_winning(),
        state.key,
        state.stream,
    )


def _kernel_policy(name: str, params=None) -> tuple[int, None]:
    """``random``, ``greedy`` or ``heuristic``: the id :func:`_policy_card` dispatches on (the
    kernels take no parameter row); a solver policy is refused."""
    policy = P.get("play", name)
    if policy.needs_solver:
        raise InputError(f"{name} is a solver policy: use PimcPlay or DdPlay")
    return policy.id, None


class PimcPlay(PilottaPlay):
    """pimc: ``kernels.pimc.pimc_card`` (``worlds`` deals of the unseen cards from the state's
    stream, each legal card solved in each). ``values``: every legal card over those same
    worlds (the stream copied, not advanced)."""

    policy = "pimc"
    draws = True

    def __init__(self, params=None, worlds: int | None = None):
        super().__init__()
        if worlds is None:
            values = P.get("play", "pimc").check_params(params) if params else None
            worlds = int(values[0]) if values else P.defaults("play", "pimc")["worlds"]
        self.worlds = P.play_worlds(worlds)

    def card(self, state: PilottaState, seat: int) -> int:
        ctx = Ctx(workspace(), state.calls_array(), state.setup, state._rules)
        return pimc_card(
            np.int64(state.hands[seat]),
            np.int64(state.legal_mask()),
            state.view_array(seat),
            state.pub_array(),
            ctx,
            np.int64(self.worlds),
            state.key,
            state.stream,
        )

    def values(self, state: PilottaState) -> ActionValues:
        deciding_seat(state, "play", "pimc")
        return card_values(state, worlds=self.worlds, from_stream=True)


class DdPlay(PilottaPlay):
    """The double-dummy oracle: every legal card solved exactly on the true hands; the
    contracting team plays its best value, the defenders the lowest (the solver's objective;
    ties to the lowest card)."""

    policy = "dd"

    def card(self, state: PilottaState, seat: int) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        vals = _evaluate(state, [np.array(state.hands, dtype=np.int64)], legal, workspace())[0]
        best = int(vals.max() if (seat & 1) == state.c_team else vals.min())
        return legal[int(np.flatnonzero(vals == best)[0])]

    def values(self, state: PilottaState) -> ActionValues:
        from ..core.game.advice import CardValues

        seat = deciding_seat(state, "play", "dd")
        t0 = time.perf_counter()
        legal = state.legal_actions()
        world = np.array(state.hands, dtype=np.int64)
        x = _team_points(state, seat, _evaluate(state, [world], legal, workspace()))
        return true_deal_values(
            {c: x[0, i] for i, c in enumerate(legal)},
            UNIT,
            time.perf_counter() - t0,
            "the true deal, solved double-dummy (an oracle: every hand seen)",
            CardValues,
            samples={c: x[:, i] for i, c in enumerate(legal)},
            possible=1,
        )


#: The decider of a registered play policy by name, ``play_decider(name, params)``: the
#: searches' classes, else :func:`_policy_card`, drawn once a decision.
play_decider = PlayDeciders(
    P.REGISTRY,
    {"pimc": PimcPlay, "dd": DdPlay},
    KernelPlay.maker(_policy_card, _kernel_policy, draws=True, who=PilottaPlay.who),
)


#: A seat's three policies, each answering in its phase.
SeatDecider = seat_decider_type(
    {"auction": "auction", "declare": "declare", "play": "play"}, __name__
)


def seat_deciders(setup: np.ndarray) -> list[SeatDecider]:
    """The four seats' deciders of a Setup (``api.make_setup``): each team's auction policy and
    parameter row, declaration policy, play policy (pimc with the team's worlds)."""
    setup = np.asarray(setup, dtype=np.int64)
    names = {
        stage: {p.id: name for name, p in P.policies(stage).items()}
        for stage in ("auction", "declare", "play")
    }
    teams = []
    for t in (0, 1):
        lo = Setup.PARAMS_EW if t else Setup.PARAMS_NS
        auction = AuctionDecider(
            names["auction"][int(setup[Setup.AUCTION_NS + t])],
            row=setup[lo : lo + N_AUCTION_PARAMS].copy(),
        )
        declare = DeclareDecider(names["declare"][int(setup[Setup.DECLARE_NS + t])])
        play_name = names["play"][int(setup[Setup.PLAY_NS + t])]
        if play_name == "pimc":
            play = PimcPlay(worlds=int(setup[Setup.WORLDS_NS + t]))
        else:
            play = play_decider(play_name)
        teams.append(SeatDecider(auction, declare, play))
    return [teams[p & 1] for p in range(4)]
