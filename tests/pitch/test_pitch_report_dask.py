"""`piquet pitch report --backend dask`: the report's numbers are the local ones, whatever the
backend and however the rounds are cut into chunks (the check: ``report_on_dask``)."""

from __future__ import annotations

import pytest
from report_on_dask import check_report_on_dask

pytest.importorskip("dask.distributed")


def test_report_on_dask_gives_the_local_figures(run_main, tmp_path, monkeypatch):
    check_report_on_dask("pitch", run_main, tmp_path, monkeypatch)
