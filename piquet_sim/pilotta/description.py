"""A Pilotta play position as its player tells it (:class:`Description`): his cards now, his
seat, the dealer, the auction or the contract, the cards each seat showed, the tricks so far.
:func:`description_state` checks it against the rules (one line for a fault) and builds a
full position, the hidden cards one world consistent with it; :func:`position_of` does so for
the position a record ends at (``play --history`` and a one-hand review's card decisions)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..core.engine.errors import InputError
from ..core.engine.masks import mask_bits, mask_count
from ..core.engine.rng import stream_key
from . import cards as C
from .actions import (
    DECLARE,
    FULL,
    KEEP_TIERCE,
    PASS,
    _rules_arrays,
    bid_action,
    card_points_of,
    has_tierce,
    make_setup,
    shown_cards,
)
from .kernels import tricks as KT
from .kernels.declarations import (
    combination_points,
)
from .kernels.play import card_played
from .position import PilottaState
from .rules import DEFAULT_RULES, Rules
from .worlds import (
    _declaration_for,
    forbidden_by,
    sample_world,
)

if TYPE_CHECKING:
    from .record import PilottaRecord


@dataclass
class Description:
    """A position as one player tells it (:data:`HISTORY_FORM`; JSON twin in
    :func:`parse_history_json`). ``hand``: the cards he holds now; ``calls`` the whole auction
    (seat, level or -1, suit), or ``contract`` (seat, level, suit) alone; ``declarations``:
    the cards each seat showed (seats not named showed none; his own, when absent, what his
    hand declares); ``tricks``: cards in playing order, trick by trick, the last possibly
    unfinished."""

    seat: int
    hand: int
    dealer: int | None = None
    calls: list[tuple[int, int, int]] | None = None
    contract: tuple[int, int, int] | None = None
    declarations: dict[int, int] = field(default_factory=dict)
    tricks: list[list[int]] = field(default_factory=list)


def _names(mask: int) -> str:
    return C.format_cards(mask)


def _synth_calls(dealer: int, contract: tuple[int, int, int]) -> list[tuple[int, int, int]]:
    """An auction ending in ``contract`` (passes up to its bidder, the bid, three passes)."""
    bidder, level, suit = contract
    calls = []
    p = (dealer + 1) % 4
    while p != bidder:
        calls.append((p, -1, -1))
        p = (p + 1) % 4
    calls.append((bidder, level, suit))
    calls += [((bidder + k) % 4, -1, -1) for k in range(1, 4)]
    return calls


def _check_plays(d, plays, decl, trump, leader, code, rules_arr):
    """Replay the described tricks publicly: the player's own plays must be legal from his
    hand then; another seat may not play a card one of his earlier plays showed he did not
    hold, nor fail a duty while holding a card he showed (or plays later). Returns (each
    play's trick context, the cards each seat played, the voids shown, the leader of the
    current trick)."""
    seat, hand = d.seat, d.hand
    later = [0, 0, 0, 0]
    for p, c, _ in plays:
        later[p] |= 1 << c
    forbidden = [0, 0, 0, 0]
    gone = [0, 0, 0, 0]
    contexts = []
    voids = 0
    lead, led, top, wp, wseat, tpts, n = leader, -1, -1, -1, leader, 0, 0
    for p, c, i in plays:
        pw = n >= 2 and wseat == (p + 2) % 4
        later[p] &= ~(1 << c)
        if p == seat:
            then = hand | later[p] | (1 << c)
            legal = int(KT.legal_cards(then, n, led, trump, top, pw, code))
            if not legal >> c & 1:
                raise InputError(
                    f"you could not play {C.card_name(c)} in trick {i + 1} (revoke): you had to "
                    f"play one of {_names(legal)}"
                )
        else:
            if forbidden[p] >> c & 1:
                raise InputError(
                    f"{C.SEATS[p]} played {C.card_name(c)} in trick {i + 1}, a card an earlier "
                    "play of his showed he did not hold (revoke)"
                )
            f = forbidden_by(c, n, led, trump, top, pw, code)
            known = (decl.get(p, 0) & ~gone[p] & ~(1 << c)) | later[p]
            if f & known:
                raise InputError(
                    f"{C.SEATS[p]} played {C.card_name(c)} in trick {i + 1} while holding "
                    f"{_names(f & known)} (revoke)"
                )
            forbidden[p] |= f
        contexts.append((p, c, n, led, top, pw))
        gone[p] |= 1 << c
        led, voids, wp, wseat, top, tpts = (
            int(x) for x in card_played(c, p, led, trump, rules_arr, voids, wp, wseat, top, tpts)
        )
        n += 1
        if n == 4:
            lead = wseat
            led, top, wp, tpts, n = -1, -1, -1, 0, 0
    return contexts, gone, voids, lead


def description_state(
    d: Description,
    rules: Rules = DEFAULT_RULES,
    setup: np.ndarray | None = None,
    seed: int = 1,
    before_kernels=None,
) -> PilottaState:
    """The position of a description, checked (a card twice, a revoke, an impossible
    history: one line, InputError), the hidden cards one world consistent with it (pimc's
    sampler and :func:`world_ok`, stream ``seed``). ``before_kernels`` (no arguments) is called
    once the checks that need no kernel have passed (a compile notice)."""
    seat, hand, dealer = d.seat, d.hand, d.dealer
    calls = list(d.calls) if d.calls is not None else _synth_calls(dealer, d.contract)
    bidder, _, trump = next((p, lv, s) for p, lv, s in reversed(calls) if lv >= 0)
    leader = (dealer + 1) % 4 if rules.first_lead == "after_dealer" else bidder
    seen: dict[int, str] = {c: "in your hand" for c in mask_bits(hand)}
    for i, cards in enumerate(d.tricks):
        for c in cards:
            if c in seen:
                raise InputError(f"{C.card_name(c)} is {seen[c]} and in trick {i + 1}")
            seen[c] = f"in trick {i + 1}"
    if sum(len(t) for t in d.tricks) == 32:
        raise InputError("all eight tricks are played: nothing left to play")
    if before_kernels is not None:
        before_kernels()
    rules_arr, code = _rules_arrays(rules)
    # who played each card (the trick winners lead the next)
    played_by: dict[int, int] = {}
    plays: list[tuple[int, int, int]] = []
    lead = leader
    for i, cards in enumerate(d.tricks):
        for j, c in enumerate(cards):
            p = (lead + j) % 4
            seen[c] = f"played by {C.SEATS[p]} in trick {i + 1}"
            played_by[c] = p
            plays.append((p, c, i))
        if len(cards) == 4:
            lead = (lead + int(KT.trick_winner_pos(np.array(cards, dtype=np.int64), trump))) % 4
    # the declarations
    decl = dict(d.declarations)
    mine_whole = hand | sum(1 << c for c, p in played_by.items() if p == seat)
    for p, m in decl.items():
        if m and shown_cards(m, DECLARE) != m:
            raise InputError(
                f"{C.SEATS[p]} declared {_names(m)}: not combinations (sequences of three or "
                "more in one suit, fours of nines to aces)"
            )
        for c in mask_bits(m):
            owner = played_by.get(c)
            if p != seat and hand >> c & 1:
                raise InputError(f"{C.card_name(c)} is in your hand and declared by {C.SEATS[p]}")
            if owner is not None and owner != p:
                raise InputError(f"{C.card_name(c)} was declared by {C.SEATS[p]} and {seen[c]}")
        for q, m2 in decl.items():
            if q < p and m & m2:
                raise InputError(f"{_names(m & m2)} declared by {C.SEATS[q]} and {C.SEATS[p]}")
    if mask_count(mine_whole) != 8:
        done = sum(1 for p, _, _ in plays if p == seat)
        raise InputError(
            f"you hold {mask_count(hand)} cards and played {done}: a round deals 8 each "
            f"(you should hold {8 - done})"
        )
    own_actions = [DECLARE, KEEP_TIERCE] if has_tierce(mine_whole) else [DECLARE]
    if seat in decl:
        own = next((a for a in own_actions if shown_cards(mine_whole, a) == decl[seat]), None)
        if own is None:
            full = shown_cards(mine_whole, DECLARE)
            raise InputError(
                f"you declared {_names(decl[seat]) or 'nothing'}, but your hand declares "
                f"{_names(full) or 'nothing'}"
                + (" (or the same without its tierces)" if KEEP_TIERCE in own_actions else "")
            )
    else:
        own = DECLARE
        decl[seat] = shown_cards(mine_whole, DECLARE)
    contexts, gone, voids, lead = _check_plays(d, plays, decl, trump, leader, code, rules_arr)
    to_play = (lead + (len(d.tricks[-1]) % 4 if d.tricks else 0)) % 4
    if to_play != seat:
        raise InputError(f"it is {C.SEATS[to_play]}'s turn to play, not yours ({C.SEATS[seat]})")
    # a template with these public facts (placeholder hidden hands), then a world for them
    unseen = FULL & ~mine_whole & ~sum(gone)
    placed = [decl.get(p, 0) & unseen for p in range(4)]
    template = PilottaState(
        _placeholder_hands(seat, mine_whole, gone, placed, unseen), dealer, rules, setup
    )
    actions = [PASS if lv < 0 else bid_action(lv, s) for _, lv, s in calls]
    for a in actions:
        template.apply(a)
    template.calls_known = d.calls is not None
    for _ in range(4):
        template.apply(DECLARE)
    for p in range(4):
        m = decl.get(p, 0)
        template.shown[p] = m
        template.announced[p] = int(combination_points(np.int64(m))) if m else 0
        template.decl_actions[p] = own if p == seat else DECLARE
    template.hands = [template.dealt[p] & ~gone[p] for p in range(4)]
    template.gone = list(gone)
    template.played = sum(gone)
    template.contexts = contexts
    template.voids = voids
    _set_tricks(template, d.tricks, leader, rules_arr)
    world = sample_world(template, seat, int(stream_key(np.int64(seed), np.int64(1))))
    if world is None:
        others = ", ".join(C.SEATS[p] for p in range(4) if p != seat)
        raise InputError(
            f"impossible history: no deal of the {mask_count(unseen)} unseen cards to {others} "
            "fits the voids, the declarations and the cards played"
        )
    dealt = template.dealt_of(world)
    key = int(stream_key(np.int64(seed), np.int64(0)))
    state = PilottaState(dealt, dealer, rules, setup, key)
    for a in actions:
        state.apply(a)
    state.calls_known = d.calls is not None
    for _ in range(4):
        p = state.current_player()
        state.apply(own if p == seat else _declaration_for(template, p, dealt[p]))
    for cards in d.tricks:
        for c in cards:
            state.apply(c)
    return state


def _placeholder_hands(seat, mine_whole, gone, placed, unseen) -> list[int]:
    """Four disjoint hands of 8 holding each seat's known cards (played, shown), the rest of
    the unseen cards anywhere: a template for the public facts."""
    hands = [gone[p] | placed[p] for p in range(4)]
    hands[seat] = mine_whole
    free = mask_bits(unseen & ~sum(placed))
    for p in range(4):
        while mask_count(hands[p]) < 8 and free:
            hands[p] |= 1 << free.pop()
    if any(mask_count(h) != 8 for h in hands):
        raise InputError(
            "impossible history: the cards played and declared do not fit four hands of 8"
        )
    return hands


def _set_tricks(template: PilottaState, tricks: list[list[int]], leader: int, rules_arr) -> None:
    """Set a template's trick state (tricks won, points, the current trick) from the tricks."""
    trump, kq = template.trump, template._kq
    template.line, template.pts, template.tricks_won, template.capot_alive = [], [0, 0], [0, 0], 1
    lead = leader
    for cards in tricks:
        if len(cards) < 4:
            break
        w = (lead + int(KT.trick_winner_pos(np.array(cards, dtype=np.int64), trump))) % 4
        pts = sum(card_points_of(c, trump, kq) for c in cards)
        template.pts[w & 1] += pts + (10 if len(template.line) == 7 else 0)
        template.tricks_won[w & 1] += 1
        if (w & 1) != template.c_team:
            template.capot_alive = 0
        template.line.append((lead, list(cards), w))
        lead = w
    template.leader = lead
    template.trick = list(tricks[-1]) if tricks and len(tricks[-1]) < 4 else []
    led, top, wp, ws, tp = -1, -1, -1, lead, 0
    for j, c in enumerate(template.trick):
        p = (lead + j) % 4
        led, _, wp, ws, top, tp = (
            int(x) for x in card_played(c, p, led, trump, rules_arr, 0, wp, ws, top, tp)
        )
    template.led, template.top_trump, template.win_power = led, top, wp
    template.win_seat, template.tpts = ws, tp
    template._legal = None
    template._legal_mask = -1
    template._forbidden = None


def description_of(rec: PilottaRecord) -> Description:
    """The play position a record ends at, as :func:`description_state` reads it: the
    player's cards then (``hand_now``, else his dealt hand less the cards he played)."""
    seat = rec.player
    hand = rec.hand_now
    if hand is None:  # every card played by anyone leaves his dealt hand, if it was in it
        played = sum(1 << c for cards in rec.tricks for c in cards)
        hand = rec.dealt[seat] & ~played
    return Description(
        seat=seat,
        hand=hand,
        dealer=rec.dealer,
        calls=None if rec.calls is None else list(rec.calls),
        contract=rec.contract_only,
        declarations=dict(rec.declared or {}),
        tricks=[list(t) for t in rec.tricks],
    )


def position_of(
    rec: PilottaRecord,
    rules: Rules,
    others: str,
    seed: int,
    before_kernels: Callable[[], None] | None = None,
) -> PilottaState:
    """The play position at the end of ``rec`` (hidden cards one world consistent with it),
    the others' calls read with the bidding model ``others`` (random: they say nothing)."""
    setup = make_setup(others or "random")
    return description_state(description_of(rec), rules, setup, seed, before_kernels)
