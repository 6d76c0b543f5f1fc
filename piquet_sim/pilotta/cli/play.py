"""`piquet pilotta play`: which card to play now, from what the player has seen.

The player gives the cards he holds, his seat and what has happened (``--history`` text or
``--history-json``, ``position.HISTORY_FORM``): the dealer, the auction (or the contract), the
combinations announced, the cards played trick by trick. The command checks it (a card twice,
a revoke, an auction out of turn, declarations his hand cannot make, a history no deal fits:
one line, exit 2) and ranks every legal card by his team's expected card points for the round
over the worlds consistent with what he saw, each solved double-dummy
(``deciders.advise_play``): every world when they are few (the last tricks: exact), else a
sample drawn by pimc's sampler.
"""

from __future__ import annotations

from pathlib import Path

import click

from ...core.app.cli import (
    CardsType,
    compile_notice,
    history_options,
    json_option,
    read_history,
    worlds_options,
)
from ...core.app.play_cli import answer, print_advice
from .. import cards as C
from ..cards import PACK
from ..rules import Rules
from .app import pilotta
from .common import SEAT, rules_options, seed_option

HAND = CardsType(PACK, min_count=1, max_count=8)
PRIORS = ("threshold", "random")

#: The --help example (tests run it): North, on lead to trick 4, his partner South playing
#: 100 in clubs.
EXAMPLE_HAND = "JS AH JH QD 9C"
EXAMPLE_SEAT = "N"
EXAMPLE_HISTORY = (
    "dealer: E; auction: S:80C W:pass N:pass E:90D S:100C W:pass N:pass E:pass; "
    "tricks: JC 7C KC 8S, AS 7S KS 9S, 7H 8H TH 9H"
)


def _description(hand: int, seat: int, history, history_json, rules: Rules):
    from ..position import HISTORY_FORM, parse_history, parse_history_json

    given = read_history(history, history_json, HISTORY_FORM)
    if isinstance(given, str):
        return parse_history(given, hand, seat, rules)
    return parse_history_json(given, hand, seat, rules)


@pilotta.command("play")
@click.argument("hand", type=HAND)
@click.option("--seat", type=SEAT, required=True, help="Your seat (N, E, S, W).")
@history_options(
    "What has happened: 'dealer: W; auction: N:pass E:90H S:pass W:pass N:pass' (or "
    "'contract: E 90H'); 'declared: E KH QH JH' (the cards each seat showed; yours default to "
    "everything your hand declares); 'tricks: 7S AS 8S 9S, JH 7H' (each trick in playing order "
    "from its leader, the last one unfinished).",
    'The same as a JSON object: {"dealer": "W", "auction": ["N:pass", "E:90H", ...] (or '
    '"contract": "E 90H"), "declarations": {"E": ["KH", "QH", "JH"]}, "tricks": [["7S", "AS", '
    '"8S", "9S"], ["JH", "7H"]]}.',
)
@click.option(
    "--prior",
    type=click.Choice(PRIORS),
    default="threshold",
    show_default=True,
    help="The others' bidding policy the worlds fit their calls to (random: the calls say "
    "nothing of the hands; with only the contract given, no call is read).",
)
@worlds_options(200, 3000, most=100_000)
@click.option(
    "--max-seconds",
    type=click.FloatRange(0, min_open=True),
    default=None,
    help="Stop solving more worlds after this long (at least 16 are solved; the answer then "
    "depends on the machine's speed). Early tricks take longest.",
)
@seed_option
@json_option
@rules_options
def play_cmd(
    hand: int,
    seat: int,
    history: str | None,
    history_json: Path | None,
    prior: str,
    worlds: int,
    exact_limit: int,
    max_seconds: float | None,
    seed: int,
    as_json: bool,
    rules: Rules,
) -> None:
    """What to play now: every legal card ranked by your team's expected card points for the
    round, over the worlds consistent with what you saw, each solved double-dummy.

    HAND is the cards you hold now. A world deals the unseen cards to the other seats so that
    every card played was legal (voids, failures to trump or over-trump), the combinations
    announced are in their owners' hands and nothing else is, and the calls fit the --prior
    bidder. Each card's value is the mean over those worlds (card points with the last trick;
    a capot counts its points), with its 95% interval when sampled, and the share of worlds in
    which the contract is made; the best is named with the reason in one line and its margin
    over the runner-up (paired: same worlds). A forced card is answered at once; when few
    worlds are left (--exact-limit) every one is enumerated: exact.

    \b
    Example (North, on lead to trick 4, his partner playing 100 in clubs):
      piquet pilotta play "JS AH JH QD 9C" --seat N --history "dealer: E;
        auction: S:80C W:pass N:pass E:90D S:100C W:pass N:pass E:pass;
        tricks: JC 7C KC 8S, AS 7S KS 9S, 7H 8H TH 9H"
    """
    from ..advice import advise_play, entry_kernels
    from ..position import from_description

    described = _description(hand, seat, history, history_json, rules)
    state = from_description(
        described,
        rules,
        prior=prior,
        seed=seed,
        before_kernels=lambda: compile_notice(*entry_kernels(), quiet=as_json),
    )
    advice = advise_play(
        state, worlds=worlds, seed=seed, exact_limit=exact_limit, max_seconds=max_seconds
    )
    answer(advice, rules, as_json, _print)


def _print(advice, data: dict) -> None:
    st = advice.state
    contract = data["contract"]
    side = "contracting" if data["contracting"] else "defending"
    trick = (
        f"{C.SEATS[st.leader]} led {data['trick_cards'][0]}"
        + (f", then {' '.join(data['trick_cards'][1:])}" if len(data["trick_cards"]) > 1 else "")
        if data["trick_cards"]
        else "you lead"
    )
    pts = data["points_so_far"]
    header = (
        f"You ({data['seat']}, {data['team']}, {side} {contract['bid']} by {contract['seat']}) "
        f"hold {C.format_cards(st.hands[advice.seat])}; trick {data['trick']}, {trick}. "
        f"Card points so far: you {pts['you']}, them {pts['them']}."
    )

    def cells(row: dict) -> list[str]:
        lo, hi = row["ci95"]
        interval = "exact" if data["exact"] else f"[{lo:.1f}, {hi:.1f}]"
        made = f"{row['p_made']['p'] * 100:.0f}%" if "p_made" in row else "-"
        return [f"{row['mean']:.1f}", interval, made]

    print_advice(header, data, ["your card points", "95% interval", "P(contract made)"], cells)
