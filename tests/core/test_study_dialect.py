"""The study commands speak one dialect in every game: the same options with the same names
(``-n`` with ``--deals`` or ``--games``, ``--seed``, ``--chunk``, ``--json``, ``--quiet/-q``,
``--plot``, ``--out``, ``--backend``), the game's target as ``--target``, and strategies as
names, files or inline specs, refused in one line before any work."""

from __future__ import annotations

import click
import pytest

from piquet_sim.games import GAME_PACKAGES as GAMES
from piquet_sim.games import games

COMMON = {"-n", "--seed", "--chunk", "--json", "--quiet", "-q", "--plot", "--backend"}


def _commands(game: str) -> dict:
    """The game's study commands as its command group serves them (the core builds them)."""
    group = next(g for g in games() if g.name == game).click_group()
    ctx = click.Context(group)
    return {n: group.get_command(ctx, n) for n in ("strategies", "batch", "tournament", "game")}


def _flags(command) -> set[str]:
    return {o for p in command.params for o in (*p.opts, *p.secondary_opts)}


@pytest.mark.parametrize("game", GAMES)
def test_every_study_command_has_the_common_options(game):
    commands = _commands(game)
    for name in ("batch", "tournament", "game"):
        flags = _flags(commands[name])
        assert flags >= COMMON, (game, name, COMMON - flags)
    assert "--deals" in _flags(commands["batch"]) and "--games" in _flags(commands["game"])
    assert "--out" in _flags(commands["tournament"])
    assert "--json" in _flags(commands["strategies"])


@pytest.mark.parametrize("game", ["pilotta", "pitch"])
def test_the_target_is_target_in_every_game(game):
    assert "--target" in _flags(_commands(game)["game"])


def test_older_spellings_are_accepted_but_not_shown():
    from click import Context

    piquet, pilotta = _commands("piquet"), _commands("pilotta")
    assert "--parties" in _flags(piquet["game"]) and "--csv" in _flags(piquet["batch"])
    assert "--game-target" in _flags(pilotta["game"])
    shown = pilotta["game"].get_help(Context(pilotta["game"]))
    assert "--target" in shown and "--game-target" not in shown
    shown = piquet["game"].get_help(Context(piquet["game"]))
    assert "--games" in shown and "--parties" not in shown


@pytest.mark.parametrize(
    "args",
    [
        ("batch", "heuristic", "pimcw:worlds=0"),
        ("pilotta", "batch", "heuristic", "threshold:base=40.5"),
        ("pitch", "game", "threshold", "threshold:margin=nan"),
        ("pilotta", "tournament", "heuristic", "nosuch"),
    ],
)
def test_a_bad_strategy_is_one_line_and_exit_2_before_any_work(run_main, monkeypatch, args):
    from piquet_sim.core.study import match

    def never(*a, **k):
        raise AssertionError("work started")

    monkeypatch.setattr(match, "run_chunks", never)
    code, out, err = run_main(*args)
    assert code == 2 and out == "" and err.count("\n") == 1, err
