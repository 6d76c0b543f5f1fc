"""Tables fit the terminal they print to: a number is never cut (``+44…``), text and headers
wrap, and columns that cannot fit are dropped with a note; piped output is not forced wider."""

from __future__ import annotations

import io
import re

import pytest
from rich.table import Table

from piquet_sim.core.cli import FitConsole

ROWS = [("1", "H:987 C:QJ", "S:AKQJ D:AK C:A", "+41.49 ± 0.96", "7,417", "100.0%", "74/63/83")]
HEADERS = ("#", "discard", "keep", "EV ± 95%", "worlds", "P(best)", "win pt/seq/sets")


def _render(width: int) -> str:
    out = io.StringIO()
    console = FitConsole(file=out, width=width, force_terminal=False)
    table = Table()
    for h in HEADERS:
        table.add_column(h, no_wrap=h in ("discard", "keep"))
    for row in ROWS:
        table.add_row(*row)
    console.print(table)
    return out.getvalue()


@pytest.mark.parametrize("width", [50, 60, 80, 120])
def test_numbers_are_never_cut_and_lines_fit(width):
    text = _render(width)
    assert "…" not in text
    assert all(len(line) <= width for line in text.splitlines())
    for number in ("+41.49", "0.96"):
        assert number in text
    table, _, note = text.partition("(not shown")
    flat = table.replace(" ", "").replace("\n", "")
    for cell, header in zip(ROWS[0], HEADERS, strict=True):
        if re.fullmatch(r"[\d.,%+±/ -]+", cell):
            # a number is in the table whole, or its column is named as not shown
            named = " ".join(note.split())
            assert cell.replace(" ", "") in flat or header in named, cell


def test_columns_that_cannot_fit_are_dropped_with_a_note():
    narrow, wide = _render(50), _render(120)
    assert "not shown at 50 columns" in narrow and "P(best)" in narrow
    assert "not shown" not in wide and "100.0%" in wide
