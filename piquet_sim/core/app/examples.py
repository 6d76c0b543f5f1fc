"""Every command's ``--help`` examples as argument lists: what the compile profile times cold and
what ``piquet warm`` runs to compile a game's kernels ahead."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator

import click

#: Commands with no kernels of their own (or whose examples need an outside engine) are left out.
NO_KERNELS = ("bench", "warm", "strategies", "external")
#: Options giving a run's size (deals, rounds, games, parties), cut to a cap by :func:`capped`.
SIZE_OPTIONS = ("--deals", "-n", "--parties", "--games")


def example_lines(help_text: str) -> list[str]:
    """Each example command in a help text, its continuation lines joined (a line ending in a
    backslash, or indented deeper than the command's first line, continues it)."""
    start = re.search(r"^\s*Examples?\b.*:\s*$", help_text, re.M)
    if not start:
        return []
    out: list[str] = []
    indent = None
    for line in help_text[start.end() :].splitlines():
        if not line.strip():
            continue
        depth = len(line) - len(line.lstrip())
        text = line.strip().removesuffix("\\").strip()
        if text.startswith("piquet ") and (indent is None or depth <= indent):
            out.append(text)
            indent = depth
        elif out and indent is not None and depth > indent:
            out[-1] += " " + text
        else:
            break
    return out


def capped(
    args: list[str],
    cap: int,
    caps: dict[str, int] | None = None,
    command: click.Command | None = None,
) -> list[str]:
    """``args`` with every size (:data:`SIZE_OPTIONS`) above ``cap`` cut to it, and each option
    named in ``caps`` cut to its own cap; with the ``command`` they are for, never below the
    smallest value its option takes (a cut the command would refuse warms nothing)."""
    limits = {**dict.fromkeys(SIZE_OPTIONS, cap), **(caps or {})}
    out = list(args)
    for i, word in enumerate(out[:-1]):
        limit = limits.get(word)
        if limit is not None and out[i + 1].isdigit() and int(out[i + 1]) > limit:
            out[i + 1] = str(max(limit, _smallest(command, word)))
    return out


def _smallest(command: click.Command | None, word: str) -> int:
    """The smallest value ``command``'s option ``word`` accepts (0 when it states none)."""
    for param in command.params if command is not None else ():
        if word in getattr(param, "opts", ()) and isinstance(param.type, click.IntRange):
            low = param.type.min
            if low is not None:
                return int(low) + (1 if param.type.min_open else 0)
    return 0


def command_at(group: click.Group, path: str) -> click.Command | None:
    """The command a space-separated ``path`` under ``group`` names (``"pitch report"``)."""
    ctx = click.Context(group)
    cmd: click.Command | None = group
    for name in path.split():
        cmd = cmd.get_command(ctx, name) if isinstance(cmd, click.Group) else None
    return cmd


def help_examples(
    group: click.Group, every: bool = False, only: tuple[str, ...] | None = None
) -> Iterator[tuple[str, list[str]]]:
    """(command name, arguments after ``piquet``) of the first ``--help`` example of every
    command with kernels under ``group`` (every example with ``every``), depth first; ``only``
    keeps the commands (and groups) named there."""
    ctx = click.Context(group)

    def walk(parent: click.Group, prefix: list[str]) -> Iterator[tuple[str, list[str]]]:
        for name in parent.list_commands(ctx):
            if name in NO_KERNELS or (only is not None and not prefix and name not in only):
                continue
            cmd = parent.get_command(ctx, name)
            if isinstance(cmd, click.Group):
                yield from walk(cmd, [*prefix, name])
                continue
            examples = example_lines(cmd.help or "")
            for text in examples if every else examples[:1]:
                yield " ".join([*prefix, name]), shlex.split(text)[1:]

    yield from walk(group, [])
