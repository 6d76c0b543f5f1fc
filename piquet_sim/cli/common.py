"""Pieces shared by every command: card parameter types, the rules option group, output."""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable

import click
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

from .. import cards as C
from ..rules import GAMES, LEAD_POINTS, TIE_RULES, Rules, RulesError


class CardsType(click.ParamType):
    """Cards typed in any RULES.md text form; converts to a hand mask (exactly ``count`` cards
    when given). Bad text is a usage error naming the bad token."""

    name = "CARDS"

    def __init__(self, count: int | None = None, min_count: int = 0, max_count: int = 32):
        self.count = count
        self.min_count = min_count
        self.max_count = max_count

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        try:
            if self.count is not None:
                return C.parse_cards(value, self.count)
            cards = C.parse_card_list(value)
        except C.CardError as err:
            self.fail(str(err), param, ctx)
        if not self.min_count <= len(cards) <= self.max_count:
            self.fail(
                f"needs {self.min_count} to {self.max_count} cards, got {len(cards)}", param, ctx
            )
        return C.cards_to_mask(cards)


HAND12 = CardsType(count=12)

_RULE_OPTIONS = [
    click.option(
        "--lead-points",
        type=click.Choice(LEAD_POINTS),
        default="every",
        show_default=True,
        help="Which leads and wins score a play point.",
    ),
    click.option(
        "--younger-may-pass/--younger-must-exchange",
        default=False,
        show_default=True,
        help="Whether younger may decline to exchange.",
    ),
    click.option(
        "--carte-rouge/--no-carte-rouge",
        default=False,
        show_default=True,
        help="Score carte rouge (20) for a hand whose every card is in a scoring combination.",
    ),
    click.option(
        "--tie",
        type=click.Choice(TIE_RULES),
        default="two_more_deals",
        show_default=True,
        help="What follows a tied partie.",
    ),
    click.option(
        "--game",
        type=click.Choice(GAMES),
        default="rubicon",
        show_default=True,
        help="Partie form: six deals, piquet au cent, or four deals.",
    ),
    click.option(
        "--blank-partie-bonus/--no-blank-partie-bonus",
        default=False,
        show_default=True,
        help="A player scoring nothing in a partie gives 100 more.",
    ),
]


def rules_options(func: Callable) -> Callable:
    """Add every rules option to a command and pass one ``rules: Rules`` argument instead."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        try:
            rules = Rules(
                lead_points=kwargs.pop("lead_points"),
                younger_must_exchange=not kwargs.pop("younger_may_pass"),
                carte_rouge=kwargs.pop("carte_rouge"),
                tie=kwargs.pop("tie"),
                game=kwargs.pop("game"),
                blank_partie_bonus=kwargs.pop("blank_partie_bonus"),
            )
        except RulesError as err:
            raise click.UsageError(str(err)) from None
        return func(*args, rules=rules, **kwargs)

    for option in reversed(_RULE_OPTIONS):
        wrapper = option(wrapper)
    return wrapper


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
        from ..backend import BackendError, make_backend

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
