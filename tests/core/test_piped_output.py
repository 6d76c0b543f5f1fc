"""Output read by a program that stops early (``piquet … | head -1``): the command ends quietly
with exit code 0, whichever game and whether it prints tables (rich) or JSON (click)."""

from __future__ import annotations

import pytest

PILOTTA_HAND = "JS 9S AS TH KH QH JH 7C"


@pytest.mark.parametrize(
    "args",
    [
        ("hand", "AS KS QS JS 9H 8H 7H AD KD AC QC JC"),
        ("pilotta", "hand", PILOTTA_HAND, "--trump", "S"),
        ("pilotta", "hand", PILOTTA_HAND, "--trump", "S", "--json"),
        ("pitch", "hand", "AS KS QS JS 9H 8H"),
    ],
)
def test_a_reader_that_stops_early_ends_the_command_with_exit_0(run_main, closed_stdout, args):
    code, _, err = run_main(*args)
    assert code == 0
    assert err == ""
