"""`piquet pitch game|tournament|strategies`: games to the target between strategies."""

from __future__ import annotations

import click
from rich.table import Table

from ...core.app.cli import (
    RateBar,
    backend_options,
    compile_notice,
    echo_json,
    json_option,
    long_command,
    output_console,
    plot_option,
    table_out_option,
)
from ..match import (
    GameMatch,
    check_tournament,
    export_table,
    game_match,
    match_kernels,
    plot_results,
    results_frame,
    tournament,
)
from ..policies import REGISTRY as POLICIES
from ..strategies import REGISTRY, resolve
from .app import pitch
from .common import quiet_option, rules_options, seed_option


def _p(e) -> str:
    return f"{e.mean:.4f} [{e.ci95[0]:.4f}, {e.ci95[1]:.4f}]"


def _print(match: GameMatch, target: int) -> None:
    console = output_console()
    n = match.players
    console.print(
        f"{n} players, games to {target} (seed {match.seed}); {match.seconds:.1f} s. "
        f"Perspective: P(the hero, alone against a field of the other strategy, wins the "
        f"game); fair share 1/{n} = {1 / n:.4f}. The hero's seat and the first dealer rotate."
        + ("  [bold red](interrupted: partial)[/]" if match.partial else "")
    )
    t = Table(title_justify="left")
    for col in ("hero", "field", "games", "P(hero wins), 95%", "vs fair", "rounds/game"):
        t.add_column(col, justify="left" if col in ("hero", "field") else "right")
    for r in match.results:
        t.add_row(
            r.hero,
            r.field,
            f"{r.games:,}",
            _p(r.p_win),
            f"{r.p_win.mean - r.fair:+.4f}",
            f"{r.rounds_per_game.mean:.1f}",
        )
    console.print(t)


@pitch.command("game")
@click.argument("a")
@click.argument("b")
@click.option(
    "-n",
    "--games",
    type=click.IntRange(1, 10_000_000),
    default=20_000,
    show_default=True,
    help="Games with each strategy alone against the other.",
)
@seed_option
@quiet_option
@rules_options(game=True)
@json_option
@backend_options
@long_command
def game_cmd(a, b, games, seed, quiet, as_json, backend, rules) -> None:
    """Games to the target (--target, 12) between strategies A and B (built-in names,
    .toml/.json files, or bid policies with parameters: threshold:margin=0.5).

    A plays alone against players-1 B's, then B alone against A's, on the same game streams;
    the lone player's seat and the first dealer rotate so he sits everywhere. Prints P(the
    lone strategy wins) with its 95% interval beside the fair share 1/players, and rounds per
    game. Ctrl-C prints the games finished (partial).

    \b
    Examples:
      piquet pitch game threshold cautious --players 4 -n 20000
      piquet pitch game montecarlo fitted -n 4000
      piquet pitch game my.toml threshold --players 3 --json
    """
    sa, sb = resolve(a), resolve(b)
    compile_notice(*match_kernels(), quiet=quiet or as_json)
    with RateBar(2 * games, "games", quiet or as_json) as bar:
        match = game_match(sa, sb, rules.players, games, seed, rules, progress=bar, backend=backend)
    if as_json:
        echo_json(match.to_dict())
        return
    _print(match, rules.target)


@pitch.command("tournament")
@click.argument("strategies", nargs=-1, required=True)
@click.option(
    "-n",
    "--games",
    type=click.IntRange(1, 10_000_000),
    default=5000,
    show_default=True,
    help="Games per ordered pair (hero, field).",
)
@seed_option
@plot_option("Write a heatmap of P(hero wins) minus the fair share, hero by field (PNG).")
@table_out_option("results")
@quiet_option
@rules_options(game=True)
@json_option
@backend_options
@long_command
def tournament_cmd(
    strategies, games, seed, plot_path, out_path, quiet, as_json, backend, rules
) -> None:
    """Every strategy alone against a field of every other (built-in names, files, or bid
    policies with parameters).

    For each ordered pair (hero, field): GAMES games to the target with the hero alone among
    players-1 of the field, seats and first dealer rotated. Prints P(hero wins) with its 95%
    interval, the fair share 1/players, and each strategy's mean excess over it as a hero.

    \b
    Examples:
      piquet pitch tournament threshold cautious bold --players 4 -n 5000
      piquet pitch tournament threshold fitted my.toml --json
      piquet pitch tournament threshold cautious bold fitted --plot t.png --out t.csv
    """
    strats = [resolve(s) for s in strategies]
    check_tournament(strats, games)
    if out_path and out_path.suffix.lower() == ".parquet":
        import importlib.util

        if importlib.util.find_spec("pyarrow") is None:
            raise click.UsageError("Parquet export needs pyarrow (pip install pyarrow); use .csv")
    pairs = len(strats) * (len(strats) - 1)
    compile_notice(*match_kernels(), quiet=quiet or as_json)
    with RateBar(pairs * games, "games", quiet or as_json) as bar:
        match = tournament(strats, rules.players, games, seed, rules, progress=bar, backend=backend)
    if out_path:
        export_table(results_frame(match), out_path)
    if plot_path and match.results:
        plot_results(match, plot_path)
    if as_json:
        echo_json(match.to_dict())
        return
    _print(match, rules.target)
    console = output_console()
    for s in strats:
        mine = [r.p_win.mean - r.fair for r in match.results if r.hero == s.name]
        if mine:
            console.print(f"{s.name}: mean excess as hero {sum(mine) / len(mine):+.4f}")


@pitch.command("strategies")
@json_option
def strategies_cmd(as_json) -> None:
    """The built-in strategies (bid policy with parameters, play policy), then every bid and
    play policy with its parameters, their defaults and allowed ranges.

    A strategy file (TOML or JSON) names its own: name, description, play, and a [bid] table
    with policy and params; pass its path wherever a strategy name goes, or write a bidder
    inline: threshold:margin=0.5.

    \b
    Example:
      piquet pitch strategies
    """
    if as_json:
        echo_json({name: s.to_dict() for name, s in REGISTRY.items()})
        return
    console = output_console()
    for name, s in REGISTRY.items():
        console.print(f"[bold]{name}[/bold]: {s.summary()} — {s.description}")
    t = Table(title="Policies (parameters: default, range)", title_justify="left")
    for col in ("stage", "policy", "parameters", "where"):
        t.add_column(col)
    for p in POLICIES:
        t.add_row(p.stage, p.name, _params_text(p), _where(p))
    console.print(t)


def _params_text(p) -> str:
    if not p.params:
        return "-"
    parts = []
    for i, (name, default) in enumerate(zip(p.params, p.defaults, strict=True)):
        low, high = p.bounds[i] if p.bounds else (float("-inf"), float("inf"))
        if low == float("-inf") and high == float("inf"):
            span = "any finite"
        else:
            span = f"{low:g}-{high:g}"
        whole = ", whole" if name in p.integers else ""
        parts.append(f"{name}={default:g} ({span}{whole})")
    return "; ".join(parts)


def _where(p) -> str:
    if p.needs_solver:
        return "bid advisor only" + (" (an oracle)" if p.oracle else "")
    if p.needs_seat:
        return "one seat at a table (strategies, batch A/B)"
    return "everywhere"
