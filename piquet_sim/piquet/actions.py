"""Piquet's actions and the facts about a hand they need: the action numbers (a card, the end of
a discard, a declaration of a class as declared, sunk or the lesser), their names and parsing,
each class's keys of a hand and the cards a declaration shows, and who wins a trick.

Actions (ints below :data:`NUM_ACTIONS`): ``0..31`` a card (index ``suit * 8 + rank``,
``cards.py``), :data:`END` (32) the end of a discard, ``DECL_BASE + 3 * class + kind`` a
declaration (class point / sequence / sets; kind declare / sink / lesser).
"""

from __future__ import annotations

import functools

import numpy as np

from ..core.engine.errors import InputError
from ..core.game import position as core_position
from ..core.game.actions import ActionNames
from . import cards as C
from .kernels import layouts as L
from .kernels.bundles import make_env
from .kernels.declarations import (
    sequence_cards,
    set_cards,
)
from .kernels.knowledge import (
    class_key,
    shown_point_cards,
)
from .kernels.sinking import CH_LESSER_POINT, choice_masks
from .kernels.tables import SUIT_TABLES
from .rules import Rules

CHANCE = core_position.CHANCE
TERMINAL = core_position.TERMINAL

N_CARDS = 32
END = 32
DECL_BASE = 33
DECLARE, SINK, LESSER = 0, 1, 2
KINDS = ("declare", "sink", "lesser")
CLASSES = ("point", "sequence", "sets")
NUM_ACTIONS = DECL_BASE + 3 * len(CLASSES)
ROLES = ("elder", "younger")
WINNERS = {L.WIN_NONE: "none", L.WIN_ELDER: "elder", L.WIN_YOUNGER: "younger", L.WIN_EQUAL: "equal"}
PHASES = ("exchange", "exchange", "declare", "play", "over")
PH_ELDER_EXCHANGE, PH_YOUNGER_EXCHANGE, PH_DECLARE, PH_PLAY, PH_OVER = range(5)

FULL = 0xFFFFFFFF
COURT = 0x70707070  # J Q K of every suit: a dealt hand without them is carte blanche
ELDER_MAX = 5
TALON = 8
N_TRICKS = 12
#: Draws per world before the sampler drops the declaration bounds (pimc's default).
MAX_ATTEMPTS = 2000
#: Worlds tried by :func:`resample_view` before it gives up.
MAX_WORLD_TRIES = 400
SCORE_FIELDS = (
    "carte_blanche",
    "point",
    "sequence",
    "sets",
    "carte_rouge",
    "repique",
    "play",
    "cards",
    "pique",
    "total",
    "tricks",
    "taken",
)


@functools.cache
def env_of(rules: Rules):
    """The kernels' ``Env`` of these rules (one per rules, shared)."""
    return make_env(rules.to_array())


#: The text of every action that is not a card: ``"end"``, ``"<kind> <class>"``.
OTHER_ACTIONS = {END: "end"} | {
    DECL_BASE + k: f"{KINDS[k % 3]} {CLASSES[k // 3]}" for k in range(NUM_ACTIONS - DECL_BASE)
}

#: The text of an action: a card, ``"end"``, or ``"<kind> <class>"``.
action_name = ActionNames(C.PACK, OTHER_ACTIONS.get, f"actions are 0..{NUM_ACTIONS - 1}")


def decl_action(cls: int, kind: int) -> int:
    """The action of declaring (``kind``) class ``cls``."""
    return DECL_BASE + 3 * cls + kind


def _class_of(text: str) -> int | None:
    t = text.strip().lower()
    for i, name in enumerate(CLASSES):
        if t in (name, name + "s", name.rstrip("s")):
            return i
    return None


def parse_action(text: str, current_class: int | None = None) -> int:
    """The action named by ``text`` (see the module docstring): a card (``"AS"``, ``"10H"``),
    ``"end"``, ``"declare point"``, ``"sink sequence"``, ``"lesser sets"``; ``"declare"``,
    ``"sink"`` or ``"lesser"`` alone name the class in ``current_class``."""
    t = text.strip().lower()
    if t in ("end", "done", "stop"):
        return END
    words = t.split()
    if words and words[0] in ("declare", "sink", "sunk", "lesser"):
        kind = {"declare": DECLARE, "sink": SINK, "sunk": SINK, "lesser": LESSER}[words[0]]
        if len(words) == 1:
            if current_class is None:
                raise InputError(f"'{text}' names no class (point, sequence, sets)")
            return decl_action(current_class, kind)
        cls = _class_of(" ".join(words[1:]))
        if cls is None:
            raise InputError(f"'{text}': the classes are point, sequence, sets")
        return decl_action(cls, kind)
    return C.parse_card(text)


@functools.lru_cache(maxsize=4096)
def _class_keys(hand: int) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """((point, sequence, sets) keys of the whole hand, (those of its lesser declarations, 0
    where the lesser declares nothing or the same)); masks from :func:`_lesser_masks`."""
    full = tuple(int(class_key(np.int64(hand), c, SUIT_TABLES)) for c in range(3))
    lesser = []
    for c in range(3):
        m = _lesser_masks(hand)[c]
        k = int(class_key(np.int64(hand & m), c, SUIT_TABLES))
        lesser.append(k if 0 < k < full[c] else 0)
    return full, tuple(lesser)


@functools.lru_cache(maxsize=4096)
def _lesser_masks(hand: int) -> tuple[int, int, int]:
    """The (point, sequence, sets) masks of the lesser declarations of ``hand``
    (``kernels.sinking.choice_masks``)."""
    out = []
    for c in range(3):
        m = choice_masks(np.int64(CH_LESSER_POINT + c), np.int64(hand), SUIT_TABLES)
        out.append(int(m[c]) & FULL)
    return tuple(out)


def kind_mask(hand: int, cls: int, kind: int) -> int:
    """The mask a player declares class ``cls`` from: everything, nothing, or the lesser."""
    if kind == DECLARE:
        return FULL
    if kind == SINK:
        return 0
    return _lesser_masks(hand)[cls]


def shown_cards(hand: int, mask: int, cls: int) -> int:
    """The cards a player shows when his declaration of class ``cls`` (from ``hand & mask``)
    wins (``kernels.knowledge``: the declared point suit, every declared sequence, every
    declared set)."""
    h = np.int64(hand)
    if cls == 0:
        return int(shown_point_cards(h, np.int64(mask), SUIT_TABLES)) & FULL
    if cls == 1:
        return int(sequence_cards(np.int64(hand & mask), SUIT_TABLES)) & FULL
    return int(set_cards(np.int64(hand & mask))) & FULL


def winner_code(e_key: int, y_key: int) -> int:
    """``WIN_*`` of a class from both declared keys."""
    if e_key > y_key:
        return L.WIN_ELDER
    if y_key > e_key:
        return L.WIN_YOUNGER
    return L.WIN_EQUAL if e_key > 0 else L.WIN_NONE


def trick_winner(leader: int, lead: int, reply: int) -> int:
    """The seat winning a trick: the follower when he follows suit higher."""
    if (reply >> 3) == (lead >> 3) and reply > lead:
        return 1 - leader
    return leader
