"""Outside players against ours, for any game: an outside player (``kind:arg``, from
:mod:`.arena`'s registry, which the application fills) makes the card-play decisions; every
other decision (auction, declarations, exchange) is ours and the same on both sides, so the
margin measures card play. Each deal is played in every seating of the game's :class:`Arena`
(:func:`.arena.mirrored_match`), so the cards' luck cancels. The core knows no game: each game
gives its :class:`Arena` (its studies' ``arena`` hook), what its definition already says read
from it (:meth:`Arena.for_game`)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..engine.backend import Cancel
from ..game.position import Decider, State

if TYPE_CHECKING:
    from ..game.definition import GameDefinition
    from ..game.registry import Registry
    from ..game.spec import RulesBase


@dataclass(frozen=True)
class Arena:
    """How a game seats an outside player against one of ours.

    ``seat(play)``: a whole seat's decider around a play decider (every other phase ours, the
    same for both sides); ``our_play(name, params=None)``: our play decider of a registered
    play policy (``params``: its parameters by name, the others its defaults);
    ``deal(i)``: deal ``i`` (the same cards in every seating); ``seatings``: for each seating,
    which seats the outside player holds; ``perspective``: the margin's meaning in words (the
    outside player's points per deal minus ours); ``rules``: the rules played, in words;
    ``oracles``: our play policies that see every hand (marked so); ``counts``: our play
    policies whose cost a move is a count an equal-time ladder may set, each with the count's
    parameter and bounds (``{"pimc": ("worlds", 1, 1000)}``)."""

    game: str
    seat: Callable[[Decider], Decider]
    our_play: Callable[[str], Decider]
    deal: Callable[[int], State]
    seatings: Sequence[Sequence[bool]]
    perspective: str
    rules: str = "default"
    oracles: Collection[str] = ()
    counts: Mapping[str, tuple[str, int, int]] = field(default_factory=dict)

    @classmethod
    def for_game(
        cls,
        game: GameDefinition,
        seed: int,
        rules: RulesBase,
        seat: Callable[[Decider], Decider],
        *,
        perspective: str,
        rules_text: str,
        our_play: Callable[..., Decider] | None = None,
        deal: Callable[[int], State] | None = None,
    ) -> Arena:
        """A game's seat for an outside player, with what its definition already says read from
        it rather than said again: the game's name; deal ``i`` of ``seed`` under ``rules``
        (``game.new_state``; ``deal``: the game's own); our play deciders
        (``game.play_decider``; ``our_play``: the game's own) and those that see every hand
        (its registry's oracles); the seatings: the outside player on each team in turn
        (:attr:`Facts.teams`), else alone in each seat of the table in turn (the ``players``
        of ``rules`` where they set them); the counts a time budget sets (each play policy's
        ``worlds`` within its registry bounds: a budget never asks for more than the policy
        takes). The rest is the game's: ``seat``, the margin's ``perspective`` and the rules
        played in words (``rules_text``)."""
        facts = game.facts
        players = getattr(rules, "players", facts.players[0])
        sides = facts.teams or tuple((s,) for s in range(players))
        return cls(
            facts.name,
            seat,
            our_play or game.play_decider,
            deal or (lambda i: game.new_state(seed, i, rules)),
            [tuple(s in side for s in range(players)) for side in sides],
            perspective,
            rules_text,
            game.policies.names("play", oracle=True),
            world_counts(game.policies),
        )


def world_counts(policies: Registry) -> dict[str, tuple[str, int, int]]:
    """For each play policy with a whole ``worlds`` parameter: (``"worlds"``, its lowest,
    its highest), the count :func:`external_matches` sets from a time budget."""
    out = {}
    for name in policies.names("play"):
        p = policies.get("play", name)
        if "worlds" in p.params and "worlds" in p.integers:
            lo, hi = p.bounds[p.params.index("worlds")]
            out[name] = ("worlds", int(lo), int(hi))
    return out


@dataclass
class ExternalRun:
    """Every finished match of :func:`external_matches`, one dict a row: ``a`` (the outside
    player), ``b`` (our play policy), ``deals``, ``margin_per_deal`` (an Estimate's dict: A's
    points per deal minus B's, :attr:`perspective`), ``seconds_per_move`` and ``moves`` (``a``,
    ``b``: unforced card-play decisions only), ``external`` (true), ``oracle`` and ``b_oracle``
    (a side that sees every hand), ``seconds``, ``partial``. ``partial`` when Ctrl-C stopped
    the run (the match in flight kept, marked partial, when it had a deal)."""

    game: str
    perspective: str
    rules: str
    seed: int
    deals: int
    rows: list[dict] = field(default_factory=list)
    partial: bool = False

    def to_dict(self) -> dict:
        return {
            "game": self.game,
            "perspective": self.perspective,
            "rules": self.rules,
            "seed": self.seed,
            "deals": self.deals,
            "partial": self.partial,
            "rows": self.rows,
        }


def external_matches(
    arena: Arena,
    outside: Sequence[Decider],
    against: Sequence[str],
    deals: int,
    seed: int = 1,
    progress: Callable[[int], None] | None = None,
    on_row: Callable[[dict], None] | None = None,
    cancel: Cancel | None = None,
) -> ExternalRun:
    """Each outside play decider against each of our play policies ``against`` on ``deals``
    mirrored deals (``arena.deal(0..deals-1)``, every seating). ``progress(1)`` after each
    deal, ``on_row(row)`` after each match. Ctrl-C (``cancel``) stops after the deal in flight
    and skips the rest. (The equal-time, resumable form: :func:`.ladder.ladder`.)"""
    from .ladder import Player, ladder, our_player

    players = [Player(d.name, True, lambda _n, d=d: d) for d in outside]
    ours = [our_player(arena, name, budgeted=False) for name in against]
    cancel = cancel or Cancel()
    done = ladder(
        arena, players, ours, deals, seed, progress=progress, on_row=on_row, cancel=cancel
    )
    return run_of(done.data, arena, seed, deals, cancel.is_set)


def run_of(data: dict, arena: Arena, seed: int, deals: int, partial: bool) -> ExternalRun:
    """An :class:`ExternalRun` of a ladder's results (its rows without their per-deal
    margins)."""
    rows = [{k: v for k, v in r.items() if k != "margins"} for r in data["rows"]]
    return ExternalRun(arena.game, arena.perspective, arena.rules, seed, deals, rows, partial)


__all__ = ["Arena", "ExternalRun", "external_matches", "run_of", "world_counts"]
