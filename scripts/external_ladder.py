"""Outside players against ours: OpenSpiel's information-set MCTS (and, for Pilotta, colver's
bots when colver is installed) against our random, heuristic and pimc players, on mirrored
deals through each game's ``State`` (:func:`piquet_sim.core.arena.mirrored_match`).

The outside player makes the card-play decisions; its exchange, declarations and bids are our
heuristic's (the same as its opponent's), so the margin measures card play. Each deal is played
in every seating (Piquet: elder and younger; Pilotta: NS and EW; Pitch: the outside player at
each seat against a field of ours), so the cards' luck cancels. Margins are the outside
player's points per deal minus ours (Pitch: his points minus the field's mean), with 95%
intervals and the deal count; seconds per decision for both.

Usage::

    python scripts/external_ladder.py --game piquet --budgets 100,1000 --deals 40
    python scripts/external_ladder.py --game pilotta --budgets 100 --deals 40 --colver

Results: ``results/external_<game>.json`` (and the table printed).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from piquet_sim.core.arena import mirrored_match


def piquet_players(names):
    from piquet_sim.piquet.deciders import seat_deciders
    from piquet_sim.piquet.position import PiquetState
    from piquet_sim.piquet.simulation import Policies

    def ours(play):
        policies = Policies(
            elder_exchange="heuristic",
            younger_exchange="heuristic",
            elder_play=play,
            younger_play=play,
        )
        d = seat_deciders(policies)[0]
        d.name = play
        return d

    def external(decider):
        from piquet_sim.piquet.deciders import SeatDecider

        base = ours("heuristic")
        mixed = SeatDecider(base.exchange, base.declare, decider)
        mixed.name = decider.name
        return mixed

    seatings = [(True, False), (False, True)]
    return {n: ours(n) for n in names}, external, PiquetState.from_deal, seatings


def pilotta_players(names):
    from piquet_sim.pilotta.deciders import (
        AuctionDecider,
        DeclareDecider,
        PimcPlay,
        SeatDecider,
        play_decider,
    )
    from piquet_sim.pilotta.position import PilottaState

    def ours(play):
        d = SeatDecider(
            AuctionDecider("threshold"),
            DeclareDecider("all"),
            PimcPlay() if play == "pimc" else play_decider(play),
        )
        d.name = play
        return d

    def external(decider):
        base = ours("heuristic")
        mixed = SeatDecider(base.auction, base.declare, decider)
        mixed.name = decider.name
        return mixed

    seatings = [(True, False, True, False), (False, True, False, True)]
    return {n: ours(n) for n in names}, external, PilottaState.from_deal, seatings


def pitch_players(names, players=4):
    from piquet_sim.pitch.deciders import SeatDecider, bid_decider, play_decider
    from piquet_sim.pitch.position import PitchState

    def ours(play):
        d = SeatDecider(bid_decider("threshold"), play_decider(play))
        d.name = play
        return d

    def external(decider):
        mixed = SeatDecider(bid_decider("threshold"), decider)
        mixed.name = decider.name
        return mixed

    seatings = [tuple(seat == hero for seat in range(players)) for hero in range(players)]
    return {n: ours(n) for n in names}, external, PitchState.from_deal, seatings


GAMES = {
    "piquet": ("python_piquet", piquet_players),
    "pilotta": ("python_pilotta", pilotta_players),
    "pitch": ("python_pitch", pitch_players),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="piquet")
    parser.add_argument("--budgets", default="100,1000", help="IS-MCTS simulations per move")
    parser.add_argument("--ours", default="random,heuristic,pimc", help="our play policies")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()

    import piquet_sim.openspiel  # noqa: F401  (registers the games)
    from piquet_sim.openspiel.agents import IsmctsDecider

    short, build = GAMES[args.game]
    ours, external, new_deal, seatings = build(args.ours.split(","))
    rows = []
    for budget in (int(b) for b in args.budgets.split(",")):
        agent = external(IsmctsDecider(short, budget, seed=args.seed))
        for name, player in ours.items():
            t0 = time.perf_counter()
            match = mirrored_match(
                lambda i: new_deal(args.seed, i), agent, player, args.deals, seatings
            )
            row = match.to_dict() | {"external": True, "seconds": time.perf_counter() - t0}
            rows.append(row)
            m = match.margin
            print(
                f"{agent.name:>12} v {name:<10} {m.mean:+7.2f} "
                f"[{m.lo:+.2f}, {m.hi:+.2f}] n={m.n}  "
                f"s/decision {match.seconds_per_decision['a']:.3f} / "
                f"{match.seconds_per_decision['b']:.3f}",
                flush=True,
            )
    out = Path(args.out or f"results/external_{args.game}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "game": args.game,
                "perspective": "the external player's points per deal minus ours "
                "(mean over the seatings of each deal)",
                "seed": args.seed,
                "deals": args.deals,
                "rows": rows,
            },
            indent=1,
        )
        + "\n"
    )
    print(f"written {out}")


if __name__ == "__main__":
    main()
