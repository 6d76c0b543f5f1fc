"""Refactors keep every number: fixed-seed outputs of every command and the main kernels of the
three games equal the golden JSON captured before the engine refactor (``tests/golden/``:
``piquet/``, ``pilotta/``, ``pitch/``). Counts and hashes must match exactly; floats derived from
them to 1e-12 relative (summation order may differ). Test ids: Piquet's cases by their name
(``batch``), the others prefixed by their game (``pilotta/solve``)."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest
from golden import cases, cases_advice, cases_pilotta, cases_pitch

from piquet_sim.games import GAME_PACKAGES

GOLDEN = Path(__file__).parent / "golden"
#: test id ("game/case", so ``-k piquet/`` selects one game's cases) -> (golden file, case)
CASES: dict = {}
for _game, _module in (("piquet", cases), ("pilotta", cases_pilotta), ("pitch", cases_pitch)):
    for _name, _f in _module.all_cases().items():
        CASES[f"{_game}/{_name}"] = (GOLDEN / _game / f"{_name}.json", _f)
# the player's commands (play, review; JSON and text) of every game
for _game in GAME_PACKAGES:
    for _name, _f in cases_advice.cases_for(_game).items():
        CASES[f"{_game}/{_name}"] = (GOLDEN / _game / f"{_name}.json", _f)
UPDATE = os.environ.get("PIQUET_UPDATE_GOLDEN") == "1"


def _diff(a, b, path="$") -> str | None:
    """First difference between two JSON values, or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            return f"{path}: keys differ: {sorted(set(a) ^ set(b))}"
        for k in a:
            d = _diff(a[k], b[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            d = _diff(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
            return None if a == b else f"{path}: {a!r} != {b!r}"
        if math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15):
            return None
        return f"{path}: {a!r} != {b!r}"
    return None if a == b else f"{path}: {a!r} != {b!r}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_output_unchanged(name):
    path, case = CASES[name]
    got = json.loads(json.dumps(case()))
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n")
        pytest.skip("golden file written")
    want = json.loads(path.read_text())
    assert _diff(got, want) is None, _diff(got, want)


def test_diff_sees_a_changed_number():
    """The comparison itself can fail: a count off by one and a float off by 1e-9 are caught."""
    assert _diff({"a": [1, 2]}, {"a": [1, 3]})
    assert _diff({"p": 0.5}, {"p": 0.5 + 1e-9})
    assert _diff({"p": 0.5}, {"p": 0.5 + 1e-17}) is None
