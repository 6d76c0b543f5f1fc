"""The position a Pitch record tells, as its player saw it: checked against the rules, replayed
on a state whose hidden hands are placeholders (:func:`seen_position`: its public facts only),
and with the hidden cards one world consistent with it (:func:`position_of`, the game
definition's ``position``: ``play`` at the end of a ``--history``, a one-hand ``review`` at each
of the player's cards).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from ..core.engine.errors import InputError
from ..core.engine.masks import mask_bits, mask_count
from . import cards as C
from .layouts import TRICKS
from .position import BID_BASE, FULL, PASS, PitchState, _suit_mask, beats, legal_call_mask
from .record import call_name
from .rules import Rules
from .worlds import check_worlds

if TYPE_CHECKING:
    from .record import PitchRecord


def _where(t: int, j: int) -> str:
    return f"trick {t + 1}, card {j + 1}"


def _check_auction(calls: list[int], n: int) -> None:
    highest = 0
    for s, c in enumerate(calls):
        if not (legal_call_mask(highest, s == n - 1) >> c) & 1:
            why = (
                "the dealer must bid when everyone passed"
                if s == n - 1 and highest == 0
                else f"a call must pass or beat {highest}"
                + (" (the dealer may steal at it)" if s == n - 1 else "")
            )
            raise InputError(f"auction: seat {s} cannot call {call_name(c)}: {why}")
        highest = max(highest, c)


def _check_tricks(tricks: list[list[int]], hand: int, n: int) -> None:
    """No card twice (his hand and the tricks), no trick too long, only the last unfinished,
    the round not over."""
    seen: dict[int, str] = {c: "your hand" for c in mask_bits(hand)}
    for t, cards in enumerate(tricks):
        if t >= TRICKS:
            raise InputError(f"tricks: {len(tricks)} tricks (a round has {TRICKS})")
        if len(cards) > n:
            raise InputError(f"tricks: trick {t + 1} has {len(cards)} cards at {n} players")
        if len(cards) < n and t < len(tricks) - 1:
            raise InputError(
                f"tricks: trick {t + 1} has {len(cards)} cards; only the last may be unfinished"
            )
        for j, c in enumerate(cards):
            if c in seen:
                raise InputError(f"{C.card_name(c)} is twice: in {seen[c]} and {_where(t, j)}")
            seen[c] = _where(t, j)
    if len(tricks) == TRICKS and len(tricks[-1]) == n:
        raise InputError("the round is over: every trick has been played")


def _plays(calls: list[int], tricks: list[list[int]], n: int) -> tuple[list[tuple], int]:
    """(who played what: (seat, card, trick, index) in order; the trump, -1 before the pitch),
    following the tricks from the bidder's lead."""
    bidder, top = -1, 0
    if len(calls) == n:
        for s, c in enumerate(calls):
            if c and c >= top:
                top, bidder = c, s
    plays = []
    leader, trump = bidder, -1
    for t, cards in enumerate(tricks):
        best, wseat = -1, -1
        for j, c in enumerate(cards):
            seat = (leader + j) % n
            if trump < 0:
                trump = c >> 4
            if best < 0 or beats(c, best, trump):
                best, wseat = c, seat
            plays.append((seat, c, t, j))
        if len(cards) == n:
            leader = wseat
    return plays, trump


def seen_position(rec: PitchRecord, rules: Rules) -> PitchState:
    """The position at the end of ``rec`` as its player saw it, checked (one line, InputError,
    for: a bad seat or auction, a card twice, a trick too long, a hand that does not fit the
    cards played, a card played against the rules by him or after a void shown by another, a
    position where he is not to act, hidden cards the voids shown cannot place). His cards now
    are ``rec.hand_now`` (else his dealt hand less the cards played); the hidden cards are
    placeholders: its public facts only (:func:`position_of` for a world)."""
    n = rules.players
    seat = rec.player
    if rec.players != n:
        raise InputError(f"{rec.players} players but the rules are for {n}")
    if not 0 <= seat < n:
        raise InputError(f"seat must be 0..{n - 1} at {n} players")
    hand = rec.hand_now
    if hand is None:  # every card played by anyone leaves his dealt hand, if it was in it
        hand = (rec.dealt[seat] or 0) & ~C.cards_to_mask(c for t in rec.tricks for c in t)
    if hand & ~FULL:
        raise InputError("not a card mask")
    _check_auction(rec.calls, n)
    if len(rec.calls) < n and rec.tricks:
        raise InputError(f"cards were played but the auction has {len(rec.calls)} of {n} calls")
    _check_tricks(rec.tricks, hand, n)
    plays, trump = _plays(rec.calls, rec.tricks, n)
    if rec.trump is not None and trump >= 0 and rec.trump != trump:
        raise InputError(
            f"trump: {C.SUITS[rec.trump]} given but the pitch {C.card_name(rec.tricks[0][0])} "
            f"makes {C.SUITS[trump]} trump"
        )
    mine = [c for s, c, _, _ in plays if s == seat]
    dealt_mine = hand | C.cards_to_mask(mine)
    if mask_count(dealt_mine) != C.HAND_SIZE:
        raise InputError(
            f"you hold {mask_count(hand)} cards and played {len(mine)}: a hand is {C.HAND_SIZE} "
            f"({C.format_cards(hand)}; played {' '.join(C.card_name(c) for c in mine) or '-'})"
        )
    st = _placeholders(rec, rules, seat, dealt_mine, plays)
    for c in rec.calls:
        st.apply(PASS if c == 0 else BID_BASE + c)
    for who, c, t, j in plays:
        if who == seat:
            legal = st.legal_mask()
            if not legal >> c & 1:
                raise InputError(
                    f"{_where(t, j)}: you may not play {C.card_name(c)} (legal then: "
                    f"{C.format_cards(legal)}): a revoke"
                )
        elif st.voids[who] >> (c >> 4) & 1:
            raise InputError(
                f"{_where(t, j)}: seat {who} plays {C.card_name(c)} but showed no "
                f"{C.SUIT_NAMES[c >> 4].lower()} before: a revoke"
            )
        _force_play(st, who, c)
    to_move = st.current_player()
    if to_move != seat:
        raise InputError(f"it is seat {to_move}'s turn, not yours (seat {seat})")
    check_worlds(st, seat)
    return st


def _placeholders(rec, rules: Rules, seat: int, dealt_mine: int, plays: list) -> PitchState:
    """A state dealt his hand and, for every other seat, the cards it played and any unseen
    cards of the right number (no void checked)."""
    n = rules.players
    pool = mask_bits(FULL & ~dealt_mine & ~C.cards_to_mask(c for _, c, _, _ in plays))
    dealt = []
    for s in range(n):
        if s == seat:
            dealt.append(dealt_mine)
            continue
        own = [c for x, c, _, _ in plays if x == s]
        k = C.HAND_SIZE - len(own)
        dealt.append(C.cards_to_mask(pool[:k]) | C.cards_to_mask(own))
        pool = pool[k:]
    return PitchState(dealt, rules, trump=rec.trump if not rec.tricks else None)


def _force_play(st: PitchState, seat: int, card: int) -> None:
    """Apply another seat's ``card`` on the public state. His placeholder hand holds the card
    but may also hold cards of the suit led that his real hand did not (he did not follow: a
    void, which the caller has checked against his later plays); those are swapped for unseen
    cards of other suits first, so the card is legal."""
    legal = st.legal_mask()
    if not legal >> card & 1:
        led = st.first >> 4
        keep = st.hands[seat] & ~_suit_mask(led) | (1 << card)
        st.hands[seat] = keep | _spare(st, mask_count(st.hands[seat]) - mask_count(keep), led)
        st._legal = -1
    st.apply(card)


def _spare(st: PitchState, k: int, avoid: int) -> int:
    """``k`` placeholder cards outside suit ``avoid`` and every hand and play."""
    used = 0
    for s in range(st.n):
        used |= st.hands[s] | st.played[s]
    pool = [c for c in mask_bits(FULL & ~used) if c >> 4 != avoid]
    if len(pool) < k:
        raise InputError("impossible history: the cards left cannot fill the hands")
    return C.cards_to_mask(pool[:k])


def position_of(
    rec: PitchRecord,
    rules: Rules,
    others: str = "threshold",
    seed: int = 1,
    before_kernels: Callable[[], None] | None = None,
) -> PitchState:
    """The play position at the end of ``rec`` (his seat to play): his cards and the history as
    told, the hidden cards one world consistent with them (``PitchState.resample``,
    seeded by ``seed``; ``others``: the others' bid policy the calls are read with). InputError, one
    line, when the record is impossible or the auction is not over; ``before_kernels()`` once
    every check has passed, before the sampler runs."""
    public = seen_position(rec, rec.table_rules(rules))
    if public.phase != "play":
        raise InputError(
            f"the auction is not over: your call (seat {rec.player}); ask 'piquet pitch bid' for it"
        )
    if before_kernels is not None:
        before_kernels()
    return public.resample(rec.player, np.random.default_rng(seed), others or "threshold")


__all__ = ["position_of", "seen_position"]
