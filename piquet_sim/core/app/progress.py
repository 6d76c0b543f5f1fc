"""The progress bar every long command shows on stderr: amounts finished, a rate, the time
left, and one line, as a run starts, when it will take over an hour."""

from __future__ import annotations

import time

import click
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

#: A run whose estimated time is longer than this says so once, as it starts (it goes on).
LONG_RUN_SECONDS = 3600.0


def duration_text(seconds: float) -> str:
    """A long duration in its largest sensible unit: ``1.5 hours``, ``12 days``, ``3,170
    years``."""
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600)):
        if seconds >= size:
            value = seconds / size
            return f"{value:,.1f} {unit}" if value < 10 else f"{value:,.0f} {unit}"
    return f"{seconds / 60:.0f} minutes"


def long_run_notice(text: str) -> None:
    """Say on stderr, in one line, that a run just started will take long."""
    click.echo(text, err=True)


class RateBar:
    """A rich progress bar on stderr with a rate, fed with amounts finished. Once the rate is
    measured (from the second update on, so a first chunk that compiled kernels does not count)
    and the rest of the run would take over :data:`LONG_RUN_SECONDS`, one line says how long
    (even when the bar is off: a run of years is not progress noise)."""

    def __init__(self, total: int, unit: str, quiet: bool):
        self.start = time.perf_counter()
        self.unit = unit
        self.total = total
        self.first: tuple[float, int] | None = None  # (time, completed) at the first update
        self.estimated = False
        self.progress = Progress(
            TextColumn(f"[bold]{unit}"),
            BarColumn(),
            TextColumn("{task.completed:,}/{task.total:,}"),
            TextColumn("{task.fields[rate]}"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            disable=quiet,
            transient=True,
        )
        self.task = self.progress.add_task(unit, total=total, rate="")

    def __enter__(self):
        self.progress.__enter__()
        return self

    def __exit__(self, *exc):
        return self.progress.__exit__(*exc)

    def __call__(self, done: int) -> None:
        completed = self.progress.tasks[0].completed + done
        now = time.perf_counter()
        rate = completed / max(now - self.start, 1e-9)
        self.progress.update(self.task, advance=done, rate=f"{rate:,.0f} {self.unit}/s")
        if not self.estimated:
            self._estimate(now, completed)

    def _estimate(self, now: float, completed: int) -> None:
        if self.first is None:
            self.first = (now, completed)
            return
        t1, done1 = self.first
        if completed <= done1 or now <= t1:
            return
        self.estimated = True
        rate = (completed - done1) / (now - t1)
        left = (self.total - completed) / rate
        if left > LONG_RUN_SECONDS:
            long_run_notice(
                f"{self.total:,} {self.unit} at about {rate:,.0f} {self.unit}/s will take about "
                f"{duration_text(left)} (Ctrl-C stops and keeps what finished)"
            )
