"""colver's Belote Contree bots as Pilotta card-play deciders (the ``peers`` extra).

colver (MIT, PyPI) is a Rust Belote Contree engine whose card play is Pilotta's under the
``contree`` rules preset (``tests/pilotta/test_pilotta_colver.py``: the same legal cards at every
step, the same double-dummy values). :class:`ColverPlay` answers a
:class:`~piquet_sim.pilotta.position.PilottaState`'s card-play decisions by driving a colver
``Env`` card by card: the deal (our hands, our dealer), our auction's calls replayed call by
call (colver's bid actions are ours shifted: pass 0, ``1 + 4 * level + suit``), then every card
played. Our declarations have no colver counterpart and are not shown to it (its bots do not
see the combinations announced). Only weight-free bots are used; no model is downloaded.

Bots (``method``):

* ``smart_ismcts``, ``naive_ismcts``, ``isdd``: a colver ``Agent`` (one per seat it plays) with
  uniform worlds (``worlds.source = "uniform"``): it keeps its own beliefs and sees every call
  and card through ``Agent.observe``. IS-MCTS bots search for ``time_ms`` milliseconds a move;
  ``isdd`` (information-set double dummy) solves ``determinizations`` worlds a move.
* ``heuristic``: colver's heuristic card player (``Env.action_heuristic_play``). It reads all
  four hands of the ``Env`` it is given (measured: on the true deal its card changes when two
  hidden hands are swapped), so it is played on one world drawn from what the seat has seen
  (our pimc's sampler, ``position.sample_world``): a fair heuristic player. ``heuristic-sees-all``
  plays it on the true deal: an oracle, marked so.

Card indices: colver's is ``8 * suit + place`` with the places 7 8 9 J Q K 10 A, ours
``8 * suit + rank`` with 7 8 9 10 J Q K A; seats N E S W and suits S H D C are the same.
"""

from __future__ import annotations

import zlib

import numpy as np

from ..core.engine.errors import InputError
from ..core.game.position import Decider
from ..pilotta.actions import BID_BASE, N_CARDS, PASS
from ..pilotta.cards import PLAIN_STRENGTH
from ..pilotta.position import PilottaState
from ..pilotta.worlds import sample_world

#: our card index -> colver's, and back
TO_COLVER = tuple(8 * (n >> 3) + PLAIN_STRENGTH[n & 7] for n in range(32))
FROM_COLVER = tuple(TO_COLVER.index(c) for c in range(32))
#: Bots offered (``heuristic-sees-all`` is an oracle: it reads every hand).
METHODS = ("heuristic", "smart_ismcts", "naive_ismcts", "isdd", "heuristic-sees-all")
#: The contree preset's play options colver's rules need (option -> value).
CONTREE_PLAY = {
    "partner_exemption": "plain_leads",
    "under_trump": "optional",
    "first_lead": "after_dealer",
}


def _colver():
    try:
        import colver
    except ImportError:
        raise InputError("colver's bots need colver: pip install 'piquet-sim[peers]'") from None
    return colver


def colver_action(action: int) -> int | None:
    """colver's action for one of ours: a card or a call (None: a declaration, which colver
    does not have)."""
    if 0 <= action < N_CARDS:
        return TO_COLVER[action]
    if action == PASS:
        return 0
    if BID_BASE <= action < BID_BASE + 40:
        return 1 + action - BID_BASE
    return None


def check_rules(state: PilottaState) -> None:
    """InputError unless ``state`` plays colver's card play (the ``contree`` preset)."""
    rules = state.rules
    for name, value in CONTREE_PLAY.items():
        if getattr(rules, name) != value:
            raise InputError(
                f"colver plays Belote Contree's card play: use the contree preset "
                f"({name} is {getattr(rules, name)!r}, colver's is {value!r})"
            )


def replay(state: PilottaState, dealt, agents=()):
    """A colver ``Env`` dealt ``dealt`` (four natural masks) with ``state``'s calls and cards
    stepped in, each shown first to ``agents``; the Env is then at ``state``'s position."""
    colver = _colver()
    env = colver.Env.deal_with_hands(
        state.dealer, [[TO_COLVER[c] for c in range(32) if h >> c & 1] for h in dealt]
    )
    for agent in agents:
        agent.init_deal(env)
    step(env, state.history(), agents)
    return env


def step(env, actions, agents=()) -> None:
    """Step our ``actions`` into ``env`` (declarations skipped), each observed by ``agents``."""
    for action in actions:
        theirs = colver_action(int(action))
        if theirs is None:
            continue
        for agent in agents:
            agent.observe(env, theirs)
        env.step(theirs)


class ColverPlay(Decider):
    """colver's ``method`` bot as our card player (module docstring). ``time_ms``: the IS-MCTS
    bots' search time a move; ``determinizations``: isdd's worlds a move; ``seed``: its random
    draws (the agents' seeds and the heuristic's worlds; the IS-MCTS bots, timed, do not repeat
    exactly)."""

    def __init__(
        self,
        method: str = "smart_ismcts",
        time_ms: int = 10,
        determinizations: int = 20,
        seed: int = 1,
    ):
        if method not in METHODS:
            raise InputError(f"unknown colver bot {method!r}; choose from {', '.join(METHODS)}")
        _colver()
        self.method = method
        self.time_ms = int(time_ms)
        self.determinizations = int(determinizations)
        self.seed = int(seed)
        self.oracle = method == "heuristic-sees-all"
        budget = {
            "smart_ismcts": f"-{self.time_ms}ms",
            "naive_ismcts": f"-{self.time_ms}ms",
            "isdd": f"-{self.determinizations}d",
        }.get(method, "")
        self.name = f"colver-{method.replace('_', '-')}{budget}"
        self._deal: tuple | None = None  # (dealt, dealer) of the session's deal
        self._history: list[int] = []
        self._env = None
        self._agents: dict[int, object] = {}

    # ------------------------------------------------------------------ the decision
    def choose(self, state: PilottaState) -> int:
        if state.phase != "play":
            raise InputError(f"{self.name} plays cards only, not the {state.phase}")
        check_rules(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.current_player()
        if self.method.startswith("heuristic"):
            card = self._heuristic(state, seat)
        else:
            card = self._agent_card(state, seat)
        if card not in legal:
            raise RuntimeError(f"{self.name} chose {card}, not legal here ({legal})")
        return card

    def _deal_seed(self, state: PilottaState, seat: int) -> int:
        """The seat's random seed for this deal, from what it knows at the deal's start (its
        own hand), so the draws never depend on the hidden cards."""
        key = f"{self.seed}:{state.dealer}:{state.dealt[seat]}:{seat}".encode()
        return zlib.crc32(key)

    def _heuristic(self, state: PilottaState, seat: int) -> int:
        if self.oracle:
            dealt = state.dealt
        else:
            rng = np.random.default_rng([self._deal_seed(state, seat), len(state.history())])
            world = sample_world(state, seat, int(rng.integers(0, 1 << 62)))
            if world is None:
                raise InputError("no deal of the unseen cards fits what was seen")
            dealt = state.dealt_of(world)
        env = replay(state, dealt)
        return FROM_COLVER[int(env.action_heuristic_play())]

    def _spec(self) -> str:
        budget = (
            f"determinizations = {self.determinizations}"
            if self.method == "isdd"
            else f"time_ms = {self.time_ms}"
        )
        return f'[play]\nmethod = "{self.method}"\n{budget}\n[worlds]\nsource = "uniform"\n'

    def _agent_card(self, state: PilottaState, seat: int) -> int:
        history = state.history()
        deal = (state.dealt, state.dealer)
        fresh = (
            deal != self._deal
            or history[: len(self._history)] != self._history
            or seat not in self._agents
        )
        if fresh:
            # a new deal, another seating of the same deal, or a seat not yet seen: the
            # session's agents replay the whole history (each sees every call and card)
            colver = _colver()
            seats = sorted({*self._agents, seat}) if deal == self._deal else [seat]
            self._agents = {
                s: colver.Agent(self._spec(), s, seed=self._deal_seed(state, s)) for s in seats
            }
            self._env = replay(state, state.dealt, list(self._agents.values()))
            self._deal = deal
        else:
            step(self._env, history[len(self._history) :], list(self._agents.values()))
        self._history = history
        decision = self._agents[seat].decide(self._env)
        return FROM_COLVER[int(decision["action"])]


def external_decider(game: str, arg: str, seed: int = 1) -> Decider:
    """The ``colver:<bot>[:<budget>]`` external player of the ladders (Pilotta only): ``bot``
    one of :data:`METHODS` (``ismcts`` = ``smart_ismcts``), ``budget`` milliseconds a move
    (IS-MCTS) or worlds a move (isdd)."""
    if game != "pilotta":
        raise InputError(f"colver plays Belote Contree (Pilotta's contree preset), not {game}")
    method, _, budget = arg.partition(":")
    method = {"ismcts": "smart_ismcts", "": "smart_ismcts"}.get(method, method)
    if budget and not budget.isdigit():
        raise InputError(f"colver:{arg}: the budget is a whole number (ms, or isdd's worlds)")
    kwargs = {}
    if budget:
        kwargs["determinizations" if method == "isdd" else "time_ms"] = int(budget)
    return ColverPlay(method, seed=seed, **kwargs)
