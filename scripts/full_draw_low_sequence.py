"""Elder hands holding a low sequence (a tierce to the nine or the ten, nothing above it): the
advisor's best discard keeping every card of it against its best discard throwing one of them,
and the best five-card discard against the best taking fewer (docs/piquet.md).

python scripts/full_draw_low_sequence.py HANDS PLAY OPPONENT [OUT.json]
python scripts/full_draw_low_sequence.py 60 heuristic heuristic
python scripts/full_draw_low_sequence.py 20 pimc greedy      # the advisor's defaults
"""

import json
import sys
import time

import numpy as np

from piquet_sim.piquet import cards as C
from piquet_sim.piquet.advisor import advise
from piquet_sim.piquet.kernels.deal import deal_batch


def low_seqs(h):
    out = 0
    for s in range(4):
        x = (h >> (8 * s)) & 0xFF
        for top in range(2, 4):  # top 9 (rank 2) or ten (rank 3)
            run = 0b111 << (top - 2)
            if x & run == run and not (x >> (top + 1)) & 1:
                out |= run << (8 * s)
    return out


n_hands = int(sys.argv[1])
play = sys.argv[2]
opp = sys.argv[3]
elders, _, _ = deal_batch(2026, 0, 4000)
rows = []
t0 = time.perf_counter()
for h in elders.tolist():
    ls = low_seqs(h)
    if not ls:
        continue
    r = advise(h, "elder", play=play, opponent=opp, seed=7, refine=10 if play == "pimc" else None)
    keep = [c for c in r.candidates if c.ev == c.ev and not (c.discard & ls)]
    throw = [c for c in r.candidates if c.ev == c.ev and (c.discard & ls)]
    five = [c for c in r.candidates if c.ev == c.ev and bin(c.discard).count("1") == 5]
    fewer = [c for c in r.candidates if c.ev == c.ev and bin(c.discard).count("1") < 5]
    bk = max(keep, key=lambda c: c.ev)
    bt = max(throw, key=lambda c: c.ev)
    b5 = max(five, key=lambda c: c.ev)
    bf = max(fewer, key=lambda c: c.ev)
    best = r.candidates[0]
    rows.append(
        dict(
            hand=C.format_cards(h),
            low=C.format_cards(ls),
            best=C.format_cards(best.discard),
            best_throws_low=bool(best.discard & ls),
            keep=bk.ev,
            throw=bt.ev,
            keep_se=bk.se,
            throw_se=bt.se,
            five=b5.ev,
            fewer=bf.ev,
            best_takes=bin(best.discard).count("1"),
        )
    )
    if len(rows) >= n_hands:
        break
d = np.array([r["throw"] - r["keep"] for r in rows])
f = np.array([r["five"] - r["fewer"] for r in rows])
print(
    json.dumps(
        {
            "play": play,
            "opponent": opp,
            "hands": len(rows),
            "seconds": round(time.perf_counter() - t0),
            "best_throws_low_share": float(np.mean([r["best_throws_low"] for r in rows])),
            "throw_minus_keep": [float(d.mean()), float(d.std(ddof=1) / len(d) ** 0.5)],
            "best_takes": {k: sum(r["best_takes"] == k for r in rows) for k in range(1, 6)},
            "five_minus_fewer": [float(f.mean()), float(f.std(ddof=1) / len(f) ** 0.5)],
        },
        indent=1,
    )
)
if len(sys.argv) > 4:
    with open(sys.argv[4], "w") as f:
        json.dump(rows, f, indent=1)
