"""Pitch play advice: the cards ranked, the best explained (moved out of ``deciders``)."""

from __future__ import annotations

import numpy as np

from ..core.engine.stats import Estimate
from ..core.game import position as core_position
from ..core.game.position import world_mean
from . import cards as C
from .card_values import card_values
from .deciders import EXACT_LIMIT, UNIT, _check_phase
from .position import (
    FULL,
    PH_PLAY,
    WORLD_TRIES,
    PitchState,
    _suit_mask,
    beats,
)


def cost(card: int, trump: int) -> int:
    """``kernels.heuristic.cost``: what throwing ``card`` gives away (ties go to the lowest)."""
    rank = card & 15
    c = 8 * C.GAME_POINTS[rank] + rank
    if (card >> 4) == trump:
        c += 200
        if rank in (9, 4):
            c += 200
    return c


class PlayAdvice(core_position.PlayAdvice):
    """What :func:`advise_play` answers: every legal card ranked best first by expected points
    for the player's side (``values``, :class:`CardValues`; None for a forced card), the best,
    why in one line, its margin over the runner-up (paired over the same worlds)."""

    def to_dict(self) -> dict:
        st = self.state
        name = C.card_name
        rows = []
        for rank, c in enumerate(self.ranking, 1):
            row: dict = {"card": name(c), "rank": rank}
            if self.values is not None:
                e = self.values.values[c]
                b = self.values.bidder_points[c]
                m = self.values.p_made[c]
                row |= {
                    "mean": e.mean,
                    "se": e.se,
                    "ci95": e.ci95,
                    "worlds": e.n,
                    "bidder_points": b.mean,
                    "p_bid_made": m.mean,
                    "p_bid_made_ci95": m.ci95,
                }
            rows.append(row)
        v = self.values
        out = {
            "players": st.n,
            "seat": self.seat,
            "role": "bidder" if self.seat == st.bidder else "defender",
            "bidder": st.bidder,
            "bid": st.bid,
            "trump": C.SUITS[st.trump] if st.trump >= 0 else None,
            "hand": C.card_names(st.hands[self.seat]),
            "trick": st.trick_index + 1,
            "leader": st.leader,
            "on_table": [name(c) for c in st.trick],
            "best": name(self.best),
            "why": self.why,
            "forced": self.forced,
            "exact": None if v is None else v.exact,
            "worlds": 0 if v is None else v.worlds,
            "worlds_drawn": 0 if v is None else v.drawn,
            "worlds_fitting_calls": None if v is None else v.fitting,
            "worlds_left_out": 0 if v is None else v.dropped,
            "possible_worlds": None if v is None else v.possible,
            "method": "" if v is None else "; ".join(v.notes),
            "unit": UNIT,
            "seconds": 0.0 if v is None else round(v.seconds, 3),
            "points_so_far": self.points_so_far(),
            "cards": rows,
        }
        return out | self.margin_dict()

    def points_so_far(self) -> dict:
        """Points taken so far that the player can see: his own and each seat's from finished
        tricks (Jack, Six; High and Low only when their cards are known)."""
        st = self.state
        return {"game_points": list(st.game)}


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


def entry_kernels() -> tuple:
    """The kernels a play advice calls from Python (for a compile notice on a cold cache)."""
    from .kernels.decide import sample_world, sampled_hands, world_values

    return (sampled_hands, world_values, sample_world)


def advise_play(
    state: PitchState,
    worlds: int = 200,
    seed: int = 1,
    exact_limit: int = EXACT_LIMIT,
    others: str = "threshold",
    tries: int = WORLD_TRIES,
    max_seconds: float | None = None,
) -> PlayAdvice:
    """What the seat to play should play: :func:`card_values` for every legal card, ranked
    (ties to the cheapest card, ``kernels.heuristic.cost``), the best explained
    (:func:`explain`) with its paired margin over the runner-up. A forced card is answered at
    once (no world drawn)."""
    seat = _check_phase(state, PH_PLAY, "the play advice")
    legal = state.legal_actions()
    if len(legal) == 1:
        return PlayAdvice(state, seat, legal, None, "the only legal card")
    vals = card_values(state, worlds, seed, exact_limit, others, tries, max_seconds)
    trump = state.trump
    ranking = sorted(legal, key=lambda c: (-vals.values[c].mean, cost(c, trump), c))
    best, runner = ranking[0], ranking[1]
    if vals.exact:
        margin = world_mean(vals.samples[best].astype(np.float64) - vals.samples[runner], True)
    else:
        margin = Estimate.paired(vals.samples[best], vals.samples[runner])
    why = explain(state, best, runner)
    rn = C.card_name(runner)
    if margin.mean == 0:
        why += f" (worth the same as {rn}; the cheaper card)"
    elif not vals.exact and margin.lo <= 0:
        why += f" (+{margin.mean:.2f} points over {rn}, within the noise)"
    else:
        why += f" (+{margin.mean:.2f} points over {rn})"
    return PlayAdvice(state, seat, ranking, vals, why, margin)
