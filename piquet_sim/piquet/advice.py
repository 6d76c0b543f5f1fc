"""Piquet's part of a play advice: why the best card (:func:`explain`, from simple rules on the
two cards) and the advice as the player reads it (:func:`advice_view`: the position in one
line, the JSON fields, the value columns). The ranking and the margin are the core's
(``core.game.advice``)."""

from __future__ import annotations

import numpy as np

from ..core.engine.masks import mask_bits
from ..core.game.advice import Explanation, PlayAdvice
from ..core.game.definition import ValueSettings
from . import cards as C
from .actions import CLASSES, FULL, ROLES
from .position import PiquetState

# ---------------------------------------------------------------------- play advice


def _master(card: int, unseen: int) -> bool:
    above = (0xFF << (card & 0x18)) & ~((2 << card) - 1)
    return not unseen & above


def _top_master(hand: int, card: int, unseen: int) -> bool:
    """True when ``card`` is the top of its suit in ``hand`` and no unseen card beats it."""
    holding = hand & (0xFF << (card & 0x18))
    return _master(card, unseen) and holding >> (card + 1) == 0


def _suit(card: int) -> str:
    return C.SUIT_NAMES[card >> 3]


def _guards(hand: int, card: int, unseen: int) -> bool:
    """True when ``card`` is a low card guarding a king (one guard) or a queen (two) that is
    not a master in its suit."""
    holding = hand & (0xFF << (card & 0x18))
    for rank, need in ((6, 2), (5, 3)):
        top = (card & 0x18) | rank
        held = (holding >> top) & 1 and card < top and not _master(top, unseen)
        if held and bin(holding).count("1") <= need:
            return True
    return False


def explain(state: PiquetState, best: int, runner: int | None) -> str:
    """Why ``best`` rather than ``runner`` (the runner-up), in a few words, from simple rules
    on the two cards: taking or ducking the trick, a master cashed or kept, a guard kept, a
    void of his."""
    if runner is None:
        return "the only legal card"
    seat = state.current_player()
    hand = state.hands[seat]
    lead = state.lead
    unseen = FULL & ~(hand | state.played | ((1 << lead) if lead >= 0 else 0))
    cn = C.card_name
    if lead >= 0:
        follows = (best >> 3) == (lead >> 3)

        def wins(c):
            return (c >> 3) == (lead >> 3) and c > lead

        if wins(best) and not wins(runner):
            winners = [c for c in mask_bits(hand) if wins(c)]
            cheapest = best == min(winners)
            return "takes the trick" + (" with the cheapest winner" if cheapest else "")
        if wins(runner) and not wins(best):
            return f"lets the trick go and keeps {cn(runner)}"
        if wins(best) and wins(runner):
            return "wins with the cheaper card" if best < runner else "wins with the higher card"
        if follows:
            return (
                "follows low" if best < runner else f"follows with {cn(best)}, keeping lower cards"
            )
        if _guards(hand, runner, unseen) and not _guards(hand, best, unseen):
            return f"keeps the guard in {_suit(runner)}"
        if _top_master(hand, runner, unseen) and not _top_master(hand, best, unseen):
            return f"keeps the master {cn(runner)}"
        return f"throws from {_suit(best)}"
    if state.voids[1 - seat] & (1 << best):
        return f"he is void in {_suit(best)}: a sure trick"
    if _master(best, unseen) and not _master(runner, unseen):
        return "cashes the master"
    if _master(runner, unseen) and not _master(best, unseen):
        return f"keeps the master {cn(runner)} as an entry"
    if _master(best, unseen):
        return f"cashes the master {cn(best)} first"
    length = bin(hand & (0xFF << (best & 0x18))).count("1")
    if all(length >= bin(hand & (0xFF << (8 * s))).count("1") for s in range(4)):
        return f"leads from the long suit, {_suit(best)}"
    return f"leads {_suit(best)} rather than {_suit(runner)}"


def advice_view(advice: PlayAdvice, settings: ValueSettings | None = None) -> Explanation:
    """The advice as the player reads it: his role, the trick and the card led to him, the
    points so far; each card's net deal points (his minus the other's) with its interval, or
    with the partie's score its partie value first and the net points beside; with sinking
    worlds, whether they change the card."""
    st = advice.state
    seat = advice.seat
    points = [int(p) for p in st.returns()]
    fields = {
        "role": ROLES[seat],
        "hand": C.card_names(st.hands[seat]),
        "trick": st.trick + 1,
        "lead": st.action_to_string(st.lead) if st.lead >= 0 else None,
    }
    after = {"points_so_far": {"you": points[seat], "opponent": points[1 - seat]}}
    opp = ROLES[1 - seat]
    lead = f"{opp} led {fields['lead']}" if fields["lead"] else "you lead"
    pts = after["points_so_far"]
    header = (
        f"You ({fields['role']}) hold {C.format_cards(st.hands[seat])}; trick "
        f"{fields['trick']}, {lead}. Points so far: you {pts['you']:g}, {opp} {pts['opponent']:g}."
    )
    exact = advice.values.exact
    game = settings.game if settings is not None else {}
    net = advice.values.per_card.get("net points")
    footer = []
    if "partie" in game:
        p = game["partie"]
        after["partie"] = dict(p)
        header += (
            f" Partie: you {p['my_score']}, {opp} {p['opp_score']} before deal {p['deal']}; "
            f"cards ranked by {'P(win the partie)' if p['objective'] == 'win' else 'settlement'}."
        )
    if game.get("declarations") == "sinking" and not advice.forced:
        check = sinking_check(advice)
        if check is not None:
            after["sinking"] = check
            footer.append(check["words"])

    def cells(row: dict) -> list[str]:
        lo, hi = row["ci95"]
        if net is not None and "partie" in game:
            win = game["partie"]["objective"] == "win"
            form = "{:.3f}" if win else "{:+.1f}"
            interval = "exact" if exact else f"[{form.format(lo)}, {form.format(hi)}]"
            return [form.format(row["mean"]), interval, f"{row['net_points']['mean']:+.2f}"]
        interval = "exact" if exact else f"[{lo:+.2f}, {hi:+.2f}]"
        return [f"{row['mean']:+.2f}", interval]

    if net is not None and "partie" in game:
        name = "P(win partie)" if game["partie"]["objective"] == "win" else "settlement"
        return Explanation(
            fields,
            header,
            [name, "95% interval", "net points"],
            cells,
            extras=lambda card: {"net_points": net[card].to_dict()},
            after=after,
            footer=footer,
        )
    return Explanation(
        fields, header, ["net points", "95% interval"], cells, after=after, footer=footer
    )


def sinking_check(advice: PlayAdvice) -> dict | None:
    """With sinking worlds: the best card if every declaration was all he held (the worlds
    where he declared all, equally likely, as without the sinking model), the classes he may
    have sunk and whether the worlds where he did change the card. None without such worlds."""
    values = advice.values
    sunk = getattr(values, "sunk", None)
    if sunk is None or values.weights is None:
        return None
    name = advice.state.action_to_string
    truthful = sunk == 0
    share = float(values.weights[~truthful].sum() / values.weights.sum())
    classes = [n for c, n in enumerate(CLASSES) if (sunk >> c & 1).any()]
    what = " or ".join(classes) or "nothing"
    out = {"sunk_weight": share, "sunk_classes": classes}
    if not truthful.any():
        return out | {
            "trusting": None,
            "changes_card": True,
            "words": f"Every world that fits has him sinking ({what}): his declarations cannot "
            "all be what he held.",
        }
    means = {c: float(np.mean(values.samples[c][truthful])) for c in advice.ranking}
    trusting = max(advice.ranking, key=lambda c: (means[c], -c))
    best = advice.best
    out["trusting"] = name(trusting)
    out["changes_card"] = trusting != best and means[trusting] > means[best]
    if out["changes_card"]:
        out["words"] = (
            f"A possible sunk combination ({what}) changes the card: trusting his "
            f"declarations, {name(trusting)} ({means[trusting]:+.2f} against "
            f"{means[best]:+.2f} for {name(best)}); the worlds where he sank carry {share:.0%} "
            "of the weight."
        )
    else:
        out["words"] = (
            f"The worlds where he sank ({what}: {share:.0%} of the weight) do not change the card."
        )
    return out
