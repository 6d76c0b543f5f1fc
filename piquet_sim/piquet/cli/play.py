"""`piquet play`: which card to play now, from what the player has seen.

The player gives the cards he holds, his role and what has happened (``--history`` text or
``--history-json``, ``position.HISTORY_FORM``); the command checks it (a card twice, a revoke,
counts the exchange rules forbid, declarations his hand cannot make: one line, exit 2) and
ranks every legal card by expected net deal points over the worlds consistent with what he saw,
each solved double-dummy (``deciders.advise_play``): every world when they are few (the last
tricks, and most of elder's), else a sample of them.
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
    seed_option,
    worlds_options,
)
from ...core.app.play_cli import answer, print_advice
from .. import cards as C
from ..cards import PACK
from ..position import HISTORY_FORM, ROLES, from_description, parse_history, parse_history_json
from ..rules import Rules
from .app import cli
from .common import rules_options

HAND = CardsType(PACK, min_count=1, max_count=12)

#: The --help example (tests run it): younger leads trick 5.
EXAMPLE_HAND = "QS JH 9H 8H 7H AD QD TD"
EXAMPLE_HISTORY = (
    "discard: 7S 8S 7D 8C; took: TD QS 7H AS; talon: -; elder took: 4; "
    "point: his KC QC JC TC 9C; sequence: his KC QC JC TC 9C; sets: mine; "
    "tricks: 9C-AC AS-TS KS-JS AH-TH"
)


def _description(hand: int, role: str, history: str | None, history_json: Path | None):
    given = read_history(history, history_json, HISTORY_FORM)
    if isinstance(given, str):
        return parse_history(given, hand, role)
    return parse_history_json(given, hand, role)


@cli.command("play")
@click.argument("hand", type=HAND)
@click.option(
    "--elder/--younger",
    "is_elder",
    default=True,
    show_default=True,
    help="Your role in the deal: elder (non-dealer) or younger (dealer).",
)
@history_options(
    f"What has happened so far: {HISTORY_FORM}.",
    "The same as a JSON object (keys discard, took, left, talon, elder_took or "
    "younger_took, carte_blanche, carte_rouge, declarations {point, sequence, sets}, "
    'tricks [["AS", "7S"], ...], lead).',
)
@worlds_options(1000, 5000)
@seed_option("Seed of the sampled worlds (the same seed, the same numbers).")
@json_option
@rules_options(partie=False)
def play_command(
    hand: int,
    is_elder: bool,
    history: str | None,
    history_json: Path | None,
    worlds: int,
    exact_limit: int,
    seed: int,
    as_json: bool,
    rules: Rules,
) -> None:
    """What to play now: every legal card ranked by expected net deal points (yours minus
    his), over the worlds consistent with what you saw, each solved double-dummy.

    HAND is the cards you hold now. Each card's value is the mean over those worlds (with its
    95% interval when sampled); the best is named with the reason in one line and its margin
    over the runner-up (paired: same worlds). A forced card is answered at once; when the
    unseen cards leave few enough worlds (--exact-limit), every one is enumerated: exact.

    \b
    Example (younger, four tricks played, to lead the fifth):
      piquet play "QS JH 9H 8H 7H AD QD TD" --younger --history "discard: 7S 8S 7D 8C;
        took: TD QS 7H AS; talon: -; elder took: 4; point: his KC QC JC TC 9C;
        sequence: his KC QC JC TC 9C; sets: mine; tricks: 9C-AC AS-TS KS-JS AH-TH"
    """
    from ..advice import advise_play, entry_kernels

    role = "elder" if is_elder else "younger"
    described = _description(hand, role, history, history_json)
    state = from_description(
        described,
        rules,
        seed=seed,
        before_kernels=lambda: compile_notice(
            *entry_kernels(), quiet=as_json, expect="about half a minute"
        ),
    )
    advice = advise_play(state, worlds=worlds, seed=seed, exact_limit=exact_limit)
    answer(advice, rules, as_json, _print)


def _print(advice, data: dict) -> None:
    st = advice.state
    opp = ROLES[1 - advice.seat]
    lead = f"{opp} led {data['lead']}" if data["lead"] else "you lead"
    pts = data["points_so_far"]
    header = (
        f"You ({data['role']}) hold {C.format_cards(st.hands[advice.seat])}; trick "
        f"{data['trick']}, {lead}. Points so far: you {pts['you']:g}, {opp} {pts['opponent']:g}."
    )

    def cells(row: dict) -> list[str]:
        lo, hi = row["ci95"]
        interval = "exact" if data["exact"] else f"[{lo:+.2f}, {hi:+.2f}]"
        return [f"{row['mean']:+.2f}", interval]

    print_advice(header, data, ["net points", "95% interval"], cells)
