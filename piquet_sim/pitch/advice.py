"""Pitch's part of a play advice: why the best card (:func:`explain`, from simple rules on the
trick), which card of equal value comes first (:func:`cost`: the cheapest) and the advice as the
player reads it (:func:`advice_view`: the position in one line, the JSON fields, the value
columns, each card's P(bid made)). The ranking and the margin are the core's
(``core.game.advice``)."""

from __future__ import annotations

from ..core.game.advice import Explanation, PlayAdvice
from ..core.game.definition import ValueSettings
from . import cards as C
from .position import FULL, PitchState, _suit_mask, beats


def cost(card: int, trump: int) -> int:
    """``kernels.heuristic.cost``: what throwing ``card`` gives away (ties go to the lowest)."""
    rank = card & 15
    c = 8 * C.GAME_POINTS[rank] + rank
    if (card >> 4) == trump:
        c += 200
        if rank in (9, 4):
            c += 200
    return c


def _explain_lead(state: PitchState, seat: int, best: int, unseen: int) -> str:
    trump = state.trump
    cn = C.card_name(best)
    if trump < 0:
        return f"pitches {cn}: {C.SUIT_NAMES[best >> 4].lower()} as trump"
    above = unseen & _suit_mask(best >> 4) & ~((2 << best) - 1)
    if best >> 4 == trump:
        if not above:
            return f"cashes the master trump {cn}, drawing trumps"
        return f"leads a trump ({cn}) to draw the others'"
    if not above and not unseen & _suit_mask(trump):
        return f"cashes {cn}, the master (no trump out)"
    if not above:
        return f"leads {cn}, the top of its suit"
    return f"leads {cn}, giving little away"


def explain(state: PitchState, best: int, runner: int | None) -> str:
    """Why ``best`` rather than ``runner``, in a few words, from simple rules on the trick:
    taking it (and what it holds), ducking, giving points to a fellow defender, a pitch, a
    master cashed."""
    if runner is None:
        return "the only legal card"
    seat = state.current_player()
    hand = state.hands[seat]
    seen = hand | state.done | state.tmask
    unseen = FULL & ~seen
    if not state.trick:
        return _explain_lead(state, seat, best, unseen)
    trump = state.trump
    stake = sum(C.GAME_POINTS[c & 15] for c in state.trick)
    jack_six = [c for c in state.trick if c >> 4 == trump and (c & 15) in (9, 4)]
    wins = beats(best, state.best, trump)
    runner_wins = beats(runner, state.best, trump)
    last = len(state.trick) == state.n - 1
    what = ""
    if jack_six:
        what = " with the " + " and ".join(C.card_name(c) for c in jack_six) + " in it"
    elif stake >= 10:
        what = f" ({stake} game points in it)"
    take = "takes the trick" if last else "goes ahead in the trick"
    if wins and not runner_wins:
        return take + what
    if runner_wins and not wins:
        friend = state.wseat != state.bidder and seat != state.bidder
        if friend:
            gp = C.GAME_POINTS[best & 15]
            if gp or (best >> 4 == trump and (best & 15) in (9, 4)):
                return f"gives {C.card_name(best)} to the fellow defender winning the trick"
        return f"lets the trick go, keeping {C.card_name(runner)}"
    if wins and runner_wins:
        gb, gr = C.GAME_POINTS[best & 15], C.GAME_POINTS[runner & 15]
        if gb > gr:
            return f"{take} with {C.card_name(best)} and its {gb} game points{what}"
        return f"{take} with {C.card_name(best)}, the cheaper winner{what}"
    return f"throws {C.card_name(best)}, keeping {C.card_name(runner)}"


def advice_view(advice: PlayAdvice, settings: ValueSettings) -> Explanation:
    """The advice as the player reads it: the table, his seat and role, the bid and trump, the
    trick so far and the game points taken; each card's value for his side with its interval,
    the bidder's points and P(the bidder makes his bid); the worlds drawn, fitting the calls and
    left out; last, the others' bidding model the calls were read with (``settings.others``)."""
    others = settings.others
    st = advice.state
    seat = advice.seat
    v = advice.values
    bidder = seat == st.bidder
    fields = {
        "players": st.n,
        "seat": seat,
        "role": "bidder" if bidder else "defender",
        "bidder": st.bidder,
        "bid": st.bid,
        "trump": C.SUITS[st.trump] if st.trump >= 0 else None,
        "hand": C.card_names(st.hands[seat]),
        "trick": st.trick_index + 1,
        "leader": st.leader,
        "on_table": [C.card_name(c) for c in st.trick],
    }
    after = {
        "worlds_drawn": v.facts.get("drawn", 0),
        "worlds_fitting_calls": v.facts.get("fitting"),
        "worlds_left_out": v.facts.get("dropped", 0),
        "points_so_far": {"game_points": list(st.game)},
    }
    role = "the bidder at" if bidder else f"a defender; seat {st.bidder} bid"
    on = fields["on_table"]
    where = f"seat {st.leader} led, on the table: {' '.join(on)}" if on else "you lead"
    trump = f"trump {fields['trump']}" if fields["trump"] else "no trump yet: you pitch"
    header = (
        f"Seat {seat} of {st.n} ({role} {st.bid}), {trump}; trick {fields['trick']}, {where}. "
        f"You hold {C.format_cards(st.hands[seat])}."
    )
    points = v.per_card.get("bidder_points", {})
    made = v.per_card.get("p_made", {})

    def cells(row: dict) -> list[str]:
        lo, hi = row["ci95"]
        interval = "exact" if v.exact else f"[{lo:.2f}, {hi:.2f}]"
        return [f"{row['mean']:.2f}", interval, f"{row['p_bid_made']:.2f}"]

    def extras(card: int) -> dict:
        m = made[card]
        return {"bidder_points": points[card].mean, "p_bid_made": m.mean, "p_bid_made_ci95": m.ci95}

    side = "your points" if bidder else "your side's points"
    columns = [side, "95% interval", "P(bid made)"]
    return Explanation(fields, header, columns, cells, extras, after, {"others": others})
