"""The ``external`` command, for any game: outside players against ours on mirrored deals,
through the study layer's matches (:func:`piquet_sim.core.study.external.external_matches`)
at the table the game's studies give (their ``arena``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import click
from rich.table import Table

from ..engine.backend import Cancel
from ..engine.errors import InputError
from ..study.arena import EXTERNAL, external_decider, external_specs
from ..study.external import Arena, ExternalRun, external_matches
from ..study.studies import Studies
from .cli import (
    RateBar,
    echo_json,
    json_option,
    long_command,
    output_console,
    seed_option,
)
from .cli import deals_option as core_deals_option


def _names(text: str, known: Sequence[str]) -> list[str]:
    """Our play policies of ``--against``, in order, once; InputError naming a bad one."""
    names = list(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))
    if not names:
        raise InputError(f"--against: give our play policies, from {', '.join(known)}")
    for n in names:
        if n not in known:
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


def _print(run: ExternalRun) -> None:
    out = output_console()
    title = (
        f"External players v ours, {run.game} ({run.rules}, seed {run.seed}, "
        f"{run.deals:,} mirrored deal{'s' if run.deals != 1 else ''} a match)"
        + (" - PARTIAL: stopped by Ctrl-C" if run.partial else "")
    )
    table = Table(title=title, title_justify="left")
    for col in ("external", "v ours", "deals", "margin/deal ± 95%", "ms/move ext / ours"):
        table.add_column(col, justify="left" if col in ("external", "v ours") else "right")
    for r in run.rows:
        m = r["margin_per_deal"]
        s = r["seconds_per_move"]
        table.add_row(
            r["a"] + (" (oracle)" if r["oracle"] else "") + " (external)",
            r["b"] + (" (oracle)" if r["b_oracle"] else ""),
            f"{r['deals']:,}" + (" (partial)" if r["partial"] else ""),
            f"{m['mean']:+.2f} ± {(m['ci95'][1] - m['ci95'][0]) / 2:.2f}",
            f"{_ms(s['a'])} / {_ms(s['b'])}",
        )
    out.print(table)
    out.print(f"Margin: {run.perspective}. ms/move: milliseconds per unforced card-play decision.")


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

    def run(specs, against, deals, seed, quiet, as_json, **extra) -> None:
        names = _names(against, policies)
        wanted = external_specs(specs)
        if not wanted:
            raise InputError("give an external player, e.g. ismcts:100")
        outside = [external_decider(game, spec, seed) for spec in wanted]
        if len({d.name for d in outside}) < len(outside):
            raise InputError("give each external player once")
        table = arena(seed=seed, **extra)
        total = len(outside) * len(names) * deals
        with RateBar(total, "deals", quiet or as_json) as bar:
            result = external_matches(table, outside, names, deals, seed, bar, cancel=Cancel())
        if as_json:
            echo_json(result.to_dict())
        else:
            _print(result)

    command = long_command(run)
    for option in reversed(
        [
            click.argument("specs"),
            click.option(
                "--against",
                default=against,
                show_default=True,
                help=f"Our play policies, comma-separated, from {', '.join(policies)}.",
            ),
            core_deals_option(deals, "Mirrored deals a match (each played in every seating)."),
            seed_option(),
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


__all__ = ["ExternalRun", "external_command", "studies_external_command"]
