"""Review a played deal, for every game: each of one player's decisions with what it cost.

A game turns its deal record into a list of :class:`Task` (one per decision of the reviewed
player: what he did, and a function that measures it), and this module runs them
(:func:`run_review`), sums the costs by phase and renders the :class:`Review` as text, JSON or a
self-contained HTML page that shows the deal trick by trick with the costs.

What a decision's row holds (:class:`DecisionReview`), in the game's unit (deal points for the
reviewed player: his minus his opponents'):

* ``done``: what the player did; ``best``: what the advisor recommends with what the player
  could know (worlds consistent with what he saw);
* ``cost``: the advisor's best value minus the value of what he did, an :class:`Estimate` with
  its 95% interval (paired on the same worlds where the game can; 0 when he did the advised
  thing); ``exact_cost``: with every hand known, the exact cost (double-dummy) where the game
  computes it;
* ``alternatives``: the options ranked, each with its value (and exact value).

The summary (:meth:`Review.summary`) adds the costs of each phase (the decisions are measured on
independent samples: standard errors add in quadrature) and names the three costliest
decisions. A review stopped by Ctrl-C keeps the decisions measured so far and says so
(``partial``).

Deal records are typed as lines ``key: value`` (:func:`record_lines`: ``#`` starts a comment,
``;`` separates clauses on a line) or written as JSON (:func:`read_record`); each game documents
its keys (``docs/review.md``) and raises :class:`RecordError` naming the place of a fault.
"""

from ..game.record import (
    Clause,
    Record,
    RecordError,
    Replay,
    dealt_hand,
    raw_clauses,
    read_record,
    record_error,
    record_lines,
)
from .deal_view import DealView
from .decisions import (
    Alternative,
    DecisionReview,
    Task,
    Tasks,
    card_place,
    card_task,
    difference,
    exact_estimate,
    ranked_alternatives,
    run_review,
)
from .page import card_html, render_html
from .result import COSTLIEST, Review, review
from .text import render_text

__all__ = [
    "COSTLIEST",
    "Alternative",
    "Clause",
    "DealView",
    "DecisionReview",
    "Record",
    "RecordError",
    "Replay",
    "Review",
    "Task",
    "Tasks",
    "card_html",
    "card_place",
    "card_task",
    "dealt_hand",
    "difference",
    "exact_estimate",
    "raw_clauses",
    "read_record",
    "record_error",
    "ranked_alternatives",
    "record_lines",
    "render_html",
    "render_text",
    "review",
    "run_review",
]
