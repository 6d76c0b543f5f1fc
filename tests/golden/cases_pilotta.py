"""Golden outputs of Pilotta: fixed-seed runs of every ``piquet pilotta … --json`` command and
the round and game kernels, captured before the engine refactor (see ``cases.py``, whose
``run_cli`` and ``digest`` these reuse). Golden files: ``tests/golden/pilotta/``."""

from __future__ import annotations

from collections.abc import Callable

from .cases import digest, run_cli

NORTH = "KS 9S 8S TH 8H KD 9D 8D"
EAST = "QS JS 7S 7H TD AC TC 8C"
SOUTH = "AS TS QH JH 7D QC 9C 7C"
WEST = "AH KH 9H AD QD JD KC JC"
BID_HAND = "JS 9S AS TS KH AD TD 7C"

CLI_CASES: dict[str, tuple[str, ...]] = {
    "strategies": ("strategies", "--json"),
    "hand": ("hand", "JS 9S AS TH KH QH JH 7C", "--trump", "S", "--json"),
    "hand_every_trump_32": ("hand", "S:J9A H:TKQJ C:7", "--trump-kq", "3,2", "--json"),
    "solve": ("solve", NORTH, EAST, SOUTH, WEST, "--trump", "C", "--leader", "W", "--json"),
    "solve_exemption": (
        "solve",
        NORTH,
        EAST,
        SOUTH,
        WEST,
        "--trump",
        "S",
        "--leader",
        "N",
        "--contract",
        "EW",
        "--partner-exemption",
        "--trump-kq",
        "3,2",
        "--json",
    ),
    "solve_endgame": (
        "solve",
        "JS AH",
        "9S KH",
        "AS QH",
        "TS 7H",
        "--trump",
        "S",
        "--tricks",
        "3:3",
        "--points",
        "40",
        "--json",
    ),
    "solve_trick": (
        "solve",
        "JS AH KD",
        "9S QD",
        "QH 8C",
        "TS 7H 9C",
        "--trump",
        "H",
        "--leader",
        "E",
        "--trick",
        "KH AS",
        "--tricks",
        "2:3",
        "--points",
        "30",
        "--json",
    ),
    "odds": ("odds", "-n", "20000", "--seed", "3", "--trump", "H", "--quiet", "--json"),
    "odds_chunked": ("odds", "-n", "5000", "--seed", "8", "--chunk", "1500", "--quiet", "--json"),
    "batch": ("batch", "bold", "cautious", "-n", "2000", "--seed", "3", "--json"),
    "batch_exemption": (
        "batch",
        "heuristic",
        "greedy",
        "-n",
        "1000",
        "--seed",
        "5",
        "--partner-exemption",
        "--trump-kq",
        "3,2",
        "--json",
    ),
    "batch_random_quiet": ("batch", "quiet", "random", "-n", "1000", "--seed", "2", "--json"),
    "bid": (
        "bid",
        BID_HAND,
        "--seat",
        "S",
        "--auction",
        "E:pass",
        "-n",
        "300",
        "--seed",
        "2",
        "--json",
    ),
    "bid_score": (
        "bid",
        BID_HAND,
        "--seat",
        "S",
        "--auction",
        "E:pass",
        "--score",
        "300:320",
        "-n",
        "200",
        "--seed",
        "3",
        "--json",
    ),
    "bid_random_prior": (
        "bid",
        "JH 9H AH KH QH AS 7D 8C",
        "--seat",
        "N",
        "--dealer",
        "W",
        "--prior",
        "random",
        "--play",
        "greedy",
        "-n",
        "300",
        "--seed",
        "4",
        "--partner-exemption",
        "--json",
    ),
    "bid_dd": (
        "bid",
        "JH 9H AH KH QH AS 7D 8C",
        "--seat",
        "N",
        "--dealer",
        "W",
        "--play",
        "dd",
        "-n",
        "12",
        "--seed",
        "1",
        "--json",
    ),
    "game": ("game", "bold", "heuristic", "-n", "200", "--seed", "2", "--json"),
    "game_exemption": (
        "game",
        "cautious",
        "greedy",
        "-n",
        "100",
        "--seed",
        "6",
        "--partner-exemption",
        "--json",
    ),
    "tournament": (
        "tournament",
        "heuristic",
        "bold",
        "cautious",
        "greedy",
        "-n",
        "500",
        "--seed",
        "4",
        "--json",
    ),
}


def kernel_cases() -> dict[str, Callable[[], dict]]:
    """Library-level cases: the round kernel's records, plays and legal counts, and the game
    kernel's rows, hashed."""

    def rounds() -> dict:
        from piquet_sim.pilotta import api
        from piquet_sim.pilotta.rules import Rules

        out = {}
        for name, setup, rules in (
            ("random", api.make_setup(), Rules()),
            (
                "threshold_heuristic",
                api.make_setup("threshold", "heuristic", "greedy"),
                Rules(),
            ),
            (
                "exemption_32",
                api.make_setup("threshold", "heuristic", "heuristic"),
                Rules(partner_exemption=True, trump_kq_points=(3, 2)),
            ),
        ):
            recs, plays, legal = api.simulate_batch(7, 0, 1500, setup, rules.to_array())
            out[name] = {"records": digest(recs), "plays": digest(plays), "legal": digest(legal)}
        return out

    def games() -> dict:
        import numpy as np

        from piquet_sim.pilotta import api
        from piquet_sim.pilotta.kernels.game import simulate_games
        from piquet_sim.pilotta.rules import Rules

        setup = api.make_setup("threshold", "heuristic", "greedy")
        g = simulate_games(np.int64(3), np.int64(0), np.int64(200), setup, Rules().to_array())
        return {"games": digest(g)}

    return {"kernel_rounds": rounds, "kernel_games": games}


def all_cases() -> dict[str, Callable[[], dict]]:
    cases: dict[str, Callable[[], dict]] = {
        name: (lambda a=args: run_cli("pilotta", *a)) for name, args in CLI_CASES.items()
    }
    cases.update(kernel_cases())
    return cases
