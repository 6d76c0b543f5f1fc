"""`piquet pitch bid`: what to call with six cards at this table, in this seat, after these
calls, and which suit to pitch."""

from __future__ import annotations

import click
from rich.table import Table

from ...core.app.cli import CardsType, json_option, json_or_console, long_command
from ...core.app.options import auction_option, others_option, play_option
from ...core.app.rules_cli import rules_options
from ..bid import (
    PRIORS,
    RANKS,
    SEARCH_DEALS,
    advise_bid,
    advisor_kernels,
    check_in_progress,
    parse_auction,
)
from ..cards import PACK
from ..policies import PIMC_MAX_WORLDS, get, names, table_bidders
from ..rules import Rules
from ..winprob import check_scores
from .app import pitch
from .common import TABLE_GAMES, ScoresType, compile_notice, quiet_option, seed_option


def _worlds_text(adv, prior: str) -> str:
    """How many worlds were drawn and how many fit the calls (and what became of the rest)."""
    drawn = f"{adv.worlds_drawn:,} worlds (seed {adv.seed})"
    if prior == "uniform" or not adv.auction:
        return drawn + ("" if not adv.auction else ", the calls not used (uniform prior)")
    fit = f"{drawn}, {adv.worlds_fitting:,} fit the calls"
    if adv.worlds_fitting == 0:
        return fit + " (none does: every world is used)"
    if adv.inconsistent_worlds:
        return fit + f" ({adv.inconsistent_worlds:,} that do not are left out)"
    return fit


def _ci(e) -> str:
    return f"{e.mean:+.2f} [{e.ci95[0]:+.2f}, {e.ci95[1]:+.2f}]"


@pitch.command("bid")
@click.argument("hand", type=CardsType(PACK, count=6))
@click.option(
    "--seat",
    type=click.IntRange(0, 5),
    required=True,
    help="Your seat: 0 is the dealer's left (speaks first), players-1 the dealer.",
)
@auction_option(
    "The calls before you, seat:call in seat order (call: pass or 3..6).", '"0:pass 1:4 …"'
)
@play_option(
    names("play"),
    "heuristic",
    "How everyone plays the card: heuristic, random, pimc (search on sampled worlds; "
    "slow, few deals) or dd (search seeing every hand: an oracle, not a player).",
)
@others_option(
    table_bidders(),
    "threshold",
    "How the other players bid (also the model the auction prior conditions on).",
)
@click.option(
    "--prior",
    type=click.Choice(PRIORS),
    default="auction",
    show_default=True,
    help="Worlds: uniform deals kept when the others' bid policy makes the calls given "
    "(auction), or every deal of the unseen cards alike (uniform).",
)
@click.option(
    "-n",
    "--deals",
    type=click.IntRange(1, 10_000_000),
    default=None,
    help="Worlds (deals of the unseen cards), common to every call [default: 5000; pimc "
    f"{SEARCH_DEALS['pimc']}, dd {SEARCH_DEALS['dd']}].",
)
@click.option(
    "--pimc-worlds",
    type=click.IntRange(1, PIMC_MAX_WORLDS),
    default=None,
    help="With --play pimc: worlds each player samples per decision [default: "
    f"{get('play', 'pimc').defaults[0]:g}].",
)
@click.option(
    "--score",
    "score",
    type=ScoresType(),
    default=None,
    metavar="S0:S1:…",
    help="Game scores before this round, one per seat, seat 0 first (write --score=-3:5:0:2 "
    "when the first is negative): adds P(you win the game to the target) per call.",
)
@click.option(
    "--rank",
    type=click.Choice(RANKS),
    default="auto",
    show_default=True,
    help="Recommend by expected score change, or by P(winning the game) (needs --score); "
    "auto: by P(win) when --score makes the round decisive (someone can reach the target in "
    "it), else by the score change.",
)
@seed_option
@quiet_option
@rules_options(Rules, TABLE_GAMES)
@json_option
@long_command
def bid_cmd(
    hand,
    seat,
    auction,
    play,
    others,
    prior,
    deals,
    pimc_worlds,
    score,
    rank,
    seed,
    quiet,
    rules,
    as_json,
) -> None:
    """Value every legal call of HAND (six cards) on common worlds and recommend one.

    Perspective: your points and your score change this round (as bidder +bid when made,
    -bid when set; as a defender the points you take). The per-suit table assumes you end
    the bidder and pitch that suit. Intervals are 95%; every figure counts DEALS worlds.

    \b
    Examples:
      piquet pitch bid "AS JS 6S 2S KH TD" --players 4 --seat 2 --auction "0:pass 1:3"
      piquet pitch bid "S:AK6 H:T2 D:J" --players 5 --seat 4 --auction "0:pass 1:4 2:pass 3:pass"
      piquet pitch bid "AS JS 6S 2S KH TD" --players 4 --seat 0 --play random --json
      piquet pitch bid "KS JS 6S 3S KH TD" --seat 2 --auction "0:pass 1:3" --play pimc
      piquet pitch bid "KS JS 6S 3S KH TD" --seat 3 --auction "0:pass 1:3 2:4" --score 9:4:10:7

    --play pimc and dd search every play (pimc: 8 sampled worlds per decision, --deals 24 by
    default, about 10-30 s; dd sees every hand, an oracle). With --score, P(win) plays the
    game on from each world's outcome by drawing rounds of the table's policies, and the calls
    are ranked by it when someone can reach the target this round (--rank auto). Worlds are
    kept only when the others' bid policy makes the calls given (--prior auction); the output
    counts those that fit.
    """
    players = rules.players
    if seat >= players:
        raise click.UsageError(f"--seat must be 0..{players - 1} at {players} players")
    if pimc_worlds is not None and play != "pimc":
        raise click.UsageError("--pimc-worlds goes with --play pimc")
    if rank == "win" and score is None:
        raise click.UsageError("--rank win needs --score")
    calls = parse_auction(auction, seat, players)
    if score is not None:
        check_in_progress(check_scores(score, players), rules.target)
    deals = deals or SEARCH_DEALS.get(play, 5000)
    compile_notice(*advisor_kernels(play, score is not None), quiet=quiet or as_json)
    play_params = None if pimc_worlds is None else (float(pimc_worlds),)
    adv = advise_bid(
        hand,
        players,
        seat,
        calls,
        rules,
        play,
        others,
        prior,
        deals,
        seed,
        scores=score,
        rank=rank,
        play_params=play_params,
    )
    console = json_or_console(as_json, adv)
    if console is None:
        return
    console.print(
        f"Hand {adv.hand}, seat {seat} of {players}{' (dealer)' if adv.dealer else ''}, "
        f"calls before: {auction or 'none'}; play {play}, others bid {others}, prior {prior}; "
        f"{_worlds_text(adv, prior)}; {adv.seconds:.2f} s"
        + (" [dd: every player sees every hand, an oracle]" if play == "dd" else "")
    )
    if adv.partial:
        console.print(
            f"[bold red]Interrupted: partial, {adv.worlds_drawn:,} of {deals:,} worlds[/]"
        )
    if adv.scores is not None:
        console.print(
            f"Scores {':'.join(map(str, adv.scores))} (seat 0 first), target {rules.target}: "
            f"P(you win the game) before this round {adv.p_win_now:.3f} (others' policies)"
        )
    if adv.scores is not None or rank != "auto":
        measure = "P(winning the game)" if adv.rank == "win" else "expected score change"
        console.print(f"Calls ranked by {measure}: {adv.rank_reason}.")
    t = Table(title="You as bidder, each suit as trump (your points)", title_justify="left")
    for col in ("trump", "held", "High", "Low", "Jack", "Six", "Last", "Game", "E(points)"):
        t.add_column(col, justify="right")
    for k in range(3, 7):
        t.add_column(f"P(>={k})", justify="right")
    for s in adv.suits:
        e = s.expected_points
        t.add_row(
            s.suit,
            str(s.trumps),
            *(f"{p.mean:.2f}" for p in s.p_points.values()),
            f"{e.mean:.2f}±{e.ci95[1] - e.mean:.2f}",
            *(f"{p.mean:.2f}" for p in s.p_at_least.values()),
        )
    console.print(t)
    c = Table(title="Each call: your expected score change", title_justify="left")
    cols = ["call", "E(score change), 95% interval", "P(you bid)", "P(made | you bid)"]
    if adv.scores is not None:
        cols.append("P(win game), 95%")
    for col in cols:
        c.add_column(col, justify="left" if col == "call" else "right")
    key = (lambda v: -v.p_win.mean) if adv.rank == "win" else (lambda v: -v.score.mean)
    for v in sorted(adv.calls, key=key):
        row = [
            v.call,
            _ci(v.score),
            f"{v.p_bidder:.2f}",
            "-" if v.p_made is None else f"{v.p_made:.2f}",
        ]
        if v.p_win is not None:
            row.append(f"{v.p_win.mean:.3f} [{v.p_win.ci95[0]:.3f}, {v.p_win.ci95[1]:.3f}]")
        c.add_row(*row)
    console.print(c)
    m = adv.margin
    fmt = "+.3f" if adv.rank == "win" else "+.2f"
    extra = (
        f" (ahead of {m['versus']} by {m['mean']:{fmt}} [{m['ci95'][0]:{fmt}}, "
        f"{m['ci95'][1]:{fmt}}] in {m['measure']}, paired on the same worlds)"
        if m
        else ""
    )
    console.print(f"Recommendation: [bold]{adv.recommendation}[/bold]{extra}")
