"""The inliner patch (core/jit_inline.py): no copies of a fresh callee IR, the same code."""

from __future__ import annotations

import re

import numba
import numpy as np
import pytest

from piquet_sim.core.engine import jit, jit_inline

assert jit.njit  # importing core.jit installs the patch


@numba.njit(inline="always")
def _leaf(x):
    if x > 3:
        return x * 2
    return x - 1


@numba.njit(inline="always")
def _middle(x):
    return _leaf(x) + _leaf(x + 1)


def _top(a):
    total = 0
    for v in a:
        total += _middle(v) * _middle(v + 2)
    return total


def _normalised_llvm(dispatcher) -> str:
    """LLVM IR without what differs between two compiles of one function in one process: the
    numbers numba gives each dispatcher and each translation of an inlined function (in names)
    and its block labels (process-wide counters)."""
    text = dispatcher.inspect_llvm(dispatcher.signatures[0])
    text = re.sub(r"B\d+v\d+B", "BvB", text)  # length-prefixed: B2v1B, B4v815B
    text = re.sub(r"_v\d+_", "_v_", text)
    text = re.sub(r"\[\d+ x i8\]", "[N x i8]", text)  # names' lengths, counters included
    text = re.sub(r" +; preds = .*", "", text)  # padded to the labels' widths
    labels: dict[str, str] = {}
    return re.sub(r"\bB\d+\b", lambda m: labels.setdefault(m.group(), f"L{len(labels)}"), text)


def test_inliner_copies_nothing_and_compiles_the_same_code():
    if not jit_inline.active():
        pytest.skip("numba's inliner reads differently: the patch is off (slower compiles)")
    a = np.arange(-3, 12)
    expected = sum(
        (_leaf.py_func(v) + _leaf.py_func(v + 1)) * (_leaf.py_func(v + 2) + _leaf.py_func(v + 3))
        for v in a.tolist()
    )
    before = jit_inline.block_copies()
    patched = numba.njit(_top)  # a new dispatcher: compiles here, both levels inlined
    assert patched(a) == expected
    assert jit_inline.block_copies() == before
    with jit_inline.copies_kept():
        kept = numba.njit(_top)
        assert kept(a) == expected
    assert jit_inline.block_copies() > before  # numba's own path copies every block
    assert _normalised_llvm(patched) == _normalised_llvm(kept)
