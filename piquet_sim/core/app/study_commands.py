"""The study commands, written once for every game: ``strategies``, ``batch``, ``tournament``
and ``game``, built from a game's :class:`~piquet_sim.core.study.studies.Studies` and its CLI
pieces (:class:`StudyCli`).

One dialect: ``-n/--deals`` counts deals (``-n/--games`` whole games), ``--seed``,
``--chunk`` (the most deals a chunk holds: memory and Ctrl-C's answer; never the numbers),
``--json``, ``--quiet/-q``, ``--plot``, ``--out`` (a table, CSV or Parquet),
``--backend local|dask``, and strategies as built-in names, ``.toml``/``.json`` files or
inline specs (``POLICY:param=value,…``) everywhere, each checked before any work (one line,
exit 2). Ctrl-C stops after the chunk in flight, prints what finished marked partial and exits
130.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import click

from ..engine.backend import Cancel
from ..game.strategy import StrategyBook
from ..study.match import MatchKind, MatchSpec, check_distinct, play_match
from ..study.studies import Studies
from ..study.tournament import play_tournament
from .cli import (
    OutputPath,
    RateBar,
    backend_options,
    compile_notice,
    echo_json,
    json_option,
    long_command,
    plot_option,
    seed_option,
    table_out_option,
)
from .commands import Game
from .options import GameOptions
from .rules_cli import study_rules_options
from .study_options import (
    AliasOption,
    StrategyType,
    StudyCli,
    chunk_option,
    quiet_flag,
    size_of,
    size_option,
)
from .study_view import (
    plot_sides,
    plot_tournament,
    policy_params,
    print_match,
    print_strategies,
    print_tournament,
    tournament_frame,
)
from .tables import export_table


def _decorate(func: Callable, options: Sequence[Callable]) -> Callable:
    for option in reversed(options):
        func = option(func)
    return func


def strategies_command(studies: Studies) -> click.Command:
    """``strategies``: the built-in strategies, then every policy a strategy may name."""
    book = studies.book

    def run(as_json: bool) -> None:
        if as_json:
            echo_json({name: book.to_dict(s) for name, s in book.builtins.items()})
            return
        rows = [
            (p.stage, p.name + ("" if p.name in book.playable(p.stage) else " *"), policy_params(p))
            for p in book.registry
        ]
        print_strategies(book, rows)

    help_text = f"""List {studies.title}'s built-in strategies, then every policy a strategy may
    name, with its parameters' defaults and ranges (the policy registry).

    Any command taking a strategy also takes a .toml or .json file (name, description, one key
    per stage: {", ".join(book.registry.stages)}; a stage is a policy name or a table with
    policy and params{"; [" + "] / [".join(book.roles) + "] override stages" if book.roles else ""})
    or an inline spec POLICY:param=value,… (e.g. {_inline_example(book)}).

    \b
    Example:
      {_prog(studies)} strategies
    """
    return click.command("strategies", help=help_text)(_decorate(run, [json_option]))


def _inline_example(book: StrategyBook) -> str:
    for stage in book.inline:
        for p in book.policy_rows():
            if p.stage == stage and p.params:
                return f"{p.name}:{p.params[0]}={p.defaults[0]:g}"
    return book.base


def _prog(studies: Studies) -> str:
    return "piquet" if studies.game == "piquet" else f"piquet {studies.game}"


def match_command(
    name: str, studies: Studies, kind: MatchKind, cli: StudyCli, games: bool, about: str
) -> click.Command:
    """``batch`` (``games`` False: mirrored deals) or ``game`` (whole games): A against B as
    ``kind`` plays them; ``about`` says how, in the help."""
    book = studies.book
    strategy = StrategyType(book)
    defaults = cli.defaults.get(name)

    def run(a, b, seed, chunk, plot_path, quiet, as_json, backend, rules, **options):
        n = size_of(options)
        out_path = options.pop("out_path", None)
        spec = MatchSpec(a, b, n or kind.default_n(a, b), seed, rules, options)
        kind.args(spec)  # every setting checked before the notice and the bar
        compile_notice(*kind.kernels(spec), quiet=quiet or as_json)
        t0 = time.perf_counter()
        writer = _RowWriter(kind, out_path)
        with RateBar(spec.n, kind.unit, quiet or as_json) as bar:
            result = play_match(kind, spec, backend, bar, Cancel(), chunk, writer)
        writer.close()
        if plot_path is not None and result.played:
            (kind.plot or plot_sides)(result, plot_path)
        if as_json:
            echo_json({**result.to_dict(), "seconds": round(time.perf_counter() - t0, 3)})
            return
        print_match(result, spec, book, kind.unit)
        for path, what in ((plot_path, "Figure"), (out_path, "Per-deal rows")):
            if path is not None:
                click.echo(f"{what} written to {path}")

    params = [
        click.argument("a", type=strategy, default=defaults and defaults[0], required=not defaults),
        click.argument("b", type=strategy, default=defaults and defaults[1], required=not defaults),
        size_option(
            "games" if games else "deals",
            f"{kind.unit.capitalize()} to play, each in every seating [default: the game's, "
            "fewer for slow players].",
            cli.aliases.get(name, ()),
        ),
        seed_option(),
        chunk_option,
        plot_option("Write a figure of the match (PNG, PDF or SVG)."),
    ]
    if kind.rows is not None:
        params.append(
            click.option(
                "--out",
                *cli.aliases.get(f"{name} --out", ()),
                "out_path",
                cls=AliasOption,
                type=OutputPath(suffixes=(".csv", ".parquet")),
                default=None,
                help="Write one row per deal (CSV, or Parquet for a .parquet name).",
            )
        )
    params += [*cli.options.get(name, ()), quiet_flag, json_option, backend_options]
    params.append(study_rules_options(cli.rules, games))
    help_text = f"""{about} Prints A's margin over B with its 95% interval and each side's
    figures; Ctrl-C prints what finished, marked partial, and exits 130.

    A and B are built-in strategies ({_prog(studies)} strategies), .toml/.json files or
    inline specs (POLICY:param=value,…).

    \b
    Example:
{cli.examples.get(name, "")}
    """
    return click.command(name, help=help_text)(long_command(_decorate(run, params)))


class _RowWriter:
    """Appends each chunk's per-deal rows to a CSV file (header once), or gathers them for a
    Parquet file written at the end."""

    def __init__(self, kind: MatchKind, path) -> None:
        self.kind, self.path = kind, path
        self.first = True
        self.frames: list = []

    def __call__(self, start: int, part) -> None:
        if self.path is None or self.kind.rows is None:
            return
        frame = self.kind.rows(start, part)
        if str(self.path).lower().endswith(".parquet"):
            self.frames.append(frame)
            return
        frame.to_csv(self.path, mode="w" if self.first else "a", header=self.first, index=False)
        self.first = False

    def close(self) -> None:
        """Write the gathered Parquet rows (a CSV file is complete already)."""
        if self.frames:
            import pandas as pd

            export_table(pd.concat(self.frames, ignore_index=True), self.path)


def tournament_command(studies: Studies, cli: StudyCli, default_n: int) -> click.Command:
    """``tournament``: every pair of strategies plays the studies' tournament match on the same
    deals (or games); standings, a table (``--out``) and a heatmap (``--plot``)."""
    book = studies.book
    kind = studies.tournament
    games = kind is studies.game_kind and kind is not studies.batch
    unit = kind.unit

    def run(names, seed, chunk, plot_path, out_path, quiet, as_json, backend, rules, **size):
        n = size_of(size)
        field_ = studies.tournament_field
        strategies = list(names) or list(field_() if field_ else book.builtins.values())
        check_distinct(strategies)
        n = n or default_n
        for a, b in zip(strategies, strategies[1:], strict=False):
            kind.args(MatchSpec(a, b, n, seed, rules))  # checked before any work
        if out_path and out_path.suffix.lower() == ".parquet":
            import importlib.util

            if importlib.util.find_spec("pyarrow") is None:
                raise click.UsageError(
                    "Parquet export needs pyarrow (pip install pyarrow); use .csv"
                )
        k = len(strategies)
        kernels = {
            d
            for i, a in enumerate(strategies)
            for b in strategies[i + 1 :]
            for d in kind.kernels(MatchSpec(a, b, n, seed, rules))
        }
        compile_notice(*kernels, quiet=quiet or as_json)
        t0 = time.perf_counter()
        with RateBar(n * k * (k - 1) // 2, unit, quiet or as_json) as bar:
            t = play_tournament(
                kind, strategies, n, seed, rules, None, backend, bar, Cancel(), chunk
            )
        if out_path:
            export_table((studies.tournament_table or tournament_frame)(t), out_path)
        if plot_path and t.results:
            plot_tournament(t, studies.matrix, plot_path)
        if as_json:
            echo_json({**studies.tournament_json(t), "seconds": round(time.perf_counter() - t0, 3)})
            return
        print_tournament(t, unit, t.results[0].unit if t.results else "")
        for path, what in ((out_path, "Match table"), (plot_path, "Heatmap")):
            if path:
                click.echo(f"{what} written to {path}")

    params = [
        click.argument("names", nargs=-1, type=StrategyType(book)),
        size_option(
            unit,
            f"{unit.capitalize()} a match [default: {default_n:,}].",
            cli.aliases.get("tournament", ()),
        ),
        seed_option(),
        chunk_option,
        plot_option("Write a heatmap of the pairwise results (PNG, PDF or SVG)."),
        table_out_option(),
        quiet_flag,
        json_option,
        backend_options,
        study_rules_options(cli.rules, games),
    ]
    field_note = (
        " (default: every built-in except the slow ones)"
        if studies.tournament_field
        else " (default: every built-in)"
    )
    help_text = f"""Every pair of strategies{field_note} plays a match on the same
    {unit} (each in every seating). Prints each match's margin with its 95% interval and the
    standings; --out writes the match table, --plot the heatmap. Ctrl-C keeps the matches
    finished (the last one cut), marked partial, and exits 130.

    \b
    Example:
{cli.examples.get("tournament", "")}
    """
    return click.command("tournament", help=help_text)(long_command(_decorate(run, params)))


def study_commands(studies: Studies, cli: StudyCli) -> dict[str, click.Command]:
    """Every study command of a game: ``strategies``, ``batch``, ``tournament`` and, when it
    plays whole games, ``game``."""
    out = {
        "strategies": strategies_command(studies),
        "batch": match_command("batch", studies, studies.batch, cli, False, cli.about["batch"]),
        "tournament": tournament_command(studies, cli, cli.tournament_n),
    }
    if studies.game_kind is not None:
        kind = studies.game_kind
        out["game"] = match_command("game", studies, kind, cli, True, cli.about["game"])
    return out


def default_study_cli(options: GameOptions) -> StudyCli:
    """The study commands' CLI pieces of a game that declares none: its rules options (of the
    deal, and of the game for whole games), generic help."""
    return StudyCli(
        rules=options.rules,
        tournament_n=1000,
        about={
            "batch": "Strategy A against B on the same deals, each deal played in every "
            "seating (A in each seat): A's points minus B's per deal.",
            "game": "Whole games of A against B on the same deals, in every seating.",
        },
    )


_BUILT: dict[str, dict[str, click.Command]] = {}


def _commands_of(game_decl: Game) -> dict[str, click.Command]:
    """The game's study commands, built once (from its definition's studies and its study CLI
    pieces, the core's defaults when it declares none)."""
    if game_decl.name not in _BUILT:
        studies = game_decl.definition().studies
        cli = game_decl.study_cli() or default_study_cli(game_decl.options())
        _BUILT[game_decl.name] = study_commands(studies, cli)
    return _BUILT[game_decl.name]


def strategies_for(game_decl: Game) -> click.Command:
    """The ``strategies`` command of ``game_decl``'s game."""
    return _commands_of(game_decl)["strategies"]


def batch_for(game_decl: Game) -> click.Command:
    """The ``batch`` command of ``game_decl``'s game."""
    return _commands_of(game_decl)["batch"]


def tournament_for(game_decl: Game) -> click.Command:
    """The ``tournament`` command of ``game_decl``'s game."""
    return _commands_of(game_decl)["tournament"]


def game_for(game_decl: Game) -> click.Command:
    """The ``game`` command (whole games) of ``game_decl``'s game."""
    return _commands_of(game_decl)["game"]
