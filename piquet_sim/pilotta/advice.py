"""Pilotta's part of a play advice: why the best card (:func:`explain`, from simple rules on the
two cards), each card's chance that the contract is made (:func:`made`) and the advice as the
player reads it (:func:`advice_view`: the position in one line, the JSON fields, the value
columns). The ranking and the margin are the core's (``core.game.advice``)."""

from __future__ import annotations

import numpy as np

from ..core.engine.masks import mask_bits
from ..core.engine.stats import Estimate
from ..core.game.advice import CardValues, Explanation, PlayAdvice
from ..core.game.definition import ValueSettings
from . import cards as C
from .actions import FULL, card_points_of, strength
from .layouts import Comb
from .position import PilottaState


def made(state: PilottaState, vals: CardValues, legal: list[int]) -> dict:
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
        c_pts = vals.per_card["contracting"][card]
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


def advice_view(advice: PlayAdvice, settings: ValueSettings) -> Explanation:
    """The advice as the player reads it: his seat, team and the contract, the trick so far and
    the card points won; each card's value in his team's card points with its interval and
    P(contract made)."""
    st = advice.state
    team = advice.seat & 1
    p_made = {} if advice.forced else made(st, advice.values, advice.ranking)
    fields = {
        "seat": C.SEATS[advice.seat],
        "team": C.TEAMS[team],
        "hand": C.PACK.card_names(st.hands[advice.seat]),
        "contract": st.contract(),
        "contracting": team == st.c_team,
        "trick": len(st.line) + 1,
        "trick_cards": [st.action_to_string(c) for c in st.trick],
        "points_so_far": {"you": st.pts[team], "them": st.pts[1 - team]},
    }
    contract = fields["contract"]
    side = "contracting" if fields["contracting"] else "defending"
    cards = fields["trick_cards"]
    trick = "you lead"
    if cards:
        trick = f"{C.SEATS[st.leader]} led {cards[0]}"
        trick += f", then {' '.join(cards[1:])}" if len(cards) > 1 else ""
    pts = fields["points_so_far"]
    header = (
        f"You ({fields['seat']}, {fields['team']}, {side} {contract['bid']} by "
        f"{contract['seat']}) hold {C.format_cards(st.hands[advice.seat])}; trick "
        f"{fields['trick']}, {trick}. Card points so far: you {pts['you']}, them {pts['them']}."
    )
    exact = advice.values.exact

    def cells(row: dict) -> list[str]:
        lo, hi = row["ci95"]
        interval = "exact" if exact else f"[{lo:.1f}, {hi:.1f}]"
        p = f"{row['p_made']['p'] * 100:.0f}%" if "p_made" in row else "-"
        return [f"{row['mean']:.1f}", interval, p]

    def extras(card: int) -> dict:
        if card not in p_made:
            return {}
        m = p_made[card]
        return {"p_made": {"p": m.mean, "ci95": m.ci95}}

    return Explanation(
        fields,
        header,
        ["your card points", "95% interval", "P(contract made)"],
        cells,
        extras,
    )
