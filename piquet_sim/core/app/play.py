"""``play``, for every game: which card to play now, from what the player has seen.

The player gives the cards he holds, his seat and what has happened, as a record in the game's
one grammar (``--history`` text or ``--history-json``, a file or inline JSON: the same keys as
a ``review`` file). The game checks it (a card twice, a revoke, a history no deal fits: one
line, exit 2) and builds the position (its hook ``position``); the core ranks every legal card
by the player's side's expected points over the worlds consistent with what he saw
(:func:`~piquet_sim.core.game.advice.advise_play`) and prints the game's view of the advice.
"""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.markup import escape
from rich.table import Table

from ..engine.errors import InputError
from ..game.advice import PlayAdvice, advise_play, advise_policy
from ..game.definition import GameDefinition, ValueSettings
from .cli import (
    SECONDS,
    CardsType,
    compile_notice,
    echo_json,
    json_option,
    long_command,
    output_console,
    seed_option,
)
from .commands import Game
from .rules_cli import ONE_DEAL, rules_options


def read_history(history: str | None, history_json: str | None, form: str) -> str | dict:
    """What ``--history`` (text) or ``--history-json`` (a file or an inline JSON object) says;
    exactly one of the two, else a one-line usage error (``form``: the text form)."""
    if history is not None and history_json is not None:
        raise click.UsageError("give --history or --history-json, not both")
    if history is None and history_json is None:
        raise click.UsageError(f"say what has happened with --history ({form})")
    if history_json is None:
        return history
    text = history_json.strip()
    if not text.startswith("{"):
        try:
            text = Path(history_json).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as err:
            raise InputError(f"cannot read {history_json}: {err}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise InputError(f"--history-json is not JSON: {err.msg} (line {err.lineno})") from None
    if not isinstance(data, dict):
        raise InputError("--history-json must be a JSON object")
    return data


def print_advice(
    advice: PlayAdvice, data: dict, header: str, columns, cells, footer: tuple = ()
) -> None:
    """The play advice as text: the position in one line; a forced card at once; else how the
    worlds came and the time, every card (best first: the game's value columns, then its world
    count) and the advice with its reason."""
    console = output_console()
    console.print(header)
    if data["forced"]:
        console.print(f"[bold]Play {data['best']}[/bold]: the only legal card.")
        return
    console.print(f"Worlds: {escape(data['method'])}; {data['seconds']:.2f} s.")
    if data.get("partial"):
        console.print("[bold red](partial: stopped by Ctrl-C; the worlds solved so far)[/]")
    table = Table(title_justify="left")
    table.add_column("card")
    for column in [*columns, "worlds"]:
        table.add_column(column, justify="right")
    for row in data["cards"]:
        table.add_row(
            row["card"] + ("  best" if row["rank"] == 1 else ""),
            *cells(row),
            f"{row['worlds']:,}",
        )
    console.print(table)
    console.print(f"[bold]Play {data['best']}[/bold]: {escape(data['why'])}.")
    for line in footer:
        console.print(escape(line))


def policy_decider(game: GameDefinition, spec: str, seat: int) -> tuple[object, dict]:
    """The play decider of a strategy (a built-in name, a file or an inline spec such as
    ``pimcw:worlds=32``: the game's strategy book reads it, a one-line error otherwise) for
    ``seat``, and its description: the policy with its parameters, and whether it is an oracle
    (it sees hidden cards: in ``play`` those of one world drawn from the history)."""
    book = game.strategies
    strategy = book.resolve(spec)
    role = game.facts.seats[seat]
    choice = strategy.choice("play", role if role in book.roles else None)
    row = game.policies.get("play", choice.policy)
    described = {"name": choice.describe(), "strategy": strategy.name, "oracle": row.oracle}
    return game.play_decider(choice.policy, choice.given), described


def advise(
    game: GameDefinition,
    record_source: str | dict,
    seat: int,
    hand: int,
    rules,
    settings: ValueSettings,
    quiet: bool = False,
    policy: str | None = None,
) -> PlayAdvice:
    """The advice for the position a player describes (library entry of ``play``): the record
    read with his seat and his cards now, the position built (a compile notice on stderr just
    before the kernels first run, unless ``quiet``), every legal card valued; with ``policy``
    (a strategy: :func:`policy_decider`), that policy's card."""
    decider = described = None
    if policy is not None:
        decider, described = policy_decider(game, policy, seat)
    codec = game.codec
    if isinstance(record_source, dict):
        record = codec.parse_json(record_source, rules, player=seat, hand=hand)
    else:
        record = codec.parse(record_source, rules, player=seat, hand=hand)

    def notice() -> None:
        compile_notice(*game.entry_kernels("play"), quiet=quiet)

    state = game.position(record, rules, settings, before_kernels=notice)
    if decider is not None:
        return advise_policy(game, state, settings, decider, described)
    return advise_play(game, state, settings)


def play_command(game_decl: Game) -> click.Command:
    """The ``play`` command of ``game_decl``'s game: its help from the game's options, every
    option from the core (the same names, meanings and defaults in every game)."""
    game: GameDefinition = game_decl.definition()
    opts = game_decl.options()
    facts = game.facts
    defaults = game.play_settings
    own = opts.own_options("play")

    def run(
        hand,
        seat,
        history,
        history_json,
        worlds,
        exact_limit,
        max_seconds,
        seed,
        as_json,
        rules,
        others=None,
        policy=None,
        **flags,
    ):
        own_settings = own.take(flags) if own is not None else {}
        seat = opts.seat_value(seat, flags)
        if opts.players and seat >= rules.players:
            raise click.UsageError(f"--seat must be 0..{rules.players - 1} at {rules.players}")
        given = read_history(history, history_json, game.codec.form)
        settings = ValueSettings(
            worlds, exact_limit, max_seconds, seed, others or "", game=own_settings
        )
        advice = advise(game, given, seat, hand, rules, settings, quiet=as_json, policy=policy)
        view = game.advice_view(advice, settings)
        data = advice.to_dict(view)
        if advice.values.facts.get("partial"):
            data["partial"] = True  # Ctrl-C: the worlds solved so far (exit 130)
        if as_json:
            echo_json(data | {"rules": rules.to_dict()} | view.json_tail)
            return
        print_advice(advice, data, view.header, view.columns, view.cells, view.footer)

    decorators = [
        click.argument(
            "hand", type=CardsType(facts.pack, min_count=1, max_count=facts.cards_each + 1)
        ),
        opts.seat_option(f"Your seat ({', '.join(facts.seats)}).", required=True),
        click.option(
            "--history",
            metavar="TEXT",
            default=None,
            help=f"What has happened, in the game's record grammar: {game.codec.form}.",
        ),
        click.option(
            "--history-json",
            metavar="FILE|JSON",
            default=None,
            help="The same as a JSON object, in a file or inline.",
        ),
    ]
    if opts.others:
        decorators.append(
            click.option(
                "--others",
                "--prior",
                "others",
                type=click.Choice(opts.others),
                default=opts.others_default,
                show_default=True,
                help="How the others are taken to bid: worlds where their calls would differ "
                "are left out (random: the calls say nothing of the hands).",
            )
        )
    decorators += [
        click.option(
            "-n",
            "--worlds",
            type=click.IntRange(1, 1_000_000),
            default=defaults.worlds,
            show_default=True,
            help="Worlds sampled when there are too many to enumerate.",
        ),
        click.option(
            "--exact-limit",
            type=click.IntRange(0, 1_000_000),
            default=defaults.exact_limit,
            show_default=True,
            help="Enumerate every world (exact, no sampling) when there are at most this many.",
        ),
        click.option(
            "--max-seconds",
            type=SECONDS,
            default=defaults.max_seconds,
            show_default=True,
            help="Stop solving more sampled worlds after this long (the answer then depends on "
            "the machine's speed).",
        ),
        click.option(
            "--policy",
            metavar="STRATEGY",
            default=None,
            help="The card this play policy would play (a built-in strategy, a strategy file "
            "or an inline spec such as pimc or pimcw:worlds=32), with the card values beside; "
            "an oracle (dd) sees the hidden cards of one world drawn from the history.",
        ),
        seed_option("Seed of the sampled worlds (the same seed, the same numbers)."),
        json_option,
        # a table of any size (opts.players): its size is a rules option of the position
        rules_options(opts.rules, ("table", *ONE_DEAL) if opts.players else ONE_DEAL),
        *(own.decorators if own is not None else ()),
        long_command,
    ]
    command = run
    for decorate in reversed(decorators):
        command = decorate(command)
    help_text = opts.help["play"].rstrip() + example_text(game_decl, game)
    return click.command("play", help=help_text)(command)


def example_text(game_decl: Game, game: GameDefinition) -> str:
    """The help's example: the game's example position as a command to paste (the history's
    clauses one a line inside its quotes, each line but the last ending in a backslash: the
    shell joins them)."""
    ex = game.play_example
    group = f"{game_decl.group} " if game_decl.group else ""
    clauses = "; \\\n    ".join(c.strip() for c in ex.history.split(";"))
    return (
        f'\n\n\b\nExample ({ex.what}):\n  piquet {group}play "{ex.hand}" --seat {ex.seat} '
        f'--history "{clauses}"'
    )


__all__ = ["advise", "play_command", "print_advice", "read_history"]
