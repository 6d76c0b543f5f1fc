"""A game's start workload times its commands as their ``--help`` examples type them."""

from __future__ import annotations

import click

import piquet_sim.core.app.bench as bench
from piquet_sim.core.app.bench import example_starts
from piquet_sim.core.app.commands import Game

HELP = """Solve a toy deal.

\b
Examples:
  piquet toy solve "AS KS" \\
                   "QS JS" --lead 1
  piquet toy solve "AS" "KS"
"""


def test_each_label_runs_the_first_help_example_with_its_flags_and_json(monkeypatch):
    solve = click.Command("solve", help=HELP, callback=lambda: None)
    # a command built when first asked for, as the core's are (``Game.lazy_commands``)
    toy = Game("toy", "Toy", "toy", "A toy.", {"solve": lambda: solve})
    started = []

    def start_row(name: str, args: list[str]) -> dict:
        started.append((name, args))
        return {"workload": name}

    monkeypatch.setattr(bench, "start_row", start_row)
    rows = example_starts(toy, "solve", "solve --fast")(True)
    assert [r["workload"] for r in rows] == ["start toy solve", "start toy solve --fast"]
    example = ["toy", "solve", "AS KS", "QS JS", "--lead", "1"]
    assert started == [
        ("start toy solve", [*example, "--json"]),
        ("start toy solve --fast", [*example, "--fast", "--json"]),
    ]
