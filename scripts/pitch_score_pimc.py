"""Pitch's pimc with its worlds weighed by the round's score, against the default pimc.

The default pimc sums, over its worlds, the bidder's points each card leads to (the paranoid
search's value): the bidder plays for the most points, a defender for the fewest. The round is
scored otherwise: the bidder scores his bid when he makes it and loses it when he does not, so a
point beyond the bid is worth nothing to him and the point that sets him is worth twice the bid.
With the table's margin (a seat's score minus the mean of the others'), and a defender's own
share of the points the bidder does not take put at the defenders' average, the bidder's margin
in a world where he ends with ``b`` points is, up to a constant, ``(3 * score(b) + b) / 3``
(``score(b)`` = the bid if ``b`` reaches it, else minus the bid) and each defender's is minus a
ninth of ``3 * score(b) + b``. So the same paranoid values serve: this player sums
``3 * score(b) + b`` over the same worlds (the bidder maximises, a defender minimises), ties
to more of the bidder's points, then to the cheapest card. Its worlds are the default's (the
same draws), only the choice of card over them differs.

The player is the registered option ``pimc:score=1`` (``kernels/pimc.py``), set at each seat
of the table in turn against a field of the default pimc with the same worlds (every seating
of the deal, ``pitch.studies.arena``), everyone bidding by the threshold auction. The margin
is its points a deal minus the field's mean, with the 95% interval over deals; the decisions
it changed are counted by asking the default too, on the same worlds.

With ``--outside SPEC`` (an outside player, e.g. ``ismcts:363``: the ``openspiel`` extra) the
outside player takes each seat in turn against a field of this player instead, as in the
games' ``external`` rows (the margin: the outside player's points minus the field's mean).

Usage::

    python scripts/pitch_score_pimc.py --worlds 32 --deals 400
    python scripts/pitch_score_pimc.py --worlds 32 --deals 600 --first 400 --json m.json
    python scripts/pitch_score_pimc.py --worlds 449 --outside ismcts:363 --deals 10 --json b.json
"""

from __future__ import annotations

import argparse
import json
import time

import piquet_sim.games  # noqa: F401  (registers the outside players)
from piquet_sim.core.engine.masks import mask_count
from piquet_sim.core.study.arena import TimedPlay, external_decider, mirrored_match
from piquet_sim.pitch.deciders import SearchPlay
from piquet_sim.pitch.position import PitchState
from piquet_sim.pitch.rules import DEFAULT_RULES
from piquet_sim.pitch.studies import arena


class CountedScorePimc(SearchPlay):
    """``pimc:score=1``, counting the decisions where the default pimc (the same worlds) would
    have played another card."""

    def __init__(self, worlds: int, count: bool = True):
        super().__init__("pimc", {"worlds": worlds, "score": 1})
        self.name = f"pimc:worlds={worlds},score=1"
        self.default = SearchPlay("pimc", {"worlds": worlds}) if count else None
        self.changed = 0
        self.decisions = 0

    def card(self, state: PitchState, seat: int) -> int:
        saved = state.stream.copy()
        card = super().card(state, seat)
        if self.default is None or mask_count(state.legal_mask()) < 2:
            return card
        after = state.stream.copy()
        state.stream[:] = saved  # the default draws the same worlds
        self.decisions += 1
        self.changed += self.default.card(state, seat) != card
        state.stream[:] = after
        return card


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worlds", type=int, default=32, help="worlds a decision, both sides")
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--first", type=int, default=0, help="the first deal's index")
    ap.add_argument("--no-count", action="store_true", help="skip counting changed decisions")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--outside", help="an outside player against a field of this one")
    ap.add_argument("--json", help="write the per-deal margins and the estimate here")
    a = ap.parse_args()
    table = arena(a.seed, DEFAULT_RULES)
    # against an outside player the count would double the field's cost: not counted
    player = CountedScorePimc(a.worlds, count=not (a.no_count or a.outside))
    if a.outside:
        side, other = TimedPlay(external_decider("pitch", a.outside, a.seed)), TimedPlay(player)
        title = f"{a.outside} v pimc by score"
    else:
        side, other = player, table.our_play("pimc", {"worlds": a.worlds})
        title = "pimc by score v pimc"
    t0 = time.time()
    match = mirrored_match(
        lambda i: table.deal(a.first + i),
        table.seat(side),
        table.seat(other),
        a.deals,
        table.seatings,
    )
    est = match.margin
    print(
        f"{title}, {a.worlds} worlds, deals {a.first}..{a.first + match.deals - 1}"
        f" ({match.deals}), 4 players: {est.mean:+.3f} [{est.lo:+.3f}, {est.hi:+.3f}] points a"
        f" deal (its points minus the field's mean); {player.changed} of {player.decisions}"
        f" decisions changed; {time.time() - t0:.0f} s; seconds a move {match.seconds_per_decision}"
    )
    if a.json:
        out = {
            "worlds": a.worlds,
            "outside": a.outside,
            "seconds_per_move": match.seconds_per_decision,
            "seed": a.seed,
            "first": a.first,
            "deals": match.deals,
            "margin": {"mean": est.mean, "ci95": [est.lo, est.hi], "n": est.n},
            "changed": player.changed,
            "decisions": player.decisions,
            "margins": list(match.margins),
        }
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
