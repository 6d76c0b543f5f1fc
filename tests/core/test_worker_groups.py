"""The tests' worker groups (``tests/conftest.py``): each game with a test folder is one group
with its golden cases, every other file its own; and pytest-xdist still groups by the
scheduler's ``_split_scope``, so a group cannot silently stop working again (pytest 9 made
xdist's own ``loadgroup`` deal every test to either worker, and both compiled every kernel)."""

from __future__ import annotations

import inspect

import pytest
from conftest import FIRST_GROUPS, worker_group


def test_each_game_folder_and_its_golden_cases_are_one_group():
    assert set(FIRST_GROUPS) == {"pilotta", "pitch"}
    assert worker_group("tests/pitch/test_pitch_rules.py::test_defaults") == "pitch"
    assert worker_group("tests/pilotta/test_pilotta_cli.py::test_x[a/b]") == "pilotta"
    golden = "tests/test_golden.py::test_golden_output_unchanged"
    assert worker_group(f"{golden}[pitch/solve]") == "pitch"
    assert worker_group(f"{golden}[piquet/batch]") == "tests/test_golden.py"
    assert worker_group("tests/test_match.py::test_a[greedy-max-0]") == "tests/test_match.py"
    assert worker_group("tests/core/test_core_rng.py::test_b") == "tests/core/test_core_rng.py"


def test_xdist_schedules_by_the_scope_it_is_given():
    scheduling = pytest.importorskip("xdist.scheduler")
    source = inspect.getsource(scheduling.LoadScopeScheduling.schedule)
    assert "self._split_scope(" in source
