"""The ``external`` command, for any game: outside players against ours on mirrored deals,
through the study layer's matches (:func:`piquet_sim.core.study.external.external_matches`)
at the table the game's studies give (their ``arena``)."""

from __future__ import annotations

import math
import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.table import Table

from ..engine.backend import Cancel
from ..engine.errors import InputError
from ..study.arena import EXTERNAL, external_decider, external_specs
from ..study.external import Arena, ExternalRun, run_of
from ..study.ladder import LadderFile, ladder, our_player, outside_player
from ..study.studies import Studies
from .cli import (
    Finite,
    RateBar,
    echo_json,
    json_option,
    long_command,
    output_console,
    seed_option,
)
from .cli import deals_option as core_deals_option
from .rules_cli import study_rules_options

if TYPE_CHECKING:
    from .commands import Game


def _names(text: str, known: Sequence[str]) -> list[str]:
    """Our play policies of ``--against`` (each ``name`` or ``name:<param>=<value>,...``, as
    ``pimc:worlds=16,own=1``: a part with ``=`` and no ``:`` continues the spec before it), in
    order, once; InputError naming a bad one."""
    specs: list[str] = []
    for part in (n.strip() for n in text.split(",")):
        if specs and "=" in part and ":" not in part and ":" in specs[-1]:
            specs[-1] += "," + part
        elif part:
            specs.append(part)
    names = list(dict.fromkeys(specs))
    if not names:
        raise InputError(f"--against: give our play policies, from {', '.join(known)}")
    for n in names:
        if n.partition(":")[0] not in known:
            raise InputError(f"unknown play policy {n!r}; choose from {', '.join(known)}")
    return names


def _ms(seconds: float) -> str:
    """Milliseconds in a few characters: ``337``, ``12.5``, ``5.90``, ``0.10``, ``<0.01``."""
    ms = seconds * 1e3
    if ms >= 100:
        return f"{ms:.0f}"
    if ms >= 10:
        return f"{ms:.1f}"
    return f"{ms:.2f}" if ms >= 0.005 else "<0.01"


def _command_line(specs, names, deals, seed, budget_ms, resume, block) -> str:
    """The command as typed (``sys.argv`` when it is the ``piquet`` program), else rebuilt
    from its values (called from Python: the game's rules options are the file's ``rules``)."""
    if Path(sys.argv[0]).name == "piquet":
        return shlex.join(["piquet", *sys.argv[1:]])
    words = [click.get_current_context().command_path, ",".join(specs)]
    words += ["--against", ",".join(names), "-n", str(deals), "--seed", str(seed)]
    for option, value in (("--budget-ms", budget_ms), ("--resume", resume), ("--block", block)):
        if value is not None:
            words += [option, f"{value:g}" if isinstance(value, float) else str(value)]
    return shlex.join(words)


def _margin(m: dict, deals: int) -> str:
    """A margin per deal with its 95% half-width; a match of one deal has no interval (its
    spread is unknown), said so instead of "± inf"."""
    half = (m["ci95"][1] - m["ci95"][0]) / 2
    if not math.isfinite(half):
        return f"{m['mean']:+.2f} ± n/a ({deals} deal{'s' if deals != 1 else ''})"
    return f"{m['mean']:+.2f} ± {half:.2f}"


def _print(run: ExternalRun, budget_ms: float | None = None) -> None:
    out = output_console()
    title = (
        f"External players v ours, {run.game} ({run.rules}, seed {run.seed}, "
        f"{run.deals:,} mirrored deal{'s' if run.deals != 1 else ''} a match"
        + (f", {budget_ms:g} ms a move" if budget_ms is not None else "")
        + ")"
        + (" - PARTIAL: stopped by Ctrl-C" if run.partial else "")
    )
    rows = []
    for r in run.rows:
        s = r["cpu_seconds_per_move"]
        rows.append(
            (
                r["a"] + (" (oracle)" if r["oracle"] else "") + " (external)",
                r["b"] + (" (oracle)" if r["b_oracle"] else ""),
                f"{r['deals']:,}" + (" (partial)" if r["partial"] else ""),
                _margin(r["margin_per_deal"], r["deals"]),
                f"{_ms(s['a'])} / {_ms(s['b'])}",
            )
        )
    table = Table(title=title, title_justify="left")
    for i, col in enumerate(
        ("external", "v ours", "deals", "margin/deal ± 95%", "CPU ms/move ext / ours")
    ):
        if i < 2:  # a name folds between its words, never inside one
            words = [w for row in rows for w in row[i].split()] or [col]
            table.add_column(col, justify="left", min_width=max(map(len, words)))
        elif i == 3:  # a margin whole on one line
            table.add_column(
                col, justify="right", min_width=max((len(r[i]) for r in rows), default=0)
            )
        else:
            table.add_column(col, justify="right")
    for row in rows:
        table.add_row(*row)
    out.print(table)
    out.print(
        f"Margin: {run.perspective}. CPU ms/move: the process's CPU milliseconds per unforced "
        "card-play decision."
    )


def external_command(
    game: str,
    arena: Callable[..., Arena],
    policies: Sequence[str],
    against: str,
    example: str,
    options: Sequence[Callable] = (),
    deals: int = 20,
    about: str = "",
) -> click.Command:
    """The ``external`` command of ``game``: ``SPECS`` (outside players, comma-separated
    ``kind:arg``) against each of our play policies ``--against`` (from ``policies``; default
    ``against``) on ``-n`` mirrored deals. ``arena(seed=…, **extra)`` builds the game's
    :class:`Arena`, ``extra`` being the values of ``options`` (click decorators, e.g. Pitch's
    ``--players``); ``example``: the help's example lines; ``about``: the game's seating in a
    sentence or two (help)."""

    def run(specs, against, deals, seed, budget_ms, resume, block, quiet, as_json, **extra) -> None:
        names = _names(against, policies)
        wanted = external_specs(specs)
        if not wanted:
            raise InputError("give an external player, e.g. ismcts:100")
        budgeted = budget_ms is not None
        outside = [
            outside_player(game, spec, budgeted, lambda g, s: external_decider(g, s, seed))
            for spec in wanted
        ]
        # each spec checked before any work: its decider built once (at its least count)
        made = [p.make(p.bounds[0] if p.unit else None) for p in outside]
        if not budgeted and len({d.name for d in made}) < len(made):
            raise InputError("give each external player once")
        table = arena(seed=seed, **extra)
        ours = [our_player(table, name, budgeted) for name in names]
        results = LadderFile.open(resume, table, seed, budget_ms)
        command = _command_line(wanted, names, deals, seed, budget_ms, resume, block)
        if command not in results.data["commands"]:
            results.data["commands"].append(command)
        done = {(r["a_spec"], r["b_spec"]): len(r["margins"]) for r in results.data["rows"]}
        total = sum(max(0, deals - done.get((a.spec, b.spec), 0)) for a in outside for b in ours)
        cancel = Cancel()
        with RateBar(total, "deals", quiet or as_json) as bar:
            ladder(
                table,
                outside,
                ours,
                deals,
                seed,
                budget_ms,
                results,
                block,
                progress=bar,
                on_note=None if quiet or as_json else click.echo,
                cancel=cancel,
            )
        pairs = {(a.spec, b.spec) for a in outside for b in ours}
        mine = {"rows": [r for r in results.data["rows"] if (r["a_spec"], r["b_spec"]) in pairs]}
        result = run_of(mine, table, seed, deals, cancel.is_set)
        if as_json:
            echo_json(result.to_dict() | {"budget_ms": budget_ms, "resume": resume})
        else:
            _print(result, budget_ms)

    command = long_command(run)
    for option in reversed(
        [
            click.argument("specs"),
            click.option(
                "--against",
                default=against,
                show_default=True,
                help=f"Our play policies, comma-separated, from {', '.join(policies)}; a "
                "search's count fixed inline (pimc:worlds=20) is not calibrated; other "
                "parameters inline too (pimc:worlds=20,own=1).",
            ),
            core_deals_option(deals, "Mirrored deals a match (each played in every seating)."),
            seed_option(),
            click.option(
                "--budget-ms",
                type=Finite(0.1, 600_000),
                default=None,
                help="Equal time: CPU milliseconds a move for every player whose cost is a "
                "count not given in its spec (our pimc's and pimcw's worlds, IS-MCTS's "
                "simulations, colver's IS-MCTS ms and IS-DD worlds), each calibrated on a few "
                "probe deals first; the counts and the measured times are in the rows.",
            ),
            click.option(
                "--resume",
                type=click.Path(dir_okay=False),
                default=None,
                help="Results file (JSON) to continue and keep writing as the run goes: "
                "the same specs, seed and budget skip the deals it has and append new ones "
                "(created when absent).",
            ),
            click.option(
                "--block",
                type=click.IntRange(1),
                default=None,
                help="Deals a row plays before the next row takes its turn (default: all, "
                "row after row).",
            ),
            click.option("--quiet", "-q", is_flag=True, help="No progress bar or notices."),
            json_option,
            *options,
        ]
    ):
        command = option(command)
    # the registry is filled by the application before a game's commands load
    kinds = [f"{e.help} (the {e.extra} extra)" for e in EXTERNAL.values() if game in e.games]
    known = "; ".join(kinds) or "the outside players registered (docs/external.md)"
    help_text = f"""Outside players against ours, on mirrored deals. SPECS, comma-separated:
    {known}. The outside player makes the card-play decisions; every other decision is
    ours, the same on both sides, so the margin measures card play. {about} Prints, for each outside
    player and each of our play policies, the deals, the margin per deal (the outside player's
    points minus ours) with its 95% interval, and each side's milliseconds per unforced move; the
    rows are marked external. Ctrl-C stops after the deal in flight and prints what finished,
    marked partial (exit 130).

    \b
    Example:
{example}
    """
    return click.command("external", help=help_text)(command)


def studies_external_command(
    studies: Studies, policies: Sequence[str], example: str, options: Sequence[Callable] = ()
) -> click.Command:
    """The ``external`` command of a game from its studies: the outside player at the table
    its ``arena(seed, rules)`` sets (``options``: the game's rules options, passing
    ``rules``; none: the game's own table) against ``policies`` of ours."""
    assert studies.arena is not None, f"{studies.game} seats no outside player"

    def arena(seed: int, rules=None) -> Arena:
        return studies.arena(seed) if rules is None else studies.arena(seed, rules)

    return external_command(
        studies.game,
        arena,
        policies,
        studies.against,
        example,
        options,
        about=studies.seating,
    )


def external_for(game: Game) -> click.Command:
    """The ``external`` command of a declared game: its studies' arena against its play
    policies, with its rules options of a deal unless its arena sets its own table
    (``StudyCli.external_rules``), its help examples from its study CLI pieces."""
    definition, cli = game.definition(), game.study_cli()
    options = [study_rules_options(cli.rules, False)] if cli.external_rules else []
    return studies_external_command(
        definition.studies, definition.policies.names("play"), cli.examples["external"], options
    )


__all__ = ["ExternalRun", "external_command", "external_for", "studies_external_command"]
