"""colver's bots as Pilotta card players (``piquet_sim.external.colver``; skipped without
colver): each plays full legal rounds under the contree preset, refuses other card-play rules,
and the fair heuristic does not read hidden hands while the oracle one does."""

from __future__ import annotations

import pytest

pytest.importorskip("colver")

from piquet_sim.core.engine.errors import InputError  # noqa: E402
from piquet_sim.core.study.arena import play_deal  # noqa: E402
from piquet_sim.external.colver import ColverPlay, external_decider  # noqa: E402
from piquet_sim.pilotta.actions import DECLARE, PASS, bid_action
from piquet_sim.pilotta.deciders import (  # noqa: E402
    AuctionDecider,
    DeclareDecider,
    SeatDecider,
    play_decider,
)
from piquet_sim.pilotta.position import PilottaState
from piquet_sim.pilotta.rules import preset  # noqa: E402

CONTREE = preset("contree")
BOTS = [
    ColverPlay("heuristic"),
    ColverPlay("heuristic-sees-all"),
    ColverPlay("smart_ismcts", time_ms=2),
    ColverPlay("naive_ismcts", time_ms=2),
    ColverPlay("isdd", determinizations=2),
]


class Recorder(SeatDecider):
    """A seat that checks each card it is given is legal before playing it."""

    def __init__(self, play):
        super().__init__(AuctionDecider("threshold"), DeclareDecider("all"), play)
        self.cards = 0

    def choose(self, state):
        action = super().choose(state)
        assert action in state.legal_actions()
        self.cards += state.phase == "play"
        return action


@pytest.mark.parametrize("bot", BOTS, ids=lambda b: b.name)
def test_each_bot_plays_full_legal_rounds(bot):
    colver_seats, ours = Recorder(bot), Recorder(play_decider("random"))
    played = 0
    for index in range(2):
        state = PilottaState.from_deal(3, index, CONTREE)
        deciders = [colver_seats, ours, colver_seats, ours]
        returns = play_deal(state, deciders)
        assert state.is_terminal() and len(returns) == 4
        played += len(state.plays)
    assert played and colver_seats.cards + ours.cards == played
    assert colver_seats.cards == ours.cards  # 16 cards a side in every round played


def test_refuses_pilotta_card_play():
    state = PilottaState.from_deal(3, 0)  # Pilotta's own rules: not colver's game
    state.apply_all(["80S", "pass", "pass", "pass"])
    while state.phase == "declare":
        state.apply(DECLARE)
    with pytest.raises(InputError, match="contree preset"):
        ColverPlay("heuristic").choose(state)
    with pytest.raises(InputError, match="Belote Contree"):
        external_decider("piquet", "ismcts")


def _first_lead(bot, hands) -> tuple[int, bool] | None:
    """The first card ``bot`` leads from North after North's 80S and three passes, and
    whether the declarations showed nothing (so the deal looks the same to North)."""
    state = PilottaState.from_hands(hands, dealer=3, rules=CONTREE)
    for action in (bid_action(0, 0), PASS, PASS, PASS):
        state.apply(action)
    while state.phase == "declare":
        state.apply(DECLARE)
    quiet = not any(state.shown[1:]) and not any(state.announced[1:])
    return bot.choose(state), quiet


def test_fair_heuristic_ignores_hidden_hands_and_the_oracle_does_not():
    """East's and South's hands swapped (North sees neither, nobody announced anything):
    colver's heuristic on a drawn world leads the same card; on the true deal it does not
    always (it reads every hand, hence its oracle mark)."""
    fair, oracle = ColverPlay("heuristic"), ColverPlay("heuristic-sees-all")
    compared = oracle_changed = 0
    for index in range(60):
        hands = list(PilottaState.from_deal(9, index).dealt)
        swapped = [hands[0], hands[2], hands[1], hands[3]]
        a, quiet_a = _first_lead(fair, hands)
        b, quiet_b = _first_lead(fair, swapped)
        if not (quiet_a and quiet_b):
            continue
        compared += 1
        assert a == b, index
        oracle_changed += _first_lead(oracle, hands)[0] != _first_lead(oracle, swapped)[0]
    assert compared >= 5 and oracle_changed >= 1
