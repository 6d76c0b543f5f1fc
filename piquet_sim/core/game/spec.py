"""Rules options declared once: every option of a game is one :class:`Option` row.

From a game's rows (a :class:`RulesSpec`) come its frozen ``Rules`` class (fields, defaults,
validation), the integer array kernels take (one slot per row, in row order, and an ``IntEnum``
of the slots), the dict/JSON form, the CLI options of every command that plays
(:func:`piquet_sim.core.app.rules_cli.rules_options`) and the options table of
``docs/rules/<game>.md`` (:meth:`RulesSpec.markdown_table`, held equal by a test).

Adding a rules option is one row here in the game's ``rules.py`` and the kernel that reads
``rules[RuleSlot.<NAME>]``. The array encodes a bool as 0/1, a choice as its index among the
choices, a whole number as itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, ClassVar

import numpy as np

from ..engine.errors import InputError, check_choice

#: The one dtype of every game's rules array.
RULES_DTYPE = np.int64


class RulesError(InputError):
    """An unknown or invalid rules option (one line, exit 2 at the CLI)."""


@dataclass(frozen=True)
class Option:
    """One rules option.

    name: the field name (``snake_case``); the CLI option is ``--name-with-dashes`` unless
        ``flag`` spells it (``"--on/--off"`` for a bool, ``"--name"`` otherwise).
    default: its value when not given.
    help: one sentence for ``--help`` and the docs table.
    choices: the allowed values of a choice option (its slot holds the index);
        ``labels`` their text forms where the values are not strings (``"4,3"``).
    bounds: ``(low, high)`` of a whole-number option (its slot holds the value).
    A bool option has neither choices nor bounds (its slot holds 0 or 1).
    scope: which commands offer it: ``"deal"`` (every command that plays or scores a deal),
        ``"game"`` (commands that play whole games or parties), ``"table"`` (declared by each
        command itself, e.g. the number of players).
    older_flags: older CLI spellings, still accepted (not shown in ``--help``).
    was_bool: a choice that was a bool flag, among whose choices ``True`` and ``False`` stay:
        a bare ``--name`` is still its ``True`` choice and ``--no-name`` its ``False`` one.
    """

    name: str
    default: Any
    help: str
    choices: tuple = ()
    labels: tuple[str, ...] = ()
    bounds: tuple[int, int] | None = None
    scope: str = "deal"
    flag: str | None = None
    older_flags: tuple[str, ...] = ()
    was_bool: bool = False

    def __post_init__(self) -> None:
        if self.choices and self.bounds:
            raise ValueError(f"option {self.name}: choices or bounds, not both")
        if self.labels and len(self.labels) != len(self.choices):
            raise ValueError(f"option {self.name}: one label per choice")
        if self.scope not in ("deal", "game", "table"):
            raise ValueError(f"option {self.name}: unknown scope {self.scope!r}")
        if self.older_flags and self.kind == "bool":
            raise ValueError(f"option {self.name}: a bool's older spellings go in its flag")
        if self.was_bool and not (True in self.choices and False in self.choices):
            raise ValueError(f"option {self.name}: a former bool keeps True and False as choices")
        self.check(self.default)

    @property
    def kind(self) -> str:
        """``"choice"``, ``"int"`` or ``"bool"``."""
        if self.choices:
            return "choice"
        return "int" if self.bounds else "bool"

    @property
    def texts(self) -> tuple[str, ...]:
        """The text form of each choice (CLI and docs)."""
        return self.labels or tuple(str(c) for c in self.choices)

    def text(self, value: Any) -> str:
        """A value as the CLI and the docs write it."""
        if self.kind == "choice":
            return self.texts[self.choices.index(value)]
        if self.kind == "bool":
            return "true" if value else "false"
        return str(value)

    def parse_text(self, text: str) -> Any:
        """The value a CLI text names (a choice's label)."""
        return self.choices[self.texts.index(text)] if self.kind == "choice" else text

    def check(self, value: Any) -> Any:
        """The value, normalised (a list choice to a tuple, numpy ints to int); RulesError
        naming the option and the allowed values when it is not one of them."""
        if self.kind == "bool":
            if not isinstance(value, bool | np.bool_):
                raise RulesError(f"{self.name} must be true or false, got {value!r}")
            return bool(value)
        if self.kind == "int":
            low, high = self.bounds
            if isinstance(value, bool | np.bool_) or not isinstance(value, int | np.integer):
                raise RulesError(f"{self.name} must be a whole number, got {value!r}")
            if not low <= value <= high:
                raise RulesError(f"{self.name} must be {low} to {high}, got {value}")
            return int(value)
        if isinstance(value, list):
            value = tuple(value)
        check_choice(self.name, value, self.choices, RulesError, self.texts)
        return value

    def encode(self, value: Any) -> int:
        """The array slot's integer for a (checked) value."""
        if self.kind == "choice":
            return self.choices.index(value)
        return int(value)

    def decode(self, number: int) -> Any:
        """The value an array slot's integer stands for; RulesError when none does."""
        number = int(number)
        if self.kind == "choice":
            if not 0 <= number < len(self.choices):
                raise RulesError(
                    f"rules slot {self.name} is {number}, not 0..{len(self.choices) - 1}"
                )
            return self.choices[number]
        if self.kind == "bool":
            if number not in (0, 1):
                raise RulesError(f"rules slot {self.name} is {number}, not 0 or 1")
            return bool(number)
        return self.check(number)

    def json_value(self, value: Any) -> Any:
        """The value in JSON form (tuples as lists)."""
        return list(value) if isinstance(value, tuple) else value

    def cli_flag(self) -> str:
        """The option's CLI spelling (``--on/--off`` for a bool)."""
        if self.flag:
            return self.flag
        dashed = self.name.replace("_", "-")
        return f"--{dashed}/--no-{dashed}" if self.kind == "bool" else f"--{dashed}"


class RulesBase:
    """Base of every game's frozen ``Rules``: validation and the array, dict and text forms,
    all read from the class's :class:`RulesSpec` (``SPEC``)."""

    SPEC: ClassVar[RulesSpec]

    def __post_init__(self) -> None:
        for option in self.SPEC.options:
            object.__setattr__(self, option.name, option.check(getattr(self, option.name)))

    def to_array(self) -> np.ndarray:
        """The kernels' array (``RULES_DTYPE``, one slot per option in row order)."""
        return np.array(
            [o.encode(getattr(self, o.name)) for o in self.SPEC.options], dtype=RULES_DTYPE
        )

    @classmethod
    def from_array(cls, arr: np.ndarray) -> RulesBase:
        """Inverse of :meth:`to_array`; RulesError on an array no ``Rules`` produces."""
        arr = np.asarray(arr)
        n = len(cls.SPEC.options)
        if arr.shape != (n,):
            raise RulesError(f"a rules array has {n} entries, got shape {arr.shape}")
        return cls(**{o.name: o.decode(arr[i]) for i, o in enumerate(cls.SPEC.options)})

    def to_dict(self) -> dict:
        """The options as a plain dict (JSON-ready: tuples as lists)."""
        return {o.name: o.json_value(getattr(self, o.name)) for o in self.SPEC.options}

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> RulesBase:
        """``Rules`` from a dict of some options (the rest default); RulesError on an unknown
        name."""
        unknown = sorted(set(values) - set(cls.option_names()))
        if unknown:
            raise RulesError(
                f"unknown rules option(s) {', '.join(unknown)}; known: "
                f"{', '.join(cls.option_names())}"
            )
        return cls(**values)

    @classmethod
    def option_names(cls) -> list[str]:
        return [o.name for o in cls.SPEC.options]

    def replace(self, **changes: Any) -> RulesBase:
        """A copy with some options changed (validated)."""
        return dataclasses.replace(self, **changes)

    def differences(self) -> dict:
        """The options that differ from their defaults (JSON form)."""
        return {
            o.name: o.json_value(getattr(self, o.name))
            for o in self.SPEC.options
            if getattr(self, o.name) != o.default
        }


class RulesSpec:
    """A game's rules options: the rows, in array-slot order; ``presets``, named sets of values
    (the others at their defaults; the first is the default set, offered as ``--preset`` with
    ``preset_help``)."""

    def __init__(
        self,
        game: str,
        options: Iterable[Option],
        presets: Mapping[str, Mapping[str, Any]] | None = None,
        preset_help: str = "",
    ) -> None:
        self.game = game
        self.options: tuple[Option, ...] = tuple(options)
        names = [o.name for o in self.options]
        if len(set(names)) != len(names):
            raise ValueError(f"{game}: rules option names repeat")
        self.by_name = {o.name: o for o in self.options}
        self.presets: dict[str, dict[str, Any]] = {
            name: {key: self.by_name[key].check(v) for key, v in values.items()}
            for name, values in (presets or {}).items()
        }
        self.preset_help = preset_help

    def __len__(self) -> int:
        return len(self.options)

    def slot(self, name: str) -> int:
        """The array slot of an option."""
        return [o.name for o in self.options].index(name)

    def slot_enum(self, name: str = "RuleSlot", module: str | None = None) -> type[IntEnum]:
        """An IntEnum of the slots, one member per option (its name upper-cased) and ``LEN``:
        what kernels index the rules array with."""
        members = {o.name.upper(): i for i, o in enumerate(self.options)}
        members["LEN"] = len(self.options)
        enum = IntEnum(name, members, module=module)
        enum.__doc__ = f"Slots of {self.game}'s rules array (``Rules.to_array()``)."
        return enum

    def rules_class(self, module: str, namespace: dict | None = None) -> type:
        """The game's frozen ``Rules`` dataclass: one field per option with its default, the
        methods of :class:`RulesBase`, and ``namespace`` (extra properties or methods).
        ``module`` is the defining module's ``__name__`` (pickling: Dask ships ``Rules``)."""
        fields = [(o.name, Any, dataclasses.field(default=o.default)) for o in self.options]
        ns = dict(namespace or {})
        ns["SPEC"] = self
        cls = dataclasses.make_dataclass(
            "Rules", fields, bases=(RulesBase,), frozen=True, namespace=ns
        )
        cls.__module__ = module
        cls.__doc__ = f"Every rules option of {self.game} with its default:\n\n" + "\n".join(
            f"{o.name} (default {o.text(o.default)}): {o.help}" for o in self.options
        )
        return cls

    def cli_options(self, scopes: Iterable[str]) -> list[Option]:
        """The options a command of these scopes offers, in row order."""
        scopes = tuple(scopes)
        return [o for o in self.options if o.scope in scopes]

    def markdown_table(self) -> str:
        """The options table of ``docs/rules/<game>.md`` (Markdown, one row per option)."""
        lines = [
            "| option | CLI | default | values | meaning |",
            "| --- | --- | --- | --- | --- |",
        ]
        for o in self.options:
            if o.kind == "choice":
                values = ", ".join(f"`{t}`" for t in o.texts)
            elif o.kind == "int":
                values = f"{o.bounds[0]} to {o.bounds[1]}"
            else:
                values = "true, false"
            cli = "its own option" if o.scope == "table" else f"`{o.cli_flag()}`"
            lines.append(f"| `{o.name}` | {cli} | `{o.text(o.default)}` | {values} | {o.help} |")
        return "\n".join(lines) + "\n"


#: Markers around the generated table in a rules document.
DOC_START = "<!-- rules-options: generated from the rules rows; do not edit by hand -->"
DOC_END = "<!-- /rules-options -->"


def replace_doc_table(text: str, spec: RulesSpec) -> str:
    """``text`` (a rules document) with the table between the markers made anew."""
    start, end = text.index(DOC_START), text.index(DOC_END)
    return text[: start + len(DOC_START)] + "\n\n" + spec.markdown_table() + "\n" + text[end:]
