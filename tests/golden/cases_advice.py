"""Golden outputs of the player's commands, ``play`` and ``review``, of all three games, as JSON
and as the text a user reads: the help examples and the example records under
``docs/examples/`` at fixed seeds, so that moving the plumbing below them into the core keeps
every number and every line. Times are dropped (JSON keys in ``cases.VOLATILE``; ``12.3 s`` in
text). Reviews run ``--quick`` with a time budget far beyond what they use, so that the worlds
solved do not depend on the machine's speed. Golden files: ``tests/golden/<game>/``."""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from .cases import run_cli

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
#: History files of the ``play --history-json`` cases.
INPUTS = Path(__file__).resolve().parent / "inputs"
#: A time budget no quick review reaches: the worlds solved are the settings' own.
UNBOUNDED = "100000"

PIQUET_PLAY = (
    "play",
    "QS JH 9H 8H 7H AD QD TD",
    "--younger",
    "--history",
    "discard: 7S 8S 7D 8C; took: TD QS 7H AS; talon: -; elder took: 4; "
    "point: his KC QC JC TC 9C; sequence: his KC QC JC TC 9C; sets: mine; "
    "tricks: 9C-AC AS-TS KS-JS AH-TH",
)
PIQUET_PLAY_JSON = (
    "play",
    "QS AH JH 9H 8H 7H AD QD TD",
    "--younger",
    "--history-json",
    str(INPUTS / "piquet-history.json"),
)
PILOTTA_PLAY = (
    "pilotta",
    "play",
    "JS AH JH QD 9C",
    "--seat",
    "N",
    "--history",
    "dealer: E; auction: S:80C W:pass N:pass E:90D S:100C W:pass N:pass E:pass; "
    "tricks: JC 7C KC 8S, AS 7S KS 9S, 7H 8H TH 9H",
)
PILOTTA_PLAY_JSON = (
    "pilotta",
    "play",
    "9S 7S 9H AD 9D",
    "--seat",
    "S",
    "--history-json",
    str(INPUTS / "pilotta-history.json"),
    "--worlds",
    "60",
    "--seed",
    "3",
)
PITCH_PLAY = (
    "pitch",
    "play",
    "TH 9D TC 2C",
    "--seat",
    "1",
    "--history",
    "auction: pass 3 pass pass; tricks: AC 7C 4C KC / 7D QD QC JD / 3H 6H",
    "--max-seconds",
    UNBOUNDED,
)
PITCH_PLAY_JSON = (
    "pitch",
    "play",
    "AH 9H 2H AD TD KC",
    "--seat",
    "0",
    "--history-json",
    '{"auction": [3, "pass", "pass", "pass"], "tricks": []}',
    "--worlds",
    "40",
    "--max-seconds",
    UNBOUNDED,
    "--seed",
    "2",
)


def _review(game: tuple[str, ...], record: str, *more: str) -> tuple[str, ...]:
    return (*game, "review", str(EXAMPLES / record), "--quick", *more)


PIQUET_REVIEW = _review((), "piquet-deal.txt")
PIQUET_REVIEW_ONE_HAND = _review((), "piquet-deal-younger.txt", "--seed", "2")
PIQUET_REVIEW_JSON_RECORD = _review((), "piquet-deal.json", "--player", "younger")
PILOTTA_REVIEW = _review(("pilotta",), "pilotta-round.txt", "--max-seconds", UNBOUNDED)
PILOTTA_REVIEW_JSON_RECORD = _review(
    ("pilotta",), "pilotta-round.json", "--player", "E", "--max-seconds", UNBOUNDED
)
PITCH_REVIEW = _review(("pitch",), "pitch-round.txt")
PITCH_REVIEW_JSON_RECORD = _review(("pitch",), "pitch-round.json", "--player", "1")

#: Seconds in text output ("14.92 s", "in 3.1 s.").
_SECONDS = re.compile(r"\d+(\.\d+)? s\b")


def run_cli_text(*args: str) -> dict:
    """``piquet ARGS`` in process, as piped (80 columns); its stdout as lines, times replaced
    by ``T``."""
    from piquet_sim.cli import main

    out, err = io.StringIO(), io.StringIO()
    code = 0
    with redirect_stdout(out), redirect_stderr(err):
        try:
            main(list(args))
        except SystemExit as exc:
            code = exc.code
    if code != 0:
        raise AssertionError(f"piquet {' '.join(args)} exited {code}: {err.getvalue()}")
    return {"lines": [_SECONDS.sub("T s", line) for line in out.getvalue().splitlines()]}


def _json(args: tuple[str, ...]) -> Callable[[], dict]:
    return lambda: run_cli(*args, "--json")


def _text(args: tuple[str, ...]) -> Callable[[], dict]:
    return lambda: run_cli_text(*args)


def cases_for(game: str) -> dict[str, Callable[[], dict]]:
    """The play and review cases of one game, by name."""
    plays = {
        "piquet": (PIQUET_PLAY, PIQUET_PLAY_JSON),
        "pilotta": (PILOTTA_PLAY, PILOTTA_PLAY_JSON),
        "pitch": (PITCH_PLAY, PITCH_PLAY_JSON),
    }[game]
    reviews = {
        "piquet": (PIQUET_REVIEW, PIQUET_REVIEW_ONE_HAND, PIQUET_REVIEW_JSON_RECORD),
        "pilotta": (PILOTTA_REVIEW, PILOTTA_REVIEW_JSON_RECORD),
        "pitch": (PITCH_REVIEW, PITCH_REVIEW_JSON_RECORD),
    }[game]
    out: dict[str, Callable[[], dict]] = {
        "play_example": _json(plays[0]),
        "play_example_text": _text(plays[0]),
        "play_history_json": _json(plays[1]),
        "play_history_json_text": _text(plays[1]),
        "review_example": _json(reviews[0]),
        "review_example_text": _text(reviews[0]),
    }
    for i, args in enumerate(reviews[1:], 1):
        out[f"review_record_{i}"] = _json(args)
    return out
