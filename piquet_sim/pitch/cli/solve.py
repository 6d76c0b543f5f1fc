"""Pitch's pieces of ``piquet pitch solve`` (the core builds the command,
:mod:`piquet_sim.core.app.solve_cli`): one hand a seat, the search's options, its tables; the
search runs under the core's status line (:func:`~piquet_sim.core.app.solve_cli.search_status`)."""

from __future__ import annotations

import click
from rich.console import Console
from rich.table import Table

from ...core.app.cli import CardsType
from ...core.app.solve_cli import SolveCli, search_status
from .. import cards as C
from ..rules import Rules
from ..solver import TIE_RULES, search_kernels, solve
from .common import SUIT, SeatListType

HAND = CardsType(C.PACK, min_count=1, max_count=6)

HELP = """Exact values of the play with every hand seen, one HAND per seat from seat 0 (the
dealer's left; 3 to 6 hands of equal size).

Whose points: by default every seat's points, each player maximising his own (max^n;
a player indifferent between cards plays the first in a static order, see --tie).
With --paranoid, the bidder's points when all the others play against him. Points are
those still to be decided: all six kinds for a full round (six cards each).

\b
Examples:
  piquet pitch solve "AS KS 2S 3H 4D 5C" "JS 6S TH 9H 8D 7C" \\
                     "QS 3S AH KH QD 2C" "TS 5S JH 2H AD KC" --leader 0
  piquet pitch solve "AS KS 2S 3H 4D 5C" "JS 6S TH 9H 8D 7C" \\
                     "QS 3S AH KH QD 2C" "TS 5S JH 2H AD KC" --trump H --paranoid --bid 4
  piquet pitch solve "AS KS 2S" "JS 6S TH" "QS 3S AH" --trump S --tie full
  piquet pitch solve "AS 3H" "6S 9H" "QS KH" --trump S --leader 1 --bidder 0 \\
                     --game-points 10:4:0
"""

PARAMS = (
    click.argument("hands", nargs=-1, required=True, type=HAND),
    click.option(
        "--trump",
        type=SUIT,
        default=None,
        help="Trump suit; the bidder's pitch must be of it. Without it (full rounds "
        "only) the bidder's first card chooses it.",
    ),
    click.option(
        "--leader",
        type=click.IntRange(0),
        default=0,
        show_default=True,
        help="Seat to lead now (a full round: the bidder, who pitches).",
    ),
    click.option(
        "--bidder",
        type=click.IntRange(0),
        default=None,
        help="The bidder's seat (default: the leader).",
    ),
    click.option(
        "--paranoid",
        is_flag=True,
        help="Everyone plays against the bidder: value = the bidder's points.",
    ),
    click.option(
        "--tie",
        type=click.Choice(list(TIE_RULES)),
        default="first",
        show_default=True,
        help="Max^n: the card a player indifferent between cards (equal own points) plays: "
        "'first' in a static order of his cards (trumps first when leading, then suit by "
        "suit, high first; following, the cheapest card that wins, then the lowest); 'full': "
        "the outcome with fewer points for the bidder, then fewer in all (slower).",
    ),
    click.option(
        "--bid",
        type=click.IntRange(3, 6),
        default=None,
        help="The bidder's bid: say whether he makes it (full rounds).",
    ),
    click.option(
        "--game-points",
        type=SeatListType(),
        default=None,
        metavar="G0:G1:…",
        help="Endgames: game points taken so far per seat.",
    ),
    click.option(
        "--played",
        type=CardsType(C.PACK, max_count=46),
        default=0,
        help="Endgames: cards already played (tells Low under --low-to capturer).",
    ),
)


def _table_of_hands(values: dict, rules: Rules) -> Rules:
    """The table is as large as the hands given (3 to 6)."""
    n = len(values["hands"])
    if not 3 <= n <= 6:
        raise click.UsageError(f"give 3 to 6 hands (one per seat), got {n}")
    return rules.replace(players=n)


def _search_round(values: dict, rules: Rules, notice):
    with search_status(on_start=notice) as progress:
        return solve(
            list(values["hands"]),
            values["leader"],
            values["bidder"],
            values["trump"],
            rules,
            values["paranoid"],
            values["game_points"],
            values["played"],
            tie=values["tie"],
            progress=progress,
        )


def _made(values: dict, sol) -> bool | None:
    """Whether the bidder makes his ``--bid`` (None: no bid, or not a full round)."""
    full = C.popcount(values["hands"][0]) == C.HAND_SIZE
    bid = values["bid"]
    return None if bid is None or not full else sol.bidder_points >= bid


def _print_values_and_line(sol, values: dict, rules: Rules, console: Console) -> None:
    hands, paranoid, bid = values["hands"], values["paranoid"], values["bid"]
    made = _made(values, sol)
    who = (
        "the bidder's points, everyone against him"
        if paranoid
        else f"each seat's own points (ties: {values['tie']})"
    )
    console.print(
        f"{len(hands)} players, bidder seat {sol.bidder}, seat {values['leader']} leads, trump "
        f"{sol.trump or 'set by the pitch'}; values are {who}, still to be decided: Points "
        "of the six (High, Low, Jack, Six, Last, Game) taken, not the round's score"
    )
    table = Table(title="Seats", title_justify="left")
    for col in ("seat", "hand", "points to come"):
        table.add_column(col, justify="right" if col != "hand" else "left")
    for s, h in enumerate(hands):
        pts = (
            str(sol.points[s])
            if sol.points is not None
            else (str(sol.bidder_points) if s == sol.bidder else "-")
        )
        table.add_row(f"{s}{' (bidder)' if s == sol.bidder else ''}", C.format_cards(h), pts)
    console.print(table)
    if made is not None:  # a bidder scores his bid (made) or loses it (set), not his points
        console.print(
            f"Bid {bid}: {'made' if made else 'set'}; the bidder takes {sol.bidder_points} "
            f"points and scores {bid if made else -bid:+d} (his bid, made or set)"
        )
    choices = Table(title=f"Seat {sol.to_move}'s cards", title_justify="left")
    choices.add_column("card")
    choices.add_column("bidder's points" if paranoid else "points to come, seat 0 first")
    for ch in sol.choices:
        v = ch["value"]
        choices.add_row(ch["card"], str(v) if paranoid else " ".join(map(str, v)))
    console.print(choices)
    line = Table(title="Line", title_justify="left")
    for col in ("trick", "leader", "cards", "winner", "points won, seat 0 first"):
        line.add_column(col, justify="left" if col == "cards" else "right")
    for i, t in enumerate(sol.line, 1):
        line.add_row(
            str(i), str(t.leader), " ".join(t.cards), str(t.winner), " ".join(map(str, t.points))
        )
    console.print(line)


#: ``piquet pitch solve`` as Pitch gives it to the core (``game.py``'s ``solve_ref``).
SOLVE = SolveCli(
    help=HELP,
    params=PARAMS,
    run=_search_round,
    show=_print_values_and_line,
    kernels=lambda values: search_kernels(values["paranoid"]),
    given=lambda values, sol: {"hands": [C.format_cards(h) for h in values["hands"]]},
    verdict=lambda values, sol: {"bid": values["bid"], "made": _made(values, sol)},
    rules=_table_of_hands,
    expect="about half a minute",
    bench="piquet_sim.pitch.bench:rounds_by_search",
)
