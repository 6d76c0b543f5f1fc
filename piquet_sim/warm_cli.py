"""`piquet warm`: compile the kernels of the chosen games ahead, in parallel processes.

Each game's commands are run at a tiny size, every ``--help`` example of every command with
kernels (:func:`piquet_sim.core.app.examples.help_examples`), on one worker process per core
(:func:`piquet_sim.core.app.warm.warm`); what they compile goes to numba's disk cache, so each
command's first run afterwards starts at once.
"""

from __future__ import annotations

import os
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .core.app.examples import capped, command_at, help_examples
from .core.app.warm import Task, warm
from .games import GAME_PACKAGES, games

#: Sizes in the examples (deals, rounds, games, parties) are cut to this: enough to call every
#: kernel a command calls, small enough that running takes a moment.
WARM_SIZE = 16
#: Other counts cut for the warm-up: solver-played deals, worlds, sampled hands.
WARM_CAPS = {"--solver-deals": 2, "--worlds": 16, "--samples": 16}
#: Options bringing in an outside engine (an optional extra): those examples are not run.
OUTSIDE = ("--external",)
#: The click group the workers run (the ``piquet`` console script's).
ROOT = "piquet_sim.cli:cli"
#: The repository's docs (the review examples read their records there), when it has them.
DOCS = Path(__file__).resolve().parents[1] / "docs"


def warm_tasks(names: tuple[str, ...]) -> list[Task]:
    """Every ``--help`` example of the named games' commands, at the warm-up's tiny sizes."""
    from .cli import cli

    tasks = []
    for game in games():
        if game.name not in names:
            continue
        if game.group:
            found = help_examples(cli, every=True, only=(game.group,))
        else:
            found = help_examples(cli, every=True, only=tuple(game.commands))
        for label, args in found:
            if any(a.startswith(OUTSIDE) for a in args) or _names_missing_file(args):
                continue
            command = command_at(cli, label)
            tasks.append(Task(game.name, label, tuple(capped(args, WARM_SIZE, WARM_CAPS, command))))
    return tasks


@click.command("warm")
@click.argument("names", metavar="[GAME]...", nargs=-1, type=click.Choice(GAME_PACKAGES))
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(1, 64),
    default=None,
    help="Worker processes.  [default: the number of cores]",
)
@click.option("--list", "list_only", is_flag=True, help="List the commands it runs and exit.")
@click.option(
    "--times", is_flag=True, help="Also list each command's CPU seconds, the largest first."
)
def warm_command(names: tuple[str, ...], jobs: int | None, list_only: bool, times: bool) -> None:
    """Compile the kernels of the chosen games (default: all three) ahead, so each command's
    first run starts at once: every --help example of their commands runs at a tiny size, the
    work shared by parallel processes (all three games: about 9 CPU-minutes, 5 minutes on 2
    idle cores; a Ctrl-C stops it, what compiled staying cached).

    \b
    Example:
      piquet warm
      piquet warm pilotta pitch --jobs 2 --times
    """
    chosen = names or tuple(g.name for g in games())
    tasks = warm_tasks(chosen)
    if list_only:
        for t in tasks:
            click.echo(" ".join(["piquet", *map(_quoted, t.args)]))
        return
    console = Console(stderr=True)
    columns = (
        TextColumn("compiling"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
    )
    with Progress(*columns, console=console, transient=True) as bar:
        task_id = bar.add_task("", total=len(tasks))

        def progress(finished: Task | None, running: list[Task]) -> None:
            if finished is not None:
                bar.advance(task_id)
            bar.update(task_id, description=", ".join(sorted({t.label for t in running})))

        outcome = warm(tasks, ROOT, jobs or os.cpu_count() or 1, DOCS, progress)
    games_said = ", ".join(chosen)
    if outcome.interrupted:
        click.echo(
            f"stopped after {outcome.done} of {len(tasks)} commands; the kernels compiled so "
            "far are cached",
            err=True,
        )
        raise click.exceptions.Exit(130)
    click.echo(
        f"warmed {games_said}: {outcome.done} commands in {outcome.wall_s:.0f} s "
        f"({outcome.cpu_s:.0f} CPU-s)"
    )
    if times:
        for label, cpu_s in sorted(outcome.task_cpu_s, key=lambda t: -t[1]):
            click.echo(f"  {cpu_s:7.1f} CPU-s  {label}")
    for label, error in outcome.failed:
        click.echo(f"  {label}: not warmed ({error})", err=True)


def _names_missing_file(args: list[str]) -> bool:
    """True when an example reads a strategy file the user would have (``my.toml``) and the
    repository does not: it would fail, warming nothing the other examples do not."""
    return any(a.endswith(".toml") and not (DOCS.parent / a).exists() for a in args)


def _quoted(word: str) -> str:
    import shlex

    return shlex.quote(word)
