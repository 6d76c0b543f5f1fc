"""`piquet pilotta report --backend dask`: the report's numbers are the local ones, whatever
the backend and however the rounds are cut into chunks."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("dask.distributed")


def test_report_on_dask_gives_the_local_figures(run_main, tmp_path, monkeypatch):
    from piquet_sim.pilotta import report as R

    args = ("pilotta", "report", "bold", "heuristic", "-n", "300", "--games", "10", "--json")
    code, out, err = run_main(*args, "--out", str(tmp_path / "local"))
    assert code == 0, err
    local = json.loads(out)
    monkeypatch.setattr(R, "CHUNK", 64)  # several chunks, finishing in any order
    dask = ("--backend", "dask", "--workers", "1")
    code, out, err = run_main(*args, "--out", str(tmp_path / "dask"), *dask)
    assert code == 0, err
    on_dask = json.loads(out)
    assert on_dask["sections"]["contracts"]["rounds"] == 600
    for key in ("html", "md", "images", "seconds"):  # where it went and how long it took
        local.pop(key), on_dask.pop(key)
    assert on_dask == local
