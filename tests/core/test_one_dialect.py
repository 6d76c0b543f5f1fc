"""Every command of every game speaks one dialect: an option shown under one name means one
thing wherever it appears. Walks the whole ``piquet`` command tree as a user's ``--help`` shows
it (older spellings accepted but not shown are left out)."""

from __future__ import annotations

import click
import pytest

from piquet_sim.cli import cli


def _shown_options() -> dict[str, dict[str, click.Option]]:
    """Command path -> {option name: option} for every option ``--help`` shows."""
    ctx = click.Context(cli)
    out: dict[str, dict[str, click.Option]] = {}

    def walk(group: click.Group, path: tuple[str, ...]) -> None:
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            if isinstance(command, click.Group):
                walk(command, (*path, name))
                continue
            shown = {
                p.name: p
                for p in command.params
                if isinstance(p, click.Option) and p.get_help_record(ctx) is not None
            }
            out[" ".join((*path, name))] = shown

    walk(cli, ())
    return out


OPTIONS = _shown_options()


def _flags(option: click.Option) -> set[str]:
    return {o for o in (*option.opts, *option.secondary_opts) if o.startswith("-")}


def test_the_walk_sees_every_game():
    assert {"discard", "pilotta bid", "pitch bid", "pilotta report", "pitch odds"} <= set(OPTIONS)


@pytest.mark.parametrize("command", sorted(OPTIONS))
def test_quiet_is_also_q(command):
    quiet = OPTIONS[command].get("quiet")
    if quiet is not None:
        assert "-q" in _flags(quiet), command


@pytest.mark.parametrize("command", sorted(OPTIONS))
def test_the_game_target_is_shown_as_target(command):
    for option in OPTIONS[command].values():
        assert "--game-target" not in option.get_help_record(click.Context(cli))[0], command


def test_the_others_bidding_model_is_others_everywhere():
    """``--others`` is the others' bidding model in every command that reads their calls; the
    only ``--prior`` left is Pitch bid's choice of worlds (auction or uniform)."""
    with_prior = [c for c, o in OPTIONS.items() if any(p.opts[0] == "--prior" for p in o.values())]
    assert with_prior == ["pitch bid"]
    for command in ("pilotta bid", "pilotta play", "pitch play", "pitch bid", "pilotta review"):
        assert any(p.opts[0] == "--others" for p in OPTIONS[command].values()), command


def test_odds_and_report_take_the_same_options_in_every_game():
    for game in ("", "pilotta ", "pitch "):
        odds, report = OPTIONS[f"{game}odds"], OPTIONS[f"{game}report"]
        assert {"plot_path", "as_json", "seed", "quiet"} <= set(odds), game
        assert {"as_json", "backend", "seed", "quiet"} <= set(report), game
