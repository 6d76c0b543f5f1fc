"""Tables fit the terminal they print to: a number is never cut (``+44…``), text and headers
wrap, and columns that cannot fit are dropped with a note; piped output is not forced wider."""

from __future__ import annotations

import io
import re

import pytest
from rich.table import Table

from piquet_sim.core.app.cli import FitConsole

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


def _render_discard(width: int) -> str:
    """The shape of `piquet discard`'s table on a pimc run: P(best) empty below the first row,
    a sixth column whose header has a long word."""
    out = io.StringIO()
    console = FitConsole(file=out, width=width, force_terminal=False)
    table = Table()
    for h in (*HEADERS, "pique/repique/capot"):
        table.add_column(h, no_wrap=h in ("discard", "keep"))
    table.add_row(
        "1", "H:987 C:QJ", "S:AKQJ D:AK C:A", "+44.98 ± 0.91", "549", "100.0%", "75/62/82", "1/0/0"
    )
    for i in range(2, 11):
        table.add_row(
            str(i),
            "H:987 D:K C:Q",
            "S:AKQJ D:A C:AJ",
            "+41.10 ± 2.65",
            "64",
            "",
            "66/58/78",
            "1/0/0",
        )
    console.print(table)
    return out.getvalue()


@pytest.mark.parametrize("width", range(70, 101, 2))
def test_header_words_are_not_split(width):
    """A numeric column is at least as wide as its header's longest word, so 'pt/seq/sets'
    never folds into 'pt/seq/set' + 's' (as the discard table did at 80 columns)."""
    table, _, note = _render_discard(width).partition("(not shown")
    shown = {w for line in table.splitlines() for w in line.replace("│", " ").split()}
    assert "pt/seq/set" not in shown
    assert ("pt/seq/sets" in shown) != ("pt/seq/sets" in note)
