"""A game's rules options on the command line, built from its rules rows (``Rules.SPEC``) for
every game alike: one click option per row of the command's scopes, a row's older spellings
accepted but not shown, a choice that was a bool flag still taken bare (``--name``) or negated
(``--no-name``), and ``--preset`` where the game names sets of values. The command receives one
``rules`` argument. Click only: cheap to import for any command."""

from __future__ import annotations

import functools
from collections.abc import Callable

import click

from ..game.spec import Option, RulesError

#: The scopes of a command about one deal and of one that plays whole games or parties; the
#: ``table`` rows (the number of players) are each command's own.
ONE_DEAL = ("deal",)
WHOLE_GAMES = ("deal", "game")


class AliasOption(click.Option):
    """An option whose flags after the first ``shown`` are older spellings: accepted, not
    shown in ``--help``."""

    def __init__(self, *args, shown: int = 1, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.shown = shown

    def get_help_record(self, ctx):
        opts = self.opts
        self.opts = [o for o in opts if o.startswith("-") and not o.startswith("--")] + [
            o for o in opts if o.startswith("--")
        ][: self.shown]
        try:
            return super().get_help_record(ctx)
        finally:
            self.opts = opts


def _negation(option: Option) -> str:
    """The parameter of a former bool's ``--no-name`` flag."""
    return f"no_{option.name}"


def rules_options(
    rules_cls: type,
    scopes: tuple[str, ...] = WHOLE_GAMES,
    into: str = "rules",
    fixed: dict | None = None,
) -> Callable:
    """Add a game's rules options (one click option per row of ``rules_cls.SPEC`` whose scope is
    in ``scopes``, and ``--preset`` when the game names presets) to a command, and pass one
    argument instead: ``rules`` (a ``rules_cls``, the options not offered at their defaults or
    the preset's, ``fixed`` overriding) or, with ``into="rule_options"``, the dict of the
    options offered (the command builds its ``Rules`` with its own table options, e.g. the
    number of players). An option typed beside ``--preset`` wins over it. A bad combination is
    a usage error (one line, exit 2)."""
    spec = rules_cls.SPEC
    offered = spec.cli_options(scopes)
    presets = spec.presets

    def given(ctx: click.Context, name: str) -> bool:
        return ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT

    def decorate(func: Callable) -> Callable:
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            ctx = click.get_current_context()
            preset = presets.get(kwargs.pop("preset", None) or "", {})
            values = {}
            for option in offered:
                value = kwargs.pop(option.name)
                typed = given(ctx, option.name)
                if option.was_bool and kwargs.pop(_negation(option)):
                    if typed:
                        flag = option.cli_flag()
                        raise click.UsageError(f"{flag} and --no-{flag[2:]} conflict")
                    value, typed = option.text(False), True
                if option.kind == "choice":
                    value = option.parse_text(value)
                values[option.name] = value if typed else preset.get(option.name, value)
            if into == "rule_options":
                return func(*args, rule_options=values, **kwargs)
            try:
                rules = rules_cls(**{**values, **(fixed or {})})
            except RulesError as err:
                raise click.UsageError(str(err)) from None
            return func(*args, rules=rules, **kwargs)

        for option in reversed(offered):
            if option.was_bool:
                wrapper = click.option(
                    f"--no-{option.cli_flag()[2:]}",
                    _negation(option),
                    is_flag=True,
                    help=f"The same as {option.cli_flag()} {option.text(False)}.",
                )(wrapper)
            wrapper = _click_option(option)(wrapper)
        if presets:
            wrapper = click.option(
                "--preset",
                type=click.Choice(tuple(presets)),
                default=next(iter(presets)),
                show_default=True,
                help=spec.preset_help,
            )(wrapper)
        return wrapper

    return decorate


def study_rules_options(rules_cls: type, games: bool) -> Callable:
    """The rules options of a study command (:func:`rules_options`): the table's (the number of
    players where the game has one), the deal's, and with ``games`` those of whole games."""
    return rules_options(rules_cls, ("table", *(WHOLE_GAMES if games else ONE_DEAL)))


def _click_option(option: Option) -> Callable:
    """The click option of one rules row (its older spellings accepted, not shown)."""
    flag = option.cli_flag()
    if option.kind == "bool":
        return click.option(
            flag, option.name, default=option.default, show_default=True, help=option.help
        )
    kind = click.Choice(option.texts) if option.kind == "choice" else click.IntRange(*option.bounds)
    extra = {"is_flag": False, "flag_value": option.text(True)} if option.was_bool else {}
    return click.option(
        flag,
        *option.older_flags,
        option.name,
        cls=AliasOption,
        type=kind,
        default=option.text(option.default) if option.kind == "choice" else option.default,
        show_default=True,
        help=option.help,
        **extra,
    )


__all__ = ["ONE_DEAL", "WHOLE_GAMES", "AliasOption", "rules_options", "study_rules_options"]
