"""A game as the core serves it: one typed definition of its facts, rules, policies, record
grammar, positions, players, card values, review and matches.

Every capability that all games share (``play``, ``review``, ``strategies``, ``batch``,
``tournament``, ``external``, the OpenSpiel game) is written once in the core and reads a game
only through its :class:`GameDefinition`; a game package writes the hooks below (its
``definition.py``) and what is its own (Piquet's discard and sink analyses, the bid advisers,
its report sections). A test holds every registered game to this contract, and a toy game
defined only through it (``tests/toy_game``) gets the core's commands.

Perspective: a seat's returns are the game's own points (``State.returns``); card values are
for the side to act, in the unit the game states (:attr:`Facts.unit`).
"""

from __future__ import annotations

import dataclasses
import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..engine.cards import Pack
from .advice import CardValues, Explanation, PlayAdvice
from .position import ActionValues, Decider, State
from .record import Record, RecordCodec
from .registry import Registry
from .spec import RulesBase, RulesSpec

if TYPE_CHECKING:
    from ..review.decisions import Task
    from ..study.studies import Studies
    from .strategy import Strategy, StrategyBook


@dataclass(frozen=True)
class Facts:
    """A game's static facts.

    name: its package and command-group name (``"pilotta"``); title: in prose ("Pilotta");
    seats: each seat's name as the CLI and records write it, at the default table size
    (``("N", "E", "S", "W")``); players: ``(fewest, most)`` seats a table may have; pack: its
    cards (chance outcomes and the actions below ``pack.n_cards`` are card indices);
    cards_each: cards dealt to each seat, one hand after another, then ``extra`` more (a
    talon); actions: how many distinct actions (cards, calls, declarations: all below this
    number); longest: the most decisions in one deal; utility: (min, max) of a seat's returns;
    zero_sum: whether returns always sum to 0; unit: what a card value means, for the side to
    act; teams: seats that score together (empty: each for himself)."""

    name: str
    title: str
    seats: tuple[str, ...]
    players: tuple[int, int]
    pack: Pack
    cards_each: int
    extra: int
    actions: int
    longest: int
    utility: tuple[float, float]
    zero_sum: bool
    unit: str
    teams: tuple[tuple[int, ...], ...] = ()

    @property
    def cards(self) -> tuple[int, ...]:
        """Every card index of the pack (a 52-card pack's indices run 16 to a suit)."""
        p = self.pack
        return tuple(p.card_index(s, r) for s in range(4) for r in range(p.n_ranks))

    @property
    def index_space(self) -> int:
        """How many card indices there are, used or not (the chance outcomes' range)."""
        return 4 * self.pack.stride


@dataclass(frozen=True)
class ValueSettings:
    """How card values are measured over the worlds a player cannot tell apart: ``worlds``
    sampled when there are more than ``exact_limit`` (else every world, exactly), a time budget
    for the sampled ones (``max_seconds``; None: none), the seed of the worlds, the others'
    bidding model their calls are read with (``others``: a policy of the game's auction stage;
    ``""`` where the game has no auction or the calls are not read) and the game's own settings
    (``game``)."""

    worlds: int = 200
    exact_limit: int = 3000
    max_seconds: float | None = None
    seed: int = 1
    others: str = ""
    #: the game's own settings of a command (its ``GameOptions.own`` options: Piquet's partie
    #: score, its reading of the declarations), by name; empty: the game's defaults
    game: Mapping[str, Any] = field(default_factory=dict)

    def sampling(self) -> dict[str, Any]:
        """The settings every game's world sampling reads, as the keywords of its
        ``card_values`` (``worlds``, ``seed``, ``exact_limit``, ``max_seconds``): a definition's
        hook passes them whole and names only what is its own (the others' model, a goal)."""
        return {
            "worlds": self.worlds,
            "seed": self.seed,
            "exact_limit": self.exact_limit,
            "max_seconds": self.max_seconds,
        }


@dataclass(frozen=True)
class PlayExample:
    """A ``play`` position for the help text, the tests and the benchmarks (one source): the
    cards held now, the seat as the CLI writes it, the history in the record grammar, and what
    the position is, in words."""

    hand: str
    seat: str
    history: str
    what: str

    def args(self) -> list[str]:
        """The ``play`` command's arguments (after the game's group)."""
        return ["play", self.hand, "--seat", self.seat, "--history", self.history]


@dataclass(frozen=True)
class ReviewSettings:
    """How a review measures each decision: a card decision's worlds (``worlds``, every world
    when at most ``exact_limit``), exact costs on the true deal when every hand is known
    (``exact``) and the seed of every sample. A game adds its own fields (time budgets, the
    others' model, its advisers' settings) in a subclass; :meth:`to_dict` lists them all."""

    worlds: int = 200
    exact_limit: int = 3000
    exact: bool = True
    seed: int = 1
    #: the game's own review settings (``GameOptions.own``), by name; empty: its defaults
    game: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict:
        """Every field by name (``game`` only when it holds something)."""
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        if not out["game"]:
            del out["game"]
        else:
            out["game"] = dict(out["game"])
        return out

    def replace(self, **given: Any) -> ReviewSettings:
        """These settings with every ``given`` value that is not None in place."""
        return dataclasses.replace(self, **{k: v for k, v in given.items() if v is not None})


@dataclass
class CardDecision:
    """One card decision of a reviewed player, for the core to measure: where (``trick``, the
    cards already in it, by name; ``place``: the game's own words for it, else "trick 3, after
    AS 7S"), the card he played, the position before it (``make_state``: a fresh state each
    call) and whether the true deal is known there (``exact``: every hand, so the oracle gives
    the exact cost). ``key``: the game's key of the decision (its page view finds it by that
    key); ``weight``: its share of the progress bar (about its seconds)."""

    key: object
    trick: int
    before: list[str]
    card: int
    make_state: Callable[[], State]
    exact: bool = False
    place: str = ""
    weight: float = 1.0


@dataclass
class GameDecision:
    """One decision of the reviewed player that the game measures itself (a call, an exchange,
    a declaration): ``task(index)`` builds its review task, numbered ``index``."""

    key: object
    task: Callable[[int], Task]


@dataclass
class ReviewPlan:
    """What the game makes of a record to review (its hook :meth:`GameDefinition.review_plan`):
    the title, the reviewed player's name, the unit of the costs (and per phase where phases
    differ, with the scale that ranks them together), the phases in order, the player's
    decisions in order, the page's view of the deal (``deal_view(at)``: ``at`` maps each
    decision's key to its number), notes, and the rules it played by where the game changed
    those given (None: those given). The page's record and settings JSON are the core's (the
    game's codec, the rules and the review settings)."""

    title: str
    player: str
    unit: str
    phases: tuple[str, ...]
    decisions: list[CardDecision | GameDecision]
    deal_view: Callable[[dict], dict]
    notes: list[str] = field(default_factory=list)
    phase_units: dict[str, str] = field(default_factory=dict)
    rank_scale: dict[str, float] = field(default_factory=dict)
    rules: RulesBase | None = None


class GameDefinition(ABC):
    """One game, as the core serves it (module docstring). A subclass sets the class attributes
    and writes the hooks; everything else is the core's."""

    #: The game's static facts.
    facts: Facts
    #: The rules options (rows): the ``Rules`` class, its array and CLI options come from them.
    rules_spec: RulesSpec
    #: The policy registry: every stage policy, its parameters and their bounds.
    policies: Registry
    #: Card-value settings of ``play`` (its defaults) and of ``review --quick``'s cards.
    play_settings: ValueSettings = ValueSettings()
    #: The ``play`` help's example position (also the tests' and the benchmarks').
    play_example: PlayExample
    #: A word after a margin in the advice (" points"), and what broke a tie of values.
    margin_unit: str = ""
    tie_note: str = ""
    #: Cards of equal value ordered by risk (``advice.advise_play``): the game's own figures
    #: (:meth:`tie_figures`, each higher better), then the worst case over the worlds, then
    #: :meth:`tie_order`. False: :meth:`tie_order` alone.
    risk_ties: bool = False

    #: The frozen ``Rules`` class of :attr:`rules_spec` (its defaults are the game's).
    rules_class: type[RulesBase]
    #: The game's one record grammar: text and JSON to a :class:`Record` and back, for
    #: ``review`` files and ``play --history`` alike.
    codec: RecordCodec
    #: The game's position type; its ``from_deal(seed, index, rules)`` deals (:meth:`new_state`).
    state_type: type[State]
    #: The review's settings: (the defaults, ``--quick``'s).
    review_settings: tuple[ReviewSettings, ReviewSettings]

    # ------------------------------------------------------------------ positions
    def new_state(self, seed: int, index: int, rules: RulesBase) -> State:
        """Deal ``index`` of ``seed`` (always the same cards), at its first decision."""
        return self.state_type.from_deal(seed, index, rules)

    @abstractmethod
    def state_from_cards(self, cards: Sequence[int], rules: RulesBase) -> State:
        """The position after a deal given card by card in deal order (``cards_each`` to each
        seat in turn, then the ``extra`` cards): OpenSpiel's chance nodes."""

    @abstractmethod
    def position(
        self,
        record: Record,
        rules: RulesBase,
        settings: ValueSettings,
        before_kernels: Callable[[], None] | None = None,
    ) -> State:
        """The position at the end of ``record`` as its player knows it (his cards now, what
        he saw), the hidden cards one world consistent with it (drawn from ``settings.seed``;
        ``settings.others`` read the calls). RecordError (one line) when the record breaks
        the rules or no deal fits it; ``before_kernels()`` is called once the checks that need
        no kernel have passed (a compile notice)."""

    # ------------------------------------------------------------------ players
    @abstractmethod
    def play_decider(self, name: str, params: Mapping[str, float] | None = None) -> Decider:
        """Our card-play decider of a registered play policy (its parameters by name)."""

    @abstractmethod
    def seat_deciders(self, strategies: Sequence[Strategy], rules: RulesBase) -> list[Decider]:
        """One decider per seat for a deal in which seat ``s`` plays ``strategies[s]``, every
        phase (auction, exchange, declarations, play)."""

    @property
    def strategies(self) -> StrategyBook:
        """The built-in strategies and how a strategy file or inline spec is read (its
        studies' book)."""
        return self.studies.book

    # ------------------------------------------------------------------ studies
    #: The game's studies (``core.study.studies.Studies``, built in its ``studies.py``): its
    #: mirrored match, whole games, tournament JSON and outside players' seat, from which the
    #: core's ``strategies``, ``batch``, ``tournament``, ``game`` and ``external`` commands are
    #: built; its ``book`` is :attr:`strategies`. A game names it with :func:`imported`, so the
    #: commands that need no match import none.
    studies: Studies

    # ------------------------------------------------------------------ card values and advice
    @abstractmethod
    def card_values(self, state: State, settings: ValueSettings) -> CardValues:
        """Every legal card of the seat to play valued over the worlds he cannot tell apart,
        each solved exactly (:attr:`Facts.unit`), with each card's value in every world; a
        forced card at once (``advice.forced_values``)."""

    def exact_values(self, state: State) -> ActionValues:
        """Every legal card's exact value on the true deal: the values of the game's oracle
        play policy (the registry's play row marked ``oracle``), every hand seen."""
        oracle = self.policies.names("play", oracle=True)[0]
        return self.play_decider(oracle).values(state)

    @abstractmethod
    def explain(self, state: State, best: int, runner: int | None) -> str:
        """Why ``best`` rather than ``runner`` (None: the only legal card), in a few words."""

    @abstractmethod
    def advice_view(self, advice: PlayAdvice, settings: ValueSettings) -> Explanation:
        """The game's part of a play advice: the position in one line and as JSON fields, the
        value columns of the card table, each card's JSON additions."""

    def tie_order(self, state: State, card: int) -> tuple:
        """How cards of equal value are ordered (default: the lower card first)."""
        return (card,)

    def tie_figures(
        self, state: State, cards: Sequence[int], values: CardValues, settings: ValueSettings
    ) -> dict[str, dict[int, float]]:
        """With :attr:`risk_ties`: the game's figures that order ``cards`` (tied at the best
        value), each name -> card -> value, higher better, in the order they count (e.g.
        "P(wins the cards)"). Default: none."""
        return {}

    # ------------------------------------------------------------------ review
    @abstractmethod
    def review_plan(self, record: Record, rules: RulesBase, settings: ReviewSettings) -> ReviewPlan:
        """The reviewed player's decisions of ``record`` in order, checked against the rules
        first (RecordError naming the place), with the page's view of the deal."""

    def card_settings(self, settings: ReviewSettings) -> ValueSettings:
        """The card-value settings of a review's card decisions: the settings' fields of the
        same names (a time budget and the others' model where the game's settings have them,
        the game's own settings)."""
        return ValueSettings(
            settings.worlds,
            settings.exact_limit,
            getattr(settings, "max_seconds", None),
            settings.seed,
            getattr(settings, "others", ""),
            game=settings.game,
        )

    # ------------------------------------------------------------------ compile notice
    @abstractmethod
    def entry_kernels(self, command: str) -> tuple:
        """The numba dispatchers ``command`` (``"play"``, ``"review"`` …) calls first from
        Python: a cold cache among them means a compile notice. Empty: none."""


def imported(ref: str) -> Any:
    """A definition's attribute kept in another module (``"package.module:NAME"``), imported
    when first read: a hook whose module is heavy (a game's studies import its match kernels)
    costs nothing to the commands that never read it (``play``, ``review``)."""
    module, name = ref.split(":")

    def read(self: GameDefinition) -> Any:
        return getattr(importlib.import_module(module), name)

    return property(read, doc=f"``{ref}``, imported when first read.")


__all__ = [
    "CardDecision",
    "Facts",
    "GameDecision",
    "GameDefinition",
    "PlayExample",
    "ReviewPlan",
    "ReviewSettings",
    "ValueSettings",
    "imported",
]
