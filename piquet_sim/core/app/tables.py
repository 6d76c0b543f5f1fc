"""Results tables written to files, for every game: CSV, or Parquet (needs pyarrow).

The path is checked before any work (:func:`check_table_path`, used by the commands' ``--out``
options): an unknown suffix such as ``.xlsx`` is refused rather than silently written as CSV.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..engine.errors import InputError

#: The suffixes a results table can be written as.
TABLE_SUFFIXES = (".csv", ".parquet")


def check_table_path(path: str | Path) -> Path:
    """The path, when its suffix names a table format we write; InputError otherwise."""
    p = Path(path)
    if p.suffix.lower() not in TABLE_SUFFIXES:
        given = p.suffix or "no suffix"
        raise InputError(f"{p.name}: a results table is written as .csv or .parquet, not {given}")
    return p


def export_table(frame: pd.DataFrame, path: str | Path) -> None:
    """Write a table as CSV, or Parquet for a ``.parquet`` path (InputError without pyarrow,
    or for another suffix)."""
    p = check_table_path(path)
    if p.suffix.lower() == ".parquet":
        try:
            frame.to_parquet(p, index=False)
        except ImportError:
            raise InputError(
                "Parquet export needs pyarrow (pip install pyarrow); use a .csv path"
            ) from None
    else:
        frame.to_csv(p, index=False)
