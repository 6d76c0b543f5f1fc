"""`piquet pitch hand`: what a six-card hand holds, suit by suit as trump, with exact chances."""

from __future__ import annotations

import click
from rich.table import Table

from ...core.app.cli import CardsType, json_option, json_or_console
from ..cards import PACK
from ..hand import describe_hand
from .app import pitch
from .common import players_option


@pitch.command("hand")
@click.argument("cards", type=CardsType(PACK, count=6))
@players_option
@json_option
def hand_cmd(cards: int, rules, as_json: bool) -> None:
    """Each suit of a six-card hand as trump: the trumps held, P(High), P(Low to the holder),
    the Jack and Six of trumps, and the hand's game points.

    Chances are exact, given these six cards (the other players hold 6 of the 46 unseen cards
    each). High: no higher trump dealt to anyone else; Low: no lower one.

    \b
    Example:
      piquet pitch hand "AS JS 6S 2S KH TD" --players 4
      piquet pitch hand "S:AJ62 H:K D:T" --players 6 --json
    """
    players = rules.players
    info = describe_hand(cards, players)
    console = json_or_console(as_json, info)
    if console is None:
        return
    console.print(f"Hand {info['hand']}   game points {info['game_points']}   {players} players")
    table = Table(title="Each suit as trump (exact, given this hand)", title_justify="left")
    for col in ("trump", "held", "cards", "P(High)", "P(Low)", "P(Jack in play)", "P(Six in play)"):
        table.add_column(col, justify="left" if col in ("trump", "cards") else "right")
    for row in info["suits"]:
        jack = "held" if row["jack_held"] else f"{row['p_jack_in_play']:.3f}"
        six = "held" if row["six_held"] else f"{row['p_six_in_play']:.3f}"
        table.add_row(
            row["suit"],
            str(row["trumps"]),
            row["cards"] or "-",
            f"{row['p_high']:.3f}",
            f"{row['p_low']:.3f}",
            jack,
            six,
        )
    console.print(table)
