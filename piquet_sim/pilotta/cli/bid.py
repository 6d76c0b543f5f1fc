"""`piquet pilotta bid`: which call to make with this hand, in this seat, after these calls."""

from __future__ import annotations

import click
from rich.table import Table

from ...core.app.cli import (
    CardsType,
    compile_notice,
    json_option,
    json_or_console,
    long_command,
    partial_mark,
)
from ...core.app.options import auction_option, others_option, play_option
from ...core.app.rules_cli import rules_options
from ...core.engine.errors import InputError
from ..bid import MAKE_LEVELS, PLAYS, PRIORS, advise, entry_kernels
from ..cards import PACK
from ..rules import Rules
from .app import pilotta
from .common import SEAT, quiet_option, seed_option

#: Trump suits in words, by their letter.
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def call_sentence(call: str) -> str:
    """A call as the advice's sentence: 'pass' -> 'pass', '130S' -> 'bid 130 with spades as
    trumps', 'capotH' -> 'bid capot with hearts as trumps'."""
    if call == "pass":
        return "pass"
    return f"bid {call[:-1]} with {SUIT_WORDS[call[-1]]} as trumps"


def _pct(rate: dict) -> str:
    return f"{rate['p'] * 100:.0f}"


@pilotta.command("bid")
@click.argument("hand", type=CardsType(PACK, count=8))
@click.option("--seat", type=SEAT, required=True, help="Your seat (N, E, S, W).")
@click.option(
    "--dealer",
    type=SEAT,
    default=None,
    help="The dealer (default: the seat before the first call given, or before yours).",
)
@auction_option(
    'The calls so far, in turn from the player after the dealer: "E:pass S:90H W:100S".'
)
@play_option(
    PLAYS,
    "heuristic",
    "How the rounds are played by all four seats; dd: exact double-dummy values "
    "(a marked oracle: it sees every hand).",
)
@others_option(
    PRIORS,
    "threshold",
    "The other seats' bidding policy: which worlds fit their calls, and how they "
    "finish the auction (--prior, its older name, is accepted).",
    older=("--prior",),
)
@click.option(
    "--deals",
    "-n",
    type=click.IntRange(1, 1_000_000),
    default=None,
    help="Worlds to draw [default: 2000; 200 with --play dd; 24 with --play pimc].",
)
@click.option(
    "--score",
    metavar="US:THEM",
    default=None,
    help="The game score (your team's game points : the opponents'): also rank the calls by "
    "P(winning the game to --target, 351).",
)
@seed_option
@quiet_option
@json_option
@rules_options(Rules)
@long_command
def bid_cmd(
    hand: int,
    seat: int,
    dealer: int | None,
    auction: str,
    play: str,
    others: str,
    deals: int | None,
    score: str | None,
    seed: int,
    quiet: bool,
    as_json: bool,
    rules: Rules,
) -> None:
    """Advise a call: each trump's chances, each legal call's value, the best call.

    Worlds deal the other 24 cards to the three other seats so that their calls so far are
    ones the prior bidding policy could have made. In each world the round is played with you
    contracting in each suit; and for every legal call the others finish the auction (you
    pass from then on) and the final contract is played and scored. All calls are compared on
    the same worlds. Perspective: your team. Round points = card points (250 capot) +
    combinations your team scores + pilotta; a call's value = this round's game points of your
    team minus the opponents'.

    \b
    Ctrl-C prints the worlds finished (partial) and exits 130.

    \b
    Example:
      piquet pilotta bid "JS 9S AS TS KH AD TD 7C" --seat S --auction "E:pass"
      piquet pilotta bid "JH 9H AH KH QH AS 7D 8C" --seat N --dealer W --play dd --json
      piquet pilotta bid "JS 9S AS TS KH AD TD 7C" --seat S --auction "E:pass" --score 300:320
    """
    pair = None
    if score is not None:
        try:
            us, them = (int(x) for x in score.split(":"))
            pair = (us, them)
        except ValueError:
            raise click.BadParameter(
                f"expected US:THEM (two whole numbers), got {score!r}", param_hint="--score"
            ) from None
    try:
        r = advise(
            hand,
            seat,
            dealer,
            auction,
            play,
            deals,
            seed,
            others,
            rules,
            pair,
            on_start=lambda: compile_notice(*entry_kernels(play), quiet=quiet or as_json),
        )
    except InputError as err:
        raise click.UsageError(str(err)) from None
    con = json_or_console(as_json, r)
    if con is None:
        return
    calls = " ".join(r["auction"]) or "(none)"
    con.print(f"Hand {r['hand']}   seat {r['seat']}, dealer {r['dealer']}, auction so far: {calls}")
    con.print(
        f"{r['worlds']:,} worlds (of {r['drawn']:,} drawn; shuffles accepted "
        f"{r['acceptance'] * 100:.0f}%), play {r['play']}, prior {r['prior']['policy']} for "
        f"the other seats, seed {r['seed']}, {r['seconds']:.2f} s"
        + ("  " + partial_mark(r["drawn"], r["requested"], "worlds") if r.get("partial") else "")
    )
    con.print(f"[dim]Perspective: {r['perspective']}.[/dim]")
    t = Table(title="You contract in each suit: P(making) %, 95% intervals in --json")
    for col in ("trump", "points", "±95%", "p10", "median", "p90"):
        t.add_column(col, justify="right")
    for lv in MAKE_LEVELS:
        t.add_column(str(lv), justify="right")
    t.add_column("capot", justify="right")
    for suit, d in r["trumps"].items():
        half = d["points"]["ci95"][1] - d["points"]["mean"]
        q = d["quantiles"]
        t.add_row(
            suit,
            f"{d['points']['mean']:.1f}",
            f"{half:.1f}",
            f"{q['p10']:.0f}",
            f"{q['p50']:.0f}",
            f"{q['p90']:.0f}",
            *(_pct(d["p_make"][str(lv)]) for lv in MAKE_LEVELS),
            _pct(d["p_capot"]),
        )
    con.print(t)
    rows = sorted(r["calls"], key=lambda c: -c["value"]["mean"])
    c = Table(title="Calls by value (game points, your team minus theirs, this round)")
    # P(win) beside the value: a narrow terminal drops the rightmost columns first
    for col in (
        "call",
        "value",
        "95% interval",
        "you",
        "them",
        *(["P(win) %"] if pair else []),
        "we contract %",
        "stands %",
        "made if stands %",
    ):
        c.add_column(col, justify="left" if col == "call" else "right")
    for row in rows[:12]:
        lo, hi = row["value"]["ci95"]
        c.add_row(
            row["call"],
            f"{row['value']['mean']:+.2f}",
            f"{lo:+.2f} .. {hi:+.2f}",
            f"{row['us']:.1f}",
            f"{row['them']:.1f}",
            *([f"{row['p_win']['mean'] * 100:.1f}"] if pair else []),
            _pct(row["p_we_contract"]),
            _pct(row["p_stands"]) if "p_stands" in row else "",
            _pct(row["p_made_if_stands"]) if "p_made_if_stands" in row else "",
        )
    con.print(c)
    if len(rows) > 12:
        con.print(f"[dim]({len(rows) - 12} more calls in --json)[/dim]")
    rec = r["recommendation"]
    line = f"Recommendation: [bold]{rec['call']}[/bold] ({rec['value']:+.2f} game points)"
    if "margin" in rec:
        mg = rec["margin"]
        line += (
            f"; over the runner-up {rec['runner_up']}: {mg['mean']:+.2f} "
            f"(95% {mg['ci95'][0]:+.2f} .. {mg['ci95'][1]:+.2f}, paired, {mg['n']:,} worlds)"
        )
    con.print(line)
    if pair:
        bw = rec["by_p_win"]
        line = (
            f"At {pair[0]}:{pair[1]}, by P(winning the game): [bold]{bw['call']}[/bold] "
            f"({bw['p_win'] * 100:.1f}%)"
        )
        if "margin" in bw:
            mg = bw["margin"]
            line += (
                f"; over {bw['runner_up']}: {mg['mean'] * 100:+.2f} points of % (95% "
                f"{mg['ci95'][0] * 100:+.2f} .. {mg['ci95'][1] * 100:+.2f}, paired)"
            )
        con.print(line)
        con.print(
            "[dim]P(win) after this round from a table of independent rounds of the prior "
            "bidding and play (both teams), the dealer's rotation ignored.[/dim]"
        )
    best = f"Best: {call_sentence(rec['call'])}"
    if pair and rec["by_p_win"]["call"] != rec["call"]:
        best += f"; to win the game (P(win)): {call_sentence(rec['by_p_win']['call'])}"
    con.print(best + ".")
