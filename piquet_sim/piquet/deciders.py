"""Deciders: every registered Piquet policy (``policies.REGISTRY``) answering one decision of a
:class:`~piquet_sim.piquet.position.PiquetState` (the
:class:`~piquet_sim.core.game.position.Decider` contract).

Each decider calls the kernel the round kernels call for that policy, with the same parameter
row, so a deal played through a state and these deciders scores as ``simulation.simulate``
scores it:

* exchange (``random``, ``max``, ``greedy``, ``heuristic``): ``kernels.exchange.elder_exchange``
  / ``younger_exchange`` on the dealt hand; the discard is then made card by card (ascending)
  and ended;
* declare (``all``, ``sink``): ``kernels.declaring.declaration_masks``;
* play: ``random`` (``play.random_card``), ``greedy`` (``play.greedy_lead`` /
  ``greedy_reply``), ``heuristic`` (``heuristic.heuristic_turn`` on the seat's knowledge),
  ``dd`` (``play.dd_lead`` / ``dd_reply``, both hands seen), ``pimc`` (``pimc.pimc_decide``
  with the seat's knowledge and kept worlds).

Random draws (random exchange and play, pimc's worlds) come from the state's own stream (the
deal's stream for :meth:`PiquetState.from_deal`), in the order the round kernels draw, so those
deals match the records too. A decider that draws remembers its answer in ``state.memory``:
asking twice at one decision draws once.

``values(state)``: :class:`PimcDecider` and :func:`card_values` rank every legal card by the
mean over worlds consistent with what the seat saw (pimc's sampler; every world when few enough
to enumerate) of the exact double-dummy value; :class:`DdDecider` gives the exact values of the
true deal. Values are net deal points for the side to act (his points in the deal, those scored
so far included, minus the opponent's).
"""

from __future__ import annotations

import time

import numpy as np

from ..core.game.position import (
    ActionValues,
    Decider,
    KernelPlay,
    PlayDecider,
    PlayDeciders,
    deciding_seat,
    seat_decider_type,
    true_deal_values,
)
from . import policies as P
from .actions import DECLARE, END, FULL, SINK, decl_action
from .card_values import (
    EXACT_LIMIT,
    UNIT,
    _exact_value,
    _position,
    card_values,
    workspace,
)
from .kernels import layouts as L
from .kernels.declaring import declaration_masks
from .kernels.exchange import elder_exchange, younger_exchange
from .kernels.heuristic import heuristic_turn, seat_setup
from .kernels.pimc import pimc_decide
from .kernels.play import (
    dd_lead,
    dd_reply,
    greedy_lead,
    greedy_reply,
    new_scratch,
    player_card,
    random_card,
)
from .position import PiquetState
from .simulation import Policies

_TALON = np.zeros(8, dtype=np.int8)  # exchange kernels read the talon only to draw from it


def params_row(stage: str, name: str, params=None) -> np.ndarray:
    """A policy's row of the kernels' parameter array (``simulation.Policies.arrays``):
    ``params`` (names -> values, or values in order; missing ones at their defaults, checked)
    or the registry defaults; an exchange row without weights carries the greedy ones."""
    policy = P.get(stage, name)
    values = policy.check_params(params) if params is not None else policy.defaults
    if stage == "exchange" and not values:
        values = P.GREEDY_DEFAULTS
    row = np.zeros(L.STAGE_PARAMS, dtype=np.float64)
    row[: len(values)] = values
    return row


class ExchangeDecider(Decider):
    """An exchange policy: its discard, made card by card (ascending), then "end"."""

    def __init__(self, name: str = "greedy", params=None, row: np.ndarray | None = None):
        self.name = name
        self.id = P.get("exchange", name).id
        self.params = row if row is not None else params_row("exchange", name, params)

    def plan(self, state: PiquetState, seat: int) -> int:
        """The discard mask the policy makes from ``seat``'s dealt hand (draws from the
        state's stream for ``random``)."""
        hand = np.int64(state.dealt[seat])
        pid = np.int64(self.id)
        if seat == 0:
            _, disc, _ = elder_exchange(
                hand, _TALON, pid, self.params, state.key, state.stream, state._env
            )
        else:
            _, disc, _ = younger_exchange(
                hand,
                _TALON,
                np.int64(state.took[0]),
                pid,
                self.params,
                state.key,
                state.stream,
                state._env,
            )
        return int(disc) & FULL

    def choose(self, state: PiquetState) -> int:
        seat = deciding_seat(state, "exchange", f"exchange policy {self.name!r}")
        key = ("plan", seat)
        if key not in state.memory:
            state.memory[key] = self.plan(state, seat)
        plan = state.memory[key]
        legal = state.legal_actions()
        for a in legal:
            if a < END and (plan >> a) & 1:
                return a
        return END if END in legal else legal[0]


class DeclareDecider(Decider):
    """A declaration policy (``all``, ``sink``): per class, declare or sink."""

    def __init__(self, name: str = "all", params=None, row: np.ndarray | None = None):
        self.name = name
        self.id = P.get("declare", name).id
        self.params = row if row is not None else params_row("declare", name, params)

    def choose(self, state: PiquetState) -> int:
        seat = deciding_seat(state, "declare", f"declaration policy {self.name!r}")
        c = state.declaring_class
        masks = declaration_masks(np.int64(self.id), self.params, np.int64(state.decl_hands[seat]))
        kind = DECLARE if int(masks[c]) != 0 else SINK
        a = decl_action(c, kind)
        return a if a in state.legal_actions() else decl_action(c, DECLARE)


class PiquetPlay(PlayDecider):
    """A Piquet play policy with a decider of its own (``policy``: its registry name), its
    kernels' parameter row from ``params`` or ``row`` (:func:`params_row`)."""

    policy = ""

    def __init__(self, params=None, row: np.ndarray | None = None):
        super().__init__(self.policy, *_play_row(self.policy, params, row))


def _play_row(name: str, params=None, row: np.ndarray | None = None) -> tuple[int, np.ndarray]:
    """A play policy's registry id and parameter row (``row`` as given, else from ``params``)."""
    return P.get("play", name).id, row if row is not None else params_row("play", name, params)


def _legal_mask(state: PiquetState, seat: int) -> int:
    hand = state.hands[seat]
    if state.lead < 0:
        return hand
    same = hand & (0xFF << (state.lead & 0x18))
    return same or hand


class RandomPlay(PiquetPlay):
    """A uniform legal card (``play.random_card``, the state's stream)."""

    policy = "random"
    draws = True

    def card(self, state: PiquetState, seat: int) -> int:
        return int(random_card(np.int64(_legal_mask(state, seat)), state.key, state.stream))


class GreedyPlay(PiquetPlay):
    """``play.greedy_lead`` / ``greedy_reply`` on the seat's hand and the cards played."""

    policy = "greedy"

    def card(self, state: PiquetState, seat: int) -> int:
        hand = state.hands[seat]
        unseen = np.int64(FULL & ~(hand | state.played))
        if state.lead < 0:
            return int(greedy_lead(np.int64(hand), unseen))
        return int(greedy_reply(np.int64(hand), np.int64(state.lead), unseen))


class HeuristicPlay(PiquetPlay):
    """``heuristic.heuristic_turn`` on the seat's knowledge (set up once a deal, as the trick
    loop does)."""

    policy = "heuristic"

    def card(self, state: PiquetState, seat: int) -> int:
        key = ("heuristic", seat)
        if key not in state.memory:
            state.memory[key] = seat_setup(state.knowledge(seat), self.params)
        won = state.et if seat == 0 else state.trick - state.et
        return int(
            heuristic_turn(
                np.int64(state.hands[seat]),
                np.int64(state.lead),
                np.int64(state.played),
                np.int64(state.voids[1 - seat]),
                state.memory[key],
                np.int64(won),
            )
        )


class DdPlay(PiquetPlay):
    """Double-dummy play (an oracle: ``play.dd_lead`` / ``dd_reply`` on both true hands)."""

    policy = "dd"

    def card(self, state: PiquetState, seat: int) -> int:
        ws = workspace(state.rules)
        pos = _position(state)
        if state.lead < 0:
            return int(dd_lead(pos, ws))
        return int(dd_reply(pos, np.int64(state.lead), ws))

    def values(self, state: PiquetState) -> ActionValues:
        """Each legal card's exact value on the true deal (both hands seen)."""
        seat = deciding_seat(state, "play", "dd")
        t0 = time.perf_counter()
        ws = workspace(state.rules)
        pos = _position(state)
        base = state.net(seat)
        sign = 1 if seat == 0 else -1
        out = {c: base + sign * _exact_value(pos, state.lead, c, ws) for c in state.legal_actions()}
        return true_deal_values(
            out,
            UNIT,
            time.perf_counter() - t0,
            "the true deal, solved double-dummy (an oracle: it sees his cards)",
        )


class PimcDecider(PiquetPlay):
    """pimc play (``pimc.pimc_decide``: the seat's knowledge, the state's stream, his kept
    worlds). ``values`` ranks the legal cards over ``value_worlds`` worlds
    (:func:`card_values`)."""

    policy = "pimc"
    draws = True

    def __init__(
        self,
        params=None,
        row=None,
        value_worlds: int = 400,
        seed: int = 1,
        exact_limit: int = EXACT_LIMIT,
    ):
        super().__init__(params, row)
        self.value_worlds = value_worlds
        self.seed = seed
        self.exact_limit = exact_limit

    def card(self, state: PiquetState, seat: int) -> int:
        p = self.params
        sampler = (
            np.int64(p[0]),
            np.int64(p[1]),
            np.int64(p[2]),
            np.int64(p[3]),
            float(p[4]),
            np.int64(p[5]),
        )
        key = ("pimc_kept", seat)
        if key not in state.memory:
            state.memory[key] = np.zeros(L.PW_LEN, dtype=np.int64)
        view = tuple(np.int64(x) for x in state.play_view(seat))
        stats = np.zeros(L.PIMC_LEN, dtype=np.int64)
        return int(
            pimc_decide(
                np.int64(seat),
                view,
                state.knowledge(seat),
                sampler,
                state.key,
                state.stream,
                workspace(state.rules),
                stats,
                state.memory[key],
            )
        )

    def values(self, state: PiquetState) -> ActionValues:
        return card_values(
            state, worlds=self.value_worlds, seed=self.seed, exact_limit=self.exact_limit
        )


def _player_card(decider: KernelPlay, state: PiquetState, seat: int) -> int:
    """The card of any registered play policy through the trick loop's own dispatcher
    (``play.player_card``, the one the round kernels call for a seat they do not play
    themselves), with a scratch holding both seats' knowledge and kept worlds."""
    sc = state.memory.get("scratch")
    if sc is None:
        sc = state.memory["scratch"] = new_scratch()
    sc.know_e[:] = state.knowledge(0)
    sc.know_y[:] = state.knowledge(1)
    pos = _position(state)
    view = tuple(np.int64(x) for x in state.play_view(seat))
    return player_card(
        np.int64(decider.id),
        decider.params,
        np.int64(seat),
        view,
        (pos[0], pos[1]),
        state.key,
        state.stream,
        workspace(state.rules),
        sc,
    )


#: The decider of a play policy by name, ``play_decider(name, params, row=, kernel=)``: its
#: own class, or (a policy without one, or ``kernel``) the trick loop's dispatcher
#: (``play.player_card``, :func:`_player_card`) with its parameters by name, or the kernels'
#: ``row`` as is.
play_decider = PlayDeciders(
    P.REGISTRY,
    {
        "random": RandomPlay,
        "greedy": GreedyPlay,
        "heuristic": HeuristicPlay,
        "dd": DdPlay,
        "pimc": PimcDecider,
    },
    KernelPlay.maker(_player_card, _play_row, draws=True),
)


#: One seat's three stage deciders: each decision goes to its stage's.
SeatDecider = seat_decider_type(
    {"exchange": "exchange", "declare": "declare", "play": "play"}, __name__
)


def seat_deciders(policies: Policies | None = None) -> tuple[SeatDecider, SeatDecider]:
    """(elder's, younger's) deciders of a simulation's policies, with the very parameter rows
    ``Policies.arrays`` gives the round kernels."""
    policies = policies or Policies()
    _, params = policies.arrays()
    out = []
    for seat, role in enumerate(("elder", "younger")):
        rows = [params[L.STAGE_ELDER_EXCHANGE + seat + 2 * k].copy() for k in range(3)]
        out.append(
            SeatDecider(
                ExchangeDecider(policies.policy("exchange", role), row=rows[0]),
                DeclareDecider(policies.policy("declare", role), row=rows[1]),
                play_decider(policies.policy("play", role), row=rows[2]),
            )
        )
    return out[0], out[1]
