"""`piquet pitch play`: which card to play now, from what the player has seen.

The player gives the cards he holds, his seat, the player count and what has happened (the
auction, the trump, the cards of each trick: ``--history`` text or ``--history-json``,
``position.HISTORY_FORM``); the command checks it (a card twice, a revoke, an impossible
history: one line, exit 2) and ranks every legal card by the expected points of his side over
the worlds consistent with what he saw, each solved by the paranoid search
(``deciders.advise_play``): every world when they are few (the last tricks), else a sample.
"""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.markup import escape

from ...core.app.cli import CardsType, compile_notice, json_option
from ...core.app.play_cli import answer, print_advice
from ...core.engine.errors import InputError
from .. import cards as C
from ..cards import PACK
from ..policies import table_bidders
from ..position import (
    HISTORY_FORM,
    check_description,
    parse_history,
    parse_history_json,
)
from .app import pitch
from .common import rules_options, seed_option

HAND = CardsType(PACK, min_count=1, max_count=6)

#: The --help example (tests run it): seat 1, the bidder, third to play to trick 3.
EXAMPLE_HAND = "TH 9D TC 2C"
EXAMPLE_SEAT = "1"
EXAMPLE_HISTORY = "auction: pass 3 pass pass; tricks: AC 7C 4C KC / 7D QD QC JD / 3H 6H"


def _description(hand: int, seat: int, players: int, history, history_json):
    if history is not None and history_json is not None:
        raise click.UsageError("give --history or --history-json, not both")
    if history is None and history_json is None:
        raise click.UsageError(f"say what has happened with --history ({HISTORY_FORM})")
    if history_json is not None:
        text = history_json.strip()
        if not text.startswith("{"):
            try:
                text = Path(history_json).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as err:
                raise InputError(f"cannot read {history_json}: {err}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise InputError(f"--history-json is not JSON: {err.msg} (line {err.lineno})") from None
        return parse_history_json(data, hand, seat, players)
    return parse_history(history, hand, seat, players)


@pitch.command("play")
@click.argument("hand", type=HAND)
@click.option(
    "--seat",
    type=click.IntRange(0, 5),
    required=True,
    help="Your seat: 0 is the dealer's left (calls first), players-1 the dealer.",
)
@click.option("--history", metavar="TEXT", default=None, help=f"What has happened: {HISTORY_FORM}.")
@click.option(
    "--history-json",
    metavar="FILE|JSON",
    default=None,
    help='The same as a JSON object, in a file or inline: {"auction": ["pass", 3, "pass", '
    '"pass"], "trump": "C", "tricks": [["AC", "7C", "4C", "KC"], ["3H", "6H"]]}.',
)
@click.option(
    "--others",
    type=click.Choice(table_bidders()),
    default="threshold",
    show_default=True,
    help="How the others are taken to bid: worlds where their calls would differ are left out.",
)
@click.option(
    "-n",
    "--worlds",
    type=click.IntRange(1, 100_000),
    default=200,
    show_default=True,
    help="Worlds sampled when there are too many to enumerate.",
)
@click.option(
    "--exact-limit",
    type=click.IntRange(0, 1_000_000),
    default=20_000,
    show_default=True,
    help="Enumerate every world (exact, no sampling) when there are at most this many.",
)
@click.option(
    "--max-seconds",
    type=click.FloatRange(0, None),
    default=10.0,
    show_default=True,
    help="Stop solving further sampled worlds once this is spent (at least 64; the first "
    "tricks of five or six players are slow); the output says how many were solved.",
)
@seed_option
@json_option
@rules_options
def play_cmd(
    hand: int,
    seat: int,
    history: str | None,
    history_json: str | None,
    others: str,
    worlds: int,
    exact_limit: int,
    max_seconds: float,
    seed: int,
    as_json: bool,
    rules,
) -> None:
    """What to play now: every legal card ranked by your side's expected points over the
    worlds consistent with what you saw, each solved by the paranoid search.

    HAND is the cards you hold now. Your side is you when you are the bidder (your points in the
    round), else the defenders against him (the round's points he does not take), as the pimc
    player sees it. Worlds keep your cards, the cards played, the voids shown and the calls (the
    others taken to bid with --others). Each card's value is the mean over the worlds (with its
    95% interval when sampled) beside P(the bidder makes his bid); the best is named with a
    reason and its paired margin over the runner-up. A forced card is answered at once; when
    few worlds remain (--exact-limit) every one is enumerated: exact.

    \b
    Example (seat 1 of 4, the bidder at 3 who pitched clubs, third to play to trick 3):
      piquet pitch play "TH 9D TC 2C" --seat 1 --history
        "auction: pass 3 pass pass; tricks: AC 7C 4C KC / 7D QD QC JD / 3H 6H"
    """
    from ..advice import advise_play, entry_kernels

    players = rules.players
    if seat >= players:
        raise click.UsageError(f"--seat must be 0..{players - 1} at {players} players")
    described = _description(hand, seat, players, history, history_json)
    public = check_description(described, rules)
    if public.phase != "play":
        raise InputError(
            f"the auction is not over: your call (seat {seat}); ask 'piquet pitch bid' for it"
        )
    if len(public.legal_actions()) > 1:
        compile_notice(*entry_kernels(), quiet=as_json, expect="a few minutes: the search")
    state = public
    advice = advise_play(
        state,
        worlds=worlds,
        seed=seed,
        exact_limit=exact_limit,
        others=others,
        max_seconds=max_seconds,
    )
    answer(advice, rules, as_json, _print, others=others)


def _print(advice, data: dict) -> None:
    st = advice.state
    role = "the bidder at" if data["role"] == "bidder" else f"a defender; seat {data['bidder']} bid"
    on = data["on_table"]
    where = f"seat {data['leader']} led, on the table: {' '.join(on)}" if on else "you lead"
    trump = f"trump {data['trump']}" if data["trump"] else "no trump yet: you pitch"
    header = (
        f"Seat {data['seat']} of {data['players']} ({role} {data['bid']}), {trump}; trick "
        f"{data['trick']}, {where}. You hold {C.format_cards(st.hands[advice.seat])}."
    )
    side = "your points" if data["role"] == "bidder" else "your side's points"

    def cells(row: dict) -> list[str]:
        lo, hi = row["ci95"]
        interval = "exact" if data["exact"] else f"[{lo:.2f}, {hi:.2f}]"
        return [f"{row['mean']:.2f}", interval, f"{row['p_bid_made']:.2f}"]

    print_advice(
        header,
        data,
        [side, "95% interval", "P(bid made)"],
        cells,
        method=escape(data["method"]),
        why=escape(data["why"]),
    )
