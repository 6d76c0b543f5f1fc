"""How often Pitch's pimc picks another card when given more worlds, on the same positions.

Deals of ``--seed`` are played by the threshold bidder and the heuristic card player at every
seat; at each unforced card decision pimc is asked at ``--few`` and at ``--many`` worlds (both
on a copy of the position). Printed: the decisions, how many got the same card from both, and
the CPU seconds. Many changed cards with no change in strength against an outside player (the
~500 ms rows of docs/external.md) say that pimc's limit there is its model, not its sampling.

Example (about 4 CPU-minutes):
  python scripts/pitch_world_agreement.py --deals 25 --few 64 --many 449
"""

from __future__ import annotations

import argparse
import time

from piquet_sim.pitch.deciders import play_decider, seat_deciders
from piquet_sim.pitch.position import PitchState
from piquet_sim.pitch.rules import DEFAULT_RULES, Rules


def agreement(deals: int, few: int, many: int, seed: int, players: int) -> tuple[int, int]:
    """(decisions, same card) over ``deals`` deals of ``seed`` at ``players`` players."""
    rules = Rules(**{**DEFAULT_RULES.to_dict(), "players": players})
    table = seat_deciders("threshold", "heuristic", players)
    small = play_decider("pimc", {"worlds": few})
    large = play_decider("pimc", {"worlds": many})
    decisions = same = 0
    for i in range(deals):
        state = PitchState.from_deal(seed, i, rules)
        while not state.is_terminal():
            seat = state.current_player()
            if state.phase == "play" and len(state.legal_actions()) > 1:
                decisions += 1
                same += small.choose(state.clone()) == large.choose(state.clone())
            state.apply(table[seat].choose(state))
    return decisions, same


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=25)
    parser.add_argument("--few", type=int, default=64, help="pimc's worlds, the smaller count")
    parser.add_argument("--many", type=int, default=449, help="pimc's worlds, the larger count")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    c0 = time.process_time()
    n, same = agreement(args.deals, args.few, args.many, args.seed, args.players)
    print(
        f"{n} decisions, the same card at {args.few} and {args.many} worlds: {same} "
        f"({same / n:.3f}); {time.process_time() - c0:.0f} CPU-s"
    )


if __name__ == "__main__":
    main()
