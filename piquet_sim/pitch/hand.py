"""What a six-card hand offers as the bidder, suit by suit, before the play: its trumps, the
points it holds for sure and the exact chance of the others (given these six cards, the other
players hold ``6 (n - 1)`` of the 46 unseen cards, uniformly)."""

from __future__ import annotations

from . import cards as C
from . import exact
from .rules import RulesError


def describe_hand(hand: int, players: int = 4) -> dict:
    """Per suit as trump: the trumps held, High (sure with the ace; else the exact chance that
    no higher trump is dealt to the others), Low to the holder (sure with the two; else the
    chance no lower trump is dealt out), the Jack and Six of trumps (held, or the chance they
    are in play), and the hand's game points (all suits). Seat-free: "my" is this hand."""
    if not C.MIN_PLAYERS <= players <= C.MAX_PLAYERS:
        raise RulesError(f"players must be {C.MIN_PLAYERS} to {C.MAX_PLAYERS}, got {players}")
    if C.popcount(hand) != C.HAND_SIZE:
        raise C.CardError(f"a hand needs {C.HAND_SIZE} cards, got {C.popcount(hand)}")
    suits = []
    for s in range(4):
        held = [r for r in range(13) if hand >> (16 * s + r) & 1]
        row = {
            "suit": C.SUITS[s],
            "trumps": len(held),
            "cards": C.format_cards(hand & C.suit_cards(s)),
        }
        if held:
            top, bottom = max(held), min(held)
            row["p_high"] = exact.p_none_to_others(players, 12 - top)
            row["p_low"] = exact.p_none_to_others(players, bottom)
        else:
            row["p_high"] = row["p_low"] = 0.0
        for name, rank in (("jack", C.JACK_RANK), ("six", C.SIX_RANK)):
            held_it = bool(hand >> (16 * s + rank) & 1)
            row[f"{name}_held"] = held_it
            row[f"p_{name}_in_play"] = 1.0 if held_it else 1 - exact.p_none_to_others(players, 1)
        suits.append(row)
    return {
        "hand": C.format_cards(hand),
        "players": players,
        "game_points": C.game_points(hand),
        "suits": suits,
    }
