"""Pitch Six as the application sees it: its command group (``piquet pitch …``) and its
benchmark workloads, declared once (:class:`piquet_sim.core.game.Game`).

Until Pitch's commands are listed here, the group is the one its command modules register on
(``pitch/cli/app.py``)."""

from __future__ import annotations

from ..core.game import Game

GAME = Game(
    name="pitch",
    title="Pitch Six",
    group="pitch",
    help="Pitch Six (3 to 6 players, each for himself).",
    commands={},
    bench="piquet_sim.pitch.bench:WORKLOADS",
)


def __getattr__(name: str):
    if name == "GROUP":  # the registered group, imported only when used
        from .cli import pitch

        return pitch
    raise AttributeError(name)
