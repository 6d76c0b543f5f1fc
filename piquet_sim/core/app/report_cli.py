"""What the report commands of Pilotta and Pitch share once their kernels are warm or said to
compile: the sections built and timed (:func:`run_report`), the HTML and Markdown files written,
their paths (or, with ``--json``, one object of what the report measured) on stdout, and the
partial mark of a run cut by Ctrl-C (:func:`write_report`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import click

from ..engine.backend import stop_requested
from .cli import echo_json
from .report import Section, render_html, render_markdown

#: The report commands' help sentence on ``--json`` (one wording for every game).
JSON_HELP = (
    "With --json: one JSON object instead of the paths: the files written (html, md, images), "
    "seed, rules, the settings, each section's key figures (null: not run), seconds, and "
    "partial: true when Ctrl-C cut the run."
)


def report_json(
    paths: Mapping[str, Path],
    sections: list[Section],
    settings: Mapping[str, Any],
    seconds: float,
    partial: bool,
) -> dict:
    """The JSON of a written report: ``paths`` (html, md), the images its sections embed, the
    ``settings`` (seed, rules, sizes), each section's figures by key, ``partial`` only when
    the run was cut (as every command marks it), and the seconds it took."""
    images = [str(b.content) for s in sections for b in s.blocks if b.kind == "image"]
    data: dict[str, Any] = {k: str(v) for k, v in paths.items()}
    data["images"] = images
    data.update(settings)
    data["sections"] = {s.key: s.figures for s in sections}
    if partial:
        data["partial"] = True
    data["seconds"] = round(seconds, 3)
    return data


def match_settings(a: str, b: str, deals: int, games: int, seed: int, rules) -> dict:
    """The settings of a report on strategies ``a`` against ``b`` (``deals`` rounds counted,
    ``games`` played to the target) as its JSON states them."""
    return {"a": a, "b": b, "deals": deals, "games": games, "seed": seed, "rules": rules.to_dict()}


def write_report(
    out_dir: Path,
    stem: str,
    title: str,
    sections: list[Section],
    *,
    as_json: bool,
    settings: Mapping[str, Any],
    seconds: float,
) -> None:
    """Write ``stem``.html and ``stem``.md into ``out_dir`` (titled ``title``, marked partial
    after a Ctrl-C); print their paths, or with ``as_json`` :func:`report_json`; a cut run is
    also said on stderr."""
    partial = stop_requested()
    if partial:
        title += " (partial: interrupted)"
    paths = {"html": out_dir / f"{stem}.html", "md": out_dir / f"{stem}.md"}
    paths["html"].write_text(render_html(title, sections))
    paths["md"].write_text(render_markdown(title, sections))
    if as_json:
        echo_json(report_json(paths, sections, settings, seconds, partial))
    else:
        click.echo(paths["html"])
        click.echo(paths["md"])
    if partial:
        click.echo("interrupted: the report is partial (its sections say what finished)", err=True)


def run_report(
    out_dir: Path,
    stem: str,
    title: str,
    build: Callable[[], list[Section]],
    *,
    settings: Mapping[str, Any],
    as_json: bool,
) -> None:
    """A report command's run after its compile notice: the sections built by ``build()``
    (the game's studies), then :func:`write_report`, whose JSON gives the seconds the build
    took; so every game's report times the same span, the game's part being only ``build``."""
    t0 = time.perf_counter()
    sections = build()
    write_report(
        out_dir,
        stem,
        title,
        sections,
        as_json=as_json,
        settings=settings,
        seconds=time.perf_counter() - t0,
    )
