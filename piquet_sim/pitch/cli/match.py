"""The CLI pieces of Pitch's study commands (`strategies`, `batch`, `tournament`,
`game`, `external`): its rules options, help sentences and examples; the core builds the commands
(``core.app.study_commands``)."""

from __future__ import annotations

import click

from ...core.app.options import play_option
from ...core.app.study_options import StudyCli
from ..policies import names
from ..rules import Rules

CLI = StudyCli(
    rules=Rules,
    tournament_n=5000,
    about={
        "batch": "Two bidders A and B (default threshold against threshold:margin=1) for one "
        "seat on the same rounds: round i, seat i % players (so every seat equally) bids with "
        "A, then the same deal is replayed with him bidding with B; the others bid with "
        "--table, everyone plays --play. Perspective: that seat's round score (bidder +bid or "
        "-bid, else his points); a strategy stands for its bidder.",
        "game": "Games to the target (--target, 12): A plays alone against players-1 B's, and "
        "B alone against A's, on the same game streams; the lone player's seat and the first "
        "dealer rotate so he sits everywhere. P(the lone strategy wins) beside the fair share "
        "1/players, and rounds per game.",
    },
    options={
        "batch": [
            click.option(
                "--table",
                default="threshold",
                show_default=True,
                help="Bid policy of the other seats (not montecarlo: it bids for one seat).",
            ),
            play_option(
                names("play", needs_solver=False), "heuristic", "Play policy of every seat."
            ),
        ]
    },
    defaults={"batch": ("threshold", "threshold:margin=1")},
    aliases={"batch": ("--rounds",)},
    examples={
        "batch": "      piquet pitch batch threshold threshold:margin=1 --players 4 -n 200000\n"
        "      piquet pitch batch montecarlo fitted -n 20000\n"
        "      piquet pitch batch threshold:margin=-1 random --players 6 --json",
        "game": "      piquet pitch game threshold cautious --players 4 -n 20000\n"
        "      piquet pitch game my.toml threshold --players 3 --json",
        "tournament": "      piquet pitch tournament threshold cautious bold --players 4 -n 5000\n"
        "      piquet pitch tournament threshold cautious bold fitted --plot t.png --out t.csv",
        "external": "      piquet pitch external ismcts:100 --against heuristic -n 16 --players 4\n"
        "      piquet pitch external ismcts:10,ismcts:100 --against random,heuristic -n 8 --json",
    },
)
