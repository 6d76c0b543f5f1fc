"""The declaration dialogue as it was spoken: every call and answer of a class, read into bounds
on what each player declared.

At the table elder calls and younger answers, class by class: "Five." "Equal." "Forty-four."
"Not good." A player counts the hidden hand from these words: a call he beat still says what
the caller held ("five cards, making 34" then "not good": the caller's point is exactly that,
the other's better), an "equal" pins a holding, a "good" bounds the answerer's below the call.
This module reads a class's utterances (``ROLE WORDS`` in order, e.g. ``elder five, younger
equal, elder 44, younger not good``) into a :class:`Dialogue` and each player's declared
comparison key into an interval (:meth:`Dialogue.bounds`): the keys of
``kernels/declarations.py`` (point ``length * 128 + pips``; sequence ``length * 8 + top
rank``, ranks 7 8 9 T J Q K A = 0..7; set ``rank`` for a trio, ``8 + rank`` for a quatorze;
0: nothing declared). A dialogue that contradicts itself is a one-line error naming the
utterance. Plain Python: no kernel, so the record is checked before any compilation.

Words a call may use (any case; numbers as digits or words):

* point: ``five``, ``5 cards``, ``point of five``, ``five making 44``, ``5 44``, and after a
  length already called ``44``, ``making 44``;
* sequence: ``tierce``, ``quart``, ``quint``, ``sixieme``, ``septieme``, ``huitieme`` (or ``a
  sequence of N``), with ``major`` or ``to the king`` / ``to K`` / ``king high``; after a length
  already called ``to the king`` alone;
* sets: ``three kings``, ``trio of tens``, ``fourteen aces``, ``quatorze of knaves``, several
  joined by ``and`` (the best counts), ``trio`` or ``quatorze`` alone;
* ``nothing`` / ``none`` / ``no point`` (declared nothing); answers ``good``, ``not good``,
  ``equal``; questions (``how many?``, ``how high?``, ``making?``) say nothing and are skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.engine.errors import InputError

CLASS_NAMES = ("point", "sequence", "sets")
#: A class's winner besides a seat (0 elder, 1 younger): both declared the same, or nobody.
EQUAL, NONE = -2, -1
#: A bound above every key of every class (an unbounded interval's top).
KEY_TOP = 1 << 12
ANSWERS = ("good", "not good", "equal")
_UNITS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
#: Sequence lengths by name (the French names with or without accents, English too).
_SEQUENCES = {
    "tierce": 3,
    "quart": 4,
    "quarte": 4,
    "quint": 5,
    "quinte": 5,
    "sixieme": 6,
    "sixième": 6,
    "septieme": 7,
    "septième": 7,
    "huitieme": 8,
    "huitième": 8,
}
#: Rank indices (7 8 9 T J Q K A = 0..7) by the words a call may name them with.
_RANKS = {
    "ace": 7,
    "aces": 7,
    "a": 7,
    "king": 6,
    "kings": 6,
    "k": 6,
    "queen": 5,
    "queens": 5,
    "q": 5,
    "knave": 4,
    "knaves": 4,
    "jack": 4,
    "jacks": 4,
    "j": 4,
    "ten": 3,
    "tens": 3,
    "t": 3,
    "10": 3,
    "nine": 2,
    "nines": 2,
    "9": 2,
    "eight": 1,
    "eights": 1,
    "8": 1,
    "seven": 0,
    "sevens": 0,
    "7": 0,
}
_SET_RANKS = range(3, 8)  # sets: tens to aces
_FILLER = {"a", "an", "the", "of", "cards", "card", "to", "high", "making", "point", "pips"}


class DialogueError(InputError):
    """A dialogue that does not parse or contradicts itself (one line, naming the words)."""


@dataclass(frozen=True)
class Utterance:
    """One thing said: by ``seat`` (0 elder, 1 younger), a call (``kind`` "call": the key
    interval ``lo``..``hi`` it names; ``length``: a point's or sequence's length when the call
    gave one, so that a later pips or top call completes it), an answer (``kind`` "answer",
    ``answer`` one of :data:`ANSWERS`), as written (``text``, normalised)."""

    seat: int
    kind: str
    text: str
    lo: int = 0
    hi: int = KEY_TOP
    length: int = 0
    answer: str = ""
    top_only: bool = False  # pips (point) or top (sequence) alone: completes an earlier length


@dataclass(frozen=True)
class Dialogue:
    """A class's dialogue: its utterances in order (:func:`parse_dialogue`)."""

    cls: int
    utterances: tuple[Utterance, ...]

    def bounds(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """Each seat's declared key as an interval (elder's, younger's), inclusive: what the
        calls name and the answers imply. DialogueError at the first utterance that leaves a
        seat no key (or answers no call)."""
        iv = [(0, KEY_TOP), (0, KEY_TOP)]
        last: list[tuple[int, int] | None] = [None, None]  # each seat's latest call's interval
        length = [0, 0]
        name = CLASS_NAMES[self.cls]
        for u in self.utterances:
            who = u.seat
            if u.kind == "call":
                lo, hi = u.lo, u.hi
                if u.top_only:
                    if not length[who]:
                        raise DialogueError(
                            f"{name} calls: '{u.text}' completes no length: say the length first"
                        )
                    lo, hi = _complete(self.cls, length[who], u)
                if u.length:
                    length[who] = u.length
                call = (lo, hi)
                last[who] = call
            else:
                other = last[1 - who]
                if other is None:
                    raise DialogueError(f"{name} calls: '{u.text}' answers no call of the other")
                a, b = other
                call = {"good": (0, a - 1), "not good": (b + 1, KEY_TOP), "equal": (a, b)}[u.answer]
                if u.answer == "equal" and self.cls == 2:
                    raise DialogueError(f"{name} calls: '{u.text}': two sets are never equal")
            new = (max(iv[who][0], call[0]), min(iv[who][1], call[1]))
            if new[0] > new[1]:
                raise DialogueError(f"{name} calls: '{u.text}' contradicts what was said before")
            iv[who] = new
        return iv[0], iv[1]

    def text(self) -> str:
        """The dialogue as the record writes it: ``elder five, younger equal, ...``."""
        return ", ".join(u.text for u in self.utterances)


def _complete(cls: int, length: int, u: Utterance) -> tuple[int, int]:
    """The key of a length called earlier completed by pips (point) or top (sequence)."""
    if cls == 0:
        _check_point(length, u.lo, u.text)
        return length * 128 + u.lo, length * 128 + u.lo
    if not length - 1 <= u.lo <= 7:
        raise DialogueError(f"sequence calls: '{u.text}': no sequence of {length} has that top")
    return length * 8 + u.lo, length * 8 + u.lo


def number(word: str) -> int | None:
    """A number from digits or English words (``44``, ``forty-four``, ``five``); None if not."""
    w = word.strip().lower()
    if w.isdigit():
        return int(w)
    if w in _UNITS:
        return _UNITS[w]
    parts = re.split(r"[-\s]+", w)
    if len(parts) == 2 and parts[0] in _TENS and parts[1] in _UNITS and _UNITS[parts[1]] < 10:
        return _TENS[parts[0]] + _UNITS[parts[1]]
    if w in _TENS:
        return _TENS[w]
    return None


def _words(text: str) -> list[str]:
    """Lower-case words, hyphenated numbers kept whole (``forty-four``)."""
    return [w for w in re.split(r"[\s,]+", text.strip().lower().replace("?", " ? ")) if w]


def _point_call(seat: int, words: list[str], text: str) -> Utterance:
    nums = [n for n in (number(w) for w in words if w not in _FILLER) if n is not None]
    explicit_pips = "making" in words or "pips" in words
    rest = [w for w in words if w not in _FILLER and number(w) is None]
    if rest or not nums or len(nums) > 2:
        raise DialogueError(f"point calls: '{text}' is not a point call (e.g. 'five making 44')")
    if len(nums) == 2:
        length, pips = nums
        _check_point(length, pips, text)
        return Utterance(seat, "call", text, length * 128 + pips, length * 128 + pips, length)
    (n,) = nums
    if explicit_pips or n > 8:
        return Utterance(seat, "call", text, n, n, top_only=True)
    if not 1 <= n <= 8:
        raise DialogueError(f"point calls: '{text}': a point is 1 to 8 cards")
    return Utterance(seat, "call", text, n * 128, n * 128 + 127, n)


def _check_point(length: int, pips: int, text: str) -> None:
    if not 1 <= length <= 8:
        raise DialogueError(f"point calls: '{text}': a point is 1 to 8 cards")
    if not 7 <= pips <= 11 * length or pips > 75:
        raise DialogueError(f"point calls: '{text}': {length} card(s) cannot make {pips}")


def _sequence_call(seat: int, words: list[str], text: str) -> Utterance:
    length = 0
    top = None
    rest = []
    i = 0
    while i < len(words):
        w = words[i]
        if w in _SEQUENCES:
            length = _SEQUENCES[w]
        elif w == "sequence" and i + 2 < len(words) and words[i + 1] == "of":
            length = number(words[i + 2]) or 0
            i += 2
        elif w == "major":
            top = 7
        elif w in _RANKS and (i > 0 and words[i - 1] in ("to", "the") or _next(words, i) == "high"):
            top = _RANKS[w]
        elif w in ("to", "high") or w in _FILLER or w == "sequence":
            pass
        elif number(w) is not None and not length:
            length = number(w) or 0
        else:
            rest.append(w)
        i += 1
    if rest or (not length and top is None):
        raise DialogueError(
            f"sequence calls: '{text}' is not a sequence call (e.g. 'quart to the king')"
        )
    if length and not 3 <= length <= 8:
        raise DialogueError(f"sequence calls: '{text}': a sequence is 3 to 8 cards")
    if not length:
        return Utterance(seat, "call", text, top, top, top_only=True)
    if top is None:
        return Utterance(seat, "call", text, length * 8 + length - 1, length * 8 + 7, length)
    if top < length - 1:
        raise DialogueError(f"sequence calls: '{text}': no sequence of {length} has that top")
    return Utterance(seat, "call", text, length * 8 + top, length * 8 + top, length)


def _next(words: list[str], i: int) -> str:
    return words[i + 1] if i + 1 < len(words) else ""


def _sets_call(seat: int, words: list[str], text: str) -> Utterance:
    spans = []  # each set named: its key interval (a rank, or any of that size)
    size = 0
    for w in [*words, "and"]:
        if w in ("three", "trio", "trios", "3"):
            size = 3
        elif w in ("fourteen", "quatorze", "four", "4", "14"):
            size = 4
        elif w in _RANKS and size:
            r = _RANKS[w]
            if r not in _SET_RANKS:
                raise DialogueError(f"sets calls: '{text}': nines, eights and sevens never count")
            key = r if size == 3 else 8 + r
            spans.append((key, key))
            size = 0
        elif w in ("and", "of", "a"):
            if w == "and" and size:  # "trio" or "quatorze" alone: any of that size
                spans.append((3, 7) if size == 3 else (11, 15))
                size = 0
        else:
            raise DialogueError(f"sets calls: '{text}' is not a sets call (e.g. 'three kings')")
    if not spans:
        raise DialogueError(f"sets calls: '{text}' is not a sets call (e.g. 'three kings')")
    # the best set is the key: at least the highest named, at most the highest possible
    return Utterance(seat, "call", text, max(a for a, _ in spans), max(b for _, b in spans))


def utterance(cls: int, seat: int, words_text: str, role_text: str) -> Utterance | None:
    """One utterance of class ``cls`` by ``seat`` (``words_text``: what he said;
    ``role_text``: how the speaker was written, for the normalised text); None for a question."""
    words = _words(words_text)
    text = f"{role_text} {' '.join(words)}".strip()
    if not words:
        raise DialogueError(f"{CLASS_NAMES[cls]} calls: '{role_text}' says nothing")
    if "?" in words or words[0] in ("how", "what"):
        return None
    said = " ".join(words)
    if said in ANSWERS or said in ("not", "no good"):
        return Utterance(seat, "answer", text, answer="not good" if said == "no good" else said)
    if said in ("nothing", "none", "pass") or (words[0] == "no" and len(words) == 2):
        return Utterance(seat, "call", text, 0, 0)
    parse = (_point_call, _sequence_call, _sets_call)[cls]
    return parse(seat, words, text)


def parse_dialogue(cls: int, items, role_of) -> Dialogue:
    """A class's dialogue from text (``"elder five, younger equal, ..."``) or a JSON list of
    such strings (or of ``[ROLE, WORDS]`` pairs). ``role_of(word)``: the seat a speaker word
    names (raising InputError when it names none). DialogueError for words that do not parse
    or a dialogue that contradicts itself."""
    if isinstance(items, str):
        parts = [p for p in items.split(",") if p.strip()]
    elif isinstance(items, list):
        parts = [" ".join(str(x) for x in p) if isinstance(p, list | tuple) else p for p in items]
    else:
        raise DialogueError(f"{CLASS_NAMES[cls]} calls: a list of 'ROLE WORDS' utterances")
    out = []
    for part in parts:
        words = str(part).strip().split(None, 1)
        if not words:
            continue
        seat = role_of(words[0])
        u = utterance(cls, seat, words[1] if len(words) > 1 else "", words[0].lower())
        if u is not None:
            out.append(u)
    dialogue = Dialogue(cls, tuple(out))
    dialogue.bounds()  # a dialogue that contradicts itself is refused here
    return dialogue


_RANK_WORDS = ("seven", "eight", "nine", "ten", "knave", "queen", "king", "ace")
_LENGTH_WORDS = {3: "tierce", 4: "quart", 5: "quint", 6: "sixieme", 7: "septieme", 8: "huitieme"}
_NUMBER_WORDS = {v: k for k, v in _UNITS.items()}


def _call_words(cls: int, key: int, part: str = "all") -> str:
    """A declared key in words: the length alone (``part`` "length"), the rest alone ("top":
    pips or top card) or all of it."""
    if key == 0:
        return "nothing"
    if cls == 0:
        length, pips = key >> 7, key & 127
        return {"length": _NUMBER_WORDS[length], "top": f"making {pips}"}.get(
            part, f"{_NUMBER_WORDS[length]} making {pips}"
        )
    if cls == 1:
        length, top = key >> 3, key & 7
        return {"length": _LENGTH_WORDS[length], "top": f"to the {_RANK_WORDS[top]}"}.get(
            part, f"{_LENGTH_WORDS[length]} to the {_RANK_WORDS[top]}"
        )
    size = "three" if key < 8 else "fourteen"
    return f"{size} {_RANK_WORDS[key & 7]}s"


def spoken_key(cls: int, key: int) -> str:
    """A declared key in the words of a call (``five making 44``, ``quart to the king``,
    ``three kings``, ``nothing``)."""
    return _call_words(cls, key)


def spoken(cls: int, elder: int, younger: int) -> str:
    """The dialogue of class ``cls`` for two declared keys, as the laws have it: elder calls
    (the length first where there is one), younger answers good, not good or equal; after an
    equal length elder names the pips or the top card and younger answers again; a "not good"
    is followed by younger's own call. Keys of ``kernels/declarations.py`` (0: nothing)."""
    if elder == 0 and younger == 0:
        return "elder nothing, younger nothing"
    if elder == 0:
        return f"elder nothing, younger {_call_words(cls, younger)}"
    out = []

    def answer(mine: tuple[int, int]) -> str:
        if younger < mine[0]:
            return "good"
        return "not good" if younger > mine[1] else "equal"

    if cls == 2:
        out = [f"elder {_call_words(cls, elder)}", f"younger {answer((elder, elder))}"]
    else:
        width = 127 if cls == 0 else 7
        base = elder & ~width
        out = [f"elder {_call_words(cls, elder, 'length')}"]
        said = answer((base, base + width))
        out.append(f"younger {said}")
        if said == "equal":
            out += [f"elder {_call_words(cls, elder, 'top')}", f"younger {answer((elder, elder))}"]
    if out[-1] == "younger not good":
        out.append(f"younger {_call_words(cls, younger)}")
    return ", ".join(out)


def seat_winner(elder: tuple[int, int], younger: tuple[int, int]) -> int | None:
    """The seat the two declared-key intervals give a class to (``EQUAL``, ``NONE``),
    None when they overlap."""
    if elder[0] > younger[1]:
        return 0
    if younger[0] > elder[1]:
        return 1
    if elder[0] == elder[1] == younger[0] == younger[1]:
        return NONE if elder[0] == 0 else EQUAL
    return None


def winner_of(own: tuple[int, int], his: tuple[int, int]) -> str | None:
    """Who the bounds say scored the class, from the player's side: ``"mine"``, ``"his"``,
    ``"equal"``, ``"none"``; None when they overlap (the dialogue does not settle it)."""
    if own[0] > his[1]:
        return "mine"
    if his[0] > own[1]:
        return "his"
    if own[0] == own[1] == his[0] == his[1]:
        return "none" if own[0] == 0 else "equal"
    return None


def outcome_bounds(result: str, own_key: int) -> tuple[int, int]:
    """The opponent's declared key as the class's outcome bounds it, given the player's own
    declared key: he scored (above it), the player scored (below), equal (the same), none
    (nothing)."""
    return {
        "his": (own_key + 1, KEY_TOP),
        "mine": (0, own_key - 1),
        "equal": (own_key, own_key),
        "none": (0, 0),
    }[result]


def intersect(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int] | None:
    """The common part of two key intervals, None when they do not meet."""
    lo, hi = max(a[0], b[0]), min(a[1], b[1])
    return (lo, hi) if lo <= hi else None


__all__ = [
    "ANSWERS",
    "EQUAL",
    "NONE",
    "KEY_TOP",
    "Dialogue",
    "DialogueError",
    "Utterance",
    "intersect",
    "number",
    "outcome_bounds",
    "parse_dialogue",
    "seat_winner",
    "spoken",
    "spoken_key",
    "winner_of",
]
