"""The ``review`` commands' shared parts: the progress bar, the measuring options, the settings
they make and the run that prints or writes the review."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import click

from ..review import Review, Task
from .rules_cli import ONE_DEAL, rules_options


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
    from .cli import echo_json

    if html_path is not None:
        Path(html_path).write_text(rv.html(), encoding="utf-8")
    if as_json:
        echo_json(rv.to_dict())
    else:
        click.echo(rv.text(), nl=False)
        if html_path is not None:
            click.echo(f"Page written to {html_path}")


def review_command(game_decl) -> click.Command:
    """The ``review`` command of a game (``game_decl``: its :class:`~.commands.Game`): the
    record read and checked against the rules before any work (one line naming the place, exit
    2), each of the player's decisions measured with what he could know, printed as a table,
    JSON (``--json``) or a page (``--html FILE``). Ctrl-C keeps the decisions measured so far,
    marked partial (exit 130)."""
    from ..review.plan import plan_tasks, review_record
    from .cli import (
        SECONDS,
        OutputPath,
        compile_notice,
        json_option,
        long_command,
        quiet_option,
        seed_option,
    )

    game = game_decl.definition()
    opts = game_decl.options()
    own = opts.own_options("review")
    defaults, quick = game.review_settings
    has = {f.name for f in dataclasses.fields(defaults)}

    def run(
        record,
        seat,
        worlds,
        exact_limit,
        quick_flag,
        html_path,
        seed,
        as_json,
        quiet,
        rules,
        others=None,
        max_seconds=None,
        **flags,
    ):
        own_settings = own.take(flags) if own is not None else {}
        seat = opts.seat_value(seat, flags, default=False)
        if not str(record).strip() or Path(record).is_dir():
            raise click.UsageError("RECORD: give the file of the deal (docs/review.md)")
        rec = game.codec.read(record, rules)
        if seat is not None and seat >= len(rec.dealt):
            raise click.UsageError(f"the record has {len(rec.dealt)} seats: no seat {seat}")
        if seat is not None and seat != rec.player:
            if rec.dealt[seat] is None:
                # a table larger than the default one names its further seats by number
                names = game.facts.seats
                raise click.UsageError(
                    f"the record does not give {names[seat] if seat < len(names) else seat}'s "
                    "hand: only the record's player can be reviewed"
                )
            rec.player = seat
        given = {"worlds": worlds, "exact_limit": exact_limit, "seed": seed}
        if "max_seconds" in has:
            given["max_seconds"] = max_seconds
        if "others" in has:
            given["others"] = others
        settings = (quick if quick_flag else defaults).replace(**given)
        if own_settings:
            settings = dataclasses.replace(settings, game=own_settings)
        plan = game.review_plan(rec, rules, settings)
        tasks = plan_tasks(game, plan, settings)
        compile_notice(
            *game.entry_kernels("review"), quiet=quiet or as_json, expect="a few minutes"
        )
        with ReviewBar(tasks, quiet=quiet) as bar:
            rv = review_record(game, rec, rules, settings, bar, tasks, plan)
        write_outputs(rv, as_json, html_path)

    decorators = [
        click.argument("record", type=click.Path(dir_okay=False, path_type=Path)),
        opts.seat_option(
            "Review this seat's decisions instead of the record's player (his hand must be in "
            "the record).",
            required=False,
            name="--seat",
            extra_names=("--player",),
        ),
    ]
    if "others" in has and opts.others:
        decorators.append(
            click.option(
                "--others",
                "--prior",
                "others",
                type=click.Choice(opts.others),
                default=None,
                help="How the others are taken to bid: worlds where their calls would differ "
                f"are left out [default: {defaults.others}].",
            )
        )
    decorators += [
        click.option(
            "-n",
            "--worlds",
            type=click.IntRange(1, 1_000_000),
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
    if "max_seconds" in has:
        budget = [f"{s.max_seconds:g}" if s.max_seconds else "none" for s in (defaults, quick)]
        decorators.append(
            click.option(
                "--max-seconds",
                type=SECONDS,
                default=None,
                help="Stop solving more worlds of a card decision after this long [default: "
                f"{budget[0]}; {budget[1]} with --quick].",
            )
        )
    decorators += [
        click.option(
            "--quick",
            "quick_flag",
            is_flag=True,
            help="A rough review in seconds: fewer worlds everywhere.",
        ),
        click.option(
            "--html",
            "html_path",
            type=OutputPath(suffixes=(".html", ".htm")),
            default=None,
            help="Also write a page showing the deal trick by trick with the costs.",
        ),
        seed_option("Seed of every sampled world (the same seed, the same numbers)."),
        json_option,
        quiet_option("No progress bar or notices on stderr."),
        rules_options(opts.rules, ONE_DEAL),
        *(own.decorators if own is not None else ()),
        long_command,
    ]
    command = run
    for decorate in reversed(decorators):
        command = decorate(command)
    return click.command("review", help=opts.help["review"])(command)


__all__ = ["ReviewBar", "review_command", "write_outputs"]
