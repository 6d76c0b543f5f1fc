"""Build the expert-position set (``tests/data/expert_positions.json``): Piquet play positions
with the card a player who reasons like an expert plays, and why.

Three kinds, each built from deals of the project's own players (the default deciders) and
kept only when the expert's card follows from reasoning that needs no search of ours:

* ``count``: the player heard the whole declaration dialogue (``dialogue.spoken``: elder calls,
  younger answers, lengths before pips and tops). Counting his hand from the calls and the play,
  the opponent holds one of a few hands (at most ``--worlds``), and the same cards are best
  double-dummy in every one of them: whichever he holds, an expert who counts plays one of them.
  Kept only when the calls matter (without them some hand he may hold makes another card best).
* ``partie``: the sixth deal of a Rubicon partie at trick 11, the opponent's last two cards
  counted (the calls leave one hand). The two tricks are played out by hand (plain Python: the
  points of each trick, the cards) and the partie settled by the Rubicon rule; the expert plays
  the card of the highest expected settlement, kept when it is not the card that scores the
  most deal points.
* ``cards``: two cards are worth the same points in every world the player counts, and one of
  them wins the cards (seven tricks) where the other may not: with the points equal, an expert
  takes the certain cards. The cards are counted by playing each line out double-dummy.

Usage: python scripts/expert_positions.py [--seed 1] [--deals 400] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
from itertools import product
from pathlib import Path

import numpy as np

from piquet_sim.piquet import cards as C
from piquet_sim.piquet.card_values import card_values, declared_worlds, line_outcomes
from piquet_sim.piquet.codec import CODEC
from piquet_sim.piquet.deciders import DdPlay
from piquet_sim.piquet.definition import played_to, position_of
from piquet_sim.piquet.dialogue import spoken
from piquet_sim.piquet.position import PiquetState
from piquet_sim.piquet.reference.endings import last_two_tricks
from piquet_sim.piquet.reference.partie import settle
from piquet_sim.piquet.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
CLASSES = ("point", "sequence", "sets")


def history(state: PiquetState, calls: bool) -> str:
    """The player's history of ``state`` in the record grammar (one line), with the whole
    declaration dialogue when ``calls``."""
    seat = state.current_player()
    rec = CODEC.from_state(state, seat, every_hand=False)
    lines = [
        line
        for line in CODEC.text(rec).splitlines()
        if not line.startswith(("game:", "player:", "elder:", "younger:"))
    ]
    if calls:
        for c, name in enumerate(CLASSES):
            keys = [state._declared_key(x, c) for x in (0, 1)]
            lines.append(f"{name} calls: {spoken(c, *keys)}")
    return "; ".join(lines)


def told(state: PiquetState, calls: bool) -> PiquetState:
    """The position as ``play`` rebuilds it from the player's history."""
    seat = state.current_player()
    rec = CODEC.parse(history(state, calls), player=seat, hand=state.hands[seat])
    return position_of(rec, Rules(), seed=1)


def best_cards(state: PiquetState) -> tuple[list[int], dict]:
    """The cards of the highest exact value on the true deal, and every card's value."""
    vals = {c: v.mean for c, v in DdPlay().values(state).values.items()}
    top = max(vals.values())
    return sorted(c for c, v in vals.items() if v == top), vals


def best_in_world(state: PiquetState, hand: int) -> set[int]:
    """The best cards double-dummy when the opponent holds ``hand`` now."""
    world = state.clone()
    o = 1 - state.current_player()
    world.hands[o] = hand
    world._legal = None
    return set(best_cards(world)[0])


def entry(kind: str, state: PiquetState, calls: bool, expert, reasoning: str, **more) -> dict:
    seat = state.current_player()
    return {
        "id": f"{kind}-{more.pop('tag')}",
        "kind": kind,
        "hand": C.format_cards(state.hands[seat]),
        "seat": ("elder", "younger")[seat],
        "history": history(state, calls),
        "options": more.pop("options", []),
        "expert": [C.card_name(c) for c in expert],
        "reasoning": reasoning,
        "source": "built by hand from deals of the project's players (scripts/expert_positions.py)",
        **more,
    }


def count_position(state: PiquetState, max_worlds: int) -> dict | None:
    """A ``count`` position (module docstring), or None."""
    seat = state.current_player()
    if len(state.legal_actions()) < 2:
        return None
    with_calls = declared_worlds(told(state, True), seat, 10, 1, 10**6)["hands"]
    if not 1 <= len(with_calls) <= max_worlds:
        return None
    common = set.intersection(*(best_in_world(state, h) for h in with_calls))
    if not common or len(common) == len(state.legal_actions()):
        return None
    without = declared_worlds(told(state, False), seat, 10, 1, 10**6)["hands"]
    if not any(not (best_in_world(state, h) & common) for h in without[:200]):
        return None
    held = " or ".join(C.format_cards(h) for h in with_calls[:3])
    words = {
        name: spoken(c, *(state._declared_key(x, c) for x in (0, 1)))
        for c, name in enumerate(CLASSES)
    }
    why = (
        f"Counting from the calls ({'; '.join(f'{k}: {v}' for k, v in words.items())}) and "
        f"the cards played, he holds {held}{' ...' if len(with_calls) > 3 else ''} now; with "
        f"any of these, {' or '.join(C.card_name(c) for c in sorted(common))} is best. Without "
        f"the calls he might hold {len(without)} hands, some of which make another card best."
    )
    return entry(
        "count",
        state,
        True,
        sorted(common),
        why,
        tag=f"{state.key}",
        worlds_with_calls=len(with_calls),
        worlds_without=len(without),
    )


def settlement(mine: int, his: int) -> float:
    """The Rubicon settlement of a finished partie, the first player's (negative: he pays)."""
    if mine == his:
        return 0.0
    return float(settle(mine, his) if mine > his else -settle(his, mine))


def partie_position(state: PiquetState, scores) -> dict | None:
    """A ``partie`` position (module docstring) at one of ``scores``, or None."""
    seat, o = state.current_player(), 1 - state.current_player()
    if state.trick != 10 or state.lead >= 0:
        return None
    worlds = declared_worlds(told(state, True), seat, 10, 1, 10**6)["hands"]
    if len(worlds) != 1:
        return None
    hands = [None, None]
    hands[seat], hands[o] = C.mask_to_cards(state.hands[seat]), C.mask_to_cards(worlds[0])
    base = state.returns()
    won = [state.et, state.trick - state.et]
    outcome = {}
    for card in state.legal_actions():
        pts = last_two_tricks(hands, seat, card, won)
        outcome[card] = (base[seat] + pts[seat], base[o] + pts[o])
    by_net = max(outcome, key=lambda c: (outcome[c][0] - outcome[c][1], -c))
    for me, him in scores:
        value = {c: settlement(me + a, him + b) for c, (a, b) in outcome.items()}
        top = max(value.values())
        best = sorted(c for c in value if value[c] == top)
        if by_net in best or any(me + a == him + b for a, b in outcome.values()):
            continue
        words = "; ".join(
            f"{C.card_name(c)}: deal {a}-{b}, partie {me + a}-{him + b}, settlement {value[c]:+.0f}"
            for c, (a, b) in sorted(outcome.items())
        )
        why = (
            f"The sixth deal at {me}:{him}; his last two cards are counted "
            f"({C.format_cards(worlds[0])}). Played out: {words}. "
            f"{C.card_name(by_net)} scores the most deal points, but "
            f"{' or '.join(C.card_name(c) for c in best)} settles the partie best."
        )
        return entry(
            "partie",
            state,
            True,
            best,
            why,
            tag=f"{state.key}-{me}-{him}",
            options=["--score", f"{me}:{him}", "--deal", "6", "--objective", "settlement"],
        )
    return None


def cards_position(state: PiquetState) -> dict | None:
    """A ``cards`` position (module docstring), or None."""
    seat = state.current_player()
    pos = told(state, True)
    values = card_values(pos, worlds=50, exact_limit=3000)
    if not values.exact or len(state.legal_actions()) < 2:
        return None
    top = max(v.mean for v in values.values.values())
    tied = [c for c in pos.legal_actions() if values.values[c].mean == top]
    distinct = {tuple(values.samples[c]) for c in tied}
    if len(tied) < 2 or len(distinct) < 2:
        return None
    won = {}
    for c in tied:
        lines = line_outcomes(pos, seat, values.hands, c, values.raw[c])
        won[c] = float(np.mean(lines[:, 2] >= 7))
    sure = [c for c in tied if won[c] == 1.0]
    if not sure or all(won[c] == 1.0 for c in tied):
        return None
    why = (
        f"{', '.join(C.card_name(c) for c in tied)} are worth the same points "
        f"({top:+.2f} on average over the {values.worlds} hands he may hold); "
        f"{' or '.join(C.card_name(c) for c in sure)} wins the cards in every one of them, "
        + ", ".join(f"{C.card_name(c)} in {won[c]:.0%}" for c in tied if c not in sure)
        + ": with the points equal, take the certain cards."
    )
    return entry("cards", state, True, sure, why, tag=f"{state.key}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--count", type=int, default=12, help="count positions wanted")
    ap.add_argument("--partie", type=int, default=6, help="partie positions wanted")
    ap.add_argument("--cards", type=int, default=6, help="cards positions wanted")
    ap.add_argument("--worlds", type=int, default=6, help="most hands a count may leave")
    ap.add_argument("--out", type=Path, default=ROOT / "tests" / "data" / "expert_positions.json")
    args = ap.parse_args()
    want = {"count": args.count, "partie": args.partie, "cards": args.cards}
    found: dict[str, list] = {k: [] for k in want}
    scores = [(me, him) for me, him in product((60, 85, 92, 97, 130), (95, 104, 121, 160))]
    rng = np.random.default_rng(args.seed)
    for index in range(args.deals):
        if all(len(found[k]) >= n for k, n in want.items()):
            break
        tricks = int(rng.integers(3, 10))
        state = played_to(args.seed, index, tricks)
        if any(state.cb):
            continue
        if len(found["count"]) < want["count"] and (p := count_position(state, args.worlds)):
            found["count"].append(p)
        if len(found["cards"]) < want["cards"] and (p := cards_position(state)):
            found["cards"].append(p)
        if len(found["partie"]) < want["partie"]:
            late = played_to(args.seed, index, 10)
            if p := partie_position(late, scores[index % len(scores) :] + scores):
                found["partie"].append(p)
        print(index, {k: len(v) for k, v in found.items()}, flush=True)
    positions = [p for k in want for p in found[k]]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"positions": positions}, indent=1) + "\n")
    print(f"{len(positions)} positions -> {args.out}")


if __name__ == "__main__":
    main()
