"""The review page's view of a deal (a :class:`~piquet_sim.core.game.definition.ReviewPlan`'s
``deal_view``), built once for every game from what the game says of its deal: the seats, the
dealt hands, its own phases' items, the tricks with who won each, the result lines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class DealView:
    """A deal as a game gives it to the page; :meth:`view` makes the page's dict.

    ``seats``: each seat's name in seat order; ``player``: the reviewed seat; ``dealt``: each
    seat's dealt cards (a mask; None when not known), labelled by ``hand_label`` (``{seat}``:
    its name), then ``more_hands`` as they are (e.g. a talon); ``tricks``: each trick's cards
    in the order played, ``leader`` leading the first; ``winner(cards, leader)``: a trick's
    winner, None while it is unfinished (the next trick's leader); ``phases(at)``: the game's
    phases before the play, each ``{"title", "items"}`` (``at``: each decision's key -> its
    number); ``result()``: the result lines; ``trick_note(number)``: a note on each trick,
    when the game has one; ``mark_followers``: whether a card that follows says ``led: false``
    (Piquet's rows name only the lead)."""

    seats: Sequence[str]
    player: int
    dealt: Sequence[int | None]
    tricks: Sequence[Sequence[int]]
    leader: int
    winner: Callable[[Sequence[int], int], int | None]
    card_name: Callable[[int], str]
    card_names: Callable[[int], list[str]]
    phases: Callable[[dict], list[dict]]
    result: Callable[[], list[str]]
    hand_label: str = "{seat}, dealt"
    more_hands: Sequence[dict] = field(default_factory=tuple)
    trick_note: Callable[[int], str] | None = None
    mark_followers: bool = True

    def view(self, at: dict) -> dict:
        """The page's view of the deal (``at``: each decision's key -> its number; the
        player's card of trick ``i`` is decision ``("card", i)``)."""
        seats = list(self.seats)
        hands = [
            {
                "seat": seats[s],
                "label": self.hand_label.format(seat=seats[s]),
                "cards": self.card_names(h),
            }
            for s, h in enumerate(self.dealt)
            if h is not None
        ]
        return {
            "seats": seats,
            "player": seats[self.player],
            "hands": hands + list(self.more_hands),
            "phases": self.phases(at),
            "tricks": self._tricks(at),
            "result": self.result(),
        }

    def _tricks(self, at: dict) -> list[dict]:
        n = len(self.seats)
        tricks = []
        leader = self.leader
        for i, cards in enumerate(self.tricks, 1):
            row = []
            for j, c in enumerate(cards):
                p = (leader + j) % n
                card: dict = {"seat": self.seats[p], "card": self.card_name(c)}
                if j == 0 or self.mark_followers:
                    card["led"] = j == 0
                card["decision"] = at.get(("card", i)) if p == self.player else None
                row.append(card)
            w = self.winner(cards, leader)
            trick = {"number": i, "cards": row, "winner": "" if w is None else self.seats[w]}
            if self.trick_note is not None:
                trick["note"] = self.trick_note(i)
            tricks.append(trick)
            if w is not None:
                leader = w
        return tricks
