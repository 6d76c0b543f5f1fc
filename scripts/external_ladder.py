"""Outside players against ours: OpenSpiel's information-set MCTS (and, for Pilotta, colver's
bots when colver is installed) against our random, heuristic and pimc players, on mirrored
deals through each game's ``State`` (:func:`piquet_sim.core.arena.mirrored_match`).

The outside player makes the card-play decisions; its exchange, declarations and bids are our
heuristic's (the same as its opponent's), so the margin measures card play. Each deal is played
in every seating (Piquet: elder and younger; Pilotta: NS and EW; Pitch: the outside player at
each seat against a field of ours), so the cards' luck cancels. Margins are the outside
player's points per deal minus ours (Pitch: his points minus the field's mean), with 95%
intervals and the deal count; seconds per move for both (unforced decisions of the card player
only: :class:`piquet_sim.core.arena.TimedPlay`).

Usage::

    python scripts/external_ladder.py --game piquet --budgets 100,1000 --deals 40
    python scripts/external_ladder.py --game pilotta --budgets 100 --deals 40 \
        --colver heuristic,smart_ismcts:10
    python scripts/external_ladder.py --game piquet --budgets 1000 --ours pimc --deals 10 --merge

Results: ``results/external_<game>.json`` (and the table printed); ``--merge`` keeps the file's
other rows and replaces those measured again.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from piquet_sim.core.arena import TimedPlay, mirrored_match


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
        from piquet_sim.piquet.deciders import SeatDecider

        base = seat_deciders(policies)[0]
        d = SeatDecider(base.exchange, base.declare, TimedPlay(base.play))
        d.name = play
        return d

    def external(decider):
        from piquet_sim.piquet.deciders import SeatDecider

        base = ours("heuristic")
        mixed = SeatDecider(base.exchange, base.declare, TimedPlay(decider))
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
    from piquet_sim.pilotta.position import PilottaState, make_setup
    from piquet_sim.pilotta.rules import preset

    def ours(play):
        d = SeatDecider(
            AuctionDecider("threshold"),
            DeclareDecider("all"),
            TimedPlay(PimcPlay() if play == "pimc" else play_decider(play)),
        )
        d.name = play
        return d

    def external(decider):
        base = ours("heuristic")
        mixed = SeatDecider(base.auction, base.declare, TimedPlay(decider))
        mixed.name = decider.name
        return mixed

    rules = preset("contree")
    # the table's policies as pimc assumes them: the threshold auction, every seat declaring
    setup = make_setup("threshold", "all", "random")

    def new_deal(seed, i):
        return PilottaState.from_deal(seed, i, rules, setup)

    seatings = [(True, False, True, False), (False, True, False, True)]
    return {n: ours(n) for n in names}, external, new_deal, seatings


def pitch_players(names, players=4):
    from piquet_sim.pitch.deciders import SeatDecider, bid_decider, play_decider
    from piquet_sim.pitch.position import PitchState

    def ours(play):
        d = SeatDecider(bid_decider("threshold"), TimedPlay(play_decider(play)))
        d.name = play
        return d

    def external(decider):
        mixed = SeatDecider(bid_decider("threshold"), TimedPlay(decider))
        mixed.name = decider.name
        return mixed

    seatings = [tuple(seat == hero for seat in range(players)) for hero in range(players)]
    return {n: ours(n) for n in names}, external, PitchState.from_deal, seatings


GAMES = {"piquet": piquet_players, "pilotta": pilotta_players, "pitch": pitch_players}


def _agents(args) -> list:
    """The outside play deciders asked for: IS-MCTS at each budget, then colver's bots."""
    out = []
    if args.budgets:
        import piquet_sim.openspiel  # noqa: F401  (registers the games)
        from piquet_sim.openspiel.agents import IsmctsDecider

        short = f"python_{args.game}"
        out += [IsmctsDecider(short, int(b), seed=args.seed) for b in args.budgets.split(",")]
    if args.colver:
        from piquet_sim.external.colver import external_decider

        out += [external_decider(args.game, spec, args.seed) for spec in args.colver.split(",")]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="piquet")
    parser.add_argument("--budgets", default="100,1000", help="IS-MCTS simulations per move")
    parser.add_argument(
        "--colver",
        default="",
        help="colver's bots (Pilotta), comma-separated <bot>[:<ms or worlds>], e.g. "
        "heuristic,smart_ismcts:10,isdd:20",
    )
    parser.add_argument("--ours", default="random,heuristic,pimc", help="our play policies")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=None)
    parser.add_argument("--merge", action="store_true", help="keep the file's other rows")
    args = parser.parse_args()

    build = GAMES[args.game]
    out = Path(args.out or f"results/external_{args.game}.json")
    old = json.loads(out.read_text()) if args.merge and out.exists() else {}
    rows = []
    commands = []
    for agent_play in _agents(args):
        ours, external, new_deal, seatings = build(args.ours.split(","))
        for name, player in ours.items():
            agent = external(agent_play)
            agent.play.moves, agent.play.seconds = 0, 0.0
            t0 = time.perf_counter()
            match = mirrored_match(
                lambda i, deal=new_deal: deal(args.seed, i), agent, player, args.deals, seatings
            )
            row = {
                "a": agent.name,
                "b": name,
                "margin_per_deal": match.margin.to_dict(),
                "deals": match.deals,
                "seconds_per_move": {
                    "a": round(agent.play.seconds_per_move, 4),
                    "b": round(player.play.seconds_per_move, 4),
                },
                "moves": {"a": agent.play.moves, "b": player.play.moves},
                "external": True,
                "oracle": bool(getattr(agent_play, "oracle", False)),
                "seconds": round(time.perf_counter() - t0, 1),
            }
            rows.append(row)
            m = match.margin
            print(
                f"{agent.name:>26} v {name:<10} {m.mean:+7.2f} "
                f"[{m.lo:+.2f}, {m.hi:+.2f}] n={m.n}  s/move "
                f"{row['seconds_per_move']['a']:.4f} / {row['seconds_per_move']['b']:.4f}",
                flush=True,
            )
    fresh = {(r["a"], r["b"]) for r in rows}
    kept = [r for r in old.get("rows", []) if (r["a"], r["b"]) not in fresh]
    commands = [*old.get("commands", [old["command"]] if "command" in old else []), _command()]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "game": args.game,
                "perspective": "the external player's points per deal minus ours "
                "(mean over the seatings of each deal); seconds per move: unforced card-play "
                "decisions only",
                "rules": "contree preset" if args.game == "pilotta" else "default",
                "seed": args.seed,
                "commands": commands,
                "rows": kept + rows,
            },
            indent=1,
        )
        + "\n"
    )
    print(f"written {out}")


def _command() -> str:
    import shlex
    import sys

    return "python scripts/external_ladder.py " + shlex.join(sys.argv[1:])


if __name__ == "__main__":
    main()
