"""pimc's ``score`` option: the card of the best round score summed over the decision's worlds
(``3 * score + the bidder's points`` in each world, the bidder maximising, a defender
minimising; ties to more of the bidder's points, then to the cheapest card), the same worlds
the default pimc draws. Checked against that rule computed in Python from the default's
per-world values."""

from __future__ import annotations

import numpy as np

from piquet_sim.core.engine.masks import mask_bits
from piquet_sim.pitch.deciders import SearchPlay, pitch_suit, seat_deciders, side_values
from piquet_sim.pitch.kernels.heuristic import cost
from piquet_sim.pitch.position import PitchState
from piquet_sim.pitch.rules import Rules


def _score_choice(state: PitchState, seat: int, d: dict) -> int:
    """The score rule in plain Python over the default decision's worlds."""
    cards = mask_bits(d["legal"])
    pts = side_values(state, state.bidder, d["truth"], d["hands"], d["vals"][:, : len(cards)])
    bid = state.bid
    utility = (3 * np.where(pts >= bid, bid, -bid) + pts).sum(axis=0)
    key = [(int(u), int(p)) for u, p in zip(utility, pts.sum(axis=0), strict=True)]
    best = max(key) if seat == state.bidder else min(key)
    tied = [c for c, k in zip(cards, key, strict=True) if k == best]
    return min(tied, key=lambda c: (cost(c, state.trump), cards.index(c)))


def test_score_option_plays_the_best_summed_round_score():
    rules = Rules(players=4)
    default = SearchPlay("pimc", {"worlds": 12})
    by_score = SearchPlay("pimc", {"worlds": 12, "score": 1})
    table = seat_deciders("threshold", "heuristic", 4)
    checked = changed = 0
    for i in range(40):
        st = PitchState.from_deal(9, i, rules)
        while not st.is_terminal():
            seat = st.current_player()
            if st.phase == "play" and len(st.legal_actions()) > 1:
                saved = st.stream.copy()
                d = default.decide(st, seat, pitch_suit(st, seat))
                st.stream[:] = saved  # the score player draws the same worlds
                card = by_score.card(st, seat)
                assert card == _score_choice(st, seat, d), (i, st.history())
                checked += 1
                changed += card != d["card"]
            st.apply(table[seat].choose(st))
    assert checked > 300 and changed > 10, (checked, changed)
