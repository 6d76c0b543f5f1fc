"""What a game gives the study layer: one typed object (:class:`Studies`) that its definition
holds, from which the core plays its matches, tournaments and outside players' matches and
builds the ``strategies``, ``batch``, ``tournament``, ``game`` and ``external`` commands.

A game writes small hooks (each game's ``studies.py``): its strategies (a
:class:`~piquet_sim.core.game.strategy.StrategyBook`), each kind of match it plays (a
:class:`~.match.MatchKind`: its unit of work through its kernels, its per-side statistics,
its seatings being the kernels'), the JSON of a tournament, and how an outside player sits at
its table (:class:`~.external.Arena`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.backend import Cancel
from ..game.spec import RulesBase
from ..game.strategy import Strategy, StrategyBook
from .external import Arena
from .match import MatchKind
from .tournament import Tournament, play_tournament, tournament_dict


@dataclass(frozen=True)
class Matrix:
    """How a tournament's matrix reads (its heatmap): the title (``{n}`` is filled in), the
    colour bar's label, the axes and the digits of a cell."""

    title: str
    colorbar: str
    xlabel: str = "opponent"
    ylabel: str = "strategy"
    digits: int = 2


@dataclass(frozen=True)
class Studies:
    """A game's studies (module docstring).

    ``batch``: the mirrored match of two strategies on deals; ``game``: whole games (parties)
    to the target, None when the game has none; ``tournament``: the kind every pair of a
    tournament plays (one of the two) and ``tournament_json(t)`` its JSON (default: the
    core's, :func:`~.tournament.tournament_dict`);
    ``tournament_field()``: the strategies of a tournament given none; ``tournament_table(t)``:
    its table file's rows (a DataFrame; None: one row a match, the core's); ``matrix``: how
    its matrix reads; ``arena(seed, rules)``: an outside player's seat at the game's table (None:
    none), with our play policies ``against`` by default and the seating in a sentence
    (``seating``)."""

    game: str
    title: str
    book: StrategyBook
    batch: MatchKind
    tournament: MatchKind
    tournament_json: Callable[[Tournament], dict] = tournament_dict
    matrix: Matrix = Matrix(
        "Pairwise margins ({n:,} a match, 95% half-widths)", "row's margin over the column's"
    )
    game_kind: MatchKind | None = None
    tournament_field: Callable[[], Sequence[Strategy]] | None = None
    tournament_table: Callable[[Tournament], Any] | None = None
    arena: Callable[[int, RulesBase], Arena] | None = None
    against: str = "random,heuristic,pimc"
    seating: str = ""

    def round_robin(
        self,
        strategies: Sequence[Strategy | str],
        n: int,
        seed: int,
        rules: RulesBase,
        backend=None,
        progress: Callable[[int], None] | None = None,
        chunk: int | None = None,
        cancel: Cancel | None = None,
    ) -> Tournament:
        """Every pair of ``strategies`` (names, files or specs are resolved in the book) plays
        the game's tournament match on ``n`` deals (or games) of ``seed``; ``progress`` is
        told the items finished. The same numbers on any ``backend`` or ``chunk``; Ctrl-C
        (``cancel``) stops after the chunk in flight and keeps what finished (``partial``).
        Its JSON: :attr:`tournament_json`."""
        chosen = [self.book.resolve(s) if isinstance(s, str) else s for s in strategies]
        return play_tournament(
            self.tournament, chosen, n, seed, rules, None, backend, progress, cancel, chunk
        )


__all__ = ["Matrix", "Studies"]
