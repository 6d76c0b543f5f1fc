"""Outside players against ours, for any game: the matches (:func:`external_matches`) and the
``external`` command each game builds from them (:func:`external_command`).

An outside player (``kind:arg``, from :mod:`.arena`'s registry, which the application fills)
makes the card-play decisions; every other decision (auction, declarations, exchange) is ours
and the same on both sides, so the margin measures card play. Each deal is played in every
seating of the game's :class:`Arena` (:func:`.arena.mirrored_match`), so the cards' luck
cancels. The core knows no game: each game gives its :class:`Arena`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

import click
from rich.table import Table

from ..engine.backend import stop_requested
from ..engine.errors import InputError
from ..game.position import Decider, State
from ..study.arena import EXTERNAL, TimedPlay, external_decider, external_specs, mirrored_match
from .cli import (
    RateBar,
    echo_json,
    json_option,
    long_command,
    output_console,
    quiet_option,
    seed_option,
)
from .cli import deals_option as core_deals_option


@dataclass(frozen=True)
class Arena:
    """How a game seats an outside player against one of ours.

    ``seat(play)``: a whole seat's decider around a play decider (every other phase ours, the
    same for both sides); ``our_play(name)``: our play decider of a registered play policy;
    ``deal(i)``: deal ``i`` (the same cards in every seating); ``seatings``: for each seating,
    which seats the outside player holds; ``perspective``: the margin's meaning in words (the
    outside player's points per deal minus ours); ``rules``: the rules played, in words;
    ``oracles``: our play policies that see every hand (marked so)."""

    game: str
    seat: Callable[[Decider], Decider]
    our_play: Callable[[str], Decider]
    deal: Callable[[int], State]
    seatings: Sequence[Sequence[bool]]
    perspective: str
    rules: str = "default"
    oracles: Collection[str] = ()


@dataclass
class ExternalRun:
    """Every finished match of :func:`external_matches`, one dict a row: ``a`` (the outside
    player), ``b`` (our play policy), ``deals``, ``margin_per_deal`` (an Estimate's dict: A's
    points per deal minus B's, :attr:`perspective`), ``seconds_per_move`` and ``moves`` (``a``,
    ``b``: unforced card-play decisions only), ``external`` (true), ``oracle`` and ``b_oracle``
    (a side that sees every hand), ``seconds``, ``partial``. ``interrupted`` when Ctrl-C
    stopped the run (the match in flight kept, marked partial, when it had a deal)."""

    game: str
    perspective: str
    rules: str
    seed: int
    deals: int
    rows: list[dict] = field(default_factory=list)
    interrupted: bool = False

    def to_dict(self) -> dict:
        return {
            "game": self.game,
            "perspective": self.perspective,
            "rules": self.rules,
            "seed": self.seed,
            "deals": self.deals,
            "partial": self.interrupted,
            "rows": self.rows,
        }


def external_matches(
    arena: Arena,
    outside: Sequence[Decider],
    against: Sequence[str],
    deals: int,
    seed: int = 1,
    progress: Callable[[int], None] | None = None,
    on_row: Callable[[dict], None] | None = None,
) -> ExternalRun:
    """Each outside play decider against each of our play policies ``against`` on ``deals``
    mirrored deals (``arena.deal(0..deals-1)``, every seating). ``progress(1)`` after each
    deal, ``on_row(row)`` after each match. Ctrl-C stops after the deal in flight and skips
    the rest."""
    run = ExternalRun(arena.game, arena.perspective, arena.rules, seed, deals)
    for agent_play in outside:
        for name in against:
            if stop_requested():
                run.interrupted = True
                return run
            theirs, mine = TimedPlay(agent_play), TimedPlay(arena.our_play(name))
            a, b = arena.seat(theirs), arena.seat(mine)
            a.name, b.name = agent_play.name, name
            t0 = time.perf_counter()
            match = mirrored_match(arena.deal, a, b, deals, arena.seatings, progress)
            if match.deals:
                run.rows.append(
                    {
                        "a": agent_play.name,
                        "b": name,
                        "deals": match.deals,
                        "margin_per_deal": match.margin.to_dict(),
                        "seconds_per_move": {
                            "a": theirs.seconds_per_move,
                            "b": mine.seconds_per_move,
                        },
                        "moves": {"a": theirs.moves, "b": mine.moves},
                        "external": True,
                        "oracle": theirs.oracle,
                        "b_oracle": name in arena.oracles,
                        "seconds": round(time.perf_counter() - t0, 2),
                        "partial": match.interrupted,
                    }
                )
                if on_row is not None:
                    on_row(run.rows[-1])
            if match.interrupted:
                run.interrupted = True
                return run
    return run


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
        + (" - PARTIAL: stopped by Ctrl-C" if run.interrupted else "")
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
            result = external_matches(table, outside, names, deals, seed, bar)
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
            quiet_option(),
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
