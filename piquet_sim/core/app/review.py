"""The ``review`` commands' shared parts: the progress bar, the measuring options, the settings
they make and the run that prints or writes the review."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from ..review import Review, Task


class ReviewBar:
    """A progress bar on stderr for a review: decisions weighted by their expected seconds,
    the decision in flight named (``bar(weight done, label)``, :func:`run_review`)."""

    def __init__(self, tasks: Sequence[Task], quiet: bool = False):
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        self.progress = Progress(
            TextColumn("[bold]review"),
            BarColumn(),
            TextColumn("{task.fields[done]}/{task.fields[n]}"),
            TextColumn("{task.fields[label]}"),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            disable=quiet,
            transient=True,
        )
        self.n = len(tasks)
        self.done = 0
        total = sum(t.weight for t in tasks) or 1.0
        self.task = self.progress.add_task("review", total=total, done=0, n=self.n, label="")

    def __enter__(self):
        self.progress.__enter__()
        return self

    def __exit__(self, *exc):
        return self.progress.__exit__(*exc)

    def __call__(self, weight: float, label: str) -> None:
        if weight:
            self.done += 1
        self.progress.update(self.task, advance=weight, done=self.done, label=label)


def write_outputs(rv: Review, as_json: bool, html_path: Path | None) -> None:
    """Print the review (text, or JSON with ``as_json``) and write its page to ``html_path``."""
    import click

    from .cli import echo_json

    if html_path is not None:
        Path(html_path).write_text(rv.html(), encoding="utf-8")
    if as_json:
        echo_json(rv.to_dict())
    else:
        click.echo(rv.text(), nl=False)
        if html_path is not None:
            click.echo(f"Page written to {html_path}")


def review_options(
    defaults: object,
    quick: object,
    page: str,
    most_worlds: int,
    quick_help: str,
    max_seconds: bool = False,
) -> Callable:
    """A ``review`` command's measuring options, in this order: ``--worlds``,
    ``--exact-limit``, ``--max-seconds`` (with ``max_seconds``), ``--quick`` and ``--html
    FILE``. ``defaults`` and ``quick`` are the game's ``ReviewSettings()`` and its ``QUICK``
    (the help quotes both; the numbers default to None: not given, :func:`settings_from`);
    ``page``: what the page shows ("deal", "round"); ``most_worlds``: the largest
    ``--worlds``."""
    import click

    from .cli import OutputPath

    options = [
        click.option(
            "--worlds",
            type=click.IntRange(1, most_worlds),
            default=None,
            help=f"Worlds sampled for a card decision when there are too many to enumerate "
            f"[default: {defaults.worlds}; {quick.worlds} with --quick].",
        ),
        click.option(
            "--exact-limit",
            type=click.IntRange(0, 1_000_000),
            default=None,
            help=f"Enumerate every world of a card decision when there are at most this many "
            f"[default: {defaults.exact_limit}; {quick.exact_limit} with --quick].",
        ),
    ]
    if max_seconds:
        options.append(
            click.option(
                "--max-seconds",
                type=click.FloatRange(0, min_open=True),
                default=None,
                help=f"Stop solving more worlds of a card decision after this long (at least "
                f"16) [default: {defaults.max_seconds:g}; {quick.max_seconds:g} with --quick].",
            )
        )
    options += [
        click.option("--quick", is_flag=True, help=quick_help),
        click.option(
            "--html",
            "html_path",
            type=OutputPath(suffixes=(".html", ".htm")),
            default=None,
            help=f"Also write a page showing the {page} trick by trick with the costs.",
        ),
    ]

    def decorate(func: Callable) -> Callable:
        for option in reversed(options):
            func = option(func)
        return func

    return decorate


def settings_from(defaults: object, quick: object, use_quick: bool, **given: object) -> object:
    """A review's settings: ``quick`` with ``use_quick``, else ``defaults``, with every ``given``
    value that is not None in place of the setting of its name."""
    base = (quick if use_quick else defaults).to_dict()
    return type(defaults)(**{**base, **{k: v for k, v in given.items() if v is not None}})


def choose_player(rec: object, seat: int | None) -> None:
    """``--player``: review ``seat``'s decisions instead of the record's ``player`` (None: keep
    it); without every hand only the record's player can be (a one-line usage error)."""
    import click

    if seat is None:
        return
    if not rec.full and seat != rec.player:
        raise click.UsageError("only the record's player can be reviewed without every hand")
    rec.player = seat


def run_command(
    game: object,
    rec: object,
    rules: object,
    settings: object,
    quiet: bool,
    as_json: bool,
    html_path: Path | None,
) -> None:
    """A ``review`` command's work: the game's review module ``game`` (its ``review_tasks``,
    ``entry_kernels`` and ``review_from_tasks``) measures ``rec`` under a progress bar (a
    compile notice first on a cold cache), then the review is printed and its page written
    (:func:`write_outputs`)."""
    from .cli import compile_notice

    tasks, deal, notes = game.review_tasks(rec, rules, settings)
    compile_notice(*game.entry_kernels(), quiet=quiet or as_json, expect="a few minutes")
    with ReviewBar(tasks, quiet=quiet) as bar:
        rv = game.review_from_tasks(rec, rules, settings, tasks, deal, notes, progress=bar)
    write_outputs(rv, as_json, html_path)
