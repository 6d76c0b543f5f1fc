"""The worlds a Pilotta seat samples: the dealing kernel's placement test is exact (compared with
every assignment of a few cards), the cards a play forbids are barred while dealing rather than
drawn and thrown away, so positions whose duties leave few deals (a refused over-trump, a void,
a kept tierce after a capot bid) still get worlds, each keeping every duty."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from piquet_sim.pilotta.cards import parse_cards
from piquet_sim.pilotta.kernels import pimc as P
from piquet_sim.pilotta.position import PilottaState
from piquet_sim.pilotta.worlds import sample_world, world_ok


def _assignable(holders: list[int], room: list[int]) -> bool:
    """Every card to a seat of its holder set, each seat filled to exactly its room."""
    return any(
        all(holders[i] >> s & 1 for i, s in enumerate(seats))
        and all(seats.count(o) == room[o] for o in range(4))
        for seats in itertools.product(range(4), repeat=len(holders))
    )


def test_dealing_is_feasible_exactly_when_the_cards_can_be_assigned():
    rng = random.Random(3)
    seen = {True: 0, False: 0}
    for _ in range(400):
        seat = rng.randrange(4)
        others = [o for o in range(4) if o != seat]
        n = rng.randrange(0, 7)
        room = [0, 0, 0, 0]
        for _ in range(n):
            room[rng.choice(others)] += 1
        holders = [sum(1 << o for o in others if rng.random() < 0.6) for _ in range(n)]
        cnt = np.zeros(16, dtype=np.int64)
        for h in holders:
            cnt[h] += 1
        want = _assignable(holders, room)
        assert P._feasible(cnt, np.array(room, dtype=np.int64)) == want, (holders, room)
        seen[want] += 1
    assert min(seen.values()) > 50  # both answers were asked


def _refused_overtrump() -> PilottaState:
    """East's capot in hearts after North kept a tierce; West is void in hearts and South,
    under-trumping East's king with the queen, holds no higher heart: East must hold the three
    hearts still out (jack, ten, nine). North to play."""
    hands = [
        parse_cards(h)
        for h in (
            "JS TS AH 8H KD QC TC 7C",
            "KS KH JH TH 9H 7H JD 9D",
            "8S 7S QH AD QD TD AC KC",
            "AS QS 9S 8D 7D JC 9C 8C",
        )
    ]
    st = PilottaState(hands, 3)
    calls = "90H 110H 150C 160D pass capotH pass pass pass"
    tricks = "KS 7S AS TS, 7D KD JD AD, 8S QS JS 7H, KH QH 9S AH"
    for a in [*calls.split(" "), "keep tierce", "declare", "declare", "declare"]:
        st.apply(st.string_to_action(a))
    for a in tricks.replace(",", "").split(" "):
        st.apply(st.string_to_action(a))
    return st


def test_a_refused_overtrump_leaves_worlds_to_sample():
    st = _refused_overtrump()
    hearts = parse_cards("JH TH 9H")
    forbidden = st.forbidden()
    worlds = [sample_world(st, 0, key, tries=8) for key in range(12)]
    assert all(w is not None for w in worlds)
    for w in worlds:
        assert int(w[1]) & hearts == hearts
        assert world_ok(st, 0, w, forbidden)
    assert len({tuple(int(x) for x in w) for w in worlds}) > 3


def _random_play(seed: int, steps: int) -> PilottaState | None:
    """A deal played by uniformly random legal actions (calls, announcements, cards) for
    ``steps`` actions into the play, or None when the auction is thrown in."""
    rng = random.Random(seed)
    st = PilottaState.from_deal(seed, 0)
    while not st.is_terminal() and (st.phase != "play" or steps > 0):
        if st.phase == "play":
            steps -= 1
        st.apply(rng.choice(st.legal_actions()))
    return None if st.is_terminal() and st.phase != "play" else st


@pytest.mark.parametrize("part", range(2))
def test_worlds_after_random_play_keep_every_duty(part):
    found = 0
    for seed in range(part * 40, part * 40 + 40):
        st = _random_play(seed, 4 + seed % 24)
        if st is None or st.is_terminal():
            continue
        forbidden = st.forbidden()
        for seat in range(4):
            w = sample_world(st, seat, seed, tries=4)
            assert w is not None, (seed, seat)
            assert world_ok(st, seat, w, forbidden)
            assert all(int(w[p]) & forbidden[p] == 0 for p in range(4))
            found += 1
    assert found > 100
