"""How often the advisor's default agrees with a stronger, slower setting, and what it loses.

For each of ``--hands`` random dealt hands (fixed seed; even-numbered hands are elder's, odd
ones younger's after elder took ``--elder-took``):

* the default: the heuristic screen at SE 0.5 (``piquet discard --play heuristic``; the
  command's default until default8, now a pimc refine of the best 10 to SE 0.7, which
  ``--rescore`` can score);
* an alternative default: a heuristic screen and a pimc refine of the best ``--alt-refine``
  with the heuristic as control variate (``advisor_refine``), precision 0.5;
* the strong setting: the same with the best ``--refine`` and ``--precision``, on other worlds.

Reported: the share of hands where each top choice equals the strong setting's (Wilson 95%
interval); the EV lost when they differ, measured on fresh worlds (no winner's curse: pimc EV of
the strong top minus the other's, control-variate estimate, it can be negative), per hand and
over the hands that differ, with SEs over hands; the strong setting's own SE (its top's, and of
its gap to its runner-up). Points: the advising player's net deal points (own minus opponent's).

Results go to ``--out`` (JSON, written after every hand, so a cut run keeps what finished;
``--start``/``--stop`` run a range of the hands, ``--merge A B`` joins such runs' rows).

Each row also keeps the default's best 40 and the strong setting's ranking (``ranking``: every
pimc-refined candidate and the best 60 of the rest), so two cheap follow-ups run on stored rows
without re-running the strong reference:
``--why`` places the strong top in the default's screen and measures the heuristic's own gap
(strong top minus default top) on fresh worlds against pimc's (the hold-out loss): a negative
heuristic gap means the heuristic play model prefers the default's top (a bias no number of
heuristic worlds removes); ``--rescore JSON`` scores a new default (``advise`` keywords) on the
same hands, measuring the hold-out loss only for tops not scored before; ``--join`` joins
--rescore outputs of one setting run in ranges; ``--compare`` tabulates them beside the stored
default. Both also split the agreement by role and into the near ties of the stored strong
reference (``--near-tie Z``: its top leads its runner-up by at most Z of their combined SEs),
where another run of the strong setting itself would often pick another top. --rescore and
--why take the stored hands ``--start``..``--stop`` or, with ``--only 90,66,177``, just the
listed ones.

Example (run it in the background; about 10-40 CPU-s a hand):
  python scripts/advisor_agreement.py --hands 200 --out results/advisor_agreement.json
  python scripts/advisor_agreement.py --merge results/advisor_agreement.json --why --out why.json
  python scripts/advisor_agreement.py --merge results/advisor_agreement.json \
      --rescore '{"play": "heuristic", "precision": 0.2}' --out rescore.json
  python scripts/advisor_agreement.py --merge results/advisor_agreement.json \
      --join rescore_0_100.json rescore_100_200.json --out rescore.json
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

from piquet_sim.core.engine.stats import wilson_interval
from piquet_sim.piquet.advisor import advise, world_values
from piquet_sim.piquet.advisor_refine import CONTROL_PLAY, cv_mean_se
from piquet_sim.piquet.cards import format_cards, parse_cards

#: The "default" these figures measure: the heuristic screen at SE 0.5, ``piquet discard``'s
#: default until default8 made it a pimc refine (pinned, so stored rows stay comparable).
DEFAULT_PLAY = "heuristic"


def _load(path: Path) -> dict:
    """A results file, plain JSON or gzipped (``.json.gz``: how the per-hand rows are kept in
    results/, about a tenth of the size)."""
    raw = path.read_bytes()
    return json.loads(gzip.decompress(raw) if path.suffix == ".gz" else raw)


def random_hands(n: int, seed: int) -> list[int]:
    """``n`` 12-card hands (masks) drawn uniformly from the 32-card pack."""
    rng = np.random.default_rng(seed)
    return [int(sum(1 << int(c) for c in rng.choice(32, 12, replace=False))) for _ in range(n)]


def _timed(fn, *args, **kw):
    t0, w0 = time.process_time(), time.perf_counter()
    out = fn(*args, **kw)
    return out, round(time.process_time() - t0, 2), round(time.perf_counter() - w0, 2)


def holdout_gap(hand, pair, role, took, seed, args) -> tuple[float, float, int]:
    """(mean, SE, pimc worlds) of pimc EV(pair[0]) - EV(pair[1]) on fresh worlds of ``seed``:
    the control-variate estimator on the paired difference (heuristic on ``--control`` worlds,
    pimc minus heuristic on the first ``--holdout``)."""
    h, hi = world_values(hand, pair, role, took, CONTROL_PLAY, n_worlds=args.control, seed=seed)
    p, pi = world_values(hand, pair, role, took, "pimc", n_worlds=args.holdout, seed=seed)
    hd = (h[0] - h[1]).astype(np.float64)
    pd = (p[0] - p[1]).astype(np.float64)
    dd = pd[pi["valid"]] - hd[: args.holdout][pi["valid"]]
    gap, se = cv_mean_se(hd[hi["valid"]], dd)
    return gap, se, int(dd.size)


def ranking(result, top: int | None = None) -> list[list]:
    """The result's candidates, best first, as [discard, ev, se, samples, play, finalist,
    control_ev, control_worlds] (the last two: a pimc-refined candidate's heuristic EV on its
    control worlds, else None). Enough to place the strong top in the default's screen, to
    compare the heuristic's and pimc's rankings of the refined set, and to re-score a new
    default against the stored strong reference."""
    return [
        [
            format_cards(c.discard),
            round(c.ev, 4),
            round(c.se, 4),
            c.samples,
            c.play,
            c.finalist,
            None if getattr(c, "control_ev", None) is None else round(c.control_ev, 4),
            None if getattr(c, "control_n", None) is None else int(c.control_n),
        ]
        for c in result.candidates[:top]
    ]


STRONG_OTHERS_KEPT = 60  # screened-only candidates kept in a stored strong ranking


def compact(ranked: list[list], others: int = STRONG_OTHERS_KEPT) -> list[list]:
    """``ranked`` (from ``ranking``) with every pimc-refined candidate and only the best
    ``others`` of the screened-only rest, in the same order: what --why, --rescore and the bias
    fit read, in a file about a tenth the size."""
    rest = [k for k, c in enumerate(ranked) if c[4] != "pimc"][:others]
    keep = set(rest) | {k for k, c in enumerate(ranked) if c[4] == "pimc"}
    return [c for k, c in enumerate(ranked) if k in keep]


def one_hand(i: int, hand: int, args: argparse.Namespace) -> dict:
    """The default's, the alternative's and the strong setting's top discards for hand ``i``,
    and the loss on fresh worlds when the default's differs from the strong's."""
    role = "elder" if i % 2 == 0 else "younger"
    took = None if role == "elder" else args.elder_took
    kw = {"role": role, "elder_took": took}
    default, cpu, wall = _timed(
        advise, hand, play=DEFAULT_PLAY, precision=0.5, seed=args.seed + i, **kw
    )
    alt, a_cpu, a_wall = _timed(
        advise, hand, play="pimc", refine=args.alt_refine, precision=0.5, seed=args.seed + i, **kw
    )
    strong, s_cpu, s_wall = _timed(
        advise,
        hand,
        play="pimc",
        refine=args.refine,
        precision=args.precision,
        seed=args.seed + 10_000 + i,
        **kw,
    )
    d_top, a_top, s_top = (r.best.discard for r in (default, alt, strong))
    row = {
        "hand": format_cards(hand),
        "role": role,
        "elder_took": took,
        "default_top": format_cards(d_top),
        "alt_top": format_cards(a_top),
        "strong_top": format_cards(s_top),
        "agree": d_top == s_top,
        "alt_agree": a_top == s_top,
        "strong_ev": strong.best.ev,
        "strong_se": strong.best.se,
        "strong_second": format_cards(strong.candidates[1].discard),
        "strong_second_ev": strong.candidates[1].ev,
        "strong_second_se": strong.candidates[1].se,
        "strong_finalists": sum(c.finalist for c in strong.candidates),
        "strong_pimc_worlds": strong.best.samples,
        "default_cpu_s": cpu,
        "default_wall_s": wall,
        "alt_cpu_s": a_cpu,
        "alt_wall_s": a_wall,
        "strong_cpu_s": s_cpu,
        "default_ranking": ranking(default, 40),
        "strong_ranking": compact(ranking(strong)),
    }
    for name, top in (("", d_top), ("alt_", a_top)):
        loss, se, n = 0.0, 0.0, 0
        if top != s_top:
            loss, se, n = holdout_gap(hand, [s_top, top], role, took, args.seed + 20_000 + i, args)
        row |= {f"{name}holdout_loss": loss, f"{name}holdout_loss_se": se, f"{name}holdout_n": n}
    return row


def pick_hands(rows: list[dict], only: str | None) -> list[dict]:
    """The stored ``rows`` whose index is in ``only`` ("90,66,177": a fixed list of hands to
    re-score or diagnose), all of them when ``only`` is None; an unknown index is an error."""
    if only is None:
        return rows
    wanted = [int(x) for x in only.split(",") if x.strip()]
    have = {r["index"] for r in rows}
    missing = [i for i in wanted if i not in have]
    if missing:
        raise ValueError(f"--only: no stored row for hand(s) {missing}")
    return [r for r in rows if r["index"] in set(wanted)]


def _setup(r: dict, args: argparse.Namespace) -> tuple[int, int, dict]:
    """A stored row's (index, hand mask, role keywords)."""
    return (
        r["index"],
        parse_cards(r["hand"], 12),
        {"role": r["role"], "elder_took": r["elder_took"]},
    )


def rescore(rows: list[dict], setting: dict, args: argparse.Namespace, t0: float) -> list[dict]:
    """Re-score a new default ``setting`` (``advise`` keywords) against the stored strong
    reference, without re-running it: the new top on the default's worlds (seed + i), agreement
    with the stored strong top, and the hold-out loss (reused from the row when the new top is
    the stored default's or alternative's, else measured on the same fresh worlds)."""
    out = []
    for r in rows:
        i, hand, kw = _setup(r, args)
        res, cpu, wall = _timed(advise, hand, seed=args.seed + i, **kw, **setting)
        top = format_cards(res.best.discard)
        loss, se, n = 0.0, 0.0, 0
        if top != r["strong_top"]:
            for pre, key in (("", "default_top"), ("alt_", "alt_top")):
                if top == r[key]:
                    loss, se, n = (r[f"{pre}holdout_{k}"] for k in ("loss", "loss_se", "n"))
                    break
            else:
                pair = [parse_cards(r["strong_top"]), res.best.discard]
                loss, se, n = holdout_gap(
                    hand, pair, kw["role"], kw["elder_took"], args.seed + 20_000 + i, args
                )
        out.append(
            {
                "index": i,
                "role": r["role"],
                "top": top,
                "agree": top == r["strong_top"],
                "holdout_loss": loss,
                "holdout_loss_se": se,
                "holdout_n": n,
                "cpu_s": cpu,
                "wall_s": wall,
                "evaluations": res.evaluations,
                "pimc_deals": sum(c.samples for c in res.candidates if c.play == "pimc"),
            }
        )
        res = _follow_up(out, args, t0, rows)
        args.out.write_text(json.dumps(res, indent=1))  # a cut run keeps what finished
        print(f"{i} {r['role']} agree={out[-1]['agree']} loss={loss:+.2f} cpu={cpu}", flush=True)
    return out


def _follow_up(new: list[dict], args: argparse.Namespace, t0: float, stored: list[dict]) -> dict:
    """The JSON of a --rescore or --why run over the rows ``new`` done so far (``stored``: the
    --merge rows, for the near-tie split)."""
    res = {
        "setting": args.rescore,
        "why": args.why,
        "range": [args.start, args.stop],
        "hands": len(new),
        "rows": new,
    }
    if args.rescore is not None and new:
        res |= rescore_summary(new, stored, args.near_tie)
        res["seconds"] = round(time.perf_counter() - t0, 1)
    return res


def near_tie(r: dict, z: float) -> bool:
    """Whether a stored row's strong top leads its runner-up by at most ``z`` of their combined
    (unpaired, so generous) SEs: a hand where another run of the strong setting may well pick
    another top."""
    return r["strong_ev"] - r["strong_second_ev"] <= z * math.hypot(
        r["strong_se"], r["strong_second_se"]
    )


def rescore_summary(new: list[dict], stored: list[dict], z: float) -> dict:
    """A --rescore output's figures: agreement (Wilson 95%), hold-out loss a hand and where the
    tops differ (SEs over hands), the same by role, the agreement on the near-tie hands of the
    stored strong reference (``near_tie`` with ``z``) and on the clear ones, median CPU-s and
    wall-s a hand."""
    ties = {r["index"] for r in stored if near_tie(r, z)}
    out = {
        "agreement": _rate(new, "agree"),
        "loss": _loss(new, "", "agree"),
        "by_role": {
            role: {"agreement": _rate(mine, "agree"), "loss": _loss(mine, "", "agree")}
            for role in ("elder", "younger")
            if (mine := [r for r in new if r["role"] == role])
        },
        "near_tie": {
            "definition": f"stored strong top's lead over its runner-up <= {z} x their "
            "combined SEs",
            "hands": sum(r["index"] in ties for r in new),
            "agreement": _rate([r for r in new if r["index"] in ties], "agree"),
            "clear_agreement": _rate([r for r in new if r["index"] not in ties], "agree"),
        },
        "median_cpu_s": float(np.median([r["cpu_s"] for r in new])),
        "median_wall_s": float(np.median([r["wall_s"] for r in new])),
    }
    return out


def join(files: list[Path], stored: list[dict], z: float) -> dict:
    """The rows of several --rescore outputs of one setting (ranges of the hands) as one output,
    figures recomputed; a hand in two files must have the same top in both."""
    parts = [_load(f) for f in files]
    settings = {json.dumps(x["setting"], sort_keys=True) for x in parts}
    if len(settings) != 1:
        raise SystemExit(f"--join: the files score different settings: {sorted(settings)}")
    rows: dict[int, dict] = {}
    for f, x in zip(files, parts, strict=True):
        for r in x["rows"]:
            if r["index"] in rows and rows[r["index"]]["top"] != r["top"]:
                raise SystemExit(f"--join: hand {r['index']} has two tops ({f})")
            rows.setdefault(r["index"], r)
    new = [rows[i] for i in sorted(rows)]
    return {
        "setting": parts[0]["setting"],
        "why": False,
        "range": [new[0]["index"], new[-1]["index"] + 1] if new else [0, 0],
        "hands": len(new),
        "parts": [  # file, first and last hand, hands
            [f.name, x["rows"][0]["index"], x["rows"][-1]["index"], len(x["rows"])]
            for f, x in zip(files, parts, strict=True)
            if x["rows"]
        ],
        **(rescore_summary(new, stored, z) if new else {}),
        "rows": new,
    }


def why(rows: list[dict], args: argparse.Namespace) -> list[dict]:
    """For each hand where the default's top differs from the strong top: the strong top's rank
    in the default's heuristic screen (and the screen's EV gap between its top and the strong
    top), the heuristic's own gap on ``--why-worlds`` fresh worlds (seed + 30000 + i: positive
    = the heuristic also prefers the strong top, so the default's miss is screen noise; negative
    = the heuristic play model prefers the default's top, a bias only another play fixes), and
    the pimc gap (the stored hold-out loss), all in the advising player's net deal points."""
    out = []
    for r in rows:
        if r["agree"]:
            continue
        i, hand, kw = _setup(r, args)
        ranking_ = r.get("default_ranking")
        if ranking_ is None:
            ranking_ = ranking(
                advise(hand, play=DEFAULT_PLAY, precision=0.5, seed=args.seed + i, **kw)
            )
        names = [c[0] for c in ranking_]
        rank = names.index(r["strong_top"]) + 1 if r["strong_top"] in names else None
        s, d = parse_cards(r["strong_top"]), parse_cards(r["default_top"])
        h, info = world_values(
            hand,
            [s, d],
            play=CONTROL_PLAY,
            n_worlds=args.why_worlds,
            seed=args.seed + 30_000 + i,
            **kw,
        )
        diff = (h[0] - h[1]).astype(np.float64)[info["valid"]]
        row = {
            "index": i,
            "role": r["role"],
            "strong_rank_in_screen": rank,
            "screen_candidates": len(names),
            "screen_gap": None if rank is None else ranking_[0][1] - ranking_[rank - 1][1],
            "screen_samples_strong_top": None if rank is None else ranking_[rank - 1][3],
            "heuristic_gap": float(diff.mean()),
            "heuristic_gap_se": float(diff.std(ddof=1) / math.sqrt(diff.size)),
            "pimc_gap": r["holdout_loss"],
            "pimc_gap_se": r["holdout_loss_se"],
            "strong_gap_to_second": r["strong_ev"] - r["strong_second_ev"],
        }
        out.append(row)
        print(json.dumps(row), flush=True)
    return out


def compare(rows: list[dict], files: list[Path], z: float) -> list[dict]:
    """One line per setting on the same hands: the stored default and alternative, then each
    ``--rescore`` output in ``files`` (restricted to ``rows``' hands): agreement with the strong
    top (Wilson 95%), also counted on elder's hands, younger's and the near ties (``near_tie``
    with ``z``), hold-out loss per hand (SE over hands), CPU-s and wall seconds a hand (median
    and mean), and median pimc evaluations when recorded."""
    hands = {r["index"] for r in rows}
    role = {r["index"]: r["role"] for r in rows}
    ties = {r["index"] for r in rows if near_tie(r, z)}

    def line(name: str, index, agree, loss, cpu, wall, evals=None, deals=None) -> dict:
        k, n = int(sum(agree)), len(agree)
        held = np.array(loss, float)

        def among(keep) -> list[int]:  # [agreeing, hands] among the hands ``keep`` accepts
            mine = [a for i, a in zip(index, agree, strict=True) if keep(i)]
            return [int(sum(mine)), len(mine)]

        return {
            "setting": name,
            "hands": n,
            "agree": k,
            "rate": k / n,
            "ci95": [round(x, 3) for x in wilson_interval(k, n)],
            "elder": among(lambda i: role[i] == "elder"),
            "younger": among(lambda i: role[i] == "younger"),
            "near_tie": among(lambda i: i in ties),
            "loss": round(float(held.mean()), 3),
            "loss_se": round(float(held.std(ddof=1) / math.sqrt(n)), 3) if n > 1 else None,
            "cpu_median": float(np.median(cpu)),
            "cpu_mean": round(float(np.mean(cpu)), 2),
            "wall_median": float(np.median(wall)),
            "evaluations_median": None if evals is None else float(np.median(evals)),
            "pimc_deals_median": None if deals is None else float(np.median(deals)),
        }

    out = [
        line(
            "stored " + pre.rstrip("_") if pre else "stored default",
            [r["index"] for r in rows],
            [r[f"{pre}agree"] for r in rows],
            [r[f"{pre}holdout_loss"] for r in rows],
            [r[f"{pre or 'default_'}cpu_s"] for r in rows],
            [r[f"{pre or 'default_'}wall_s"] for r in rows],
        )
        for pre in ("", "alt_")
    ]
    by_setting: dict[str, dict[int, dict]] = {}  # runs of one setting on parts of the hands
    for f in files:
        res = _load(f)
        done = by_setting.setdefault(json.dumps(res["setting"]), {})
        done |= {r["index"]: r for r in res["rows"] if r["index"] in hands}
    for setting, done in by_setting.items():
        new = [done[i] for i in sorted(done)]
        if len(new) < len(hands):
            print(f"{setting}: {len(new)} of {len(hands)} hands done", flush=True)
        if new:
            out.append(
                line(
                    setting,
                    [r["index"] for r in new],
                    [r["agree"] for r in new],
                    [r["holdout_loss"] for r in new],
                    [r["cpu_s"] for r in new],
                    [r["wall_s"] for r in new],
                    [r["evaluations"] for r in new] if "evaluations" in new[0] else None,
                    [r["pimc_deals"] for r in new] if "pimc_deals" in new[0] else None,
                )
            )
    return out


def _rate(rows: list[dict], key: str) -> dict:
    k, n = sum(r[key] for r in rows), len(rows)
    return {"rate": k / n if n else None, "ci95": list(wilson_interval(k, n)), "count": k}


def _loss(rows: list[dict], prefix: str, agree: str) -> dict:
    """Mean hold-out loss per hand and over the hands where the tops differ, with SEs over
    hands (a hand that agrees loses 0)."""
    held = np.array([r[f"{prefix}holdout_loss"] for r in rows])
    differ = held[[not r[agree] for r in rows]]

    def m(x):
        se = float(x.std(ddof=1) / math.sqrt(x.size)) if x.size > 1 else None
        return {"mean": float(x.mean()) if x.size else 0.0, "se": se, "hands": int(x.size)}

    return {"per_hand": m(held), "when_differ": m(differ)}


def by_role(rows: list[dict]) -> dict:
    """The agreement and loss figures of the elder hands and of the younger hands apart."""
    out = {}
    for role in ("elder", "younger"):
        mine = [r for r in rows if r["role"] == role]
        out[role] = {
            "hands": len(mine),
            "agreement": _rate(mine, "agree"),
            "alt_agreement": _rate(mine, "alt_agree"),
            "loss": _loss(mine, "", "agree") if mine else None,
            "alt_loss": _loss(mine, "alt_", "alt_agree") if mine else None,
        }
    return out


def summary(rows: list[dict], args: argparse.Namespace, seconds: float) -> dict:
    n = len(rows)
    med = {k: float(np.median([r[k] for r in rows])) if rows else None for k in CPU_KEYS}
    return {
        "command": "python scripts/advisor_agreement.py "
        + " ".join(
            f"--{k.replace('_', '-')} {v}" for k, v in vars(args).items() if k in STUDY_OPTIONS
        ),
        "default": f"advise(play={DEFAULT_PLAY}), precision 0.5 (the discard command's default "
        "until default8)",
        "alt": f"advise(play=pimc, refine={args.alt_refine}), precision 0.5: heuristic screen, "
        "pimc refine with the heuristic as control variate",
        "strong": f"advise(play=pimc, refine={args.refine}, precision={args.precision}) on other "
        "worlds (seed + 10000): heuristic screen of every discard, the best "
        f"{args.refine} raced with pimc play and the heuristic as control variate",
        "loss_definition": "when the tops differ: pimc EV(strong top) - EV(other top) on "
        f"fresh worlds "
        f"(seed + 20000), control variate with {args.control} heuristic worlds and "
        f"{args.holdout} pimc worlds; no winner's curse",
        "perspective": "the advising player's net deal points (own minus the opponent's)",
        "hands": n,
        "requested": args.hands,
        "agreement": _rate(rows, "agree"),
        "alt_agreement": _rate(rows, "alt_agree"),
        "loss": _loss(rows, "", "agree") if rows else None,
        "alt_loss": _loss(rows, "alt_", "alt_agree") if rows else None,
        "by_role": by_role(rows),
        "strong_median_se": float(np.median([r["strong_se"] for r in rows])) if rows else None,
        "median_cpu_s": med,
        "seconds": round(seconds, 1),
        "stored": "strong_ranking keeps every pimc-refined candidate and the "
        f"{STRONG_OTHERS_KEPT} best of the rest (heuristic screen), to keep the file small",
        "rows": rows,
    }


def write_study(path: Path, study: dict) -> None:
    """The study's JSON without whitespace: its rows hold about 120 ranked candidates each."""
    path.write_text(json.dumps(study, separators=(",", ":")))


# The options that define the study's numbers (the rest pick hands, files or follow-ups).
STUDY_OPTIONS = (
    "hands",
    "seed",
    "refine",
    "precision",
    "alt_refine",
    "elder_took",
    "holdout",
    "control",
)
CPU_KEYS = ("default_cpu_s", "default_wall_s", "alt_cpu_s", "alt_wall_s", "strong_cpu_s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--refine", type=int, default=20, help="strong: best screened refined")
    ap.add_argument("--precision", type=float, default=0.3, help="strong: SE of the finalists")
    ap.add_argument("--alt-refine", type=int, default=5, help="alternative default's refine")
    ap.add_argument("--elder-took", type=int, default=5, help="for the younger hands")
    ap.add_argument("--holdout", type=int, default=256, help="fresh pimc worlds for the loss")
    ap.add_argument("--control", type=int, default=32_768, help="fresh heuristic worlds")
    ap.add_argument("--start", type=int, default=0, help="first hand index run here")
    ap.add_argument("--stop", type=int, default=None, help="hand index to stop before")
    ap.add_argument("--merge", type=Path, nargs="*", help="only merge these outputs' rows")
    ap.add_argument(
        "--rescore",
        type=json.loads,
        help="advise keywords (JSON) of a new default "
        "to score against the --merge files' stored strong reference",
    )
    ap.add_argument(
        "--compare",
        type=Path,
        nargs="+",
        help="--rescore outputs to tabulate beside the --merge files' default and alternative",
    )
    ap.add_argument(
        "--join",
        type=Path,
        nargs="+",
        help="--rescore outputs of one setting (ranges of the hands) to join into --out",
    )
    ap.add_argument(
        "--near-tie",
        type=float,
        default=2.0,
        help="a near tie: strong top's lead over its runner-up <= this x their combined SEs",
    )
    ap.add_argument("--why", action="store_true", help="diagnose the --merge files' disagreements")
    ap.add_argument("--why-worlds", type=int, default=131_072, help="heuristic worlds for --why")
    ap.add_argument("--only", help="with --merge: only these stored hands (e.g. 90,66,177)")
    ap.add_argument("--out", type=Path, default=Path("results/advisor_agreement.json"))
    args = ap.parse_args()
    t0 = time.perf_counter()
    rows: list[dict] = []
    if args.merge:
        for f in args.merge:
            rows += _load(f)["rows"]
        rows.sort(key=lambda r: r["index"])
        if args.rescore is not None or args.why or args.compare:
            # --start/--stop pick a fixed subset of the stored hands to re-score or diagnose
            stop = math.inf if args.stop is None else args.stop
            rows = [r for r in rows if args.start <= r["index"] < stop]
            try:
                rows = pick_hands(rows, args.only)
            except ValueError as e:
                print(f"error: {e}", file=sys.stderr)
                sys.exit(2)
        if args.join:
            res = join(args.join, rows, args.near_tie)
            args.out.write_text(json.dumps(res, indent=1))
            print(json.dumps({k: v for k, v in res.items() if k != "rows"}))
            return
        if args.compare:
            lines = compare(rows, args.compare, args.near_tie)
            args.out.write_text(json.dumps(lines, indent=1))
            for x in lines:
                print(json.dumps(x), flush=True)
            return
        if args.rescore is not None or args.why:
            t0 = time.perf_counter()
            if args.rescore is not None:
                new = rescore(rows, args.rescore, args, t0)
            else:
                new = why(rows, args)
            res = _follow_up(new, args, t0, rows)
            args.out.write_text(json.dumps(res, indent=1))
            print(json.dumps({k: v for k, v in res.items() if k != "rows"}))
            return
    stop = args.hands if args.stop is None else args.stop
    for i, hand in enumerate(random_hands(args.hands, args.seed)):
        if args.merge or not args.start <= i < stop:
            continue
        rows.append({"index": i} | one_hand(i, hand, args))
        write_study(args.out, summary(rows, args, time.perf_counter() - t0))
        r = rows[-1]
        print(
            f"{i + 1}/{args.hands} {r['role']} agree={r['agree']} alt={r['alt_agree']} "
            f"loss={r['holdout_loss']:+.2f} strong se={r['strong_se']:.2f} "
            f"cpu={r['strong_cpu_s']}",
            flush=True,
        )
    if args.merge:
        write_study(args.out, summary(rows, args, time.perf_counter() - t0))
    s = summary(rows, args, time.perf_counter() - t0)
    print(json.dumps({k: s[k] for k in ("agreement", "alt_agreement", "loss", "alt_loss")}))


if __name__ == "__main__":
    main()
