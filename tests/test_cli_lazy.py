"""The top-level ``piquet`` group imports a command's module only when that command runs."""

from __future__ import annotations

import importlib
import importlib.util
import subprocess
import sys

import pytest

from piquet_sim.cli import COMMANDS, cli


def test_every_command_is_listed_and_resolves_to_its_object():
    """Piquet's commands resolve to their objects; the other groups' modules exist (importing
    them here would cost this test seconds)."""
    import click

    from piquet_sim.piquet.cli import commands as piquet_commands

    assert set(piquet_commands.commands) <= set(COMMANDS)
    assert cli.list_commands(None) == sorted(COMMANDS)
    for name, spec in COMMANDS.items():
        if callable(spec):  # a core command built for Piquet from its definition
            assert isinstance(cli.get_command(None, name), click.Command), name
            continue
        module, attribute = spec.split(":")
        if name in piquet_commands.commands:
            command = getattr(importlib.import_module(module), attribute)
            assert cli.get_command(None, name) is command is piquet_commands.commands[name]
        else:
            assert importlib.util.find_spec(module) is not None


@pytest.mark.slow
def test_discard_imports_neither_other_games_nor_pandas():
    """Only the other games' declarations (``<game>/game.py``: a few lines, core only) are
    read at start-up, never their commands, kernels or API."""
    code = (
        "import sys; from piquet_sim.cli import cli; cli.get_command(None, 'discard'); "
        "print(sorted(m for m in sys.modules if m == 'pandas' or m == 'piquet_sim.piquet.report' "
        "or (m.startswith(('piquet_sim.pilotta', 'piquet_sim.pitch')) "
        "and m not in ('piquet_sim.pilotta', 'piquet_sim.pitch', 'piquet_sim.pilotta.game', "
        "'piquet_sim.pitch.game'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_each_game_declares_its_commands_and_workloads_once():
    """``piquet --help`` and ``piquet bench --list`` read the games' declarations: every
    declared command resolves to a click command, a group lists exactly its declared commands,
    and every game has benchmark workloads."""
    import click

    from piquet_sim.games import games

    for game in games():
        for spec in game.commands.values():
            module, attribute = spec.split(":")
            assert isinstance(getattr(importlib.import_module(module), attribute), click.Command)
        if game.group and game.commands:
            group = cli.get_command(None, game.group)
            assert group.list_commands(None) == sorted(game.lazy_commands()), game.name
        assert game.workloads(), game.name


def test_a_module_registering_several_commands_lists_them_all():
    """Listing a game's group imports each module once even when one module registers several
    commands (Pitch's cli/match.py: game, tournament, strategies): it raised KeyError."""
    from piquet_sim.games import games

    for game in games():
        if game.group:
            group = game.click_group()
            assert sorted(group.commands) == sorted(game.lazy_commands()), game.name
