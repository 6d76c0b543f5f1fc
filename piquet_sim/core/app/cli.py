"""CLI plumbing every game's commands share: card parameters per pack, JSON output, the backend
options, the progress bar (re-exported from :mod:`.progress`), and the entry-point wrapper that
turns bad input into one line.

Games build their commands from these pieces; the core knows no game.
"""

from __future__ import annotations

import errno
import functools
import importlib
import importlib.util
import io
import json
import math
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from ..engine import jit_interrupt
from ..engine.backend import MAX_DEALS, StopOnInterrupt, stop_requested
from ..engine.cards import CardError, Pack, cards_to_mask
from ..engine.errors import InputError
from .compile import COMPILING, compile_notice, kernels_cold  # noqa: F401 - re-exported
from .progress import RateBar, duration_text  # noqa: F401 - re-exported

#: Exit code of a command stopped by Ctrl-C (after writing what finished).
EXIT_INTERRUPTED = 130


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


class ParsedType(click.ParamType):
    """A word of a game's table (a suit, a seat) read by the game's own parser (``parse``:
    text -> its index, raising CardError, whose message is the usage error); ``name`` is its
    metavar. The games' words differ, the reading of them does not."""

    def __init__(self, name: str, parse: Callable[[str], int]) -> None:
        self.name = name
        self.parse = parse

    def convert(self, value, param, ctx):
        if isinstance(value, int):
            return value
        try:
            return self.parse(value)
        except CardError as err:
            self.fail(str(err), param, ctx)


class SuitType(ParsedType):
    """A suit, read by the game's own parser (``parse``: text -> 0..3, raising CardError)."""

    def __init__(self, parse: Callable[[str], int]) -> None:
        super().__init__("SUIT", parse)


class Finite(click.FloatRange):
    """A finite number within bounds: ``nan`` and ``inf`` are one-line usage errors (click's
    ``FloatRange`` lets ``nan`` through every bound: a comparison with it is false)."""

    name = "number"

    def convert(self, value, param, ctx):
        number = super().convert(value, param, ctx)
        if number is not None and not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


#: A positive finite number of seconds (``--max-seconds``, ``--time-limit``).
SECONDS = Finite(0, None, min_open=True)
#: The largest seed: seeds are 64-bit signed integers in the kernels' streams.
MAX_SEED = 2**63 - 1


class OutputPath(click.ParamType):
    """A file (or, with ``directory=True``, a directory) a command will write, checked before any
    work starts: the parent directory must exist and be writable, and a file must not be an
    existing directory (a directory not an existing file; it may be created when its parent
    exists, and a file's missing parent directory with ``parents=True``). Converts to a
    ``Path``. Each failure is one line naming the path and the reason."""

    name = "PATH"

    def __init__(
        self, directory: bool = False, parents: bool = False, suffixes: tuple[str, ...] = ()
    ):
        self.directory = directory
        self.parents = parents
        self.suffixes = suffixes

    def convert(self, value, param, ctx):
        path = Path(value).expanduser()
        try:
            check_output_path(path, self.directory, self.parents)
            if self.suffixes and path.suffix.lower() not in self.suffixes:
                raise InputError(
                    f"{path.name}: give a {' or '.join(self.suffixes)} file name, "
                    f"not {path.suffix or 'one without a suffix'}"
                )
            if ".parquet" in self.suffixes and path.suffix.lower() == ".parquet":
                check_parquet(path)
        except InputError as err:
            self.fail(str(err), param, ctx)
        return path


def check_parquet(path: Path) -> None:
    """Raise :class:`InputError` when a Parquet file cannot be written (pyarrow missing), so the
    run is refused before it starts, not after."""
    if importlib.util.find_spec("pyarrow") is None:
        raise InputError(
            f"{path.name}: Parquet needs pyarrow (pip install pyarrow); give a .csv name"
        )


def check_output_path(path: Path, directory: bool = False, parents: bool = False) -> None:
    """Raise :class:`InputError` when ``path`` cannot be written (see :class:`OutputPath`)."""
    path = Path(path)
    if parents and not directory:
        if path.is_dir():
            raise InputError(f"{path} is a directory; give a file name")
        check_output_path(path.parent, directory=True)
        if path.exists():
            check_output_path(path)
        return
    if directory:
        if path.exists() and not path.is_dir():
            raise InputError(f"{path} is a file, not a directory")
        target = path if path.exists() else path.parent
        if not target.exists():  # only the last directory is created, never a whole chain
            raise InputError(f"directory {target} does not exist")
        if not target.is_dir():
            raise InputError(f"{target} is a file, not a directory")
        _probe(target)
        return
    if path.is_dir():
        raise InputError(f"{path} is a directory; give a file name")
    parent = path.parent
    if not parent.exists():
        raise InputError(f"directory {parent} does not exist")
    if not parent.is_dir():
        raise InputError(f"{parent} is not a directory")
    if path.exists():
        try:
            with open(path, "ab"):
                pass
        except OSError as err:
            raise InputError(f"cannot write {path} ({err.strerror})") from None
    else:
        _probe(parent)


def _probe(directory: Path) -> None:
    """Create and remove a scratch file in ``directory``: the one sure test that it takes new
    files (permissions, read-only mounts, special file systems)."""
    probe = directory / f".piquet-write-test-{os.getpid()}"
    try:
        fd = os.open(probe, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except OSError as err:
        raise InputError(f"cannot write in {directory} ({err.strerror})") from None
    os.close(fd)
    os.unlink(probe)


#: The most worker processes a LocalCluster (``--backend dask`` without ``--scheduler``) starts:
#: each is a Python process with its own compiled kernels, so many more than the cores only
#: thrash (a larger cluster is started apart and given with ``--scheduler``).
MAX_WORKERS = max(8, 4 * (os.cpu_count() or 1))

#: Sizes of a run (deals, pairs, parties): at least 1, at most what the sums can hold.
SIZE = click.IntRange(1, MAX_DEALS)


def partial_mark(done: int, requested: int, unit: str) -> str:
    """What a command's head line adds when Ctrl-C cut its run (:func:`long_command`): how
    much of what was asked finished, in ``unit`` (deals, worlds, games), in bold red: one
    wording in every command that counts."""
    return f"[bold red](interrupted: partial, {done:,} of {requested:,} {unit})[/]"


def long_command(func: Callable) -> Callable:
    """For commands that run long: the first Ctrl-C stops the work after the chunk in flight
    (every later study of the command is skipped), the command prints or writes what finished,
    marked partial, and exits with code 130; a second Ctrl-C aborts at once."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        with StopOnInterrupt("Ctrl-C: stopping after the work in flight (Ctrl-C again to abort)"):
            result = func(*args, **kwargs)
            stopped = stop_requested()
        if stopped:
            raise click.exceptions.Exit(EXIT_INTERRUPTED)
        return result

    return wrapper


json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of tables.")


#: Figure formats ``--plot`` writes (matplotlib's, by the file name's suffix).
PLOT_SUFFIXES = (".png", ".pdf", ".svg")


def plot_option(help: str) -> Callable:
    """``--plot FILE`` (``plot_path``): a figure written as PNG (or PDF, SVG by the name's
    suffix); any other suffix is refused before the run, not by matplotlib after it."""
    return click.option(
        "--plot",
        "plot_path",
        type=OutputPath(suffixes=PLOT_SUFFIXES),
        default=None,
        help=help,
    )


def table_out_option(what: str = "match") -> Callable:
    """``--out FILE`` (``out_path``): write the results table as CSV, or Parquet for a
    ``.parquet`` name; any other suffix is refused before the run."""
    from .tables import TABLE_SUFFIXES

    return click.option(
        "--out",
        "out_path",
        type=OutputPath(suffixes=TABLE_SUFFIXES),
        default=None,
        help=f"Write the {what} table as CSV, or Parquet for a .parquet name (needs pyarrow).",
    )


def report_out_option(help: str) -> Callable:
    """The report commands' ``--out`` option: the output directory (``out_dir``, default
    ``report``, checked writable before any work); ``help`` names the files written there."""
    return click.option(
        "--out",
        "out_dir",
        type=OutputPath(directory=True),
        default=Path("report"),
        show_default=True,
        help=help,
    )


def json_ready(data: object) -> object:
    """``data`` with every infinite or NaN float replaced by ``None`` (JSON null): the
    interval of a one-sample estimate is infinite, and ``Infinity`` is not JSON."""
    if isinstance(data, float):
        return data if math.isfinite(data) else None
    if isinstance(data, dict):
        return {k: json_ready(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [json_ready(v) for v in data]
    return data


def echo_json(data: object) -> None:
    """Print data as indented JSON on stdout (strict JSON: :func:`json_ready`)."""
    click.echo(json.dumps(json_ready(data), indent=2, ensure_ascii=False, allow_nan=False))


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
        callback=lambda ctx, param, value: _scheduler(value),
        help="Dask scheduler address (tcp://host:8786); without it --backend dask starts a "
        "LocalCluster.",
    ),
    click.option(
        "--workers",
        type=click.IntRange(1, MAX_WORKERS),
        default=2,
        show_default=True,
        help="Worker processes of the LocalCluster started by --backend dask (more need a "
        "cluster of your own: --scheduler).",
    ),
]


def _scheduler(value: str | None) -> str | None:
    """A ``--scheduler`` address checked before any work (a usage error when malformed)."""
    from ..engine.backend import scheduler_address

    if value is None:
        return None
    try:
        return scheduler_address(value)
    except InputError as err:
        raise click.BadParameter(str(err).removeprefix("--scheduler ")) from None


def backend_options(func: Callable) -> Callable:
    """Add --backend/--scheduler/--workers and pass one ``backend`` argument (closed after)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        from ..engine.backend import BackendError, make_backend

        name = kwargs.pop("backend")
        scheduler = kwargs.pop("scheduler")
        workers = kwargs.pop("workers")
        if scheduler and name != "dask":
            raise click.UsageError("--scheduler needs --backend dask")
        try:
            backend = make_backend(name, scheduler, workers)
        except BackendError as err:  # no Dask, no scheduler there: the options cannot run
            raise InputError(str(err)) from None
        try:
            return func(*args, backend=backend, **kwargs)
        finally:
            backend.close()

    for option in reversed(_BACKEND_OPTIONS):
        wrapper = option(wrapper)
    return wrapper


class StdoutClosed(Exception):
    """The reader of stdout went away (``piquet … | head -1``): :func:`run_main` exits 0."""


def _stdout_closed() -> int:
    """Point stdout at /dev/null, so Python's last flush of what is left has nowhere to fail,
    and answer exit code 0: the reader took what it wanted (as ``head`` means it)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, io.UnsupportedOperation):  # no real file (tests, a program)
        pass
    return 0


class LazyGroup(click.Group):
    """A click group whose commands are imported when first used: ``lazy`` maps a command name
    to ``"module:attribute"``. Running one command imports only its module (start-up time);
    ``commands`` (help, listings, "no such command") imports them all."""

    def __init__(self, *args, lazy: dict[str, str] | None = None, **kwargs):
        self._lazy = dict(lazy or {})
        super().__init__(*args, **kwargs)

    @property
    def commands(self) -> dict[str, click.Command]:
        for name in list(self._lazy):
            self._load(name)
        return self._commands

    @commands.setter
    def commands(self, value: dict[str, click.Command]) -> None:
        self._commands = value

    def _load(self, name: str) -> None:
        spec = self._lazy.pop(name, None)
        if spec is None:  # registered meanwhile by a module imported for another command
            return
        if callable(spec):  # a core command built for this game (``commands.Game.shared``)
            self._commands.setdefault(name, spec())
            return
        module, attribute = spec.split(":")
        self._commands.setdefault(name, getattr(importlib.import_module(module), attribute))

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        name = name or cmd.name
        self._lazy.pop(name, None)
        self._commands[name] = cmd

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except OSError as err:  # before click's own handler (exit 1) sees it
            if err.errno == errno.EPIPE:
                raise StdoutClosed from None
            raise

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self._lazy:
            self._load(cmd_name)
        return self._commands.get(cmd_name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self._commands, *self._lazy})


def run_main(group: click.Group, argv: list[str] | None, prog: str) -> None:
    """Run a click group as a console script: usage errors and :class:`InputError` become one
    line on stderr with exit code 2, Ctrl-C exit 130; bare ``prog`` prints the help (exit 0);
    a reader of stdout that stops early (``| head``) ends the command quietly with exit 0
    (a :class:`LazyGroup` turns the broken pipe into :class:`StdoutClosed`)."""
    if argv is None:  # the console script (not a test or program calling a command)
        jit_interrupt.enable()
        jit_interrupt.arm()  # a Ctrl-C while kernels compile ends the command at once
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
    except (click.Abort, KeyboardInterrupt):
        click.echo(f"{prog}: aborted", err=True)
        code = EXIT_INTERRUPTED
    except click.ClickException as exc:
        click.echo(f"{prog}: error: {exc.format_message()}", err=True)
        code = exc.exit_code
    except StdoutClosed:
        code = _stdout_closed()
    try:
        sys.stdout.flush()  # what is buffered, while a closed pipe can still be answered
    except OSError as err:
        if err.errno != errno.EPIPE:
            raise
        _stdout_closed()
    sys.exit(code if isinstance(code, int) else 0)


def seed_option(
    help: str = "Seed of the deal streams (deal i of a seed is always the same deal).",
) -> Callable:
    """``--seed`` (0 or more, default 1), the same in every command that samples."""
    return click.option(
        "--seed", type=click.IntRange(0, MAX_SEED), default=1, show_default=True, help=help
    )


def quiet_option(help: str = "No progress bar or notices on stderr.") -> Callable:
    """``--quiet``/``-q``, the same flag in every command that shows progress."""
    return click.option("--quiet", "-q", is_flag=True, help=help)


def deals_option(
    default: int,
    help: str,
    *synonyms: str,
    minimum: int = 1,
    maximum: int = MAX_DEALS,
    dest: str = "deals",
) -> Callable:
    """``-n/--deals`` (plus ``synonyms`` such as ``--rounds``): every sample size of every
    game, a whole number from ``minimum`` to what the sums hold (or ``maximum``, where a
    command keeps every deal in memory)."""
    return click.option(
        "-n",
        "--deals",
        *synonyms,
        dest,
        type=click.IntRange(minimum, maximum),
        default=default,
        show_default=True,
        help=help,
    )


#: A cell that is a number, an interval or a rate: digits with signs, separators and brackets.
_NUMERIC = re.compile(r"^[\s+\-−–0-9.,%×x\[\]()…±/:~<>=pP]*[0-9][\s+\-−–0-9.,%×x\[\]()…±/:~<>=]*$")


def keep_numbers_whole(table: Table) -> Table:
    """Give every column whose cells are all numbers (intervals, rates) at least the width of
    its widest cell and of its header's longest word, and let every column wrap at spaces rather
    than end in "…" (headers included), so a narrow terminal wraps text and headers instead of
    cutting a number (``+44…``) or a header's word (``pt/seq/set`` + ``s``); returns the
    table."""
    for column in table.columns:
        cells = [str(c) for c in column._cells if str(c).strip()]
        if cells and all(_NUMERIC.match(c) for c in cells):
            words = str(column.header).split() or [""]
            column.min_width = max(len(c) for c in [*cells, *words])
        column.no_wrap = False
        column.overflow = "fold"
    return table


def fit_table(table: Table, width: int) -> list[str]:
    """Drop a table's rightmost columns (never its first two) until it renders within ``width``
    columns; returns the headers dropped. Rendered, not measured: rich's measure ignores what
    the columns' minimum widths add to the borders, and the console would crop the overflow."""
    import io

    from rich.console import Console as _Console

    dropped = []
    while len(table.columns) > 2:
        probe = _Console(file=io.StringIO(), width=width, color_system=None)
        probe.print(table, crop=False)
        if max(map(len, probe.file.getvalue().splitlines()), default=0) <= width:
            break
        dropped.append(str(table.columns[-1].header))
        table.columns.pop()
    return dropped


class FitConsole(Console):
    """A rich console at the terminal's own width (80 columns when piped: never forced wider)
    that prints every table whole: numbers never cut (:func:`keep_numbers_whole`), and when
    even then a table is too wide, its rightmost columns dropped with a note saying which
    (``--json`` has them all). A reader that goes away (``| head``) ends the command quietly."""

    def on_broken_pipe(self) -> None:
        """The reader went away (``| head``): :func:`run_main` ends the command, exit 0 (rich's
        own answer is exit 1)."""
        self.quiet = True
        raise StdoutClosed

    def print(self, *objects, **kwargs) -> None:
        notes = []
        for obj in objects:
            if isinstance(obj, Table):
                keep_numbers_whole(obj)
                dropped = fit_table(obj, self.width)
                if dropped:
                    notes.append(
                        f"(not shown at {self.width} columns: {', '.join(reversed(dropped))}; "
                        "a wider terminal or --json shows them)"
                    )
        super().print(*objects, **kwargs)
        for note in notes:
            super().print(note, style="dim")


def output_console() -> Console:
    """The console every command prints its tables to (stdout)."""
    return FitConsole()


def json_or_console(as_json: bool, result: object) -> Console | None:
    """A command's output: with ``--json``, ``result`` printed as JSON (its ``to_dict()`` when
    it has one, built only then) and None, the output done; else the console for its tables."""
    if as_json:
        echo_json(result.to_dict() if hasattr(result, "to_dict") else result)
        return None
    return output_console()


def history_options(text_help: str, json_help: str) -> Callable:
    """``--history TEXT`` and ``--history-json FILE``: what has happened in a deal, in a game's
    text form or as JSON (the ``play`` commands; :func:`read_history` reads them)."""

    def decorate(func: Callable) -> Callable:
        func = click.option(
            "--history-json",
            type=click.Path(dir_okay=False, path_type=Path),
            default=None,
            help=json_help,
        )(func)
        return click.option("--history", metavar="TEXT", default=None, help=text_help)(func)

    return decorate


def read_history(history: str | None, history_json: Path | None, form: str) -> str | dict:
    """The history a command was given: the text, or the JSON file's object; exactly one of
    the two, else a one-line usage error (``form``: the text form, for the message)."""
    if history is not None and history_json is not None:
        raise click.UsageError("give --history or --history-json, not both")
    if history is None and history_json is None:
        raise click.UsageError(f"say what has happened with --history ({form})")
    if history_json is None:
        return history
    try:
        return json.loads(Path(history_json).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"cannot read {history_json}: {err}") from None
    except json.JSONDecodeError as err:
        raise InputError(f"{history_json} is not JSON: {err.msg} (line {err.lineno})") from None


def worlds_options(worlds: int, exact_limit: int, most: int = 1_000_000) -> Callable:
    """``--worlds N`` (sampled when too many to enumerate) and ``--exact-limit N`` (enumerate
    every world, exact, when at most this many): the play advice of every game."""

    def decorate(func: Callable) -> Callable:
        func = click.option(
            "--exact-limit",
            type=click.IntRange(0, 1_000_000),
            default=exact_limit,
            show_default=True,
            help="Enumerate every world (exact, no sampling) when there are at most this many.",
        )(func)
        return click.option(
            "--worlds",
            type=click.IntRange(1, most),
            default=worlds,
            show_default=True,
            help="Worlds sampled when there are too many to enumerate.",
        )(func)

    return decorate
