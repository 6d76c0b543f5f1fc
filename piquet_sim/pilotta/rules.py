"""Pilotta's rules options, declared once as rows (:mod:`piquet_sim.core.game.spec`).

Source: the project's Pilotta spec (rules as implemented: ``docs/rules/pilotta.md``). From
:data:`SPEC` come the frozen :class:`Rules` (every option with its default, validated), the
kernels' int64 array (``Rules.to_array()``, indexed by :class:`RuleSlot`), the CLI options and
the options table of the rules document. Adding an option: a row here, and the kernel that reads
``rules[RuleSlot.<NAME>]``. Kernels never see the dataclass.

Presets (:data:`PRESETS`, :func:`preset`): named sets of option values, ``pilotta`` (the
defaults) and ``contree`` (the card play of Belote Contree as the peer engine colver plays it:
the partner's exemption on plain-suit leads only, no duty to under-trump, a capot worth 252,
the player after the dealer leading). The rows carry them (``SPEC.presets``): the core's rules
options offer ``--preset``, options typed beside it win.

``partner_exemption`` was a bool: its choices keep ``False`` (never) and ``True`` (always) as
values, so ``Rules(partner_exemption=True)``, JSON ``true``/``false`` and the array's 0/1 mean
what they meant; the third value is ``"plain_leads"`` (2). The options added for Belote Contree
(:data:`SET_ONLY_IN_JSON`) are written to a JSON output's rules only when they differ from their
defaults, so every output under Pilotta's rules keeps its former form.
"""

from __future__ import annotations

import numpy as np

from ..core.game.spec import Option, RulesBase, RulesError, RulesSpec

TRUMP_KQ_CHOICES = ((4, 3), (3, 2))
EQUAL_DECLARATIONS = ("first_in_order", "nobody")
FIRST_LEADS = ("contractor", "after_dealer")
#: The partner's exemption: never (False), always (True), on plain-suit leads only.
EXEMPTIONS = (False, True, "plain_leads")
EXEMPTION_NAMES = ("never", "always", "plain_leads")
UNDER_TRUMPS = ("required", "optional")
CAPOT_POINTS = (250, 252)

# Row order is the array's slot order (kept from the former int32 array, so every slot holds the
# same number as before: trump_kq_points 1 = (3, 2), equal_declarations 1 = nobody, …).
#: Named sets of option values (the rest at their defaults). ``contree``: Belote Contree's card
#: play as colver implements it (its legal cards, its 252 capot, the first lead after the
#: dealer); the contract, declarations and scoring stay Pilotta's.
PRESETS: dict[str, dict] = {
    "pilotta": {},
    "contree": {
        "partner_exemption": "plain_leads",
        "under_trump": "optional",
        "capot_points": 252,
        "first_lead": "after_dealer",
    },
}
SPEC = RulesSpec(
    "Pilotta",
    (
        Option(
            "trump_kq_points",
            (4, 3),
            "Card points of the king and queen of trumps: 4,3 makes the pack's 162; 3,2 is the "
            "rules text's literal values (160 in all).",
            choices=TRUMP_KQ_CHOICES,
            labels=("4,3", "3,2"),
            flag="--trump-kq",
        ),
        Option(
            "pass_is_final",
            False,
            "A player who has passed may not bid again (default: he may).",
        ),
        Option(
            "equal_declarations",
            "first_in_order",
            "When the best combinations of both teams are exactly equal: the first in playing "
            "order from the first leader scores, or nobody does.",
            choices=EQUAL_DECLARATIONS,
        ),
        Option(
            "first_lead",
            "contractor",
            "Who leads to the first trick: the contractor (the highest bidder) or the player "
            "after the dealer.",
            choices=FIRST_LEADS,
        ),
        Option(
            "partner_exemption",
            False,
            "When a player whose partner is winning the trick need not trump or over-trump: "
            "never, always (on a trump lead he then plays any trump), or on plain-suit leads "
            "only (Belote Contree). A bare --partner-exemption is always, "
            "--no-partner-exemption never.",
            choices=EXEMPTIONS,
            labels=EXEMPTION_NAMES,
            was_bool=True,
        ),
        Option(
            "contract_on_card_points_only",
            False,
            "Only card points (step 1, last trick included) count toward the bid.",
        ),
        Option(
            "failed_contract_loses_declarations",
            True,
            "A failed contract gives the contractors' combinations to the opponents (the pilotta "
            "always stays with its holder's team).",
        ),
        Option(
            "game_target",
            351,
            "Game points that win a game.",
            bounds=(1, 10_000),
            scope="game",
            flag="--target",  # every game's spelling
            older_flags=("--game-target",),
        ),
        Option(
            "under_trump",
            "required",
            "A player void in the plain suit led who cannot beat the trump already in the "
            "trick: must still play a trump (required), or may play any card (optional, "
            "Belote Contree).",
            choices=UNDER_TRUMPS,
        ),
        Option(
            "capot_points",
            250,
            "Card points of a capot (all eight tricks) in step 1 of the score: 250, or 252 "
            "(the pack's 162 plus 90, Belote Contree).",
            choices=CAPOT_POINTS,
        ),
    ),
    presets=PRESETS,
    preset_help="Start from a named set of rules options: pilotta (the defaults) or contree "
    "(Belote Contree's card play: --partner-exemption plain_leads --under-trump optional "
    "--capot-points 252 --first-lead after_dealer); options typed beside it win.",
)

#: Options a JSON output's rules name only when they differ from their defaults.
SET_ONLY_IN_JSON = ("under_trump", "capot_points")
#: Older spellings of option values, still taken (``Rules(partner_exemption="always")``).
_ALIASES = {"partner_exemption": {"never": False, "always": True}}


def _total_points(self) -> int:
    """Card points in the pack plus the last trick: 162 (or 160 with K 3, Q 2)."""
    return 162 if self.trump_kq_points == (4, 3) else 160


def _kq_literal(self) -> int:
    """1 when the trump K and Q score 3 and 2 (the kernels' ``kq`` flag), else 0."""
    return int(self.trump_kq_points == (3, 2))


def _post_init(self) -> None:
    """Aliases to values, a bool option's number refused (1 is not True), then the rows'
    checks."""
    for name, aliases in _ALIASES.items():
        value = getattr(self, name)
        if isinstance(value, str) and value in aliases:
            object.__setattr__(self, name, aliases[value])
        elif not isinstance(value, bool | np.bool_ | str):
            raise RulesError(
                f"{name} must be one of {', '.join(SPEC.by_name[name].texts)}; got {value!r}"
            )
        elif isinstance(value, np.bool_):
            object.__setattr__(self, name, bool(value))
    RulesBase.__post_init__(self)


def _to_dict(self) -> dict:
    """The options as a plain dict (JSON-ready); those of :data:`SET_ONLY_IN_JSON` only when
    they differ from their defaults."""
    out = RulesBase.to_dict(self)
    for name in SET_ONLY_IN_JSON:
        if getattr(self, name) == SPEC.by_name[name].default:
            del out[name]
    return out


def preset(name: str, **changes) -> Rules:
    """The rules of a named preset (:data:`PRESETS`), with ``changes`` on top."""
    if name not in PRESETS:
        raise RulesError(f"unknown rules preset {name!r}; known: {', '.join(PRESETS)}")
    return Rules(**{**PRESETS[name], **changes})


#: The slots of the kernels' rules array, one per option (``RuleSlot.PARTNER_EXEMPTION`` …).
RuleSlot = SPEC.slot_enum("RuleSlot", __name__)
Rules = SPEC.rules_class(
    __name__,
    {
        "total_points": property(_total_points),
        "kq_literal": property(_kq_literal),
        "__post_init__": _post_init,
        "to_dict": _to_dict,
    },
)
DEFAULT_RULES = Rules()

__all__ = [
    "CAPOT_POINTS",
    "DEFAULT_RULES",
    "EQUAL_DECLARATIONS",
    "EXEMPTIONS",
    "FIRST_LEADS",
    "PRESETS",
    "SET_ONLY_IN_JSON",
    "SPEC",
    "UNDER_TRUMPS",
    "TRUMP_KQ_CHOICES",
    "RuleSlot",
    "Rules",
    "RulesError",
    "preset",
]
