"""The toy game's positions (the core's ``State``): four cards each from a 16-card pack, four
tricks; the leader of a trick plays any card, the other follows suit when he can; the higher
card of the suit led wins and leads next. A seat's returns are the tricks it has won (plus
``last_trick_bonus`` for the last)."""

from __future__ import annotations

import numpy as np

from piquet_sim.core.engine.errors import InputError
from piquet_sim.core.game.position import TERMINAL, State

from .rules import HAND, PACK, SEATS, TRICKS, Rules


def suit_of(card: int) -> int:
    return card >> 3


def mask(cards) -> int:
    return sum(1 << c for c in cards)


def cards_of(m: int) -> list[int]:
    return [c for c in range(32) if m >> c & 1]


class ToyState(State):
    """One position of a toy deal (module docstring). ``hands``: each seat's cards now (masks);
    ``line``: the tricks finished, (leader, lead, reply); ``trick``: the cards of the trick in
    progress."""

    phase = "play"

    def __init__(self, hands, rules: Rules | None = None):
        hands = [int(h) for h in hands]
        if len(hands) != 2 or any(bin(h).count("1") != HAND for h in hands) or hands[0] & hands[1]:
            raise InputError("a toy deal is two hands of four different cards")
        if any(h & ~PACK.full for h in hands):
            raise InputError("a toy card is a ten, jack, queen or king")
        self.rules = rules or Rules()
        self.dealt = tuple(hands)
        self.hands = list(hands)
        self.leader = 0
        self.trick: list[int] = []
        self.line: list[tuple[int, int, int]] = []
        self.won = [0, 0]
        self._history: list[int] = []

    @classmethod
    def from_deal(cls, seed: int, index: int, rules: Rules | None = None) -> ToyState:
        """Deal ``index`` of ``seed`` (a numpy generator seeded by both)."""
        order = np.random.default_rng([seed, index]).permutation(PACK.mask_to_cards(PACK.full))
        return cls([mask(order[:HAND]), mask(order[HAND : 2 * HAND])], rules)

    def clone(self) -> ToyState:
        new = object.__new__(ToyState)
        new.__dict__.update(self.__dict__)
        new.hands, new.trick, new.line = list(self.hands), list(self.trick), list(self.line)
        new.won, new._history = list(self.won), list(self._history)
        return new

    @property
    def num_players(self) -> int:
        return 2

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        return (self.leader + len(self.trick)) % 2

    def is_terminal(self) -> bool:
        return len(self.line) == TRICKS

    def legal_actions(self) -> list[int]:
        if self.is_terminal():
            return []
        hand = self.hands[self.current_player()]
        if self.trick:
            follow = [c for c in cards_of(hand) if suit_of(c) == suit_of(self.trick[0])]
            if follow:
                return follow
        return cards_of(hand)

    def apply(self, action: int) -> None:
        action = int(action)
        if action not in self.legal_actions():
            who = SEATS[self.current_player()] if not self.is_terminal() else "nobody"
            raise InputError(f"{who} cannot play {self.action_to_string(action)} now")
        p = self.current_player()
        self.hands[p] &= ~(1 << action)
        self.trick.append(action)
        self._history.append(action)
        if len(self.trick) == 2:
            lead, reply = self.trick
            follows = suit_of(reply) == suit_of(lead)
            winner = (1 - self.leader) if follows and reply > lead else self.leader
            self.won[winner] += 1 + (self.rules.last_trick_bonus if len(self.line) == 3 else 0)
            self.line.append((self.leader, lead, reply))
            self.leader, self.trick = winner, []

    def returns(self) -> list[float]:
        return [float(w) for w in self.won]

    def observation(self, seat: int) -> dict:
        return {
            "seat": SEATS[seat],
            "hand": PACK.card_names(self.hands[seat]),
            "tricks": [[PACK.card_name(a), PACK.card_name(b)] for _, a, b in self.line],
            "trick": [PACK.card_name(c) for c in self.trick],
            "won": list(self.won),
        }

    def voids(self, seat: int) -> int:
        """The suits ``seat`` showed void in (a bit a suit): he did not follow."""
        out = 0
        for leader, lead, reply in self.line:
            if 1 - leader == seat and suit_of(reply) != suit_of(lead):
                out |= 1 << suit_of(lead)
        return out

    def resample(self, seat: int, rng: np.random.Generator) -> ToyState:
        """The same history with the other seat's unseen cards redealt from those he may hold
        (not the seat's, not played, not in a suit he showed void in)."""
        other = 1 - seat
        unseen = PACK.full & ~self.hands[seat] & ~mask(self._history)
        allowed = [c for c in cards_of(unseen) if not self.voids(other) >> suit_of(c) & 1]
        need = bin(self.hands[other]).count("1")
        hand = mask(rng.choice(allowed, size=need, replace=False)) if need else 0
        return self.with_hand(other, hand)

    def with_hand(self, seat: int, now: int) -> ToyState:
        """This history with ``seat`` holding ``now`` (his dealt hand: ``now`` and his plays)."""
        dealt = list(self.dealt)
        played = [a if leader == seat else b for leader, a, b in self.line]
        if self.trick and self.leader == seat:
            played.append(self.trick[0])
        dealt[seat] = now | mask(played)
        new = ToyState(dealt, self.rules)
        for a in self._history:
            new.apply(a)
        return new

    def action_to_string(self, action: int) -> str:
        return PACK.card_name(int(action))

    def string_to_action(self, text: str) -> int:
        return PACK.parse_card(text)


def tricks_from(state: ToyState, seat: int) -> int:
    """The tricks ``seat`` wins from ``state`` on with both sides playing their best (plain
    minimax over both hands): what a card is worth with every card seen."""
    memo: dict = {}

    def best(st: ToyState) -> int:
        if st.is_terminal():
            return st.won[seat]
        key = (tuple(st.hands), tuple(st.trick), st.leader, tuple(st.won))
        if key not in memo:
            values = []
            for c in st.legal_actions():
                nxt = st.clone()
                nxt.apply(c)
                values.append(best(nxt))
            memo[key] = max(values) if st.current_player() == seat else min(values)
        return memo[key]

    return best(state)
