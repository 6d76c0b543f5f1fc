"""The check every game's `report --backend dask` test makes (each game's test file calls it, so
it runs in that game's test group): the report's numbers are the local ones, whatever the
backend and however the rounds are cut into chunks."""

from __future__ import annotations

import importlib
import json

#: Each game's report command line, and where its JSON says how many rounds were counted.
REPORTS = {
    "pilotta": (
        ("pilotta", "report", "bold", "heuristic", "-n", "300", "--games", "10", "--json"),
        ("contracts", "rounds"),
        600,
    ),
    "pitch": (
        ("pitch", "report", "-n", "300", "--games", "10", "--seed", "5", "--json"),
        ("pitch-bids", "by_players", "6", "rounds"),
        300,
    ),
}


def check_report_on_dask(game: str, run_main, tmp_path, monkeypatch) -> None:
    """Run ``game``'s report locally and on a one-worker Dask cluster with small chunks; the
    JSON must be the same but for the paths and the seconds."""
    args, rounds_at, rounds = REPORTS[game]
    report = importlib.import_module(f"piquet_sim.{game}.report")
    code, out, err = run_main(*args, "--out", str(tmp_path / "local"))
    assert code == 0, err
    local = json.loads(out)
    monkeypatch.setattr(report, "CHUNK", 64)  # several chunks, finishing in any order
    dask = ("--backend", "dask", "--workers", "1")
    code, out, err = run_main(*args, "--out", str(tmp_path / "dask"), *dask)
    assert code == 0, err
    on_dask = json.loads(out)
    counted = on_dask["sections"]
    for key in rounds_at:
        counted = counted[key]
    assert counted == rounds
    for key in ("html", "md", "images", "seconds"):  # where it went and how long it took
        local.pop(key), on_dask.pop(key)
    assert on_dask == local
