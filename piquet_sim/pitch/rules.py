"""The rules options of Pitch Six as one frozen object, and the integer array kernels take.

The rules are described in ``docs/rules/pitch.md``. Kernels never see this dataclass: they take
``Rules.to_array()``, an int64 array indexed by :class:`~.layouts.RuleSlot`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

import numpy as np

from ..core.errors import InputError
from .cards import MAX_PLAYERS, MIN_PLAYERS
from .layouts import RuleSlot

LOW_TO = ("holder", "capturer")
GAME_TIE = ("nobody", "bidder")


class RulesError(InputError):
    """An unknown or invalid rules option."""


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise RulesError(f"{name} must be one of {', '.join(choices)}; got {value!r}")


@dataclass(frozen=True)
class Rules:
    """Every rules option with its default (see ``docs/rules/pitch.md``).

    players: 3 to 6, each for himself.
    must_follow: False ("may trump"): a player holding the suit led may follow it or trump;
        True: a trump is allowed only when void in the suit led.
    low_to: "holder" (the player dealt the lowest trump in play scores Low) or "capturer"
        (the winner of the trick in which it falls).
    game_tie: "nobody" (a tie for the most game points scores nobody) or "bidder" (the bidder,
        if he is among the tied).
    target: the total a bidder must reach, having made his bid, to win the game (12).
    """

    players: int = 4
    must_follow: bool = False
    low_to: str = "holder"
    game_tie: str = "nobody"
    target: int = 12

    def __post_init__(self) -> None:
        if isinstance(self.players, bool) or not isinstance(self.players, int | np.integer):
            raise RulesError(f"players must be a whole number, got {self.players!r}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise RulesError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, got {self.players}")
        if not isinstance(self.must_follow, bool):
            raise RulesError(f"must_follow must be true or false, got {self.must_follow!r}")
        _check_choice("low_to", self.low_to, LOW_TO)
        _check_choice("game_tie", self.game_tie, GAME_TIE)
        if isinstance(self.target, bool) or not isinstance(self.target, int | np.integer):
            raise RulesError(f"target must be a whole number, got {self.target!r}")
        if not 1 <= self.target <= 1000:
            raise RulesError(f"target must be 1 to 1000, got {self.target}")
        object.__setattr__(self, "players", int(self.players))
        object.__setattr__(self, "target", int(self.target))

    def to_array(self) -> np.ndarray:
        """The int64 array the kernels take (slots :class:`RuleSlot`)."""
        arr = np.zeros(RuleSlot.LEN, dtype=np.int64)
        arr[RuleSlot.PLAYERS] = self.players
        arr[RuleSlot.MUST_FOLLOW] = self.must_follow
        arr[RuleSlot.LOW_TO_CAPTURER] = LOW_TO.index(self.low_to)
        arr[RuleSlot.GAME_TIE_BIDDER] = GAME_TIE.index(self.game_tie)
        arr[RuleSlot.TARGET] = self.target
        return arr

    @classmethod
    def from_array(cls, arr: np.ndarray) -> Rules:
        """Inverse of :meth:`to_array`; raises RulesError on an array no Rules produces."""
        arr = np.asarray(arr)
        if arr.shape != (RuleSlot.LEN,):
            raise RulesError(f"a rules array has {int(RuleSlot.LEN)} entries, got {arr.shape}")
        for slot in (RuleSlot.MUST_FOLLOW, RuleSlot.LOW_TO_CAPTURER, RuleSlot.GAME_TIE_BIDDER):
            if int(arr[slot]) not in (0, 1):
                raise RulesError(f"rules array slot {slot.name} is {int(arr[slot])}, not 0 or 1")
        return cls(
            players=int(arr[RuleSlot.PLAYERS]),
            must_follow=bool(arr[RuleSlot.MUST_FOLLOW]),
            low_to=LOW_TO[int(arr[RuleSlot.LOW_TO_CAPTURER])],
            game_tie=GAME_TIE[int(arr[RuleSlot.GAME_TIE_BIDDER])],
            target=int(arr[RuleSlot.TARGET]),
        )

    def to_dict(self) -> dict:
        """Plain dict of the options (for JSON and reports)."""
        return asdict(self)

    @classmethod
    def option_names(cls) -> list[str]:
        return [f.name for f in fields(cls)]


DEFAULT_RULES = Rules()
