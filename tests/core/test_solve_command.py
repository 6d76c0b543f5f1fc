"""The core's ``solve`` for any game that declares its pieces, the solution's common shape, the
shared E:Y pair type and the ``solve-full`` bench rows, on a game written here in plain Python
(no kernel): the toy game's declaration with a counting "solver"."""

from __future__ import annotations

import dataclasses
import json
import sys
import time
import types
from dataclasses import dataclass, field

import click
import numpy as np
import pytest

from piquet_sim.core.app.bench import SolveSeries, solve_full
from piquet_sim.core.app.cli import run_main
from piquet_sim.core.app.options import PairType
from piquet_sim.core.app.solve_cli import SolveCli
from piquet_sim.core.engine.errors import InputError
from piquet_sim.core.game.solve import Solution, SolveError


@dataclass
class CountSolution(Solution):
    """The toy's answer: the value is the number of cards, the line one "trick" a card."""

    value: int
    leader: str
    line: list[tuple[str, str]] = field(default_factory=list)

    @property
    def principal(self) -> list:
        return self.line


def _count(values: dict, rules, notice) -> CountSolution:
    cards = values["cards"].split()
    if len(set(cards)) != len(cards):
        raise SolveError(f"{cards[0]} given twice")
    notice()
    return CountSolution(len(cards), values["leader"], [(c, "-") for c in cards])


def _print(solution, values: dict, rules, console) -> None:
    console.print(f"Value {solution.value}")


PIECES = SolveCli(
    help="Count the cards.\n\n\b\nExample:\n  piquet toy solve 'A B'",
    params=(
        click.argument("cards"),
        click.option("--leader", default="N"),
        click.option("--tricks", type=PairType("E:Y"), metavar="E:Y", default=(0, 0)),
    ),
    run=_count,
    show=_print,
    kernels=lambda values: (),
    given=lambda values, sol: {"tricks_before": list(values["tricks"])},
    verdict=lambda values, sol: {"even": sol.value % 2 == 0},
)


@pytest.fixture
def toy_solve(monkeypatch, capsys):
    """``run(*args) -> (exit code, stdout, stderr)`` of ``toy solve``: the toy game's
    declaration with these pieces as its ``solve_ref``."""
    from toy_game.cli import GAME

    module = types.ModuleType("toy_solve_pieces")
    module.PIECES = PIECES
    monkeypatch.setitem(sys.modules, "toy_solve_pieces", module)
    group = dataclasses.replace(GAME, solve_ref="toy_solve_pieces:PIECES").click_group()

    def run(*args: str) -> tuple[int, str, str]:
        with pytest.raises(SystemExit) as exit_info:
            run_main(group, ["solve", *args], "piquet")
        out, err = capsys.readouterr()
        return exit_info.value.code, out, err

    return run


def test_a_game_takes_solve_by_declaring_its_pieces():
    from toy_game.cli import GAME

    assert "solve" not in GAME.lazy_commands()
    assert "solve" in dataclasses.replace(GAME, solve_ref="x:Y").lazy_commands()


def test_solve_json_is_the_solution_then_the_position_then_the_rules_then_the_verdict(toy_solve):
    code, out, err = toy_solve("A B C", "--tricks", "2:1", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert list(data) == ["value", "leader", "line", "tricks_before", "rules", "even"]
    assert data["line"] == [["A", "-"], ["B", "-"], ["C", "-"]]  # tuples as JSON lists
    assert data["tricks_before"] == [2, 1] and data["even"] is False
    assert isinstance(data["rules"], dict)


def test_solve_text_is_the_games_tables(toy_solve):
    code, out, _ = toy_solve("A B")
    assert code == 0 and out.strip() == "Value 2"


@pytest.mark.parametrize(
    "args, line",
    [
        (["A A"], "piquet: error: A given twice"),
        (["A", "--tricks", "5"], "expected E:Y (two whole numbers), got '5'"),
        (["A", "--tricks", "1:-2"], "Invalid value for --tricks: expected E:Y"),
    ],
)
def test_solve_bad_input_is_one_line_exit_2(toy_solve, args, line):
    code, out, err = toy_solve(*args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and line in err


def test_one_solve_error_for_every_game_is_bad_input():
    from piquet_sim.pilotta import solver as pilotta
    from piquet_sim.piquet import solver as piquet
    from piquet_sim.pitch import solver as pitch

    assert issubclass(SolveError, InputError) and issubclass(SolveError, ValueError)
    assert piquet.SolveError is pilotta.SolveError is pitch.SolveError is SolveError
    for solution in (piquet.PiquetSolution, pilotta.PilottaSolution, pitch.PitchSolution):
        assert issubclass(solution, Solution)


def test_pair_type_reads_two_whole_numbers():
    pair = PairType("C:D")
    assert pair.convert("5:3", None, None) == (5, 3)
    assert pair.convert((1, 2), None, None) == (1, 2)
    for bad in ("5", "1:2:3", "a:b", "-1:2"):
        with pytest.raises(click.BadParameter, match="expected C:D"):
            pair.convert(bad, None, None)


def _series(name: str, nodes: list[int], cut: list[bool], **kw) -> SolveSeries:
    """A series whose "search" of position i reports ``nodes[i]`` nodes and ``cut[i]``, and
    takes ``nodes[i]`` / 1000 seconds (times in the same order as the nodes)."""
    last = [0]

    def solve(i: int) -> bool:
        time.sleep(nodes[i] / 1000)
        last[0] = nodes[i]
        return cut[i]

    return SolveSeries(
        name,
        list(range(len(nodes))),
        warm=lambda: None,
        clear=lambda: None,
        solve=solve,
        nodes=lambda: last[0],
        own=lambda: {"table_mb": 1.0},
        **kw,
    )


def test_solve_full_rows_keep_the_games_fields_in_order():
    plain = _series(
        "plain", [10, 20, 30], [False] * 3, fields=("deals", "median_nodes", "table_mb")
    )
    cut = _series(
        "cut",
        [10, 20, 30, 40],
        [False, False, False, True],
        fields=("rounds", "finished", "cut", "median_exact", "p95_exact", "median_nodes"),
        count="rounds",
        censored=True,
    )
    rows = solve_full([plain, cut])
    assert rows[0] == {
        "workload": "plain",
        "threads": 1,
        "deals": 3,
        "median_nodes": 20,
        "table_mb": 1.0,
    }
    assert list(rows[1]) == ["workload", "threads", "rounds", "finished", "cut"] + [
        "median_exact",
        "p95_exact",
        "median_nodes",
    ]
    assert (rows[1]["finished"], rows[1]["cut"]) == (3, 1)
    assert rows[1]["median_exact"] is True and rows[1]["p95_exact"] is False
    assert rows[1]["median_nodes"] == int(np.percentile([10, 20, 30, 40], 50, method="higher"))


def test_solve_full_stops_a_row_at_its_cpu_budget():
    row = solve_full([_series("budget", [0] * 50, [False] * 50, fields=("deals",), budget_s=0)])
    assert row[0]["deals"] == 1
