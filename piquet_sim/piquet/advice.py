"""Piquet play advice: the cards ranked, the best explained (moved out of ``deciders``)."""

from __future__ import annotations

import numpy as np

from ..core.engine.masks import mask_bits
from ..core.game import position as core_position
from ..core.game.position import world_mean
from . import cards as C
from .card_values import card_values
from .deciders import EXACT_LIMIT, _check_phase
from .kernels.pimc import reply_value
from .kernels.solver import mtdf
from .position import (
    FULL,
    PiquetState,
)

# ---------------------------------------------------------------------- play advice


class PlayAdvice(core_position.PlayAdvice):
    """What :func:`advise_play` answers: every legal card ranked best first by expected net
    deal points for the player (``values``, :class:`CardValues`), the best, why in one line,
    its margin over the runner-up (paired over the same worlds)."""

    def to_dict(self) -> dict:
        st = self.state
        points = [int(p) for p in st.returns()]
        return {
            "role": ("elder", "younger")[self.seat],
            "hand": C.card_names(st.hands[self.seat]),
            "trick": st.trick + 1,
            "lead": st.action_to_string(st.lead) if st.lead >= 0 else None,
            **self.advice_dict(),
            "points_so_far": {"you": points[self.seat], "opponent": points[1 - self.seat]},
            "cards": self.card_rows(),
            **self.margin_dict(),
        }


def _master(card: int, unseen: int) -> bool:
    above = (0xFF << (card & 0x18)) & ~((2 << card) - 1)
    return not unseen & above


def _top_master(hand: int, card: int, unseen: int) -> bool:
    """True when ``card`` is the top of its suit in ``hand`` and no unseen card beats it."""
    holding = hand & (0xFF << (card & 0x18))
    return _master(card, unseen) and holding >> (card + 1) == 0


def _suit(card: int) -> str:
    return C.SUIT_NAMES[card >> 3]


def _guards(hand: int, card: int, unseen: int) -> bool:
    """True when ``card`` is a low card guarding a king (one guard) or a queen (two) that is
    not a master in its suit."""
    holding = hand & (0xFF << (card & 0x18))
    for rank, need in ((6, 2), (5, 3)):
        top = (card & 0x18) | rank
        held = (holding >> top) & 1 and card < top and not _master(top, unseen)
        if held and bin(holding).count("1") <= need:
            return True
    return False


def explain(state: PiquetState, best: int, runner: int | None) -> str:
    """Why ``best`` rather than ``runner`` (the runner-up), in a few words, from simple rules
    on the two cards: taking or ducking the trick, a master cashed or kept, a guard kept, a
    void of his."""
    if runner is None:
        return "the only legal card"
    seat = state.current_player()
    hand = state.hands[seat]
    lead = state.lead
    unseen = FULL & ~(hand | state.played | ((1 << lead) if lead >= 0 else 0))
    cn = C.card_name
    if lead >= 0:
        follows = (best >> 3) == (lead >> 3)

        def wins(c):
            return (c >> 3) == (lead >> 3) and c > lead

        if wins(best) and not wins(runner):
            winners = [c for c in mask_bits(hand) if wins(c)]
            cheapest = best == min(winners)
            return "takes the trick" + (" with the cheapest winner" if cheapest else "")
        if wins(runner) and not wins(best):
            return f"lets the trick go and keeps {cn(runner)}"
        if wins(best) and wins(runner):
            return "wins with the cheaper card" if best < runner else "wins with the higher card"
        if follows:
            return (
                "follows low" if best < runner else f"follows with {cn(best)}, keeping lower cards"
            )
        if _guards(hand, runner, unseen) and not _guards(hand, best, unseen):
            return f"keeps the guard in {_suit(runner)}"
        if _top_master(hand, runner, unseen) and not _top_master(hand, best, unseen):
            return f"keeps the master {cn(runner)}"
        return f"throws from {_suit(best)}"
    if state.voids[1 - seat] & (1 << best):
        return f"he is void in {_suit(best)}: a sure trick"
    if _master(best, unseen) and not _master(runner, unseen):
        return "cashes the master"
    if _master(runner, unseen) and not _master(best, unseen):
        return f"keeps the master {cn(runner)} as an entry"
    if _master(best, unseen):
        return f"cashes the master {cn(best)} first"
    length = bin(hand & (0xFF << (best & 0x18))).count("1")
    if all(length >= bin(hand & (0xFF << (8 * s))).count("1") for s in range(4)):
        return f"leads from the long suit, {_suit(best)}"
    return f"leads {_suit(best)} rather than {_suit(runner)}"


def entry_kernels() -> tuple:
    """The kernels a play advice calls first from Python (for a compile notice on a cold
    cache)."""
    from .kernels.declarations import declaration_points
    from .kernels.knowledge import class_key, sample_opponent

    return (class_key, sample_opponent, declaration_points, mtdf, reply_value)


def advise_play(
    state: PiquetState,
    worlds: int = 1000,
    seed: int = 1,
    exact_limit: int = EXACT_LIMIT,
) -> PlayAdvice:
    """What the seat to act should play: :func:`card_values` for every legal card, ranked
    (ties to the lower card), the best explained (:func:`explain`) with its paired margin over
    the runner-up. A forced card is answered at once."""
    seat = _check_phase(state, "play", "play advice")
    vals = card_values(state, worlds=worlds, seed=seed, exact_limit=exact_limit)
    legal = state.legal_actions()
    if len(legal) == 1:
        return PlayAdvice(state, seat, legal, vals, "the only legal card")
    ranking = sorted(legal, key=lambda c: (-vals.values[c].mean, c))
    best, runner = ranking[0], ranking[1]
    margin = world_mean(vals.samples[best].astype(np.float64) - vals.samples[runner], vals.exact)
    why = explain(state, best, runner)
    if margin.mean == 0:
        why += f" (worth the same as {C.card_name(runner)})"
    elif not vals.exact and margin.lo <= 0:
        why += f" (+{margin.mean:.2f} over {C.card_name(runner)}, within the noise)"
    else:
        why += f" (+{margin.mean:.2f} over {C.card_name(runner)})"
    return PlayAdvice(state, seat, ranking, vals, why, margin)
