"""Outside players against ours, for any game: an outside player (``kind:arg``, from
:mod:`.arena`'s registry, which the application fills) makes the card-play decisions; every
other decision (auction, declarations, exchange) is ours and the same on both sides, so the
margin measures card play. Each deal is played in every seating of the game's :class:`Arena`
(:func:`.arena.mirrored_match`), so the cards' luck cancels. The core knows no game: each game
gives its :class:`Arena` (its studies' ``arena`` hook)."""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field

from ..engine.backend import Cancel
from ..game.position import Decider, State
from .arena import TimedPlay, mirrored_match


@dataclass(frozen=True)
class Arena:
    """How a game seats an outside player against one of ours.

    ``seat(play)``: a whole seat's decider around a play decider (every other phase ours, the
    same for both sides); ``our_play(name)``: our play decider of a registered play policy;
    ``deal(i)``: deal ``i`` (the same cards in every seating); ``seatings``: for each seating,
    which seats the outside player holds; ``perspective``: the margin's meaning in words (the
    outside player's points per deal minus ours); ``rules``: the rules played, in words;
    ``oracles``: our play policies that see every hand (marked so)."""

    game: str
    seat: Callable[[Decider], Decider]
    our_play: Callable[[str], Decider]
    deal: Callable[[int], State]
    seatings: Sequence[Sequence[bool]]
    perspective: str
    rules: str = "default"
    oracles: Collection[str] = ()


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
    and skips the rest."""
    cancel = cancel or Cancel()
    run = ExternalRun(arena.game, arena.perspective, arena.rules, seed, deals)
    for agent_play in outside:
        for name in against:
            if cancel.is_set:
                run.partial = True
                return run
            theirs, mine = TimedPlay(agent_play), TimedPlay(arena.our_play(name))
            a, b = arena.seat(theirs), arena.seat(mine)
            a.name, b.name = agent_play.name, name
            t0 = time.perf_counter()
            match = mirrored_match(arena.deal, a, b, deals, arena.seatings, progress, cancel)
            if match.deals:
                run.rows.append(
                    {
                        "a": agent_play.name,
                        "b": name,
                        "deals": match.deals,
                        "margin_per_deal": match.margin.to_dict(),
                        "seconds_per_move": {
                            "a": theirs.seconds_per_move,
                            "b": mine.seconds_per_move,
                        },
                        "moves": {"a": theirs.moves, "b": mine.moves},
                        "external": True,
                        "oracle": theirs.oracle,
                        "b_oracle": name in arena.oracles,
                        "seconds": round(time.perf_counter() - t0, 2),
                        "partial": match.partial,
                    }
                )
                if on_row is not None:
                    on_row(run.rows[-1])
            if match.partial:
                run.partial = True
                return run
    return run


__all__ = ["Arena", "ExternalRun", "external_matches"]
