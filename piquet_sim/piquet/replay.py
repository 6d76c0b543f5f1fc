"""A Piquet record checked against the rules: with every hand the deal is replayed card by card
through a :class:`~.position.PiquetState` (:func:`replay`); with only the player's, his
exchange, declarations and tricks are checked and each of his play positions is rebuilt as
``play`` rebuilds one (:func:`check_one_hand`). Every fault is a one-line RecordError naming
its place."""

from __future__ import annotations

from ..core.engine.errors import InputError
from ..core.engine.masks import mask_bits
from ..core.game import record as R
from . import cards as C
from .actions import (
    CLASSES,
    DECLARE,
    END,
    LESSER,
    ROLES,
    SINK,
    _class_keys,
    decl_action,
    trick_winner,
)
from .description import ClassOutcome, description_of, description_view, own_declaration
from .dialogue import intersect, outcome_bounds, spoken_key
from .kernels import layouts as L
from .position import PiquetState
from .record import COURT, EQUAL, FULL, NONE, PiquetRecord
from .rules import DEFAULT_RULES, Rules

_err = R.record_error

# ---------------------------------------------------------------------- checking


def _names(mask: int) -> str:
    return C.format_cards(mask)


def _check_cards_once(rec: PiquetRecord) -> None:
    """Every card in at most one place (both hands, the talon, your draws and left cards)."""
    seen: dict[int, str] = {}

    def place(cards, where):
        for c in cards:
            if c in seen and seen[c] != where:
                raise R.RecordError(f"{C.card_name(c)} appears twice: in {seen[c]} and in {where}")
            seen[c] = where

    for s, role in enumerate(ROLES):
        if rec.dealt[s] is not None:
            place(mask_bits(rec.dealt[s]), f"{role}'s hand ({rec.place(f'hand:{role}')})")
    if rec.talon is not None:
        place(rec.talon, f"the talon ({rec.place('talon')})")
    elif rec.full:
        return
    else:
        s = rec.player
        role = ROLES[s]
        place(rec.took[s] or [], f"{role}'s draws ({rec.place(f'took:{role}')})")
        place(rec.left or [], f"the cards left ({rec.place('left')})")


def _talon_of(rec: PiquetRecord) -> list[int]:
    """The talon of a record with both hands: given, or both draws and the rest (the cards
    nobody took in ascending order: their order changes nothing but what was seen)."""
    if rec.talon is not None:
        return rec.talon
    if rec.took[0] is None or rec.took[1] is None:
        raise R.RecordError(
            "both hands are given: give the talon too ('talon: CARDS', 8 cards top first) or "
            "both players' drawn cards"
        )
    rest = mask_bits(
        FULL & ~(rec.dealt[0] | rec.dealt[1] | C.cards_to_mask(rec.took[0] + rec.took[1]))
    )
    talon = rec.took[0] + rec.took[1] + rest
    if len(talon) != 8:
        raise R.RecordError("the drawn cards and the hands do not leave an 8-card talon")
    return talon


def replay(rec: PiquetRecord, rules: Rules = DEFAULT_RULES, seed: int = 1):
    """A record with every hand known, replayed: (the states before each action, with the
    action and its place; the final state). RecordError names the first illegal step."""
    if not rec.full:
        raise ValueError("replay needs every hand")
    _check_cards_once(rec)
    talon = _talon_of(rec)
    used = rec.dealt[0] | rec.dealt[1] | C.cards_to_mask(talon)
    if used != FULL:
        raise R.RecordError(f"{_names(FULL & ~used)} is in no hand and not in the talon")
    replayed = R.Replay.of(
        lambda: PiquetState.from_hands(rec.dealt[0], rec.dealt[1], talon, rules, seed=seed)
    )
    state, act = replayed.state, replayed.act

    for s, role in enumerate(ROLES):
        key = f"discard:{role}"
        if rec.discard[s] is None:
            raise R.RecordError(
                f"every hand is known: give {role}'s discard ('{role} discard: CARDS')"
            )
        place = rec.place(key)
        bad = rec.discard[s] & ~state.hands[s]
        if bad:
            raise _err(place, f"{role} does not hold {_names(bad)}")
        for c in sorted(mask_bits(rec.discard[s])):
            act(c, place)
        act(END, place)
        first = 0 if s == 0 else state.took[0]
        drawn = list(state.talon[first : first + state.took[s]])
        if rec.took[s] is not None and rec.took[s] != drawn:
            raise _err(
                rec.place(f"took:{role}"),
                f"{role} drew {' '.join(map(C.card_name, drawn))} from the talon, not "
                f"{' '.join(map(C.card_name, rec.took[s]))} (the talon is read in the order "
                "drawn: elder's cards first, from the top)",
            )
        if rec.took_n[s] is not None and rec.took_n[s] != state.took[s]:
            raise _err(
                rec.place(f"took:{role}"),
                f"{role} discarded {state.took[s]} card(s), so took as many, not {rec.took_n[s]}",
            )
        rec.took[s], rec.took_n[s] = drawn, state.took[s]
    for s in (0, 1):
        if (s in rec.blanche) != bool(state.cb[s]):
            raise _err(
                rec.place("carte_blanche"),
                f"{ROLES[s]}'s dealt hand is {'' if state.cb[s] else 'not '}carte blanche",
            )
    for s, role in enumerate(ROLES):
        full, lesser = _class_keys(state.hands[s])
        for c, name in enumerate(CLASSES):
            if rec.kinds[s][c] == SINK and not full[c]:
                rec.kinds[s][c] = DECLARE  # nothing to sink: the same as declaring
            if rec.kinds[s][c] == LESSER and not lesser[c]:
                raise _err(
                    rec.place(f"declares:{role}"), f"{role} holds no lesser {name} to declare"
                )
    for c in range(len(CLASSES)):
        for s, role in enumerate(ROLES):
            act(decl_action(c, rec.kinds[s][c]), rec.place(f"declares:{role}"))
    _check_outcomes(rec, state)
    if rec.calls:
        state.told = {rec.player: _told(rec, state)}
    if state.rules.carte_rouge:
        e, y, _ = state.declaration_points()
        for s, pts in enumerate((e, y)):
            if (s in rec.rouge) != (pts[4] > 0):
                raise _err(
                    rec.place("carte_rouge"),
                    f"{ROLES[s]} {'scores' if pts[4] else 'does not score'} carte rouge",
                )
    elif rec.rouge:
        raise _err(rec.place("carte_rouge"), "carte rouge is off (--carte-rouge turns it on)")
    for i, (a, b) in enumerate(rec.tricks, 1):
        place = f"{rec.place('tricks')}, trick {i}"
        if state.is_terminal():
            raise _err(place, "twelve tricks are played: the deal is over")
        act(a, place)
        act(b, place)
    return replayed.steps, state


def _check_outcomes(rec: PiquetRecord, state: PiquetState) -> None:
    v = state.view(rec.player)
    for c, name in enumerate(CLASSES):
        out = rec.outcomes.get(c)
        if out is None:
            continue
        cv = v.classes[c]
        winner = {0: NONE, 1: 0, 2: 1, 3: EQUAL}[cv.winner]
        if out.winner != winner:
            said = {EQUAL: "equal", NONE: "none"}.get(out.winner) or ROLES[out.winner]
            real = {EQUAL: "the two were equal", NONE: "nobody scored it"}.get(winner)
            raise _err(
                rec.place(f"outcome:{name}"),
                f"{real or ROLES[winner] + ' scored it'}, not {said}",
            )
        if out.cards and winner == 1 - rec.player and out.cards != cv.shown:
            raise _err(
                rec.place(f"outcome:{name}"),
                f"{ROLES[winner]} showed {_names(cv.shown)}, not {_names(out.cards)}",
            )


def _told(rec: PiquetRecord, state: PiquetState) -> tuple:
    """What the record's dialogue told its player of the other's declarations, each seat's
    calls checked against what he declared (RecordError at the calls): per class None (no
    dialogue) or (the other's declared key as the calls and the outcome bound it, the cards
    shown to the player), as ``PiquetState.told`` holds it."""
    s, o = rec.player, 1 - rec.player
    view = state.view(s)
    out = []
    for c, name in enumerate(CLASSES):
        dialogue = rec.calls.get(c)
        if dialogue is None:
            out.append(None)
            continue
        bounds = dialogue.bounds()
        keys = [state._declared_key(x, c) for x in (0, 1)]
        for x, role in enumerate(ROLES):
            lo, hi = bounds[x]
            if not lo <= keys[x] <= hi:
                raise _err(
                    rec.place(f"calls:{name}"),
                    f"{role} declared {spoken_key(c, keys[x])}, not what his calls say (say "
                    f"'{role} declares: sink {name}' or 'lesser {name}' if he declared less)",
                )
        cv = view.classes[c]
        result = {L.WIN_NONE: "none", L.WIN_EQUAL: "equal", L.WIN_ELDER + s: "mine"}.get(
            cv.winner, "his"
        )
        told = intersect(bounds[o], outcome_bounds(result, keys[s]))
        if result == "his":
            told = (keys[o], keys[o])
        out.append((told, cv.shown))
    return tuple(out)


def check_one_hand(rec: PiquetRecord, rules: Rules) -> list[tuple[int, int | None, int, int]]:
    """Check a record with only the player's hand: the exchange, the declarations, the tricks,
    and each of his play positions as ``piquet play`` checks one
    (``position.description_view``). Returns his play decisions: (trick, the card led to him
    or None, his card, his hand before it)."""
    s, o = rec.player, 1 - rec.player
    me, him = ROLES[s], ROLES[o]
    if rec.talon is not None:
        raise _err(
            rec.place("talon"),
            f"the whole talon goes with both hands; give '{him}: CARDS' "
            "too, or only what you saw ('took', 'left')",
        )
    _check_cards_once(rec)
    dealt = rec.dealt[s]
    if rec.discard[s] is None:
        raise R.RecordError(f"give your discard: '{me} discard: CARDS' ('-' for none)")
    disc = rec.discard[s]
    if disc & ~dealt:
        raise _err(rec.place(f"discard:{me}"), f"you were not dealt {_names(disc & ~dealt)}")
    n = C.popcount(disc)
    if rec.took[s] is None:
        raise R.RecordError(f"give the cards you drew: '{me} took: CARDS' (in talon order)")
    if len(rec.took[s]) != n:
        raise _err(
            rec.place(f"took:{me}"), f"you discarded {n} card(s) but took {len(rec.took[s])}"
        )
    if rec.took_n[o] is None:
        if rec.discard[o] is not None:
            rec.took_n[o] = C.popcount(rec.discard[o])
        else:
            raise R.RecordError(f"say how many cards {him} took: '{him} took: N'")
    k, y = (n, rec.took_n[o]) if s == 0 else (rec.took_n[o], n)
    if not 1 <= k <= 5:
        raise _err(
            rec.place(f"took:{ROLES[0]}" if s == 1 else f"discard:{me}"),
            f"elder exchanges 1 to 5 cards, not {k}",
        )
    lo = 1 if rules.younger_must_exchange else 0
    if not lo <= y <= 8 - k:
        raise _err(
            rec.place(f"took:{ROLES[1]}" if s == 0 else f"discard:{me}"),
            f"younger exchanges {lo} to {8 - k} cards after elder's {k}, not {y}",
        )
    if rec.left is not None:
        want = 5 - k if s == 0 else 8 - k - y
        if len(rec.left) != want:
            raise _err(rec.place("left"), f"{want} talon card(s) were left, not {len(rec.left)}")
    if (s in rec.blanche) != ((dealt & COURT) == 0):
        raise _err(
            rec.place("carte_blanche"),
            f"your dealt hand is {'' if (dealt & COURT) == 0 else 'not '}carte blanche",
        )
    held = (dealt & ~disc) | C.cards_to_mask(rec.took[s])
    full, lesser = _class_keys(held)
    for c, dialogue in rec.calls.items():  # a kind not said follows the player's calls
        if c not in rec.said:
            told = ClassOutcome(None, None, 0, dialogue.bounds())
            try:
                rec.kinds[s][c] = own_declaration(held, c, told, full, lesser, s)[0]
            except InputError as err:
                raise _err(rec.place(f"calls:{CLASSES[c]}"), str(err)) from None
    for c, name in enumerate(CLASSES):
        kind = rec.kinds[s][c]
        if kind == SINK and not full[c]:
            rec.kinds[s][c] = DECLARE  # nothing to sink: the same as declaring
        if kind == LESSER and not lesser[c]:
            raise _err(rec.place(f"declares:{me}"), f"you hold no lesser {name} to declare")
    if rec.tricks:
        for c, name in enumerate(CLASSES):
            if c not in rec.outcomes:
                raise R.RecordError(
                    f"say who scored the {name}: '{name}: elder | younger CARDS | equal | none'"
                )
            if rec.outcomes[c].winner == o and not rec.outcomes[c].cards:
                raise _err(
                    rec.place(f"outcome:{name}"),
                    f"{him} scored it: give the cards he showed ('{name}: {him} CARDS')",
                )
    known = dealt | C.cards_to_mask(rec.took[s]) | C.cards_to_mask(rec.left or [])
    hand = held
    leader = 0
    gone = 0
    points = []
    place = rec.place("tricks")
    for i, (a, b) in enumerate(rec.tricks, 1):
        mine, his = (a, b) if leader == s else (b, a)
        for card in (a, b):
            if (gone >> card) & 1:
                raise _err(place, f"trick {i}: {C.card_name(card)} was played before")
        if not (hand >> mine) & 1:
            raise _err(place, f"trick {i}: you ({me}) do not hold {C.card_name(mine)}")
        if (known >> his) & 1 and not (his in (rec.left or []) and s == 0):
            raise _err(place, f"trick {i}: {him} cannot hold {C.card_name(his)} (you saw it)")
        if leader != s:
            suit = hand & (0xFF << (a & 0x18))
            if (b >> 3) != (a >> 3) and suit:
                raise _err(
                    place,
                    f"trick {i}: a revoke: you played {C.card_name(b)} to "
                    f"{C.card_name(a)} holding {_names(suit)}",
                )
        points.append((i, None if leader == s else a, mine, hand))
        hand &= ~(1 << mine)
        gone |= (1 << a) | (1 << b)
        leader = trick_winner(leader, a, b)
    for i, lead, _, hand_now in points:
        try:
            description_view(description_of(rec, i - 1, lead, hand_now), rules)
        except InputError as err:
            head = str(err).split(":", 1)[0]
            if head in CLASSES:  # a fault of the class's line, found here
                raise _err(
                    rec.place(f"outcome:{head}"), str(err).split(":", 1)[1].strip()
                ) from None
            raise _err(place, f"trick {i}: {err}") from None
    return points


def check_record(rec: PiquetRecord, rules: Rules = DEFAULT_RULES) -> None:
    """Check a record against the rules (RecordError naming the place): a card twice, an
    impossible exchange, declarations the hand cannot make, outcomes that do not follow, a
    revoke, a card nobody could hold. With every hand known the deal is replayed."""
    if rec.full:
        replay(rec, rules)
    else:
        check_one_hand(rec, rules)
