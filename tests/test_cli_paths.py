"""Output paths (--plot, --csv, --out, report --out) are checked before any work: a missing
directory, a read-only place, or a directory where a file is expected is one line, exit 2."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from piquet_sim.core.app.cli import check_output_path
from piquet_sim.core.engine.errors import InputError

READ_ONLY = Path("/proc")  # takes no new files, even for root


def _bad_paths(tmp_path: Path) -> list[tuple[str, str]]:
    (tmp_path / "a_dir").mkdir()
    out = [
        (str(tmp_path / "missing" / "x.png"), "does not exist"),
        (str(tmp_path / "a_dir"), "is a directory"),
    ]
    if READ_ONLY.is_dir():
        out.append((str(READ_ONLY / "x.png"), "cannot write"))
    return out


@pytest.mark.parametrize(
    "command",
    [
        ["odds", "--deals", "1000", "--plot"],
        ["batch", "greedy", "random", "--deals", "100", "--csv"],
        ["tournament", "greedy", "random", "--deals", "100", "--plot"],
        ["tournament", "greedy", "random", "--deals", "100", "--out"],
        ["partie", "greedy", "random", "--parties", "100", "--plot"],
    ],
)
def test_bad_output_files_fail_before_running(run_main, tmp_path, command, monkeypatch):
    from piquet_sim.core.study import match
    from piquet_sim.piquet import odds

    def must_not_run(*args, **kwargs):
        raise AssertionError("work started before the output path was checked")

    monkeypatch.setattr(match, "run_chunks", must_not_run)
    monkeypatch.setattr(odds, "merge_chunks", must_not_run)
    for path, reason in _bad_paths(tmp_path):
        code, out, err = run_main(*command, path)
        assert code == 2 and out == "", (command, path)
        assert err.count("\n") == 1 and reason in err, err


def test_report_out_must_be_a_directory_we_can_create(run_main, tmp_path):
    a_file = tmp_path / "f"
    a_file.write_text("x")
    for path, reason in (
        (a_file, "is a file"),
        (a_file / "sub", "is a file"),
        (tmp_path / "missing" / "a" / "b", "does not exist"),  # never a whole chain created
        *([(READ_ONLY / "r", "cannot write")] if READ_ONLY.is_dir() else []),
    ):
        for game in ((), ("pilotta",), ("pitch",)):  # every game's report: one shared check
            code, out, err = run_main(*game, "report", "--out", str(path))
            assert code == 2 and err.count("\n") == 1 and reason in err, (game, err)


def test_good_paths_pass_and_leave_nothing_behind(tmp_path):
    check_output_path(tmp_path / "x.png")
    check_output_path(tmp_path / "new", directory=True)  # created by the command, one level
    existing = tmp_path / "old.csv"
    existing.write_text("kept")
    check_output_path(existing)
    assert existing.read_text() == "kept"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.csv"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere permissions allow")
def test_read_only_directory_is_refused(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        with pytest.raises(InputError, match="cannot write"):
            check_output_path(ro / "x.csv")
    finally:
        ro.chmod(0o755)


@pytest.mark.parametrize("group", [(), ("pilotta",), ("pitch",)])
def test_a_table_of_an_unknown_format_is_refused_before_the_run(run_main, tmp_path, group):
    """``tournament --out x.xlsx`` used to write CSV into x.xlsx after the whole run."""
    target = tmp_path / "x.xlsx"
    code, _, err = run_main(*group, "tournament", "greedy", "random", "--out", str(target))
    assert code == 2 and "give a .csv or .parquet file name, not .xlsx" in err
    assert not target.exists()


def test_export_table_writes_csv_and_refuses_other_suffixes(tmp_path):
    import pandas as pd

    from piquet_sim.core.app.tables import export_table
    from piquet_sim.core.engine.errors import InputError

    frame = pd.DataFrame({"a": [1, 2]})
    export_table(frame, tmp_path / "t.csv")
    assert (tmp_path / "t.csv").read_text().splitlines() == ["a", "1", "2"]
    with pytest.raises(InputError, match="not .xlsx"):
        export_table(frame, tmp_path / "t.xlsx")


def test_a_plot_of_an_unknown_format_is_refused_before_the_run(run_main, tmp_path):
    """``odds --plot scores.txt`` used to fail in matplotlib with a traceback after the run."""
    code, _, err = run_main("odds", "--deals", "1000", "--plot", str(tmp_path / "scores.txt"))
    assert code == 2 and "give a .png or .pdf or .svg file name, not .txt" in err


def test_bench_refuses_an_unknown_workload_in_one_line(run_main):
    code, out, err = run_main("bench", "--only", "nosuch")
    assert code == 2 and out == "" and err.count("\n") == 1 and "unknown workload" in err
