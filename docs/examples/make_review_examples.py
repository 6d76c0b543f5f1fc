"""Write the example deal records of ``docs/review.md`` and their reviews.

Each deal is played by the project's own players through the game's ``State`` and deciders,
then written as a record (text and JSON) and reviewed at the default settings (text, JSON and
the HTML page). Run from the repository root:

    python docs/examples/make_review_examples.py [piquet] [pilotta] [pitch]

(all games without arguments). The numbers depend only on the seeds below.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent

#: Piquet: deal 2 of seed 11, elder playing the heuristic (exchange and play), younger pimc.
PIQUET_DEAL = (11, 2)


def _write_review(stem: str, rv) -> None:
    (HERE / f"{stem}.review.txt").write_text(rv.text(), encoding="utf-8")
    data = rv.to_dict()
    data["seconds"] = None  # the time taken is not part of the example
    for d in data["decisions"]:
        d["seconds"] = None
    (HERE / f"{stem}.review.json").write_text(
        json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    (HERE / f"{stem}.review.html").write_text(rv.html(), encoding="utf-8")


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
    D.play_out(state, seats)
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


GAMES = {"piquet": piquet}

if __name__ == "__main__":
    for name in sys.argv[1:] or list(GAMES):
        GAMES[name]()
