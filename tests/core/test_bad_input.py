"""Bad input a newcomer types: each is one line on stderr with exit code 2, refused before any
work starts, never a traceback."""

from __future__ import annotations

import sys

import click
import pytest

from piquet_sim.cli import cli
from piquet_sim.core.app.cli import MAX_SEED, Finite

HAND = "AS KS QS JS 9H 8H 7H AD KD AC QC JC"
HUGE_SEED = "99999999999999999999999"


def _one_line_usage_error(code: int, out: str, err: str, *words: str) -> None:
    assert code == 2, err
    assert out == ""
    assert err.count("\n") == 1, err
    assert "Traceback" not in err
    for word in words:
        assert word in err


def _every_command(group: click.Group = cli, path: tuple[str, ...] = ()):
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            yield from _every_command(command, (*path, name))
        else:
            yield (*path, name), command


def test_every_seed_option_is_bounded_to_the_kernels_seeds():
    for path, command in _every_command():
        for param in command.params:
            if "--seed" in param.opts:
                assert isinstance(param.type, click.IntRange), path
                assert param.type.min == 0 and param.type.max <= MAX_SEED, path


def test_every_number_option_refuses_nan_and_inf():
    for path, command in _every_command():
        for param in command.params:
            if isinstance(param.type, click.types.FloatParamType):
                assert isinstance(param.type, Finite), (path, param.opts)


@pytest.mark.parametrize(
    "args",
    [
        ("odds", "-n", "100", "--seed", HUGE_SEED),
        ("pilotta", "odds", "-n", "10", "--seed", HUGE_SEED),
        ("pilotta", "batch", "bold", "cautious", "-n", "10", "--seed", HUGE_SEED),
        ("pitch", "odds", "-n", "10", "--seed", HUGE_SEED),
    ],
)
def test_a_seed_too_large_for_the_kernels_is_one_usage_line(run_main, args):
    _one_line_usage_error(*run_main(*args), "--seed", str(MAX_SEED))


@pytest.mark.parametrize(
    "option, value",
    [
        ("--precision", "nan"),
        ("--precision", "inf"),
        ("--time-limit", "nan"),
        ("--time-limit", "inf"),
        ("--indifference", "nan"),
    ],
)
def test_discard_refuses_a_number_that_is_not_finite(run_main, option, value):
    _one_line_usage_error(*run_main("discard", HAND, option, value), option, "not a finite")


@pytest.mark.parametrize("group", [(), ("pilotta",), ("pitch",)])
def test_external_budget_refuses_nan(run_main, group):
    code, out, err = run_main(*group, "external", "ismcts:10", "-n", "1", "--budget-ms", "nan")
    _one_line_usage_error(code, out, err, "--budget-ms", "not a finite")


@pytest.mark.parametrize("group", [(), ("pilotta",), ("pitch",)])
@pytest.mark.parametrize("value", ["nan", "inf"])
def test_play_max_seconds_refuses_a_number_that_is_not_finite(run_main, group, value):
    code, out, err = run_main(*group, "play", "--max-seconds", value)
    _one_line_usage_error(code, out, err, "--max-seconds", "not a finite")


@pytest.mark.parametrize(
    "group, hand, history",
    [
        ("pilotta", "JS AH JH QD 9C", "dealer: E"),
        ("pitch", "TH 9D TC 2C", "auction: pass 3 pass pass"),
    ],
)
def test_play_without_its_required_seat_is_one_usage_line(run_main, group, hand, history):
    code, out, err = run_main(group, "play", hand, "--history", history)
    _one_line_usage_error(code, out, err, "Missing option '--seat'")


@pytest.mark.parametrize(
    "args, message",
    [
        (("ladder", "--external", "ismcts:0"), "ismcts:0: give at least 1 simulations"),
        (("pilotta", "external", "ismcts:0", "-n", "1"), "give at least 1 simulations"),
        (("pitch", "external", "ismcts:0", "-n", "1"), "give at least 1 simulations"),
        (("pilotta", "external", "colver:smart_ismcts:0", "-n", "1"), "at least 1 ms"),
        (("pilotta", "external", "colver:isdd:0", "-n", "1"), "at least 1 worlds"),
    ],
)
def test_an_outside_player_with_a_zero_count_is_refused(run_main, args, message):
    """Refused whether or not the player's extra is installed (it is checked first)."""
    _one_line_usage_error(*run_main(*args), message)


@pytest.mark.parametrize("option", ["--out", "--csv"])
def test_a_parquet_name_without_pyarrow_is_refused_before_the_run(
    run_main, monkeypatch, tmp_path, option
):
    from piquet_sim.core.app import study_commands

    def never(*args, **kwargs):
        raise AssertionError("the match started")

    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if not installed
    monkeypatch.setattr(study_commands, "play_match", never)
    path = tmp_path / "rows.parquet"
    code, out, err = run_main("batch", "heuristic", "greedy", "-n", "100", option, str(path))
    _one_line_usage_error(code, out, err, "rows.parquet", "pyarrow", ".csv")
    assert not path.exists()


def test_the_older_csv_spelling_writes_a_parquet_name_as_parquet(run_main, tmp_path):
    pytest.importorskip("pyarrow")
    path = tmp_path / "rows.parquet"
    code, _, err = run_main("batch", "heuristic", "greedy", "-n", "100", "--csv", str(path))
    assert code == 0, err
    assert path.read_bytes()[:4] == b"PAR1"


def test_a_run_of_years_says_how_long_as_it_starts(monkeypatch):
    """The progress bar measures the rate from its second update (a first chunk may have
    compiled kernels) and says once how long a run of more than an hour will take; a short run
    says nothing. (The clock is the test's: the figure does not depend on the machine.)"""
    from piquet_sim.core.app import progress

    said = []
    monkeypatch.setattr(progress, "long_run_notice", said.append)
    clock = iter([0.0, 50.0, 51.0, 52.0, 100.0, 101.0, 102.0])
    monkeypatch.setattr(progress.time, "perf_counter", lambda: next(clock))
    with progress.RateBar(10**14, "deals", quiet=True) as bar:
        for _ in range(3):  # the first chunk slow (compiling), then 55,000 deals a second
            bar(55_000)
    assert len(said) == 1
    assert said[0].startswith("100,000,000,000,000 deals at about 55,000 deals/s will take")
    assert "will take about 58 years" in said[0]
    with progress.RateBar(165_000, "deals", quiet=True) as bar:  # a second left at the rate
        bar(55_000)
        bar(55_000)
    assert len(said) == 1


def test_durations_are_said_in_their_largest_unit():
    from piquet_sim.core.app.cli import duration_text

    assert duration_text(5400) == "1.5 hours"
    assert duration_text(12 * 86400) == "12 days"
    assert duration_text(3e9) == "95 years"


#: A first key of each game's record, then a key no record has.
_RECORD_LINES = {(): "player: elder", ("pilotta",): "player: N", ("pitch",): "players: 4"}


@pytest.mark.parametrize("group", list(_RECORD_LINES))
def test_a_record_starting_with_a_byte_order_mark_is_read(run_main, tmp_path, group):
    path = tmp_path / "deal.txt"
    path.write_bytes(f"{_RECORD_LINES[group]}\nfrobnicate: 1\n".encode("utf-8-sig"))
    code, out, err = run_main(*group, "review", str(path))
    # line 1 (after the mark) is read as the key it is: the unknown key is the next line's
    _one_line_usage_error(code, out, err, "line 2 (frobnicate): unknown key")
    assert "\\ufeff" not in err and "\ufeff" not in err


@pytest.mark.parametrize("group", list(_RECORD_LINES))
def test_an_unknown_record_key_is_one_short_line(run_main, tmp_path, group):
    path = tmp_path / "deal.txt"
    path.write_text(f"frobnicate: 1\n{_RECORD_LINES[group]}\n", encoding="utf-8")
    code, out, err = run_main(*group, "review", str(path))
    _one_line_usage_error(code, out, err, "line 1 (frobnicate): unknown key", "docs/review.md")
    assert len(err) < 200


@pytest.mark.parametrize("group", list(_RECORD_LINES))
def test_an_empty_record_path_asks_for_the_file(run_main, group):
    _one_line_usage_error(*run_main(*group, "review", ""), "RECORD", "give the file")


def test_a_talon_typed_out_of_order_is_named_where_the_draw_disagrees(run_main, tmp_path):
    """The talon in another order than drawn: the line of the draw it contradicts, with what
    the talon's order gave and how the talon is read."""
    from pathlib import Path

    example = Path(__file__).resolve().parents[2] / "docs" / "examples" / "piquet-deal.txt"
    text = example.read_text().replace(
        "talon: 8S 7S 7C TS 9H JD QD AH", "talon: JD QD AH 8S 7S 7C TS 9H"
    )
    record = tmp_path / "deal.txt"
    record.write_text(text)
    code, _, err = run_main("review", str(record), "--quick")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "line 8 (elder took): elder drew JD QD AH 8S 7S from the talon" in err
    assert "in the order drawn" in err
