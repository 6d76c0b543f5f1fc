"""Golden outputs of Pitch Six: fixed-seed runs of every ``piquet pitch … --json`` command and
the round and duel kernels, captured before the engine refactor (see ``cases.py``, whose
``run_cli`` and ``digest`` these reuse). Golden files: ``tests/golden/pitch/``."""

from __future__ import annotations

from collections.abc import Callable

from .cases import digest, run_cli

H0 = "AS KS 2S 3H 4D 5C"
H1 = "JS 6S TH 9H 8D 7C"
H2 = "QS 3S AH KH QD 2C"
H3 = "TS 5S JH 2H AD KC"
BID_HAND = "AS JS 6S 2S KH TD"

CLI_CASES: dict[str, tuple[str, ...]] = {
    "strategies": ("strategies", "--json"),
    "hand": ("hand", BID_HAND, "--players", "4", "--json"),
    "hand_six": ("hand", "S:AJ62 H:K D:T", "--players", "6", "--json"),
    "solve": ("solve", H0, H1, H2, H3, "--leader", "0", "--json"),
    "solve_paranoid": (
        "solve",
        H0,
        H1,
        H2,
        H3,
        "--trump",
        "H",
        "--paranoid",
        "--bid",
        "4",
        "--json",
    ),
    "solve_rules": (
        "solve",
        H0,
        H1,
        H2,
        H3,
        "--trump",
        "S",
        "--bid",
        "3",
        "--must-follow",
        "--low-to",
        "capturer",
        "--game-tie",
        "bidder",
        "--json",
    ),
    "solve_tie_full": (
        "solve",
        "AS KS 2S",
        "JS 6S TH",
        "QS 3S AH",
        "--trump",
        "S",
        "--tie",
        "full",
        "--json",
    ),
    "solve_endgame": (
        "solve",
        "AS 3H",
        "6S 9H",
        "QS KH",
        "--trump",
        "S",
        "--leader",
        "1",
        "--bidder",
        "0",
        "--game-points",
        "10:4:0",
        "--json",
    ),
    "odds": ("odds", "--players", "5", "--rounds", "20000", "--seed", "7", "--quiet", "--json"),
    "odds_three": (
        "odds",
        "--players",
        "3",
        "--rounds",
        "5000",
        "--trump",
        "D",
        "--quiet",
        "--json",
    ),
    "batch": (
        "batch",
        "threshold",
        "threshold:margin=1",
        "--rounds",
        "5000",
        "--seed",
        "3",
        "--quiet",
        "--json",
    ),
    "batch_rules": (
        "batch",
        "threshold:margin=-1",
        "random",
        "--players",
        "6",
        "--table",
        "parametric",
        "--play",
        "random",
        "--rounds",
        "3000",
        "--seed",
        "4",
        "--must-follow",
        "--low-to",
        "capturer",
        "--quiet",
        "--json",
    ),
    "batch_fitted": (
        "batch",
        "fitted",
        "pass",
        "--players",
        "3",
        "--rounds",
        "3000",
        "--seed",
        "5",
        "--game-tie",
        "bidder",
        "--quiet",
        "--json",
    ),
    "bid": (
        "bid",
        BID_HAND,
        "--players",
        "4",
        "--seat",
        "2",
        "--auction",
        "0:pass 1:3",
        "--deals",
        "500",
        "--seed",
        "2",
        "--json",
    ),
    "bid_score_win": (
        "bid",
        "KS JS 6S 3S KH TD",
        "--seat",
        "3",
        "--auction",
        "0:pass 1:3 2:4",
        "--score",
        "9:4:10:7",
        "--rank",
        "win",
        "--deals",
        "300",
        "--seed",
        "3",
        "--json",
    ),
    "bid_uniform_rules": (
        "bid",
        "S:AK6 H:T2 D:J",
        "--players",
        "5",
        "--seat",
        "4",
        "--auction",
        "0:pass 1:4 2:pass 3:pass",
        "--prior",
        "uniform",
        "--others",
        "parametric",
        "--play",
        "random",
        "--deals",
        "400",
        "--seed",
        "5",
        "--must-follow",
        "--low-to",
        "capturer",
        "--json",
    ),
    "bid_dd": (
        "bid",
        BID_HAND,
        "--seat",
        "0",
        "--play",
        "dd",
        "--deals",
        "10",
        "--seed",
        "1",
        "--json",
    ),
    "game": ("game", "threshold", "cautious", "-n", "300", "--seed", "2", "--quiet", "--json"),
    "game_rules": (
        "game",
        "fitted",
        "bold",
        "--players",
        "3",
        "-n",
        "200",
        "--seed",
        "6",
        "--game-tie",
        "bidder",
        "--low-to",
        "capturer",
        "--quiet",
        "--json",
    ),
    "tournament": (
        "tournament",
        "threshold",
        "cautious",
        "bold",
        "-n",
        "100",
        "--seed",
        "4",
        "--quiet",
        "--json",
    ),
}


def kernel_cases() -> dict[str, Callable[[], dict]]:
    """Library-level cases: the round simulator's records and traces, and the bid duel's rows,
    hashed."""

    def rounds() -> dict:
        import numpy as np

        from piquet_sim.pitch.kernels.simulate import simulate_rounds
        from piquet_sim.pitch.policies import make_policy
        from piquet_sim.pitch.rules import Rules

        out = {}
        for name, rules, bid, play in (
            ("random_4", Rules(), "random", "random"),
            ("threshold_3", Rules(players=3), "threshold", "heuristic"),
            (
                "rules_6",
                Rules(players=6, must_follow=True, low_to="capturer", game_tie="bidder"),
                "threshold",
                "heuristic",
            ),
        ):
            recs, traces = simulate_rounds(
                np.int64(9),
                np.int64(0),
                np.int64(2000),
                rules.to_array(),
                make_policy(bid, play),
                True,
            )
            out[name] = {"records": digest(recs), "traces": digest(traces)}
        return out

    def duel() -> dict:
        import numpy as np

        from piquet_sim.pitch.batch import duel_policies
        from piquet_sim.pitch.kernels.duel import duel_rounds
        from piquet_sim.pitch.rules import Rules

        table, heroes = duel_policies(
            "threshold", "threshold:margin=1", 2000, "threshold", "heuristic"
        )
        d = duel_rounds(np.int64(4), np.int64(0), np.int64(2000), Rules().to_array(), table, heroes)
        return {"duel": digest(d)}

    return {"kernel_rounds": rounds, "kernel_duel": duel}


def all_cases() -> dict[str, Callable[[], dict]]:
    cases: dict[str, Callable[[], dict]] = {
        name: (lambda a=args: run_cli("pitch", *a)) for name, args in CLI_CASES.items()
    }
    cases.update(kernel_cases())
    return cases
