"""Every ``--help`` example pastes into a shell as it is shown (at 80 columns): a command on
one line, or continued with a trailing backslash, and its quotes balanced."""

from __future__ import annotations

import re
import shlex

import click

from piquet_sim.cli import cli


def _helps():
    """(command path, its rendered --help at 80 columns) of every command."""

    def walk(cmd, path, parent_ctx):
        ctx = click.Context(cmd, info_name=path[-1], parent=parent_ctx, terminal_width=80)
        ctx.max_content_width = 80
        if isinstance(cmd, click.Group):
            for name in cmd.list_commands(ctx):
                yield from walk(cmd.get_command(ctx, name), [*path, name], ctx)
        else:
            yield " ".join(path), cmd.get_help(ctx)

    yield from walk(cli, ["piquet"], None)


def example_commands(help_text: str) -> list[list[str]]:
    """Each example command's lines as shown: a line starting with ``piquet `` in an
    Example(s) section, and the lines indented deeper after it."""
    out: list[list[str]] = []
    indent = None
    inside = False
    for line in help_text.splitlines():
        if re.match(r"^\s*Examples?\b.*:\s*$", line):
            inside, indent = True, None
            continue
        if not inside or not line.strip():
            continue
        depth = len(line) - len(line.lstrip())
        if line.strip().startswith("piquet ") and (indent is None or depth <= indent):
            out.append([line])
            indent = depth
        elif out and indent is not None and depth > indent:
            out[-1].append(line)
        else:
            inside = False
    return out


def test_every_help_example_is_one_line_or_continued_and_its_quotes_balance():
    bad = []
    seen = 0
    for path, text in _helps():
        for lines in example_commands(text):
            seen += 1
            unended = [x for x in lines[:-1] if not x.rstrip().endswith("\\")]
            joined = " ".join(x.strip().removesuffix("\\") for x in lines)
            try:
                shlex.split(joined)
                balanced = True
            except ValueError:
                balanced = False
            if unended or not balanced:
                bad.append(f"{path}: {' / '.join(x.strip() for x in lines)}")
    assert seen > 20
    assert not bad, "\n".join(bad)
