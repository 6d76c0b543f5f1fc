"""A review run from a game's plan, for every game: the reviewed player's decisions numbered in
order, each card decision measured by the core (the game's card values over the worlds the
player could not tell apart, paired costs; the exact cost on the true deal when every hand is
known), the game's own decisions (calls, exchanges, declarations) by the game's tasks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .decisions import Task, Tasks, card_place, card_task
from .result import Review, review

if TYPE_CHECKING:
    from ..game.definition import GameDefinition, ReviewPlan, ReviewSettings
    from ..game.record import Record


def plan_tasks(game: GameDefinition, plan: ReviewPlan, settings: ReviewSettings) -> Tasks:
    """The plan's decisions as review tasks, numbered in order (``Tasks.at``: each decision's
    key -> its number)."""
    tasks = Tasks()
    values = game.card_settings(settings)
    for d in plan.decisions:
        if hasattr(d, "task"):
            tasks.add(d.key, d.task(tasks.next))
            continue

        def measure(state, values=values):
            return game.card_values(state, values)

        task = card_task(
            tasks.next,
            d.trick,
            d.place or card_place(d.trick, d.before),
            d.card,
            game.facts.pack.card_name,
            d.make_state,
            measure,
            game.exact_values if d.exact else None,
            weight=d.weight,
        )
        tasks.add(d.key, task)
    return tasks


def review_record(
    game: GameDefinition,
    record: Record,
    rules,
    settings: ReviewSettings,
    progress: Callable[[float, str], None] | None = None,
    tasks: Tasks | None = None,
    plan: ReviewPlan | None = None,
) -> Review:
    """Review every decision of the record's player (the record checked first: RecordError
    naming the place); ``progress(weight, label)`` as :func:`.decisions.run_review` calls it.
    ``plan`` and ``tasks``: already made (a command makes them first, to size its progress
    bar)."""
    plan = plan or game.review_plan(record, rules, settings)
    tasks = tasks if tasks is not None else plan_tasks(game, plan, settings)
    return review(
        game.facts.name,
        plan.title,
        plan.player,
        plan.unit,
        game.codec.json(record),
        plan.deal_view(tasks.at),
        tasks,
        progress=progress,
        settings={"rules": (plan.rules or rules).to_dict(), **settings.to_dict()},
        notes=plan.notes,
        phases=plan.phases,
        phase_units=plan.phase_units,
        rank_scale=plan.rank_scale,
    )


def check_record(game: GameDefinition, record: Record, rules) -> None:
    """Check a record against the rules without measuring anything (RecordError naming the
    place of the first fault)."""
    game.review_plan(record, rules, game.review_settings[1])


__all__ = ["Task", "check_record", "plan_tasks", "review_record"]
