"""Full-deal simulation API: policies by name, chunked runs, records as DataFrames.

Points are per player; ``net`` is elder minus younger. Deals are keyed by (seed, deal index), so
a run of N deals gives the same records however it is chunked or threaded.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numba
import numpy as np
import pandas as pd

from .kernels import layouts as L
from .kernels import simulate as K
from .kernels.declaring import DECLARATION_POLICIES
from .kernels.exchange import EXCHANGE_POLICIES, GREEDY_DEFAULT_PARAMS
from .kernels.play import PLAY_POLICIES as PLAY_POLICY_NAMES
from .kernels.solver_tt import KEYTAB, LOW8, POP8, QTTAB, REPTAB
from .kernels.tables import SUIT_TABLES
from .rules import DEFAULT_RULES, Rules

FIELD_NAMES = (
    "carte_blanche", "point", "sequence", "sets", "carte_rouge", "repique", "play", "cards",
    "pique", "total", "tricks", "taken", "dealt_point_len", "dealt_seq_len", "dealt_set",
    "final_point_len", "final_seq_len", "final_set",
)  # fmt: skip
assert len(FIELD_NAMES) == L.RF_BLOCK
PLAY_POLICIES = {name: i for i, name in enumerate(PLAY_POLICY_NAMES)}
DD_TT_BITS = 18  # solver table per span for dd play: 3 MB
SHARED_SOLVER_TABLES = (KEYTAB, REPTAB, QTTAB, LOW8, POP8)


@dataclass(frozen=True)
class Policies:
    """Policy names for every stage of a deal (see ``EXCHANGE_POLICIES`` and ``PLAY_POLICIES``)."""

    elder_exchange: str = "greedy"
    younger_exchange: str = "greedy"
    elder_play: str = "greedy"
    younger_play: str = "greedy"
    elder_declare: str = "all"
    younger_declare: str = "all"
    #: per role ("elder"/"younger"): greedy exchange weights (default GREEDY_DEFAULT_PARAMS)
    exchange_params: dict[str, np.ndarray] = field(default_factory=dict, compare=False)
    #: per role: declaration policy parameters (e.g. sink flags for "sink")
    declare_params: dict[str, np.ndarray] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        for stage in ("elder_exchange", "younger_exchange"):
            _check(stage, getattr(self, stage), EXCHANGE_POLICIES)
        for stage in ("elder_play", "younger_play"):
            _check(stage, getattr(self, stage), PLAY_POLICIES)
        for stage in ("elder_declare", "younger_declare"):
            _check(stage, getattr(self, stage), DECLARATION_POLICIES)

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """(policy ids int32[N_STAGES], parameters float64[N_STAGES, N_PARAMS]) for the kernel."""
        ids = np.zeros(L.STAGE_LEN, dtype=np.int32)
        params = np.zeros((L.STAGE_LEN, L.STAGE_PARAMS), dtype=np.float64)
        ids[L.STAGE_ELDER_EXCHANGE] = EXCHANGE_POLICIES[self.elder_exchange]
        ids[L.STAGE_YOUNGER_EXCHANGE] = EXCHANGE_POLICIES[self.younger_exchange]
        ids[L.STAGE_ELDER_DECLARE] = DECLARATION_POLICIES[self.elder_declare]
        ids[L.STAGE_YOUNGER_DECLARE] = DECLARATION_POLICIES[self.younger_declare]
        ids[L.STAGE_ELDER_PLAY] = PLAY_POLICIES[self.elder_play]
        ids[L.STAGE_YOUNGER_PLAY] = PLAY_POLICIES[self.younger_play]
        for stage, role in (
            (L.STAGE_ELDER_EXCHANGE, "elder"),
            (L.STAGE_YOUNGER_EXCHANGE, "younger"),
        ):
            p = np.asarray(self.exchange_params.get(role, GREEDY_DEFAULT_PARAMS), dtype=float)
            params[stage, : p.size] = p
        for stage, role in ((L.STAGE_ELDER_DECLARE, "elder"), (L.STAGE_YOUNGER_DECLARE, "younger")):
            p = np.asarray(self.declare_params.get(role, ()), dtype=float)
            params[stage, : p.size] = p
        return ids, params

    @property
    def uses_solver(self) -> bool:
        return "dd" in (self.elder_play, self.younger_play)


def _kernel_args(policies: Policies, rules: Rules) -> tuple:
    """Arguments after (seed, start, n) of ``simulate_records``."""
    ids, params = policies.arrays()
    bits = DD_TT_BITS if policies.uses_solver else 1
    n_spans = 4 * numba.get_num_threads()
    return (ids, params, SUIT_TABLES, rules.to_array(), n_spans, bits, *SHARED_SOLVER_TABLES)


def _check(stage: str, name: str, known: dict) -> None:
    if name not in known:
        raise ValueError(f"unknown {stage} policy {name!r}; choose from {', '.join(known)}")


def simulate(
    n: int,
    seed: int = 1,
    policies: Policies | None = None,
    rules: Rules = DEFAULT_RULES,
    start: int = 0,
) -> np.ndarray:
    """Records (int16[n, R_LEN]) of deals start..start+n-1 of ``seed``."""
    return K.simulate_records(seed, start, n, *_kernel_args(policies or Policies(), rules))


def simulate_chunks(
    n: int,
    seed: int = 1,
    policies: Policies | None = None,
    rules: Rules = DEFAULT_RULES,
    chunk: int = 500_000,
    start: int = 0,
) -> Iterator[np.ndarray]:
    """Records of n deals in chunks of at most ``chunk`` deals (memory stays flat)."""
    args = _kernel_args(policies or Policies(), rules)
    done = 0
    while done < n:
        size = min(chunk, n - done)
        yield K.simulate_records(seed, start + done, size, *args)
        done += size


def records_frame(records: np.ndarray) -> pd.DataFrame:
    """Records as a DataFrame: columns ``elder_<field>``, ``younger_<field>``, winners, net."""
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
