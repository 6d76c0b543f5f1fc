"""Outside players against ours: OpenSpiel's information-set MCTS (and, for Pilotta, colver's
bots when colver is installed) against our random, heuristic and pimc players, on mirrored
deals through each game's ``State`` (:func:`piquet_sim.core.study.arena.mirrored_match`).

The outside player makes the card-play decisions; its exchange, declarations and bids are our
heuristic's (the same as its opponent's), so the margin measures card play. Each deal is played
in every seating (Piquet: elder and younger; Pilotta: NS and EW; Pitch: the outside player at
each seat against a field of ours), so the cards' luck cancels. Margins are the outside
player's points per deal minus ours (Pitch: his points minus the field's mean), with 95%
intervals and the deal count; seconds per move for both (unforced decisions of the card player
only: :class:`piquet_sim.core.study.arena.TimedPlay`).

Usage::

    python scripts/external_ladder.py --game piquet --budgets 100,1000 --deals 40
    python scripts/external_ladder.py --game pilotta --budgets 100 --deals 40 \
        --colver heuristic,smart_ismcts:10
    python scripts/external_ladder.py --game piquet --budgets 1000 --ours pimc --deals 10 --merge

The seatings are the games' own (each game's studies' ``arena``: what its ``external`` command
plays) and the matches :func:`piquet_sim.core.study.external.external_matches`.

Results: ``results/external_<game>.json`` (and the table printed); ``--merge`` keeps the file's
other rows and replaces those measured again.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import piquet_sim.games  # noqa: F401  (registers the outside players)
from piquet_sim.core.study.arena import external_decider
from piquet_sim.core.study.external import Arena, external_matches
from piquet_sim.games import GAME_PACKAGES


def game_arena(game: str, seed: int, players: int) -> Arena:
    """The game's seating for outside players: its studies' ``arena`` (what ``piquet
    external``, ``piquet pilotta external`` and ``piquet pitch external`` play)."""
    if game == "pitch":
        from piquet_sim.pitch.rules import Rules
        from piquet_sim.pitch.studies import STUDIES

        return STUDIES.arena(seed, Rules(players=players))
    module = __import__(f"piquet_sim.{game}.studies", fromlist=["STUDIES"])
    return module.STUDIES.arena(seed)


GAMES = GAME_PACKAGES


def _agents(args) -> list:
    """The outside play deciders asked for: IS-MCTS at each budget, then colver's bots."""
    specs = [f"ismcts:{b}" for b in args.budgets.split(",") if b]
    specs += [f"colver:{c}" for c in args.colver.split(",") if c]
    return [external_decider(args.game, spec, args.seed) for spec in specs]


def _print(row: dict) -> None:
    m = row["margin_per_deal"]
    s = row["seconds_per_move"]
    print(
        f"{row['a']:>26} v {row['b']:<10} {m['mean']:+7.2f} "
        f"[{m['ci95'][0]:+.2f}, {m['ci95'][1]:+.2f}] n={m['n']}  s/move "
        f"{s['a']:.4f} / {s['b']:.4f}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=GAMES, default="piquet")
    parser.add_argument("--budgets", default="100,1000", help="IS-MCTS simulations per move")
    parser.add_argument(
        "--colver",
        default="",
        help="colver's bots (Pilotta), comma-separated <bot>[:<ms or worlds>], e.g. "
        "heuristic,smart_ismcts:10,isdd:20",
    )
    parser.add_argument("--ours", default="random,heuristic,pimc", help="our play policies")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--players", type=int, default=4, help="Pitch: players at the table")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=None)
    parser.add_argument("--merge", action="store_true", help="keep the file's other rows")
    args = parser.parse_args()

    out = Path(args.out or f"results/external_{args.game}.json")
    old = json.loads(out.read_text()) if args.merge and out.exists() else {}
    arena = game_arena(args.game, args.seed, args.players)
    run = external_matches(
        arena, _agents(args), args.ours.split(","), args.deals, args.seed, on_row=_print
    )
    rows = run.rows
    for row in rows:
        row["seconds_per_move"] = {k: round(v, 4) for k, v in row["seconds_per_move"].items()}
    fresh = {(r["a"], r["b"]) for r in rows}
    kept = [r for r in old.get("rows", []) if (r["a"], r["b"]) not in fresh]
    commands = [*old.get("commands", [old["command"]] if "command" in old else []), _command()]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(
        json.dumps(
            {
                "game": args.game,
                "perspective": arena.perspective + "; seconds per move: unforced card-play "
                "decisions only",
                "rules": arena.rules,
                "seed": args.seed,
                "commands": commands,
                "rows": kept + rows,
            },
            indent=1,
        )
        + "\n"
    )
    print(f"written {out}" + (" (partial: stopped by Ctrl-C)" if run.partial else ""))


def _command() -> str:
    import shlex
    import sys

    return "python scripts/external_ladder.py " + shlex.join(sys.argv[1:])


if __name__ == "__main__":
    main()
