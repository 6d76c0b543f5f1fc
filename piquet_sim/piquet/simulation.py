"""Full-deal simulation API: policies by name, chunked runs, records as DataFrames.

Points are per player; ``net`` is elder minus younger. Deals are keyed by (seed, deal index), so
a run of N deals gives the same records however it is chunked or threaded.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numba
import numpy as np

from . import policies as P
from .kernels import layouts as L
from .kernels import simple_deal as KD
from .kernels import simulate as K
from .kernels.bundles import Env, Stages, make_env, make_stages
from .rules import DEFAULT_RULES, Rules

if TYPE_CHECKING:
    import pandas as pd

FIELD_NAMES = (
    "carte_blanche",
    "point",
    "sequence",
    "sets",
    "carte_rouge",
    "repique",
    "play",
    "cards",
    "pique",
    "total",
    "tricks",
    "taken",
    "dealt_point_len",
    "dealt_seq_len",
    "dealt_set",
    "final_point_len",
    "final_seq_len",
    "final_set",
)
assert len(FIELD_NAMES) == L.RF_BLOCK
#: solver table per span for policies that call the solver: 2 ** 16 entries, 1 MB (fits in a
#: core's L2). Values are exact whatever the size; 2 ** 18 saves ~10% of the nodes of pimc and
#: dd play but cache misses made it ~10% slower in CPU time (measured in pimc6).
DD_TT_BITS = 16
ROLES = ("elder", "younger")
SIMPLE_PLAYS = ("greedy", "random", "heuristic")  # the plays of ``kernels.simple_deal``
_ROWS = {
    ("exchange", "elder"): L.STAGE_ELDER_EXCHANGE,
    ("exchange", "younger"): L.STAGE_YOUNGER_EXCHANGE,
    ("declare", "elder"): L.STAGE_ELDER_DECLARE,
    ("declare", "younger"): L.STAGE_YOUNGER_DECLARE,
    ("play", "elder"): L.STAGE_ELDER_PLAY,
    ("play", "younger"): L.STAGE_YOUNGER_PLAY,
}


@dataclass(frozen=True)
class Policies:
    """Policy names for every stage of a deal (``policies.REGISTRY`` lists them) and, per role
    ("elder"/"younger"), parameters overriding a policy's defaults."""

    elder_exchange: str = "greedy"
    younger_exchange: str = "greedy"
    elder_play: str = "greedy"
    younger_play: str = "greedy"
    elder_declare: str = "all"
    younger_declare: str = "all"
    #: per role: exchange parameters (greedy weights; default ``policies.GREEDY_DEFAULTS``)
    exchange_params: dict[str, np.ndarray] = field(default_factory=dict, compare=False)
    #: per role: declaration policy parameters (e.g. sink flags for "sink")
    declare_params: dict[str, np.ndarray] = field(default_factory=dict, compare=False)
    #: per role: play policy parameters (e.g. pimc worlds per decision)
    play_params: dict[str, np.ndarray] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        for stage, role in _ROWS:
            P.get(stage, self.policy(stage, role))

    def policy(self, stage: str, role: str) -> str:
        """The policy name of one stage and role."""
        return getattr(self, f"{role}_{stage}")

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """(policy ids int32[STAGE_LEN], parameters float64[STAGE_LEN, STAGE_PARAMS]): a row's
        parameters are the ones given for its role, else its policy's registry defaults. An
        exchange row always carries greedy-rule weights (its policy's defaults, the greedy defaults
        for a policy without weights, unless given): the exchange-value study ranks forced
        discards by them whatever the policy."""
        ids = np.zeros(L.STAGE_LEN, dtype=np.int32)
        params = np.zeros((L.STAGE_LEN, L.STAGE_PARAMS), dtype=np.float64)
        given = {
            "exchange": self.exchange_params,
            "declare": self.declare_params,
            "play": self.play_params,
        }
        for (stage, role), row in _ROWS.items():
            policy = P.get(stage, self.policy(stage, role))
            ids[row] = policy.id
            default = policy.defaults
            if stage == "exchange" and not default:
                default = P.GREEDY_DEFAULTS
            p = np.asarray(given[stage].get(role, default), dtype=float)
            params[row, : p.size] = p
        return ids, params

    def stages(self) -> Stages:
        """The kernels' ``Stages`` bundle of these policies."""
        return make_stages(*self.arrays())

    @property
    def uses_solver(self) -> bool:
        """True when a play policy calls the exact solver (a real table per thread)."""
        return any(P.get("play", self.policy("play", r)).needs_solver for r in ROLES)


def solver_bits(uses_solver: bool) -> int:
    """Table size (log2 entries) per thread: a real table for the solver, a token one else."""
    return DD_TT_BITS if uses_solver else 1


def bundle_free(policies: Policies) -> bool:
    """True when each seat plays greedy, random or heuristic (``kernels.simple_deal``'s loop),
    False when a play calls the solver. A solver-free play outside that loop has no kernel: a
    new one belongs in ``simple_deal`` (ARCHITECTURE.md); until then ValueError."""
    if policies.uses_solver:
        return False
    for role in ROLES:
        name = policies.policy("play", role)
        if name not in SIMPLE_PLAYS:
            raise ValueError(
                f"play policy {name!r} neither calls the solver nor is one of the bundle-free "
                f"loop's ({', '.join(SIMPLE_PLAYS)}): no kernel plays it"
            )
    return True


def records_kernel(policies: Policies):
    """The records kernel for these policies (both give the same records): the bundle-free loop
    of ``simple_deal`` when :func:`bundle_free`, else ``simulate_records``."""
    return KD.simple_simulate_records if bundle_free(policies) else K.simulate_records


def _kernel_args(policies: Policies, rules: Rules) -> tuple[Stages, Env, int, int]:
    """Arguments after (seed, start, n) of ``simulate_records``."""
    n_spans = 4 * numba.get_num_threads()
    return policies.stages(), make_env(rules.to_array()), n_spans, solver_bits(policies.uses_solver)


def simulate(
    n: int,
    seed: int = 1,
    policies: Policies | None = None,
    rules: Rules = DEFAULT_RULES,
    start: int = 0,
) -> np.ndarray:
    """Records (int16[n, REC_LEN]) of deals start..start+n-1 of ``seed``."""
    policies = policies or Policies()
    return records_kernel(policies)(seed, start, n, *_kernel_args(policies, rules))


def simulate_chunks(
    n: int,
    seed: int = 1,
    policies: Policies | None = None,
    rules: Rules = DEFAULT_RULES,
    chunk: int = 500_000,
    start: int = 0,
) -> Iterator[np.ndarray]:
    """Records of n deals in chunks of at most ``chunk`` deals (memory stays flat)."""
    policies = policies or Policies()
    args = _kernel_args(policies, rules)
    kernel = records_kernel(policies)
    done = 0
    while done < n:
        size = min(chunk, n - done)
        yield kernel(seed, start + done, size, *args)
        done += size


def records_frame(records: np.ndarray) -> pd.DataFrame:
    """Records as a DataFrame: columns ``elder_<field>``, ``younger_<field>``, winners, net."""
    import pandas as pd  # here: most commands never need it, and it takes a second to import

    columns = {}
    for role, base in (("elder", L.REC_ELDER), ("younger", L.REC_YOUNGER)):
        for i, name in enumerate(FIELD_NAMES):
            columns[f"{role}_{name}"] = records[:, base + i]
    winner = np.array(["none", "elder", "younger", "equal"])
    columns["point_winner"] = winner[records[:, L.REC_WIN_POINT]]
    columns["sequence_winner"] = winner[records[:, L.REC_WIN_SEQUENCE]]
    columns["sets_winner"] = winner[records[:, L.REC_WIN_SETS]]
    columns["net"] = records[:, L.REC_NET]
    return pd.DataFrame(columns)
