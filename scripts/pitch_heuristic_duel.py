"""Pitch: the working tree's ``heuristic`` card play against a committed version of it.

Every deal (threshold auction, the same calls whatever the play) is played ``players + 1``
times from the same hands: once with every seat on the base heuristic (the version of
``piquet_sim/pitch/kernels/heuristic.py`` at git revision ``--base``, loaded from a temporary
copy), then once per seat with the working tree's heuristic at that seat alone against a
field of the base. Per deal, averaged over the seats (mirrored: the new heuristic sits in
every seat of every deal):

* ``margin``: his score minus the field's mean score at that table;
* ``paired``: his score minus the score of the base heuristic in his seat on the same deal;
* per point (High, Low, Jack, Six, Last, Game): how many more of it he took than the base.

Estimates are means over deals with a 95% normal interval. ``--swap`` puts the base
heuristic at one seat against a field of the new one instead. ``--pimc N`` instead plays our
pimc (default parameters) at each seat in turn against a field of the working tree's
heuristic on N mirrored deals (``studies.arena``, as ``piquet pitch external`` seats an
outside player): the smaller its margin, the stronger the heuristic.

Run: ``NUMBA_NUM_THREADS=1 python scripts/pitch_heuristic_duel.py --deals 20000 --seed 1
--players 4 --base HEAD``, ``... --pimc 150``
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from pitch_round_loop import deal_and_bid, make_round_player

from piquet_sim.core.engine.jit import njit
from piquet_sim.pitch.kernels.heuristic import heuristic_card
from piquet_sim.pitch.kernels.scoring import score_tricks
from piquet_sim.pitch.layouts import SEATS, TRICKS, RoundRec, View
from piquet_sim.pitch.policies import make_policy
from piquet_sim.pitch.rules import Rules, RuleSlot

KERNEL = "piquet_sim/pitch/kernels/heuristic.py"
ROOT = Path(__file__).resolve().parents[1]
#: Per deal: margin, paired, then the six points' paired differences.
FIELDS = 8
VIEW_LEN = int(View.LEN)
REC_LEN = int(RoundRec.LEN)


def load_base(rev: str, file: str | None = None):
    """``heuristic_card`` of ``KERNEL`` at git revision ``rev`` (or of a copy of it, ``file``),
    from a temporary module (its relative imports made absolute)."""
    if file:
        text = Path(file).read_text()
    else:
        text = subprocess.run(
            ["git", "show", f"{rev}:{KERNEL}"], cwd=ROOT, check=True, capture_output=True,
            text=True,
        ).stdout  # fmt: skip
    text = text.replace("from ...core.", "from piquet_sim.core.")
    text = text.replace("from ..layouts", "from piquet_sim.pitch.layouts")
    text = text.replace("from .", "from piquet_sim.pitch.kernels.")
    path = Path(tempfile.mkdtemp()) / "pitch_heuristic_base.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("pitch_heuristic_base", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["pitch_heuristic_base"] = mod
    spec.loader.exec_module(mod)
    return mod.heuristic_card


def make_kernel(new_card, base_card):
    @njit
    def choose(arg, k, seat, legal, hand, view):
        """Seat ``hero`` plays ``new_card`` when ``new_at_hero`` (else the others do), -1:
        nobody plays it; ``arg``: (hero, new_at_hero)."""
        hero, new_at_hero = arg
        if hero >= 0 and ((seat == hero) == new_at_hero):
            return new_card(legal, hand, view)
        return base_card(legal, hand, view)

    play = make_round_player(choose)

    @njit
    def duel(seed, lo, hi, rules, bid_id, bid_params, new_at_hero, out):
        n = rules[RuleSlot.PLAYERS]
        pack = np.empty(52, dtype=np.int8)
        state = np.zeros(1, dtype=np.int64)
        dealt = np.zeros(SEATS, dtype=np.int64)
        hands = np.zeros(SEATS, dtype=np.int64)
        calls = np.zeros(SEATS, dtype=np.int64)
        tricks = np.zeros(TRICKS, dtype=np.int64)
        winners = np.zeros(TRICKS, dtype=np.int64)
        view = np.zeros(VIEW_LEN, dtype=np.int64)
        rec = np.zeros(REC_LEN, dtype=np.int64)
        base = np.zeros(REC_LEN, dtype=np.int64)
        for i in range(lo, hi):
            bidder, bid = deal_and_bid(seed, i, n, bid_id, bid_params, pack, state, dealt, calls)
            for h in range(-1, n):
                hands[:] = dealt
                trump = play(rules, hands, bidder, tricks, winners, view, (h, new_at_hero))
                r = base if h < 0 else rec
                r[:] = 0
                r[RoundRec.PLAYERS] = n
                score_tricks(dealt, bidder, bid, trump, tricks, winners, rules, r)
                if h < 0:
                    continue
                o = out[i - lo]
                field = 0.0
                for s in range(n):
                    if s != h:
                        field += rec[RoundRec.SCORE + s]
                o[0] += (rec[RoundRec.SCORE + h] - field / (n - 1)) / n
                o[1] += (rec[RoundRec.SCORE + h] - base[RoundRec.SCORE + h]) / n
                for p in range(6):
                    o[2 + p] += (
                        (rec[RoundRec.TAKER + p] == h) - (base[RoundRec.TAKER + p] == h)
                    ) / n

    return duel


def estimate(x: np.ndarray) -> str:
    m = float(x.mean())
    h = 1.96 * float(x.std(ddof=1)) / math.sqrt(len(x))
    return f"{m:+.3f} [{m - h:+.3f}, {m + h:+.3f}]"


def pimc_field(deals: int, seed: int, players: int) -> None:
    from piquet_sim.core.study.arena import mirrored_match
    from piquet_sim.pitch.studies import arena

    ar = arena(seed, Rules(players=players))
    m = mirrored_match(
        ar.deal,
        ar.seat(ar.our_play("pimc")),
        ar.seat(ar.our_play("heuristic")),
        deals,
        ar.seatings,
    )
    x = np.array(m.margins)
    print(f"pimc at one seat, heuristic field: {m.deals} deals, seed {seed}, {players} players")
    print(f"  margin (his score - field mean): {estimate(x)}")
    print(f"  ms per move: {m.seconds_per_decision}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--base", default="HEAD", help="git revision of the base heuristic")
    ap.add_argument("--base-file", help="a copy of the kernel file to use as the base instead")
    ap.add_argument("--swap", action="store_true", help="the base at one seat, new field")
    ap.add_argument("--pimc", type=int, default=0, help="pimc against a heuristic field")
    a = ap.parse_args()
    t0 = time.time()
    if a.pimc:
        pimc_field(a.pimc, a.seed, a.players)
        print(f"  {time.time() - t0:.1f}s")
        return
    duel = make_kernel(heuristic_card, load_base(a.base, a.base_file))
    pol = make_policy("threshold", "heuristic")
    rules = Rules(players=a.players).to_array()
    out = np.zeros((a.deals, FIELDS), dtype=np.float64)
    duel(a.seed, a.first, a.first + a.deals, rules, pol.ids[0], pol.params, not a.swap, out)
    who = "base at one seat, new field" if a.swap else "new at one seat, base field"
    print(f"{who}: {a.deals} deals from {a.first}, seed {a.seed}, {a.players} players, "
          f"base {a.base_file or a.base}")  # fmt: skip
    print(f"  margin (his score - field mean): {estimate(out[:, 0])}")
    print(f"  paired (his score - base's)    : {estimate(out[:, 1])}")
    for p, name in enumerate(("high", "low", "jack", "six", "last", "game")):
        print(f"  {name:5s} taken vs base: {estimate(out[:, 2 + p])}")
    print(f"  {time.time() - t0:.1f}s")


if __name__ == "__main__":
    main()
