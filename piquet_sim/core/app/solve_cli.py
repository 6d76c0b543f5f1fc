"""``solve``, for every game that has an exact solver: the value of a position with every hand
seen and its best line.

The core owns the command: the game's arguments and options, then ``--json`` and the game's
rules options of a deal; the compile notice (quiet under ``--json``) once the game is about to
run its kernels; a position the solver cannot take as one line on stderr and exit code 2; the
JSON (the game's solution, the position as given, the rules, what the game concludes) or the
game's tables on the console. The game gives the pieces (:class:`SolveCli`, named by its
declaration's ``solve_ref``): its parameters, a run function returning its
:class:`~piquet_sim.core.game.solve.Solution`, its tables, its entry kernels, its help text with
the examples, and where its benchmark positions are.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import click
from rich.console import Console
from rich.status import Status

from ..game.solve import Solution, SolveError
from .cli import compile_notice, echo_json, json_option, output_console
from .commands import Game
from .rules_cli import ONE_DEAL, rules_options

#: Seconds a search runs before its status line appears (short searches show none).
STATUS_AFTER_S = 1.0


def _nothing(values: dict, solution: Solution) -> dict:
    return {}


@dataclass(frozen=True)
class SolveCli:
    """A game's pieces of ``solve`` (each called with ``values``: the command's arguments and
    the game's options by parameter name).

    help: the ``--help`` text, with copy-pasteable examples;
    params: the game's click arguments and options, in the order ``--help`` lists them;
    run: ``run(values, rules, notice) -> Solution``: validate the position (a
        :class:`SolveError` for one it cannot take) and solve it, calling ``notice()`` once,
        just before its kernels first run (the compile notice);
    show: ``show(solution, values, rules, console)``: the game's text output;
    kernels: ``kernels(values)``: the numba dispatchers ``run`` calls first;
    given: ``given(values, solution)``: the position as given, in the JSON after the solution;
    verdict: ``verdict(values, solution)``: what the game concludes, in the JSON after the rules;
    rules: ``rules(values, rules)``: the rules of the position (a usage error for arguments
        that cannot make one), when the arguments set some of them (default: as given);
    expect: how long a cold compile takes, when no measure says (the compile notice);
    bench: ``"module:attr"`` of ``f(quick) -> list[SolveSeries]``, the positions of its
        ``solve-full`` benchmark (``core.app.bench.solve_full``); empty: none.
    """

    help: str
    params: Sequence[Callable]
    run: Callable[[dict, Any, Callable[[], None]], Solution]
    show: Callable[[Any, dict, Any, Console], None]
    kernels: Callable[[dict], tuple]
    given: Callable[[dict, Any], dict] = _nothing
    verdict: Callable[[dict, Any], dict] = _nothing
    rules: Callable[[dict, Any], Any] | None = None
    expect: str | None = None
    bench: str = ""


def solve_command(game_decl: Game) -> click.Command:
    """The ``solve`` command of ``game_decl``'s game, from its :class:`SolveCli`."""
    pieces: SolveCli = game_decl.solve_cli()
    opts = game_decl.options()

    def run(as_json: bool, rules, **values) -> None:
        if pieces.rules is not None:
            rules = pieces.rules(values, rules)
        notice = functools.partial(
            compile_notice, *pieces.kernels(values), quiet=as_json, expect=pieces.expect
        )
        try:
            solution = pieces.run(values, rules, notice)
        except SolveError as err:
            raise click.UsageError(str(err)) from None
        if as_json:
            data = solution.to_dict() | pieces.given(values, solution)
            data["rules"] = rules.to_dict()
            echo_json(data | pieces.verdict(values, solution))
            return
        pieces.show(solution, values, rules, output_console())

    command = run
    for decorate in reversed([*pieces.params, json_option, rules_options(opts.rules, ONE_DEAL)]):
        command = decorate(command)
    return click.command("solve", help=pieces.help)(command)


@contextmanager
def search_status(
    err: Console | None = None, on_start: Callable[[], object] | None = None
) -> Iterator[Callable[[int, float], None]]:
    """A ``progress(nodes, seconds)`` callback for a long search: on a terminal's stderr, once
    the search has run :data:`STATUS_AFTER_S`, a status line with the nodes searched so far, or
    that the kernels are compiling while no node is (removed at the end); elsewhere nothing.
    ``err``: the console to show it on (default: stderr's); ``on_start()`` runs at the first
    call, once the position is known to be good (the compile notice: none before a bad-input
    error)."""
    err = err or Console(stderr=True)
    shown: list[Status] = []
    started: list[bool] = []

    def progress(nodes: int, seconds: float) -> None:
        if not started:
            started.append(True)
            if on_start is not None:
                on_start()
        if seconds < STATUS_AFTER_S or not err.is_terminal:
            return
        if nodes == 0:  # no search has started: its kernels are compiling
            text = f"compiling the search kernels, first run only ({seconds:.0f} s)"
        else:
            text = f"searching: {nodes / 1e6:.1f} M nodes, {seconds:.0f} s (Ctrl-C stops)"
        if shown:
            shown[0].update(text)
        else:
            shown.append(err.status(text))
            shown[0].start()

    try:
        yield progress
    finally:
        if shown:
            shown[0].stop()


__all__ = ["STATUS_AFTER_S", "SolveCli", "search_status", "solve_command"]
