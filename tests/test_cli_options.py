"""The smaller things a newcomer meets: white suit symbols, --want cards that cannot be drawn,
deal numbers a partie cannot reach, one --elder-took behaviour, partie options only where a
partie is played, defaults in --help, sink's table in 80 columns, the bench's notes, and the
README (its links stay inside the repository; its library example imports)."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import click
import pytest
from rich.console import Console

ROOT = Path(__file__).resolve().parent.parent
HAND = "AS KS QS JS 9H 8H 7H AD KD AC QC JC"
DRAW_HAND = "AS KS QS 9S 8H 7H AD 9D 8D KC 8C 7C"


def test_white_suit_symbols_are_accepted(run_main):
    code, black, _ = run_main("hand", "A♠ K♠ Q♠ J♠ 9♥ 8♥ 7♥ A♦ K♦ A♣ Q♣ J♣", "--json")
    assert code == 0
    code, white, _ = run_main("hand", "A♤ K♤ Q♤ J♤ 9♡ 8♡ 7♡ A♢ K♢ A♧ Q♧ J♧", "--json")
    assert code == 0 and white == black
    code, plain, _ = run_main("hand", HAND, "--json")
    assert plain == white


@pytest.mark.parametrize(
    "want, message",
    [("9D", "in your discard, it cannot be drawn back"), ("AS", "already in the hand")],
)
def test_want_names_cards_that_can_be_drawn(run_main, want, message):
    code, out, err = run_main("draw", DRAW_HAND, "--discard", "8H 7H 9D 8C 7C", "--want", want)
    assert code == 2 and out == "" and message in err and err.count("\n") == 1


@pytest.mark.parametrize(
    "args, message",
    [
        (["--score", "84:61", "--deal", "7"], "only played after a tie"),
        (["--score", "84:84", "--deal", "9"], "has 6 deals"),
        (["--score", "84:61", "--deal", "5", "--game", "four_deals"], "has 4 deals"),
        (["--score", "104:61", "--deal", "3", "--game", "hundred"], "ends at 100"),
    ],
)
def test_impossible_partie_deals_are_refused(run_main, args, message):
    code, out, err = run_main("discard", HAND, *args)
    assert code == 2 and out == "" and message in err


def test_possible_partie_deals_pass_the_check():
    from piquet_sim.piquet.cli.common import check_deal
    from piquet_sim.piquet.rules import Rules

    check_deal(70, 70, 7, Rules())  # tie after six: deal 7
    check_deal(80, 95, 8, Rules())  # deal 8 follows deal 7 whatever its score
    check_deal(99, 0, 40, Rules(game="hundred"))
    with pytest.raises(click.UsageError):
        check_deal(0, 0, 5, Rules(game="four_deals"))


@pytest.mark.parametrize(
    "args",
    [
        ["draw", DRAW_HAND, "--discard", "8H 7H", "--younger"],
        ["sink", HAND, "--younger", "--discard", "9H 8H"],
        ["discard", HAND, "--younger"],
    ],
)
def test_younger_exchanging_always_needs_elder_took(run_main, args):
    code, out, err = run_main(*args)
    assert code == 2 and "--younger needs --elder-took" in err


@pytest.mark.parametrize(
    "args",
    [
        ["draw", DRAW_HAND, "--discard", "8H 7H", "--elder-took", "3"],
        ["sink", HAND, "--discard", "9H", "--elder-took", "3"],
        ["discard", HAND, "--elder-took", "3"],
        ["sink", HAND, "--younger", "--elder-took", "3"],  # no exchange: nothing to take
    ],
)
def test_elder_took_without_a_younger_exchange_is_refused(run_main, args):
    code, _, err = run_main(*args)
    assert code == 2 and "--elder-took needs" in err


@pytest.mark.parametrize("command", ["hand", "compare", "draw", "sink", "solve", "odds", "batch"])
def test_partie_options_only_where_a_partie_is_played(run_main, command):
    code, help_text, _ = run_main(command, "--help")
    assert code == 0
    for option in ("--game", "--tie", "--blank-partie-bonus"):
        assert option not in help_text, (command, option)
    assert "--lead-points" in help_text


@pytest.mark.parametrize("command", ["discard", "partie", "report"])
def test_partie_options_where_a_partie_is_played(run_main, command):
    _, help_text, _ = run_main(command, "--help")
    assert "--game" in help_text and "--tie" in help_text


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_help_shows_defaults_and_what_the_time_limit_counts(run_main):
    _, text, _ = run_main("discard", "--help")
    text = _flat(text)
    assert "[default: elder]" in text
    assert re.search(r"\[default: \(?400,000\)?", text)
    assert re.search(r"\[default: \(?no limit\)?", text)
    assert "compilation on a first run is not counted" in text
    _, text, _ = run_main("sink", "--help")
    text = _flat(text)
    assert re.search(r"--seed INTEGER RANGE Seed of the sampled worlds", text)
    assert "[default: elder]" in text
    _, text, _ = run_main("draw", "--help")
    assert "[default: elder]" in _flat(text)


def test_sink_table_keeps_its_interval_whole_in_80_columns():
    from piquet_sim.piquet.cli.sink import sink_table

    parts = {"declarations": 12.5, "pique": 0.0, "repique": 30.0, "play": -4.25, "concealment": 1.5}
    names = ["declare all", "sink the point", "declare a lesser sequence (quart for quint)"]
    choices = [
        SimpleNamespace(name=n, net=10.0 - i, gain=-1.25 * i, gain_ci=(-12.5, 10.0), parts=parts)
        for i, n in enumerate(names)
    ]
    res = SimpleNamespace(
        role="elder",
        hand=HAND,
        discard="",
        worlds=48,
        requested=48,
        interrupted=False,
        play="pimc",
        pimc_worlds=8,
        choices=choices,
    )
    console = Console(width=80, record=True, color_system=None)
    console.print(sink_table(res))
    text = console.export_text()
    assert all(len(line) <= 80 for line in text.splitlines())
    assert text.count("[-12.5, +10.0]") == 2  # each interval whole on one line


def test_bench_skips_a_workload_whose_backend_is_missing(run_main, monkeypatch, tmp_path):
    from piquet_sim import bench_cli
    from piquet_sim.core.engine.backend import BackendError

    def needs_dask(quick):
        raise BackendError('the dask backend needs Dask: pip install "piquet-sim[dask]"')

    def fine(quick):
        return [{"workload": "fine", "threads": 1, "x": 1}]

    monkeypatch.setattr(bench_cli, "registry", lambda: {"odds backends": needs_dask, "fine": fine})
    out = tmp_path / "results" / "bench.json"
    code, text, err = run_main("bench", "--out", str(out))
    assert code == 0 and out.is_file()
    assert "odds backends: skipped" in text and "needs Dask" in text
    assert str(out) in text and str(out) in err  # says where it writes


def test_readme_links_stay_in_the_repository_and_its_commands_are_current():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#]+)\)", readme):
        assert not target.startswith(("http", "/")), target
        assert (ROOT / target).resolve().is_relative_to(ROOT), target
        assert (ROOT / target).exists(), target
    opening = readme[: readme.index("## What it is")]
    assert "python3 -m venv .venv && . .venv/bin/activate" in opening
    assert 'pip install -e . && piquet discard "' in opening
    assert "python -m pytest" in opening
    assert (
        "tournament" not in readme
        or "tournament S1 S2 … [--deals N] [--plot FILE] [--csv" not in (readme)
    )
    assert "from piquet_sim.piquet." in readme and "from piquet_sim.cards" not in readme
    assert (ROOT / "docs" / "rules" / "piquet.md").is_file()


def test_compile_notice_reads_the_cache_index(tmp_path, monkeypatch, capsys):
    """A kernel with nothing cached for its source is "cold" (the notice is printed); one
    compiled in this process is warm; something that is not a numba dispatcher is ignored."""
    import importlib
    import sys

    from piquet_sim.core.app.cli import COMPILING, compile_notice, kernels_cold

    source = tmp_path / "cold_kernel_mod.py"
    source.write_text("import numba\n@numba.njit(cache=True)\ndef twice(x):\n    return 2 * x\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    mod = importlib.import_module("cold_kernel_mod")
    try:
        assert kernels_cold(mod.twice) and compile_notice(mod.twice)
        assert COMPILING in capsys.readouterr().err
        assert compile_notice(mod.twice, quiet=True) and capsys.readouterr().err == ""
        mod.twice(3)
        assert not kernels_cold(mod.twice)
        assert not kernels_cold(print)
    finally:
        sys.modules.pop("cold_kernel_mod", None)


def test_report_compile_notice_checks_the_kernels_its_strategies_run():
    """``piquet report`` said "compiling kernels" on every warm run: it asked about the bundled
    records kernel, which its default strategies never run."""
    from piquet_sim.piquet.report import entry_kernels
    from piquet_sim.piquet.simulation import records_kernel
    from piquet_sim.piquet.strategies import BOOK, policies

    resolve = BOOK.resolve

    for names in (["greedy", "max"], ["heuristic", "pimc-play"]):
        wanted = {records_kernel(policies(resolve(n), resolve(n))) for n in names}
        assert set(entry_kernels(names)) == wanted
