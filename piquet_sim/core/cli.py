"""CLI plumbing every game's commands share: card parameters per pack, JSON output, the backend
options, a progress bar, and the entry-point wrapper that turns bad input into one line.

Games build their commands from these pieces; the core knows no game.
"""

from __future__ import annotations

import functools
import json
import sys
import time
from collections.abc import Callable

import click
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

from .cards import CardError, Pack, cards_to_mask
from .errors import InputError


class CardsType(click.ParamType):
    """Cards of ``pack`` typed in any of its text forms; converts to a hand mask (exactly
    ``count`` cards when given). Bad text is a usage error naming the bad token."""

    name = "CARDS"

    def __init__(
        self, pack: Pack, count: int | None = None, min_count: int = 0, max_count: int | None = None
    ):
        self.pack = pack
        self.count = count
        self.min_count = min_count
        self.max_count = pack.n_cards if max_count is None else max_count

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        try:
            if self.count is not None:
                return self.pack.parse(value, self.count)
            cards = self.pack.parse_list(value)
        except CardError as err:
            self.fail(str(err), param, ctx)
        if not self.min_count <= len(cards) <= self.max_count:
            self.fail(
                f"needs {self.min_count} to {self.max_count} cards, got {len(cards)}", param, ctx
            )
        return cards_to_mask(cards)


json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")


def echo_json(data: object) -> None:
    """Print data as indented JSON on stdout."""
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


_BACKEND_OPTIONS = [
    click.option(
        "--backend",
        type=click.Choice(["local", "dask"]),
        default="local",
        show_default=True,
        help="Where chunks run: numba threads here, or a Dask cluster (same numbers either way).",
    ),
    click.option(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="Dask scheduler address (tcp://host:8786); without it --backend dask starts a "
        "LocalCluster.",
    ),
    click.option(
        "--workers",
        type=click.IntRange(1),
        default=2,
        show_default=True,
        help="Worker processes of the LocalCluster started by --backend dask.",
    ),
]


def backend_options(func: Callable) -> Callable:
    """Add --backend/--scheduler/--workers and pass one ``backend`` argument (closed after)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        from .backend import BackendError, make_backend

        name = kwargs.pop("backend")
        scheduler = kwargs.pop("scheduler")
        workers = kwargs.pop("workers")
        if scheduler and name != "dask":
            raise click.UsageError("--scheduler needs --backend dask")
        try:
            backend = make_backend(name, scheduler, workers)
        except BackendError as err:
            raise click.ClickException(str(err)) from None
        try:
            return func(*args, backend=backend, **kwargs)
        finally:
            backend.close()

    for option in reversed(_BACKEND_OPTIONS):
        wrapper = option(wrapper)
    return wrapper


class RateBar:
    """A rich progress bar on stderr with a rate, fed with amounts finished."""

    def __init__(self, total: int, unit: str, quiet: bool):
        self.start = time.perf_counter()
        self.unit = unit
        self.progress = Progress(
            TextColumn(f"[bold]{unit}"),
            BarColumn(),
            TextColumn("{task.completed:,}/{task.total:,}"),
            TextColumn("{task.fields[rate]}"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            disable=quiet,
            transient=True,
        )
        self.task = self.progress.add_task(unit, total=total, rate="")

    def __enter__(self):
        self.progress.__enter__()
        return self

    def __exit__(self, *exc):
        return self.progress.__exit__(*exc)

    def __call__(self, done: int) -> None:
        completed = self.progress.tasks[0].completed + done
        rate = completed / max(time.perf_counter() - self.start, 1e-9)
        self.progress.update(self.task, advance=done, rate=f"{rate:,.0f} {self.unit}/s")


def run_main(group: click.Group, argv: list[str] | None, prog: str) -> None:
    """Run a click group as a console script: usage errors and :class:`InputError` become one
    line on stderr with exit code 2, Ctrl-C exit 130; bare ``prog`` prints the help (exit 0)."""
    try:
        code = group.main(args=argv, prog_name=prog, standalone_mode=False)
    except click.exceptions.Exit as exc:
        code = exc.exit_code
    except click.exceptions.NoArgsIsHelpError as exc:
        click.echo(exc.ctx.get_help() if exc.ctx else group.get_help(click.Context(group)))
        code = 0
    except click.UsageError as exc:
        click.echo(f"{prog}: error: {exc.format_message()}", err=True)
        code = 2
    except InputError as exc:
        click.echo(f"{prog}: error: {exc}", err=True)
        code = 2
    except click.Abort:
        click.echo(f"{prog}: aborted", err=True)
        code = 130
    except click.ClickException as exc:
        click.echo(f"{prog}: error: {exc.format_message()}", err=True)
        code = exc.exit_code
    sys.exit(code if isinstance(code, int) else 0)
