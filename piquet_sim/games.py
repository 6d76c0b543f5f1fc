"""The games this application serves, listed once: ``piquet``'s commands and ``piquet bench``
read each game's declaration (``<game>/game.py``, :class:`piquet_sim.core.app.commands.Game`).
Adding a game is one line here and its package."""

from __future__ import annotations

import importlib

from .core.app.commands import Game
from .core.game.position import Decider, State
from .core.study.arena import ExternalKind, register_external

#: Game packages, the top-level one (Piquet) first.
GAME_PACKAGES = ("piquet", "pilotta", "pitch")


def games() -> list[Game]:
    """Every game's declaration, in :data:`GAME_PACKAGES` order."""
    return [importlib.import_module(f"piquet_sim.{p}.game").GAME for p in GAME_PACKAGES]


class TableIsmcts(Decider):
    """OpenSpiel's IS-MCTS (``ismcts:<simulations>``, the ``openspiel`` extra) at every table
    size: :func:`piquet_sim.openspiel.agents.external_decider` loads a game at its default size
    (Pitch Six: 4 players), whose search fails at a table of 3, 5 or 6; this keeps one bot a
    size, its game loaded with that many ``players`` on the first decision at that size (same
    seed and simulations). Lives here, the application's top, because it joins two application
    packages' worlds (OpenSpiel's players and the games' states)."""

    def __init__(self, game: str, arg: str, seed: int = 1):
        from .openspiel.agents import external_decider

        first = external_decider(game, arg, seed)  # checks the budget: one-line InputError
        self.game, self.seed = game, seed
        self.simulations = int(arg or 100)  # as external_decider reads it
        self.bots = {first.game.num_players(): first}
        self.name = first.name

        self.key: int | None = None

    def new_deal(self, key: int) -> None:
        """Reseed every bot for one deal (a bot made later starts from the same key)."""
        self.key = key
        for bot in self.bots.values():
            bot.new_deal(key)

    def choose(self, state: State) -> int:
        n = state.num_players
        if n not in self.bots:
            from .openspiel.agents import IsmctsDecider

            self.bots[n] = IsmctsDecider(
                f"python_{self.game}", self.simulations, self.seed, {"players": n}
            )
            if self.key is not None:
                self.bots[n].new_deal(self.key)
        return self.bots[n].choose(state)


def ismcts_decider(game: str, arg: str, seed: int = 1) -> Decider:
    """The ``ismcts:<simulations>`` external player (default 100 a move) of ``game``."""
    return TableIsmcts(game, arg, seed)


#: Outside players the ladders may add (``--external kind:arg``), registered with the core
#: (``core.arena.EXTERNAL``); each is imported only when asked for, and only with its extra.
EXTERNAL_PLAYERS = {
    "ismcts": ExternalKind(
        "piquet_sim.games:ismcts_decider",
        "openspiel",
        "pyspiel",
        GAME_PACKAGES,
        "OpenSpiel's information-set MCTS, ismcts:<simulations a move>",
        {"": ("simulations", 1)},
    ),
    "colver": ExternalKind(
        "piquet_sim.external.colver:external_decider",
        "peers",
        "colver",
        ("pilotta",),
        "colver's Belote Contree bots (contree preset), colver:<bot>[:<ms or worlds>]",
        {
            "ismcts": ("ms", 1),
            "smart_ismcts": ("ms", 1),
            "naive_ismcts": ("ms", 1),
            "isdd": ("worlds", 1),
        },
    ),
}
for _kind, _entry in EXTERNAL_PLAYERS.items():
    register_external(_kind, _entry)
