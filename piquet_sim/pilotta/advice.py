"""Pilotta play advice: the cards ranked, the best explained (moved out of ``deciders``)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..core.engine.masks import mask_bits
from ..core.engine.stats import Estimate
from ..core.game import position as core_position
from ..core.game.position import world_mean
from . import cards as C
from .card_values import CardValues, card_values
from .deciders import EXACT_LIMIT, _check_phase
from .kernels import solver as K
from .kernels.pimc import deal_world
from .layouts import Comb
from .position import (
    FULL,
    PilottaState,
    card_points_of,
    strength,
)

# ---------------------------------------------------------------------- play advice


@dataclass
class PlayAdvice(core_position.PlayAdvice):
    """What :func:`advise_play` answers: every legal card ranked best first by expected card
    points for the player's team (``values``, :class:`CardValues`), the best, why in one line,
    its margin over the runner-up (paired over the same worlds), and each card's chance that
    the contract is made (``made``: card -> Estimate of a proportion)."""

    made: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        st = self.state
        rows = self.card_rows()
        for row, c in zip(rows, self.ranking, strict=True):
            if not self.forced and c in self.made:
                m = self.made[c]
                row["p_made"] = {"p": m.mean, "ci95": m.ci95}
        team = self.seat & 1
        return {
            "seat": C.SEATS[self.seat],
            "team": C.TEAMS[team],
            "hand": C.PACK.card_names(st.hands[self.seat]),
            "contract": st.contract(),
            "contracting": team == st.c_team,
            "trick": len(st.line) + 1,
            "trick_cards": [st.action_to_string(c) for c in st.trick],
            "points_so_far": {"you": st.pts[team], "them": st.pts[1 - team]},
            **self.advice_dict(),
            "cards": rows,
            **self.margin_dict(),
        }


def _made(state: PilottaState, vals: CardValues, legal: list[int]) -> dict:
    """Each card's share of worlds in which the contract is made (Wilson interval): the
    contracting team's card points (from the card values) plus the combinations it scores and
    its pilotta (the world's K and Q of trumps in one of its hands) against the bid."""
    if state.bidder < 0 or not vals.hands:
        return {}
    c = state.c_team
    rules = state.rules
    capot = int(getattr(rules, "capot_points", 250))
    comb = int(state.comb[Comb.POINTS_NS + c])
    kq = (1 << (8 * state.trump + 6)) | (1 << (8 * state.trump + 5))
    pil = np.array(
        [20 * any((int(w[p]) | state.gone[p]) & kq == kq for p in (c, c + 2)) for w in vals.hands]
    )
    out = {}
    for card in legal:
        c_pts = vals.contracting[card]
        if state.bid == 250:
            made = c_pts >= capot
        elif rules.contract_on_card_points_only:
            made = c_pts >= state.bid
        else:
            made = c_pts + comb + pil >= state.bid
        out[card] = Estimate.proportion(int(made.sum()), len(made))
    return out


def _beats(state: PilottaState, card: int) -> bool:
    """True when ``card`` would win the trick so far."""
    if not state.trick:
        return True
    trump, led = state.trump, state.led
    if card >> 3 == trump:
        power = 16 + strength(card, trump)
    elif card >> 3 == led:
        power = strength(card, trump)
    else:
        power = -1
    return power > state.win_power


def _master(state: PilottaState, card: int, out: int) -> bool:
    """No out card of ``card``'s suit is stronger."""
    suit = card >> 3
    st = strength(card, state.trump)
    return not any(o >> 3 == suit and strength(o, state.trump) > st for o in mask_bits(out))


def explain(state: PilottaState, best: int, runner: int | None) -> str:
    """Why ``best`` rather than ``runner`` (the runner-up), in a few words, from simple rules on
    the two cards: taking or ducking the trick, points onto the partner's trick, a master
    cashed or kept, trumps drawn or the trump guard kept, a suit kept."""
    if runner is None:
        return "the only legal card"
    seat = state.current_player()
    trump = state.trump
    hand = state.hands[seat]
    out = FULL & ~hand & ~state.played
    pts = lambda c: card_points_of(c, trump, state._kq)  # noqa: E731
    name = C.card_name
    is_trump = lambda c: c >> 3 == trump  # noqa: E731
    suit = lambda c: C.SUIT_NAMES[c >> 3].lower()  # noqa: E731
    trumps_held = [c for c in mask_bits(hand) if is_trump(c)]
    contracting = (seat & 1) == state.c_team
    if state.trick:
        if state.partner_winning():
            if pts(best) > pts(runner):
                return f"puts {pts(best)} points on the partner's trick"
            if is_trump(runner) and not is_trump(best):
                return "keeps the trumps: the partner holds the trick"
            if pts(best) < pts(runner):
                return f"keeps {name(runner)}: the partner's trick needs no help"
        wins_b, wins_r = _beats(state, best), _beats(state, runner)
        if wins_b and not wins_r:
            if is_trump(best) and state.led != trump:
                return "trumps the trick" if state.top_trump < 0 else "over-trumps the trick"
            if _master(state, best, out):
                return "takes the trick with the master"
            return "takes the trick"
        if wins_r and not wins_b:
            return f"lets the trick go and keeps {name(runner)}"
        if wins_b and wins_r:
            if pts(best) < pts(runner):
                return f"wins with the cheaper card, keeping {name(runner)}"
            return "wins with the stronger card"
        if is_trump(runner) and not is_trump(best):
            return f"keeps the trump {name(runner)}"
        if pts(best) < pts(runner):
            return f"gives away fewer points than {name(runner)}"
        if best >> 3 != runner >> 3:
            return f"throws from {suit(best)}, keeping {suit(runner)}"
        return f"plays {name(best)} rather than {name(runner)}"
    # leading
    trumps_out = any(is_trump(c) for c in mask_bits(out))
    if is_trump(best) and not is_trump(runner) and trumps_out:
        if _master(state, best, out):
            return "draws trumps with the master"
        return "draws trumps"
    if is_trump(runner) and not is_trump(best) and trumps_out:
        guarded = [c for c in trumps_held if not _master(state, c, out) and strength(c, trump) >= 5]
        if guarded and len(trumps_held) >= 2:
            return "keeps the trump guard"
        return "keeps the trumps"
    if _master(state, best, out) and pts(best) > 0 and not _master(state, runner, out):
        return "cashes the master"
    if _master(state, runner, out) and not _master(state, best, out):
        return f"keeps the master {name(runner)} as an entry"
    if _master(state, best, out) and pts(best) > 0:
        return f"cashes the master {name(best)} first"
    partner = (seat + 2) % 4
    if (
        state.voids >> (4 * partner + (best >> 3)) & 1
        and not state.voids >> (4 * partner + trump) & 1
    ):
        return f"leads to the partner's void in {suit(best)}"
    if contracting and is_trump(best):
        return "leads trumps"
    if best >> 3 == runner >> 3:
        if strength(best, trump) < strength(runner, trump):
            return f"leads low in {suit(best)}, keeping {name(runner)}"
        return f"leads {name(best)} rather than {name(runner)}"
    return f"leads {suit(best)} rather than {suit(runner)}"


def entry_kernels() -> tuple:
    """The kernels a play advice calls first from Python (for a compile notice on a cold
    cache)."""
    from .kernels.play import card_played
    from .kernels.tricks import legal_cards

    return (legal_cards, card_played, deal_world, K.value_near, K.play_card)


def advise_play(
    state: PilottaState,
    worlds: int = 200,
    seed: int = 1,
    exact_limit: int = EXACT_LIMIT,
    max_seconds: float | None = None,
) -> PlayAdvice:
    """What the seat to play should play: :func:`card_values` for every legal card, ranked (ties
    to the lower card), the best explained (:func:`explain`) with its paired margin over the
    runner-up, and each card's P(contract made). A forced card is answered at once."""
    seat = _check_phase(state, "play", "play advice")
    vals = card_values(
        state, worlds=worlds, seed=seed, exact_limit=exact_limit, max_seconds=max_seconds
    )
    legal = state.legal_actions()
    if len(legal) == 1:
        return PlayAdvice(state, seat, legal, vals, "the only legal card")
    ranking = sorted(legal, key=lambda c: (-vals.values[c].mean, c))
    best, runner = ranking[0], ranking[1]
    if vals.exact:
        margin = world_mean(vals.samples[best].astype(np.float64) - vals.samples[runner], True)
    else:
        margin = Estimate.paired(vals.samples[best], vals.samples[runner])
    why = explain(state, best, runner)
    other = C.card_name(runner)
    other = "playing it" if other in why else other  # the reason names the runner-up already
    if margin.mean == 0:
        why += f" (worth the same as {other})"
    elif not vals.exact and margin.lo <= 0:
        why += f" (+{margin.mean:.2f} over {other}, within the noise)"
    else:
        why += f" (+{margin.mean:.2f} over {other})"
    return PlayAdvice(state, seat, ranking, vals, why, margin, _made(state, vals, legal))
