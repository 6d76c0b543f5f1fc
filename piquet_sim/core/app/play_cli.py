"""What every game's ``play`` command does once it has the advice: JSON, or the card table.

A game's ``advise_play`` answers with an advice whose ``to_dict()`` holds, whatever the game:
``cards`` (each legal card ranked: ``card``, ``rank``, ``worlds`` and the game's values),
``best``, ``why``, ``forced``, ``method`` and ``seconds``. The command prints the game's own
first line and value columns; the rest of the table and the closing line are the same for
every game.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.table import Table

from .cli import echo_json, output_console


def answer(
    advice: object, rules: object, as_json: bool, show: Callable[[object, dict], None], **extra
) -> None:
    """Print ``advice``: with ``as_json`` its dict plus the rules (``rules.to_dict()``) and
    ``extra`` keys, in that order; else ``show(advice, its dict)``."""
    data = advice.to_dict()
    if as_json:
        data["rules"] = rules.to_dict()
        data.update(extra)
        echo_json(data)
        return
    show(advice, data)


def print_advice(
    header: str,
    data: dict,
    columns: list[str],
    cells: Callable[[dict], list[str]],
    method: str | None = None,
    why: str | None = None,
) -> None:
    """The play advice as text: ``header`` (the position in one line); a forced card at once;
    else how the worlds came and the time, a table of every card (best first: ``columns`` with
    ``cells(row)`` of each card's row, then its world count) and the advice with its reason.
    ``method`` and ``why`` replace the dict's (as rich markup, e.g. escaped)."""
    console = output_console()
    console.print(header)
    if data["forced"]:
        console.print(f"[bold]Play {data['best']}[/bold]: the only legal card.")
        return
    method = data["method"] if method is None else method
    console.print(f"Worlds: {method}; {data['seconds']:.2f} s.")
    table = Table(title_justify="left")
    table.add_column("card")
    for column in [*columns, "worlds"]:
        table.add_column(column, justify="right")
    for row in data["cards"]:
        table.add_row(
            row["card"] + ("  best" if row["rank"] == 1 else ""),
            *cells(row),
            f"{row['worlds']:,}",
        )
    console.print(table)
    console.print(f"[bold]Play {data['best']}[/bold]: {data['why'] if why is None else why}.")


__all__ = ["answer", "print_advice"]
