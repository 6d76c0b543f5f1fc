"""The core's ``odds`` flow on a toy count written here in plain Python (no kernel): a run cut
by Ctrl-C is marked partial in the JSON and the text and exits 130, the figure is written and
named only when a deal was counted, and the tables write rates in the game's style."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest

from piquet_sim.core.app.cli import run_main
from piquet_sim.core.app.odds_cli import FRACTION, PERCENT, EventRate, Odds, OddsCli, odds_command
from piquet_sim.core.engine.backend import StopOnInterrupt

#: The toy's options (the core adds ``--plot``, ``--quiet``, ``--json`` and the backend's);
#: ``--stop-at K``: a Ctrl-C once K deals are counted (default: none).
PARAMS = (
    click.option("--deals", "-n", type=int, default=100),
    click.option("--stop-at", type=int, default=None),
)


def _run(values: dict, progress) -> Odds:
    counted = values["deals"]
    if values["stop_at"] is not None:
        counted = min(counted, values["stop_at"])
        StopOnInterrupt.requested = True  # as a Ctrl-C during the count
    progress(counted)
    half = EventRate("heads", 0.5, (0.25, 0.75), counted // 2, counted, exact=0.5)
    return Odds(
        counted=counted,
        data={"deals": counted},
        head=f"{counted:,} tosses",
        tables=[("coin", [half]), (None, [EventRate("edge", 0.0, (0.0, 0.01), 0, counted)])],
        plot=lambda path: Path(path).write_text("figure"),
    )


@pytest.fixture
def odds(capsys):
    """``odds(style, *args) -> (exit code, stdout, stderr)`` of the toy's command."""

    def run(style, *args: str) -> tuple[int, str, str]:
        group = click.Group("toy")
        group.add_command(odds_command(OddsCli("Toy odds.", PARAMS, "the tosses", _run, style)))
        with pytest.raises(SystemExit) as exit_info:
            run_main(group, ["odds", "--quiet", *args], "piquet")
        out, err = capsys.readouterr()
        return exit_info.value.code, out, err

    return run


def test_a_complete_count_has_no_partial_mark(odds, tmp_path):
    path = tmp_path / "odds.png"
    code, out, _ = odds(PERCENT, "--json", "--plot", str(path))
    assert code == 0
    assert json.loads(out) == {"deals": 100, "plot": str(path)}
    assert path.read_text() == "figure"


def test_a_cut_count_is_marked_partial_and_exits_130(odds, tmp_path):
    path = tmp_path / "odds.png"
    code, out, _ = odds(PERCENT, "--json", "--stop-at", "40", "--plot", str(path))
    assert code == 130
    data = json.loads(out)
    assert list(data) == ["deals", "partial", "requested", "plot"]
    assert data == {"deals": 40, "partial": True, "requested": 100, "plot": str(path)}
    code, out, _ = odds(PERCENT, "--stop-at", "40")
    assert code == 130
    assert "40 tosses  (interrupted: partial, 40 of 100 deals)" in out


def test_no_figure_when_no_deal_was_counted(odds, tmp_path):
    path = tmp_path / "odds.png"
    code, out, _ = odds(PERCENT, "--json", "--stop-at", "0", "--plot", str(path))
    assert code == 130 and "plot" not in json.loads(out) and not path.exists()


def test_the_tables_write_rates_in_the_games_style(odds):
    code, out, _ = odds(PERCENT)
    assert code == 0
    assert "estimate %" in out and "exact %" in out and " of " not in out
    assert "25.000 - 75.000" in out and "50.000" in out
    code, out, _ = odds(FRACTION)
    assert code == 0
    heads = next(line for line in out.splitlines() if "heads" in line)
    assert "0.2500-0.7500" in heads and "0.5000" in heads and "100" in heads  # "of" 100
    assert "coin" in out  # a titled table, then an untitled one
