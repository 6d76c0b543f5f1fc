"""Pilotta's actions and the facts about a hand they need: the action numbers (a card, a call, a
declaration choice), their names and parsing, a hand's tierce and what a declaration shows,
and the Setup a position assumes of the table.

Actions (ints below :data:`NUM_ACTIONS`): ``0..31`` a card (index ``suit * 8 + rank``,
``cards.py``); :data:`PASS` (32); a bid ``BID_BASE + 4 * level + suit`` (33..72: level 0..9 is
80, 90 … 160 and the capot, suit 0..3 S H D C); :data:`DECLARE` (73) and
:data:`KEEP_TIERCE` (74), the ``all`` and ``no-tierce`` declaration policies.
"""

from __future__ import annotations

import functools
import re

import numpy as np

from ..core.engine.errors import InputError
from ..core.game import position as core_position
from ..core.game.actions import ActionNames
from . import cards as C
from .calls import CAPOT_LEVEL, LEVELS
from .kernels import tricks as KT
from .kernels.declarations import (
    combination_cards,
)
from .kernels.tables import POINTS, SEQ_RUNS, STRENGTH
from .layouts import (
    BID_CAPOT,
    N_AUCTION_PARAMS,
    SETUP_LEN,
    Setup,
)
from .policies import DECL_ALL, DECL_NO_TIERCE, auction_params, defaults, play_worlds
from .policies import get as get_policy
from .rules import Rules, RuleSlot

CHANCE = core_position.CHANCE
TERMINAL = core_position.TERMINAL

N_CARDS = 32
PASS = 32
BID_BASE = 33
N_LEVELS = len(LEVELS)
DECLARE = BID_BASE + 4 * N_LEVELS
KEEP_TIERCE = DECLARE + 1
NUM_ACTIONS = KEEP_TIERCE + 1
#: Declaration actions by policy id (``policies``: all, no-tierce) and back.
DECL_ACTIONS = {DECL_ALL: DECLARE, DECL_NO_TIERCE: KEEP_TIERCE}
DECL_POLICY = {DECLARE: DECL_ALL, KEEP_TIERCE: DECL_NO_TIERCE}
PHASES = ("auction", "declare", "play", "over")
PH_AUCTION, PH_DECLARE, PH_PLAY, PH_OVER = range(4)
FULL = 0xFFFFFFFF
#: Worlds drawn by :func:`sample_world` (each one pimc's ``deal_world``) before it gives up.
MAX_WORLD_TRIES = 400
#: Shuffles tried per world before the play (the bid advisor's number), then the last is kept.
AUCTION_TRIES = 400


def bid_action(level: int, suit: int) -> int:
    """The action of a bid (level 0..9, suit 0..3)."""
    return BID_BASE + 4 * level + suit


def call_of(action: int) -> tuple[int, int]:
    """(level, suit) of a call action; (-1, -1) for a pass."""
    if action == PASS:
        return -1, -1
    k = action - BID_BASE
    return k // 4, k % 4


def call_name(level: int, suit: int) -> str:
    """'pass', '90H', 'capotS' (the bid advisor's strings)."""
    if level < 0:
        return "pass"
    return ("capot" if level == CAPOT_LEVEL else str(LEVELS[level])) + C.SUITS[suit]


def parse_call(text: str) -> tuple[int, int]:
    """(level, suit) of 'pass', 'p', '90H', '160 S', 'capotC'; InputError otherwise."""
    t = str(text).strip().replace(" ", "")
    if t.lower() in ("pass", "p", "-"):
        return -1, -1
    if t.lower().startswith("capot"):
        number, suit = BID_CAPOT, t[5:]
    else:
        digits = len(t) - len(t.lstrip("0123456789"))
        if digits == 0:
            raise InputError(f"'{text}' is not a call (pass, 80H … 160S, capotC)")
        number, suit = int(t[:digits]), t[digits:]
    levels = (*LEVELS[:-1], BID_CAPOT)
    if number not in levels:
        raise InputError(f"'{text}': bids are 80, 90, …, 160 or capot")
    try:
        s = C.parse_suit(suit)
    except InputError:
        raise InputError(f"'{text}': a bid names a trump suit (S, H, D or C)") from None
    return levels.index(number), s


#: The text of every action that is not a card: a call (the pass, then the bids),
#: ``"declare"``, ``"keep tierce"``.
OTHER_ACTIONS = {a: call_name(*call_of(a)) for a in range(PASS, DECLARE)} | {
    DECLARE: "declare",
    KEEP_TIERCE: "keep tierce",
}

#: The text of an action: a card, a call, ``"declare"`` or ``"keep tierce"``.
action_name = ActionNames(C.PACK, OTHER_ACTIONS.get, f"actions are 0..{NUM_ACTIONS - 1}")


def parse_action(text: str) -> int:
    """The action named by ``text``: a card (``"AS"``, ``"10H"``), a call (``"pass"``,
    ``"120S"``, ``"capotH"``), ``"declare"`` (or ``"all"``), ``"keep tierce"`` (or
    ``"no-tierce"``)."""
    t = re.sub(r"[\s_-]+", " ", str(text).strip().lower())
    if t in ("declare", "declare all", "all"):
        return DECLARE
    if t in ("keep tierce", "keep tierces", "keep", "no tierce"):
        return KEEP_TIERCE
    try:
        return C.PACK.parse_card(str(text).strip())
    except C.CardError:
        pass
    try:
        level, suit = parse_call(text)
    except InputError:
        raise InputError(
            f"'{text}' is no action (a card AS, a call pass / 90H / capotS, declare, keep tierce)"
        ) from None
    return PASS if level < 0 else bid_action(level, suit)


@functools.cache
def _rules_arrays(rules: Rules) -> tuple[np.ndarray, int]:
    """(the kernels' rules array, the play code of the legal-card function) of these rules."""
    arr = rules.to_array()
    if hasattr(KT, "play_code"):
        return arr, int(KT.play_code(arr))
    return arr, int(arr[RuleSlot.PARTNER_EXEMPTION])


def has_tierce(hand: int) -> bool:
    """True when ``hand`` holds a sequence of exactly three cards (what ``keep tierce``
    keeps)."""
    for s in range(4):
        h = (hand >> (8 * s)) & 0xFF
        if SEQ_RUNS[h, 0] == 3 or SEQ_RUNS[h, 2] == 3:
            return True
    return False


def shown_cards(hand: int, action: int) -> int:
    """The cards ``hand`` shows under a declaration action."""
    return int(combination_cards(np.int64(hand), np.int64(DECL_POLICY[action])))


def make_setup(auction: str = "random", declare: str = "all", play: str = "random") -> np.ndarray:
    """A Setup (``layouts.Setup``) with one auction, declaration and play policy for both teams,
    their default parameters (``api.make_setup``'s array, without importing the API's
    pandas): what a state assumes of the table (pimc's soft facts read it)."""
    setup = np.zeros(SETUP_LEN, dtype=np.int64)
    row = auction_params(auction)
    worlds = play_worlds(defaults("play", "pimc")["worlds"])
    for t in (0, 1):
        setup[Setup.AUCTION_NS + t] = get_policy("auction", auction).id
        lo = Setup.PARAMS_EW if t else Setup.PARAMS_NS
        setup[lo : lo + N_AUCTION_PARAMS] = row
        setup[Setup.PLAY_NS + t] = get_policy("play", play).id
        setup[Setup.WORLDS_NS + t] = worlds
        setup[Setup.DECLARE_NS + t] = get_policy("declare", declare).id
    return setup


def default_setup() -> np.ndarray:
    """The Setup a state assumes when given none: the random bidder (every call fits every
    hand, so the auction shapes no world), everyone declaring all, random play."""
    return make_setup()


def strength(card: int, trump: int) -> int:
    """A card's place in its suit's play order (0 lowest)."""
    return int(STRENGTH[1 if card >> 3 == trump else 0, card & 7])


def card_points_of(card: int, trump: int, kq: int = 0) -> int:
    """A card's points with ``trump`` trumps (``kq`` 1: trump K 3, Q 2)."""
    return int(POINTS[kq, 1 if card >> 3 == trump else 0, card & 7])
