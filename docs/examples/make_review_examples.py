"""Write the example deal records of ``docs/review.md`` and their reviews.

Each deal is played by the project's own players through the game's ``State`` and deciders,
then written as a record (text and JSON) and reviewed at the default settings (text, JSON and
the HTML page). Run from the repository root:

    python docs/examples/make_review_examples.py [piquet] [pilotta] [pitch]

(all games without arguments). The numbers depend only on the seeds below.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

from piquet_sim.core.game.position import play_out

HERE = Path(__file__).parent

#: Piquet: deal 2 of seed 11, elder playing the heuristic (exchange and play), younger pimc.
PIQUET_DEAL = (11, 2)


def _untimed(text: str) -> str:
    """The review without the seconds it took (they vary from run to run)."""
    return re.sub(r" in [0-9.]+ s\.", ".", text, count=1)


def _write_review(stem: str, rv) -> None:
    (HERE / f"{stem}.review.txt").write_text(_untimed(rv.text()), encoding="utf-8")
    data = rv.to_dict()
    data["seconds"] = None  # the time taken is not part of the example
    for d in data["decisions"]:
        d["seconds"] = None
    (HERE / f"{stem}.review.json").write_text(
        json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    (HERE / f"{stem}.review.html").write_text(_untimed(rv.html()), encoding="utf-8")


def piquet() -> None:
    from piquet_sim.piquet import deciders as D
    from piquet_sim.piquet import review as PR
    from piquet_sim.piquet.position import PiquetState
    from piquet_sim.piquet.simulation import Policies

    state = PiquetState.from_deal(*PIQUET_DEAL)
    seats = D.seat_deciders(
        Policies(
            elder_exchange="heuristic",
            younger_exchange="heuristic",
            elder_play="heuristic",
            younger_play="pimc",
        )
    )
    play_out(state, seats)
    full = PR.record_from_state(state, 0)
    text = "# A Piquet deal: elder plays the heuristic, younger pimc (seed 11, deal 2).\n"
    (HERE / "piquet-deal.txt").write_text(text + PR.record_text(full), encoding="utf-8")
    (HERE / "piquet-deal.json").write_text(
        json.dumps(PR.record_json(full), indent=1) + "\n", encoding="utf-8"
    )
    mine = PR.record_from_state(state, 1, every_hand=False)
    text = "# The same deal as younger saw it: his hand, his exchange and what he saw.\n"
    (HERE / "piquet-deal-younger.txt").write_text(text + PR.record_text(mine), encoding="utf-8")
    for stem in ("piquet-deal", "piquet-deal-younger"):
        t0 = time.perf_counter()
        rv = PR.review_record(PR.read_record(HERE / f"{stem}.txt"))
        print(f"{stem}: {time.perf_counter() - t0:.1f} s", file=sys.stderr)
        _write_review(stem, rv)


#: Pilotta: round 1 of seed 5; North-South bid with the threshold bidder and play the
#: heuristic, East-West the threshold bidder and pimc. South (who contracts) is reviewed.
PILOTTA_ROUND = (5, 1)
#: Pitch, 4 players: the first round of seed 3 that seat 0 or 2 (threshold bidder, heuristic
#: play; seats 1 and 3 play pimc) wins the auction; the bidder is reviewed.
PITCH_SEED = 3


def pilotta() -> None:
    from piquet_sim.pilotta import deciders as D
    from piquet_sim.pilotta import review as PR
    from piquet_sim.pilotta.api import make_setup
    from piquet_sim.pilotta.position import PilottaState

    setup = make_setup("threshold", "heuristic", "pimc")
    state = PilottaState.from_deal(*PILOTTA_ROUND, setup=setup)
    play_out(state, D.seat_deciders(setup))
    rec = PR.record_from_state(state, state.bidder)
    text = "# A Pilotta round: North-South play the heuristic, East-West pimc (seed 5, round 1).\n"
    (HERE / "pilotta-round.txt").write_text(text + PR.record_text(rec), encoding="utf-8")
    (HERE / "pilotta-round.json").write_text(
        json.dumps(PR.record_json(rec), indent=1) + "\n", encoding="utf-8"
    )
    t0 = time.perf_counter()
    rv = PR.review_record(PR.read_record(HERE / "pilotta-round.txt"))
    print(f"pilotta-round: {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    _write_review("pilotta-round", rv)


def pitch() -> None:
    from piquet_sim.core.review.plan import review_record
    from piquet_sim.pitch import deciders as D
    from piquet_sim.pitch.definition import DEFINITION
    from piquet_sim.pitch.position import PitchState
    from piquet_sim.pitch.record import CODEC
    from piquet_sim.pitch.review import PitchReviewSettings
    from piquet_sim.pitch.rules import Rules

    rules = Rules(players=4)
    heuristic = D.seat_deciders("threshold", "heuristic", 4)
    pimc = D.seat_deciders("threshold", "pimc", 4)
    for index in range(100):
        state = PitchState.from_deal(PITCH_SEED, index, rules)
        play_out(state, [heuristic[0], pimc[1], heuristic[2], pimc[3]])
        if state.bidder in (0, 2):
            break
    rec = CODEC.from_state(state, state.bidder)
    text = (
        f"# A Pitch round, 4 players: seats 0 and 2 play the heuristic, 1 and 3 pimc (seed "
        f"{PITCH_SEED}, round {index}).\n"
    )
    (HERE / "pitch-round.txt").write_text(text + CODEC.text(rec), encoding="utf-8")
    (HERE / "pitch-round.json").write_text(
        json.dumps(CODEC.json(rec), indent=1) + "\n", encoding="utf-8"
    )
    t0 = time.perf_counter()
    rec = CODEC.read(HERE / "pitch-round.txt")
    rv = review_record(DEFINITION, rec, rules, PitchReviewSettings())
    print(f"pitch-round: {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    _write_review("pitch-round", rv)


GAMES = {"piquet": piquet, "pilotta": pilotta, "pitch": pitch}

if __name__ == "__main__":
    for name in sys.argv[1:] or list(GAMES):
        GAMES[name]()
