"""Strategies, for every game: a named way of playing every stage of a deal, read from a
built-in name, a JSON or TOML file, or an inline spec, and checked against the game's policy
registry before any work.

A :class:`Strategy` is one :class:`Choice` (a policy and its parameters by name) per stage of
the game's registry (Piquet: exchange, declare, play; Pilotta: auction, declare, play; Pitch:
bid, play), and optional per-role overrides (Piquet's ``[elder]`` / ``[younger]``). A game's
:class:`StrategyBook` holds its built-ins and reads the rest:

* a **file** (``.toml`` / ``.json``)::

      name = "brave"                       # default: the file's stem
      description = "threshold bidder half a point braver"
      play = "heuristic"                   # a stage: a policy name ...
      [bid]                                # ... or a table
      policy = "threshold"
      params = { margin = -0.5 }           # by name (a list: every parameter in order)
      [younger]                            # a role's overrides (games with roles)
      play = "greedy"

  Older spellings still read: ``<stage>_params = { … }`` beside ``<stage> = "name"``
  (Pilotta's ``play_params``) and a list of the parameters switched on under the policy's own
  name (Piquet's ``declare = { policy = "sink", sink = ["sets"] }``: those 1, the others 0);

* an **inline spec**: ``POLICY[:param=value,…]`` (``pimcw:worlds=32``,
  ``threshold:margin=-0.5``), the policy looked up in the game's inline stages in order (or
  named ``STAGE.POLICY``), several joined by ``+`` (``exchange.greedy:draw=2+play.pimc``); the
  stages it does not name come from the game's base strategy, and its name is the spec itself.

Every failure is a one-line :class:`StrategyError` (exit 2 at the CLI). This module is data
and reading only: no kernels, no CLI.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..engine.errors import InputError
from .registry import Policy, PolicyError, Registry
from .strategy_files import SUFFIXES, read_table

Number = int | float


class StrategyError(InputError):
    """A strategy that cannot be built: unknown name, bad file or spec, unknown policy or
    parameter, a parameter out of its range (one line)."""


@dataclass(frozen=True)
class Choice:
    """One stage's policy and the parameters given for it by name (the others at the
    registry's defaults), in the order given."""

    policy: str
    params: tuple[tuple[str, Number], ...] = ()

    @classmethod
    def of(cls, policy: str, params: Mapping[str, Number] | None = None) -> Choice:
        return cls(policy, tuple((params or {}).items()))

    @property
    def given(self) -> dict[str, Number]:
        """The parameters given, by name."""
        return dict(self.params)

    def describe(self) -> str:
        """``policy`` or ``policy(name=value, …)`` with the parameters given."""
        if not self.params:
            return self.policy
        return f"{self.policy}({', '.join(f'{k}={v:g}' for k, v in self.params)})"


Stages = tuple[tuple[str, Choice], ...]


@dataclass(frozen=True)
class Strategy:
    """A named way of playing: ``stages`` holds one :class:`Choice` per stage of the game's
    registry, ``roles`` the choices a role (Piquet's elder or younger) makes differently.
    Hashable and picklable (a study ships it to its workers)."""

    name: str
    description: str = ""
    stages: Stages = ()
    roles: tuple[tuple[str, Stages], ...] = ()

    def __post_init__(self) -> None:
        # a role's override equal to the common choice says nothing: dropped, so two
        # strategies that play alike compare equal however they were written
        base = dict(self.stages)
        roles = tuple(
            (role, kept)
            for role, over in self.roles
            if (kept := tuple((s, c) for s, c in over if base.get(s) != c))
        )
        object.__setattr__(self, "roles", roles)

    @classmethod
    def of(
        cls,
        name: str,
        description: str = "",
        roles: Mapping[str, Mapping[str, str | Choice]] | None = None,
        **stages: str | Choice,
    ) -> Strategy:
        """A strategy from choices by stage, each a policy name or a :class:`Choice`."""

        def norm(given: Mapping[str, str | Choice]) -> Stages:
            return tuple((s, c if isinstance(c, Choice) else Choice(c)) for s, c in given.items())

        return cls(
            name, description, norm(stages), tuple((r, norm(o)) for r, o in (roles or {}).items())
        )

    def choice(self, stage: str, role: str | None = None) -> Choice:
        """The choice of ``stage`` (in ``role`` when given: its override, else the common
        one)."""
        if role is not None:
            for r, over in self.roles:
                if r == role:
                    for s, c in over:
                        if s == stage:
                            return c
        for s, c in self.stages:
            if s == stage:
                return c
        raise KeyError(f"strategy {self.name!r} has no {stage} stage")

    def policy(self, stage: str, role: str | None = None) -> str:
        """The policy name of ``stage`` (in ``role``)."""
        return self.choice(stage, role).policy

    def params(self, stage: str, role: str | None = None) -> dict[str, Number]:
        """The parameters given for ``stage`` (in ``role``), by name."""
        return self.choice(stage, role).given

    def choices(self) -> Iterable[Choice]:
        """Every choice the strategy makes (common ones and every role's)."""
        yield from (c for _, c in self.stages)
        for _, over in self.roles:
            yield from (c for _, c in over)

    def renamed(self, name: str, description: str | None = None) -> Strategy:
        """The same play under another name (and description)."""
        return dataclasses.replace(
            self, name=name, description=self.description if description is None else description
        )


def builtin_strategies(
    stages: Mapping[str, str | Choice], *rows: tuple[str, str, Mapping[str, str | Choice]]
) -> tuple[Strategy, ...]:
    """A game's built-in strategies from ``(name, description, choices)`` rows: each row's
    choices by stage, the stages it leaves out taking their choice from ``stages``, whose order
    is the stored order of every built-in's stages."""

    def one(name: str, description: str, given: Mapping[str, str | Choice]) -> Strategy:
        if unknown := sorted(set(given) - set(stages)):
            raise ValueError(f"built-in {name!r}: no stage {', '.join(unknown)}")
        return Strategy.of(name, description, **{s: given.get(s, c) for s, c in stages.items()})

    return tuple(one(*row) for row in rows)


def default_summary(strategy: Strategy) -> str:
    """Every stage in one line, ``stage policy(params)`` joined by `` / `` (a role's override
    after a ``|``)."""
    parts = []
    for stage, choice in strategy.stages:
        text = f"{stage} {choice.describe()}"
        for role, over in strategy.roles:
            for s, c in over:
                if s == stage:
                    text += f" | {role} {c.describe()}"
        parts.append(text)
    return " / ".join(parts)


@dataclass(frozen=True)
class StrategyBook:
    """A game's strategies: its built-ins and how a file or inline spec is read (module
    docstring), every policy and parameter checked against ``registry``.

    ``defaults``: the policy of a stage a file leaves out; ``roles``: the roles a file may
    override stages in (empty: none); ``allowed``: per stage, the only policies a strategy may
    name there (those the game's study kernels play; a stage not listed: every one);
    ``inline``: the stages an inline spec's policy is looked up in, in order, and ``base``: the
    built-in whose other stages it keeps; ``summary``: the one-line form of a strategy.
    Writing (:meth:`to_dict`): ``tables``, the stages always written as ``{policy, params}``
    tables; ``param_keys``, stages written as a name with their parameters under another key
    (Pilotta's ``play_params``); ``flags``, ``(stage, policy)`` written as the list of its
    parameters switched on (Piquet's sink)."""

    game: str
    registry: Registry
    builtins: Mapping[str, Strategy]
    defaults: Mapping[str, str]
    base: str
    inline: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    allowed: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    summary: Callable[[Strategy], str] = default_summary
    tables: tuple[str, ...] = ()
    param_keys: Mapping[str, str] = field(default_factory=dict)
    flags: tuple[tuple[str, str], ...] = ()

    # ------------------------------------------------------------------ names
    def names(self) -> tuple[str, ...]:
        """The built-in strategies' names, in the book's order."""
        return tuple(self.builtins)

    def get(self, name: str) -> Strategy:
        """A built-in strategy by name; StrategyError naming the built-ins otherwise."""
        if name not in self.builtins:
            raise StrategyError(f"unknown strategy {name!r}; built-in: {', '.join(self.builtins)}")
        return self.builtins[name]

    def resolve(self, spec: str | Strategy) -> Strategy:
        """A strategy from a built-in name, a ``.toml``/``.json`` file or an inline spec,
        checked; StrategyError (one line) otherwise."""
        if isinstance(spec, Strategy):
            return spec
        text = spec.strip()
        if text in self.builtins:
            return self.builtins[text]
        if text.lower().endswith(SUFFIXES) or Path(text).exists():
            return self.load(text)
        inline = self.parse_inline(text)
        if inline is None:
            stages = "; ".join(f"{s}: {', '.join(self.playable(s))}" for s in self.inline)
            raise StrategyError(
                f"unknown strategy {spec!r}: give a built-in one ({', '.join(self.builtins)}), "
                f"a file (.toml/.json) or a policy with parameters, POLICY[:param=value,…] "
                f"({stages})"
            )
        return inline

    def playable(self, stage: str) -> tuple[str, ...]:
        """The policies a strategy may name at ``stage``."""
        return self.allowed.get(stage) or self.registry.names(stage)

    # ------------------------------------------------------------------ files
    def load(self, path: str | Path) -> Strategy:
        """A strategy from a ``.json`` or ``.toml`` file (its name defaults to the stem)."""
        data = read_table(path, StrategyError)
        return self.from_dict(data, Path(path).name, default_name=Path(path).stem)

    def from_dict(
        self, data: Mapping, where: str = "strategy", default_name: str | None = None
    ) -> Strategy:
        """A strategy from its file form (module docstring), every key, policy and parameter
        checked; StrategyError naming ``where`` otherwise."""
        if not isinstance(data, Mapping):
            raise StrategyError(f"{where}: a strategy is a table of keys")
        stages = self.registry.stages
        param_keys = {f"{s}_params": s for s in stages}
        known = {"name", "description", *stages, *param_keys, *self.roles}
        unknown = sorted(set(data) - known)
        if unknown:
            raise StrategyError(
                f"{where}: unknown key {unknown[0]!r}; known: {', '.join(sorted(known))}"
            )
        name = data.get("name", default_name)
        if not isinstance(name, str) or not name:
            raise StrategyError(f"{where}: 'name' is required")
        description = data.get("description", "")
        if not isinstance(description, str):
            raise StrategyError(f"{where}: 'description' must be text")
        common = self._stages(data, param_keys, where)
        base = {s: common.get(s, Choice(self.defaults[s])) for s in stages}
        roles = []
        for role in self.roles:
            over = data.get(role, {})
            if not isinstance(over, Mapping) or set(over) - set(stages):
                raise StrategyError(f"{where}: [{role}] may only set {', '.join(stages)}")
            roles.append((role, tuple(self._stages(over, {}, f"{where} [{role}]").items())))
        # a stage every role overrides alike is the common choice
        for s in stages:
            found = {dict(over).get(s) for _, over in roles}
            if self.roles and len(found) == 1 and None not in found:
                base[s] = found.pop()
        return self.check(Strategy(name, description, tuple(base.items()), tuple(roles)), where)

    def _stages(self, data: Mapping, param_keys: Mapping[str, str], where: str) -> dict:
        """The stages a table sets (each checked), ``<stage>_params`` keys applied."""
        out = {}
        for stage in self.registry.stages:
            if stage in data:
                out[stage] = self._choice(stage, data[stage], where)
        for key, stage in param_keys.items():
            if key not in data:
                continue
            raw = data[key]
            out.setdefault(stage, Choice(self.defaults[stage]))
            policy = self.registry.get(stage, out[stage].policy)
            given = {**out[stage].given, **self._params(policy, raw, key, where)}
            out[stage] = Choice(policy.name, tuple(given.items()))
        return out

    def _choice(self, stage: str, value, where: str) -> Choice:
        """One stage's value: a policy name or a table ``{policy, params}`` (or the policy's
        flag list)."""
        if isinstance(value, str):
            value = {"policy": value}
        if isinstance(value, Mapping) and "policy" not in value:  # the stage's default policy
            value = {**value, "policy": self.defaults[stage]}
        if not isinstance(value, Mapping) or not isinstance(value.get("policy"), str):
            raise StrategyError(f"{where}: {stage} must be a policy name or a table with 'policy'")
        policy = self._policy(stage, value["policy"], where)
        flag_key = policy.name if (stage, policy.name) in self.flags else None
        flag_keys = {p for s, p in self.flags if s == stage}
        extra = sorted(set(value) - {"policy", "params"} - flag_keys)
        if extra:
            raise StrategyError(f"{where}: unknown key {extra[0]!r} in {stage}")
        stray = sorted(k for k in flag_keys & set(value) if k != flag_key)
        if stray:
            raise StrategyError(f"{where}: {stray[0]!r} needs {stage} policy {stray[0]!r}")
        params = self._params(policy, value.get("params"), f"{stage} params", where)
        if flag_key is not None:
            params |= self._flags(policy, value.get(flag_key), where)
        return Choice(policy.name, tuple(params.items()))

    def _policy(self, stage: str, name: str, where: str) -> Policy:
        try:
            policy = self.registry.get(stage, name)
        except PolicyError as err:
            raise StrategyError(f"{where}: {err}") from None
        if policy.name not in self.playable(stage):
            raise StrategyError(
                f"{where}: {stage} policy {policy.name!r} cannot play simulated rounds; a "
                f"strategy's {stage} is one of {', '.join(self.playable(stage))}"
            )
        return policy

    @staticmethod
    def _params(policy: Policy, raw, key: str, where: str) -> dict[str, Number]:
        """Parameters given by name (a table) or in order (a list), checked against the
        registry; whole numbers for integer parameters, floats for the others."""
        if raw is None:
            return {}
        if raw and not policy.params:
            named = f" (no parameter {next(iter(raw))!r})" if isinstance(raw, Mapping) else ""
            raise StrategyError(
                f"{where}: the {policy.stage} policy {policy.name!r} takes no parameters{named}"
            )
        if isinstance(raw, list | tuple):
            if len(raw) != len(policy.params):
                raise StrategyError(
                    f"{where}: {policy.name} params must be a table of "
                    f"{', '.join(policy.params) or 'nothing'} or a list of "
                    f"{len(policy.params)} numbers"
                )
            raw = dict(zip(policy.params, raw, strict=True))
        if not isinstance(raw, Mapping):
            raise StrategyError(f"{where}: {key} must be a table of name = number, got {raw!r}")
        for k, v in raw.items():
            if isinstance(v, bool) or not isinstance(v, int | float):
                raise StrategyError(f"{where}: {key} {k} must be a number, got {v!r}")
        try:
            policy.check_params(dict(raw))
        except PolicyError as err:
            raise StrategyError(f"{where}: {err}") from None
        return {str(k): int(v) if k in policy.integers else float(v) for k, v in raw.items()}

    @staticmethod
    def _flags(policy: Policy, raw, where: str) -> dict[str, Number]:
        """A flag list (the parameters switched on, the others off)."""
        if isinstance(raw, str):
            raw = [raw]
        if not isinstance(raw, list) or not raw or set(raw) - set(policy.params):
            raise StrategyError(
                f"{where}: '{policy.name}' must list some of {', '.join(policy.params)}"
            )
        return {p: 1.0 if p in raw else 0.0 for p in policy.params}

    def check(self, strategy: Strategy, where: str | None = None) -> Strategy:
        """``strategy`` itself when every stage has a policy the game plays with parameters
        in range; StrategyError otherwise."""
        where = where or f"strategy {strategy.name!r}"
        for stage in self.registry.stages:
            try:
                strategy.choice(stage)
            except KeyError:
                raise StrategyError(f"{where}: no {stage} policy") from None
        for role, over in strategy.roles:
            if role not in self.roles:
                raise StrategyError(f"{where}: no role {role!r} in {self.game}")
            for stage, _ in over:
                if stage not in self.registry.stages:
                    raise StrategyError(f"{where}: no stage {stage!r} in {self.game}")
        for stage in self.registry.stages:
            for role in (None, *self.roles):
                c = strategy.choice(stage, role)
                self._params(self._policy(stage, c.policy, where), c.given, "params", where)
        return strategy

    # ------------------------------------------------------------------ inline specs
    def parse_inline(self, spec: str) -> Strategy | None:
        """The strategy an inline spec writes (module docstring), checked; None when its
        first policy names no policy of the inline stages (so the text is no spec)."""
        parts = [p.strip() for p in spec.split("+")]
        base = self.builtins[self.base]
        chosen: dict[str, Choice] = {}
        for i, part in enumerate(parts):
            head, colon, rest = part.partition(":")
            stage, dot, policy = head.strip().rpartition(".")
            stages = (stage,) if dot else self.inline
            stage = next((s for s in stages if policy in self.registry.names(s)), None)
            if stage is None:
                if i == 0 and not dot:
                    return None
                raise StrategyError(f"{spec!r}: {head.strip()!r} is no policy of {self.game}")
            params: dict[str, float] = {}
            for item in rest.split(",") if colon else ():
                key, equals, text = item.partition("=")
                if not equals:
                    raise StrategyError(f"{spec!r}: {item.strip()!r} is not param=value")
                try:
                    params[key.strip()] = float(text)
                except ValueError:
                    raise StrategyError(f"{spec!r}: {text.strip()!r} is not a number") from None
            pol = self._policy(stage, policy, repr(spec))
            chosen[stage] = Choice(
                pol.name, tuple(self._params(pol, params, stage, repr(spec)).items())
            )
        said = " + ".join(f"{s} {c.describe()}" for s, c in chosen.items())
        stages = tuple((s, chosen.get(s, c)) for s, c in base.stages)
        roles = tuple(
            (r, tuple((s, c) for s, c in over if s not in chosen)) for r, over in base.roles
        )
        return self.check(
            Strategy(spec, f"{said}; otherwise {base.name}", stages, roles), repr(spec)
        )

    # ------------------------------------------------------------------ writing
    def to_dict(self, strategy: Strategy) -> dict:
        """The file form of ``strategy`` (read back by :meth:`from_dict` as the same one)."""
        out: dict = {"name": strategy.name, "description": strategy.description}
        out |= self._write(strategy.stages, roles=False)
        for role, over in strategy.roles:
            out[role] = self._write(over, roles=True)
        return out

    def _write(self, stages: Stages, roles: bool) -> dict:
        out: dict = {}
        for stage, choice in stages:
            if (stage, choice.policy) in self.flags:
                on = [k for k, v in choice.params if v]
                out[stage] = {"policy": choice.policy, choice.policy: on}
            elif stage in self.param_keys and not roles:
                out[stage] = choice.policy
                out[self.param_keys[stage]] = choice.given
            elif stage in self.tables or stage in self.param_keys or choice.params:
                out[stage] = {"policy": choice.policy, "params": choice.given}
            else:
                out[stage] = choice.policy
        return out

    # ------------------------------------------------------------------ questions
    def uses(self, strategy: Strategy, **flags: bool) -> bool:
        """True when any choice of ``strategy`` is a policy whose registry flags match
        ``flags`` (``needs_solver=True``: it calls the exact solver)."""
        for stage in self.registry.stages:
            for role in (None, *self.roles):
                p = self.registry.get(stage, strategy.policy(stage, role))
                if all(getattr(p, k) == v for k, v in flags.items()):
                    return True
        return False

    def policy_rows(self) -> Sequence[Policy]:
        """Every policy a strategy may name, stage by stage (for listings)."""
        return [p for p in self.registry if p.name in self.playable(p.stage)]


__all__ = [
    "Choice",
    "Strategy",
    "StrategyBook",
    "StrategyError",
    "builtin_strategies",
    "default_summary",
]
