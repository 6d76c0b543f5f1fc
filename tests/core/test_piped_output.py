"""Output read by a program that stops early (``piquet … | head -1``): the command ends quietly
with exit code 0, whichever game and whether it prints tables (rich) or JSON (click)."""

from __future__ import annotations

import errno
import io
import sys

import pytest

PILOTTA_HAND = "JS 9S AS TH KH QH JH 7C"


class _ClosedPipe(io.TextIOBase):
    """Standard output whose reader has gone: every write and flush is a broken pipe."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")


@pytest.mark.parametrize(
    "args",
    [
        ("hand", "AS KS QS JS 9H 8H 7H AD KD AC QC JC"),
        ("pilotta", "hand", PILOTTA_HAND, "--trump", "S"),
        ("pilotta", "hand", PILOTTA_HAND, "--trump", "S", "--json"),
        ("pitch", "hand", "AS KS QS JS 9H 8H"),
    ],
)
def test_a_reader_that_stops_early_ends_the_command_with_exit_0(run_main, monkeypatch, args):
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    code, _, err = run_main(*args)
    assert code == 0
    assert err == ""
